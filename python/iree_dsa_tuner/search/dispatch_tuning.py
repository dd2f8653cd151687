"""One dispatch's search between the phases of `search_problems` (`driver.py`).

Holds what the phases share for one dispatch: its cost view, search context and result,
and the measuring the strategies call through `SearchContext.measure`: candidates turned
into configs (an illegal one reported, not measured), compiled ahead in chunks when the
pipeline can compile in parallel, timed one by one while each is expected to end before
the deadline (from the seconds per candidate this dispatch has learned so far), the
calibration points of the cost model collected, and a progress event per measurement.
"""

from __future__ import annotations

import time

from ..core.candidate import TilingCandidate
from ..core.config import CompilationConfig, ConfigError
from ..core.status import Status
from .context import MeasureOutcome, SearchContext
from .cost_view import CostView
from .options import TuneOptions
from .progress import Measured, report_measured
from .proposer import Proposal
from .results import DispatchResult


class DispatchTuning:
    """One dispatch between the phases of `search_problems`: its view, search context and result.

    A class rather than closures in the loop: the L2 phase runs after every dispatch's
    L1 search, and a closure would see the last dispatch's variables, not its own.
    """

    def __init__(self, problem, target, view: CostView, result: DispatchResult, timed, calibration_points,
                 options: TuneOptions, progress):
        self.problem, self.target, self.view, self.result = problem, target, view, result
        self.timed, self.calibration_points = timed, calibration_points
        self.options, self.progress = options, progress
        self.deadline: float | None = None
        # Wall seconds one candidate costs (its compile, its timing), from what this dispatch has
        # measured; seeded with its default's measurement. A measurement is started only when it
        # is expected to end before the deadline: one started just before it overran a 300 s
        # budget by a whole UNet measurement.
        self.candidate_s: float | None = None
        self.timing_s: float | None = None
        self.prepare = None  # parallel compile hook (SearchHooks.prepare)
        self.remeasure_default = None
        self.extra_estimates: dict[TilingCandidate, float] = {}
        self.proposals_by_trial: dict[int, Proposal] = {}
        self.ctx: SearchContext | None = None
        self.l1_seconds = 0.0
        self.started = time.perf_counter()
        self.best_so_far: float | None = None  # includes IREE's default once measured
        self.calls = 1  # of the dispatch and its twins, per call of the model

    def share_us(self) -> float:
        """The dispatch's time in the model: the faster of its default and what was measured before
        the searches (`driver._measure_top_when_default_is_far`), x calls; 0 when it was not timed."""
        measured = [t.time_us for t in self.ctx.trials if t.time_us is not None] if self.ctx else []
        return min([self.result.default_us or 0.0, *measured]) * self.calls

    def estimate_us(self, c) -> float | None:
        if c in self.view.index:
            return self.view.estimate_us(c)
        return self.extra_estimates.get(c)

    def config_of(self, c) -> CompilationConfig | str:
        """The config IREE gets for candidate `c`, or why the target has none for it (the one place
        the search turns a candidate into a config; the trial keeps it)."""
        try:
            return self.target.to_config(self.problem, c)
        except (ConfigError, ValueError) as e:
            return str(e)

    def over_deadline(self, expected_s: float | None = 0.0) -> bool:
        """True when work expected to take `expected_s` seconds would end past the deadline."""
        return self.deadline is not None and time.perf_counter() + (expected_s or 0.0) > self.deadline

    def _learn(self, attr: str, seconds: float) -> None:
        """Fold one observed duration into a running estimate (the mean of the old one and it)."""
        old = getattr(self, attr)
        setattr(self, attr, seconds if old is None else 0.5 * (old + seconds))

    def measure_batch(self, cands):
        cands = list(cands)
        parallel = self.prepare is not None and (self.options.jobs > 1 or self.options.executor is not None)
        # Under a deadline the batch is compiled ahead `jobs` candidates at a time: a whole batch
        # compiled first once overran a 49 s share of the budget by minutes.
        step = max(1, self.options.jobs) if parallel and self.deadline is not None else max(1, len(cands))
        out = []
        for start in range(0, len(cands), step):
            chunk = cands[start:start + step]
            if parallel and not self.over_deadline(self.candidate_s):
                t0 = time.perf_counter()
                configs = [cfg for cfg in map(self.config_of, chunk) if isinstance(cfg, CompilationConfig)]
                self.prepare(self.problem, configs)
                if configs:
                    self._learn("candidate_s", (time.perf_counter() - t0) / len(configs) + (self.timing_s or 0.0))
            out.extend(self._measure_each(chunk, len(out)))
        return out

    def _measure_each(self, cands, done_before: int):
        out = []
        for c in cands:
            if self.over_deadline(self.timing_s):
                out.append(MeasureOutcome(None, Status.OVER_BUDGET, "time budget exhausted"))
                continue
            config = self.config_of(c)
            if not isinstance(config, CompilationConfig):
                out.append(MeasureOutcome(None, Status.ILLEGAL, f"illegal: {config}"))
                continue
            t0 = time.perf_counter()
            m = self.timed(self.problem, config, self.estimate_us(c))
            if m.details.get("cached"):
                self.result.cached += 1
            else:
                self.result.measured += 1
                self._learn("timing_s", time.perf_counter() - t0)
            self._report(len(self.ctx.trials) + done_before + len(out) + 1, m)
            if m.ok:
                if c in self.view.index:  # proposals outside the space have no model terms to fit
                    self.calibration_points.append((self.view.terms(c), m.median_us * 1e-6))
                out.append(MeasureOutcome(m.median_us, Status.OK, "", config))
            else:
                self.result.failed += 1
                out.append(MeasureOutcome(None, Status(m.status), f"{m.status}: {m.reason}", config))
        return out

    def _report(self, done: int, m) -> None:
        """One progress event per measurement: best so far (never goes up), the budget, an ETA."""
        if m.ok and (self.best_so_far is None or m.median_us < self.best_so_far):
            self.best_so_far = m.median_us
        elapsed = time.perf_counter() - self.started
        left = max(self.ctx.budget - done, 0) if self.ctx is not None else 0
        seconds_left = elapsed / done * left if done else 0.0
        report_measured(self.progress, Measured(self.problem.dispatch, done, self.options.budget, self.best_so_far,
                                                self.result.default_us, seconds_left))
