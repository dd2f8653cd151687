"""The spec a host recipe's search leaves, completed: with the shared softmax configs it does not
set, and with the estimate's distribution for every other mmt4d dispatch the timed functions run."""

from __future__ import annotations

from ...core.config import CompilationConfig
from ...core.problems import RootOpProblem
from ...ir.artifacts import spec_problems
from ...search.estimated import elementwise_configs, estimated_mmt4d_configs, estimated_softmax_configs
from ...search.options import TuneOptions
from ...search.results import TuneResult
from ...tuning_spec.verify import build_verified


def shared_configs(flagged, target, in_spec: set[str]) -> dict[str, CompilationConfig]:
    """The shared spec's configs on the search's build, for the softmax dispatches the search's spec
    does not set (the estimate is deterministic: the same configs as on IREE's default build)."""
    problems = [p for p in flagged.problems() if isinstance(p, RootOpProblem)]
    wanted = {p.dispatch for p in problems} - in_spec
    return estimated_softmax_configs(problems, target, flagged.default_configs(), wanted)


def with_shared(flagged, result: TuneResult, in_spec: set[str], shared_here: dict[str, CompilationConfig],
                 progress, *, without: set[str] = frozenset(), name: str = "spec") -> tuple[str, str, set[str]] | None:
    """(`name`, text, dispatches): the search's spec, with the shared configs it leaves out, less
    the dispatches in `without` (those of a function the whole spec made slower); None when none
    of the search's winners is left."""
    if not shared_here and not without:
        return name, result.spec_text, in_spec
    problems = spec_problems(flagged)
    winners = {d.dispatch: d.best_config for d in result.dispatches if d.dispatch in in_spec - without}
    shared = {d: c for d, c in shared_here.items() if d not in without}
    if not winners:
        return None
    verified = build_verified(flagged, problems, {**shared, **winners}, progress)
    kept = (set(winners) | set(shared)) - set(verified.dropped)
    return (name, verified.text, kept) if verified.text and kept & set(winners) else None


def has_mmt4d(built) -> bool:
    return any(getattr(p, "is_mmt4d", False) for p in built.problems())


def estimated_spec(flagged, target, result: TuneResult, in_spec: set[str], options: TuneOptions, calls,
                    timed, progress, shared: dict[str, CompilationConfig] | None = None
                    ) -> tuple[str, str, set[str]] | None:
    """("spec+estimates" or "estimates", its verified text, its dispatches): the search's winners
    plus the cost model's distribution for every other mmt4d dispatch the timed functions run
    (search/estimated.py), plus the `shared` configs; None when there is none or none survives
    verification."""
    if not has_mmt4d(flagged):
        return None
    problems = spec_problems(flagged)
    wanted = {symbol for f in timed for symbol in calls.get(f, {})}
    if options.dispatches:
        wanted &= set(options.dispatches)
    defaults = flagged.default_configs()
    estimated = estimated_mmt4d_configs(problems, target, defaults, wanted - in_spec)
    if estimated:
        estimated.update(elementwise_configs(problems, defaults, wanted - in_spec))
    if not estimated:
        return None
    winners = {d.dispatch: d.best_config for d in result.dispatches if d.dispatch in in_spec}
    shared = shared or {}
    verified = build_verified(flagged, problems, {**shared, **winners, **estimated}, progress)
    kept = set(winners) | set(estimated) | set(shared)
    kept -= set(verified.dropped)
    if not verified.text or not kept - in_spec:
        return None
    return ("spec+estimates" if in_spec else "estimates"), verified.text, kept
