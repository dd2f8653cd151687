"""The unbatch route: every batched GEMM of a model rewritten into plain 2-D matmuls, so IREE 3.13's
inner-tiled data tiling (`--iree-llvmcpu-enable-inner-tiled`) can build the model.

Why (docs/DATA_TILING.md 11): on AVX-512 the inner-tiled lowering runs f32 GEMMs 1.1-1.7x faster
than the mmt4d ukernel (its register tile stacks up to 29 rows on a 16-lane column; the ukernel's
has 16), but in 3.13 it materialises no encoding with a batch dimension ("failed to legalize
operation 'linalg.batch_matmul'") and no GEMM that accumulates into a tensor other than zeros
("write affecting operations on global resources are restricted to workgroup distributed
contexts"). Exported transformers are full of batch_matmuls: iree-turbine writes a linear layer on
a [1, tokens, features] activation as a batch-1 batch_matmul, and attention as a batch over heads.

The route is a preprocessing transform script (`--iree-preprocessing-transform-spec-filename`),
written for the batches this model has (read from its input form, `k_split.input_gemms`):
0. Where step 1 unrolls a batch: every `linalg.transpose` is generalised and unit dimensions are
   folded away first, so no reshape stands between a batch_matmul and the ops that make its
   operands. Step 1's `fuse` then pulls them into each batch: for attention over fewer K/V heads
   than query heads (pi0's 8 over 1), the broadcast of the shared K and V to every head becomes
   one head's copy, which canonicalisation erases, so each head reads K and V themselves (pi0's
   expert layer 26.8 -> 24.2 ms; docs/DATA_TILING.md 14).
1. A batch_matmul over B > 1 products of more than one row, accumulating into zeros, is tiled
   along its batch with its zero fill fused into the loop and the loop unrolled: B batch-1
   products, each starting from its own zeros (a tile of the shared output would be read back as
   an accumulator).
2. Every batch-1 batch_matmul (the ones just made included) is generalised and its unit batch
   folded away (`linalg` unit-extent folding, then canonicalisation: the fill's reshape folds).
3. Each 3-loop contraction generic that is a plain matmul becomes a named `linalg.matmul` again,
   so IREE's transpose propagation does not fold a head split into it (a matmul with two N
   dimensions is not data-tiled: pi0's expert q projection ran 10.9 ms instead of 1.7 that way).

A batch_matmul of one-row products (ACT's linear layers: 82 tokens of one row each against a
broadcast weight) is left alone: IREE folds it into one GEMM over the tokens itself. The route
changes the whole build, so it competes as a preset (`unbatch_presets`), with the
inner-tiled flag and the global data-tiling path it exists for.

The hinted script (step 4, docs/DATA_TILING.md 13) also marks what inner-tiled can build: every
2-D contraction that starts from zeros and every batch of one-row products from zeros gets IREE's
data-tiling hint (`iree.opt.data_tiling`). When any op of a function carries it, IREE 3.13's
`AnnotateDataTilingHints` adds none of its own, so only the marked ops are data-tiled and the rest
(a decomposed attention's batched products, which accumulate into the running output) keep IREE's
default codegen instead of failing the build. SigLIP's layer builds inner-tiled that way under
attention decomposition. Not with im2col: the GEMMs im2col makes come after the script and would
carry no hint, so the im2col preset keeps the plain script.
"""

from __future__ import annotations

from pathlib import Path

from ...core.words import plural
from ... import flags
from ...flags import TRANSFORM_FLAG
from ...ir.conv_route import ConvRoute, dim_is, script_file, structured_matcher, verified_script
from ..flag_presets import INNER_TILED_PRESETS
from .k_split import plan_summed_splits, summed_split_lines

WHAT = "unbatch route for inner-tiled data tiling (docs/DATA_TILING.md 11)"


def unbatched_batches(gemms) -> list[int]:
    """The batch sizes step 1 unrolls: batch_matmuls of B > 1 products with more than one row."""
    return sorted({g.batch for g in gemms if g.op == "linalg.batch_matmul" and g.batch > 1 and g.m > 1})


def needs_unbatch(gemms) -> bool:
    """Whether the route changes anything: a batch_matmul it unrolls or flattens."""
    return any(g.op == "linalg.batch_matmul" and (g.batch == 1 or g.m > 1) for g in gemms)


# IREE's own data-tiling hint attribute (module doc, step 4).
DATA_TILING_HINT = "iree.opt.data_tiling"


def _from_zeros() -> list[str]:
    """Matcher lines (on `%op`): its accumulator is a `linalg.fill`."""
    return ["    %init = transform.get_producer_of_operand %op[2] : (!transform.any_op) -> !transform.any_op",
            "    transform.match.operation_name %init [\"linalg.fill\"] : !transform.any_op"]


def _hint_lines() -> list[str]:
    """Step 4's matchers and action: 2-D contractions and one-row batches, each from zeros."""
    # Any structured op (named matmul variants and generics alike): rank 3, a contraction body.
    lines = structured_matcher("tileable", None, _rank_three_contraction(), after=_from_zeros())
    lines += structured_matcher("rows", "linalg.batch_matmul", dim_is(1, 1), after=_from_zeros())
    return lines + ["  transform.named_sequence @hint(%op: !transform.any_op {transform.readonly}) {",
                    f"    transform.annotate %op \"{DATA_TILING_HINT}\" : !transform.any_op",
                    "    transform.yield",
                    "  }"]


def _rank_three_contraction() -> list[str]:
    return ["      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>",
            "      %three = transform.param.constant 3 : i64 -> !transform.param<i64>",
            "      transform.match.param.cmpi eq %r, %three : !transform.param<i64>",
            # Generic form: 3.13's parser takes `contraction` only as a property.
            "      \"transform.match.structured.body\"(%s) <{contraction = [\"arith.mulf\", \"arith.addf\"]}>"
            " : (!transform.any_op) -> ()"]


def unbatch_script_text(batches: list[int], hinted: bool = False, splits=()) -> str:
    """The preprocessing transform script (steps 1-3 of the module doc, and 4 when `hinted`) for
    these batch sizes; with `splits` (`k_split.KSplit`s), the long-K matmuls the rewrite leaves are
    then cut into chunks summed after (`k_split.summed_split_lines`), before the hint."""
    sequences, body = unbatch_script_parts(batches, hinted, splits)
    return "\n".join([
        "// Batched GEMMs -> 2-D matmuls for inner-tiled data tiling (iree-dsa-tune, docs/DATA_TILING.md 11).",
        "// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...",
        "module attributes {transform.with_named_sequence} {",
        *sequences,
        "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {",
        *body,
        "    transform.yield",
        "  }",
        "}"]) + "\n"


def unbatch_script_parts(batches: list[int], hinted: bool = False, splits=(),
                         root: str = "%root") -> tuple[list[str], list[str]]:
    """(its named sequences, its main-body lines acting on the module handle `root`) of
    `unbatch_script_text`'s script: another route's script runs it after its own steps that way
    (register_tiled.py)."""
    lines = []
    for b in batches:
        lines += structured_matcher(f"batch{b}", "linalg.batch_matmul", dim_is(0, b) + dim_is(1, 1, "gt"),
                                    after=_from_zeros())
        lines += [f"  transform.named_sequence @unroll_batch{b}(%op: !transform.any_op {{transform.consumed}}) {{",
                  # `fuse` (not tile_using_for): it follows the loop's output back to the fill and
                  # fuses it, so every product starts from its own zeros.
                  "    %one, %loop = transform.structured.fuse %op tile_sizes [1, 0, 0, 0]"
                  " : (!transform.any_op) -> (!transform.any_op, !transform.op<\"scf.for\">)",
                  f"    transform.loop.unroll %loop factor = {b} : !transform.op<\"scf.for\">",
                  "    transform.yield",
                  "  }"]
    lines += structured_matcher("batch1", "linalg.batch_matmul", dim_is(0, 1))
    lines += ["  transform.named_sequence @flatten(%op: !transform.any_op {transform.consumed}) {",
              "    %g = transform.structured.generalize %op : (!transform.any_op) -> !transform.any_op",
              "    transform.yield",
              "  }"]
    lines += structured_matcher("gemm", "linalg.generic", _rank_three_contraction())
    lines += ["  transform.named_sequence @specialize(%op: !transform.any_op {transform.consumed}) {",
              "    %named = transform.structured.specialize %op : (!transform.any_op) -> !transform.any_op",
              "    transform.yield",
              "  }"]
    split_lines, split_pairs = summed_split_lines(list(splits))
    lines += split_lines
    if hinted:
        lines += _hint_lines()
    body = []
    current = root
    if batches:
        body += _shared_heads_lines(root)
        pairs = ", ".join(f"@match_batch{b} -> @unroll_batch{b}" for b in batches)
        body += [f"    %unrolled = transform.foreach_match in {root} {pairs} : (!transform.any_op) -> !transform.any_op"]
        current = "%unrolled"
    body += [f"    %flat = transform.foreach_match in {current} @match_batch1 -> @flatten : (!transform.any_op) -> !transform.any_op",
             *_folded_and_named("%flat", "%named", "")]
    if split_pairs:
        body += [f"    %cut = transform.foreach_match in %named {', '.join(split_pairs)} : (!transform.any_op) -> !transform.any_op",
                 *_folded_and_named("%cut", "%named_cut", "_cut")]
    named = "%named_cut" if split_pairs else "%named"
    if hinted:
        body += [f"    %hinted = transform.foreach_match in {named} @match_tileable -> @hint, @match_rows -> @hint"
                 " : (!transform.any_op) -> !transform.any_op"]
    return lines, body


def _shared_heads_lines(root: str) -> list[str]:
    """Step 0's main-body lines: every transpose generalised, unit dimensions folded away."""
    return [f"    %transposes = transform.structured.match ops{{[\"linalg.transpose\"]}} in {root}"
            " : (!transform.any_op) -> !transform.any_op",
            "    %transposes_generic = transform.structured.generalize %transposes"
            " : (!transform.any_op) -> !transform.any_op",
            f"    %funcs_heads = transform.structured.match ops{{[\"util.func\", \"func.func\"]}} in {root}"
            " : (!transform.any_op) -> !transform.any_op",
            "    transform.apply_patterns to %funcs_heads {",
            "      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes",
            "      transform.apply_patterns.canonicalization",
            "    } : !transform.any_op"]


def _folded_and_named(handle: str, result: str, suffix: str) -> list[str]:
    """Main-body lines: unit dimensions folded away in every function under `handle`, then each
    plain-matmul generic named again (`result`: the updated handle)."""
    funcs = f"%funcs{suffix}"
    return [f"    {funcs} = transform.structured.match ops{{[\"util.func\", \"func.func\"]}} in {handle}"
            " : (!transform.any_op) -> !transform.any_op",
            f"    transform.apply_patterns to {funcs} {{",
            "      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes",
            "      transform.apply_patterns.canonicalization",
            "    } : !transform.any_op",
            f"    {result} = transform.foreach_match in {handle} @match_gemm -> @specialize : (!transform.any_op) -> !transform.any_op"]


def unbatch_flags(gemms, directory: Path, hinted: bool = False, splits=()) -> tuple[str, ...]:
    """The iree-compile flag that applies the route to a model with these `InputGemm`s (the verified
    script, content-addressed; with step 4 when `hinted`, and these summed K splits); () when it
    would change nothing."""
    if not needs_unbatch(gemms):
        return ()
    text = verified_script(unbatch_script_text(unbatched_batches(gemms), hinted, splits), "unbatch")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, 'unbatch-')}",)


def plan_unbatch_route(gemms, directory: Path, taken_flags: tuple[str, ...] = ()) -> ConvRoute:
    """The route for a model with these `InputGemm`s (its input form); empty: nothing to unbatch, or
    `taken_flags` already name a preprocessing script (iree-compile takes one)."""
    route = ConvRoute(what=WHAT, key="unbatch_route")
    if not needs_unbatch(gemms):
        return route
    if any(f.startswith(TRANSFORM_FLAG) for f in taken_flags):
        route.notes.append(f"not taken: it needs {TRANSFORM_FLAG}, which another route or the given flags already set")
        return route
    route.flags = unbatch_flags(gemms, directory)
    batches = unbatched_batches(gemms)
    flat = sum(1 for g in gemms if g.op == "linalg.batch_matmul" and g.batch == 1)
    route.notes.append(f"{plural(flat, 'batch-1 batch_matmul')} as matmuls"
                       + (f"; batches of {', '.join(map(str, batches))} unrolled" if batches else ""))
    return route


# The plain inner-tiled presets do not build on a model with batched GEMMs: this route's presets
# stand in for them when it is taken.
REPLACES = INNER_TILED_PRESETS


# Where this route stands among the host's routes (host/routes/__init__.py): planned after k_split (it reads planned['k_split']),
# then its presets timed, each in rank order.
PLAN_RANK = 30
PRESET_RANK = 50


def plan(planning) -> ConvRoute:
    """The route for the model's input-form GEMMs (`plan_unbatch_route`)."""
    route = plan_unbatch_route(planning.gemms, planning.directory)
    if route:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    """`unbatch_presets` with the hinted scripts. With long reductions too (the long-K route taken),
    one script does both (iree-compile takes one): the K chunks summed after, which inner-tiled
    builds where the in-order ones do not. A row block above the L2 (k_split rule 3) is cut in
    every hinted script: it is for the inner-tiled kernel, which every preset using the hinted
    script builds."""
    gemms, cpu, directory = planning.gemms, planning.cpu, planning.directory
    row_splits = plan_summed_splits(gemms, cpu, long_k=False) if cpu is not None else []
    splits = plan_summed_splits(gemms, cpu) if planning.planned.get("k_split") else []
    added = unbatch_presets(route.flags, unbatch_flags(gemms, directory, hinted=True, splits=row_splits),
                            unbatch_flags(gemms, directory, hinted=True, splits=splits) if splits else ())
    if row_splits:
        planning.say("inner-tiled row blocks above the L2, cut in the hinted script: "
                     + ", ".join(f"K {s.k} (N {s.n}) in {s.pieces} chunks of {s.chunk}" for s in row_splits))
    return added


def unbatch_presets(route_flags: tuple[str, ...], hinted_flags: tuple[str, ...] = (),
                    split_flags: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The presets the unbatch route adds (this module): its script under inner-tiled data tiling
    on the global path, with im2col too, and with attention decomposed (each dropped by
    `presets_that_apply` on a model without a convolution, or an attention op). They stand in for
    `INNER_TILED_PRESETS`, which do not build on a model with batched GEMMs.

    `hinted_flags` name the script that also marks the GEMMs inner-tiled can build (step 4 of
    this module): without it, a decomposed attention's batched products fail the build (SigLIP's
    layer). im2col's GEMMs come after the script and carry no mark, so its preset keeps the plain one,
    with the convolutions' bias detached (`flags.IM2COL_INNER_TILED_PIPELINE`).
    `split_flags` name the hinted script that also cuts the long-K route's reductions into chunks
    summed after (`k_split.summed_split_lines`): the long-K route for inner-tiled data tiling (pi0's
    prefix layer, docs/DATA_TILING.md 13)."""
    hinted = tuple(hinted_flags or route_flags)
    tail = (flags.GLOBAL_DATA_TILING_FLAG, flags.INNER_TILED_FLAG)
    presets = {"unbatch+gdt+inner-tiled": hinted + tail,
               "unbatch+im2col+gdt+inner-tiled": (flags.IM2COL_FLAG, flags.IM2COL_INNER_TILED_PIPELINE)
                                                 + tuple(route_flags) + tail,
               "attn-decomposed+unbatch+gdt+inner-tiled": (flags.DECOMPOSE_ATTENTION_FLAG,) + hinted + tail}
    if split_flags:
        presets["unbatch+k-split+gdt+inner-tiled"] = tuple(split_flags) + tail
    return presets


__all__ = ["DATA_TILING_HINT", "REPLACES", "WHAT", "needs_unbatch", "plan", "plan_unbatch_route", "presets", "unbatch_flags",
           "unbatch_presets", "unbatch_script_parts", "unbatch_script_text", "unbatched_batches"]
