"""The DSA timing model: hand-computed cases and properties."""

from __future__ import annotations

import numpy as np
import pytest

from iree_dsa_tuner.space import TilingCandidate, simple_gemm
from iree_dsa_tuner.targets import get_target, parse_description
from iree_dsa_plugin.timing import simulate, simulate_columns


def toy_description(**overrides):
    """Round numbers so cycles can be computed by hand: 1 GHz, so 1 GB/s = 1 B/cycle."""
    data = {
        "schema": "iree-dsa-target/1",
        "target": {"name": "toy", "kind": "dsa"},
        "compute": {"clock_mhz": 1000, "cores": 2, "peak_tops_i8": 0.128,
                    "mac_array": {"m": 2, "n": 4, "k": 4}, "rate": {"i8": 1.0},
                    "vector_widths": [4], "accumulator_bytes": 4},
        "memory": {"dram_bandwidth_gbps": 8, "scratchpad_kib_per_core": 64, "shared_sram_kib": 0},
        "dma": {"engines_per_core": 1, "queue_depth": 2, "descriptor_latency_ns": 10,
                "port_bandwidth_gbps": 8, "min_useful_bytes": 0, "stage_depths": [1, 2, 3]},
        "launch": {"dispatch_overhead_us": 0.1},
        "space": {"tile_choices": 8, "parallelism_choices": 2, "fusion": [0, 1],
                  "quant_block_sizes": [32], "scale_bytes": 2},
        "funnel": {"roofline_slack": 1.25, "latency_slack": 1.1},
        "iree": {"max_vector_elements": 8192},
    }
    desc = parse_description(data, "toy.toml")
    return desc.with_changes(**overrides) if overrides else desc


def cand(tm, tn, tk, par, stages, vec_n=4):
    return TilingCandidate(tm, tn, tk, min(tm, 2), vec_n, min(tk, 4), par, stages, 0, 0)


def test_hand_case_single_buffer():
    # M=2 N=4 K=8, tile 2x4x4, 1 core, 1 stage. Two K steps.
    # step bytes = A 2x4 + B 4x4 = 24 B at min(port 8, DRAM 8/1) = 8 B/cycle -> 3 cycles,
    # + descriptor latency 10 x 2 descriptors / min(queue 2, 2 x 1 stage) in flight = 10 -> D = 13.
    # C = ceil(2/2) ceil(4/4) ceil(4/4) ceil(4/4) = 1. Output 2x4 i32 = 32 B / 8 + 10 = 14.
    # serial: 2 x (13 + 1) + 14 = 42, + launch 0.1 us = 100 cycles -> 142.
    r = simulate(toy_description(), simple_gemm(2, 4, 8, "i8"), cand(2, 4, 4, 1, 1))
    assert r.cycles == pytest.approx(142)
    assert r.compute_cycles == 2 and r.launch_cycles == pytest.approx(100)
    assert r.dma_cycles == pytest.approx(2 * 13 + 14)


def test_hand_case_double_buffer():
    # M=4 N=8 K=16, tile 4x8x8 (one tile: the second core idles), 2 stages.
    # step = A 4x8 + B 8x8 = 96 B / 8 = 12 + 10 x 2 / min(2, 4) = 10 -> D = 22.
    # C = ceil(4/2) ceil(8/4) ceil(4/4) ceil(8/4) = 2 x 2 x 1 x 2 = 8. O = 128 / 8 + 10 = 26.
    # double: D + (2-1) max(D, C) + C + O = 22 + 22 + 8 + 26 = 78, + 100 = 178.
    r = simulate(toy_description(), simple_gemm(4, 8, 16, "i8"), cand(4, 8, 8, 2, 2))
    assert r.cycles == pytest.approx(178)
    assert r.exposed_stall_cycles == pytest.approx(78 - 16)


def test_hand_case_triple_buffer_two_rounds():
    # M=6 N=4 K=4, tile 2x4x4: 3 tiles on 2 cores -> rounds of 2 then 1 (imbalance 4/3).
    # Full round: each core gets min(port 8, DRAM 8/2) = 4 B/cycle; last round 8 B/cycle.
    # step = 24 B: D_full = 6 + 10 = 16, D_last = 3 + 10 = 13 (in flight min(2, 2 x 3) = 2).
    # O_full = 32/4 + 10 = 18, O_last = 32/8 + 10 = 14. C = 1. k = 1 step per tile.
    # triple: D_first + max(D_last + O_last/k, C) + C + O_last/k = 16 + 27 + 1 + 14 = 58, + 100 = 158.
    r = simulate(toy_description(), simple_gemm(6, 4, 4, "i8"), cand(2, 4, 4, 2, 3))
    assert r.cycles == pytest.approx(158)
    assert r.imbalance == pytest.approx(4 / 3)


def _random_shapes(seed, count):
    rng = np.random.default_rng(seed)
    types = [("i8", "i8"), ("i8", "i4"), ("bf16", "bf16"), ("f32", "f32")]
    for _ in range(count):
        lhs, rhs = types[rng.integers(len(types))]
        m = int(rng.choice([1, 1, 7, 50, 256]))
        n, k = (int(2 ** rng.integers(5, 12)) for _ in range(2))
        yield simple_gemm(m, n, k, lhs, rhs, has_consumer=bool(rng.integers(2)))


@pytest.mark.parametrize("name", ["dsa-e1", "dsa-c1"])
def test_never_faster_than_roofline_bound(name):
    target = get_target(name)
    desc = target.describe()
    checked = 0
    for shape in _random_shapes(seed=7, count=12):
        cols = target.space(shape).columns()
        out = simulate_columns(desc, shape, cols)
        assert (out["cycles"] >= out["roofline_bound_cycles"] * (1 - 1e-12)).all(), shape.label()
        checked += len(out["cycles"])
    assert checked > 10_000


def test_more_bandwidth_never_slower():
    target = get_target("dsa-e1")
    desc = target.describe()
    faster = desc.with_changes(dram_bytes_per_s=2 * desc.dram_bytes_per_s,
                               dma_port_bytes_per_s=2 * desc.dma_port_bytes_per_s)
    for shape in _random_shapes(seed=11, count=6):
        cols = target.space(shape).columns()
        base = simulate_columns(desc, shape, cols)["cycles"]
        more = simulate_columns(faster, shape, cols)["cycles"]
        assert (more <= base * (1 + 1e-12)).all()
        assert (more < base).any()


def test_more_cores_never_slower():
    target = get_target("dsa-e1")
    desc = target.describe()
    bigger = desc.with_changes(cores=2 * desc.cores)
    for shape in _random_shapes(seed=13, count=6):
        cols = target.space(shape).columns()
        base = simulate_columns(desc, shape, cols)["cycles"]
        # The same candidates on a part with more cores: unchanged.
        assert np.allclose(simulate_columns(bigger, shape, cols)["cycles"], base)
        # Spreading every candidate over twice the cores (which the bigger part has).
        doubled = dict(cols, parallelism=2 * cols["parallelism"])
        more = simulate_columns(bigger, shape, doubled)["cycles"]
        assert (more <= base * (1 + 1e-9)).all(), shape.label()


def test_double_buffering_helps_dma_heavy_not_compute_bound():
    target = get_target("dsa-e1")
    desc = target.describe()
    # DMA-heavy: a batch-1 GEMV streaming weights in many small K steps; a second
    # buffer keeps two steps' descriptors in flight and hides their latency.
    gemv = simple_gemm(1, 1024, 4096, "i8")
    single = simulate(desc, gemv, TilingCandidate(1, 32, 64, 1, 32, 16, 16, 1))
    double = simulate(desc, gemv, TilingCandidate(1, 32, 64, 1, 32, 16, 16, 2))
    assert single.dma_cycles > 50 * single.compute_cycles
    assert double.cycles < 0.9 * single.cycles
    # Compute-bound: an f32 GEMM (1/16 rate) on a part with plenty of bandwidth
    # (the e1 arrays with HBM-class memory).
    rich = desc.with_changes(dram_bytes_per_s=1000 * desc.dram_bytes_per_s,
                             dma_port_bytes_per_s=1000 * desc.dma_port_bytes_per_s,
                             dma_descriptor_s=desc.dma_descriptor_s / 10)
    gemm = simple_gemm(256, 256, 1024, "f32")
    c1 = TilingCandidate(64, 64, 256, 16, 32, 1, 16, 1)
    c2 = TilingCandidate(64, 64, 256, 16, 32, 1, 16, 2)
    s1, s2 = simulate(rich, gemm, c1), simulate(rich, gemm, c2)
    assert s1.compute_cycles > 10 * s1.dma_cycles  # it is compute-bound
    assert s2.cycles <= s1.cycles and s2.cycles > 0.95 * s1.cycles


def test_breakdown_is_consistent():
    desc = get_target("dsa-e1").describe()
    r = simulate(desc, simple_gemm(50, 1024, 4096, "i8", has_consumer=True), TilingCandidate(50, 256, 128, 16, 32, 8, 4, 3, 1))
    assert r.cycles == pytest.approx(r.compute_cycles + r.exposed_stall_cycles + r.launch_cycles + r.unfused_consumer_cycles)
    assert 0 < r.mac_utilisation <= 1 and 0 < r.efficiency <= 1
    assert "roofline bound" in "\n".join(r.lines())
