"""The host's L0 model (host/costmodel.py) on transposed-B ([N,K]) matvecs.

The orderings asserted here are the ones measured on an AVX2 EPYC with
bench/host_cost_model_fidelity.py (docs/PERFORMANCE.md section 6): IREE's own
lanes x lanes block first, wide vector_n blocks (past the prefetcher's streams,
spilling the transposed block) and narrow vector_k blocks (assembled element by
element) behind it. They are checked for an AVX2-like and an AVX-512-like
description (conftest.cpu_description), so they hold whatever machine runs the tests.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from conftest import cpu_description
from iree_dsa_tuner.core.shape import GemmShape
from iree_dsa_tuner.host.costmodel import cpu_estimate

ISAS = {"avx2": (8, 16), "avx512": (16, 32)}  # f32 lanes, vector registers


def _description(isa: str):
    """An AVX2-like or AVX-512-like CPU's host description (conftest), not this machine's."""
    desc = cpu_description(isa)
    assert (desc.mac_n, desc.cpu.vector_registers) == ISAS[isa]
    return desc


def _matvec(n: int, k: int, weights_nk: bool) -> GemmShape:
    return GemmShape(batch=1, m=1, n=n, k=k, lhs_type="f32", rhs_type="f32", out_type="f32",
                     loop_roles=("n", "k"), loop_is_inner=(True, True), loop_sizes=(n, k),
                     rhs_inner_role="k" if weights_nk else "n")


def _estimates_us(shape: GemmShape, desc, blocks: list[tuple[int, int]]) -> list[float]:
    count = len(blocks)
    cols = {"tile_m": np.ones(count, dtype=np.int64), "tile_n": np.full(count, 256, dtype=np.int64),
            "vec_m": np.ones(count, dtype=np.int64),
            "vec_n": np.array([b[0] for b in blocks], dtype=np.int64),
            "vec_k": np.array([b[1] for b in blocks], dtype=np.int64)}
    return list(cpu_estimate(shape, desc, cols).total_s * 1e6)


@pytest.mark.parametrize("isa", sorted(ISAS))
def test_transposed_b_ranks_iree_default_block_ahead_of_wide_and_narrow_ones(isa):
    lanes, _ = ISAS[isa]
    desc = _description(isa)
    shape = _matvec(2048, 2048, weights_nk=True)
    default, narrow_k, gather, wide_n, huge = _estimates_us(
        shape, desc, [(lanes, lanes), (lanes, lanes // 4), (lanes, 1), (16 * lanes, lanes), (4 * lanes, 8 * lanes)])
    assert default < narrow_k < gather
    assert default < wide_n and default < huge


@pytest.mark.parametrize("isa", sorted(ISAS))
def test_transposed_b_spills_grow_with_the_transposed_block(isa):
    lanes, _ = ISAS[isa]
    desc = _description(isa)
    shape = _matvec(2048, 2048, weights_nk=True)
    fits, twice, eight_times = _estimates_us(shape, desc, [(lanes, lanes), (lanes, 4 * lanes), (lanes, 16 * lanes)])
    assert fits < twice < eight_times


def test_kn_layout_still_prefers_wide_vector_n():
    """The [K,N] branch is unchanged: streaming B along n wants wide rows (measured 1x2048x2048: [1,128,16] best)."""
    lanes, _ = ISAS["avx2"]
    desc = _description("avx2")
    shape = _matvec(2048, 2048, weights_nk=False)
    narrow, wide = _estimates_us(shape, desc, [(lanes, lanes), (16 * lanes, 2 * lanes)])
    assert wide < narrow



def _gemm_kn(m: int, n: int, k: int) -> GemmShape:
    return GemmShape(batch=1, m=m, n=n, k=k, lhs_type="f32", rhs_type="f32", out_type="f32",
                     loop_roles=("m", "n", "k"), loop_is_inner=(True, True, True), loop_sizes=(m, n, k),
                     rhs_inner_role="n")



def _register_tiles(shape: GemmShape, desc, tiles: list[tuple[int, int, int]]):
    """The estimate of (vec_m, vec_n, vec_k) register tiles inside one whole-M, 4-register-wide
    distribution tile."""
    count = len(tiles)
    cols = {"tile_m": np.full(count, shape.m, dtype=np.int64),
            "tile_n": np.full(count, 4 * desc.mac_n, dtype=np.int64),
            **{name: np.array([t[i] for t in tiles], dtype=np.int64) for i, name in enumerate(("vec_m", "vec_n", "vec_k"))}}
    return cpu_estimate(shape, desc, cols)


# The widest register tile of 5 rows whose accumulators and B row fit the register file.
WIDE_REGISTERS = {"avx2": 2, "avx512": 4}


@pytest.mark.parametrize("isa", sorted(ISAS))
def test_kn_weights_too_big_for_the_l1d_want_enough_accumulators_to_hide_the_l2(isa):
    """A 50x1024x1024 GEMM with [K,N] weights (an action chunk through a Linear): every reduction
    step reads a row of B's K x vec_n slab, which does not fit the L1d, so a step waits for an L2
    hit. Measured on a Zen 4 (bench/host_cost_model_fidelity.py --shape f32_kn_50x1024x1024):
    1-row 4-register tiles ran at ~21% of the FMA peak, IREE's 5 x 1-register default at ~40%, 5 x
    4-register tiles at ~92%. The model had put all three at the peak; now it orders them so."""
    lanes, _ = ISAS[isa]
    desc = _description(isa)
    wide_rows, default, one_row = _register_tiles(
        _gemm_kn(50, 1024, 1024), desc,
        [(5, WIDE_REGISTERS[isa] * lanes, 8), (5, lanes, 16), (1, 4 * lanes, 64)]).total_s
    assert wide_rows < default and wide_rows < one_row
    assert one_row > 2 * wide_rows


@pytest.mark.parametrize("isa", sorted(ISAS))
def test_kn_slab_that_fits_the_l1d_waits_for_no_l2_hit(isa):
    """With a short K the K x vec_n slab of B stays in the L1d: per reduction element, IREE's 5 x
    1-register tile computes in well under half the time it needs when K is long (its steps then
    wait on the L2), and a wide tile is no slower with a short K than with a long one."""
    lanes, _ = ISAS[isa]
    desc = _description(isa)
    tiles = [(5, WIDE_REGISTERS[isa] * lanes, 8), (5, lanes, 8)]
    short = _register_tiles(_gemm_kn(50, 1024, 64), desc, tiles).compute_s / 64
    long = _register_tiles(_gemm_kn(50, 1024, 1024), desc, tiles).compute_s / 1024
    assert short[1] < 0.5 * long[1]
    assert short[0] <= long[0]


# Dispatch benchmarks of 16 legal candidates per [K,N] shape, spread over the previous model's
# ranking, measured on a Zen 4 EPYC (AVX-512, 32 KiB L1d) by
# `python bench/host_cost_model_fidelity.py --shape f32_kn_50x1024x1024 --shape f32_kn_1x2048x2048
# --shape f32_kn_16x1024x1024 --shape f32_kn_256x1152x1152 --sample 16 --json FILE`.
ZEN4_KN = Path(__file__).resolve().parent.parent / "bench" / "data" / "host_fidelity_kn_zen4.json"


def _zen4_like():
    """conftest's AVX-512 description as the Zen 4 where the figures were measured: its FMA probe
    read one full-width (zmm) FMA port at 3.57 GHz, and its L1d is 32 KiB."""
    desc = cpu_description("avx512")
    return desc.with_changes(clock_hz=3.57e9, mac_m=1,
                             cpu=dataclasses.replace(desc.cpu, fma_ports=1, l1d_bytes=32 * 1024))


@pytest.mark.parametrize("shape_name", ["f32_kn_50x1024x1024", "f32_kn_1x2048x2048", "f32_kn_16x1024x1024"])
def test_measured_kn_candidates_are_ranked_with_the_fastest_in_the_models_top_three(shape_name):
    """On the stored Zen 4 measurements the model's three best estimates hold the measured fastest
    candidate (before the L2 term: 1 of these 3 shapes), and the 50x1024x1024 chunk GEMM's fastest
    is the model's first pick."""
    stored = next(r for r in json.loads(ZEN4_KN.read_text())["results"] if r["shape"] == shape_name)
    m, n, k = (int(x) for x in shape_name.split("_")[-1].split("x"))
    rows = [r for r in stored["rows"] if r["measured_us"]]
    cols = {name: np.array([r["tile"][i] for r in rows], dtype=np.int64) for i, name in enumerate(("tile_m", "tile_n"))}
    cols.update({name: np.array([r["vec"][i] for r in rows], dtype=np.int64)
                 for i, name in enumerate(("vec_m", "vec_n", "vec_k"))})
    shape = _gemm_kn(m, n, k) if m > 1 else _matvec(n, k, weights_nk=False)
    estimates = cpu_estimate(shape, _zen4_like(), cols).total_s
    fastest = min(range(len(rows)), key=lambda i: rows[i]["measured_us"])
    top3 = sorted(range(len(rows)), key=lambda i: estimates[i])[:3]
    assert fastest in top3
    if shape_name == "f32_kn_50x1024x1024":
        assert top3[0] == fastest
