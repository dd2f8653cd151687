"""Cycle-approximate timing model of the DSA (the ISS's timing half).

Vectorised over candidates (numpy columns), with a scalar wrapper. The
schedule is output-stationary: output tiles go round-robin to the busy cores;
each tile streams its K slices through the scratchpad by DMA, the MAC array
consumes them, and the finished tile is written back.

Per core, with a = cores active in a round (every core but the busiest's
last round is full; the last round holds the remainder, so the imbalance is
visible):
  bw(a)  = min(DMA port, DRAM / a)                         bytes/cycle per core
  D(a)   = step bytes / bw(a) + latency x descriptors / in-flight
           in-flight = min(queue depth x engines, descriptors x stages)
  O(a)   = output tile bytes / bw(a) + latency             (one descriptor)
  C      = ceil(tm/array_m) ceil(tn/vec_n) ceil(vec_n/array_n) ceil(tk/array_k)
With S steps on the busiest core (k steps per tile x tiles on that core):
  stages 1: sum over steps (D + C) + sum over tiles O                 (serial)
  stages 2: D_first + sum_{other steps} max(D, C) + C + sum over tiles O
            (loads overlap compute; the output drain is exposed)
  stages 3: D_first + sum_{other steps} max(D + O/k, C) + C + O_last/k
            (the third buffer lets the drain overlap the next loads)
  + an unfused consumer: its round trip at full DRAM bandwidth, and a launch
  + launch overhead.
Edge tiles are charged as full tiles (the DMA zero-pads them and the array
computes the padding), so the model never undercuts the roofline bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from iree_dsa_tuner.costmodel.geometry import ceil_div, tile_geometry
from iree_dsa_tuner.costmodel.roofline import roofline
from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import GemmShape, gemm_shape
from iree_dsa_tuner.space.space import candidates_to_columns
from iree_dsa_tuner.description import TargetDescription


@dataclass(frozen=True)
class TimingResult:
    """Cycles of one candidate and where they went (busiest core's view)."""

    cycles: float
    seconds: float
    compute_cycles: float  # MAC-array busy cycles
    dma_cycles: float  # DMA busy cycles (loads, drains, descriptor latency)
    exposed_stall_cycles: float  # cycles the MAC array waited for data
    launch_cycles: float
    unfused_consumer_cycles: float
    mac_utilisation: float  # useful MACs / MAC slots while computing
    efficiency: float  # achieved ops/s over the target's peak
    imbalance: float  # busiest core's tiles x busy cores / tiles
    roofline_bound_cycles: float

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def lines(self) -> list[str]:
        us = 1e6 / (self.cycles / self.seconds) if self.seconds else 0.0
        return [
            f"cycles            {self.cycles:,.0f}  ({self.seconds * 1e6:.3f} us)",
            f"  compute         {self.compute_cycles:,.0f}",
            f"  dma             {self.dma_cycles:,.0f}",
            f"  exposed stall   {self.exposed_stall_cycles:,.0f}",
            f"  launch          {self.launch_cycles:,.0f}",
            f"  unfused consumer {self.unfused_consumer_cycles:,.0f}",
            f"mac utilisation   {100 * self.mac_utilisation:.1f}% (of the busy cycles)",
            f"efficiency        {100 * self.efficiency:.2f}% of peak",
            f"core imbalance    {self.imbalance:.2f}",
            f"roofline bound    {self.roofline_bound_cycles:,.0f} cycles "
            f"({self.roofline_bound_cycles * us:.3f} us); simulated / bound = "
            f"{self.cycles / max(self.roofline_bound_cycles, 1e-9):.2f}",
        ]


def simulate_columns(desc: TargetDescription, shape: GemmShape, cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Timing of every candidate in `cols`; returns arrays named like TimingResult's fields."""
    geo = tile_geometry(shape, desc, cols)
    clock = desc.clock_hz
    stages = cols["dma_stages"]
    busy = np.minimum(cols["parallelism"], geo.tiles)
    rounds = ceil_div(geo.tiles, busy)
    last_active = geo.tiles - (rounds - 1) * busy
    k = geo.k_steps

    latency = desc.dma_descriptor_s * clock
    in_flight = np.minimum(desc.dma_queue_depth * desc.dma_engines, geo.descriptors_per_step * stages)

    def per_core_bandwidth(active):
        return np.minimum(desc.dma_port_bytes_per_s, desc.dram_bytes_per_s / active) / clock

    bw_full, bw_last = per_core_bandwidth(busy), per_core_bandwidth(last_active)
    step_latency = latency * geo.descriptors_per_step / in_flight
    d_full = geo.step_bytes / bw_full + step_latency
    d_last = geo.step_bytes / bw_last + step_latency
    o_full = geo.out_tile_bytes / bw_full + latency
    o_last = geo.out_tile_bytes / bw_last + latency
    c = geo.compute_cycles_per_step.astype(np.float64)

    several = rounds > 1
    full_steps = (rounds - 1) * k
    d_first = np.where(several, d_full, d_last)
    full_rest = np.where(several, full_steps - 1, 0)
    last_rest = np.where(several, k, k - 1)
    outputs = (rounds - 1) * o_full + o_last

    serial = full_steps * (d_full + c) + k * (d_last + c) + outputs
    double = d_first + full_rest * np.maximum(d_full, c) + last_rest * np.maximum(d_last, c) + c + outputs
    triple = (d_first + full_rest * np.maximum(d_full + o_full / k, c)
              + last_rest * np.maximum(d_last + o_last / k, c) + c + o_last / k)
    pipeline = np.where(stages == 1, serial, np.where(stages == 2, double, triple))

    steps = rounds * k
    compute_cycles = steps * c
    dma_cycles = full_steps * d_full + k * d_last + outputs
    unfused = geo.unfused_extra_bytes / (desc.dram_bytes_per_s / clock)
    launches = 1 + (geo.unfused_extra_bytes > 0)
    launch_cycles = launches * desc.launch_s * clock
    cycles = pipeline + unfused + launch_cycles

    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    slots_per_cycle = desc.mac_m * desc.mac_n * desc.mac_k_for(compute_type)
    useful = shape.macs
    mac_util = useful / np.maximum(compute_cycles * busy * slots_per_cycle, 1)
    rl = roofline(shape, desc)
    bound_cycles = rl.bound_seconds * clock
    return {
        "cycles": cycles,
        "seconds": cycles / clock,
        "compute_cycles": compute_cycles,
        "dma_cycles": dma_cycles,
        "exposed_stall_cycles": pipeline - compute_cycles,
        "launch_cycles": launch_cycles,
        "unfused_consumer_cycles": unfused,
        "mac_utilisation": np.minimum(mac_util, 1.0),
        "efficiency": shape.ops / (cycles / clock) / rl.peak_ops_per_s,
        "imbalance": rounds * busy / geo.tiles,
        "roofline_bound_cycles": np.full(len(cycles), bound_cycles),
    }


def simulate(desc: TargetDescription, problem, candidate: TilingCandidate) -> TimingResult:
    shape = gemm_shape(problem)
    out = simulate_columns(desc, shape, candidates_to_columns([candidate]))
    return TimingResult(**{k: float(v[0]) for k, v in out.items()})
