"""Roofline (R5.5) and the pruning funnel (R5.4, R5.6); its throughput is bench/funnel_throughput.py's."""

from __future__ import annotations

import dataclasses

import math

import numpy as np
import pytest

from iree_dsa_tuner.core.reasons import Reason
from iree_dsa_tuner.costmodel import roofline, run_funnel
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.eventsim import simulate


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def test_r55_worked_example_exactly(e1):
    # M=1, N=256, K=256 INT8 on 256 TOPS / 68 GB/s.
    r = roofline(simple_gemm(1, 256, 256, "i8"), e1.describe())
    assert r.ops == 131072
    # Bytes, counted explicitly: weights 256x256 INT8 = 65536 (the seed's "~65536"),
    # A = 256 B, C = 256 x i32 = 1024 B; compulsory = 66816.
    assert r.weight_bytes == 65536 and r.lhs_bytes == 256 and r.out_bytes == 1024
    assert r.compulsory_bytes == 66816
    assert r.seed_intensity == 2.0
    assert r.intensity == pytest.approx(1.96, abs=0.01)
    assert r.ridge == pytest.approx(3765, abs=1)
    assert r.memory_bound and r.regime == "memory-bound"
    assert r.seed_bound_ops_per_s == pytest.approx(136e9)
    assert r.bound_ops_per_s == pytest.approx(133.4e9, rel=1e-3)
    text = "\n".join(r.lines())
    assert "131072" in text and "3765 op/B" in text and "136.0 GOP/s" in text


def test_funnel_r55_reports_every_stage(e1):
    result = run_funnel(e1.space(simple_gemm(1, 256, 256, "i8")), e1.describe())
    assert [s.name for s in result.stages] == ["legal", "roofline", "scratchpad", "latency"]
    # Counts chain: what leaves one stage enters the next.
    for before, after in zip(result.stages, result.stages[1:]):
        assert before.left == after.entered
    assert result.stages[0].entered == result.size
    assert result.stages[-1].left == result.survivor_count > 0
    # Every pruned candidate keeps its stage and reason; reason tallies add up.
    for s in result.stages:
        assert sum(c for _, c in s.reasons) == s.pruned
    pruned = np.flatnonzero(result.reason_code)
    assert all(result.stage_of(i) in ("legal", "roofline", "scratchpad", "latency") for i in pruned[:50])
    assert result.reason_of(int(pruned[0])) in [r.text for r in Reason]


# Each shape's exact space (docs/DSA_TARGET.md): the output-stationary product, beside which the
# weight-streaming schedules add theirs. dsa-e1's description is a file, not the host's CPU, so
# one outcome per shape holds on every machine.
@pytest.mark.parametrize("shape, output_stationary, weight_streaming", [
    (simple_gemm(256, 2048, 2048, "i8", has_consumer=True), 36864, 11520),  # the R5.6 factors
    (simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True), 13824, 44928),  # with the quant block
], ids=["256x2048x2048-i8", "1x2048x2048-i8xi4"])
def test_r56_funnel_shrinks_to_tens(e1, shape, output_stationary, weight_streaming):
    result = run_funnel(e1.space(shape), e1.describe())
    assert math.prod(len(v) for v in result.space.products[0].values()) == output_stationary
    assert result.size == output_stationary + weight_streaming
    assert 10 <= result.survivor_count <= 200
    assert result.shrink >= 10
    # The roofline and scratchpad stages alone already remove most of the space.
    after_sram = result.stages[2].left
    assert after_sram < result.size / 3


def test_pi0_gemm_funnel(e1):
    result = run_funnel(e1.space(simple_gemm(1, 1024, 4096, "i8", has_consumer=True)), e1.describe())
    assert 5 <= result.survivor_count <= 200
    best = result.survivors(1)[0]
    # Memory-bound: the best estimate is above the roofline bound, by what the DRAM loses per
    # run of a narrow block, and agrees with the independent event simulator on its pick.
    rl = result.roofline
    assert rl.memory_bound
    assert best.estimate_s >= rl.bound_seconds
    simulated = simulate(e1.describe(), simple_gemm(1, 1024, 4096, "i8", has_consumer=True), best.candidate)
    assert simulated.seconds / 1.3 < best.estimate_s < 1.3 * simulated.seconds
    assert best.candidate.fusion == 1


def test_funnel_survivors_fit_and_rank(e1):
    desc = e1.describe()
    result = run_funnel(e1.space(simple_gemm(50, 1024, 4096, "i8", has_consumer=True)), desc)
    order = result.order
    assert (result.geometry.footprint_bytes[order] <= desc.scratchpad_bytes).all()
    est = result.estimate.total_s[order]
    assert (np.diff(est) >= 0).all()


# The funnel's rate (candidates/s) is printed by bench/funnel_throughput.py: a wall-clock
# threshold in a test fails on a loaded machine and proves nothing about correctness.


def test_json_form(e1):
    result = run_funnel(e1.space(simple_gemm(1, 256, 256, "i8")), e1.describe())
    js = result.to_json(limit=3)
    assert js["roofline"]["ops"] == 131072 and js["roofline"]["ridge_op_per_byte"] == pytest.approx(3764.7, abs=0.1)
    assert js["stages"][0]["entered"] == result.size and len(js["ranked"]) == 3


def test_idle_cores_prunes_only_a_choice_a_smaller_one_matches(e1):
    # 1x9216 outputs in 1024-wide tiles: 9 tiles. 16 cores run them in one round (7 idle);
    # 8, the next choice, needs two. Only cores beyond the smallest choice that covers every
    # tile are waste, so 16 stays and is the best estimate; the simulator agrees.
    shape = simple_gemm(1, 9216, 1536, "f32")
    result = run_funnel(e1.space(shape), e1.describe(), estimator=e1.estimator)
    # The output-stationary schedules (weight streaming splits K and has tiles of its own).
    best = next(s.candidate for s in result.survivors() if s.candidate.k_split == 0)
    assert (best.tile_n, best.parallelism) == (1024, 16)
    on_16 = simulate(e1.describe(), shape, best).seconds
    on_8 = simulate(e1.describe(), shape, dataclasses.replace(best, parallelism=8)).seconds
    assert on_16 < on_8  # 9 tiles in one round on 16 cores beat two rounds on 8
    idle = [i for i in np.flatnonzero(result.reason_code) if result.reason_of(int(i)) == Reason.IDLE_CORES.text
            and result.columns["k_split"][i] == 0]
    assert idle
    choices = sorted(e1.space(shape).choices["parallelism"])
    for i in idle:  # a smaller choice covered every tile in one round
        tiles, cores = int(result.geometry.tiles[i]), int(result.columns["parallelism"][i])
        assert any(tiles <= c < cores for c in choices)
