"""Convolutions with a weight: which ones the quantiser rewrites, their weight as a matrix, and
the im2col rows of the activations they meet.

A convolution is quantised in the channel-first layouts torch exports (`conv_1d_ncw_fcw`,
`conv_2d_nchw_fchw`, `conv_3d_ncdhw_fcdhw`, or their generalised forms): input `[N, C, *S]`,
filter `[F, C, *KS]`, output `[N, F, *O]`. As a GEMM it is `F` output channels over a reduction
of `K = C * prod(KS)`, and its filter reshaped `[F, K]` is the matrix `weights.py` quantises per
output channel. The filter keeps its shape in the model: the quantised op is the same named
convolution on INT8 codes into i32, which IREE builds as it built the float one.

The activation's INT8 scale is one per batch element (max |x| over the sample): an output sums a
window that overlaps its neighbours', so only a scale shared by every element of the sample
factors out of the sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import linalg

# Rows of im2col patches a calibration run keeps per call (evenly spaced): enough for a layer's
# error, without materialising a whole encoder's patches.
MAX_ROWS_PER_CALL = 2048


@dataclass(frozen=True)
class ConvLayout:
    """A channel-first convolution, as the quantiser rewrites it."""

    op_name: str  # the named op of the input form ("linalg.conv_1d_ncw_fcw"), or "linalg.generic"
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    filter_shape: tuple[int, ...]  # [F, C, *KS]
    output_shape: tuple[int, ...]  # [N, F, *O]
    attributes: str = ""  # the named op's strides and dilations, as IR text

    @property
    def spatial(self) -> int:
        return len(self.filter_shape) - 2


def _dims(affine_map: ir.AffineMap) -> list[int | None]:
    out = []
    for e in affine_map.results:
        e = e.maybe_downcast() if hasattr(e, "maybe_downcast") else e
        out.append(e.position if isinstance(e, ir.AffineDimExpr) else None)
    return out


def conv_layout(op: ir.Operation, maps: list[ir.AffineMap]) -> ConvLayout | str:
    """`op`'s layout, or why the quantiser leaves it float."""
    dims = linalg.infer_convolution_dimensions(op)
    if dims is None:
        return "a convolution whose dimensions IREE cannot infer"
    groups = {g: [int(x) for x in getattr(dims, g)] for g in
              ("batch", "output_image", "output_channel", "filter_loop", "input_channel", "depth")}
    if groups["depth"]:
        return "a grouped or depthwise convolution (its filter has no whole output channel)"
    if len(groups["batch"]) != 1 or len(groups["output_channel"]) != 1 or len(groups["input_channel"]) != 1:
        return "a convolution with more than one batch, input or output channel loop"
    (b,), (f,), (c,) = groups["batch"], groups["output_channel"], groups["input_channel"]
    x_dims, w_dims, o_dims = (_dims(m) for m in maps)
    if w_dims != [f, c, *groups["filter_loop"]] or o_dims != [b, f, *groups["output_image"]] \
            or x_dims[:2] != [b, c] or len(x_dims) != len(o_dims):
        return "a convolution that is not channel-first (input N C *S, filter F C *K): not quantised"
    shapes = [tuple(ir.RankedTensorType(v.type).shape) for v in (op.operands[1], op.results[0])]
    attributes = ""
    if op.name != "linalg.generic":
        attributes = "{" + ", ".join(f"{k} = {op.attributes[k]}" for k in ("dilations", "strides")
                                     if k in op.attributes) + "}"
    return ConvLayout(op.name, tuple(int(s) for s in dims.strides), tuple(int(d) for d in dims.dilations),
                      shapes[0], shapes[1], attributes)


def filter_matrix(filter_value: np.ndarray) -> np.ndarray:
    """The filter `[F, C, *KS]` as the `[F, K]` matrix its output channels are quantised over."""
    return np.ascontiguousarray(np.reshape(filter_value, (filter_value.shape[0], -1)), dtype=np.float32)


def conv_rows(layout: ConvLayout, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The im2col rows (one per output position, over K in the filter's order `C, *KS`) of the
    activation `x [N, C, *S]` that the convolution reads, at most MAX_ROWS_PER_CALL evenly spaced
    ones, and each row's sample's max |x| (the activation scale the quantised model uses)."""
    x = np.asarray(x, dtype=np.float32)
    n, c = x.shape[:2]
    out_image = layout.output_shape[2:]
    kernel = layout.filter_shape[2:]
    positions = int(np.prod(out_image)) if out_image else 1
    total = n * positions
    keep = np.unique(np.linspace(0, total - 1, min(total, MAX_ROWS_PER_CALL)).round().astype(np.int64))
    sample, flat = np.divmod(keep, positions)
    out_index = np.unravel_index(flat, out_image) if out_image else ()
    # For each kept row and each kernel offset, the input coordinate along each spatial axis.
    offsets = np.stack(np.meshgrid(*[np.arange(k) for k in kernel], indexing="ij"), axis=-1).reshape(-1, len(kernel))
    coords = [out_index[i][:, None] * layout.strides[i] + offsets[None, :, i] * layout.dilations[i]
              for i in range(len(kernel))]
    # rows[r, c, j] = x[sample[r], c, coords[0][r, j], coords[1][r, j], ...]
    patches = x[(sample[:, None, None], np.arange(c)[None, :, None], *[p[:, None, :] for p in coords])]
    rows = patches.reshape(len(keep), -1)
    sample_amax = np.max(np.abs(x.reshape(n, -1)), axis=1).astype(np.float32)
    return np.ascontiguousarray(rows), sample_amax[sample]


__all__ = ["ConvLayout", "MAX_ROWS_PER_CALL", "conv_layout", "conv_rows", "filter_matrix"]
