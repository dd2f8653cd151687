"""Dispatches with no tunable root op on the DSA: elementwise, reductions, softmax, copies.

Nothing is searched for them, but they run on every call and stream their operands through
DRAM, so a chunk that leaves them out is too short. The schedule is the one a vector
dispatch has on this part: its elements split evenly over every core, each core's share
streamed in by its DMA queues while the vector unit (`[vector_unit]`) works on what has
landed, and the results streamed back out. Time per call:

    launch + one descriptor latency + max(DRAM time, port time, vector time)

- DRAM time: every tensor loaded or stored, as contiguous runs in whole bursts plus a page
  activation per page (`workload.dram_cost`), over the DRAM bandwidth;
- port time: the same bytes through the cores' DMA ports (the narrower of port and DRAM wins);
- vector time: the element operations over lanes x cores x clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from iree_dsa_tuner.core.problems import DispatchTraffic
from iree_dsa_tuner.description import TargetDescription

from .attention import vector_unit
from .workload import dram_cost, simulator_params


@dataclass(frozen=True)
class StreamingEstimate:
    seconds: float
    launch_s: float
    dram_s: float
    port_s: float
    vector_s: float

    @property
    def bound(self) -> str:
        """What limits the dispatch: dram, port or vector."""
        return max((("dram", self.dram_s), ("port", self.port_s), ("vector", self.vector_s)), key=lambda kv: kv[1])[0]

    def to_json(self) -> dict:
        return {"us": self.seconds * 1e6, "launch_us": self.launch_s * 1e6, "dram_us": self.dram_s * 1e6,
                "port_us": self.port_s * 1e6, "vector_us": self.vector_s * 1e6, "bound": self.bound}


def estimate_streaming(desc: TargetDescription, traffic: DispatchTraffic) -> StreamingEstimate:
    params = simulator_params(desc)
    moved = [n for _, n in traffic.reads] + [n for _, n in traffic.writes]
    dram_bytes = sum(dram_cost(1, n, params) for n in moved if n > 0)
    dram_s = dram_bytes / desc.dram_bytes_per_s
    port_s = sum(moved) / (desc.dma_port_bytes_per_s * desc.cores)
    lanes = vector_unit(desc).lanes
    vector_s = math.ceil(traffic.vector_ops / (lanes * desc.cores)) / desc.clock_hz
    latency = desc.dma_descriptor_s if moved else 0.0
    seconds = desc.launch_s + latency + max(dram_s, port_s, vector_s)
    return StreamingEstimate(seconds, desc.launch_s, dram_s, port_s, vector_s)


__all__ = ["StreamingEstimate", "estimate_streaming"]
