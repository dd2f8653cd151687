"""The one vocabulary of outcomes: a measurement, a proposal, a verify verdict.

A `StrEnum`, so a status is also its plain string in JSON, in the database and
in comparisons (`Status.OK == "ok"`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    # What measuring a candidate gave.
    OK = "ok"
    COMPILE_ERROR = "compile-error"
    RUN_ERROR = "run-error"
    TIMEOUT = "timeout"
    WRONG_NUMERICS = "wrong-numerics"
    # What verifying a spec entry gave.
    APPLIED = "applied"
    NOT_APPLIED = "not-applied"
    FAILED = "failed"
    # What the L2 gate did with a proposal.
    ILLEGAL = "illegal"  # failed legality; never measured
    DUPLICATE = "duplicate"  # already measured
    OVER_BUDGET = "over-budget"  # legal, but the budget was spent
    MEASURED = "measured"  # measured; not (or not yet) a winner
    VERIFIED = "verified"  # applied + numerics passed: may win


# The statuses a runner may give a measurement.
MEASUREMENT_STATUSES = (Status.OK, Status.COMPILE_ERROR, Status.RUN_ERROR, Status.TIMEOUT, Status.WRONG_NUMERICS)


@dataclass
class NumericsVerdict:
    """Gate (c) for a config about to win: applied by IREE and numerically right, or why not."""

    status: Status  # VERIFIED | WRONG_NUMERICS | NOT_APPLIED
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status == Status.VERIFIED
