"""Why the analytic funnel pruned a candidate: one named reason per rule.

Each reason belongs to one funnel stage (legal -> roofline -> scratchpad ->
latency). The funnel stores a reason's `code` per candidate in a numpy array,
so the enum's order is part of that encoding: append new reasons at the end.
"""

from __future__ import annotations

from enum import Enum

FUNNEL_STAGES = ("legal", "roofline", "scratchpad", "latency")


class Reason(Enum):
    SURVIVED = ("", "survived")
    NO_VECTOR_STEP = ("legal", "vector step exceeds llvm-cpu's vector-size limit even at k=1")
    VECTOR_WIDER_THAN_TILE = ("legal", "vector step wider than the per-core N tile")
    K_TILE_NOT_QUANT_MULTIPLE = ("legal", "K tile not a multiple of the INT4 quant block")
    COMPUTE_UNDERUSED = ("roofline", "compute: MAC lanes / cores under-used")
    TOO_FEW_DMA_PORTS = ("roofline", "memory: too few cores' DMA ports to saturate DRAM")
    OPERAND_REREADS = ("roofline", "memory: operands re-read per tile (traffic above compulsory)")
    UNFUSED_ROUND_TRIP = ("roofline", "memory: unfused consumer's output round trip")
    SCRATCHPAD_OVERFLOW = ("scratchpad", "operand tiles x stage depth overflow the scratchpad")
    DMA_STEP_TOO_SMALL = ("scratchpad", "DMA step below the minimum useful transfer")
    STAGES_WASTED = ("scratchpad", "more buffers than DMA steps (stage depth wasted)")
    IDLE_CORES = ("latency", "more cores than output tiles (idle cores)")
    DESCRIPTOR_LATENCY = ("latency", "descriptor latency: too many small DMA steps for the queue depth")
    SINGLE_BUFFER = ("latency", "single buffer: DMA serialised with compute")
    SECOND_LAUNCH = ("latency", "unfused consumer: second launch")
    SLOWER_THAN_SLACK = ("latency", "slower than the best estimate by more than the slack")
    DOMINATED = ("latency", "dominated: a variant of the same tiles is as fast with fewer cores/buffers/lanes")
    VECTOR_SIZE_LIMIT = ("legal", "vector tile reaches llvm-cpu's vector-size limit (m x n x k elements)")
    VECTOR_M_BEYOND_TILE = ("legal", "vector M step larger than the per-core M tile")

    def __init__(self, stage: str, text: str):
        self.stage = stage
        self.text = text

    @property
    def code(self) -> int:
        """Position in the enum: the value the funnel stores per candidate (0 = survived)."""
        return _CODES[self]

    @staticmethod
    def of_code(code: int) -> "Reason":
        return _BY_CODE[code]


_BY_CODE = tuple(Reason)
_CODES = {reason: i for i, reason in enumerate(_BY_CODE)}
LEGALITY_CODES = tuple(r.code for r in Reason if r.stage == "legal")
