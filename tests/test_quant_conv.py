"""The quantiser on convolutions (lit_tests/quant/conv.mlir: a padded Conv1d with a bias and a
stride-2 Conv2d, channel-first as torch exports them): the stored filters and scales against
numpy, the quantised model run by IREE against the same arithmetic done in numpy (INT8 codes with
one scale per batch element, exact i32 sums, the two scales), and the im2col rows calibration
reads against a direct convolution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.parameters import resolve_parameters
from iree_dsa_tuner.quant import QuantOptions, quantize_model
from iree_dsa_tuner.quant.accuracy import compile_for_host, run_functions
from iree_dsa_tuner.quant.conv import ConvLayout, conv_rows, filter_matrix
from iree_dsa_tuner.quant.model import calibration_inputs
from iree_dsa_tuner.quant.weights import LayerForm, quantize_activation, quantize_weight

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "lit_tests/quant/conv.mlir"
SIGNATURE = {"main": [((2, 8, 20), "f32"), ((1, 4, 9, 9), "f32")]}


def _conv(x: np.ndarray, w: np.ndarray, stride: int) -> np.ndarray:
    """A channel-first convolution (no padding) by definition, float64 or int64."""
    spatial = w.ndim - 2
    out = [(x.shape[2 + i] - w.shape[2 + i]) // stride + 1 for i in range(spatial)]
    y = np.zeros((x.shape[0], w.shape[0], *out), dtype=np.result_type(x, w))
    for offset in np.ndindex(*w.shape[2:]):
        window = tuple(slice(offset[i], offset[i] + stride * (out[i] - 1) + 1, stride) for i in range(spatial))
        y += np.einsum("nc...,fc->nf...", x[(slice(None), slice(None), *window)], w[(slice(None), slice(None), *offset)])
    return y


def _quantised_conv(x: np.ndarray, w: np.ndarray, stride: int) -> np.ndarray:
    """What the quantised model computes: per-sample INT8 activation codes, per-channel INT8
    filter codes, the exact integer convolution, times both scales."""
    qw = quantize_weight(filter_matrix(w), LayerForm("w8a8"))
    amax = np.max(np.abs(x.reshape(len(x), -1)), axis=1)
    rows = x.reshape(len(x), -1)
    codes, scale = quantize_activation(rows, row_amax=amax)
    acc = _conv(codes.reshape(x.shape), qw.codes.astype(np.int64).reshape(w.shape), stride)
    spatial = (1,) * (w.ndim - 2)
    return acc * scale.astype(np.float64).reshape(len(x), 1, *spatial) \
        * qw.channel_scale.astype(np.float64).reshape(1, len(w), *spatial)


@pytest.fixture(scope="module")
def quantized(tmp_path_factory):
    return quantize_model(FIXTURE, QuantOptions("w8a8", min_weight_elements=1),
                          output=tmp_path_factory.mktemp("conv") / "w8")


def test_filters_are_stored_in_their_shape_as_numpy_quantises_them(quantized):
    float_params = resolve_parameters(FIXTURE, (), seed=0)
    params = quantized.parameters()
    for key in ("conv1d.weight", "conv2d.weight"):
        w = np.asarray(float_params.value("model", key), dtype=np.float32)
        want = quantize_weight(filter_matrix(w), LayerForm("w8a8"))
        codes = np.asarray(params.value("model", f"{key}.w8a8.weight"))
        assert codes.shape == w.shape and codes.dtype == np.int8
        np.testing.assert_array_equal(codes.reshape(len(w), -1), want.codes)
        np.testing.assert_array_equal(np.asarray(params.value("model", f"{key}.w8a8.scale")), want.channel_scale)
    assert not any(p.key in ("conv1d.weight", "conv2d.weight") for p in params.globals)
    assert [s.form for s in quantized.sites] == ["w8a8", "w8a8"]


def test_iree_runs_the_quantised_convolutions_as_numpy_computes_them(quantized, tmp_path):
    float_params = resolve_parameters(FIXTURE, (), seed=0)
    w1 = np.asarray(float_params.value("model", "conv1d.weight"), dtype=np.float64)
    b1 = np.asarray(float_params.value("model", "conv1d.bias"), dtype=np.float64)
    w2 = np.asarray(float_params.value("model", "conv2d.weight"), dtype=np.float64)
    inputs = calibration_inputs(SIGNATURE, 3, 2)  # not the calibration seed
    outs = run_functions(compile_for_host(quantized.mlir, tmp_path / "build"), quantized.parameters(), inputs,
                         {"main": ["f32", "f32"]})["main"]
    for (x, img), (y, z) in zip(inputs["main"], outs):
        padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1)))
        want_y = _quantised_conv(padded, w1, 1) + b1[None, :, None]
        want_z = _quantised_conv(img.astype(np.float64), w2, 2)
        # Exact integer sums; the float epilogue rounds once or twice in f32.
        np.testing.assert_allclose(y, want_y, rtol=1e-5, atol=1e-5 * np.abs(want_y).max())
        np.testing.assert_allclose(z, want_z, rtol=1e-5, atol=1e-5 * np.abs(want_z).max())
        # And close to the float model, as the report says.
        assert np.linalg.norm(y - (_conv(padded, w1, 1) + b1[None, :, None])) < 0.02 * np.linalg.norm(y)
    assert quantized.worst().rel_l2 < 0.02


def test_im2col_rows_are_the_windows_each_output_reads():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 11, 10)).astype(np.float32)
    w = rng.standard_normal((5, 3, 3, 2)).astype(np.float32)
    stride = 2
    y = _conv(x.astype(np.float64), w.astype(np.float64), stride)
    layout = ConvLayout("linalg.conv_2d_nchw_fchw", (stride, stride), (1, 1), w.shape, y.shape)
    rows, amax = conv_rows(layout, x)
    assert rows.shape == (2 * 5 * 5, 3 * 3 * 2)
    np.testing.assert_allclose(rows @ filter_matrix(w).T.astype(np.float64),
                               np.moveaxis(y, 1, -1).reshape(-1, 5), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(amax, np.repeat(np.abs(x).reshape(2, -1).max(axis=1), 25))
