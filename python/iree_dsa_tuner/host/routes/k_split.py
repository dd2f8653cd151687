"""The long-K route: a GEMM whose reduction is too long for the L2 split into chunks that
accumulate in order, so IREE's data-tiled kernel works on panels that stay in the cache.

Why (docs/DATA_TILING.md 9): under data tiling IREE 3.13 runs a GEMM as the mmt4d ukernel over
the whole K of each (row tile, column tile) pair; the pipeline (`Mmt4dTilingExpert`) has no
cache-level tile, and no lowering config a spec sets makes it block K. A pair of panels then
takes (M0 + N0) x K x element bytes: 2 MiB for pi0's FFN down projection (K = 16384, 16 x 16
f32 tiles on AVX-512), the whole L2, so every panel is streamed from the L3 again for each tile it
meets. Cut into 2048-wide chunks (eight matmuls, each accumulating into the last one's result),
the same GEMM ran 1494 -> 660 ms on one thread (`bench/gemm_ceiling.py --k-split`), and the whole
prefix layer 2824 -> 2107 ms (`bench/lerobot_vs_pytorch.py --baseline-recipes`; 2026-12-01).

The split is a preprocessing transform script (`--iree-preprocessing-transform-spec-filename`):
each `linalg.matmul` / `linalg.batch_matmul` with one of the long reductions this model has is
tiled along K and the loop unrolled, so every chunk is a dispatch of its own with static shapes.
It changes the whole build, so it is a route: its flags compete as presets in the host recipe
(`host.routes`), and a spec tuned under it is valid only with them.

Which GEMMs: the route reads them in the model's input form (`--compile-to=input`: the ops the
script will meet, with their real shapes), not in the dispatches, where IREE has already folded a
batch into the rows. Two rules, both in units of the L2 (`cpu.l2_bytes`, read off the machine);
M0 and N0 are taken as the f32 lanes of a vector register (16 with AVX-512, 8 with AVX2):

1. Long K. A panel pair ((M0 + N0) x K x element bytes) above half the L2 is cut into the widest
   divisor of K, a multiple of the lanes, whose pair takes at most an eighth of the L2 (2048 on
   that machine; 1024 ran as fast, 4096 and 512 slower, `gemm_ceiling.py --k-chunks`; K = 2048
   GEMMs cut further only got slower).
2. Few rows, long K. A GEMM whose output (rows padded to M0, x N, f32) fits half the L2 but whose
   row block (all its rows x K) does not fit a sixteenth of it is cut so that the row block does,
   in chunks no narrower than 32 lanes: the mmt4d kernel then reuses those rows from the cache
   for every column panel of the weight.
   pi0's action expert (51 tokens): its K = 4096 and K = 1024 GEMMs in 512-wide chunks, the
   whole layer 1.06x (pi0) and 1.18x (pi0.5) on one thread, beside the recipes without it
   (`bench/lerobot_vs_pytorch.py --baseline-recipes`; the GEMMs alone 1.07-1.38x,
   `bench/gemm_ceiling.py --only expert --k-chunks 1024 512 256`; 2026-12-02). Many rows (pi0's
   816-token prefix) make every partial product a large tensor: rule 1 only.

3. Inner-tiled only (`plan_summed_splits`): a row block above the L2. IREE 3.13's inner-tiled
   kernel (`--iree-llvmcpu-enable-inner-tiled`, docs/DATA_TILING.md 11) computes a tile of
   `vector_registers - 3` rows (29 with AVX-512, 13 with AVX2) over the whole K, and its best
   distribution keeps every row tile of a column panel in one workgroup, so the row block (all the
   rows, padded to that tile, x K) is read again for each column panel: from the L2 while it fits,
   from the L3 when it does not. A GEMM whose row block is above the L2 but whose output fits it
   is cut into the fewest chunks (a divisor of K, at most 8) whose block fits, summed after.
   SigLIP's fc2 (256 x 4304 -> 1152, a 4.5 MB block on a 2 MiB L2): 4 chunks of 1076, its dispatch
   26.4 -> 18.7 ms, the layer 1.10x (docs/DATA_TILING.md 15). f32 only: the one type measured,
   and chunks need not be whole vectors there (its intrinsic takes one K step at a time).

A `linalg.batch_matmul` is cut only when its batch is 1. ACT's transformer runs its linear layers
as batch_matmuls over 82 tokens of one row each against a broadcast weight, which IREE folds into
one GEMM; cut, the broadcast was materialised (82 x 3200 x 512) and ACT ran 12x slower.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.problems import ContractionProblem, element_bits
from ...core.words import plural
from ...flags import GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from ...ir.conv_route import ConvRoute, dim_is, foreach_match_main, script_file, structured_matcher, verified_script
from ..flag_presets import TILE_BYTES_4M

WHAT = "long-K split route (docs/DATA_TILING.md 9)"

# Named ops the script matches -> the loop index of their reduction (the batch is loop 0 of a
# batch_matmul, N the one before K).
_K_LOOP = {"linalg.matmul": 2, "linalg.batch_matmul": 3}

# Of the L2 (rule 1): a pair of panels above this share is split, into chunks whose pair fits this one.
SPLIT_ABOVE = 1 / 2
CHUNK_PAIR_SHARE = 1 / 8
# Of the L2 (rule 2): an output up to this share, a row block above this one.
SHORT_OUTPUT_SHARE = 1 / 2
ROW_BLOCK_SHARE = 1 / 16
# Rule 2's narrowest chunk, in vector lanes (512 f32 with AVX-512): 256-wide chunks ran slower
# than 512-wide ones on the expert's down projection, and a GEMM that needs narrower chunks has
# too many rows for the rule (pi0's prefix: 816).
MIN_ROW_CHUNK_LANES = 32
# Rule 3's most chunks: each is a partial output written and summed after.
MAX_SUMMED_PIECES = 8


@dataclass(frozen=True)
class KSplit:
    """Contractions with this reduction length (and, when `n` is set, this many columns) are cut
    into `chunk`-wide pieces."""

    k: int
    chunk: int
    n: int | None = None

    @property
    def pieces(self) -> int:
        return self.k // self.chunk


@dataclass(frozen=True)
class InputGemm:
    """A named GEMM of the model's input form, as the route's script meets it."""

    op: str  # "linalg.matmul" | "linalg.batch_matmul"
    batch: int  # 1 for a matmul
    m: int
    n: int
    k: int
    element_bytes: int


def panel_pair_bytes(k: int, lanes: int, element_bytes: int) -> int:
    """One row panel and one column panel of a data-tiled GEMM (M0 = N0 = lanes)."""
    return 2 * lanes * k * element_bytes


def widest_chunk(k: int, lanes: int, fits) -> int | None:
    """The widest divisor of k below k, a multiple of the lanes, that `fits`."""
    chunks = [d for d in range(lanes, k // 2 + 1, lanes) if k % d == 0 and fits(d)]
    return max(chunks) if chunks else None


def split_for(k: int, element_bytes: int, cpu, m: int | None = None, n: int | None = None) -> KSplit | None:
    """How a reduction of length `k` over `element_bytes`-wide operands is cut on a CPU described by
    `cpu` (`CpuModel`: its L2 and vector width); None: it is kept whole. With the GEMM's rows `m`
    and columns `n`, the few-rows rule applies too (its split names `n`)."""
    lanes = cpu.vector_register_bytes // 4
    l2 = cpu.l2_bytes
    if panel_pair_bytes(k, lanes, element_bytes) > SPLIT_ABOVE * l2:
        chunk = widest_chunk(k, lanes, lambda d: panel_pair_bytes(d, lanes, element_bytes) <= CHUNK_PAIR_SHARE * l2)
        return KSplit(k, chunk) if chunk else None
    if m is None or n is None:
        return None
    rows = -(-m // lanes) * lanes
    if rows * n * 4 > SHORT_OUTPUT_SHARE * l2 or rows * k * element_bytes <= ROW_BLOCK_SHARE * l2:
        return None
    chunk = widest_chunk(k, lanes, lambda d: rows * d * element_bytes <= ROW_BLOCK_SHARE * l2)
    return KSplit(k, chunk, n) if chunk and chunk >= MIN_ROW_CHUNK_LANES * lanes else None


def inner_tiled_rows(cpu) -> int:
    """Rows of IREE 3.13's inner-tiled f32 register tile: every vector register but three
    accumulates (29 x 16 on AVX-512, 13 x 8 on AVX2; docs/DATA_TILING.md 11)."""
    return max(1, cpu.vector_registers - 3)


def row_block_split(g: InputGemm, cpu) -> KSplit | None:
    """Rule 3 (inner-tiled only) for one `InputGemm`: its K in the fewest chunks whose row block fits
    the L2; None when the block fits already, the output does not, or no chunk count up to
    MAX_SUMMED_PIECES divides K so."""
    if g.op not in _K_LOOP or g.batch != 1 or g.element_bytes != 4:
        return None
    tile = inner_tiled_rows(cpu)
    rows = -(-g.m // tile) * tile
    l2 = cpu.l2_bytes
    if rows * g.n * 4 > l2 or rows * g.k * g.element_bytes <= l2:
        return None
    for pieces in range(2, MAX_SUMMED_PIECES + 1):
        if g.k % pieces == 0 and rows * (g.k // pieces) * g.element_bytes <= l2:
            return KSplit(g.k, g.k // pieces, g.n)
    return None


def plan_summed_splits(gemms, cpu, *, long_k: bool = True) -> list[KSplit]:
    """The reductions of `gemms` to cut into chunks summed after, for the inner-tiled build: rule 3's
    and, with `long_k`, the other rules' (`plan_splits`); one split per reduction length and columns,
    a length the other rules cut whatever its columns taking precedence."""
    splits = plan_splits(gemms, cpu) if long_k else []
    whole = {s.k for s in splits if s.n is None}
    taken = {(s.k, s.n) for s in splits}
    for g in gemms:
        s = row_block_split(g, cpu)
        if s is not None and s.k not in whole and (s.k, s.n) not in taken:
            splits.append(s)
            taken.add((s.k, s.n))
    return sorted(splits, key=lambda s: (s.k, s.n or 0))


def plan_splits(gemms, cpu) -> list[KSplit]:
    """The reductions of `gemms` (`InputGemm`s) worth splitting on a CPU described by `cpu`."""
    splits: dict[tuple, KSplit] = {}
    for g in gemms:
        if g.op not in _K_LOOP or g.batch != 1:  # see the module doc: a batch may be a broadcast
            continue
        split = split_for(g.k, g.element_bytes, cpu, g.m, g.n)
        if split is not None:
            splits.setdefault((split.k, split.n or 0), split)
    # One split per length: a length cut whatever its columns covers the per-column ones.
    whole = {s.k for s in splits.values() if s.n is None}
    return [s for key, s in sorted(splits.items()) if s.n is None or s.k not in whole]


def input_gemms(text: str) -> list[InputGemm]:
    """The static-shaped `linalg.matmul` / `linalg.batch_matmul` ops of a model's input form."""
    from iree.compiler import ir

    found: list[InputGemm] = []

    def visit(op) -> "ir.WalkResult":
        name = op.name
        if name in _K_LOOP and len(op.operands) >= 3:
            types = [ir.RankedTensorType(v.type) for v in list(op.operands)[:3]
                     if isinstance(v.type, ir.RankedTensorType)]
            if len(types) == 3 and all(t.has_static_shape for t in types) and _plain_gemm(*types):
                lhs, rhs, _ = types
                shape = list(lhs.shape)
                batch = shape[0] if name == "linalg.batch_matmul" else 1
                bits = max(element_bits(str(lhs.element_type)), element_bits(str(rhs.element_type)))
                found.append(InputGemm(name, batch, shape[-2], list(rhs.shape)[-1], shape[-1], max(1, bits // 8)))
        return ir.WalkResult.ADVANCE

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        module.operation.walk(visit)
    return found


def _plain_gemm(lhs, rhs, out) -> bool:
    """(B x) M x K times (B x) K x N into (B x) M x N: not a transposed variant (indexing maps)."""
    a, b, c = list(lhs.shape), list(rhs.shape), list(out.shape)
    return a[-1] == b[-2] and c[-2:] == [a[-2], b[-1]] and a[:-2] == b[:-2] == c[:-2]


def k_split_flags(splits: list[KSplit], directory: Path) -> tuple[str, ...]:
    """The iree-compile flag that applies these splits (the verified script, content-addressed)."""
    text = verified_script(k_split_script_text(splits), "long-K split")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, 'k-split-')}",)


def k_split_script_text(splits: list[KSplit]) -> str:
    """The preprocessing transform script that cuts these reductions into chunks."""
    lines = ["// Long-K GEMMs -> chunks that accumulate in order (iree-dsa-tune, docs/DATA_TILING.md 9).",
             "// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...",
             "module attributes {transform.with_named_sequence} {"]
    pairs = []
    for op, k_loop in _K_LOOP.items():
        short = op.split(".")[1]
        for s in splits:
            name = f"{short}_k{s.k}" + (f"_n{s.n}" if s.n is not None else "")
            pairs.append(name)
            tiles = ", ".join(str(s.chunk) if i == k_loop else "0" for i in range(k_loop + 1))
            # Loop -> the extent it must have: K, N when named, a batch of 1.
            extents = {k_loop: s.k, **({k_loop - 1: s.n} if s.n is not None else {}),
                       **({0: 1} if op == "linalg.batch_matmul" else {})}
            lines += structured_matcher(name, op, [line for loop, extent in sorted(extents.items(), reverse=True)
                                                   for line in dim_is(loop, extent)])
            lines += [
                f"  transform.named_sequence @split_{name}(%op: !transform.any_op {{transform.consumed}}) {{",
                f"    %chunk, %loop = transform.structured.tile_using_for %op tile_sizes [{tiles}]"
                " : (!transform.any_op) -> (!transform.any_op, !transform.op<\"scf.for\">)",
                # Unrolled: static slices, so each chunk is a dispatch IREE dumps a benchmark for,
                # and a constant weight's slices are packed once at initialisation.
                f"    transform.loop.unroll %loop factor = {s.pieces} : !transform.op<\"scf.for\">",
                "    transform.yield",
                "  }",
            ]
    return "\n".join(lines + foreach_match_main(pairs, "split")) + "\n"


def summed_split_lines(splits: list[KSplit]) -> tuple[list[str], list[str]]:
    """The long-K cut for inner-tiled data tiling, as lines of a preprocessing script that runs after
    the unbatch route's rewrite (unbatch.py; its script takes them): (the named sequences, their
    `@match -> @action` pairs). Each `linalg.matmul` with one of these reductions becomes `pieces`
    matmuls that each start from their own zeros, summed after. Inner-tiled builds no GEMM that
    accumulates into another's result, so the in-order chunks above do not build with it
    (docs/DATA_TILING.md 13): `split_reduction` makes the chunks a parallel loop over a [pieces, M,
    N] partial result, and `fuse` unrolls it with its zero fill, as the unbatch route does heads."""
    lines: list[str] = []
    pairs: list[str] = []
    for s in splits:
        name = f"k{s.k}" + (f"_n{s.n}" if s.n is not None else "")
        extents = {2: s.k, **({1: s.n} if s.n is not None else {})}
        lines += structured_matcher(f"summed_{name}", "linalg.matmul",
                                    [line for loop, extent in sorted(extents.items()) for line in dim_is(loop, extent)])
        lines += [
            f"  transform.named_sequence @sum_{name}(%op: !transform.any_op {{transform.consumed}}) {{",
            # Generic form: 3.13's parser takes these only as properties. Split dimension 0: each
            # chunk's partial result is a contiguous [M, N] slice.
            "    %init, %fill, %split, %sum = \"transform.structured.split_reduction\"(%op)"
            f" <{{split_factor = {s.pieces} : i64, insert_split_dimension = 0 : i64}}>"
            " : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)",
            "    %one, %loop = transform.structured.fuse %split tile_sizes [1, 0, 0, 0]"
            " : (!transform.any_op) -> (!transform.any_op, !transform.op<\"scf.for\">)",
            f"    transform.loop.unroll %loop factor = {s.pieces} : !transform.op<\"scf.for\">",
            "    transform.yield",
            "  }"]
        pairs.append(f"@match_summed_{name} -> @sum_{name}")
    return lines, pairs


def plan_k_split_route(gemms, problems, cpu, directory: Path, taken_flags: tuple[str, ...] = ()) -> ConvRoute:
    """The route for this model's GEMMs (`input_gemms` of its input form; empty: none is cut).

    `problems`: the dispatches of the plain build, to name those the route touches.
    `taken_flags`: flags already in the build (the user's, or another route's); one naming a
    preprocessing transform script blocks this route, since iree-compile takes one script."""
    splits = plan_splits(gemms, cpu) if cpu is not None else []
    route = ConvRoute(what=WHAT, key="k_split_route")
    if not splits:
        return route
    cut = {(s.k, s.n) for s in splits}
    route.dispatches = tuple(p.dispatch for p in problems if isinstance(p, ContractionProblem)
                             and ((p.K, None) in cut or (p.K, p.N) in cut))
    if any(f.startswith(TRANSFORM_FLAG) for f in taken_flags):
        route.notes.append(f"not taken: it needs {TRANSFORM_FLAG}, which another route or the given flags already set")
        return route
    route.flags = k_split_flags(splits, directory)
    route.notes.append("K " + ", ".join(f"{s.k}" + (f" (N {s.n})" if s.n is not None else "")
                                        + f" in {s.pieces} chunks of {s.chunk}" for s in splits))
    return route


# Where this route stands among the host's routes (host/routes/__init__.py): planned,
# then its presets timed, each in rank order.
PLAN_RANK = 20
PRESET_RANK = 40


def plan(planning) -> ConvRoute:
    """The route for the model's input-form GEMMs, on its CPU (`plan_k_split_route`)."""
    route = plan_k_split_route(planning.gemms, planning.plain.problems(), planning.cpu, planning.directory)
    if route:
        planning.say(f"{route.what} for {plural(len(route.dispatches), 'dispatch')}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    return k_split_presets(route.flags)


def k_split_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The preset the long-K route adds (this module): its script on the global data-tiling path
    with the large mmt4d tiles its model won with (pi0's prefix layer, the one such model so far).
    The split is for data-tiled kernels, so there is none without data tiling; on the default path
    IREE 3.13 does not build it (the pack of a weight slice gets a 1x512x16 f32 vector: "large vector
    sizes" on the prefix layer, 2026-12-01)."""
    return {"k-split+gdt+tile-bytes-4m": tuple(route_flags) + (GLOBAL_DATA_TILING_FLAG, TILE_BYTES_4M)}


__all__ = ["InputGemm", "KSplit", "WHAT", "widest_chunk", "inner_tiled_rows", "input_gemms", "k_split_flags", "k_split_presets",
           "k_split_script_text", "plan", "presets",
           "panel_pair_bytes", "plan_k_split_route", "plan_splits", "plan_summed_splits", "row_block_split", "split_for",
           "summed_split_lines"]
