"""mmt4d dispatches as tunable root ops on the host (docs/DATA_TILING.md 2, 3, 7).

Under `--iree-global-opt-data-tiling` the dispatch holds the packed `linalg.mmt4d` itself and a
spec with `Mmt4dTilingExpert` sets its distribution over M1 and N1; under
`--iree-opt-data-tiling` the spec runs before the op becomes an mmt4d and no spec can reach it.
Compiles pin haswell (AVX2: 8x8x1 f32 inner tiles) so every host sees the same loops.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.core.problems import ContractionProblem, OperandInfo, UntunableDispatch
from iree_dsa_tuner.costmodel.funnel import run_funnel
from iree_dsa_tuner.flags import DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG, global_data_tiling_twin
from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.host.target import host_estimate, mmt4d_shape
from iree_dsa_tuner.targets.mapping import mmt4d_group_tiles, mmt4d_tile_lists

from conftest import ISAS, cpu_description, cpu_target, matmul_model, write_model

HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")


def compiled(tmp_path, *flags):
    model = write_model(tmp_path, "mm.mlir", matmul_model(200, 1024, 512))
    return compile_model(model, HASWELL + flags)


def packed_gemm(m1: int, n1: int, k1: int, inner: int = 16, batch: bool = True) -> ContractionProblem:
    """A batch_mmt4d as discovery reads it (pi0's prefix FFN: 1x51x1024x2048x16x16x1 f32)."""
    sizes = ((1,) if batch else ()) + (m1, n1, k1, inner, inner, 1)
    b = 1 if batch else 0
    groups = {"batch": (0,) if batch else (), "m": (b, b + 3), "n": (b + 1, b + 4), "k": (b + 2, b + 5)}
    types = tuple("reduction" if i in groups["k"] else "parallel" for i in range(len(sizes)))
    lhs = OperandInfo(((1,) if batch else ()) + (m1, k1, inner, 1), "f32")
    rhs = OperandInfo(((1,) if batch else ()) + (n1, k1, inner, 1), "f32")
    out = OperandInfo(((1,) if batch else ()) + (m1, n1, inner, inner), "f32")
    return ContractionProblem(dispatch=f"d_batch_mmt4d_{m1}x{n1}x{k1}", op_name="linalg.batch_mmt4d" if batch
                              else "linalg.mmt4d", loop_sizes=sizes, loop_types=types, dim_groups=groups,
                              indexing_maps=(), inputs=(lhs, rhs), output=out)


# ---- discovery: which path makes the mmt4d tunable ------------------------------------------

def test_the_global_path_puts_a_tunable_mmt4d_in_the_dispatch(tmp_path):
    problems = compiled(tmp_path, GLOBAL_DATA_TILING_FLAG).problems()
    (gemm,) = [p for p in problems if isinstance(p, ContractionProblem)]
    assert gemm.op_name == "linalg.mmt4d" and gemm.is_mmt4d
    assert gemm.loop_sizes == (25, 128, 512, 8, 8, 1)  # 200x1024x512 in haswell's 8x8x1 f32 tiles
    assert gemm.loop_types == ("parallel", "parallel", "reduction") * 2


def test_the_default_path_refuses_the_encoded_matmul_and_names_the_global_one(tmp_path):
    problems = compiled(tmp_path, DATA_TILING_FLAG).problems()
    (matmul,) = [p for p in problems if "matmul" in p.dispatch]
    assert isinstance(matmul, UntunableDispatch)
    assert "--iree-global-opt-data-tiling" in matmul.reason and "no spec can set its tiles" in matmul.reason


# ---- mapping: IREE's own config form, and only the distribution varies ----------------------

@pytest.mark.parametrize("isa", ISAS)
def test_iree_default_mmt4d_config_reads_back_as_itself(tmp_path, isa):
    artifacts = compiled(tmp_path, GLOBAL_DATA_TILING_FLAG)
    (gemm,) = [p for p in artifacts.problems() if isinstance(p, ContractionProblem)]
    default = artifacts.default_configs()[gemm.dispatch]
    assert default.pipeline == "Mmt4dTilingExpert"
    target = cpu_target(isa)
    candidate = target.from_config(gemm, default)
    assert target.to_config(gemm, candidate) == default
    assert target.space(gemm).choices["tile_m"] == (1, 5, 25)  # every divisor of M1 = 25


def test_mmt4d_tile_lists_distribute_m1_n1_and_keep_one_inner_tile_per_step():
    shape = mmt4d_shape(packed_gemm(51, 1024, 2048))
    assert shape.m == 816 and shape.n == 16384 and shape.k == 2048 and shape.inner("m") == 51
    dist, parallel, reduction = mmt4d_tile_lists(shape, 51, 4)
    assert dist == (1, 51, 4, 0, 0, 0, 0)
    assert parallel == (1, 1, 1, 0, 16, 16, 0) and reduction == (0, 0, 0, 1, 0, 0, 1)
    assert mmt4d_group_tiles(shape, CompilationConfig("Mmt4dTilingExpert", dist, parallel, reduction)) == \
        {"tile_m": 51, "tile_n": 4}
    # A config that sub-tiles the inner tile is not one the search writes (1.6x slower, section 3).
    with pytest.raises(ConfigError, match="one inner tile"):
        mmt4d_group_tiles(shape, CompilationConfig("Mmt4dTilingExpert", dist, (1, 1, 1, 0, 8, 16, 0), reduction))


# ---- the cost model: what it re-reads ---------------------------------------------------------

def estimate_of(problem, isa, tiles):
    desc = cpu_target(isa).describe()
    shape = mmt4d_shape(problem)
    cols = {"tile_m": np.array([t[0] for t in tiles]), "tile_n": np.array([t[1] for t in tiles])}
    return host_estimate(shape, desc, cols)


@pytest.mark.parametrize("isa", ISAS)
def test_a_large_weight_is_read_once_with_whole_m1_rows_not_once_per_row_tile(isa):
    # pi0's prefix FFN: 134 MB of weight. IREE's [1, 1] reads it once per 16-row tile (51 times);
    # the whole M1 with a small N1 slice reads it once and re-reads the 6.7 MB of activations.
    est = estimate_of(packed_gemm(51, 1024, 2048), isa, [(1, 1), (51, 4), (51, 1024)])
    default, whole_rows, one_workgroup = est.memory_s
    assert whole_rows < default / 3
    assert one_workgroup > whole_rows  # a 134 MB slice cannot stay in the L2 across 51 rows
    assert est.total_s[1] == est.total_s.min()


@pytest.mark.parametrize("isa", ISAS)
def test_operands_that_fit_the_l2_cost_the_same_however_tiled(isa):
    est = estimate_of(packed_gemm(4, 8, 64, batch=False), isa, [(1, 1), (4, 8), (2, 2)])
    assert np.ptp(est.memory_s) == 0 and np.ptp(est.compute_s) == 0
    # Only the per-workgroup cost tells them apart: fewer workgroups rank first.
    assert est.total_s[1] == est.total_s.min()


@pytest.mark.parametrize("isa", ISAS)
def test_the_funnel_keeps_the_default_distribution_and_its_rivals(isa):
    problem = packed_gemm(51, 1024, 2048)
    target = cpu_target(isa)
    space = target.space(problem)
    assert space.choices["tile_n"] == tuple(2 ** i for i in range(11))
    funnel = run_funnel(space, target.describe(), estimator=target.estimator)
    best = funnel.survivors(1)[0].candidate
    assert best.tile_m == 51 and best.tile_n < 1024
    config = target.to_config(problem, best)
    assert config.pipeline == "Mmt4dTilingExpert" and config.distribution[1:3] == (51, best.tile_n)


# ---- the recipe: search the same flags on the global path ------------------------------------

def test_the_global_twin_swaps_only_the_data_tiling_path():
    tile = "--iree-llvmcpu-matmul-tile-bytes=4194304"
    assert global_data_tiling_twin(("--x", DATA_TILING_FLAG, tile)) == ("--x", GLOBAL_DATA_TILING_FLAG, tile)
    assert global_data_tiling_twin((GLOBAL_DATA_TILING_FLAG,)) is None and global_data_tiling_twin(()) is None
    # Both flags turn data tiling off (docs/DATA_TILING.md 2): there is no path to swap.
    assert global_data_tiling_twin((DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG)) is None


def timed(name, flags, *times_us):
    from iree_dsa_tuner.host.whole_model import Variant

    return Variant(name, flags, rounds_us={"main": list(times_us)})


def test_a_default_path_recipe_is_searched_on_the_global_path_when_that_is_as_fast(tmp_path):
    from iree_dsa_tuner.host.recipe import _search_build

    model = write_model(tmp_path, "mm.mlir", matmul_model(200, 1024, 512))
    target = cpu_target("avx2")  # compiles for haswell
    dt = timed("dt", (DATA_TILING_FLAG,), 100.0, 101.0, 99.0)
    gdt = timed("gdt", (GLOBAL_DATA_TILING_FLAG,), 101.0, 100.0, 102.0)
    notes, said = [], []
    name, flags, built = _search_build(model, target, dt, [dt, gdt], notes, said.append)
    assert (name, flags) == ("gdt", (GLOBAL_DATA_TILING_FLAG,)) and not notes
    assert any(getattr(p, "is_mmt4d", False) for p in built.problems()) and "global" in said[0]


@pytest.mark.parametrize("gdt_times, why", [((130.0, 131.0, 129.0), "slower than it on the whole model"),
                                            (None, "was not timed")])
def test_a_default_path_recipe_stays_on_its_path_when_the_global_one_is_slower(tmp_path, gdt_times, why):
    # pi0's prefix: gdt+tile-bytes-4m 3.05 s against dt+tile-bytes-4m 2.43 s; no mmt4d tile wins 25% back.
    from iree_dsa_tuner.host.recipe import _search_build

    model = write_model(tmp_path, "mm.mlir", matmul_model(200, 1024, 512))
    dt = timed("dt", (DATA_TILING_FLAG,), 100.0, 101.0, 99.0)
    variants = [dt] + ([timed("gdt", (GLOBAL_DATA_TILING_FLAG,), *gdt_times)] if gdt_times else [])
    notes = []
    name, flags, built = _search_build(model, cpu_target("avx2"), dt, variants, notes, lambda text: None)
    assert (name, flags) == ("dt", (DATA_TILING_FLAG,)) and why in notes[0]
    assert not any(getattr(p, "is_mmt4d", False) for p in built.problems())
    # A preset without the default path is searched as it is, with nothing to say.
    notes = []
    assert _search_build(model, cpu_target("avx2"), timed("default", (), 1.0), [], notes, lambda t: None)[:2] \
        == ("default", ())
    assert not notes


@pytest.mark.parametrize("isa", ISAS)
def test_the_estimated_spec_keeps_a_column_panels_rows_together(isa):
    # ACT's FFN down projection (82 rows -> 6 x 32 tiles, K = 3200): IREE gives each workgroup one
    # row tile and one column tile, so its 6.5 MB weight is streamed once per row tile. The
    # estimate's distribution holds the row tiles of a column panel together, as many as fit the L2
    # beside it (all 6 with a 2 MiB L2; 3 with the descriptions' 1 MiB), so the weight is streamed
    # 6 / rows times.
    from iree_dsa_tuner.search.estimated import estimated_mmt4d_configs

    target = cpu_target(isa)
    ffn = packed_gemm(6, 32, 3200, batch=False)
    iree_default = CompilationConfig("Mmt4dTilingExpert", (1, 1, 0, 0, 0, 0), (1, 1, 0, 16, 16, 0),
                                     (0, 0, 1, 0, 0, 1))
    (config,) = estimated_mmt4d_configs([ffn], target, {ffn.dispatch: iree_default}).values()
    assert config.pipeline == "Mmt4dTilingExpert" and config.distribution[0] >= 3
    from iree_dsa_tuner.host.target import HostTarget

    desc = cpu_description(isa)
    two_mib = HostTarget(desc.with_changes(cpu=dataclasses.replace(desc.cpu, l2_bytes=2 << 20)))
    assert estimated_mmt4d_configs([ffn], two_mib, {ffn.dispatch: iree_default})[ffn.dispatch].distribution[0] == 6
    # Nothing to add where IREE's default is the estimate's pick, for dispatches not asked for,
    # or for a dispatch that is not an mmt4d.
    assert estimated_mmt4d_configs([ffn], target, {ffn.dispatch: config}) == {}
    assert estimated_mmt4d_configs([ffn], target, {}, wanted={"another"}) == {}
    plain = UntunableDispatch("d_elementwise", "no root op")
    assert estimated_mmt4d_configs([plain], target, {}) == {}


@pytest.mark.parametrize("isa", ISAS)
def test_rereads_of_an_operand_that_fits_the_l3_share_cost_less_than_dram_rereads(isa):
    # The whole M1 in one workgroup row re-reads A (6.7 MB) once per N1 slice: from the L3 when
    # it fits half of a core's share, from DRAM when the L3 is too small to keep it.
    shape = mmt4d_shape(packed_gemm(51, 128, 2048))
    cols = {"tile_m": np.array([51]), "tile_n": np.array([1])}
    desc = cpu_target(isa).describe()
    big = desc.with_changes(cpu=dataclasses.replace(desc.cpu, l3_bytes=64 << 20))
    small = desc.with_changes(cpu=dataclasses.replace(desc.cpu, l3_bytes=4 << 20))
    assert host_estimate(shape, big, cols).memory_s[0] < host_estimate(shape, small, cols).memory_s[0] / 5
