"""The host's L0 model (costmodel/cpu.py) on transposed-B ([N,K]) matvecs.

The orderings asserted here are the ones measured on an AVX2 EPYC with
bench/host_cost_model_fidelity.py (docs/PERFORMANCE.md section 6): IREE's own
lanes x lanes block first, wide vector_n blocks (past the prefetcher's streams,
spilling the transposed block) and narrow vector_k blocks (assembled element by
element) behind it. They are checked for an AVX2-like and an AVX-512-like
description (conftest.cpu_description), so they hold whatever machine runs the tests.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import cpu_description
from iree_dsa_tuner.core.shape import GemmShape
from iree_dsa_tuner.costmodel.cpu import cpu_estimate

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

