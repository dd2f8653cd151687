"""What one measurement of one candidate is: the unit runners return and the DB stores.

Kept free of IREE imports so the database and the replay runner load fast.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

OK = "ok"
COMPILE_ERROR = "compile-error"
RUN_ERROR = "run-error"
TIMEOUT = "timeout"
WRONG_NUMERICS = "wrong-numerics"
STATUSES = (OK, COMPILE_ERROR, RUN_ERROR, TIMEOUT, WRONG_NUMERICS)


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
        if self.status not in STATUSES:
            raise ValueError(f"unknown measurement status {self.status!r}; expected one of {', '.join(STATUSES)}")

    @property
    def ok(self) -> bool:
        return self.status == OK

    @staticmethod
    def failure(status: str, reason: str, *, runner: str = "") -> "Measurement":
        return Measurement(status=status, reason=reason.strip().splitlines()[0] if reason.strip() else status,
                           runner=runner)

    def to_json(self) -> dict:
        return asdict(self)


def drift(start: Measurement | None, end: Measurement | None, threshold: float = 0.10) -> tuple[float | None, bool]:
    """Relative change of the default's median between the start and end of a run.

    A box whose speed changed during tuning (thermal, a neighbour) makes every
    comparison with the start-of-run default suspect; IREE's own GPU tuner
    flags that the same way.
    """
    if start is None or end is None or not start.ok or not end.ok or not start.median_us:
        return None, False
    change = (end.median_us - start.median_us) / start.median_us
    return change, abs(change) > threshold
