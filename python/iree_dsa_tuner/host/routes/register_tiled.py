"""The register-tiled GEMM route: a model's f32 linear layers packed, before IREE sees them, into the
register tile a BLAS would use on this CPU, and lowered by IREE's mmt4d codegen instead of its
ukernel.

Why (docs/DATA_TILING.md 18): IREE 3.13's data tiling packs an f32 GEMM into the tile its encoding
resolver fixes, 8 x 8 x 1 with AVX2, and the mmt4d ukernel for that tile keeps 8 accumulators and
loads 9 operands (8 broadcasts, 1 row) per 8 FMAs. With two load and two FMA ports the loads
bound it: 71-75% of the FMA peak on SigLIP's GEMMs, where OpenBLAS's 6 x 16 kernel (12
accumulators, 8 loads per 12 FMAs) reaches 80-85% (docs/PERFORMANCE.md 4v). No flag or spec of
3.13 changes the encoding's tile. Packed by the transform dialect into a `linalg.mmt4d` with our
tile, the weight's pack is hoisted into an initializer (a parameter is constant), the activation's
runs per call, and IREE's `Mmt4dTilingExpert` vectorises the 6 x 16 x 1 tile itself (the ukernel
has no fast path for it, so the route turns ukernels off). SigLIP's GEMMs ran 1.04-1.19x faster
that way than under the data-tiled ukernel, level with OpenBLAS; with 4 MiB mmt4d tiles IREE
distributes them as the search would (a whole column panel per workgroup).

The tile (`register_tile`): two registers wide (N0 = two vectors of f32 lanes), K0 = 1, and as many
rows as leave three registers for the operands (two for the weight's row, one for the broadcast
activation): 6 x 16 with AVX2's 16 ymm registers, 14 x 32 with AVX-512's 32. Rows and columns are
padded to the tile. On AVX-512, 14 rows ran pi0's expert GEMMs (51 rows, padded to 56) 1.07-1.12x
faster than 12 (padded to 60) and SigLIP's level with them (docs/PERFORMANCE.md 4w).

The route is a preprocessing transform script (`--iree-preprocessing-transform-spec-filename`,
`register_tiled_script_text`):
1. Upstream passes, run from the script on every function: named ops generalised, unit dimensions
   folded, contractions named again, so a batch-1 `linalg.batch_matmul` (iree-turbine's linear
   layer) becomes a plain `linalg.matmul`, and a batch over attention heads stays a batch_matmul.
2. Each `linalg.matmul` whose operands are 32-bit is packed into the tile, its weight's pack
   transposed to the mmt4d layout (N1, K1, N0, K0).
   A long reduction (`k_chunk`: a row panel and a column panel of the tile above half the L2, the
   long-K route's rule, docs/DATA_TILING.md 9) is cut along K1 into chunks whose panels take at most
   an eighth of it, and the loop unrolled: mmt4d products that accumulate in order into the packed
   result, so the activation is packed once and the result unpacked once.
3. The contractions are named again, so that the packed product is a `linalg.mmt4d`, the op
   IREE's mmt4d pipeline takes.
Batched products (attention over heads, both operands made per call) are left to IREE: packed,
their packs would run per call, and such a packed product built 11x slower on SigLIP's attention
(45 ms, against 4 for IREE's own build).

Linear layers over [tokens, 1, features] (torch's linear on a sequence-first activation, ACT's
transformer) arrive as a batch_matmul of one-row products against a broadcast weight, which the
script above leaves to IREE. A second, linear-only script (`linear_script_text`) matches each such
layer whole and replaces it by one mmt4d, the tokens as the rows of the tile fitted to them
(`packed_rows`), the weight as torch stores it as the right-hand side; it runs no whole-function
pass, so a model's convolutions stay named ops for IREE's im2col, and its presets sit beside the
convolution routes (`linear_conv_presets`).

It changes the whole build, so its presets compete on the whole model, and a spec tuned under them
is valid only with their flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.words import plural
from ...flags import DECOMPOSE_ATTENTION_FLAG, GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG
from ...ir.conv_route import (ConvRoute, dag_matcher, dim_is, inline_call_action, inline_replacements_script,
                                script_file, structured_matcher, tap_widths, taps_script_parts, verified_script)
from ..flag_presets import TILE_BYTES_4M
from .k_split import CHUNK_PAIR_SHARE, SPLIT_ABOVE, widest_chunk
from .unbatch import unbatch_script_parts, unbatched_batches

WHAT = "register-tiled GEMM route (docs/DATA_TILING.md 18)"
SCRIPT_PREFIX = "register-tiled-"

# The mmt4d tile is one the ukernel has no fast path for (6 x 16 ran 50x slower under it).
NO_UKERNELS_FLAG = "--iree-llvmcpu-enable-ukernels=none"
# Vector registers that hold the operands of a step: the weight's row (REGISTERS_PER_ROW) and
# the broadcast activation; every other register accumulates.
OPERAND_REGISTERS = 3
# Registers across a row of the tile.
REGISTERS_PER_ROW = 2
# Step 1's passes, in order (upstream MLIR's, run by the script).
NAMED_AS_2D = ("linalg-generalize-named-ops", "linalg-fold-unit-extent-dims", "linalg-specialize-generic-ops")


def register_tile(cpu) -> tuple[int, int, int]:
    """(M0, N0, K0) of the packed f32 GEMM on a CPU described by `cpu` (`CpuModel`)."""
    lanes = cpu.vector_register_bytes // 4
    rows = max(1, (cpu.vector_registers - OPERAND_REGISTERS) // REGISTERS_PER_ROW)
    return rows, REGISTERS_PER_ROW * lanes, 1


def packed_rows(n: int, most: int) -> int:
    """The rows of a register tile over `n` rows of data that pad them least, from half of `most` to
    `most` (fewer would leave most registers idle, and too few accumulators to hide the FMA
    latency); of equal padding, the most rows (more multiply-adds per operand loaded)."""
    most = max(1, most)
    return min(range(-(-most // 2), most + 1), key=lambda rows: (-(-n // rows) * rows, -rows))


def tensor_type(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def packed_product_lines(m: int, n: int, k: int, rows: int, cols: int, element: str) -> list[str]:
    """Function body lines: `%gemm` [m, n] = `%lhs` [m, k] times `%rhs` [n, k] transposed, as one
    `linalg.mmt4d` in `rows` x `cols` x 1 tiles: both operands packed (padded with `%zero`, which
    must be in scope), the product from zeros, unpacked."""
    t = lambda *shape: tensor_type(shape, element)  # noqa: E731
    m1, n1 = -(-m // rows), -(-n // cols)
    t_lhs, t_rhs, t_acc = t(m1, k, rows, 1), t(n1, k, cols, 1), t(m1, n1, rows, cols)
    return [
        f"    %lhs_init = tensor.empty() : {t_lhs}",
        f"    %lhs_packed = linalg.pack %lhs padding_value(%zero : {element}) inner_dims_pos = [0, 1]"
        f" inner_tiles = [{rows}, 1] into %lhs_init : {t(m, k)} -> {t_lhs}",
        f"    %rhs_init = tensor.empty() : {t_rhs}",
        f"    %rhs_packed = linalg.pack %rhs padding_value(%zero : {element}) inner_dims_pos = [0, 1]"
        f" inner_tiles = [{cols}, 1] into %rhs_init : {t(n, k)} -> {t_rhs}",
        f"    %acc_init = tensor.empty() : {t_acc}",
        f"    %acc = linalg.fill ins(%zero : {element}) outs(%acc_init : {t_acc}) -> {t_acc}",
        f"    %product = linalg.mmt4d ins(%lhs_packed, %rhs_packed : {t_lhs}, {t_rhs}) outs(%acc : {t_acc}) -> {t_acc}",
        f"    %gemm_init = tensor.empty() : {t(m, n)}",
        f"    %gemm = linalg.unpack %product inner_dims_pos = [0, 1] inner_tiles = [{rows}, {cols}]"
        f" into %gemm_init : {t_acc} -> {t(m, n)}",
    ]


@dataclass(frozen=True, order=True)
class BroadcastLinear:
    """A linear layer as torch exports it over [tokens, 1, features] (ACT's transformer): a
    `linalg.batch_matmul` of `rows` one-row products, from zeros, against one [n, k] weight,
    transposed and broadcast to each (`broadcast_linears`)."""

    rows: int
    k: int
    n: int

    @property
    def name(self) -> str:
        return f"linear_{self.rows}x{self.k}x{self.n}"


def defined_by(value, name: str):
    """The op named `name` that defines `value`; None for another op or a block argument."""
    from iree.compiler import ir

    owner = value.owner
    return owner if not isinstance(owner, ir.Block) and owner.name == name else None


def zero_filled(value) -> bool:
    """Whether `value` is a `linalg.fill` of a floating-point constant zero (an accumulator that
    starts from zeros)."""
    from iree.compiler import ir

    fill = defined_by(value, "linalg.fill")
    scalar = fill and defined_by(fill.operands[0], "arith.constant")
    return bool(scalar) and isinstance(scalar.attributes["value"], ir.FloatAttr) and scalar.attributes["value"].value == 0.0


def broadcast_linears(text: str) -> list[BroadcastLinear]:
    """The f32 `BroadcastLinear`s of a model's input form (distinct, sorted): each such batch_matmul
    whose right-hand side is a broadcast generic of a [1, 0] transpose, and whose accumulator is a
    zero fill, the form the route's matcher (`_linear_match`) takes whole."""
    from iree.compiler import ir

    found: set[BroadcastLinear] = set()

    def weight_broadcast(value) -> bool:
        """A copy of a 2-D tensor to each batch entry, of a transposed weight."""
        generic = defined_by(value, "linalg.generic")
        if generic is None or len(generic.operands) != 2 or len(generic.regions[0].blocks[0].operations) != 1:
            return False
        maps = [str(m) for m in generic.attributes["indexing_maps"]]
        return (maps == ["affine_map<(d0, d1, d2) -> (d1, d2)>", "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"]
                and defined_by(generic.operands[0], "linalg.transpose") is not None)

    def visit(op) -> "ir.WalkResult":
        if op.name == "linalg.batch_matmul" and len(op.operands) == 3:
            types = [v.type for v in op.operands]
            if all(isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.rank == 3 for t in types):
                (b, one, k), (_, k_rhs, n), out = (list(ir.RankedTensorType(t).shape) for t in types)
                if (one == 1 and k_rhs == k and out == [b, 1, n]
                        and all(str(ir.RankedTensorType(t).element_type) == "f32" for t in types)
                        and weight_broadcast(op.operands[1]) and zero_filled(op.operands[2])):
                    found.add(BroadcastLinear(b, k, n))
        return ir.WalkResult.ADVANCE

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        ir.Module.parse(text).operation.walk(visit)
    return sorted(found)


def _linear_function(linear: BroadcastLinear, rows: int, cols: int) -> list[str]:
    """`@fold_NAME`: the products as one GEMM, the tokens as rows of `rows` x `cols` x 1 tiles and the
    weight, as torch stores it ([n, k]), the mmt4d's right-hand side (packed once, at load)."""
    m, k, n = linear.rows, linear.k, linear.n
    t = lambda *shape: tensor_type(shape, "f32")  # noqa: E731
    return [
        f"  util.func private @fold_{linear.name}(%x: {t(m, 1, k)}, %rhs: {t(n, k)}) -> {t(m, 1, n)} {{",
        "    %zero = arith.constant 0.0 : f32",
        f"    %lhs = tensor.collapse_shape %x [[0, 1], [2]] : {t(m, 1, k)} into {t(m, k)}",
        *packed_product_lines(m, n, k, rows, cols, "f32"),
        f"    %out = tensor.expand_shape %gemm [[0, 1], [2]] output_shape [{m}, 1, {n}] : {t(m, n)} into {t(m, 1, n)}",
        f"    util.return %out : {t(m, 1, n)}",
        "  }",
    ]


def _linear_match(linear: BroadcastLinear) -> list[str]:
    """`@match_NAME`: the batch_matmul with the weight's transpose and broadcast and the zero fill
    (`broadcast_linears`); it yields the activation and the weight, and the product."""
    m, k, n = linear.rows, linear.k, linear.n
    t = lambda *shape: tensor_type(shape, "f32")  # noqa: E731
    return dag_matcher(linear.name, f"%x: {t(m, 1, k)}, %w: {t(n, k)}", [
        "      %zero = arith.constant 0.0 : f32",
        f"      %t_init = tensor.empty() : {t(k, n)}",
        f"      %t = linalg.transpose ins(%w : {t(n, k)}) outs(%t_init : {t(k, n)}) permutation = [1, 0]",
        f"      %b_init = tensor.empty() : {t(m, k, n)}",
        "      %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, "
        "affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}"
        f" ins(%t : {t(k, n)}) outs(%b_init : {t(m, k, n)}) {{",
        "      ^bb0(%in: f32, %unused: f32):",
        "        linalg.yield %in : f32",
        f"      }} -> {t(m, k, n)}",
        f"      %init = tensor.empty() : {t(m, 1, n)}",
        f"      %acc = linalg.fill ins(%zero : f32) outs(%init : {t(m, 1, n)}) -> {t(m, 1, n)}",
        f"      %r = linalg.batch_matmul ins(%x, %b : {t(m, 1, k)}, {t(m, k, n)}) outs(%acc : {t(m, 1, n)}) -> {t(m, 1, n)}"])


def linear_script_parts(linears: list[BroadcastLinear], tile: tuple[int, int, int]) -> tuple[list[str], list[str]]:
    """(named sequences, "@match_X -> @fold_X_here" pairs) that replace each of `linears` by its
    packed GEMM, the rows of `tile` fitted to its tokens (`packed_rows`)."""
    sequences, pairs = [], []
    for linear in sorted(set(linears)):
        sequences += (_linear_function(linear, packed_rows(linear.rows, tile[0]), tile[1]) + _linear_match(linear)
                      + inline_call_action(linear.name))
        pairs.append(f"@match_{linear.name} -> @fold_{linear.name}_here")
    return sequences, pairs


def linear_script_text(linears: list[BroadcastLinear], tile: tuple[int, int, int]) -> str:
    """The preprocessing script that packs only `linears` (`linear_script_parts`), touching nothing
    else: for models with convolutions, which the full script's whole-function passes would turn
    into generic ops that IREE's im2col no longer takes."""
    sequences, pairs = linear_script_parts(linears, tile)
    return inline_replacements_script([
        f"// Linear layers over [tokens, 1, features] -> one mmt4d each in {tile[0]} x {tile[1]} x {tile[2]} register tiles,"
        " rows fitted to the tokens (iree-dsa-tune, docs/DATA_TILING.md 18).",
        f"// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE {NO_UKERNELS_FLAG} ..."],
        sequences, pairs)


def packed_gemms(gemms) -> list:
    """The `InputGemm`s the route packs: f32, one product each."""
    return [g for g in gemms if g.batch == 1 and g.element_bytes == 4]


def _passes(handle: str, passes, first: int) -> list[str]:
    """Script lines that run `passes` in order on the functions `handle`."""
    lines = []
    for i, name in enumerate(passes, first):
        lines.append(f"    %p{i} = transform.apply_registered_pass \"{name}\" to {handle}"
                     " : (!transform.any_op) -> !transform.any_op")
        handle = f"%p{i}"
    return lines


def k_chunk(k: int, tile: tuple[int, int, int], cpu) -> int | None:
    """The chunk a reduction of length `k` is cut into under `tile` on a CPU described by `cpu`; None:
    kept whole. The long-K route's rule (k_split.split_for) with the tile's own panels: a row and a
    column panel ((M0 + N0) x K f32) above half the L2 is cut into the widest divisor of K, a
    multiple of N0, whose panels take at most an eighth of it."""
    m0, n0, _ = tile
    pair = lambda depth: (m0 + n0) * depth * 4  # noqa: E731
    if pair(k) <= SPLIT_ABOVE * cpu.l2_bytes:
        return None
    return widest_chunk(k, n0, lambda d: pair(d) <= CHUNK_PAIR_SHARE * cpu.l2_bytes)


def _is_32_bit() -> list[str]:
    """Structured matcher body lines: both inputs have 32-bit elements."""
    return [line for i in (0, 1) for line in (
        f"      %in{i} = transform.match.structured.input %s[{i}] : (!transform.any_op) -> !transform.any_value",
        f"      %bits{i} = transform.match.structured.elemental_bitwidth %in{i}"
        " : (!transform.any_value) -> !transform.param<i64>",
        f"      %want{i} = transform.param.constant 32 : i64 -> !transform.param<i64>",
        f"      transform.match.param.cmpi eq %bits{i}, %want{i} : !transform.param<i64>")]


def _packing(name: str, tile: tuple[int, int, int], k: int | None = None, chunk: int | None = None) -> list[str]:
    """`@pack_NAME`: the matmul packed into `tile`, its weight transposed to the mmt4d layout, and
    with `chunk`, the packed product cut along K1 into `k // chunk` products in order."""
    m0, n0, k0 = tile
    lines = [
        f"  transform.named_sequence @pack_{name}(%op: !transform.any_op {{transform.consumed}}) {{",
        f"    %packed = transform.structured.pack %op packed_sizes = [{m0}, {n0}, {k0}]"
        " : (!transform.any_op) -> !transform.op<\"linalg.generic\">",
        "    %weight = transform.get_producer_of_operand %packed[1]"
        " : (!transform.op<\"linalg.generic\">) -> !transform.op<\"linalg.pack\">",
        # The weight packs as (K1, N1, N0, K0); mmt4d reads (N1, K1, N0, K0).
        "    %product, %weight_t, %unpack = transform.structured.pack_transpose %weight with_compute_op(%packed)"
        " outer_perm = [1, 0] : (!transform.op<\"linalg.pack\">, !transform.op<\"linalg.generic\">)"
        " -> (!transform.op<\"linalg.generic\">, !transform.op<\"linalg.pack\">, !transform.any_op)"]
    if chunk:
        lines += [f"    %chunk, %loop = transform.structured.tile_using_for %product tile_sizes [0, 0, {chunk // k0}]"
                  " : (!transform.op<\"linalg.generic\">) -> (!transform.any_op, !transform.op<\"scf.for\">)",
                  f"    transform.loop.unroll %loop factor = {k // chunk} : !transform.op<\"scf.for\">"]
    return lines + ["    transform.yield", "  }"]


def register_tiled_script_text(tile: tuple[int, int, int], chunks: dict[int, int] | None = None,
                               unbatch: list[int] | None = None, taps: list[int] = ()) -> str:
    """The preprocessing transform script that packs every 32-bit 2-D matmul into `tile`, those with a
    reduction length in `chunks` cut into chunks of that length (module doc). With `unbatch` (the
    batch sizes the unbatch route unrolls), the unbatch route's hinted script runs after it on
    what is left: the batched products, for inner-tiled data tiling (`register_tiled_presets`).
    With `taps` (kernel widths), the batch-1 1-D convs of those widths are first split into their
    taps as the batch-1 conv route does (`taps_script_parts`): iree-compile takes one script, and
    the whole-function passes below would leave no named conv for the split to match. The taps'
    products are then packed like any matmul."""
    m0, n0, k0 = tile
    sequences, body, root = register_tiled_script_parts(tile, chunks)
    then_sequences, then_body = unbatch_script_parts(unbatch, hinted=True, root=root) if unbatch is not None else ([], [])
    tap_sequences, tap_names = taps_script_parts(list(taps)) if taps else ([], [])
    entry = "%root"
    if tap_names:  # the split first, on the module the packing then reads as %root
        entry = "%module"
        body = ["    %root = transform.foreach_match in %module "
                + ", ".join(f"@match_{n} -> @taps_{n}" for n in tap_names) + " : (!transform.any_op) -> !transform.any_op",
                *body]
    return "\n".join([
        (f"// Batch-1 1-D convolutions (kernel widths {', '.join(map(str, sorted(set(taps))))}) split into taps; then "
         if tap_names else "// ")
        + f"Linear layers -> mmt4d in {m0} x {n0} x {k0} register tiles (iree-dsa-tune, docs/DATA_TILING.md 18)"
        + ("; then the batched GEMMs left as 2-D matmuls for inner-tiled data tiling (docs/DATA_TILING.md 11)."
           if unbatch is not None else "."),
        f"// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE {NO_UKERNELS_FLAG} ...",
        "module attributes {transform.with_named_sequence} {",
        *tap_sequences,
        *sequences,
        *then_sequences,
        f"  transform.named_sequence @__transform_main({entry}: !transform.any_op {{transform.consumed}}) {{",
        *body,
        *then_body,
        "    transform.yield",
        "  }",
        "}"]) + "\n"


def register_tiled_script_parts(tile: tuple[int, int, int],
                                chunks: dict[int, int] | None = None) -> tuple[list[str], list[str], str]:
    """(named sequences, main-body lines on `%root`, the module's handle after them) of the packing."""
    chunks = dict(sorted((chunks or {}).items()))
    functions = "transform.structured.match ops{[\"util.func\", \"func.func\"]} in %root"
    sequences, names = [], []
    for k, chunk in chunks.items():  # first: foreach_match takes the first matcher that accepts
        names.append(f"linear_k{k}")
        sequences += structured_matcher(names[-1], "linalg.matmul", _is_32_bit() + dim_is(2, k))
        sequences += _packing(names[-1], tile, k, chunk)
    names.append("linear")
    sequences += structured_matcher("linear", "linalg.matmul", _is_32_bit()) + _packing("linear", tile)
    body = [
        f"    %functions = {functions} : (!transform.any_op) -> !transform.any_op",
        *_passes("%functions", NAMED_AS_2D, 0),
        "    %r = transform.foreach_match in %root " + ", ".join(f"@match_{n} -> @pack_{n}" for n in names)
        + " : (!transform.any_op) -> !transform.any_op",
        f"    %packed_functions = {functions.replace('%root', '%r')} : (!transform.any_op) -> !transform.any_op",
        *_passes("%packed_functions", NAMED_AS_2D[-1:], len(NAMED_AS_2D))]
    return sequences, body, "%r"


def register_tiled_flags(tile: tuple[int, int, int], directory: Path, chunks: dict[int, int] | None = None,
                         unbatch: list[int] | None = None, taps: list[int] = ()) -> tuple[str, ...]:
    """The flags of the route's build: its verified script (content-addressed; with `unbatch`, the
    unbatch route's after it) and no ukernels."""
    text = verified_script(register_tiled_script_text(tile, chunks, unbatch, taps), "register-tiled")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}", NO_UKERNELS_FLAG)


def linear_flags(linears: list[BroadcastLinear], tile: tuple[int, int, int], directory: Path) -> tuple[str, ...]:
    """The flags of a build that packs only `linears` (`linear_script_text`, verified,
    content-addressed) and runs no ukernels."""
    text = verified_script(linear_script_text(linears, tile), "register-tiled linear")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}", NO_UKERNELS_FLAG)


def plan_register_tiled_route(gemms, cpu, directory: Path, taken_flags: tuple[str, ...] = (),
                              linears: list[BroadcastLinear] = ()) -> ConvRoute:
    """The route for a model with these `InputGemm`s and `BroadcastLinear`s (its input form) on a
    CPU described by `cpu`; empty when it has neither an f32 GEMM of one product nor such a linear
    layer, or `taken_flags` already name a preprocessing script (iree-compile takes one). Its flags
    pack the GEMMs (`register_tiled_script_text`), or, with none, the linear layers alone."""
    route = ConvRoute(what=WHAT, key="register_tiled_route")
    packed = packed_gemms(gemms)
    if cpu is None or not (packed or linears):
        return route
    if any(f.startswith(TRANSFORM_FLAG) for f in taken_flags):
        route.notes.append(f"not taken: it needs {TRANSFORM_FLAG}, which another route or the given flags already set")
        return route
    tile, chunks = _tile_and_chunks(packed, cpu)
    route.flags = register_tiled_flags(tile, directory, chunks) if packed else linear_flags(linears, tile, directory)
    batched = sum(1 for g in gemms if g.batch > 1)
    notes = []
    if packed:
        notes.append(f"{plural(len(packed), 'f32 GEMM')} packed into {tile[0]} x {tile[1]} x {tile[2]} tiles"
                     + "".join(f", K {k} in {k // c} chunks of {c}" for k, c in sorted(chunks.items()))
                     + (f" ({plural(batched, 'batched GEMM')} left to IREE)" if batched else ""))
    if linears:
        rows = sorted({lin.rows for lin in linears})
        notes.append(f"{plural(len(linears), 'linear layer shape')} over [tokens, 1, features] as one GEMM each in"
                     f" {tile[1]}-column tiles, their rows fitted to the tokens ("
                     + ", ".join(f"{r} in {packed_rows(r, tile[0])}" for r in rows) + ")")
    route.notes.append("; ".join(notes))
    return route


def _tile_and_chunks(packed, cpu) -> tuple[tuple[int, int, int], dict[int, int]]:
    """This CPU's tile, and the chunk of each reduction length of the `packed` GEMMs it cuts."""
    tile = register_tile(cpu)
    return tile, {g.k: c for g in packed if (c := k_chunk(g.k, tile, cpu))}


# Where this route stands among the host's routes (host/routes/__init__.py): planned after the
# unbatch and packed kernel-tap routes (it reads their plans), then its presets timed, each in rank order.
PLAN_RANK = 60
PRESET_RANK = 60


def plan(planning) -> ConvRoute:
    """The route for the model's input-form GEMMs and linear layers, on its CPU (`plan_register_tiled_route`);
    not taken beside the packed kernel-tap route, whose script holds the model's 1-D convolutions
    (iree-compile takes one script, and this one's whole-function passes leave the UNet's tap
    products in a form its packing cannot build)."""
    taps = planning.planned.get("packed_taps")
    route = plan_register_tiled_route(planning.gemms, planning.cpu, planning.directory,
                                      taken_flags=tuple(taps.flags) if taps else (), linears=planning.linears)
    if route or route.notes:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    """`register_tiled_presets`; with the unbatch route taken too, its script after this one's; and
    where the model has convolutions and linear layers over [tokens, 1, features],
    `linear_conv_presets` (with the Winograd route's flags where it is taken)."""
    unbatched = ()
    packed = packed_gemms(planning.gemms)
    tile, chunks = _tile_and_chunks(packed, planning.cpu)
    if planning.planned.get("unbatch") and packed:
        unbatched = register_tiled_flags(tile, planning.directory, chunks, unbatched_batches(planning.gemms))
    presets = register_tiled_presets(route.flags, unbatched)
    presets.update(_with_conv_taps(planning, packed, tile, chunks))
    if planning.linears and planning.convs:
        winograd = planning.planned.get("winograd")
        presets.update(linear_conv_presets(linear_flags(planning.linears, tile, planning.directory),
                                           winograd.flags if winograd else ()))
    return presets


def _with_conv_taps(planning, packed, tile, chunks) -> dict[str, tuple[str, ...]]:
    """The preset of this route with the batch-1 conv route's 1-D tap split in its script, when
    that route is taken for 1-D convs: alone, each route's script is the build's one script, so a
    model with both kinds of work (policy_functions.mlir's chunk projection and temporal conv) had
    to give up one route's gain."""
    conv_route = planning.planned.get("batch1_conv")
    widths = tap_widths(planning.plain.batch1_convs) if conv_route and packed else []
    if not widths:
        return {}
    others = tuple(f for f in conv_route.flags if not f.startswith(TRANSFORM_FLAG))  # im2col for 2-D ones
    return {"conv-route+register-tiled+tile-bytes-4m":
            others + register_tiled_flags(tile, planning.directory, chunks, taps=widths) + (TILE_BYTES_4M,)}


def linear_conv_presets(linear_flags: tuple[str, ...], winograd_flags: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The presets for a model whose linear layers the linear-only script packs
    (`linear_flags`) and whose convolutions IREE's im2col takes (`winograd_flags`: the 3x3 ones as
    Winograd first), on the global data-tiling path with 4 MiB mmt4d tiles. ACT's transformer
    layers: their 82 and 100 tokens padded to 84 and 100 rows (14 x 32 on AVX-512), not 96 and 112
    (the data-tiled 16 x 16); ACT's whole call 1.05-1.08x faster (docs/DATA_TILING.md 18)."""
    tail = tuple(linear_flags) + (TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)
    presets = {"im2col+register-tiled+gdt": (IM2COL_FLAG,) + tail}
    if winograd_flags:
        presets["im2col+winograd+register-tiled+gdt"] = (IM2COL_FLAG, *winograd_flags) + tail
    return presets


def register_tiled_presets(route_flags: tuple[str, ...],
                           unbatched_flags: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The presets this route adds: its script with IREE's mmt4d codegen and 4 MiB mmt4d tiles
    (IREE's 256 KiB give each workgroup one output tile, 2x slower on SigLIP's fc1), and the same
    with attention ops decomposed (`presets_that_apply` drops it on a model without them; the
    decomposition's batched products are not packed).

    `unbatched_flags` name the script that runs the unbatch route after the packing: the batched
    products it leaves (attention over heads) become 2-D matmuls that inner-tiled data tiling
    builds, as in `unbatch+gdt+inner-tiled`, while the linear layers keep the register tile. On
    AVX-512 that is the tile's place: pi0's expert GEMMs (51 rows) ran 1.06-1.21x faster in 14 x 32
    tiles than inner-tiled (29 x 16, 58 rows), and its attention 1.4x faster inner-tiled than
    under IREE's default codegen (docs/DATA_TILING.md 18)."""
    tail = tuple(route_flags) + (TILE_BYTES_4M,)
    presets = {"register-tiled+tile-bytes-4m": tail,
               "attn-decomposed+register-tiled+tile-bytes-4m": (DECOMPOSE_ATTENTION_FLAG,) + tail}
    if unbatched_flags:
        presets["register-tiled+unbatch+gdt+inner-tiled"] = (tuple(unbatched_flags) + (TILE_BYTES_4M,)
                                                             + (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG))
    return presets


__all__ = ["BroadcastLinear", "NO_UKERNELS_FLAG", "SCRIPT_PREFIX", "WHAT", "broadcast_linears", "k_chunk", "linear_conv_presets",
           "linear_flags", "linear_script_parts", "linear_script_text", "packed_gemms", "packed_product_lines", "packed_rows", "plan",
           "plan_register_tiled_route", "presets", "register_tile", "register_tiled_flags", "register_tiled_presets",
           "register_tiled_script_parts", "register_tiled_script_text", "defined_by", "tensor_type", "zero_filled"]
