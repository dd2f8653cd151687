"""The DSA functional model on INT4 weights with a quantiser's group scales: bit-exact.

Data are chosen so every product and partial sum is exact in f32 (small integer
activations, power-of-two scales, integer zero points): then any accumulation
order gives the same bits, and the functional model must equal the numpy
dequantisation reference exactly, whatever its tiles, quant block and cores.
A wrong nibble order, scale row, block-to-group mapping or zero point shows up
as a mismatch.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import gemm_shape, simple_gemm
from iree_dsa_tuner.ir.artifacts import compile_model
from conftest import load_tool
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.tuning_spec.reference import NumpyModel
from iree_dsa_plugin.functional import FunctionalError, block_scales, reference, run_contraction

AGGRESSIVE_FUSION = "--iree-dispatch-creation-enable-aggressive-fusion"


def _gen_int4():
    return load_tool("gen_int4_models")


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def exact_operands(rng, m, n, k, group, lhs="f32", unsigned=False):
    """Activations, i4 weights [K, N], power-of-two group scales and integer zero points."""
    if lhs == "i8":
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    else:
        a = rng.integers(-4, 5, (m, k)).astype(np.float32)
    q = rng.integers(0, 16, (k, n)) if unsigned else rng.integers(-8, 8, (k, n))
    scales = np.exp2(rng.integers(-3, 3, (k // group, n))).astype(np.float32)
    zero_points = rng.integers(0, 16, (k // group, n)).astype(np.float32) if unsigned else None
    return a, q.astype(np.int8), scales, zero_points


def candidate(tile_m, tile_n, tile_k, quant_block, parallelism=4, stages=2):
    return TilingCandidate(tile_m=tile_m, tile_n=tile_n, tile_k=tile_k, vec_m=1, vec_n=32, vec_k=1,
                           parallelism=parallelism, dma_stages=stages, fusion=0, quant_block=quant_block)


@pytest.mark.parametrize("lhs,rhs,quant_block,tiles", [
    ("f32", "i4", 32, (4, 32, 64)),
    ("f32", "i4", 64, (3, 64, 128)),     # M and N tiles that leave edges
    ("f32", "i4", 128, (8, 96, 128)),
    ("i8", "i4", 64, (4, 64, 64)),       # W4A8
    ("f32", "ui4", 32, (4, 32, 128)),    # unsigned nibbles minus a zero point
    ("f32", "ui4", 128, (8, 64, 128)),
    ("f32", "ui4", 64, (4, 32, 256)),    # a K tile spanning two groups
    ("i8", "i4", 32, (6, 80, 256)),
])
def test_group_scaled_int4_is_bit_exact_against_numpy_dequantisation(e1, lhs, rhs, quant_block, tiles):
    m, n, k, group = 6, 80, 256, 128
    shape = replace(simple_gemm(m, n, k, lhs, rhs), quant_group=group)
    rng = np.random.default_rng(quant_block + len(lhs) + len(rhs))
    a, q, scales, zero_points = exact_operands(rng, m, n, k, group, lhs, unsigned=rhs == "ui4")
    got, stats = run_contraction(e1.describe(), shape, candidate(*tiles, quant_block), a, q, scales, zero_points)
    want = reference(shape, a, q, scales, group, zero_points)
    assert got.dtype == np.float32 and got.shape == (m, n)
    np.testing.assert_array_equal(got, want)
    # The weight crossed the DMA packed (half a byte a value) with one scale (and zero point)
    # per block and column, once per M tile; the activations once per N tile.
    tiles_m, tiles_n = -(-m // tiles[0]), -(-n // tiles[1])
    per_block = e1.describe().scale_bytes * (2 if zero_points is not None else 1)
    assert stats.dma_in_bytes == tiles_n * a.nbytes + tiles_m * (k * n // 2 + (k // quant_block) * n * per_block)


def test_a_quant_block_must_divide_the_models_group(e1):
    shape = replace(simple_gemm(2, 32, 256, "f32", "i4"), quant_group=64)
    a, q, scales, _ = exact_operands(np.random.default_rng(0), 2, 32, 256, 64)
    with pytest.raises(FunctionalError, match="does not divide the weight's group size 64"):
        run_contraction(e1.describe(), shape, candidate(2, 32, 128, 128), a, q, scales)
    assert block_scales(np.array([[1.0], [2.0]]), 64, 32).ravel().tolist() == [1.0, 1.0, 2.0, 2.0]


def test_the_dsa_space_offers_the_quant_blocks_that_divide_the_group(e1):
    blocks = {g: e1.space(replace(simple_gemm(1, 256, 1024, "f32", "i4"), quant_group=g)).choices["quant_block"]
              for g in (32, 64, 128, 256)}
    assert blocks == {32: (32,), 64: (32, 64), 128: (32, 64, 128), 256: (32, 64, 128)}
    # The synthetic `funnel --dtype i8xi4` problem has no fixed group: every block size.
    assert e1.space(simple_gemm(1, 256, 1024, "i8", "i4")).choices["quant_block"] == (32, 64, 128)


def test_a_discovered_int4_matvec_runs_bit_exact_against_the_models_own_numpy_reference(e1, tmp_path):
    """The real pattern end to end: IREE's fused dispatch -> problem -> functional model,
    against verify's numpy evaluation of the model (its dequantise generic and matvec)."""
    n, k, group = 64, 512, 128
    model = tmp_path / "w4.mlir"
    model.write_text(_gen_int4().model(1, n, k, group, scale_type="f16", zero_point=False))
    artifacts = compile_model(model, tuple(e1.compile_flags) + (AGGRESSIVE_FUSION,))
    (problem,) = artifacts.problems()
    shape = gemm_shape(problem)
    assert (shape.rhs_type, shape.quant_group, shape.n, shape.k) == ("i4", group, n, k)

    rng = np.random.default_rng(3)
    a, q, scales, _ = exact_operands(rng, 1, n, k, group)
    # The model's layout: x [1, K/G, G], W [N, K/G, G], scales [N, K/G] (f16: powers of two are exact).
    x_model = a.reshape(1, k // group, group)
    w_model = q.T.reshape(n, k // group, group)
    s_model = scales.T.astype(np.float16)
    (want,) = NumpyModel(artifacts.generic_input_text())("int4_matmul", x_model, w_model, s_model)
    for quant_block in (32, 128):
        got, _ = run_contraction(e1.describe(), problem, candidate(1, 32, 128, quant_block), a, q, scales)
        np.testing.assert_array_equal(got, np.asarray(want, dtype=np.float32))
