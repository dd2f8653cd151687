"""The numpy reference verify compares against."""

from __future__ import annotations

from string import Template

import numpy as np
import pytest

from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.tuning_spec.reference import NumpyModel
from iree_dsa_tuner.tuning_spec.verify import _function_signatures

from conftest import INPUTS


def numpy_model(path):
    return NumpyModel(compile_model(path).generic_input_text())


def test_mlp3_matches_a_hand_written_numpy_mlp():
    model = numpy_model(INPUTS / "mlp3.mlir")
    rng = np.random.default_rng(1)
    x, w1, w2, w3 = (rng.uniform(-1, 1, s) for s in [(8, 256), (256, 512), (512, 256), (256, 128)])
    (out,) = model("mlp3", x, w1, w2, w3)
    text = (INPUTS / "mlp3.mlir").read_text()
    h = x @ w1
    if "max" in text:  # relu between layers in this fixture
        h = np.maximum(h, 0)
    h = h @ w2
    if "max" in text:
        h = np.maximum(h, 0)
    expected = h @ w3
    assert out.shape == (8, 128)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)


def test_int8_gemm_is_exact_integer_arithmetic():
    model = numpy_model(INPUTS / "int8_gemm.mlir")
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, (16, 256))
    b = rng.integers(-128, 128, (256, 256))
    (out,) = model("int8_gemm", a, b)
    assert np.array_equal(out, a @ b)


def test_torch_export_signatures_come_from_tensor_imports():
    signatures, outputs, _ = _function_signatures(compile_model(INPUTS / "torch_gemma_mlp.mlir"))
    assert list(signatures) == ["gemma_mlp"]  # the $async twin takes fences
    assert signatures["gemma_mlp"][0] == ((1, 1, 256), "f32")
    assert outputs["gemma_mlp"] == ["f32"]


def test_convolution_windows_are_evaluated_like_a_hand_written_conv():
    """`d1 + d3` windows are gathered, then contracted: a 1-D valid conv, NWC x WCF."""
    model = numpy_model(INPUTS / "temporal_conv1d.mlir")
    rng = np.random.default_rng(3)
    x, w = rng.uniform(-1, 1, (2, 16, 64)), rng.uniform(-1, 1, (5, 64, 64))
    (out,) = model("temporal_conv1d", x, w)
    expected = np.zeros((2, 12, 64))
    for t in range(12):
        for tap in range(5):
            expected[:, t, :] += x[:, t + tap, :] @ w[tap]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mask_type", ["f32", "i1"])
def test_a_masked_attention_adds_a_float_mask_and_drops_false_keys(mask_type):
    """IREE 3.13's semantics, measured on its CPU build: scale * Q K^T + mask (f32), or -inf where
    an i1 mask is false."""
    rng = np.random.default_rng(4)
    q, k, v = rng.uniform(-1, 1, (2, 4, 8)), rng.uniform(-1, 1, (2, 6, 8)), rng.uniform(-1, 1, (2, 6, 8))
    if mask_type == "f32":
        mask = rng.uniform(-2, 2, (2, 4, 6))
        additive = mask
    else:
        mask = rng.integers(0, 2, (2, 4, 6)).astype(bool)
        mask[..., 0] = True  # every query keeps a key
        additive = np.where(mask, 0.0, -np.inf)
    (out,) = NumpyModel(MASKED_ATTENTION.substitute(mask=mask_type))("masked", q, k, v, mask)
    scores = np.einsum("bmk,bnk->bmn", q, k) * 0.35 + additive
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    expected = np.einsum("bmn,bnd->bmd", weights / weights.sum(-1, keepdims=True), v)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


MASKED_ATTENTION = Template("""
func.func @masked(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>, %m: tensor<2x4x6x${mask}>)
    -> tensor<2x4x8xf32> {
  %scale = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %o = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]>
      ins(%q, %k, %v, %scale, %m : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, f32, tensor<2x4x6x${mask}>)
      outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
""")
