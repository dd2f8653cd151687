"""Weight-streaming schedules (issue 20): activations resident, every weight read once, K split
over cores with the partial sums reduced over the NoC (iree_dsa_plugin/weight_streaming.py)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.costmodel.funnel import run_funnel
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.space.elite import elite_candidate
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.eventsim import simulate, simulate_workload, workload_for
from iree_dsa_plugin.functional import ScratchpadOverflow

# A batch-1 W4A8 GEMM of 64 tokens whose INT4 weights (1 MiB, plus scales) exceed one core's
# 512 KiB scratchpad: neither operand stays on chip without a schedule that keeps it there.
SHAPE = simple_gemm(64, 2048, 1024, "i8", "i4", out_type="i32")
# Whole M and K resident per core, 128-column tiles on 4 cores, double-buffered weight stream.
STREAMING = TilingCandidate(tile_m=64, tile_n=128, tile_k=512, vec_m=16, vec_n=32, vec_k=4, parallelism=4,
                            dma_stages=2, fusion=0, quant_block=128, k_split=1)
# No M-tiled schedule of SHAPE can be faster (test_weight_streaming_beats_every_m_tiled_schedule).
M_TILED_FLOOR_US = 43.478


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def _m_tiled(funnel) -> np.ndarray:
    """Indices of the runnable output-stationary candidates that tile M (tile_m < M)."""
    cols = funnel.columns
    return np.flatnonzero(funnel.runnable & (cols["k_split"] == 0) & (cols["tile_m"] < SHAPE.m))


def test_weight_streaming_beats_every_m_tiled_schedule(e1):
    desc = e1.describe()
    assert SHAPE.k * SHAPE.n * SHAPE.rhs_bytes > desc.scratchpad_bytes
    streaming_us = simulate(desc, SHAPE, STREAMING).seconds * 1e6
    assert streaming_us == pytest.approx(37.150, abs=5e-3)
    # Every M-tiled schedule reads the weights once per M tile (at least twice: tile_m is at most
    # M / 2 on the ladder), and A and C at least once, so no simulation of one can beat the DRAM
    # time of those bytes after the launch. The weight-streaming schedule does.
    funnel = run_funnel(e1.space(SHAPE), desc, estimator=e1.estimator)
    tiled = _m_tiled(funnel)
    assert len(tiled) > 1000 and funnel.columns["tile_m"][tiled].max() <= SHAPE.m // 2
    ob = SHAPE.operand_bytes()
    scales = math.ceil(SHAPE.k / max(desc.quant_block_sizes)) * SHAPE.n * desc.scale_bytes
    floor_us = (desc.launch_s + (2 * (ob["rhs"] + scales) + ob["lhs"] + ob["out"]) / desc.dram_bytes_per_s) * 1e6
    assert floor_us == pytest.approx(M_TILED_FLOOR_US, abs=5e-3)
    assert streaming_us < floor_us
    # ...and the floor holds on what the simulator says: L0's 16 best M-tiled schedules and 16
    # drawn at random (seeded), all simulated.
    ranked = tiled[np.argsort(funnel.estimate.total_s[tiled], kind="stable")]
    picks = list(ranked[:16]) + list(np.random.default_rng(0).choice(ranked[16:], 16, replace=False))
    times = [simulate(desc, SHAPE, funnel.candidate(int(i))).seconds * 1e6 for i in picks]
    assert min(times) >= floor_us
    assert min(times) == pytest.approx(57.835, abs=5e-3)


def test_the_simulator_charges_the_k_split_reduction(e1):
    desc = e1.describe()
    # 16 cores split K = 4096 of one 64 x 64 output tile: each reduces 256 of K, then the team
    # reduce-scatters its partial sums and each core drains 4 of the 64 rows.
    shape = simple_gemm(64, 64, 4096, "i8", out_type="i32")
    c = TilingCandidate(64, 64, 256, 16, 32, 8, 16, 2, 0, 0, k_split=16)
    _, w = workload_for(desc, shape, c)
    assert (w.busy_cores, w.tiles, w.k_steps) == (16, 16, 1)
    # By hand: partials 64 x 64 x 4 B = 16384 B; a core sends the 15/16 it does not own and
    # receives 15 shares of its own: 2 x 15/16 x 16384 = 30720 B through its 16 GB/s port
    # (16.384 B per cycle at 976.5625 MHz): 1875 cycles, after one descriptor latency (250 ns =
    # 244.140625 cycles); then 15 x (4 rows x 64) adds on 128 lanes: 30 cycles.
    assert w.exchange.payload == 30720 and w.exchange.dram_cost == 0
    assert w.port_bytes_per_cycle == pytest.approx(16.384)
    assert w.reduce_cycles == 30
    reduction = 244.140625 + 30720 / 16.384 + 30
    with_reduction = simulate_workload(desc, shape, w)
    without = simulate_workload(desc, shape, dataclasses.replace(w, exchange=None, reduce_cycles=0))
    assert with_reduction.cycles - without.cycles == pytest.approx(reduction, rel=1e-9)
    assert with_reduction.cycles == pytest.approx(15628.874, abs=1e-3)
    # The partials cross the NoC, not DRAM: the DRAM carried the same bytes either way.
    assert with_reduction.dram_efficiency == pytest.approx(without.dram_efficiency, rel=1e-12)


def test_k_split_keeps_cores_busy_where_n_alone_cannot(e1):
    desc = e1.describe()
    # 128 columns in 128-wide tiles: one N tile. Output-stationary, one core works; split K
    # 16 ways and all 16 stream their share of the weights at once.
    shape = simple_gemm(50, 128, 8192, "i8", "i4", out_type="i32")
    one = simulate(desc, shape, TilingCandidate(50, 128, 256, 16, 32, 4, 16, 2, 0, 128, k_split=1))
    split = simulate(desc, shape, TilingCandidate(50, 128, 256, 16, 32, 4, 16, 2, 0, 128, k_split=16))
    assert split.seconds < one.seconds / 3


def test_resident_activations_that_do_not_fit_are_refused(e1):
    desc = e1.describe()
    shape = simple_gemm(304, 2048, 16384, "i8", "i4", out_type="i32")  # 304 x 16384 B of activations
    with pytest.raises(ScratchpadOverflow, match="resident activations"):
        simulate(desc, shape, TilingCandidate(304, 64, 512, 16, 32, 4, 16, 2, 0, 128, k_split=4))
    assert simulate(desc, shape, TilingCandidate(304, 64, 512, 16, 32, 4, 16, 2, 0, 128, k_split=16)).seconds > 0
    # More K shares than cores cannot run at all.
    with pytest.raises(ValueError, match="k_split 16 needs 16 cores, parallelism is 8"):
        simulate(desc, shape, TilingCandidate(152, 64, 512, 16, 32, 4, 8, 2, 0, 128, k_split=16))


# pi0's prefix MLP down projection at w4a8: 816 x 16384 INT8 activations (13.4 MB) cannot all be
# resident in 16 x 512 KiB of scratchpad, however K is split.
DOWN = simple_gemm(816, 2048, 16384, "i8", "i4", out_type="i32")


def test_bands_that_need_more_cores_than_there_are_run_in_waves(e1):
    """Two row bands of 152 x 16 K shares need 32 cores: on 16 they run as two waves, each
    streaming every weight again; the simulator charges one wave twice, and its lower bound
    holds."""
    from iree_dsa_plugin.eventsim import simulated_lower_bound_s

    desc = e1.describe()
    shape = simple_gemm(304, 2048, 16384, "i8", "i4", out_type="i32")
    whole = TilingCandidate(304, 64, 512, 16, 32, 4, 16, 2, 0, 128, k_split=16)
    halves = dataclasses.replace(whole, tile_m=152)
    _, w = workload_for(desc, shape, halves)
    assert w.waves == 2 and w.busy_cores == 16
    waved = simulate(desc, shape, halves)
    one_wave = simulate_workload(desc, shape, dataclasses.replace(w, waves=1))
    launch = desc.launch_s
    assert waved.waves == 2 and waved.seconds - launch == pytest.approx(2 * (one_wave.seconds - launch), rel=1e-9)
    assert waved.seconds >= simulated_lower_bound_s(desc, shape, halves)
    # Each wave reads every weight: twice the DRAM payload of one wave.
    assert waved.to_json()["waves"] == 2 and "waves" not in simulate(desc, shape, whole).to_json()


def test_waves_are_offered_only_where_no_wave_holds_every_row(e1):
    """The down projection gets weight-streaming candidates in waves, and one of them (208-row
    bands, two waves) runs in a third of the time of the elite output-stationary schedule; a GEMM
    that streams in one wave keeps the space it had (no band needs more cores than there are)."""
    desc = e1.describe()
    cols = e1.space(DOWN).columns()
    streaming = cols["k_split"] > 0
    bands = -(-DOWN.m // cols["tile_m"][streaming])
    assert streaming.any() and (bands * cols["k_split"][streaming] > cols["parallelism"][streaming]).all()
    best_waved = simulate(desc, DOWN, TilingCandidate(208, 32, 1024, 16, 32, 4, 16, 2, 0, 128, k_split=8))
    assert best_waved.waves == 2
    tiled = simulate(desc, DOWN, TilingCandidate(64, 128, 1024, 16, 32, 4, 16, 2, 1, 128, k_split=0))
    assert best_waved.seconds < tiled.seconds / 3
    one_wave = e1.space(simple_gemm(304, 16384, 2048, "i8", "i4", out_type="i32")).columns()
    one = one_wave["k_split"] > 0
    assert one.any() and (-(-304 // one_wave["tile_m"][one]) * one_wave["k_split"][one]
                          <= one_wave["parallelism"][one]).all()


def test_steady_state_jumps_match_the_full_replay(e1):
    desc = e1.describe()
    for shape, c in ((simple_gemm(304, 16384, 2048, "i8", "i4", out_type="i32"),
                      TilingCandidate(304, 64, 512, 16, 32, 4, 16, 2, 0, 128, k_split=4)),
                     (SHAPE, STREAMING)):
        fast, full = simulate(desc, shape, c), simulate(desc, shape, c, aggregate=False)
        assert fast.seconds == pytest.approx(full.seconds, rel=0.01)


def test_the_space_offers_whole_m_streaming_that_llvm_cpu_compiles(e1):
    desc = e1.describe()
    space = e1.space(SHAPE)
    cols = space.columns()
    streaming = cols["k_split"] > 0
    assert streaming.any() and (cols["tile_m"][streaming] == SHAPE.m).all()
    assert (cols["parallelism"][streaming] >= cols["k_split"][streaming]).all()
    legal = streaming & (cols["vec_k"] > 0)
    assert (cols["vec_m"][legal] * np.minimum(cols["vec_n"][legal], cols["tile_n"][legal]) * cols["vec_k"][legal]
            < desc.max_vector_elements).all()
    # A conv or a batched GEMM keeps the output-stationary schedule only.
    assert set(e1.space(simple_gemm(64, 256, 256, "i8", batch=4)).choices["k_split"]) == {0}


def test_k_split_travels_in_the_translation_info_and_back(e1):
    config = e1.to_config(SHAPE, STREAMING)
    assert dict(config.extra)["iree_dsa.k_split"] == 1
    assert e1.from_config(SHAPE, config) == STREAMING
    output_stationary = dataclasses.replace(STREAMING, tile_m=32, k_split=0)
    config = e1.to_config(SHAPE, output_stationary)
    assert "iree_dsa.k_split" not in dict(config.extra)  # configs written before weight streaming read the same
    assert e1.from_config(SHAPE, CompilationConfig.from_json(config.to_json())).k_split == 0
    assert e1.check_knobs(dataclasses.replace(STREAMING, k_split=8)) is not None  # 8 K shares on 4 cores


def test_the_funnel_keeps_weight_streaming_and_ranks_it_first(e1):
    desc = e1.describe()
    funnel = run_funnel(e1.space(SHAPE), desc, estimator=e1.estimator)
    survivors = funnel.survivors()
    assert sum(s.candidate.k_split > 0 for s in survivors) >= 10
    best = survivors[0].candidate
    assert best.k_split > 0
    assert simulate(desc, SHAPE, best).seconds * 1e6 < M_TILED_FLOOR_US


def test_the_dsa_elite_for_a_memory_bound_gemm_is_weight_streaming(e1):
    desc = e1.describe()
    elite = elite_candidate(e1.space(SHAPE), desc)
    assert elite.rule == "dsa.weight_streaming"
    c = elite.candidate
    assert (c.tile_m, c.dma_stages) == (SHAPE.m, 2) and c.k_split >= 1 and c.parallelism % c.k_split == 0
    assert simulate(desc, SHAPE, c).seconds * 1e6 < M_TILED_FLOOR_US
    # A compute-bound GEMM keeps the output-stationary macro tile.
    big = elite_candidate(e1.space(simple_gemm(2048, 2048, 2048, "i8")), desc)
    assert big.rule == "dsa.contraction" and big.candidate.k_split == 0


def test_teams_gather_their_activations_over_the_noc_when_the_ports_have_room(e1):
    desc = e1.describe()
    shape = simple_gemm(50, 4096, 1024, "i8", "i4", out_type="i32")
    # 16 teams of one core on 16 ports (256 GB/s >= 2 x 68 GB/s of DRAM): each reads 1/16 of the
    # activations and gathers the other 15/16 from the other teams, through its port only.
    c = TilingCandidate(50, 256, 256, 16, 32, 4, 16, 2, 0, 128, k_split=1)
    _, w = workload_for(desc, shape, c)
    piece, gather = w.first_tile_transfers
    whole = 50 * 256  # one 256-deep slice of the 50 rows, i8
    assert (piece.payload, gather.payload, gather.noc, gather.dram_cost) == (whole / 16, 2 * 15 / 16 * whole, True, 0)
    every_team_reads = dataclasses.replace(
        w, first_tile_transfers=(dataclasses.replace(piece, payload=whole, dram_cost=16 * piece.dram_cost),))
    assert simulate_workload(desc, shape, w).seconds < simulate_workload(desc, shape, every_team_reads).seconds
    # On 4 ports (64 GB/s) the gather would compete with the weight stream: every team reads.
    _, narrow = workload_for(desc, shape, dataclasses.replace(c, parallelism=4))
    assert [t.kind for t in narrow.first_tile_transfers] == ["A"]


# The prefix pass of lerobot's pi0: 816 tokens through a W4A8 gate projection. A whole-M
# accumulator (816 rows x 4 B, double-buffered) leaves 80 columns in 512 KiB: output rows of 320 B.
PREFIX = simple_gemm(816, 16384, 2048, "i8", "i4", out_type="i32")


def test_row_bands_share_each_weight_slice_over_the_noc(e1):
    desc = e1.describe()
    banded = TilingCandidate(128, 64, 1024, 16, 32, 4, 16, 2, 0, 128, k_split=1)  # 7 bands x 2 teams
    _, w = workload_for(desc, PREFIX, banded)
    assert w.busy_cores == 14 and w.tiles == 7 * (16384 // 64)
    kinds = {t.kind: t for t in w.step_transfers}
    assert set(kinds) == {"B", "scales", "B gather"} and kinds["B gather"].noc
    slice_bytes = 1024 * 64 // 2 + (1024 // 128) * 64 * desc.scale_bytes
    assert kinds["B"].payload + kinds["scales"].payload == pytest.approx(slice_bytes / 7)
    assert kinds["B gather"].payload == pytest.approx(2 * 6 / 7 * slice_bytes)
    # Every weight byte crosses DRAM once: the team's 7 cores read a seventh of each slice each.
    weights = w.tiles * w.k_steps * (kinds["B"].payload + kinds["scales"].payload)
    assert weights == pytest.approx(PREFIX.k * PREFIX.n // 2 + (PREFIX.k // 128) * PREFIX.n * desc.scale_bytes)
    # A core keeps only its band resident: 128 rows x the whole K.
    assert sum(t.payload for t in w.first_tile_transfers if not t.noc) * w.k_steps <= 128 * 2048


def test_row_bands_beat_whole_m_streaming_and_output_stationary_on_816_tokens(e1):
    desc = e1.describe()
    from iree_dsa_plugin.space import dsa_space, row_bands

    assert row_bands(PREFIX, desc, desc.tile_choices) == (64, 128, 256, 512)
    assert row_bands(SHAPE, desc, desc.tile_choices) == ()  # 64 tokens: whole-M rows are long enough
    funnel = run_funnel(dsa_space(PREFIX, desc), desc)
    cols = funnel.columns
    runnable = funnel.runnable

    def best(mask) -> float:
        idx = np.flatnonzero(runnable & mask)
        order = idx[np.argsort(funnel.estimate.total_s[idx])][:8]
        return min(simulate(desc, PREFIX, funnel.candidate(int(i))).seconds for i in order)

    streaming = cols["k_split"] > 0
    banded = best(streaming & (cols["tile_m"] < PREFIX.m))
    assert banded < best(streaming & (cols["tile_m"] == PREFIX.m)) / 2
    assert banded < best(~streaming) / 2
    # The funnel ranks a banded schedule first.
    first = funnel.candidate(int(funnel.order[0]))
    assert first.k_split >= 1 and first.tile_m < PREFIX.m
