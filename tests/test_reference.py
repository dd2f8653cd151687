"""The numpy reference verify compares against."""

from __future__ import annotations

from string import Template

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


RESOURCE_TABLE = """
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %table = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} ins(%x, %table : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x04000000BLOB"
    }
  }
#-}
"""


def test_a_dense_resource_table_is_read_from_the_module_text():
    # A torch export keeps small tables (pi0's rotary frequencies) as dense_resource blobs; the
    # reference reads their bytes (after the 4-byte alignment) as the elements they hold.
    table = np.array([1.0, 0.5, -2.0, 3.25], dtype=np.float32)
    text = RESOURCE_TABLE.replace("BLOB", table.tobytes().hex().upper())
    x = np.array([2.0, 4.0, 1.0, -1.0])
    (out,) = NumpyModel(text)("scale", x)
    np.testing.assert_array_equal(out, x * table)
    # A blob that does not hold the tensor is a reason, not a wrong answer.
    short = RESOURCE_TABLE.replace("BLOB", table[:3].tobytes().hex())
    with pytest.raises(NotEvaluable, match="dense_resource"):
        NumpyModel(short)("scale", x)


MAX_WITH_INDEX = """
func.func @amax(%x: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2xf32>
  %ei = tensor.empty() : tensor<2xi64>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %i0 = linalg.fill ins(%zero : i64) outs(%ei : tensor<2xi64>) -> tensor<2xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                          affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x5xf32>) outs(%m0, %i0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %i = arith.select %gt, %ki, %idx : i64
    linalg.yield %m, %i : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi64>
}
"""


def test_a_max_with_its_index_is_torchs_max_dim():
    # How a torch export lowers `x.max(dim)` (a softmax's running max): values and the first index
    # of the maximum.
    x = np.array([[1.0, 3.0, 3.0, -2.0, 0.5], [-1.0, -4.0, -0.5, -0.5, -9.0]])
    values, indices = NumpyModel(MAX_WITH_INDEX)("amax", x)
    np.testing.assert_array_equal(values, [3.0, -0.5])
    np.testing.assert_array_equal(indices, [1, 2])
