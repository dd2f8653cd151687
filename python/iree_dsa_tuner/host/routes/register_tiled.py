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

It changes the whole build, so its presets compete on the whole model, and a spec tuned under them
is valid only with their flags.
"""

from __future__ import annotations

from pathlib import Path

from ...core.words import plural
from ...flags import DECOMPOSE_ATTENTION_FLAG, GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG
from ...ir.conv_route import ConvRoute, dim_is, script_file, structured_matcher, verified_script
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
                               unbatch: list[int] | None = None) -> str:
    """The preprocessing transform script that packs every 32-bit 2-D matmul into `tile`, those with a
    reduction length in `chunks` cut into chunks of that length (module doc). With `unbatch` (the
    batch sizes the unbatch route unrolls), the unbatch route's hinted script runs after it on
    what is left: the batched products, for inner-tiled data tiling (`register_tiled_presets`)."""
    m0, n0, k0 = tile
    sequences, body, root = register_tiled_script_parts(tile, chunks)
    then_sequences, then_body = unbatch_script_parts(unbatch, hinted=True, root=root) if unbatch is not None else ([], [])
    return "\n".join([
        f"// Linear layers -> mmt4d in {m0} x {n0} x {k0} register tiles (iree-dsa-tune, docs/DATA_TILING.md 18)"
        + ("; then the batched GEMMs left as 2-D matmuls for inner-tiled data tiling (docs/DATA_TILING.md 11)."
           if unbatch is not None else "."),
        f"// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE {NO_UKERNELS_FLAG} ...",
        "module attributes {transform.with_named_sequence} {",
        *sequences,
        *then_sequences,
        "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {",
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
                         unbatch: list[int] | None = None) -> tuple[str, ...]:
    """The flags of the route's build: its verified script (content-addressed; with `unbatch`, the
    unbatch route's after it) and no ukernels."""
    text = verified_script(register_tiled_script_text(tile, chunks, unbatch), "register-tiled")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}", NO_UKERNELS_FLAG)


def plan_register_tiled_route(gemms, cpu, directory: Path, taken_flags: tuple[str, ...] = ()) -> ConvRoute:
    """The route for a model with these `InputGemm`s (its input form) on a CPU described by `cpu`;
    empty when it has no f32 GEMM of one product, or `taken_flags` already name a preprocessing
    script (iree-compile takes one)."""
    route = ConvRoute(what=WHAT, key="register_tiled_route")
    packed = packed_gemms(gemms)
    if cpu is None or not packed:
        return route
    if any(f.startswith(TRANSFORM_FLAG) for f in taken_flags):
        route.notes.append(f"not taken: it needs {TRANSFORM_FLAG}, which another route or the given flags already set")
        return route
    tile, chunks = _tile_and_chunks(packed, cpu)
    route.flags = register_tiled_flags(tile, directory, chunks)
    batched = sum(1 for g in gemms if g.batch > 1)
    route.notes.append(f"{plural(len(packed), 'f32 GEMM')} packed into {tile[0]} x {tile[1]} x {tile[2]} tiles"
                       + "".join(f", K {k} in {k // c} chunks of {c}" for k, c in sorted(chunks.items()))
                       + (f" ({plural(batched, 'batched GEMM')} left to IREE)" if batched else ""))
    return route


def _tile_and_chunks(packed, cpu) -> tuple[tuple[int, int, int], dict[int, int]]:
    """This CPU's tile, and the chunk of each reduction length of the `packed` GEMMs it cuts."""
    tile = register_tile(cpu)
    return tile, {g.k: c for g in packed if (c := k_chunk(g.k, tile, cpu))}


# Where this route stands among the host's routes (host/routes/__init__.py): planned after the
# unbatch route (its presets read planned['unbatch']), then its presets timed, each in rank order.
PLAN_RANK = 60
PRESET_RANK = 60


def plan(planning) -> ConvRoute:
    """The route for the model's input-form GEMMs, on its CPU (`plan_register_tiled_route`)."""
    route = plan_register_tiled_route(planning.gemms, planning.cpu, planning.directory)
    if route or route.notes:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    """`register_tiled_presets`; with the unbatch route taken too, its script after this one's."""
    unbatched = ()
    if planning.planned.get("unbatch"):
        tile, chunks = _tile_and_chunks(packed_gemms(planning.gemms), planning.cpu)
        unbatched = register_tiled_flags(tile, planning.directory, chunks, unbatched_batches(planning.gemms))
    return register_tiled_presets(route.flags, unbatched)


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


__all__ = ["NO_UKERNELS_FLAG", "SCRIPT_PREFIX", "WHAT", "k_chunk", "packed_gemms", "plan", "plan_register_tiled_route", "presets",
           "register_tile", "register_tiled_flags", "register_tiled_presets", "register_tiled_script_parts",
           "register_tiled_script_text"]
