"""The arithmetic of quantisation, in numpy: a weight `W[N, K]` (N output channels, each a row
over the reduction K) and the activations it meets, as each layer form computes them.

Layer forms (what one contraction becomes; `docs/QUANT.md` lists the IR of each):
- `w8a8`: `W ~ s[n] * q[n, k]`, q in [-127, 127] (INT8 per output channel); the activation
  row (one token) `x ~ t[m] * p[m, k]`, p in [-127, 127], quantised at run time; the product
  accumulates `p * q` in i32 and the epilogue multiplies by `t[m] * s[n]`. With static
  activations (`activations = "static"`) `t` is one f32 per layer, max |x| over the
  calibration activations / 127, a constant of the model: no per-call reduction over K, and the
  quantisation of `x` fuses into the op that produces it. Values beyond the calibration range
  saturate at +-127.
- `w4a8`: INT4 grouped along K, in two levels so that the product still accumulates in i32
  (QServe's form): `W ~ s[n] * (c[n, k] - z[n, g]) * u[n, g]`, with `g = k // G`, a float scale
  per channel `s` (f16 or f32), 4-bit codes `c` ([-8, 7] symmetric, [0, 15] with a zero point),
  and per group an integer scale `u` in [1, 255] and, with zero points, an integer `z` in
  [0, 15]. `(c - z) * u` is an integer (the INT8 level the activations multiply in i32).
- `bf16`: both operands rounded to bf16, the product accumulated in f32 (the fallback).

Activation-aware scaling (AWQ's idea, `awq_smoothing`): the input channels that carry large
activations are scaled up in the weight and down in the activation (`x W^T = (x / a)(W a)^T`,
`a[k] = mean|x[:, k]|^alpha`), `alpha` picked on calibration activations by the error of the
layer's output; alpha = 0 is plain round-to-nearest.

A convolution (`conv.py`) is the same arithmetic over its im2col rows, except that its INT8
activation scale is one per batch element (max |x| over the whole sample), not one per row: a
row's window overlaps its neighbours', so only a scale shared by the whole sample factors out of
the sum. Its rows carry that scale as `row_amax`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputError

INT8_MAX = 127
GROUP_SIZES = (128, 64, 32)  # INT4 groups the quantiser offers, largest (fewest scales) first
AWQ_ALPHAS = (0.0, 0.25, 0.5, 0.75)
_EPS = 1e-12


@dataclass(frozen=True)
class LayerForm:
    """How one weight is quantised: `scheme` w8a8 | w4a8 | bf16, the INT4 group and whether it
    has zero points, the float type of its channel scales, and whether its activation scale is
    per token at run time ("token") or one calibrated constant ("static")."""

    scheme: str
    group: int = 0
    zero_point: bool = False
    scale_type: str = "f32"
    activations: str = "token"

    @property
    def static(self) -> bool:
        return self.scheme != "bf16" and self.activations == "static"

    def describe(self) -> str:
        suffix = " static" if self.static else ""
        if self.scheme == "w4a8":
            return f"w4a8 G{self.group} {'zero point' if self.zero_point else 'symmetric'} {self.scale_type}{suffix}"
        return self.scheme + suffix


@dataclass
class QuantizedWeight:
    """One weight as stored: codes and scales (see the module doc), all as numpy arrays."""

    form: LayerForm
    codes: np.ndarray  # [N, K] int8 (w8a8, and w4a8's 4-bit codes unpacked) or float32 bf16-rounded (bf16)
    channel_scale: np.ndarray | None = None  # [N] float32 (already rounded to scale_type)
    group_scale: np.ndarray | None = None  # [N, K/G] int64 in [1, 255] (w4a8)
    zero_point: np.ndarray | None = None  # [N, K/G] int64 in [0, 15] (w4a8 with zero points)
    smoothing: np.ndarray | None = None  # [K] float32: the activation is divided by it (AWQ); None: 1
    activation_amax: np.float32 | None = None  # static forms: max |x / smoothing| over calibration

    def integer_weight(self) -> np.ndarray:
        """The integer the activation codes multiply (w8a8: q; w4a8: (c - z) * u), int64 [N, K]."""
        c = self.codes.astype(np.int64)
        if self.form.scheme == "w8a8":
            return c
        g = self.form.group
        z = np.repeat(self.zero_point, g, axis=1) if self.zero_point is not None else 0
        return (c - z) * np.repeat(self.group_scale, g, axis=1)

    def dequantized(self) -> np.ndarray:
        """The float weight it stands for (smoothing folded back out), float64 [N, K]."""
        if self.form.scheme == "bf16":
            w = self.codes.astype(np.float64)
        else:
            w = self.integer_weight() * self.channel_scale.astype(np.float64)[:, None]
        return w / self.smoothing.astype(np.float64)[None, :] if self.smoothing is not None else w


def bf16_round(x: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even), kept as float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def round_scale(scale: np.ndarray, scale_type: str) -> np.ndarray:
    """A scale as the model stores it (f16 or f32), back in float32; never zero."""
    scale = np.maximum(np.asarray(scale, dtype=np.float64), 1e-30)
    if scale_type == "f16":
        scale = np.clip(scale, 2.0 ** -24, 65504.0).astype(np.float16)
    return scale.astype(np.float32)


def smoothed(x: np.ndarray, smoothing: np.ndarray | None) -> np.ndarray:
    """`x / smoothing` as the model computes it (f32, times the stored inverse)."""
    x = np.asarray(x, dtype=np.float32)
    if smoothing is None:
        return x
    return (x * (np.float32(1.0) / smoothing.astype(np.float32))).astype(np.float32)


def static_activation_amax(x: np.ndarray, smoothing: np.ndarray | None = None,
                           row_amax: np.ndarray | None = None) -> np.float32:
    """A static activation scale's max |x|: over every calibration row of `x[..., K]` (f32), or
    over the rows' own `row_amax` (a convolution's, which covers every element of each sample)."""
    if row_amax is not None:
        return np.float32(np.max(row_amax))
    return np.float32(np.max(np.abs(smoothed(x, smoothing))))


def quantize_activation(x: np.ndarray, smoothing: np.ndarray | None = None,
                        static_amax: np.float32 | None = None,
                        row_amax: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """INT8 codes and scales of `x[..., K]` as the quantised model computes them at run time
    (f32: max |x| over K, or each row's `row_amax` (a convolution's sample), or the static
    `static_amax` for every row, / 127, round half to even, clamp): (codes int64, scale float32
    per row)."""
    x = smoothed(x, smoothing)
    if static_amax is None and row_amax is not None:
        amax = np.asarray(row_amax, dtype=np.float32).reshape(x.shape[:-1] + (1,))
    elif static_amax is None:
        amax = np.max(np.abs(x), axis=-1, keepdims=True).astype(np.float32)
    else:
        amax = np.full(x.shape[:-1] + (1,), static_amax, dtype=np.float32)
    scale = (np.maximum(amax, np.float32(1e-30)) / np.float32(INT8_MAX)).astype(np.float32)
    codes = np.clip(np.rint(x * (np.float32(INT8_MAX) / np.maximum(amax, np.float32(1e-30)))), -INT8_MAX, INT8_MAX)
    return codes.astype(np.int64), scale[..., 0]


def quantize_weight(w: np.ndarray, form: LayerForm, smoothing: np.ndarray | None = None,
                    calibration: np.ndarray | None = None, row_amax: np.ndarray | None = None) -> QuantizedWeight:
    """Round-to-nearest of `w[N, K]` in `form` (the weight multiplied by `smoothing[k]` first);
    a static form takes its activation scale from `calibration` (the activations it meets, with
    their `row_amax` when the scale is not per row)."""
    qw = _quantize_weight(w, form, smoothing)
    if form.static:
        if calibration is None:
            raise ValueError("a static activation scale needs calibration activations")
        qw.activation_amax = static_activation_amax(calibration, smoothing, row_amax)
    return qw


def _quantize_weight(w: np.ndarray, form: LayerForm, smoothing: np.ndarray | None) -> QuantizedWeight:
    w = np.asarray(w, dtype=np.float64)
    if w.ndim != 2:
        raise ValueError(f"a weight to quantise is [N, K], got shape {w.shape}")
    if smoothing is not None:
        w = w * smoothing.astype(np.float64)[None, :]
    n, k = w.shape
    if form.scheme == "bf16":
        return QuantizedWeight(form, bf16_round(w.astype(np.float32)), smoothing=smoothing)
    amax = np.max(np.abs(w), axis=1)
    if form.scheme == "w8a8":
        s = round_scale(amax / INT8_MAX, form.scale_type)
        q = np.clip(np.rint(w / s[:, None]), -INT8_MAX, INT8_MAX)
        return QuantizedWeight(form, q.astype(np.int8), s, smoothing=smoothing)
    if form.scheme != "w4a8":
        raise ValueError(f"unknown layer scheme {form.scheme!r}")
    g = form.group
    if k % g:
        raise InputError(f"INT4 group {g} does not divide K = {k}")
    if (n * k) % 2:
        raise InputError(f"an i4 weight of {n} x {k} has an odd element count: IREE needs whole bytes")
    s = round_scale(amax / INT8_MAX, form.scale_type)  # level 1: to INT8 per channel
    q8 = np.clip(np.rint(w / s[:, None]), -INT8_MAX, INT8_MAX).reshape(n, k // g, g)
    if form.zero_point:
        lo, hi = q8.min(axis=2), q8.max(axis=2)
        u = np.clip(np.ceil((hi - lo) / 15.0), 1, 255)
        z = np.clip(np.rint(-lo / u), 0, 15)
        c = np.clip(np.rint(q8 / u[..., None]) + z[..., None], 0, 15)
        return QuantizedWeight(form, c.reshape(n, k).astype(np.int8), s, u.astype(np.int64), z.astype(np.int64),
                               smoothing=smoothing)
    u = np.clip(np.ceil(np.abs(q8).max(axis=2) / 7.0), 1, 255)
    c = np.clip(np.rint(q8 / u[..., None]), -8, 7)
    return QuantizedWeight(form, c.reshape(n, k).astype(np.int8), s, u.astype(np.int64), smoothing=smoothing)


def simulate(x: np.ndarray, qw: QuantizedWeight, row_amax: np.ndarray | None = None) -> np.ndarray:
    """The layer's output `x[T, K] W^T` as the quantised model computes it (float64)."""
    x = np.asarray(x, dtype=np.float64)
    if qw.form.scheme == "bf16":
        return bf16_round(x.astype(np.float32)).astype(np.float64) @ qw.codes.astype(np.float64).T
    codes, t = quantize_activation(x, qw.smoothing, qw.activation_amax, row_amax)
    acc = codes @ qw.integer_weight().T  # exact: i32 in the model, int64 here
    return acc * t.astype(np.float64)[:, None] * qw.channel_scale.astype(np.float64)[None, :]


def relative_error(reference: np.ndarray, value: np.ndarray) -> float:
    reference, value = np.asarray(reference, dtype=np.float64), np.asarray(value, dtype=np.float64)
    norm = float(np.linalg.norm(reference))
    return float(np.linalg.norm(value - reference)) / max(norm, _EPS)


def layer_error(w: np.ndarray, x: np.ndarray | None, qw: QuantizedWeight,
                row_amax: np.ndarray | None = None) -> float:
    """Relative L2 error of the layer's output on `x` (its calibration activations, with their
    `row_amax` when the activation scale is not per row); of the weight itself when there are none."""
    if x is None:
        return relative_error(w, qw.dequantized())
    return relative_error(np.asarray(x, dtype=np.float64) @ np.asarray(w, dtype=np.float64).T,
                          simulate(x, qw, row_amax))


def awq_smoothing(w: np.ndarray, x: np.ndarray, form: LayerForm,
                  alphas: tuple[float, ...] = AWQ_ALPHAS) -> tuple[np.ndarray | None, float, float]:
    """The activation-aware per-channel scale that minimises the layer's output error on `x`:
    (smoothing or None for alpha 0, alpha, error)."""
    mean = np.mean(np.abs(np.asarray(x, dtype=np.float64)), axis=0)
    best = (None, 0.0, math.inf)
    for alpha in alphas:
        if alpha == 0.0:
            a = None
        else:
            a = np.power(np.maximum(mean, 1e-6), alpha)
            a = (a / math.sqrt(float(a.max() * a.min()))).astype(np.float32)  # centred on 1 (geometric)
        err = layer_error(w, x, quantize_weight(w, form, a, x))
        if err < best[2] - 1e-12:
            best = (a, alpha, err)
    return best


__all__ = ["AWQ_ALPHAS", "GROUP_SIZES", "INT8_MAX", "LayerForm", "QuantizedWeight", "awq_smoothing",
           "bf16_round", "layer_error", "quantize_activation", "quantize_weight", "relative_error",
           "round_scale", "simulate", "static_activation_amax"]
