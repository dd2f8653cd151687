"""Analytic time estimate of many candidates at once (the funnel's yardstick).

Seconds per candidate from four terms, all vectorised:
- compute: rounds x K steps x MAC-array cycles per step / clock, where a
  round is one output tile on each busy core (imbalance shows as a last,
  partly empty round);
- memory: DRAM traffic (re-reads included) / effective bandwidth, the
  smaller of DRAM bandwidth and the busy cores' DMA ports;
- descriptor latency: steps x descriptors x latency / descriptors in flight
  (queue depth x engines, limited by the buffers the stage depth provides),
  added to the busiest core's DMA time;
- launches: one, plus one for an unfused consumer.
DRAM pays per contiguous run, not only per byte (bursts, page opens): each run a
DMA step reads costs `[l0] dma_run_overhead_bytes` more when the description sets
it (bench/cost_model_fidelity.py --fit fits it to the DSA simulator; dsa-e1 ships
128, docs/PERFORMANCE.md section 3). The roofline term leaves it out: the roofline
stage compares bytes that must move, the full estimate how the DRAM charges them.
Single buffering serialises DMA with compute; two stages overlap loads with
compute; three also overlap the output drains. A weight-streaming candidate
(k_split >= 1) loads its resident activations once per core, streams only weights
per step (row bands: 1/bands of each slice, the rest gathered over the NoC), and ends
each tile with its K split's partial-sum exchange over the NoC
(through the core's port: a port term bounds it with the loads and drains) and the
vector-unit adds, counted with the drains. It mirrors the DSA timing
model's equations without its per-round detail, so ranking agrees with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.shape import GemmShape
from ..description import TargetDescription
from .geometry import TileGeometry, ceil_div


@dataclass
class Estimate:
    compute_s: np.ndarray
    memory_s: np.ndarray
    latency_s: np.ndarray
    launch_s: np.ndarray
    roofline_s: np.ndarray  # max(compute, memory): what the roofline stage compares
    total_s: np.ndarray
    busy_cores: np.ndarray
    bandwidth: np.ndarray


def _runs_per_step(shape: GemmShape, geo: TileGeometry) -> np.ndarray:
    """Contiguous runs one K step reads: a row per line of each slice, one when the
    slice spans whole lines of its operand."""
    k_in, m_in, n_in = shape.inner("k"), shape.inner("m"), shape.inner("n")
    lhs = np.where(geo.tk < k_in, geo.tm, 1) if shape.lhs_inner_role == "k" else np.where(geo.tm < m_in, geo.tk, 1)
    rhs = np.where(geo.tn < n_in, geo.tk, 1) if shape.rhs_inner_role == "n" else np.where(geo.tk < k_in, geo.tn, 1)
    if geo.k_split is not None:  # weight streaming: no A per step, its weights packed in one run
        lhs, rhs = np.where(geo.k_split > 0, 0, lhs), np.where(geo.k_split > 0, 1, rhs)
    return lhs + rhs


def _streaming_runs(shape: GemmShape, geo: TileGeometry) -> np.ndarray:
    """Runs a weight-streaming candidate reads besides its packed weight slices (one run per
    step, as `_runs_per_step` counts them): the activations, a row per line per slice, once
    (the teams gather them over the NoC), and the drains, a row per line of C."""
    k_in, n_in = shape.inner("k"), shape.inner("n")
    # Each share of the activations is read once from DRAM when the teams gather them, once per
    # team otherwise.
    copies = np.where(geo.gather_bytes > 0, np.maximum(geo.k_split, 1) * geo.bands, geo.busy_cores)
    resident = copies * geo.k_steps * np.where(geo.tk < k_in, geo.tm, 1)
    rows = np.maximum(geo.out_tile_bytes // np.maximum(geo.tn * shape.out_bytes, 1), 1)  # a narrow share: 1 row
    drains = geo.tiles * np.where((geo.tn < n_in) | (geo.k_split > 1), rows, 1)
    return np.where(geo.k_split > 0, resident + drains, 0)


def estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray],
             geo: TileGeometry) -> Estimate:
    busy = geo.busy_cores if geo.busy_cores is not None else np.minimum(cols["parallelism"], geo.tiles)
    rounds = ceil_div(geo.tiles, busy)
    steps = rounds * geo.k_steps
    compute_s = steps * geo.compute_cycles_per_step / desc.clock_hz
    bandwidth = np.minimum(desc.dram_bytes_per_s, busy * desc.dma_port_bytes_per_s)
    run_overhead = float(desc.extras.get("l0", {}).get("dma_run_overhead_bytes", 0.0))
    step_bytes, traffic = geo.step_bytes, geo.traffic_bytes
    # The roofline stage compares bytes that must move (re-reads included), not how the
    # DRAM is charged for them: run overheads are a DMA cost, judged by the full estimate.
    roofline_s = np.maximum(compute_s, traffic / bandwidth)
    if run_overhead:
        runs = _runs_per_step(shape, geo) * run_overhead
        step_bytes = step_bytes + runs
        traffic = traffic + runs * geo.tiles * geo.k_steps
        if geo.k_split is not None and np.any(geo.k_split > 0):
            # per wave above (tiles, steps, drains); a wave count of 1 outside weight streaming
            waves = geo.waves if geo.waves is not None else 1
            traffic = traffic + (runs * geo.tiles * geo.k_steps + _streaming_runs(shape, geo) * run_overhead) \
                * (waves - 1) + _streaming_runs(shape, geo) * run_overhead
    memory_s = traffic / bandwidth
    per_core_bw = bandwidth / busy
    stages = cols["dma_stages"]
    in_flight = np.minimum(desc.dma_queue_depth * desc.dma_engines, geo.descriptors_per_step * stages)
    latency_s = steps * geo.descriptors_per_step * desc.dma_descriptor_s / in_flight
    # The busiest core's DMA: its loads (padded tiles, re-reads included), the
    # descriptor latency that is not hidden by the queue, its output drains.
    loads_s = steps * step_bytes / per_core_bw + latency_s
    drains_s = rounds * (geo.out_tile_bytes / per_core_bw + desc.dma_descriptor_s)
    unfused_s = geo.unfused_extra_bytes / desc.dram_bytes_per_s
    launches = 1 + (geo.unfused_extra_bytes > 0)
    launch_s = launches * desc.launch_s
    first_step_s = step_bytes / per_core_bw + desc.dma_descriptor_s
    serial = compute_s + loads_s + drains_s
    # Two buffers hide loads behind compute but not the drains; three hide both.
    double = np.maximum(compute_s, loads_s) + first_step_s + drains_s
    triple = np.maximum(compute_s, loads_s + drains_s) + first_step_s
    pipelined = np.where(stages == 1, serial, np.where(stages == 2, double, triple))
    # A split dequantisation's own traffic (docs/INT4.md): the same for every candidate.
    external_s = shape.external_bytes / desc.dram_bytes_per_s
    total = np.maximum(pipelined, memory_s) + unfused_s + launch_s + external_s
    if geo.k_split is not None and np.any(geo.k_split > 0):
        # Weight streaming: the resident activations load once; a tile's end (partials over the
        # NoC, their adds, the drain) runs beside the next tile's loads and MACs, one tile's end
        # at a time. Whatever bounds the steady state (MACs and loads, tile ends, DRAM, the port
        # that carries loads, exchanges and drains), the last step's MACs and tile end are exposed.
        stream = geo.k_split > 0
        # Waves: the terms below are one wave's (memory_s, from all the traffic, is shared out).
        waves = geo.waves if geo.waves is not None else np.ones_like(geo.k_split)
        wave_memory_s = memory_s / waves
        gathered = geo.gather_bytes + steps * geo.weight_gather_step_bytes  # over the NoC, port only
        ws_loads = loads_s + geo.resident_bytes / per_core_bw + gathered / desc.dma_port_bytes_per_s
        exchange_s = np.where(geo.exchange_bytes > 0, geo.exchange_bytes / desc.dma_port_bytes_per_s
                              + desc.dma_descriptor_s, 0.0) + geo.reduce_cycles / desc.clock_hz
        drain_s = geo.out_tile_bytes / per_core_bw + desc.dma_descriptor_s
        ends = rounds * np.maximum(exchange_s, drain_s)
        first = first_step_s + geo.resident_bytes / np.maximum(geo.k_steps, 1) / per_core_bw
        # Serial (one buffer) includes the first load; overlapped, the MACs wait for it.
        body = np.where(stages == 1, compute_s + ws_loads, np.maximum(compute_s, ws_loads) + first)
        port_bytes = (steps * step_bytes + geo.resident_bytes + gathered
                      + rounds * (geo.out_tile_bytes + geo.exchange_bytes))
        port_s = port_bytes / desc.dma_port_bytes_per_s
        last = geo.compute_cycles_per_step / desc.clock_hz + exchange_s + drain_s
        streams = np.maximum(wave_memory_s, port_s) + desc.dma_descriptor_s
        steady = np.maximum(np.maximum(body, ends), streams)
        total = np.where(stream, waves * (steady + last) + unfused_s + launch_s + external_s, total)
        compute_s = np.where(stream, compute_s * waves, compute_s)
        roofline_s = np.where(stream, np.maximum(compute_s, geo.traffic_bytes / bandwidth), roofline_s)
    return Estimate(compute_s, memory_s, latency_s, launch_s, roofline_s, total, busy, bandwidth)
