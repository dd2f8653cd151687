"""Search strategies on a synthetic landscape with a known optimum (no hardware)."""

from __future__ import annotations

import io
import itertools
import math
import re

import pytest

from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.search import SearchContext, get_strategy
from iree_dsa_tuner.search.context import MeasureOutcome
from iree_dsa_tuner.search.progress import Measured, ProgressPrinter, report_measured
from iree_dsa_tuner.core.candidate import TilingCandidate

POW2 = (1, 2, 4, 8, 16, 32, 64)


def landscape():
    cands = [TilingCandidate(m, n, 64, vm, vn, 4) for m, n, vm, vn in itertools.product(POW2, POW2, (1, 2, 4), (4, 8, 16))
             if vm <= m and vn <= n]

    def true_time(c):
        # Bowl around tile 16x32, vec 2x16, like a register-blocking sweet spot.
        return 10 + (math.log2(c.tile_m) - 4) ** 2 + (math.log2(c.tile_n) - 5) ** 2 + 3 * (math.log2(c.vec_m) - 1) ** 2 + 2 * (math.log2(c.vec_n) - 4) ** 2

    def estimate(c):
        # A biased model: right region, wrong exact order on vec_m.
        return true_time(c) + 2.5 * (c.vec_m == 2)

    return cands, true_time, estimate


def make_ctx(budget, seed=0, fail=lambda c: False, calls=None):
    cands, true_time, estimate = landscape()
    ranked = sorted(cands, key=lambda c: (estimate(c), str(c)))

    def measure(batch):
        if calls is not None:
            calls.extend(batch)
        return [MeasureOutcome(None, Status.COMPILE_ERROR, "compile error") if fail(c)
                else MeasureOutcome(true_time(c)) for c in batch]

    return SearchContext(cands, ranked, estimate, measure, budget, seed=seed), min(map(true_time, cands))


def test_exhaustive_finds_the_optimum():
    ctx, optimum = make_ctx(budget=10_000)
    get_strategy("exhaustive").tune(ctx)
    assert ctx.best().time_us == optimum
    assert len(ctx.trials) == len(ctx.legal)


@pytest.mark.parametrize("name", ["random", "pruned", "evolutionary", "exhaustive"])
def test_strategies_respect_budget_and_never_remeasure(name):
    calls = []
    ctx, _ = make_ctx(budget=12, calls=calls)
    get_strategy(name).tune(ctx)
    assert len(calls) <= 12
    assert len(calls) == len(set(calls))


def test_pruned_beats_random_at_equal_budget():
    ctx, optimum = make_ctx(budget=12)
    get_strategy("pruned").tune(ctx)
    assert ctx.best().time_us == optimum  # refinement fixes the model's vec_m bias
    worse = 0
    for seed in range(10):
        rctx, _ = make_ctx(budget=12, seed=seed)
        get_strategy("random").tune(rctx)
        worse += rctx.best().time_us > optimum
    assert worse >= 8


def test_failures_are_recorded_and_search_goes_on():
    ctx, optimum = make_ctx(budget=12, fail=lambda c: c.vec_n == 16 and c.tile_m == 16)
    get_strategy("pruned").tune(ctx)
    failed = [t for t in ctx.trials if t.time_us is None]
    assert failed and all(t.reason == "compile error" for t in failed)
    assert ctx.best() is not None


def test_random_is_seeded():
    a, _ = make_ctx(budget=8, seed=3)
    b, _ = make_ctx(budget=8, seed=3)
    get_strategy("random").tune(a)
    get_strategy("random").tune(b)
    assert [t.candidate for t in a.trials] == [t.candidate for t in b.trials]


def test_unknown_strategy():
    with pytest.raises(ValueError, match="unknown strategy"):
        get_strategy("annealing")


def test_pruned_stops_early_when_nothing_can_beat_the_default():
    """The [N,K] case: IREE's default is faster than anything; the scaled estimates say so too."""
    ctx, optimum = make_ctx(budget=16)
    ctx.incumbent_us = optimum * 0.5  # a default twice as fast as the landscape's best
    get_strategy("pruned").tune(ctx)
    assert len(ctx.trials) < 16 and "beat IREE's default" in ctx.stopped


def test_pruned_keeps_refining_once_it_beats_the_default():
    ctx, optimum = make_ctx(budget=16)
    ctx.incumbent_us = optimum * 3  # every candidate beats this default
    get_strategy("pruned").tune(ctx)
    assert len(ctx.trials) == 16 and not ctx.stopped


def test_no_early_stop_without_a_measured_default():
    ctx, _ = make_ctx(budget=16)
    get_strategy("pruned").tune(ctx)
    assert len(ctx.trials) == 16 and not ctx.stopped


# ---- progress: a bar on a terminal, plain lines elsewhere ----------------------------------

class TerminalStream(io.StringIO):
    """A stream that says it is a terminal (as stderr does in an interactive shell)."""

    def isatty(self) -> bool:
        return True


def _events(dispatch="main_dispatch_0_matmul_8x512x256_f32"):
    best = None
    for done, us in enumerate((14.0, 12.5, 13.0, 9.5), start=1):
        best = us if best is None else min(best, us)
        yield Measured(dispatch, done, 4, best, 15.0, seconds_left=3.0 * (4 - done))


def test_progress_off_a_terminal_is_one_plain_line_per_measurement():
    stream = io.StringIO()
    with ProgressPrinter(stream) as progress:
        progress("[1/1] main_dispatch_0: space 18432, 9 survive the funnel; measuring the default")
        for event in _events():
            progress.measured(event)
    lines = stream.getvalue().splitlines()
    assert lines[1:] == [
        "    measured 1/4, best so far 14.0 us (default 15.0 us), about 9 s left",
        "    measured 2/4, best so far 12.5 us (default 15.0 us), about 6 s left",
        "    measured 3/4, best so far 12.5 us (default 15.0 us), about 3 s left",
        "    measured 4/4, best so far 9.5 us (default 15.0 us)",
    ]
    assert "\r" not in stream.getvalue()  # no bar redraws in a log file


def test_progress_on_a_terminal_is_a_bar_with_best_so_far_measured_of_budget_and_eta():
    stream = TerminalStream()
    progress = ProgressPrinter(stream)
    events = list(_events())
    for event in events[:2]:
        progress.measured(event)
    drawn = stream.getvalue()
    assert "\r" in drawn and "measured 1/4" not in drawn  # a bar redrawn in place, not lines
    latest = drawn.split("\r")[-1]
    assert "2/4 measured" in latest and "best so far 12.5 us, default 15.0 us" in latest
    assert re.search(r"\[\d\d:\d\d<(\d\d:\d\d|\?), best so far", latest)  # elapsed < ETA
    progress("    proposer: 2 proposals")  # a line ends the bar, printed below it
    for event in events[2:]:
        progress.measured(event)
    progress.close()
    text = stream.getvalue()
    assert text.index("2/4 measured") < text.index("    proposer: 2 proposals\n") < text.index("4/4 measured")
    assert "best so far 9.5 us" in text.split("\r")[-1]


def test_a_plain_callable_gets_the_plain_line():
    lines: list[str] = []
    report_measured(lines.append, next(_events()))
    assert lines == ["    measured 1/4, best so far 14.0 us (default 15.0 us), about 9 s left"]
