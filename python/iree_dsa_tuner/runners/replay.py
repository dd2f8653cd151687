"""Replaying recorded measurements, so search strategies are tested without hardware.

kernel_tuner's simulation mode: a strategy runs against a table of what each
candidate measured once; the strategy cannot tell the difference, and tests
are fast and deterministic. `calls` counts measurements asked for, which is
what a budget is spent on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..core.fingerprint import DEFAULT_CANDIDATE_KEY, candidate_key, dispatch_fingerprint
from .base import Runner, as_config
from ..core.measurement import Measurement
from ..core.status import Status


class ReplayRunner(Runner):
    """Answers `measure` from recorded measurements.

    `records` are `Measurement`s (or their `to_json()` dicts) whose `candidate`
    holds the config JSON (None = default) and whose `dispatch` is a dispatch
    symbol or a dispatch fingerprint; an empty `dispatch` matches any problem.
    A candidate never recorded comes back as a run-error, as an unmeasurable
    candidate would on hardware.
    """

    name = "replay"

    def __init__(self, records: Iterable[Measurement | dict]):
        self._table: dict[tuple[str, str], Measurement] = {}
        for record in records:
            m = record if isinstance(record, Measurement) else Measurement(**record)
            self._table[(m.dispatch, candidate_key(m.candidate))] = m
        self.calls = 0
        self.measured: list[tuple[str, str]] = []

    @classmethod
    def from_database(cls, db, target_fp: str, problems) -> "ReplayRunner":
        """Replay what `db` holds for `problems` on the target `target_fp`."""
        records = []
        for problem in problems:
            dfp = dispatch_fingerprint(problem)
            records += [replace(m, dispatch=dfp) for m in db.measurements(dfp, target_fp)]
        return cls(records)

    def measure(self, problem, config) -> Measurement:
        config = as_config(config)
        key = candidate_key(config.to_json()) if config is not None else DEFAULT_CANDIDATE_KEY
        self.calls += 1
        self.measured.append((problem.dispatch, key))
        for dispatch in (problem.dispatch, dispatch_fingerprint(problem), ""):
            found = self._table.get((dispatch, key))
            if found is not None:
                return replace(found, runner=found.runner or self.name, dispatch=problem.dispatch)
        return Measurement(status=Status.RUN_ERROR, reason=f"no recorded measurement of {key} on {problem.dispatch}",
                           runner=self.name, candidate=config.to_json() if config else None,
                           dispatch=problem.dispatch)
