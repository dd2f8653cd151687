"""Inner-tiled GEMMs as tunable root ops on the host (docs/DATA_TILING.md 11).

Under `--iree-global-opt-data-tiling --iree-llvmcpu-enable-inner-tiled` a dispatch holds the GEMM
as `iree_codegen.inner_tiled`: outer loops M1, N1, K1, the inner tile in the operand types. A spec
sets its distribution over M1 and N1 (a matcher on the op's name and operand types); in pi0.5's
expert layer IREE's one-row-tile workgroups stream each 16 MB weight once per row tile, and every
row tile in one workgroup ran the whole layer 1.11x faster (`bench/recipe_variants.py --change
estimated-spec`). Compiles pin haswell (AVX2: a 13 x 8 f32 register tile) so every host sees the
same loops.
"""

from __future__ import annotations

import dataclasses

import pytest

from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.core.problems import InnerTiledProblem, OperandInfo
from iree_dsa_tuner.core.shape import UnsupportedProblem, gemm_shape
from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG
from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.search.estimated import estimated_mmt4d_configs
from iree_dsa_tuner.host.target import HostTarget, mmt4d_shape
from iree_dsa_tuner.tuning_spec.builder import build_spec, prepare_entries
from iree_dsa_tuner.tuning_spec.reading import read_spec

from conftest import ISAS, cpu_description, cpu_target, matmul_model, write_model

HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")
IREE_DEFAULT = CompilationConfig("Mmt4dTilingExpert", (1, 1, 0), (1, 1, 0), (0, 0, 1))


def inner_tiled_gemm(m1: int, n1: int, k1: int, m0: int = 29, n0: int = 16, name: str = "d") -> InnerTiledProblem:
    """An inner_tiled GEMM as discovery reads it (pi0.5's FFN gate: 2 x 256 x 1024 of 29 x 16 x 1)."""
    return InnerTiledProblem(
        dispatch=f"{name}_fill_{m1}x{n1}x{m0}x1x{n0}_f32", op_name="iree_codegen.inner_tiled",
        loop_sizes=(m1, n1, k1), loop_types=("parallel", "parallel", "reduction"),
        dim_groups={"batch": (), "m": (0,), "n": (1,), "k": (2,)},
        indexing_maps=("affine_map<(d0, d1, d2) -> (d0, d2)>", "affine_map<(d0, d1, d2) -> (d1, d2)>",
                       "affine_map<(d0, d1, d2) -> (d0, d1)>"),
        inputs=(OperandInfo((m1, k1, m0, 1, 1), "f32"), OperandInfo((n1, k1, n0, 1), "f32")),
        output=OperandInfo((m1, n1, m0, 1, n0), "f32"), inner_tile=(m0, n0, 1))


def test_discovery_reads_the_inner_tiled_gemm_with_its_outer_loops_and_inner_tile(tmp_path):
    model = write_model(tmp_path, "mm.mlir", matmul_model(64, 128, 256))
    built = compile_model(model, HASWELL + (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG))
    (gemm,) = [p for p in built.problems() if isinstance(p, InnerTiledProblem)]
    # 64 rows in haswell's 13-row tiles: 5 (65 rows), 128 columns in 8-lane tiles: 16.
    assert gemm.loop_sizes == (5, 16, 256) and gemm.inner_tile == (13, 8, 1)
    assert gemm.loop_types == ("parallel", "parallel", "reduction") and gemm.is_mmt4d
    assert gemm.flops == 2 * 65 * 128 * 256
    # IREE's own config: one row tile and one column tile per workgroup; the host reads it back as
    # the (1, 1) point of its space, and writes any point in the op's three loops.
    target = HostTarget(cpu_description("avx2", target_cpu="haswell"))
    default = built.default_configs()[gemm.dispatch]
    assert default == IREE_DEFAULT
    point = target.from_config(gemm, default)
    assert (point.tile_m, point.tile_n) == (1, 1)
    space = target.space(gemm)
    assert space.choices["tile_m"] == (1, 5) and 16 in space.choices["tile_n"]
    config = target.to_config(gemm, dataclasses.replace(point, tile_m=5, tile_n=4))
    assert config == CompilationConfig("Mmt4dTilingExpert", (5, 4, 0), (1, 1, 0), (0, 0, 1))


@pytest.mark.parametrize("isa", ISAS)
def test_the_estimate_keeps_the_row_tiles_of_a_streamed_weight_together(isa):
    # pi0.5's FFN gate/up: 50 tokens in 2 row tiles, a 16 MB weight. IREE's workgroups stream it once
    # per row tile; the estimate's pick holds both row tiles in a workgroup, so it is read once.
    gate = inner_tiled_gemm(2, 256, 1024)
    shape = mmt4d_shape(gate)
    assert (shape.m, shape.n, shape.k) == (58, 4096, 1024) and shape.inner("m") == 2
    (config,) = estimated_mmt4d_configs([gate], cpu_target(isa), {gate.dispatch: IREE_DEFAULT}).values()
    assert config.distribution[0] == 2 and config.distribution[2] == 0
    assert (config.vector_common_parallel, config.vector_reduction) == ((1, 1, 0), (0, 0, 1))


def test_a_spec_entry_matches_the_op_by_name_and_operand_types_and_reads_back():
    gate = inner_tiled_gemm(2, 256, 1024, name="gate")
    # Same outer loops, another register tile: a different op to a matcher, so its own entry.
    narrow = inner_tiled_gemm(2, 256, 1024, m0=13, n0=8, name="narrow")
    configs = {gate.dispatch: CompilationConfig("Mmt4dTilingExpert", (2, 16, 0), (1, 1, 0), (0, 0, 1)),
               narrow.dispatch: CompilationConfig("Mmt4dTilingExpert", (2, 8, 0), (1, 1, 0), (0, 0, 1))}
    assert len(prepare_entries([gate, narrow], configs)) == 2
    text = build_spec([gate, narrow], configs)
    assert text == build_spec([gate, narrow], configs)  # deterministic
    assert text.count('transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"]') == 2
    assert "cast_compatible_type %2 = tensor<2x256x29x1x16xf32>" in text


def test_reading_an_inner_tiled_matcher_back(tmp_path):
    gate = inner_tiled_gemm(2, 256, 1024)
    path = tmp_path / "spec.mlir"
    path.write_text(build_spec([gate], {gate.dispatch: CompilationConfig("Mmt4dTilingExpert", (2, 16, 0), (1, 1, 0),
                                                                        (0, 0, 1))}))
    (matcher,) = read_spec(path)
    assert matcher.kind == "contraction" and matcher.dims == ((), (2,), (256,), (1024,))
    assert matcher.operand_types == ("tensor<2x1024x29x1x1xf32>", "tensor<256x1024x16x1xf32>",
                                     "tensor<2x256x29x1x16xf32>")
    assert "distribution = [2, 16, 0]" in matcher.lowering_config


def test_a_dsa_target_refuses_an_inner_tiled_gemm_with_why():
    with pytest.raises(UnsupportedProblem, match="host target only"):
        gemm_shape(inner_tiled_gemm(2, 256, 1024))
