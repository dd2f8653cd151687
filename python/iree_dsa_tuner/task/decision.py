"""The R7.4 rule: when an op short of its elite config is accepted, and when it escalates.

Accept a >= 92%-of-elite op when it is off the critical path or the task already meets
its budget; escalate (to the L2 proposer) only when it is a bottleneck AND the task is
over budget AND it is below 95%. The task level has the final word, the operator level
checks it.
"""

from __future__ import annotations

from dataclasses import dataclass

ACCEPT_FRACTION = 0.92
ESCALATE_BELOW = 0.95
# An op with at least this share of the chunk is on the critical path (a bottleneck).
BOTTLENECK_SHARE = 0.10

ACCEPT, ESCALATE, TUNE_FURTHER = "accept", "escalate", "tune-further"


@dataclass(frozen=True)
class Decision:
    decision: str
    reason: str


def decide(share: float, fraction_of_elite: float | None, meets_budget: bool) -> Decision:
    """What to do with one op: `share` of the chunk, its tuned time as a fraction of its elite's."""
    if fraction_of_elite is None:
        return Decision(ACCEPT, "no elite reference for this op: kept as tuned")
    bottleneck = share >= BOTTLENECK_SHARE
    pct = f"{fraction_of_elite:.0%} of elite"
    if bottleneck and not meets_budget and fraction_of_elite < ESCALATE_BELOW:
        return Decision(ESCALATE, f"{pct}, a bottleneck ({share:.0%} of the chunk) and the task is over budget")
    if fraction_of_elite >= ESCALATE_BELOW:
        return Decision(ACCEPT, f"{pct} (>= {ESCALATE_BELOW:.0%})")
    if meets_budget and fraction_of_elite >= ACCEPT_FRACTION:
        return Decision(ACCEPT, f"{pct}: below {ESCALATE_BELOW:.0%} but the task meets its budget")
    if not bottleneck and fraction_of_elite >= ACCEPT_FRACTION:
        return Decision(ACCEPT, f"{pct}: below {ESCALATE_BELOW:.0%} but off the critical path "
                                f"({share:.0%} of the chunk)")
    return Decision(TUNE_FURTHER if not meets_budget else ACCEPT,
                    f"{pct}: below {ACCEPT_FRACTION:.0%}" + (" and the task is over budget; worth more tuning"
                                                             if not meets_budget else ", but the task meets its budget"))
