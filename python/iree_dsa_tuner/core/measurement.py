"""What one measurement of one candidate is: the unit runners return and the DB stores.

Kept free of IREE imports so the database and the replay runner load fast.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field

from .status import MEASUREMENT_STATUSES, Status

# A run whose default moved more than this between its start and end is flagged
# as noisy (IREE's GPU tuner flags drift the same way).
DRIFT_THRESHOLD = 0.10
# A tuned config must beat the default by this much to replace it (noise guard).
WIN_MARGIN = 0.01


def relative_spread(times: list[float]) -> float:
    """2 x the median absolute deviation of `times` over their median (0 for a zero median): a
    spread one run slowed by a neighbour does not widen."""
    median = statistics.median(times)
    return 2.0 * statistics.median(abs(t - median) for t in times) / median if median else 0.0


@dataclass
class Measurement:
    """One candidate timed (or failed) on one dispatch.

    Times are per dispatch execution in microseconds. A failure has no times
    and a one-line `reason` (IREE's first error line where there is one), so
    a search can record it and go on.

    The fields after `reason` are bookkeeping the database fills in; a runner
    sets `runner`, and `candidate` is the config JSON (None = IREE's default).
    """

    status: str
    median_us: float | None = None
    min_us: float | None = None
    repetitions: int = 0
    reason: str = ""
    runner: str = ""
    candidate: dict | None = None
    estimate_us: float | None = None
    dispatch: str = ""
    created_at: str = ""
    details: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in MEASUREMENT_STATUSES:
            raise ValueError(f"unknown measurement status {self.status!r}; "
                             f"expected one of {', '.join(MEASUREMENT_STATUSES)}")
        self.status = Status(self.status)

    @property
    def ok(self) -> bool:
        return self.status == Status.OK

    @property
    def noise(self) -> float:
        """The spread of this measurement's repetitions: 2 x their median absolute deviation over
        their median (robust to one repetition a neighbour slowed). 0 when the runner kept fewer
        than 3 repetition times: a deterministic simulator's."""
        times = self.details.get("times_us") or []
        return relative_spread(times) if len(times) >= 3 else 0.0

    @staticmethod
    def failure(status: str, reason: str, *, runner: str = "") -> "Measurement":
        return Measurement(status=status, reason=reason.strip().splitlines()[0] if reason.strip() else status,
                           runner=runner)

    def to_json(self) -> dict:
        return asdict(self)
