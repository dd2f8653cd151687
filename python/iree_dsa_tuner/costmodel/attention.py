"""Attention on a scratchpad accelerator (the DSA): tile geometry and the L0 estimate.

Flash-attention schedule, per core tile = one batch element x a block of query rows
(`tile_m`: a query tile within one head, or whole heads of a group that shares K and V,
which IREE's attention detail makes m loops) x a value tile (`tile_n`), the keys streamed
in KV blocks (`tile_k`):
- the Q tile is loaded once per tile (one buffer: the next tile's Q waits for this tile's
  last step); K [block, head] and V [block, value tile] once per step, in `dma_stages`
  buffers; the accumulator (f32) is normalised and drained in place at the tile's end;
- per step the MAC array computes Q K^T (head-deep, block-wide) and P V (block-deep), and
  the vector unit the online softmax: `softmax_ops_per_score` operations per score plus one
  rescale per accumulator element, at `lanes` operations per cycle (the description's
  `[vector_unit]`, defaults: the MAC array's n lanes, 5 operations);
- traffic: K once per (query tile, value tile), V once per row block, Q once per value
  tile, O once: a row block smaller than the m group re-reads K and V.

Scratchpad per core: Q tile + stages x (K block + V block) + f32 scores (tile x block) +
row max and row sum + the f32 accumulator (tested equal to the DSA plugin's allocation).
The host's attention candidates carry the head width in `tile_k` and are costed by cpu.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.shape import GemmShape
from ..description import TargetDescription
from .estimate import Estimate
from .geometry import TileGeometry, ceil_div

SCORE_BYTES = 4  # scores, probabilities and row statistics are f32


@dataclass
class AttentionGeometry(TileGeometry):
    q_tile_bytes: np.ndarray = None  # loaded once per tile
    mac_cycles_per_step: np.ndarray = None  # Q K^T + P V issues
    vector_cycles_per_step: np.ndarray = None  # online softmax + rescale
    normalise_cycles: np.ndarray = None  # O / row sum at the tile's end


def vector_rate(desc: TargetDescription) -> tuple[int, int]:
    """(lanes per cycle, softmax operations per score) of the description's vector unit."""
    table = desc.extras.get("vector_unit", {}) or {}
    return int(table.get("lanes", desc.mac_n)), int(table.get("softmax_ops_per_score", 5))


def attention_geometry(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray]) -> AttentionGeometry:
    n_in, k_in, head = shape.inner("n"), shape.inner("k"), max(shape.head_dim, 1)
    # Row blocks over the m group (heads sharing K and V are m loops): a query tile within
    # one head, or whole heads, each block reading K and V once.
    sizes = shape.group_sizes("m") or (1,)
    steps = shape.split_tile("m", np.minimum(cols["tile_m"], shape.m))
    tm = np.prod(np.stack([np.broadcast_to(t, cols["tile_m"].shape) for t in steps]), axis=0)
    tiles_m = np.prod(np.stack([ceil_div(size, np.broadcast_to(t, cols["tile_m"].shape))
                                for size, t in zip(sizes, steps)]), axis=0)
    tn = np.minimum(cols["tile_n"], n_in)
    tk = np.minimum(cols["tile_k"], k_in)
    tiles_n = shape.outer("n") * ceil_div(n_in, tn)
    tiles = shape.batch * tiles_m * tiles_n
    k_steps = shape.outer("k") * ceil_div(k_in, tk)
    qb, kvb, ob = shape.lhs_bytes, shape.rhs_bytes, shape.out_bytes
    k_step = tk * head * kvb
    v_step = tk * tn * kvb
    q_tile = tm * head * qb
    out_tile = tm * tn * ob
    stages = np.maximum(cols["dma_stages"], 1)
    footprint = (q_tile + stages * (k_step + v_step) + tm * tk * SCORE_BYTES + 2 * tm * SCORE_BYTES
                 + tm * tn * desc.accumulator_bytes)

    depth = desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type))
    vec_n = np.maximum(cols["vec_n"], 1)
    rows = ceil_div(tm, desc.mac_m)
    passes = ceil_div(vec_n, desc.mac_n)
    mac = rows * passes * (ceil_div(tk, vec_n) * ceil_div(head, depth) + ceil_div(tn, vec_n) * ceil_div(tk, depth))
    lanes, ops = vector_rate(desc)
    vector = ceil_div(tm * tk * ops + tm * tn, lanes)
    normalise = ceil_div(tm * tn, lanes)

    b, m, keys, n = shape.batch, shape.m, shape.k, shape.n
    q_total, k_total, v_total = b * m * head * qb, b * keys * head * kvb, b * keys * n * kvb
    o_total = b * m * n * ob
    per_batch_m = tiles_m  # row blocks of one batch element
    per_batch_n = tiles_n
    traffic = q_total * per_batch_n + k_total * per_batch_m * per_batch_n + v_total * per_batch_m + o_total
    unfused = np.where((cols["fusion"] == 0) & shape.has_consumer, 2.0 * o_total, 0.0)
    return AttentionGeometry(
        tm=tm, tn=tn, tk=tk, tiles_m=tiles_m, tiles_n=tiles_n, tiles=tiles, k_steps=k_steps,
        lhs_step_bytes=k_step, rhs_step_bytes=v_step, out_tile_bytes=out_tile,
        descriptors_per_step=np.full_like(tm, 2), footprint_bytes=footprint,
        compute_cycles_per_step=mac + vector, traffic_bytes=traffic + unfused, unfused_extra_bytes=unfused,
        step_macs=tm * tk * (head + tn), q_tile_bytes=q_tile, mac_cycles_per_step=mac,
        vector_cycles_per_step=vector, normalise_cycles=normalise,
    )


def attention_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray],
                       geo: TileGeometry | None = None) -> Estimate:
    """Seconds per candidate of the flash schedule above (numpy over candidate columns).

    - compute: rounds x (steps x (MAC + vector cycles) + normalisation) / clock, a round
      being one tile on each busy core;
    - memory: traffic (re-reads included) / min(DRAM, busy cores x port);
    - descriptor latency: 2 descriptors per step over what the queues and buffers keep in
      flight, one more per tile for Q;
    - overlap: one stage serialises loads and compute; two or three hide the K/V loads of
      later steps behind compute; each tile's Q load and its drain are exposed (one Q
      buffer, the accumulator drained in place); plus the launch and an unfused consumer.
    """
    if not isinstance(geo, AttentionGeometry):
        geo = attention_geometry(shape, desc, cols)
    busy = np.minimum(cols["parallelism"], geo.tiles)
    rounds = ceil_div(geo.tiles, busy)
    steps = rounds * geo.k_steps
    compute_s = (steps * geo.compute_cycles_per_step + rounds * geo.normalise_cycles) / desc.clock_hz
    bandwidth = np.minimum(desc.dram_bytes_per_s, busy * desc.dma_port_bytes_per_s)
    memory_s = geo.traffic_bytes / bandwidth
    roofline_s = np.maximum(compute_s, memory_s)
    per_core_bw = bandwidth / busy
    stages = np.maximum(cols["dma_stages"], 1)
    in_flight = np.minimum(desc.dma_queue_depth * desc.dma_engines, geo.descriptors_per_step * stages)
    latency_s = steps * geo.descriptors_per_step * desc.dma_descriptor_s / in_flight + rounds * desc.dma_descriptor_s
    kv_s = steps * geo.step_bytes / per_core_bw + steps * geo.descriptors_per_step * desc.dma_descriptor_s / in_flight
    q_s = rounds * (geo.q_tile_bytes / per_core_bw + desc.dma_descriptor_s)
    drains_s = rounds * (geo.out_tile_bytes / per_core_bw + desc.dma_descriptor_s)
    first_s = geo.step_bytes / per_core_bw + desc.dma_descriptor_s
    serial = compute_s + kv_s + q_s + drains_s
    overlapped = np.maximum(compute_s, kv_s) + first_s + q_s + drains_s
    pipelined = np.where(stages == 1, serial, overlapped)
    unfused_s = geo.unfused_extra_bytes / desc.dram_bytes_per_s
    launch_s = (1 + (geo.unfused_extra_bytes > 0)) * desc.launch_s
    total = np.maximum(pipelined, memory_s) + unfused_s + launch_s
    return Estimate(compute_s, memory_s, latency_s, launch_s, roofline_s, total, busy, bandwidth)
