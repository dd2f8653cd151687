"""Search, one problem at a time: space -> funnel -> default and elite measured -> strategy -> L2 -> best.

`search_problems` receives the problems (from `ir`) and a `measure` function (the
pipeline's runner behind the tuning database) and returns, per dispatch, the best
config with its evidence (trials, funnel, fidelity). It knows neither how the
problems were found nor how a spec is written: `pipeline.tune` does both ends.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..core.candidate import TilingCandidate
from ..core.config import CompilationConfig, ConfigError
from ..core.measurement import DRIFT_THRESHOLD, WIN_MARGIN, Measurement
from ..core.problems import is_tunable
from ..core.selection import select_dispatches
from ..core.status import NumericsVerdict, Status
from ..costmodel.fidelity import fidelity, fit_calibration
from ..space.elite import EliteRuleError, elite_candidate
from . import get_strategy
from .context import SearchContext, Trial
from .cost_view import CostView
from .dispatch_tuning import DispatchTuning
from .options import TuneOptions
from .results import DispatchResult
from .proposer import (
    TARGET_FRACTION,
    Proposal,
    ProposerError,
    ProposerRun,
    call_proposer,
    check_proposal,
    proposer_name,
    proposer_request,
    run_timer,
    should_invoke,
)


def _log(progress: Callable[[str], None] | None, text: str) -> None:
    if progress is not None:
        progress(text)


def _history(work: DispatchTuning, default_config: CompilationConfig | None, base) -> list[dict]:
    """What was measured for a dispatch, as the proposer protocol's history (default first)."""
    history = [{"config": default_config.to_json() if default_config else None,
                "time_us": work.result.default_us, "status": base.status if base is not None else "ok",
                "reason": getattr(base, "reason", ""), "source": "default"}]
    for t in work.ctx.trials:
        if t.config is None:  # never had a legal config: nothing a proposer could learn from
            continue
        history.append({"config": t.config.to_json(), "time_us": t.time_us, "status": str(t.status),
                        "reason": t.reason, "source": t.source})
    return history


def _run_proposer(work: DispatchTuning, run: ProposerRun, request: dict, proposer) -> None:
    """Ask the proposer, gate (a) every proposal, measure (b) the legal ones within the budget."""
    elapsed = run_timer()
    run.invoked = True
    try:
        answer = call_proposer(proposer, request)
    except ProposerError as e:
        run.error = str(e)
        run.seconds = elapsed()
        _log(work.progress, f"    proposer failed: {e}")
        return
    run.seconds = elapsed()
    ctx, problem = work.ctx, work.problem
    proposed: set[TilingCandidate] = set()
    for raw in answer:
        rationale = str(raw.get("rationale", "")) if isinstance(raw, dict) else ""
        proposal = Proposal(raw, Status.ILLEGAL, rationale=rationale)
        run.proposals.append(proposal)
        try:
            config, candidate = check_proposal(raw, problem, work.target)
        except (ConfigError, ValueError) as e:
            proposal.reason = str(e)
            continue
        if ctx.measured(candidate) or candidate in proposed:
            seen = next((t for t in ctx.trials if t.candidate == candidate), None)
            proposal.status, proposal.reason = Status.DUPLICATE, "already measured"
            proposal.time_us = seen.time_us if seen is not None else None
            continue
        proposed.add(candidate)
        if ctx.remaining <= 0:
            proposal.status, proposal.reason = Status.OVER_BUDGET, f"the dispatch's budget of {ctx.budget} is spent"
            continue
        if candidate not in work.view.index:
            work.extra_estimates[candidate] = _single_estimate_us(problem, work.target, candidate)
        trials = ctx.measure([candidate], source="proposer")
        if not trials:
            proposal.status, proposal.reason = Status.OVER_BUDGET, "not measured"
            continue
        trial = trials[0]
        proposal.time_us = trial.time_us
        proposal.status, proposal.reason = (Status.MEASURED, "") if trial.time_us is not None else (Status.FAILED, trial.reason)
        work.proposals_by_trial[id(trial)] = proposal
    _log(work.progress, f"    proposer: {len(run.proposals)} proposals, {run.count(Status.ILLEGAL)} illegal, "
                        f"{len(work.proposals_by_trial)} measured")


def _single_estimate_us(problem, target, candidate) -> float | None:
    """The cost model's time for a candidate outside the enumerated space (a proposal)."""
    from ..costmodel import run_funnel
    from ..space.space import candidates_to_columns

    try:
        funnel = run_funnel(target.space(problem), target.describe(), columns=candidates_to_columns([candidate]),
                            estimator=target.estimator)
        return float(funnel.estimate.total_s[0] * 1e6)
    except Exception:  # an estimate is a nicety for the fidelity figures, never a reason to stop
        return None


ELITE = "elite"  # the trial source of the elite template's candidate


def _measure_elite(work: DispatchTuning) -> None:
    """R2.3: the elite template's candidate, measured first like any other candidate.

    It goes through the same metered measure (the database records it, it counts in
    `measured` and in the budget), so a strategy never measures it again.
    """
    result = work.result
    try:
        elite = elite_candidate(work.view.funnel.space, work.target.describe())
    except (EliteRuleError, KeyError, ValueError) as e:  # a broken rule costs the elite, not the dispatch
        result.elite = {"rule": "", "candidate": None, "reason": f"elite rule failed: {e}"}
        return
    result.elite = elite.to_json()
    candidate = elite.candidate
    if candidate is not None:
        result.elite["candidate"] = candidate.to_json(result.knobs)
    if candidate is None:
        return
    if candidate not in work.view.index:
        result.elite["reason"] = f"not legal in this space: {_illegal_reason(work, candidate)}"
        return
    earlier = work.ctx.trial_of(candidate)
    if earlier is not None:  # measured before the searches as the funnel's top: it is the elite's trial
        earlier.source = ELITE
    trials = [earlier] if earlier is not None else work.ctx.measure([candidate], source=ELITE)
    if trials and trials[0].time_us is None:
        result.elite["reason"] = f"measuring it failed: {trials[0].reason}"
    if trials:
        _log(work.progress, f"    elite ({elite.rule}): {candidate.short(work.target.knobs)} -> "
                            + (f"{trials[0].time_us:.1f} us" if trials[0].time_us is not None
                               else f"not timed ({trials[0].reason})"))


# Under a time budget, a default this many times the funnel's best estimate is not what the
# model runs: its top candidate is measured first, and the dispatch's share counts the faster.
FAR_FROM_ESTIMATE = 4.0


def _measure_top_when_default_is_far(work: DispatchTuning) -> None:
    """Measure the funnel's top candidate now when IREE's default is far above its estimate, so the
    budget is shared by what the dispatch can run in, not by a default no build keeps. pi0's expert
    softmax ran 28 ms under IREE's default and 0.7 ms under the estimate's config, which every
    host preset builds with: shared by its default it took 97 s of a 300 s tune."""
    default, ranked = work.result.default_us, work.view.ranked
    if not default or not ranked:
        return
    top_estimate = work.estimate_us(ranked[0])
    if top_estimate is None or default <= FAR_FROM_ESTIMATE * top_estimate:
        return
    trials = work.ctx.measure([ranked[0]])
    if trials and trials[0].time_us is not None:
        _log(work.progress, f"    IREE's default is {default / top_estimate:.0f}x the funnel's best estimate: its top "
                            f"candidate measured first, {trials[0].time_us:.1f} us (the budget's share counts it)")


def _illegal_reason(work: DispatchTuning, candidate: TilingCandidate) -> str:
    from ..costmodel import run_funnel
    from ..space.space import candidates_to_columns

    funnel = run_funnel(work.view.funnel.space, work.target.describe(), columns=candidates_to_columns([candidate]),
                        estimator=work.target.estimator)
    return funnel.reason_of(0)


def _best(trials: list[Trial], skip: tuple[str, ...] = ()) -> Trial | None:
    ok = [t for t in trials if t.time_us is not None and t.source not in skip]
    return min(ok, key=lambda t: (t.time_us, str(t.candidate))) if ok else None


def _gated_best(work: DispatchTuning, check, skip: tuple[str, ...] = ()) -> Trial | None:
    """The fastest trial allowed to win (trials from the `skip` sources aside): a proposal must pass gate (c) first.

    Only a proposal that would actually replace the default is checked (a compile
    and a run of the model); one that fails is excluded and the next best is taken.
    """
    excluded: set[int] = set()
    while True:
        ok = [t for t in work.ctx.trials if t.time_us is not None and id(t) not in excluded and t.source not in skip]
        if not ok:
            return None
        best = min(ok, key=lambda t: (t.time_us, str(t.candidate)))
        proposal = work.proposals_by_trial.get(id(best))
        if proposal is None or proposal.status == Status.VERIFIED:
            return best
        default = work.result.default_us
        if default is not None and best.time_us >= (1 - WIN_MARGIN) * default:
            return best  # it will not replace the default, so it never enters a spec
        config = best.config
        _log(work.progress, f"    checking the proposal's numerics ({best.time_us:.1f} us)")
        try:
            verdict = check(work.problem, config)
        except Exception as e:  # a checker that breaks proves nothing: the proposal may not win
            verdict = NumericsVerdict(Status.NOT_APPLIED, f"check failed: {type(e).__name__}: {e}")
        proposal.status, proposal.reason = verdict.status, verdict.reason
        if verdict.ok:
            return best
        best.reason = f"{verdict.status}: {verdict.reason}"
        excluded.add(id(best))


@dataclass
class SearchOutcome:
    """What the search found: a result per searched dispatch, what it skipped, calibration data."""

    dispatches: list[DispatchResult] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    calibration: dict | None = None  # refitted estimate weights (None: too few points)


@dataclass
class SearchHooks:
    """How the search reaches the world, supplied by the pipeline.

    - `measure(problem, config, estimate_us) -> Measurement`: config None = the default.
    - `prepare(problem, configs)`: compile ahead what will be measured (optional).
    - `default_config(problem)`: the config the default measurement ran (proposer history).
    - `twin_key(problem)`: root ops with equal keys share one config (one matcher cannot
      tell them apart).
    - `check(problem, config) -> NumericsVerdict`: gate (c) for a proposal about to win.
    - `remeasure_default(problem) -> Measurement`: the default timed afresh at the end, to
      flag drift (None where times cannot drift, e.g. a simulator).
    - `calls(problem) -> int`: how often one call of the model runs the dispatch (orders the
      searches and shares the time budget by default time x calls).
    """

    measure: Callable[..., Measurement]
    prepare: Callable | None = None
    default_config: Callable | None = None
    twin_key: Callable = lambda problem: id(problem)
    check: Callable | None = None
    remeasure_default: Callable | None = None
    calls: Callable = lambda problem: 1  # calls of the dispatch per call of the model (its weight in the total)


def search_problems(problems, target, hooks: SearchHooks, options: TuneOptions, *,
                    calibration: dict | None = None,
                    progress: Callable[[str], None] | None = None) -> SearchOutcome:
    """Search every tunable problem: L1 per dispatch, then L2 proposals, then the best per dispatch.

    Phases: (1) per dispatch in model order: space -> funnel -> default measured ->
    strategy (with the proposer's share of the budget held back when one is set);
    (2) L2, when `options.proposer` is set: dispatches in descending Amdahl share
    (their default time over the model's), each asked only when its share reaches
    `proposer_min_share` and the trigger holds; (3) per dispatch: the best trial that
    passed the gate, the drift check, the choice.
    """
    outcome = SearchOutcome()
    strategy = get_strategy(options.strategy)
    # --time-budget bounds the whole run: every measurement checks this one deadline.
    started = options.budget_started if options.budget_started is not None else time.perf_counter()
    deadline = started + options.time_budget_s if options.time_budget_s else None
    calibration_points: list[tuple[list[float], float]] = []
    seen_keys: dict = {}
    twins: list[tuple[DispatchResult, DispatchTuning]] = []
    works: list[DispatchTuning] = []
    bases: dict[str, Measurement] = {}
    proposer = options.proposer
    reserve = 0
    if proposer is not None:
        reserve = options.proposer_budget if options.proposer_budget is not None else max(1, options.budget // 4)
        reserve = max(0, min(reserve, options.budget))

    # ---- phase 1: L0 -> L1 per dispatch ------------------------------------------------
    selected = set(select_dispatches([p.dispatch for p in problems], options.dispatches, strict=False))
    numbered = list(enumerate(problems, start=1))
    defaults_deadline = deadline
    if deadline is not None:
        # Under a time budget the defaults are measured largest work x calls first, in at most half
        # the budget: measuring 24 defaults in model order left ACT's two FFN GEMMs (34% of it) no time.
        numbered.sort(key=lambda item: -float(getattr(item[1], "flops", 0) or 0) * max(0, hooks.calls(item[1])))
        defaults_deadline = started + 0.5 * options.time_budget_s
    for n, problem in numbered:
        if problem.dispatch not in selected:
            continue
        if not is_tunable(problem):
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                    "reason": getattr(problem, "reason", "") or f"{problem.kind} ops are not tuned yet"})
            continue
        t0 = time.perf_counter()
        shape = "x".join(str(s) for s in problem.loop_sizes)
        result = DispatchResult(problem.dispatch, f"{problem.op_name} {shape} {problem.lhs_type}")
        result.knobs = tuple(getattr(target, "knobs", ())) or None
        result.flops, result.bytes, result.intensity = problem.flops, problem.bytes, problem.intensity
        try:
            result.compute_type = target.describe().compute_type(problem.lhs_type, problem.rhs_type)
        except KeyError as e:  # a type the target does not compute in: refused, by name
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind, "reason": str(e)})
            continue
        if hooks.calls(problem) == 0:  # no call of the model runs it: its time is not the model's
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                    "reason": "runs once at load (in an initializer), not per call of the model"})
            continue
        key = hooks.twin_key(problem)
        if key in seen_keys:
            twins.append((result, seen_keys[key]))
            outcome.dispatches.append(result)
            continue
        try:
            view = CostView(problem, target, calibration)
        except Exception as e:  # a space the target cannot describe: skip this dispatch only
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind, "reason": f"no space: {e}"})
            continue
        result.space_size, result.survivors, result.bound_us = view.space_size, len(view.ranked), view.bound_us
        result.funnel = [{"stage": s.name, "entered": s.entered, "left": s.left} for s in view.funnel.stages]
        if len(view.legal) > 1 and view.spread < FLAT_ESTIMATE:
            # pi0's down projection (K = 16384): every mmt4d distribution re-reads 6.8 GB; measuring
            # its 32 candidates at ~1 s each would have bought nothing but noise.
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                    "reason": f"not searched: the cost model puts all {len(view.legal)} candidates "
                                              f"within {FLAT_ESTIMATE - 1:.0%} of each other (nothing to choose)"})
            continue
        if defaults_deadline is not None and time.perf_counter() > defaults_deadline:
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                    "reason": f"the time budget of {options.time_budget_s:g} s was spent before it"})
            continue
        _log(progress, f"[{n}/{len(problems)}] {problem.dispatch}: space {view.space_size}, "
                       f"{len(view.ranked)} survive the funnel; measuring the default")
        t_base = time.perf_counter()
        base = hooks.measure(problem, None)
        base_s = time.perf_counter() - t_base
        bases[problem.dispatch] = base
        if base.status == Status.TIMEOUT:
            # Every candidate would be timed against a default that cannot finish: skip it.
            outcome.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                    "reason": f"IREE's default timed out ({base.reason})"})
            _log(progress, f"    skipped: IREE's default timed out ({base.reason})")
            continue
        result.default_us = base.median_us if base.ok else None
        work = DispatchTuning(problem, target, view, result, hooks.measure, calibration_points, options, progress)
        work.prepare = hooks.prepare
        work.remeasure_default = hooks.remeasure_default
        work.deadline = deadline
        if not base.details.get("cached"):  # a candidate costs about what its default's build and timing did
            work.candidate_s = work.timing_s = base_s
        work.ctx = SearchContext(view.legal, view.ranked, work.estimate_us, work.measure_batch,
                                 options.budget - reserve, seed=options.seed, incumbent_us=result.default_us)
        if deadline is not None:
            _measure_top_when_default_is_far(work)
        work.l1_seconds = time.perf_counter() - t0
        work.calls = hooks.calls(problem)
        seen_keys[key] = work
        works.append(work)
        outcome.dispatches.append(result)
    for _, work in twins:
        work.calls += hooks.calls(work.problem)  # a twin runs the same config: its calls count for the group
    position = {p.dispatch: i for i, p in enumerate(problems)}
    outcome.dispatches.sort(key=lambda r: position.get(r.dispatch, len(position)))  # the report in model order
    outcome.skipped.sort(key=lambda s: position.get(s["dispatch"], len(position)))

    # ---- phase 1b: the searches, largest share of the model first -----------------------
    # Every default is measured first, so the time budget goes where the model's time is: a
    # dispatch gets the share of the time left that its time x calls has of the dispatches still
    # to search (a 7x7 stem conv once took a whole 300 s budget in model order); its time is its
    # default, or its top candidate's when the default is far off it (FAR_FROM_ESTIMATE).
    shares = {id(w): w.share_us() for w in works}  # before any search adds faster trials
    order = sorted(works, key=lambda w: -shares[id(w)])
    total = sum(shares.values())
    for i, work in enumerate(order):
        t0 = time.perf_counter()
        near = _near_bound(work.result)
        if near:
            work.result.note = near
            _log(progress, f"    {work.problem.dispatch}: not searched: {near}")
            continue
        share = f"{shares[id(work)] / total:.0%} of the searched dispatches' time" if total else "untimed default"
        if deadline is not None:
            left = sum(shares[id(w)] for w in order[i:])
            slice_s = (deadline - t0) * (shares[id(work)] / left if left > 0 else 1.0 / (len(order) - i))
            work.deadline = min(deadline, t0 + max(0.0, slice_s))
            share += f", up to {max(0.0, work.deadline - t0):.0f} s"
        _log(progress, f"[search {i + 1}/{len(order)}] {work.problem.dispatch} ({share})")
        work.started = t0  # the progress line's time-left estimate counts from the search's start
        _measure_elite(work)
        strategy.tune(work.ctx, options.strategy_options)
        work.l1_seconds += time.perf_counter() - t0

    # ---- phase 2: L2 proposals, largest Amdahl share first (R3.3, R8.3) -------------------
    group_default: dict[int, float] = {id(w): w.result.default_us or 0.0 for w in works}
    for _, work in twins:
        group_default[id(work)] += work.result.default_us or 0.0  # a twin runs the same config
    total_default = sum(group_default.values())
    for work in works:
        work.result.amdahl_share = (group_default[id(work)] / total_default) if total_default else None
    if proposer is not None:
        for work in sorted(works, key=lambda w: -(w.result.amdahl_share or 0.0)):
            _run_l2(work, proposer, options, strategy, hooks, bases, reserve)

    # ---- phase 3: the gated best per dispatch ---------------------------------------------
    for work in works:
        _choose(work, hooks if proposer is not None else None, progress, deadline)
    for twin_result, work in twins:
        keep = {k: getattr(twin_result, k) for k in ("dispatch", "shape", "trials")}
        twin_result.__dict__.update({k: v for k, v in work.result.__dict__.items() if k not in keep})
        twin_result.__dict__.update(keep)
        twin_result.twin_of = work.result.dispatch
        twin_result.note = f"same root op as {work.result.dispatch}"
    outcome.calibration = fit_calibration(calibration_points)
    return outcome


# A space whose estimates all lie within this factor of each other is not searched: the cost
# model sees no lever in it (an mmt4d whose every distribution moves the same bytes).
FLAT_ESTIMATE = 1.02

# IREE's default within this much of the roofline bound is not searched: no config can win
# more than the measurement noise of a shared machine there.
NEAR_BOUND = 1.10


def _near_bound(result: DispatchResult) -> str:
    """Why the dispatch is not searched, or "" (a default below the bound means the bound is off: search)."""
    default, bound = result.default_us, result.bound_us
    if default and bound and bound <= default <= NEAR_BOUND * bound:
        return (f"IREE's default ({default:.1f} us) is within {NEAR_BOUND - 1:.0%} of the roofline bound "
                f"({bound:.1f} us)")
    return ""


def _choose(work: DispatchTuning, gate: SearchHooks | None, progress, deadline: float | None = None) -> None:
    """The dispatch's best trial (through gate (c) when proposals ran), then tuned or default.
    IREE's default is timed again (the drift check) only if that should end by `deadline`."""
    result, problem = work.result, work.problem
    t0 = time.perf_counter()
    result.trials = work.ctx.trials
    result.fidelity = fidelity(work.ctx.trials)
    gated = gate is not None and gate.check is not None
    # The search's own best and the elite are compared first (R2.3); the faster of them is the best.
    tuned = _gated_best(work, gate.check, (ELITE,)) if gated else _best(work.ctx.trials, (ELITE,))
    elite_trial = next((t for t in work.ctx.trials if t.source == ELITE and t.time_us is not None), None)
    result.tuned_us = tuned.time_us if tuned is not None else None
    result.elite_us = elite_trial.time_us if elite_trial is not None else None
    best = elite_trial if elite_trial is not None and (tuned is None or elite_trial.time_us < tuned.time_us) else tuned
    # Timing the 12 UNet defaults again after the search took 18 s past its 95 s share.
    in_time = deadline is None or time.perf_counter() + (work.timing_s or 0.0) <= deadline
    if work.remeasure_default is not None and in_time:
        end = work.remeasure_default(problem)
        if end.ok:
            result.default_end_us = end.median_us
    if best is not None:
        result.best_us = best.time_us
        result.best_source = best.source
        result.best_config = best.config
    if best is not None and (result.default_us is None or best.time_us < (1 - WIN_MARGIN) * result.default_us):
        result.chosen = "tuned"
        if best is elite_trial:
            result.note = result.note or _elite_note(result)
    elif best is not None:
        result.note = result.note or ("IREE's default is as fast as anything measured; kept"
                                      + (f" (stopped early: {work.ctx.stopped})" if work.ctx.stopped else ""))
    elif not work.ctx.trials:
        result.note = result.note or _nothing_measured(work)
    else:
        result.note = result.note or "no candidate measured successfully"
    if result.drift is not None and result.drift > DRIFT_THRESHOLD:
        result.note += f" default drifted {result.drift:.0%} during the run (noisy machine)"
    result.seconds = work.l1_seconds + (result.proposer.seconds if result.proposer else 0.0) \
        + (time.perf_counter() - t0)
    _log(progress, f"    {problem.dispatch} -> {result.chosen}: default {result.default_us or float('nan'):.1f} us, "
                   f"best {result.best_us or float('nan'):.1f} us" + (f" ({result.best_source})" if best else ""))


def _elite_note(result: DispatchResult) -> str:
    """Why the elite config ships instead of the search's best (R2.3's fall-back)."""
    reached = result.tuned_vs_elite
    if reached is None:
        return "only the elite config measured successfully; it is used"
    if reached < TARGET_FRACTION:
        return (f"the search reached {reached:.0%} of the elite (< {TARGET_FRACTION:.0%}): "
                "fell back to the elite config")
    return f"the elite config is {1 / reached - 1:.1%} faster than the search's best: it is used"


def _nothing_measured(work: DispatchTuning) -> str:
    """Why a dispatch got no measurement at all: the funnel left nothing, or time ran out."""
    if not work.view.ranked:
        counts: dict[str, int] = {}
        for stage in work.view.funnel.stages:
            for reason, n in stage.reasons:
                counts[reason] = counts.get(reason, 0) + n
        top = max(counts, key=counts.get) if counts else "no legal candidate"
        return f"the funnel left no candidate of {work.view.space_size} (most: {top})"
    return "nothing measured (time budget spent)"


def _run_l2(work: DispatchTuning, proposer, options: TuneOptions, strategy, hooks: SearchHooks,
            bases: dict, reserve: int) -> None:
    """L2 for one dispatch: ask (or not, and say why), gate, measure; unused budget goes back to L1."""
    result, ctx = work.result, work.ctx
    run = ProposerRun(proposer_name(proposer), amdahl_share=result.amdahl_share)
    result.proposer = run
    l1_best = _best(ctx.trials, (ELITE,)) if options.proposer_when == "elite-gap" else ctx.best()
    elite = next((t for t in ctx.trials if t.source == ELITE and t.time_us is not None), None)
    invoke, run.decision = should_invoke(options.proposer_when, result.amdahl_share, options.proposer_min_share,
                                         l1_best.time_us if l1_best else None, result.bound_us,
                                         elite.time_us if elite else None)
    ctx.budget = options.budget
    if not invoke:
        _log(work.progress, f"{result.dispatch}: proposer not asked ({run.decision})")
        if reserve and ctx.remaining > 0:
            strategy.tune(ctx, options.strategy_options)  # the held-back budget goes to L1 after all
        return
    run.budget = ctx.remaining
    _log(work.progress, f"{result.dispatch}: asking the proposer (share {result.amdahl_share or 0:.1%}, "
                        f"budget {run.budget})")
    default_config = hooks.default_config(work.problem) if hooks.default_config is not None else None
    request = proposer_request(work.problem, work.target, _history(work, default_config, bases.get(result.dispatch)),
                               run.budget, result.amdahl_share)
    _run_proposer(work, run, request, proposer)
