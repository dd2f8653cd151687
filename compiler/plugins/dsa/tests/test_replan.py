"""L2's DSA schedule moves beyond L1's ladders (iree_dsa_plugin/replan.py): re-planned schedules
are configs the target reads back and the L2 gate accepts, the static estimate that ranks them
finds what the simulator rewards, and the target's floor holds for every schedule simulated."""

from __future__ import annotations

import numpy as np
import pytest

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import simple_gemm
from iree_dsa_tuner.costmodel.funnel import run_funnel
from iree_dsa_tuner.search.proposer import target_legality
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.eventsim import simulate
from iree_dsa_plugin.replan import k_slices, physical_floor_s, replans, static_estimate_s

# OpenVLA's prefill down projection at a tenth of its width: 276 tokens, K = 11008 = 256 x 43
# (a share of K / 8 = 1376 takes only the INT4 block 32 whole; a power-of-two slice pads it).
SHAPE = simple_gemm(276, 512, 11008, "i8", "i4", out_type="i32")
# What L1 found on the full shape: whole-M weight streaming, K split 8, 512-deep slices (3 per
# 1376-deep share: 1536, 11.6% padding), 32-column tiles, double buffered.
START = TilingCandidate(tile_m=276, tile_n=32, tile_k=512, vec_m=16, vec_n=32, vec_k=4, parallelism=16,
                        dma_stages=2, fusion=0, quant_block=128, k_split=8)


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def _ranked(e1, shape, start, limit):
    """The `limit` legal re-plans of `start` the static estimate ranks best (as L2 proposes them)."""
    desc = e1.describe()
    estimates = [(static_estimate_s(desc, shape, c), k, c) for k, c in replans(desc, shape, start)]
    ranked = sorted([e for e in estimates if e[0] is not None], key=lambda e: e[0])
    out = []
    for e in ranked:
        if len(out) == limit:
            break
        if target_legality(shape, e1, e[2]) is None:
            out.append(e)
    return out


def test_k_slices_pad_the_share_least_for_each_slice_count():
    # 1376 = 32 x 43: block 32 takes it whole; block 128 needs 11 x 128 = 1408 (2 slices of 704
    # do not divide 128, so 2 x 768); never a slice above the share.
    assert k_slices(1376, 32, 16)[:3] == [1376, 704, 480]
    assert k_slices(1376, 128, 16)[:2] == [768, 512]
    assert all(t <= 1376 and t % 128 == 0 for t in k_slices(1376, 128, 16))


def test_replans_are_configs_the_dsa_reads_back_and_the_gate_finds_legal(e1):
    desc = e1.describe()
    moves = replans(desc, SHAPE, START)
    kinds = {k for k, _ in moves}
    assert {"balanced-bands", "k-slices", "k-split"} <= kinds
    # Balanced bands: 276 rows in 2 bands of 144 (138 rounded up to the array's 16 rows), not 256.
    assert any(c.tile_m == 144 and c.k_split for _, c in moves)
    for _, c in moves[:: max(1, len(moves) // 60)]:
        assert e1.from_config(SHAPE, e1.to_config(SHAPE, c)) == c  # what is measured is what is proposed
        if c.quant_block:
            assert min(c.tile_k, -(-SHAPE.k // max(c.k_split, 1))) % c.quant_block == 0
    assert all(target_legality(SHAPE, e1, c) is None for _, _, c in _ranked(e1, SHAPE, START, 8))


def test_the_best_ranked_replans_beat_the_ladder_schedule_in_the_simulator(e1):
    desc = e1.describe()
    start_us = simulate(desc, SHAPE, START).seconds * 1e6
    best = min(simulate(desc, SHAPE, c).seconds * 1e6 for _, _, c in _ranked(e1, SHAPE, START, 8))
    assert best < 0.95 * start_us


@pytest.mark.parametrize("shape", [SHAPE, simple_gemm(16, 1536, 1536, "bf16", out_type="f32"),
                                   simple_gemm(256, 1152, 1152, "bf16", out_type="f32")],
                         ids=["w4a8-276x512x11008", "bf16-16x1536x1536", "bf16-256x1152x1152"])
def test_the_floor_is_below_every_simulated_schedule(e1, shape):
    """physical_floor_s claims no schedule beats it: L0's 12 best, 12 drawn at random (seeded)
    and the 8 best-ranked re-plans of L0's best, all simulated, stay above it; and it is above
    the roofline bound (the launch alone is 3 us)."""
    desc = e1.describe()
    floor = physical_floor_s(desc, shape)
    funnel = run_funnel(e1.space(shape), desc, estimator=e1.estimator)
    picks = [s.candidate for s in funnel.survivors(12)]
    runnable = np.flatnonzero(funnel.runnable)
    rng = np.random.default_rng(0)
    picks += [funnel.candidate(int(i)) for i in rng.choice(runnable, size=min(12, len(runnable)), replace=False)]
    picks += [c for _, _, c in _ranked(e1, shape, picks[0], 8)]
    times = [simulate(desc, shape, c) for c in picks]  # the deterministic simulator's seconds, not wall time
    assert all(r.seconds >= floor for r in times)
    assert floor > times[0].roofline_bound_cycles / desc.clock_hz + 0.9 * desc.launch_s
