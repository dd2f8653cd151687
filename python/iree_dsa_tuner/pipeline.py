"""The one walk from a model to a verified tuning spec: discover -> search -> build_verified.

    result = iree_dsa_tuner.tune("model.mlir", "dsa-e1", TuneOptions(budget=16))
    result.spec_text   # a verified spec ("" when nothing beat IREE's default)

- discover (`ir`): the model is compiled once (`ir.compile_model`); its dispatch IR,
  IREE's default configs and the dispatch benchmarks are shared by every later stage.
- search (`search`): one problem at a time, measured by the target's runner behind the
  tuning database; returns each dispatch's best config with its evidence.
- build_verified (`tuning_spec`): one spec for the winners, kept only for what IREE
  applies with matching numerics.
`tune`, `demo` and the benchmarks call `tune`; the task level, which searches one dispatch at a
time in Amdahl order, builds its search through the same `search_hooks` (database, twins, gate).
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Callable

from .core.fingerprint import candidate_key, default_key, dispatch_fingerprint, target_fingerprint
from .core.measurement import Measurement
from .ir.artifacts import ModelArtifacts, compile_model
from .runners.base import RunnerOptions
from .search.driver import SearchHooks, search_problems
from .search.options import TuneOptions
from .search.proposer import target_request_description
from .search.results import DispatchResult, TuneResult
from .tuning_spec.builder import matcher_key
from .tuning_spec.verify import build_verified, check_config


def tune(model: str | os.PathLike | ModelArtifacts, target, options: TuneOptions | None = None, *,
         db=None, runner=None, progress: Callable[[str], None] | None = None,
         verify: bool = True) -> TuneResult:
    """Tune every dispatch of `model` for `target` and return what was found, with a verified spec.

    - `model`: an MLIR file (anything iree-compile takes) or its `ModelArtifacts`.
    - `target`: a name (`"host"`, `"dsa-e1"`, ...) or a `targets.Target`.
    - `db`: a `db.TuningDatabase`, a path to one, or None (measure everything, record nothing).
    - `runner`: measure with this instead of the target's own runner (tests, replays).
    - `progress`: called with one line per step.
    - `verify=False` skips the spec (search only; `result.spec_text` stays empty).
    """
    from .db import TuningDatabase
    from .targets import get_target

    options = options or TuneOptions()
    t_start = time.perf_counter()
    if options.time_budget_s and options.budget_started is None:
        # The budget covers this whole call: compiling the model and setting up the runner too.
        options = dataclasses.replace(options, budget_started=t_start)
    if isinstance(target, str):
        target = get_target(target)
    artifacts = model if isinstance(model, ModelArtifacts) else compile_model(model, target.compile_flags)
    problems = artifacts.problems()

    owns_db = isinstance(db, (str, os.PathLike))
    if owns_db:
        db = TuningDatabase(db)
    owns_runner = runner is None
    if owns_runner:
        runner = target.make_runner(artifacts, RunnerOptions(repetitions=options.repetitions, jobs=options.jobs,
                                                             executor=options.executor))
    try:
        result = _tune(artifacts, problems, target, options, db, runner, progress, verify)
    finally:
        if owns_runner:
            runner.close()
        if owns_db:
            db.close()
    result.seconds = time.perf_counter() - t_start
    return result


def record_target(artifacts: ModelArtifacts, target, runner) -> str:
    """The target key a measurement of `artifacts`' dispatches by `runner` is recorded under."""
    # Records are reusable only under the same target, runner and compile flags, and
    # timings from other machines (a cluster's) only with their hardware's.
    timing = getattr(runner, "timing_hardware", None)
    return target_fingerprint(target.describe(), extra=f"runner={getattr(runner, 'name', '')};"
                                                        f"flags={' '.join(artifacts.target_flags)}"
                                                        + (f";timing={timing}" if timing else ""))


def search_hooks(artifacts: ModelArtifacts, target, options: TuneOptions, runner, db=None) -> SearchHooks:
    """The `SearchHooks` for searching `artifacts`' problems on `target` with `runner`.

    One construction for every caller (`tune`, the task level): measurements go through
    the tuning database `db` (None: none), twins share a search by `matcher_key`, and a
    proposal must pass `options.proposal_check` (default: the dispatch's spec applied and
    its numerics checked) before it may win.
    """
    target_fp = record_target(artifacts, target, runner)
    defaults = artifacts.default_configs()
    # A record measured by other code (another simulator, another runner) is stale: re-measured.
    code = getattr(runner, "code_version", None)

    def key_of(problem, config) -> str:
        if config is not None:
            return candidate_key(config.to_json())
        applied = defaults.get(problem.dispatch)
        return default_key(applied.to_json() if applied is not None else None)

    def recorded(problem, config) -> Measurement | None:
        if db is None:
            return None
        return db.lookup(dispatch_fingerprint(problem), target_fp, key_of(problem, config), code_version=code)

    def measure(problem, config, estimate_us=None) -> Measurement:
        cached = recorded(problem, config)
        if cached is not None:
            cached.details = {"cached": True}
            return cached
        m = runner.measure(problem, config)
        m.dispatch = problem.dispatch
        if db is not None:
            db.record_measurement(dispatch_fingerprint(problem), target_fp, m, key=key_of(problem, config),
                                  candidate=config.to_json() if config is not None else None, estimate_us=estimate_us,
                                  code_version=code or "")
        return m

    def prepare(problem, configs) -> None:
        """Let the runner compile a batch's unrecorded candidates in parallel (--jobs)."""
        fresh = [c for c in configs if recorded(problem, c) is None]
        if len(fresh) > 1:
            runner.prepare(problem, fresh)

    def default_config(problem):
        iree_default = defaults.get(problem.dispatch)
        return target.untuned_config(problem, iree_default) if iree_default is not None else None

    counts: dict[str, int] = {}
    at_load: set[str] = set()

    def calls(problem) -> int:
        """Calls of the dispatch per call of the model, from the host program: 0 for one only an
        initializer runs (once, at load); 1 where the program cannot say."""
        if not counts:
            program = artifacts.host_program()
            counts.update(program.calls() or {"": 0})
            at_load.update(c.symbol for c in program.load_calls)
        if problem.dispatch not in counts and problem.dispatch in at_load:
            return 0
        return max(1, counts.get(problem.dispatch, 1))

    return SearchHooks(
        measure=measure, prepare=prepare, default_config=default_config, twin_key=matcher_key, calls=calls,
        check=options.proposal_check or (lambda problem, config: check_config(artifacts, problem, config)),
        remeasure_default=(lambda problem: runner.measure(problem, None))
        if getattr(runner, "measures_drift", False) else None,
    )


def _tune(artifacts: ModelArtifacts, problems, target, options: TuneOptions, db, runner, progress,
          verify: bool) -> TuneResult:
    target_fp = record_target(artifacts, target, runner)
    hooks = search_hooks(artifacts, target, options, runner, db)
    calibration = db.load_calibration(target_fp) if db is not None else None
    outcome = search_problems(problems, target, hooks, options, calibration=calibration, progress=progress)
    if db is not None and outcome.calibration:
        db.save_calibration(target_fp, outcome.calibration)

    result = TuneResult(str(artifacts.model), target.name, options.strategy)
    result.target_description = target_request_description(target)
    result.dispatches, result.skipped = outcome.dispatches, outcome.skipped
    _count_calls(artifacts, result, target)
    if options.proposer is not None:
        from .search.proposer import proposer_name

        result.proposer = proposer_name(options.proposer)
    if verify:
        t_verify = time.perf_counter()
        _verify(artifacts, problems, result, target, progress)
        result.verify_seconds = time.perf_counter() - t_verify
    return result


def _count_calls(artifacts, result: TuneResult, target) -> None:
    """Each dispatch's calls from the host program; the untuned ones costed by the target's estimate
    where it has one, so the model total covers every call of every dispatch."""
    calls, traffic = artifacts.calls(), artifacts.traffic()
    for d in result.dispatches:
        d.calls = calls.get(d.dispatch, 1)
    for s in result.skipped:
        s["calls"] = calls.get(s["dispatch"], 0)
        t = traffic.get(s["dispatch"])
        estimate = target.estimate_untunable(t) if t is not None and s["calls"] else None
        if estimate is not None:
            s["estimated_us"], s["estimated_how"] = estimate


# How many next-best configs a dispatch whose winner failed verification may try.
MAX_ALTERNATIVES = 3


def verify_winners(artifacts, problems, dispatches: list[DispatchResult], target, progress=None):
    """The verify-the-winners stage `tune` and `task` share: one spec over the dispatches chosen
    "tuned", built and verified (`build_verified`); a winner that fails is checked alone and
    replaced by its next-best verified config, and one with none left goes back to IREE's
    default (`chosen`, `note` and `verify_failure` say so). Returns the verified spec."""
    tuned = [d for d in dispatches if d.chosen == "tuned"]
    verified = build_verified(artifacts, problems, {d.dispatch: d.best_config for d in tuned}, progress)
    if verified.dropped:
        if _replace_failed(artifacts, problems, tuned, verified.dropped, target, progress):
            tuned = [d for d in dispatches if d.chosen == "tuned"]
            verified = build_verified(artifacts, problems, {d.dispatch: d.best_config for d in tuned}, progress)
    for d in dispatches:
        if d.dispatch in verified.dropped and d.chosen == "tuned":
            d.verify_failure = verified.dropped[d.dispatch]
            d.chosen, d.note = "default", f"tuned config failed verification ({d.verify_failure}); " \
                                          "fell back to default"
    return verified


def _verify(artifacts, problems, result: TuneResult, target, progress) -> None:
    verified = verify_winners(artifacts, problems, result.dispatches, target, progress)
    result.spec_text, result.verified = verified.text, True
    if verified.text and verified.report is not None:
        result.numerics = [n.to_json() for n in verified.report.numerics]
    result.verify_notes += [f"{d.dispatch}: {d.note}" for d in result.dispatches if d.verify_failure]


def _replace_failed(artifacts, problems, tuned, dropped: dict[str, str], target, progress) -> bool:
    """Check each dropped winner alone (a whole-function mismatch drops them all, guilty or not);
    a guilty one is replaced by the fastest next-best config that passes alone. True if any
    winner came back."""
    from .core.measurement import WIN_MARGIN

    by_symbol = {p.dispatch: p for p in problems}
    representatives = {d.dispatch: d for d in tuned if d.twin_of is None}
    came_back = False
    for d in representatives.values():
        if d.dispatch not in dropped:
            continue
        problem = by_symbol[d.dispatch]
        if progress is not None:
            progress(f"checking {d.dispatch}'s config alone")
        if check_config(artifacts, problem, d.best_config).ok:
            came_back = True
            continue
        why, choice = dropped[d.dispatch], None
        faster = sorted((t for t in d.trials if t.time_us is not None and d.default_us
                         and t.time_us < (1 - WIN_MARGIN) * d.default_us), key=lambda t: t.time_us)
        tried = 0
        for trial in faster:
            config = trial.config
            if config is None or config == d.best_config:
                continue
            if tried == MAX_ALTERNATIVES:
                break
            tried += 1
            if check_config(artifacts, problem, config).ok:
                choice = (config, trial.time_us)
                break
        d.verify_failure = why
        if choice is None:
            d.chosen = "default"
            d.note = f"tuned config failed verification ({why}); {tried} next-best tried; fell back to default"
            continue
        d.best_config, d.best_us = choice
        d.note = f"winner failed verification ({why}); the next-best verified config replaces it"
        came_back = True
    for d in tuned:  # a twin follows its representative
        rep = representatives.get(d.twin_of) if d.twin_of is not None else None
        if rep is not None:
            d.chosen, d.best_config, d.best_us = rep.chosen, rep.best_config, rep.best_us
            d.verify_failure, d.note = rep.verify_failure, rep.note
    return came_back


__all__ = ["TuneOptions", "TuneResult", "record_target", "search_hooks", "tune", "verify_winners"]

