"""What every search strategy is handed: candidates, estimates, a budgeted measure.

Strategies never see how a candidate is measured (simulator, host CPU, a
replayed database) nor how the spec is written; they see `SearchContext`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..core.candidate import KNOBS, TilingCandidate
from ..core.config import CompilationConfig
from ..core.status import Status


@dataclass
class MeasureOutcome:
    """What measuring one candidate gave: its time (None = failed), the status, why, and the
    config that was measured (None when the candidate had no legal config)."""

    time_us: float | None
    status: Status = Status.OK
    reason: str = ""
    config: CompilationConfig | None = None


@dataclass
class Trial:
    """One measurement: the candidate, its config, its time (None = failed), its status and why."""

    candidate: TilingCandidate
    time_us: float | None
    estimate_us: float | None = None
    source: str = "search"  # "search" | "refine" | "proposer" | "default"
    reason: str = ""
    status: Status = Status.OK
    config: CompilationConfig | None = None


@dataclass
class SearchContext:
    """The search space seen through the cost model, plus a metered measurement function.

    - `legal`: every structurally legal candidate (what blind search draws from).
    - `ranked`: the cost model's survivors, best estimate first (what L0 -> L1 uses).
    - `estimate(c)`: the cost model's time for any candidate (us).
    - `measure_fn(cands)`: a `MeasureOutcome` per candidate of a batch.
    - `budget`: the most measurements this search may spend.
    """

    legal: Sequence[TilingCandidate]
    ranked: Sequence[TilingCandidate]
    estimate: Callable[[TilingCandidate], float]
    measure_fn: Callable[[list[TilingCandidate]], list[tuple[float | None, str]]]
    budget: int
    seed: int = 0
    incumbent_us: float | None = None  # what a candidate must beat: IREE's default, when measured
    trials: list[Trial] = field(default_factory=list)
    _seen: dict = field(default_factory=dict)

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.stopped = ""  # why a strategy stopped before its budget, when it did
        self._legal_set = set(self.legal)

    @property
    def remaining(self) -> int:
        return self.budget - sum(1 for t in self.trials if t.source != "default")

    def measured(self, c: TilingCandidate) -> bool:
        return c in self._seen

    def trial_of(self, c: TilingCandidate) -> Trial | None:
        return self._seen.get(c)

    def measure(self, candidates: list[TilingCandidate], source: str = "search") -> list[Trial]:
        """Measure the candidates not yet measured, within the remaining budget."""
        fresh = []
        for c in candidates:
            if c not in self._seen and c not in fresh:
                fresh.append(c)
        fresh = fresh[: max(self.remaining, 0)]
        if not fresh:
            return []
        results = self.measure_fn(fresh)
        new = []
        for c, o in zip(fresh, results):
            trial = Trial(c, o.time_us, self.estimate(c), source, o.reason, o.status, o.config)
            self._seen[c] = trial
            self.trials.append(trial)
            new.append(trial)
        return new

    def nothing_can_win(self, margin: float) -> bool:
        """True when no candidate has beaten the incumbent and the cost model, scaled to what was
        measured, says no unmeasured survivor will beat it by `margin` either.

        The scale is the median measured/estimated ratio of the trials so far (at least 3), so a
        model that is uniformly optimistic or pessimistic still ranks the rest; the rule only
        stops searches that have not found a win, never one that is improving on it.
        """
        if self.incumbent_us is None:
            return False
        timed = [(t.time_us, t.estimate_us) for t in self.trials if t.time_us and t.estimate_us]
        if len(timed) < 3 or any(t < self.incumbent_us * (1 - margin) for t, _ in timed):
            return False
        ratios = sorted(t / e for t, e in timed)
        scale = ratios[len(ratios) // 2]
        rest = [self.estimate(c) for c in self.ranked if not self.measured(c)]
        if not rest:  # survivors all measured: the best of what can still run (next_by_estimate)
            following = self.next_by_estimate()
            rest = [self.estimate(following)] if following is not None else []
        rest = [e for e in rest if e is not None and e != float("inf")]
        return not rest or min(rest) * scale >= self.incumbent_us * (1 - margin)

    def best(self) -> Trial | None:
        ok = [t for t in self.trials if t.time_us is not None]
        return min(ok, key=lambda t: (t.time_us, str(t.candidate))) if ok else None

    def next_by_estimate(self) -> TilingCandidate | None:
        """The unmeasured runnable candidate with the best estimate, survivor or not.

        The funnel's relative stages keep a handful of survivors on some spaces; once they
        and their neighbours are measured, a search with budget left walks on down the
        model's ranking of everything that can run instead of stopping.
        """
        if not hasattr(self, "_by_estimate"):
            self._by_estimate = sorted(self.legal, key=lambda x: (self.estimate(x), str(x)))
            self._walk = 0
        while self._walk < len(self._by_estimate) and self.measured(self._by_estimate[self._walk]):
            self._walk += 1
        return self._by_estimate[self._walk] if self._walk < len(self._by_estimate) else None

    def neighbours(self, c: TilingCandidate) -> list[TilingCandidate]:
        """Legal candidates one knob step away (x2 or /2 on one knob), nearest estimate first."""
        out = []
        base = c.to_json()
        for knob in KNOBS:
            for factor in (2.0, 0.5):
                value = base[knob] * factor
                if value < 1 or value != int(value):
                    continue
                moved = dict(base, **{knob: int(value)})
                cand = TilingCandidate.from_json(moved)
                if cand in self._legal_set and cand not in out:
                    out.append(cand)
        return sorted(out, key=lambda x: (self.estimate(x), str(x)))
