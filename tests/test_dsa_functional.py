"""The DSA functional model: exact integers, INT4 blocks, floats, capacity enforcement."""

from __future__ import annotations

import numpy as np
import pytest

from iree_dsa_tuner.costmodel import run_funnel, tile_geometry
from iree_dsa_tuner.space import TilingCandidate, candidates_to_columns, simple_gemm
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.functional import (
    ScratchpadOverflow,
    compare,
    dequantise_int4_blocks,
    pack_int4,
    quantise_int4_blocks,
    random_operands,
    reference,
    run_contraction,
    to_bf16,
    unpack_int4,
)


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1").describe()


@pytest.mark.parametrize("shape,candidate", [
    # The R5.5 GEMV with the funnel's kind of tile: 8 cores, 2 K steps, double buffered.
    (simple_gemm(1, 256, 256, "i8"), TilingCandidate(1, 32, 128, 1, 32, 16, 8, 2)),
    # Ragged edges in every dimension, triple buffering, more tiles than cores.
    (simple_gemm(50, 100, 300, "i8"), TilingCandidate(16, 32, 64, 16, 32, 16, 4, 3)),
    (simple_gemm(3, 40, 72, "i8", batch=2), TilingCandidate(2, 16, 32, 2, 16, 16, 2, 2)),
])
def test_int8_gemm_bit_exact_vs_numpy(e1, shape, candidate):
    a, b, _ = random_operands(shape, seed=3)
    result, stats = run_contraction(e1, shape, candidate, a, b)
    assert result.dtype == np.int32
    expected = np.matmul(a.astype(np.int64), b.astype(np.int64))
    assert np.array_equal(result.astype(np.int64), expected)
    assert compare(shape, result, reference(shape, a, b)) == (True, "bit-exact")
    assert stats.mac_steps > 0 and stats.tiles >= 1


def test_scratchpad_use_matches_cost_model_footprint(e1):
    shape = simple_gemm(50, 100, 320, "i8", "i4")
    cand = TilingCandidate(16, 32, 64, 16, 32, 16, 4, 3, 0, 32)
    a, q, scales = random_operands(shape, seed=1, quant_block=32)
    _, stats = run_contraction(e1, shape, cand, a, q, scales)
    geo = tile_geometry(shape, e1, candidates_to_columns([cand]))
    assert stats.scratchpad_peak_bytes[0] == int(geo.footprint_bytes[0])


@pytest.mark.parametrize("lhs", ["i8", "f32", "bf16"])
@pytest.mark.parametrize("block", [32, 128])
def test_int4_block_quantised_vs_dequantised_reference(e1, lhs, block):
    shape = simple_gemm(5, 96, 512, lhs, "i4")
    cand = TilingCandidate(4, 32, 256, 4, 32, 16, 4, 2, 0, block)
    a, q, scales = random_operands(shape, seed=5, quant_block=block)
    assert q.min() >= -8 and q.max() <= 7 and scales.shape == (512 // block, 96)
    result, _ = run_contraction(e1, shape, cand, a, q, scales)
    expected = a.astype(np.float64) @ dequantise_int4_blocks(q, scales, block).astype(np.float64)
    # f32 accumulation of block partials: relative error a few ulps of f32.
    assert np.allclose(result, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())
    ok, _ = compare(shape, result, reference(shape, a, q, scales, block))
    assert ok


def test_int4_packing_round_trip():
    q = np.random.default_rng(0).integers(-8, 8, size=(7, 9)).astype(np.int8)
    packed = pack_int4(q)
    assert packed.nbytes == (q.size + 1) // 2
    assert np.array_equal(unpack_int4(packed, q.size).reshape(q.shape), q)
    w = np.random.default_rng(1).standard_normal((64, 8)).astype(np.float32)
    q2, s = quantise_int4_blocks(w, 32)
    assert np.abs(dequantise_int4_blocks(q2, s, 32) - w).max() <= s.max() / 2 + 1e-6


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_float_accumulates_in_f32(e1, dtype):
    shape = simple_gemm(7, 48, 200, dtype)
    cand = TilingCandidate(4, 32, 64, 4, 32, 8, 2, 2)
    a, b, _ = random_operands(shape, seed=9)
    if dtype == "bf16":
        assert np.array_equal(to_bf16(a), a)  # inputs are bf16-representable
    result, _ = run_contraction(e1, shape, cand, a, b)
    assert result.dtype == np.float32
    ok, detail = compare(shape, result, reference(shape, a, b))
    assert ok, detail


def test_scratchpad_overflow_is_reported_with_buffer_name(e1):
    shape = simple_gemm(256, 512, 512, "i8")
    too_big = TilingCandidate(256, 256, 256, 16, 32, 16, 2, 2)
    a, b, _ = random_operands(shape)
    with pytest.raises(ScratchpadOverflow, match=r"core 0 scratchpad overflow: buffer 'output' needs 262144 B"):
        run_contraction(e1, shape, too_big, a, b)
    # The funnel agrees that this candidate does not fit.
    geo = tile_geometry(shape, e1, candidates_to_columns([too_big]))
    assert geo.footprint_bytes[0] > e1.scratchpad_bytes


def test_funnel_survivors_execute_exactly(e1):
    target = get_target("dsa-e1")
    shape = simple_gemm(8, 256, 512, "i8", has_consumer=True)
    result = run_funnel(target.space(shape), e1)
    a, b, _ = random_operands(shape, seed=2)
    expected = a.astype(np.int64) @ b.astype(np.int64)
    for survivor in result.survivors(5):
        out, _ = run_contraction(e1, shape, survivor.candidate, a, b)
        assert np.array_equal(out.astype(np.int64), expected)


def test_matches_iree_run_on_int8_gemm(e1):
    """The functional model's result equals IREE's own llvm-cpu run, bit for bit."""
    import iree.compiler as ic  # the pinned wheel is a dependency: a broken one fails, it is not skipped
    import iree.runtime as rt
    m, n, k = 4, 64, 128
    src = f"""
func.func @mm(%a: tensor<{m}x{k}xi8>, %b: tensor<{k}x{n}xi8>) -> tensor<{m}x{n}xi32> {{
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<{m}x{n}xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xi8>, tensor<{k}x{n}xi8>) outs(%f : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  return %r : tensor<{m}x{n}xi32>
}}"""
    vmfb = ic.compile_str(src, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"])
    module = rt.load_vm_flatbuffer(vmfb, driver="local-sync")
    shape = simple_gemm(m, n, k, "i8")
    a, b, _ = random_operands(shape, seed=4)
    iree_out = np.asarray(module.mm(a, b))
    ours, _ = run_contraction(e1, shape, TilingCandidate(4, 32, 64, 4, 32, 16, 2, 2), a, b)
    assert np.array_equal(iree_out, ours)
