"""The register-tiled GEMM route: a model's f32 GEMMs packed, before IREE sees them, into the
register tile a BLAS would use on this CPU, and lowered by IREE's mmt4d codegen instead of its
ukernel.

Why (docs/DATA_TILING.md 18): IREE 3.13's data tiling packs an f32 GEMM into the tile its encoding
resolver fixes, 8 x 8 x 1 with AVX2, and the mmt4d ukernel for that tile keeps 8 accumulators and
loads 9 operands (8 broadcasts, 1 row) per 8 FMAs. With two load and two FMA ports the loads
bound it: 74-76% of the FMA peak on SigLIP's GEMMs, where OpenBLAS's 6 x 16 kernel (12
accumulators, 8 loads per 12 FMAs) reaches 83-84% (docs/PERFORMANCE.md 4t). No flag or spec of
3.13 changes the encoding's tile. Upstream MLIR's `linalg-block-pack-matmul` pass, run in IREE's
preprocessing pipeline, packs a `linalg.matmul` into a `linalg.mmt4d` with any tile: the weight's
pack is hoisted into an initializer (a parameter is constant), the activation's runs per call.
IREE's `Mmt4dTilingExpert` then vectorises the 6 x 16 x 1 tile itself (the ukernel has no fast
path for it, so the route turns ukernels off). Alone, SigLIP's GEMMs ran 1.2-1.3x faster that way
than under the data-tiled ukernel; with 4 MiB mmt4d tiles IREE distributes them as the search
would (a whole column panel per workgroup).

The tile (`register_tile`): accumulators in three quarters of the vector registers, two registers
wide (N0 = two vectors of f32 lanes), as many rows as that leaves, K0 = 1: 6 x 16 with AVX2's 16
ymm registers, 12 x 32 with AVX-512's 32. Rows and columns are padded to the tile.

Which models (`plan_register_tiled_route`): those whose input form has f32 GEMMs of one product
(a `linalg.matmul`, or a batch-1 `linalg.batch_matmul`, as iree-turbine writes a linear layer),
and no `linalg.batch_matmul` of more products. The pass packs every contraction it meets and has
no filter: a batch over attention heads, both operands made per call, would be packed per call
too, and SigLIP's decomposed attention's second product built that way ran 45 ms where IREE's
own build takes 4. Attention ops are decomposed after the packing (the `attn-decomposed` preset
of this route), so their products stay IREE's.

The pipeline first generalises named ops and folds unit dimensions, so a batch-1 batch_matmul
becomes a plain matmul, then names the contractions again (`linalg-specialize-generic-ops`) so
that the packed product is a `linalg.mmt4d`, the op IREE's mmt4d pipeline takes.

The route changes the whole build, so its presets compete on the whole model, and a spec tuned
under them is valid only with their flags.
"""

from __future__ import annotations

from ...core.words import plural
from ...flags import DECOMPOSE_ATTENTION_PASSES, preprocessing_pipeline_flag
from ...ir.conv_route import ConvRoute
from ..flag_presets import TILE_BYTES_4M

WHAT = "register-tiled GEMM route (docs/DATA_TILING.md 18)"

# The mmt4d tile is one the ukernel has no fast path for (6 x 16 ran 50x slower under it).
NO_UKERNELS_FLAG = "--iree-llvmcpu-enable-ukernels=none"
# Of the vector registers, the share that accumulates (the rest hold the operands).
ACCUMULATOR_SHARE = 3 / 4
# Registers across a row of the tile.
REGISTERS_PER_ROW = 2


def register_tile(cpu) -> tuple[int, int, int]:
    """(M0, N0, K0) of the packed f32 GEMM on a CPU described by `cpu` (`CpuModel`)."""
    lanes = cpu.vector_register_bytes // 4
    rows = max(1, int(cpu.vector_registers * ACCUMULATOR_SHARE) // REGISTERS_PER_ROW)
    return rows, REGISTERS_PER_ROW * lanes, 1


def packing_passes(tile: tuple[int, int, int]) -> tuple[str, ...]:
    """The preprocessing passes (util.func scope) that pack every GEMM into `tile`."""
    m0, n0, k0 = tile
    return ("linalg-generalize-named-ops", "linalg-fold-unit-extent-dims", "linalg-specialize-generic-ops",
            f"linalg-block-pack-matmul{{block-factors={m0},{n0},{k0} allow-padding=true "
            "rhs-transpose-outer-blocks=true rhs-transpose-inner-blocks=true}",
            "linalg-specialize-generic-ops")


def packed_gemms(gemms) -> list:
    """The `InputGemm`s the route packs: f32, one product each."""
    return [g for g in gemms if g.batch == 1 and g.element_bytes == 4]


def plan_register_tiled_route(gemms, cpu) -> ConvRoute:
    """The route for a model with these `InputGemm`s (its input form) on a CPU described by `cpu`;
    empty when it has no f32 GEMM of one product, or has a batch of products (module doc)."""
    route = ConvRoute(what=WHAT, key="register_tiled_route")
    packed = packed_gemms(gemms)
    if cpu is None or not packed:
        return route
    batched = sorted({g.batch for g in gemms if g.op == "linalg.batch_matmul" and g.batch > 1})
    if batched:
        route.notes.append("not taken: the packing pass would pack the batched GEMMs too (batches of "
                           + ", ".join(map(str, batched)) + "), both operands on every call")
        return route
    tile = register_tile(cpu)
    route.flags = (preprocessing_pipeline_flag(packing_passes(tile)), NO_UKERNELS_FLAG)
    route.notes.append(f"{plural(len(packed), 'f32 GEMM')} packed into {tile[0]} x {tile[1]} x {tile[2]} tiles")
    return route


# Where this route stands among the host's routes (host/routes/__init__.py): planned, then its
# presets timed, each in rank order.
PLAN_RANK = 60
PRESET_RANK = 60


def plan(planning) -> ConvRoute:
    """The route for the model's input-form GEMMs, on its CPU (`plan_register_tiled_route`)."""
    route = plan_register_tiled_route(planning.gemms, planning.cpu)
    if route or route.notes:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    has_attention = any(getattr(p, "kind", "") == "attention" for p in planning.plain.problems())
    return register_tiled_presets(register_tile(planning.cpu), has_attention)


def register_tiled_presets(tile: tuple[int, int, int], has_attention: bool) -> dict[str, tuple[str, ...]]:
    """The presets this route adds: its packing into `tile` with IREE's mmt4d codegen and 4 MiB mmt4d
    tiles (IREE's 256 KiB give each workgroup one output tile, 2x slower on SigLIP's fc1), and, on
    a model with attention ops, the same with attention decomposed after the packing (so that the
    attention's products keep IREE's own build)."""
    tail = (NO_UKERNELS_FLAG, TILE_BYTES_4M)
    added = {"register-tiled+tile-bytes-4m": (preprocessing_pipeline_flag(packing_passes(tile)),) + tail}
    if has_attention:
        added["attn-decomposed+register-tiled+tile-bytes-4m"] = (
            preprocessing_pipeline_flag(packing_passes(tile) + DECOMPOSE_ATTENTION_PASSES),) + tail
    return added


__all__ = ["NO_UKERNELS_FLAG", "WHAT", "packed_gemms", "packing_passes", "plan", "plan_register_tiled_route",
           "presets", "register_tile", "register_tiled_presets"]
