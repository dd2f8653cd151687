"""The numpy reference verify compares against."""

from __future__ import annotations

import numpy as np
import pytest

from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.tuning_spec.reference import NotEvaluable, NumpyModel
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


def test_a_masked_attention_is_not_evaluable():
    with pytest.raises(NotEvaluable, match="masked attention"):
        NumpyModel(MASKED_ATTENTION)("masked", np.zeros((2, 4, 8)), np.zeros((2, 6, 8)), np.zeros((2, 6, 8)),
                                     np.zeros((2, 4, 6)))


MASKED_ATTENTION = """
func.func @masked(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>, %m: tensor<2x4x6xf32>)
    -> tensor<2x4x8xf32> {
  %scale = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %o = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]>
      ins(%q, %k, %v, %scale, %m : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, f32, tensor<2x4x6xf32>)
      outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
"""
