"""Why the analytic funnel pruned a candidate: one named reason per rule.

Each reason belongs to one funnel stage (legal -> roofline -> capacity ->
latency). The funnel stores a reason's `code` per candidate in a numpy array,
so the enum's order is part of that encoding: append new reasons at the end.

A target names the stages in its own words: the third is about the scratchpad
and its DMA on a DSA, about the caches on a CPU (`stage_names`). A reason keeps
the DSA's (canonical) stage name; reasons a CPU can meet also carry the text a
CPU user reads (`Reason.text_for`).
"""

from __future__ import annotations

from enum import Enum

# The canonical stage names (a DSA's words); reasons and stored codes refer to these.
FUNNEL_STAGES = ("legal", "roofline", "scratchpad", "latency")
# A CPU's third stage is its caches: it has no scratchpad and no DMA.
CPU_FUNNEL_STAGES = ("legal", "roofline", "cache", "latency")


def stage_names(cpu: bool) -> tuple[str, ...]:
    """The funnel's stage names as a target of this kind prints them (same order as FUNNEL_STAGES)."""
    return CPU_FUNNEL_STAGES if cpu else FUNNEL_STAGES


def stage_name(stage: str, cpu: bool) -> str:
    """A canonical stage name in the words of a CPU (`cpu`) or a DSA; "" stays ""."""
    return stage_names(cpu)[FUNNEL_STAGES.index(stage)] if stage in FUNNEL_STAGES else stage


class Reason(Enum):
    # (canonical stage, text, the text on a CPU when the DSA's text speaks of what a CPU lacks)
    SURVIVED = ("", "survived")
    NO_VECTOR_STEP = ("legal", "vector step exceeds llvm-cpu's vector-size limit even at k=1")
    VECTOR_WIDER_THAN_TILE = ("legal", "vector step wider than the per-core N tile")
    K_TILE_NOT_QUANT_MULTIPLE = ("legal", "K tile not a multiple of the INT4 quant block")
    COMPUTE_UNDERUSED = ("roofline", "compute: MAC lanes / cores under-used",
                         "compute: vector lanes / FMA ports / cores under-used")
    TOO_FEW_DMA_PORTS = ("roofline", "memory: too few cores' DMA ports to saturate DRAM",
                         "memory: too few cores to saturate DRAM")
    OPERAND_REREADS = ("roofline", "memory: operands re-read per tile (traffic above compulsory)")
    UNFUSED_ROUND_TRIP = ("roofline", "memory: unfused consumer's output round trip")
    SCRATCHPAD_OVERFLOW = ("scratchpad", "operand tiles x stage depth overflow the scratchpad",
                           "operand tiles overflow the L2 cache")
    # The next four are DSA rules (DMA steps, buffers, descriptors); the CPU funnel never applies
    # them, and their CPU texts only keep DMA words out of a CPU's report should that change.
    DMA_STEP_TOO_SMALL = ("scratchpad", "DMA step below the minimum useful transfer",
                          "memory step below the minimum useful transfer")
    STAGES_WASTED = ("scratchpad", "more buffers than DMA steps (stage depth wasted)",
                     "more buffers than K steps")
    IDLE_CORES = ("latency", "more cores than output tiles (idle cores)")
    DESCRIPTOR_LATENCY = ("latency", "descriptor latency: too many small DMA steps for the queue depth",
                          "latency: too many small steps")
    SINGLE_BUFFER = ("latency", "single buffer: DMA serialised with compute",
                     "single buffer: loads serialised with compute")
    SECOND_LAUNCH = ("latency", "unfused consumer: second launch")
    SLOWER_THAN_SLACK = ("latency", "slower than the best estimate by more than the slack")
    DOMINATED = ("latency", "dominated: a variant of the same tiles is as fast with fewer cores/buffers/lanes",
                 "dominated: a variant of the same tiles is as fast with fewer cores/lanes")
    VECTOR_SIZE_LIMIT = ("legal", "vector tile reaches llvm-cpu's vector-size limit (m x n x k elements)")
    VECTOR_M_BEYOND_TILE = ("legal", "vector M step larger than the per-core M tile")

    def __init__(self, stage: str, text: str, cpu_text: str | None = None):
        self.stage = stage
        self.text = text
        self.cpu_text = cpu_text or text

    def text_for(self, cpu: bool) -> str:
        """The text a user of a CPU (`cpu`) or a DSA target reads."""
        return self.cpu_text if cpu else self.text

    def stage_for(self, cpu: bool) -> str:
        """The stage's name in the target's words ("" for SURVIVED)."""
        return stage_name(self.stage, cpu)

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
