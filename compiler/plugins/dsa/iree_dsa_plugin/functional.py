"""Functional model of the DSA (the ISS's functional half), on numpy.

Executes a contraction C = A @ B under a candidate the way the DSA would:
output tiles go round-robin to cores; each core owns a scratchpad whose
capacity is enforced (allocating past it raises `ScratchpadOverflow` naming
the core and buffer); every K slice arrives by DMA into one of `dma_stages`
rotating buffers (edges zero-padded); the MAC array consumes one array-depth
slice per step: int8 x int8 -> int32, f16/bf16/f32 -> f32 accumulation, and
INT4 block-quantised weights are unpacked from their packed DMA buffer and
scaled per block (scales travel with the weights).

Batched problems run one batch element after another (same schedule).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from iree_dsa_tuner.core.problems import element_bits
from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import gemm_shape
from iree_dsa_tuner.description import TargetDescription


class ScratchpadOverflow(RuntimeError):
    """A buffer that does not fit in a core's scratchpad."""


class FunctionalError(ValueError):
    """Inputs that do not match the problem or candidate."""


class Scratchpad:
    """One core's SRAM: named buffers, capacity enforced at allocation."""

    def __init__(self, core: int, capacity: int):
        self.core = core
        self.capacity = capacity
        self.used = 0
        self.buffers: dict[str, np.ndarray] = {}

    def alloc(self, name: str, shape: tuple[int, ...], dtype, nbytes: int | None = None) -> np.ndarray:
        size = int(nbytes if nbytes is not None else math.prod(shape) * np.dtype(dtype).itemsize)
        if self.used + size > self.capacity:
            raise ScratchpadOverflow(
                f"core {self.core} scratchpad overflow: buffer '{name}' needs {size} B but only "
                f"{self.capacity - self.used} B of {self.capacity} B are free "
                f"(already allocated: {', '.join(self.buffers) or 'nothing'})"
            )
        self.used += size
        buf = np.zeros(shape, dtype=dtype)
        self.buffers[name] = buf
        return buf


@dataclass
class FunctionalStats:
    tiles: int = 0
    dma_in_bytes: int = 0
    dma_out_bytes: int = 0
    mac_steps: int = 0
    scratchpad_peak_bytes: list[int] = field(default_factory=list)


# ---- INT4 helpers ---------------------------------------------------------------

def quantise_int4_blocks(w: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-block INT4 quantisation of W[K, N] along K: values in [-8, 7], f32 scales."""
    k, n = w.shape
    if k % block:
        raise FunctionalError(f"K={k} is not a multiple of the quant block {block}")
    blocks = w.reshape(k // block, block, n).astype(np.float32)
    scales = np.abs(blocks).max(axis=1) / 7.0
    scales = np.where(scales == 0, 1.0, scales).astype(np.float32)
    q = np.clip(np.round(blocks / scales[:, None, :]), -8, 7).astype(np.int8)
    return q.reshape(k, n), scales


def dequantise_int4_blocks(q: np.ndarray, scales: np.ndarray, block: int) -> np.ndarray:
    k, n = q.shape
    return (q.reshape(k // block, block, n).astype(np.float32) * scales[:, None, :]).reshape(k, n)


def pack_int4(q: np.ndarray) -> np.ndarray:
    """Two signed nibbles per byte along the flattened tile (the DMA format)."""
    flat = q.reshape(-1).astype(np.int16) & 0xF
    if flat.size % 2:
        flat = np.append(flat, 0)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def unpack_int4(packed: np.ndarray, count: int, signed: bool = True) -> np.ndarray:
    """The nibbles of `pack_int4`, sign-extended ([-8, 7]) or not ([0, 15], a ui4 weight)."""
    lo = (packed & 0xF).astype(np.int16)
    hi = (packed >> 4).astype(np.int16)
    flat = np.empty(packed.size * 2, dtype=np.int16)
    flat[0::2], flat[1::2] = lo, hi
    if signed:
        flat = np.where(flat >= 8, flat - 16, flat)
    return flat[:count].astype(np.int8)


def block_scales(group_scales: np.ndarray, group: int, block: int) -> np.ndarray:
    """A model's per-group scales (or zero points) [K / group, N] as the DSA's per-block
    ones [K / block, N]: a block divides its group, so it takes the group's value."""
    if group % block:
        raise FunctionalError(f"quant block {block} does not divide the weight's group size {group}")
    return np.repeat(group_scales, group // block, axis=0)


def to_bf16(x: np.ndarray) -> np.ndarray:
    """Round f32 values to the nearest bf16 (ties to even), kept in an f32 array."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


# ---- the model -------------------------------------------------------------------

def _storage_dtype(element_type: str):
    if element_type.startswith("i"):
        return np.int8 if element_bits(element_type) <= 8 else np.int32
    return {"f16": np.float16, "bf16": np.float32, "f32": np.float32}.get(element_type, np.float32)


def run_contraction(desc: TargetDescription, problem, candidate: TilingCandidate, a: np.ndarray,
                    b: np.ndarray, b_scales: np.ndarray | None = None,
                    b_zero_points: np.ndarray | None = None,
                    m_blocks: list[np.ndarray] | None = None) -> tuple[np.ndarray, FunctionalStats]:
    """C = A @ B under `candidate`. A: [M, K] (or [batch, M, K]); B: [K, N] (INT4: values in
    [-8, 7], or [0, 15] for a ui4 weight, with `b_scales` and optional `b_zero_points`
    [K / quant_block, N], or [K / group, N] for a real model's weight: each block takes
    its group's). Dequantised B = (B - zero point) * scale. `m_blocks`, when given, lists
    the rows of A (and C) each M tile holds, in place of runs of tile_m rows (a conv's
    2-D output block: run_convolution). Returns C and what the cores did."""
    shape = gemm_shape(problem)
    qb = candidate.quant_block
    if shape.quant_group and qb and b_scales is not None and b_scales.shape[0] * shape.quant_group == shape.k:
        b_scales = block_scales(b_scales, shape.quant_group, qb)
        if b_zero_points is not None:
            b_zero_points = block_scales(b_zero_points, shape.quant_group, qb)
    a3 = a.reshape((1,) + a.shape) if a.ndim == 2 else a
    batch, m, k = a3.shape
    if (m, k) != (shape.m, shape.k) or b.shape != (shape.k, shape.n) or batch != shape.batch:
        raise FunctionalError(f"operands {a.shape} x {b.shape} do not match the problem {shape.label()}")
    quantised = shape.quantised
    signed = not shape.rhs_type.startswith("ui")
    if quantised and (not qb or b_scales is None):
        raise FunctionalError("INT4 weights need a candidate quant_block and per-block scales")
    if quantised and b_scales.shape != (shape.k // qb, shape.n):
        raise FunctionalError(f"scales shape {b_scales.shape} does not match K/{qb} x N")
    if b_zero_points is not None and (not quantised or b_zero_points.shape != b_scales.shape):
        raise FunctionalError("zero points need INT4 weights and the shape of their scales")

    integer = shape.lhs_type.startswith("i") and not quantised
    acc_dtype = np.int32 if integer else np.float32
    out_dtype = np.int32 if integer else np.float32
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    mac_k = desc.mac_k_for(compute_type)
    tm, tn, tk = min(candidate.tile_m, m), min(candidate.tile_n, shape.n), min(candidate.tile_k, k)
    if m_blocks is None:
        m_blocks = [np.arange(i, min(i + tm, m)) for i in range(0, m, tm)]
    else:
        tm = max(len(rows) for rows in m_blocks)
    if quantised and tk % qb:
        raise FunctionalError(f"K tile {tk} is not a multiple of the quant block {qb}")
    stages = candidate.dma_stages
    tiles = [(bi, rows, j) for bi in range(batch) for rows in m_blocks for j in range(0, shape.n, tn)]
    cores = max(1, min(candidate.parallelism, len(tiles)))
    lhs_bytes, rhs_bits, out_bytes = element_bits(shape.lhs_type) / 8, element_bits(shape.rhs_type), shape.out_bytes

    # Allocate every core's buffers up front, as the firmware would: an overflow
    # is found before any work is done.
    pads = []
    for core in range(cores):
        pad = Scratchpad(core, desc.scratchpad_bytes)
        lhs_dtype = _storage_dtype(shape.lhs_type)
        for s in range(stages):
            pad.alloc(f"A[stage {s}]", (tm, tk), lhs_dtype, nbytes=math.ceil(tm * tk * lhs_bytes))
            if quantised:
                pad.alloc(f"B[stage {s}]", (math.ceil(tk * tn / 2),), np.uint8)
                pad.alloc(f"scales[stage {s}]", (tk // qb, tn), np.float32,
                          nbytes=(tk // qb) * tn * desc.scale_bytes)
                if b_zero_points is not None:  # travel beside the scales, one per block and column
                    pad.alloc(f"zero points[stage {s}]", (tk // qb, tn), np.float32,
                              nbytes=(tk // qb) * tn * desc.scale_bytes)
            else:
                pad.alloc(f"B[stage {s}]", (tk, tn), _storage_dtype(shape.rhs_type),
                          nbytes=math.ceil(tk * tn * rhs_bits / 8))
        pad.alloc("accumulator", (tm, tn), acc_dtype, nbytes=tm * tn * desc.accumulator_bytes)
        pad.alloc("output", (tm, tn), out_dtype, nbytes=int(tm * tn * out_bytes))
        pads.append(pad)

    c = np.zeros((batch, m, shape.n), dtype=out_dtype)
    stats = FunctionalStats(tiles=len(tiles), scratchpad_peak_bytes=[p.used for p in pads])
    for t, (bi, rows, j0) in enumerate(tiles):
        pad = pads[t % cores]
        acc = pad.buffers["accumulator"]
        acc[...] = 0
        h, w = len(rows), min(tn, shape.n - j0)
        for step, k0 in enumerate(range(0, k, tk)):
            s = step % stages
            depth = min(tk, k - k0)
            a_buf = pad.buffers[f"A[stage {s}]"]
            a_buf[...] = 0
            a_buf[:h, :depth] = a3[bi, rows, k0:k0 + depth]
            stats.dma_in_bytes += math.ceil(h * depth * lhs_bytes)
            if quantised:
                tile_q = np.zeros((tk, tn), dtype=np.int8)
                tile_q[:depth, :w] = b[k0:k0 + depth, j0:j0 + w]
                packed = pad.buffers[f"B[stage {s}]"]
                packed[...] = pack_int4(tile_q)
                scale_buf = pad.buffers[f"scales[stage {s}]"]
                scale_buf[...] = 0
                scale_buf[:depth // qb, :w] = b_scales[k0 // qb:(k0 + depth) // qb, j0:j0 + w]
                stats.dma_in_bytes += math.ceil(depth * w / 2) + (depth // qb) * w * desc.scale_bytes
                b_tile = unpack_int4(packed, tk * tn, signed).reshape(tk, tn).astype(np.float32)
                if b_zero_points is not None:
                    zp_buf = pad.buffers[f"zero points[stage {s}]"]
                    zp_buf[...] = 0
                    zp_buf[:depth // qb, :w] = b_zero_points[k0 // qb:(k0 + depth) // qb, j0:j0 + w]
                    stats.dma_in_bytes += (depth // qb) * w * desc.scale_bytes
                    # The dequantiser subtracts each block's zero point before the MACs.
                    b_tile = b_tile - np.repeat(zp_buf, qb, axis=0)
            else:
                b_buf = pad.buffers[f"B[stage {s}]"]
                b_buf[...] = 0
                b_buf[:depth, :w] = b[k0:k0 + depth, j0:j0 + w]
                stats.dma_in_bytes += math.ceil(depth * w * rhs_bits / 8)
                b_tile = b_buf
            # MAC steps: one array-depth slice of K at a time.
            for kk in range(0, depth, mac_k):
                a_slice = a_buf[:, kk:kk + mac_k]
                b_slice = b_tile[kk:kk + mac_k, :]
                if integer:
                    acc += a_slice.astype(np.int32) @ b_slice.astype(np.int32)
                elif quantised:
                    # Within one quant block the products are exact integers (W4A8) or
                    # f32 (W4A16); the block's scale multiplies each column's partial sum.
                    scale = scale_buf[kk // qb, :]
                    acc += (a_slice.astype(np.float32) @ b_slice.astype(np.float32)) * scale
                else:
                    acc += a_slice.astype(np.float32) @ b_slice.astype(np.float32)
                stats.mac_steps += 1
        out_buf = pad.buffers["output"]
        out_buf[...] = acc
        c[bi, rows, j0:j0 + w] = out_buf[:h, :w]
        stats.dma_out_bytes += int(h * w * out_bytes)
    return (c[0] if a.ndim == 2 else c), stats


def reference(problem, a: np.ndarray, b: np.ndarray, b_scales: np.ndarray | None = None,
              quant_block: int = 0, b_zero_points: np.ndarray | None = None) -> np.ndarray:
    """What numpy says the result is (INT4: against the dequantised weights)."""
    shape = gemm_shape(problem)
    if shape.quantised:
        if b_zero_points is not None:
            b = b.astype(np.float64) - np.repeat(b_zero_points, quant_block, axis=0)
        w = dequantise_int4_blocks(b, b_scales, quant_block).astype(np.float64)
        return (a.astype(np.float64) @ w).astype(np.float32)
    if shape.lhs_type.startswith("i"):
        return a.astype(np.int64) @ b.astype(np.int64)
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def random_operands(problem, seed: int = 0, quant_block: int = 0):
    """Seeded inputs of the problem's types: (A, B, B scales or None)."""
    shape = gemm_shape(problem)
    rng = np.random.default_rng(seed)
    a_shape = (shape.m, shape.k) if shape.batch == 1 else (shape.batch, shape.m, shape.k)

    def make(element_type, dims):
        if element_type.startswith("i"):
            lo, hi = (-8, 8) if element_bits(element_type) == 4 else (-128, 128)
            return rng.integers(lo, hi, size=dims, dtype=np.int64).astype(np.int8)
        x = rng.standard_normal(dims).astype(np.float32)
        if element_type == "bf16":
            return to_bf16(x)
        return x.astype(_storage_dtype(element_type))

    a = make(shape.lhs_type, a_shape)
    if shape.quantised:
        w = rng.standard_normal((shape.k, shape.n)).astype(np.float32)
        q, scales = quantise_int4_blocks(w, quant_block)
        return a, q, scales
    return a, make(shape.rhs_type, (shape.k, shape.n)), None


def compare(problem, result: np.ndarray, expected: np.ndarray) -> tuple[bool, str]:
    """Integers bit-exact; floats within a tolerance stated in the message."""
    shape = gemm_shape(problem)
    if shape.lhs_type.startswith("i") and not shape.quantised:
        ok = np.array_equal(result.astype(np.int64), expected.astype(np.int64))
        return ok, "bit-exact" if ok else f"{int((result != expected).sum())} elements differ"
    # f32 accumulation of K products: relative error grows ~ sqrt(K) x 2^-24; allow
    # a generous 1e-4 of the result scale (f16/bf16 inputs are exact in f32).
    scale = float(np.abs(expected).max()) or 1.0
    err = float(np.abs(result.astype(np.float64) - expected.astype(np.float64)).max()) / scale
    tol = 1e-4
    return err <= tol, f"max |diff| / max |ref| = {err:.2e} (tolerance {tol:g})"


def im2col(problem, x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A channels-last convolution as the implicit GEMM the DSA runs.

    x: [batch, *input_image, C_in] (NWC / NHWC), w: [*filter, C_in, C_out]
    (WCF / HWCF). Returns A [batch * prod(output_image), prod(filter) * C_in]
    and B [prod(filter) * C_in, C_out]; output position o and filter tap f
    read input index o * stride + f * dilation, per spatial dimension.
    """
    sizes = problem.sizes()
    out_image, taps = sizes["output_image"], sizes["filter_loop"]
    if sizes.get("depth"):
        raise FunctionalError("depthwise convolutions are not modelled")
    strides = list(problem.strides) or [1] * len(out_image)
    dilations = list(problem.dilations) or [1] * len(out_image)
    batch, c_in = x.shape[0], x.shape[-1]
    if w.shape[:-2] != tuple(taps) or w.shape[-2] != c_in:
        raise FunctionalError(f"filter {w.shape} does not match taps {taps} x C_in {c_in} (expected *filter, C_in, C_out)")
    # index[o, f] per spatial dimension, then an open grid over all of them.
    grids = [np.arange(o)[:, None] * s + np.arange(f)[None, :] * d
             for o, f, s, d in zip(out_image, taps, strides, dilations)]
    rank = len(out_image)
    index = []
    for i, g in enumerate(grids):
        shape = [1] * (2 * rank)
        shape[i], shape[rank + i] = g.shape
        index.append(g.reshape(shape))
    patches = x[(slice(None), *index, slice(None))]  # [batch, *out, *taps, C_in]
    a = patches.reshape(batch * math.prod(out_image), math.prod(taps) * c_in)
    b = w.reshape(math.prod(taps) * c_in, w.shape[-1])
    return a, b


def run_convolution(desc: TargetDescription, problem, candidate: TilingCandidate, x: np.ndarray,
                    w: np.ndarray) -> tuple[np.ndarray, FunctionalStats]:
    """A convolution under `candidate`, executed as an implicit GEMM (im2col tiles by DMA).

    An M tile is the candidate's block of the output image (and batch): tile_m up to
    OW positions of one row, or tile_m / OW whole rows (GemmShape.split_tile), so its
    A slice gathers the im2col rows of that block; overlapping input windows are read
    once per output position (no halo reuse). Returns the output as
    [batch, *output_image, C_out] and what the cores did.
    """
    from iree_dsa_tuner.core.shape import simple_gemm

    shape = gemm_shape(problem)
    a, b = im2col(problem, x, w)
    gemm = simple_gemm(a.shape[0], b.shape[1], a.shape[1], shape.lhs_type, shape.rhs_type, shape.out_type)
    sizes_m = shape.group_sizes("m")  # batch, *output_image: the order of A's rows
    if math.prod(sizes_m) != a.shape[0]:
        raise FunctionalError(f"m loops {sizes_m} do not cover the {a.shape[0]} im2col rows")
    steps = shape.split_tile("m", candidate.tile_m)
    blocks = []
    for corner in itertools.product(*(range(0, size, step) for size, step in zip(sizes_m, steps))):
        ranges = [np.arange(c0, min(c0 + step, size)) for c0, step, size in zip(corner, steps, sizes_m)]
        blocks.append(np.ravel_multi_index(np.ix_(*ranges), sizes_m).ravel())
    c, stats = run_contraction(desc, gemm, candidate, a, b, m_blocks=blocks)
    sizes = problem.sizes()
    return c.reshape(x.shape[0], *sizes["output_image"], b.shape[1]), stats
