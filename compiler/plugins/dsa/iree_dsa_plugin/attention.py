"""Attention on the DSA: `iree_linalg_ext.attention` as a flash-attention schedule.

IREE 3.13 hands the spec `online_attention` over the loops (batch, m, k1, k2, n): batch x
heads, queries, head width, keys, value width. Heads that share one K and V head (grouped-
query attention read through the op's maps, `quant.layout_fold`) are m loops, not batch:
IREE's attention detail puts every dim that K and V do not index with the queries. On the
DSA one core tile is one batch element x a block of query rows x a value tile; the row block
(`tile_m`) is a query tile within one head, or whole heads of a group that shares K and V
(`GemmShape.split_tile`: a tile of 2 x 51 rows is two heads of 51 queries), so the heads of
one group read the shared K and V once per tile instead of once per head; it keeps its Q tile and an f32 output accumulator
(plus the row max and row sum) in the scratchpad and streams the keys through it in KV
blocks: per block, K [block, head] and V [block, value tile] arrive by DMA into one of
`dma_stages` buffers, the MAC array computes S = Q K^T (head-deep), the vector unit runs the
online softmax (row max, exp, row sum, the rescale of the accumulator), and the array adds
P V (block-deep). At the tile's end the vector unit normalises the accumulator in place
(O / row sum, converted to the output type) and one descriptor drains it; the next tile's
first step waits for that drain (no separate staging tile) and its Q load waits until the
previous tile's last step is done (one Q buffer).

Knobs are the GEMM candidate's (`TilingCandidate`), read as:
- `tile_m`: query tile, `tile_n`: value tile, `tile_k`: KV block (keys per DMA step);
- `vec_n`: the vector-width knob (columns per MAC issue), as for GEMMs;
- `vec_m`, `vec_k`: derived, the llvm-cpu register rows and KV step of the functional path;
- `parallelism`, `dma_stages`, `fusion` as for GEMMs; no quant block.
The head width (k1) is never stepped: IREE 3.13's CPU attention computes wrong results when
`vector_reduction` tiles k1 (docs/ATTENTION.md), so the config always leaves it whole (0).
Batch heads (each with its own K and V) are not grouped into one core tile: grouping them
would save no traffic, only descriptors, which the KV block sets.

The vector unit's rate is the description's `[vector_unit]` table (optional): `lanes` f32
element operations per cycle per core (default: the MAC array's `n`), and
`softmax_ops_per_score` (default 5: scale and subtract the max, exp, max, sum, convert to
the P V operand type). The rescale costs one operation per accumulator element per step,
the final normalisation one per element per tile.

Everything here is written from the target description and the candidate (like
workload.py); it shares nothing with the tuner's cost model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.core.shape import GemmShape, attention_shape
from iree_dsa_tuner.description import TargetDescription, TargetDescriptionError
from iree_dsa_tuner.space.space import CandidateSpace, block_ladder, tile_ladder
from iree_dsa_tuner.targets.mapping import (
    ATTENTION_PIPELINE,
    attention_group_tiles,
    attention_loop_types,
    attention_tile_lists,
)

from .functional import FunctionalStats, Scratchpad, ScratchpadOverflow, to_bf16
from .workload import Transfer, Workload, _block, simulator_params

SCORE_BYTES = 4  # S / P and the row statistics are f32 in the scratchpad


def is_attention(problem) -> bool:
    return getattr(problem, "kind", "") == "attention"


def row_tiles(shape: GemmShape, tile_m: int) -> list[tuple[int, int]]:
    """The query-row blocks of one batch element: (first row, rows), rows numbered over
    the whole m group (heads x queries, outer to inner). A block is `split_tile`'s per-loop
    tile: a query tile within one head, or whole heads; the last block of a loop is cut
    at its end."""
    sizes = shape.group_sizes("m") or (1,)
    steps = shape.split_tile("m", min(tile_m, math.prod(sizes)))
    strides = [math.prod(sizes[i + 1:]) for i in range(len(sizes))]
    # The outermost loop tiled by more than 1 (or the innermost): loops inside it are whole.
    part = next((i for i, t in enumerate(steps) if t > 1), len(sizes) - 1)
    blocks = []
    for index in np.ndindex(*(-(-size // t) for size, t in zip(sizes[:part + 1], steps[:part + 1]))):
        start = sum(i * t * stride for i, t, stride in zip(index, steps, strides))
        rows = min(steps[part], sizes[part] - index[part] * steps[part]) * strides[part]
        blocks.append((start, rows))
    return blocks


def tile_rows(shape: GemmShape, tile_m: int) -> int:
    """Query rows a full row block holds (whole heads x queries, or a query tile)."""
    return math.prod(shape.split_tile("m", min(tile_m, shape.m)))


# ---- the vector unit ------------------------------------------------------------------

@dataclass(frozen=True)
class VectorUnit:
    lanes: int  # f32 element operations per cycle per core
    softmax_ops_per_score: int


def vector_unit(desc: TargetDescription) -> VectorUnit:
    table = desc.extras.get("vector_unit", {})
    if not isinstance(table, dict):
        raise TargetDescriptionError(desc.source, "vector_unit", "expected a table")
    values = {"lanes": table.get("lanes", desc.mac_n),
              "softmax_ops_per_score": table.get("softmax_ops_per_score", 5)}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise TargetDescriptionError(desc.source, f"vector_unit.{name}", f"expected a positive integer, got {value!r}")
    unknown = sorted(set(table) - set(values))
    if unknown:
        raise TargetDescriptionError(desc.source, f"vector_unit.{unknown[0]}", "unknown field")
    return VectorUnit(**values)


# ---- space ------------------------------------------------------------------------------

def _floor_pow2(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.int64)
    out = np.zeros_like(x)
    pos = x >= 1
    out[pos] = 1 << np.floor(np.log2(x[pos])).astype(np.int64)
    out[pos & (out * 2 <= x)] *= 2
    return out


def attention_vector_step(columns: dict[str, np.ndarray], desc: TargetDescription, shape: GemmShape) -> None:
    """The llvm-cpu vector tiles of a DSA attention candidate (its functional path).

    The widest vector online_attention builds is (register rows x KV step x max(head,
    value lanes)) and must stay below `max_vector_elements`; the head is whole, so the KV
    step (a power of two up to the KV block) is chosen first, then the rows (up to the
    array's rows and the query tile). 0 marks "cannot fit" (the funnel drops it).
    """
    head = max(shape.head_dim, 1)
    lanes = np.minimum(columns["vec_n"], np.minimum(columns["tile_n"], shape.inner("n")))
    budget = (desc.max_vector_elements - 1) // np.maximum(head, lanes)
    tk = np.minimum(columns["tile_k"], shape.inner("k"))
    vec_k = np.minimum(_floor_pow2(tk), _floor_pow2(budget))
    rows = np.minimum(np.minimum(columns["tile_m"], shape.inner("m")), desc.mac_m)
    vec_m = np.minimum(_floor_pow2(rows), _floor_pow2(budget // np.maximum(vec_k, 1)))
    columns["vec_k"] = vec_k
    columns["vec_m"] = np.maximum(vec_m, 1)


def query_tiles(shape: GemmShape, count: int) -> tuple[int, ...]:
    """Row blocks offered: the block ladder (powers of two within a head, then whole heads),
    plus the queries split evenly in 2, 3 and 4. Where one head's Q and accumulator do not fit
    beside each other, every row block re-reads K and V, so the number of blocks is the
    traffic: 816 queries in blocks of 272 read K and V 3 times per head, in blocks of 256
    (the ladder's largest that fits) 4 times."""
    queries = shape.inner("m")
    even = {-(-queries // parts) for parts in (2, 3, 4) if parts <= queries}
    return tuple(sorted(set(block_ladder(shape.group_sizes("m") or (1,), count)) | even))


def attention_space(problem, desc: TargetDescription) -> CandidateSpace:
    """Query tile x value tile x KV block x vector width x cores x DMA stages (x fusion)."""
    shape = attention_shape(problem)
    count = desc.tile_choices
    choices = {
        "tile_m": query_tiles(shape, count),
        "tile_n": tile_ladder(shape.inner("n"), count),
        "tile_k": tile_ladder(shape.inner("k"), count),
        "vec_m": (0,),  # derived
        "vec_n": desc.vector_widths,
        "vec_k": (0,),  # derived
        # Heads are attention's natural tiles: with fewer heads than cores, one core per
        # head is offered too (otherwise every core count may idle cores or split heads).
        "parallelism": tuple(sorted(set(desc.parallelism()) | ({shape.batch} if shape.batch < desc.cores else set()),
                                    reverse=True)),
        "dma_stages": desc.stage_depths,
        "fusion": desc.fusion if shape.has_consumer else (0,),
        "quant_block": (0,),
    }
    return CandidateSpace(shape, desc.name, choices, derive=lambda cols: attention_vector_step(cols, desc, shape))


# ---- candidate <-> config -----------------------------------------------------------------

def attention_to_config(problem, candidate: TilingCandidate, extra: dict) -> CompilationConfig:
    shape = attention_shape(problem)
    if candidate.vec_k < 1:
        raise ConfigError(f"candidate has no KV step llvm-cpu can compile: {candidate.short()}")
    # head_step = the whole head: k1 is never stepped (wrong results in IREE 3.13).
    dist, vec, red = attention_tile_lists(shape, candidate.tile_m, candidate.tile_n, candidate.vec_m,
                                          candidate.vec_n, candidate.vec_k, shape.head_dim)
    config = CompilationConfig(ATTENTION_PIPELINE, dist, vec, red, tuple(sorted(extra.items())))
    config.check_against(attention_loop_types(shape))
    return config


def attention_from_config(problem, config: CompilationConfig, extra: dict) -> TilingCandidate:
    shape = attention_shape(problem)
    config.check_against(attention_loop_types(shape))
    if config.pipeline != ATTENTION_PIPELINE:
        raise ConfigError(f"DSA attention configs use {ATTENTION_PIPELINE}, got {config.pipeline}")
    t = attention_group_tiles(shape, config)  # its tile_k is the head step, which the DSA ignores
    return TilingCandidate(
        tile_m=t["tile_m"], tile_n=t["tile_n"], tile_k=extra["iree_dsa.tile_k"],
        vec_m=t["vec_m"], vec_n=extra["iree_dsa.vector_width"], vec_k=t["vec_k"],
        parallelism=extra["iree_dsa.parallelism"], dma_stages=extra["iree_dsa.dma_stages"],
        fusion=extra["iree_dsa.fusion"], quant_block=0,
    )


def untuned_kv_block(desc: TargetDescription, shape: GemmShape, tile_m: int, tile_n: int, stages: int) -> int:
    """What a DSA compiler does without tuning: all keys in one step if the buffers fit,
    else the largest power-of-two block that does (1 if none)."""
    keys = shape.inner("k")
    block = keys
    while block > 1 and attention_footprint(desc, shape, tile_m, tile_n, block, stages) > desc.scratchpad_bytes:
        block = 1 << (math.ceil(math.log2(block)) - 1) if block & (block - 1) else block // 2
    return block


def attention_untuned_config(desc: TargetDescription, problem, iree_default: CompilationConfig) -> CompilationConfig:
    """IREE's llvm-cpu tiles (query and value tiles, its own head step kept) plus the DSA
    compiler's defaults: every core, double buffering, the vector width of IREE's value
    lanes, and the largest KV block that fits (`untuned_kv_block`)."""
    shape = attention_shape(problem)
    t = attention_group_tiles(shape, iree_default)
    stages = 2
    knobs = {
        "iree_dsa.tile_k": untuned_kv_block(desc, shape, t["tile_m"], t["tile_n"], stages),
        "iree_dsa.vector_width": max(t["vec_n"], 1),
        "iree_dsa.parallelism": desc.cores,
        "iree_dsa.dma_stages": stages,
        "iree_dsa.fusion": 1 if problem.fused_ops else 0,
    }
    return CompilationConfig(iree_default.pipeline, iree_default.distribution, iree_default.vector_common_parallel,
                             iree_default.vector_reduction, tuple(sorted(knobs.items())))


# ---- scratchpad -------------------------------------------------------------------------

def attention_buffers(desc: TargetDescription, shape: GemmShape, tile_m: int, tile_n: int, tile_k: int,
                      stages: int) -> list[tuple[str, int]]:
    """One core's scratchpad buffers (name, bytes) under a candidate's tiles."""
    tm, tn, tk = tile_rows(shape, tile_m), min(tile_n, shape.inner("n")), min(tile_k, shape.inner("k"))
    head, stages = shape.head_dim, max(1, stages)
    return [
        ("Q", int(tm * head * shape.lhs_bytes)),
        (f"K x {stages} stages", int(stages * tk * head * shape.rhs_bytes)),
        (f"V x {stages} stages", int(stages * tk * tn * shape.rhs_bytes)),
        ("scores", tm * tk * SCORE_BYTES),
        ("row max + row sum", 2 * tm * SCORE_BYTES),
        ("accumulator", tm * tn * desc.accumulator_bytes),  # normalised and drained in place
    ]


def attention_footprint(desc: TargetDescription, shape: GemmShape, tile_m: int, tile_n: int, tile_k: int,
                        stages: int) -> int:
    return sum(size for _, size in attention_buffers(desc, shape, tile_m, tile_n, tile_k, stages))


def check_attention_scratchpad(desc: TargetDescription, shape: GemmShape, c: TilingCandidate) -> None:
    buffers = attention_buffers(desc, shape, c.tile_m, c.tile_n, c.tile_k, c.dma_stages)
    need = sum(size for _, size in buffers)
    if need > desc.scratchpad_bytes:
        parts = ", ".join(f"{name} {size / 1024:.1f} KiB" for name, size in buffers)
        raise ScratchpadOverflow(f"needs {need / 1024:.1f} KiB of scratchpad per core ({parts}); "
                                 f"{desc.name} has {desc.scratchpad_bytes / 1024:.0f} KiB")


# ---- timing: the event simulator's workload ---------------------------------------------

@dataclass(frozen=True)
class AttentionWorkload(Workload):
    """A `Workload` whose tiles also load their Q tile once (before their first step) and
    normalise and drain the accumulator in place (the next tile's first step waits)."""

    tile_transfers: tuple[Transfer, ...] = ()
    output_in_place: bool = True


def _ceil(a: float, b: float) -> int:
    return -(-int(a) // int(b))


def attention_step_cycles(desc: TargetDescription, shape: GemmShape, tm: int, tn: int, tk: int,
                          vec_n: int) -> tuple[int, int, int]:
    """(Q K^T issues, P V issues, vector-unit cycles) of one KV step of one tile."""
    depth = desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type))
    lanes = max(1, vec_n)
    rows = _ceil(tm, desc.mac_m)
    qk = rows * _ceil(tk, lanes) * _ceil(lanes, desc.mac_n) * _ceil(shape.head_dim, depth)
    pv = rows * _ceil(tn, lanes) * _ceil(lanes, desc.mac_n) * _ceil(tk, depth)
    vu = vector_unit(desc)
    vector = _ceil(tm * tk * vu.softmax_ops_per_score + tm * tn, vu.lanes)
    return qk, pv, vector


def build_attention_workload(desc: TargetDescription, shape: GemmShape, c: TilingCandidate) -> AttentionWorkload:
    params = simulator_params(desc)
    check_attention_scratchpad(desc, shape, c)
    n_in, k_in, head = shape.inner("n"), shape.inner("k"), shape.head_dim
    tm, tn, tk = tile_rows(shape, c.tile_m), min(c.tile_n, n_in), min(c.tile_k, k_in)
    tiles = shape.batch * len(row_tiles(shape, c.tile_m)) * shape.outer("n") * _ceil(n_in, tn)
    k_steps = shape.outer("k") * _ceil(k_in, tk)
    busy = max(1, min(c.parallelism, tiles))
    qb, kvb, ob = shape.lhs_bytes, shape.rhs_bytes, shape.out_bytes
    # Q [B, M, head], K [B, keys, head], V [B, keys, N], O [B, M, N], last dim contiguous.
    q = _block("Q", tm, head * qb, head * qb, params)
    k = _block("K", tk, head * kvb, head * kvb, params)
    v = _block("V", tk, tn * kvb, n_in * kvb, params)
    drain = _block("C", tm, tn * ob, n_in * ob, params)
    qk, pv, vector = attention_step_cycles(desc, shape, tm, tn, tk, c.vec_n)
    depth = desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type))
    port = params.scratchpad_port_bytes_per_cycle or int(desc.mac_m * desc.mac_k + desc.mac_k * desc.mac_n)
    clock = desc.clock_hz
    consumer = 2.0 * shape.batch * shape.m * shape.n * ob if shape.has_consumer and not c.fusion else 0.0
    return AttentionWorkload(
        busy_cores=busy, tiles=tiles, k_steps=k_steps, step_transfers=(k, v), drain=drain,
        step_cycles=qk + pv + vector, copy_cycles=_ceil(tm * tn, vector_unit(desc).lanes),
        stages=max(1, c.dma_stages), in_flight=desc.dma_engines * desc.dma_queue_depth,
        latency_cycles=desc.dma_descriptor_s * clock,
        port_bytes_per_cycle=min(desc.dma_port_bytes_per_s / clock, float(port)),
        dram_bytes_per_cycle=desc.dram_bytes_per_s / clock, useful_macs=shape.macs,
        mac_slots_per_cycle=desc.mac_m * desc.mac_n * depth, consumer_bytes=consumer,
        tile_transfers=(q,), output_in_place=True,
    )


def attention_roofline_seconds(desc: TargetDescription, shape: GemmShape) -> float:
    """No schedule beats this: Q K^T and P V at the part's peak, or Q, K, V and O over DRAM once."""
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    macs_per_s = desc.cores * desc.mac_m * desc.mac_n * desc.mac_k_for(compute_type) * desc.clock_hz
    b, m, keys, head, n = shape.batch, shape.m, shape.k, shape.head_dim, shape.n
    moved = b * (m * head * shape.lhs_bytes + keys * (head + n) * shape.rhs_bytes + m * n * shape.out_bytes)
    macs = b * m * keys * (head + n)
    return max(macs / macs_per_s, moved / desc.dram_bytes_per_s)


# ---- functional model -------------------------------------------------------------------

def _round(x: np.ndarray, element_type: str) -> np.ndarray:
    """Values as the DSA holds them in `element_type` (kept in f32 arrays)."""
    if element_type == "bf16":
        return to_bf16(x)
    if element_type == "f16":
        return np.asarray(x, dtype=np.float16).astype(np.float32)
    return np.asarray(x, dtype=np.float32)


def run_attention(desc: TargetDescription, problem, candidate: TilingCandidate, q: np.ndarray, k: np.ndarray,
                  v: np.ndarray, scale: float) -> tuple[np.ndarray, FunctionalStats]:
    """softmax(scale Q K^T) V for Q [B, M, head], K [B, keys, head], V [B, keys, N], the DSA's way.

    Tiles (batch element, row block of `row_tiles`, value tile) go round-robin to `parallelism` cores; each core's
    scratchpad holds the buffers of `attention_buffers` (capacity enforced). Per KV block:
    K and V arrive zero-padded into the stage buffer, S = Q K^T accumulates in f32 (keys past
    the end are masked to -inf), the online softmax updates the row max m and row sum l and
    rescales the accumulator by exp(m_old - m_new), P (rounded to the compute type) times V
    accumulates in f32. The tile ends with O / l rounded to the output type.
    """
    shape = attention_shape(problem)
    b_, m_, head, keys, n_ = shape.batch, shape.m, shape.head_dim, shape.k, shape.n
    q, k, v = (np.asarray(x, dtype=np.float32) for x in (q, k, v))
    if q.shape != (b_, m_, head) or k.shape != (b_, keys, head) or v.shape != (b_, keys, n_):
        raise ValueError(f"operands {q.shape}, {k.shape}, {v.shape} do not match {b_}x{m_}x{keys}x{head}x{n_}")
    compute = desc.compute_type(shape.lhs_type, shape.rhs_type)
    tm, tn, tk = tile_rows(shape, candidate.tile_m), min(candidate.tile_n, n_), min(candidate.tile_k, keys)
    stages = max(1, candidate.dma_stages)
    tiles = [(b, i, rows, j) for b in range(b_) for i, rows in row_tiles(shape, candidate.tile_m)
             for j in range(0, n_, tn)]
    busy = max(1, min(candidate.parallelism, len(tiles)))
    stats = FunctionalStats(tiles=len(tiles))
    pads = []
    for core in range(busy):
        pad = Scratchpad(core, desc.scratchpad_bytes)
        itemsize = {"Q": shape.lhs_bytes, "K": shape.rhs_bytes, "V": shape.rhs_bytes}
        pad.alloc("Q", (tm, head), np.float32, nbytes=int(tm * head * itemsize["Q"]))
        for s in range(stages):
            pad.alloc(f"K[{s}]", (tk, head), np.float32, nbytes=int(tk * head * itemsize["K"]))
            pad.alloc(f"V[{s}]", (tk, tn), np.float32, nbytes=int(tk * tn * itemsize["V"]))
        pad.alloc("scores", (tm, tk), np.float32)
        pad.alloc("row_max", (tm,), np.float32)
        pad.alloc("row_sum", (tm,), np.float32)
        pad.alloc("accumulator", (tm, tn), np.float32, nbytes=tm * tn * desc.accumulator_bytes)
        stats.scratchpad_peak_bytes.append(pad.used)
        pads.append(pad)
    out = np.zeros((b_, m_, n_), dtype=np.float32)
    qr, kr, vr = _round(q, shape.lhs_type), _round(k, shape.rhs_type), _round(v, shape.rhs_type)
    for t, (b, i, rows, j) in enumerate(tiles):
        buf = pads[t % busy].buffers
        cols = min(tn, n_ - j)
        buf["Q"][:] = 0
        buf["Q"][:rows] = qr[b, i:i + rows]
        stats.dma_in_bytes += int(rows * head * shape.lhs_bytes)
        acc, row_max, row_sum = buf["accumulator"], buf["row_max"], buf["row_sum"]
        acc[:] = 0
        row_max[:] = -np.inf
        row_sum[:] = 0
        for step, key0 in enumerate(range(0, keys, tk)):
            kb, vb = buf[f"K[{step % stages}]"], buf[f"V[{step % stages}]"]
            n_keys = min(tk, keys - key0)
            kb[:] = 0
            vb[:] = 0
            kb[:n_keys] = kr[b, key0:key0 + n_keys]
            vb[:n_keys, :cols] = vr[b, key0:key0 + n_keys, j:j + cols]
            stats.dma_in_bytes += int(n_keys * (head + cols) * shape.rhs_bytes)
            s = buf["scores"]
            s[:] = (buf["Q"] @ kb.T) * np.float32(scale)
            s[:, n_keys:] = -np.inf  # padded keys take no weight
            new_max = np.maximum(row_max, s.max(axis=1))
            alpha = np.exp(row_max - new_max)
            p = np.exp(s - new_max[:, None])
            row_sum[:] = alpha * row_sum + p.sum(axis=1)
            acc[:] = alpha[:, None] * acc + _round(p, compute) @ vb
            row_max[:] = new_max
            stats.mac_steps += 1
        result = _round(acc / row_sum[:, None], shape.out_type)
        out[b, i:i + rows, j:j + cols] = result[:rows, :cols]
        stats.dma_out_bytes += int(rows * cols * shape.out_bytes)
    return out, stats


def reference_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> np.ndarray:
    """Plain softmax(scale Q K^T) V in float64."""
    s = np.einsum("bmd,bkd->bmk", q.astype(np.float64), k.astype(np.float64)) * scale
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("bmk,bkn->bmn", p, v.astype(np.float64))
