"""The tune loop for one model: per dispatch, space -> funnel -> strategy -> runner -> best.

Then one spec for all winners, verified by `spec.verify`; a winner that fails
verification is dropped (the dispatch keeps IREE's default) with the reason in
the report. An unverified spec is never written.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..compiler import HOST_FLAGS, compile_to_phase
from ..ir.discovery import problems_from_sources, tunable
from ..ir.problems import RootOpProblem
from ..spec.builder import build_spec, matcher_key
from ..spec.config import CompilationConfig, ConfigError
from ..spec.reading import read_configured_dispatches
from ..spec.verify import verify_spec
from . import get_strategy
from .context import SearchContext, Trial


@dataclass
class DispatchResult:
    dispatch: str
    shape: str
    space_size: int = 0
    survivors: int = 0
    measured: int = 0
    cached: int = 0
    failed: int = 0
    default_us: float | None = None
    default_end_us: float | None = None
    best_us: float | None = None
    bound_us: float | None = None
    best_config: CompilationConfig | None = None
    chosen: str = "default"  # "tuned" | "default"
    note: str = ""
    fidelity: dict = field(default_factory=dict)
    seconds: float = 0.0
    trials: list[Trial] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        if self.default_us and self.best_us and self.chosen == "tuned":
            return self.default_us / self.best_us
        return 1.0 if self.default_us else None

    @property
    def drift(self) -> float | None:
        if self.default_us and self.default_end_us:
            return abs(self.default_end_us - self.default_us) / self.default_us
        return None

    def to_json(self) -> dict:
        return {
            "dispatch": self.dispatch, "shape": self.shape, "space_size": self.space_size,
            "survivors": self.survivors, "measured": self.measured, "cached": self.cached,
            "failed": self.failed, "default_us": self.default_us, "default_end_us": self.default_end_us,
            "drift": self.drift, "best_us": self.best_us if self.chosen == "tuned" else self.default_us,
            "speedup": self.speedup, "bound_us": self.bound_us,
            "roofline_fraction": (self.bound_us / (self.best_us if self.chosen == "tuned" else self.default_us))
            if self.bound_us and (self.best_us or self.default_us) else None,
            "chosen": self.chosen, "config": self.best_config.to_json() if self.best_config and self.chosen == "tuned" else None,
            "note": self.note, "fidelity": self.fidelity, "seconds": round(self.seconds, 2),
            "trials": [
                {"candidate": t.candidate.to_json(), "time_us": t.time_us, "estimate_us": t.estimate_us,
                 "source": t.source, "reason": t.reason} for t in self.trials
            ],
        }


def default_configs(model: Path, target_flags: tuple[str, ...] = HOST_FLAGS) -> dict[str, CompilationConfig]:
    """IREE's own choice per dispatch, read from its configured IR (the baseline)."""
    text = compile_to_phase(model, "executable-configurations", target_flags=target_flags)
    out = {}
    from iree.compiler import ir

    for c in read_configured_dispatches(text):
        if not c.lowering_config or not c.translation_info:
            continue
        try:
            out[c.symbol] = config_from_attrs(c.lowering_config, c.translation_info)
        except (ConfigError, ValueError):
            continue
    return out


def config_from_attrs(lowering_config: str, translation_info: str) -> CompilationConfig:
    """Parse `#iree_cpu.lowering_config<...>` + translation_info text into a CompilationConfig."""
    import re

    levels = {}
    for name in ("distribution", "vector_common_parallel", "vector_reduction"):
        m = re.search(name + r" = \[([^\]]*)\]", lowering_config)
        if not m:
            raise ConfigError(f"no {name} level in {lowering_config}")
        levels[name] = tuple(int(v) for v in m.group(1).split(",") if v.strip())
    p = re.search(r"#iree_cpu\.pipeline<(\w+)>", translation_info)
    if not p:
        raise ConfigError(f"no CPU pipeline in {translation_info}")
    knobs = tuple(sorted((k, int(v)) for k, v in re.findall(r"([\w.]+) = (\d+) : i64", translation_info)))
    return CompilationConfig(p.group(1), extra=knobs, **levels)


@dataclass
class TuneOptions:
    strategy: str = "pruned"
    budget: int = 16
    time_budget_s: float | None = None
    seed: int = 0
    jobs: int = 1
    strategy_options: dict = field(default_factory=dict)
    dispatches: tuple[str, ...] = ()  # only these symbols (all when empty)


@dataclass
class TuneReport:
    model: str
    target: str
    strategy: str
    dispatches: list[DispatchResult] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    spec_text: str = ""
    verified: bool = False
    verify_notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        tuned = [d for d in self.dispatches if d.default_us]
        total_default = sum(d.default_us for d in tuned)
        total_best = sum((d.best_us if d.chosen == "tuned" else d.default_us) for d in tuned)
        return {
            "model": self.model, "target": self.target, "strategy": self.strategy,
            "verified": self.verified, "verify_notes": self.verify_notes, "seconds": round(self.seconds, 2),
            "total_default_us": total_default, "total_best_us": total_best,
            "speedup": (total_default / total_best) if total_best else None,
            "dispatches": [d.to_json() for d in self.dispatches], "skipped": self.skipped,
        }


class _CostView:
    """The funnel's result seen as candidates: legal set, ranked survivors, estimates."""

    def __init__(self, problem, target, calibration: dict | None = None):
        from ..costmodel import run_funnel
        from ..costmodel.funnel import REASONS

        space = target.space(problem)
        self.funnel = run_funnel(space, target.describe(), dispatch=problem.dispatch)
        f = self.funnel
        total = f.estimate.total_s
        if calibration:
            e = f.estimate
            total = (calibration.get("compute", 1.0) * e.compute_s + calibration.get("memory", 1.0) * e.memory_s
                     + calibration.get("latency", 1.0) * e.latency_s + calibration.get("launch", 1.0) * e.launch_s
                     + calibration.get("offset_s", 0.0))
        self.total_s = total
        legal_codes = {i for i, (stage, _) in enumerate(REASONS) if stage == "legal"}
        import numpy as np

        legal_mask = ~np.isin(f.reason_code, list(legal_codes))
        self.legal_idx = np.flatnonzero(legal_mask)
        self.legal = [f.candidate(i) for i in self.legal_idx]
        self.index = {c: int(i) for c, i in zip(self.legal, self.legal_idx)}
        order = f.order[np.argsort(total[f.order], kind="stable")] if len(f.order) else f.order
        self.ranked = [f.candidate(i) for i in order]
        self.space_size = f.size
        self.bound_us = f.roofline.bound_seconds * 1e6

    def estimate_us(self, c) -> float:
        i = self.index.get(c)
        return float(self.total_s[i] * 1e6) if i is not None else float("inf")

    def terms(self, c) -> list[float]:
        e, i = self.funnel.estimate, self.index[c]
        return [float(e.compute_s[i]), float(e.memory_s[i]), float(e.latency_s[i]), float(e.launch_s[i])]


def _spearman(xs: list[float], ys: list[float]) -> float | None:
    import numpy as np

    if len(xs) < 3:
        return None
    rx = np.argsort(np.argsort(xs)).astype(float)
    ry = np.argsort(np.argsort(ys)).astype(float)
    if rx.std() == 0 or ry.std() == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])


def fidelity(trials: list[Trial]) -> dict:
    """How well the estimate ranked what was measured (R8.2): Spearman rho and top-5 recall."""
    ok = [t for t in trials if t.time_us is not None and t.estimate_us not in (None, float("inf"))]
    if not ok:
        return {}
    rho = _spearman([t.estimate_us for t in ok], [t.time_us for t in ok])
    best = min(ok, key=lambda t: t.time_us)
    top5 = sorted(ok, key=lambda t: t.estimate_us)[:5]
    return {"spearman": None if rho is None else round(rho, 3), "best_in_top5": best in top5, "n": len(ok)}


def fit_calibration(points: list[tuple[list[float], float]]) -> dict | None:
    """Non-negative weights of the estimate's terms that best explain measured times.

    Least squares in relative error (each row scaled by 1/measured), weights
    clipped at a small positive floor so no term is switched off entirely.
    """
    import numpy as np

    if len(points) < 6:
        return None
    a = np.array([p[0] + [1e-6] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    a_rel = a / y[:, None]
    w, *_ = np.linalg.lstsq(a_rel, np.ones(len(y)), rcond=None)
    w = np.maximum(w, 1e-3)
    return {"compute": float(w[0]), "memory": float(w[1]), "latency": float(w[2]), "launch": float(w[3]),
            "offset_s": float(w[4] * 1e-6), "points": len(points)}


# A tuned config must beat the default by this much to replace it (noise guard).
WIN_MARGIN = 0.01


def _log(progress: Callable[[str], None] | None, text: str) -> None:
    if progress is not None:
        progress(text)


def tune_model(model, target, runner, db, options: TuneOptions, *, target_fp: str,
               progress: Callable[[str], None] | None = None, verify: bool = True) -> TuneReport:
    from ..db.fingerprint import candidate_key, dispatch_fingerprint
    from ..ir import load_problems
    from ..runners.measurement import Measurement

    t_start = time.perf_counter()
    model = Path(model)
    report = TuneReport(str(model), target.name, options.strategy)
    problems = load_problems(model)
    strategy = get_strategy(options.strategy)
    calibration = db.load_calibration(target_fp) if db is not None else None
    calibration_points: list[tuple[list[float], float]] = []
    seen_fps: dict[tuple, DispatchResult] = {}

    def timed(problem, config, estimate_us=None) -> Measurement:
        dfp = dispatch_fingerprint(problem)
        key = candidate_key(config.to_json() if config is not None else None)
        cached = db.lookup(dfp, target_fp, key) if db is not None else None
        if cached is not None:
            cached.details = {"cached": True}
            return cached
        m = runner.measure(problem, config)
        m.dispatch = problem.dispatch
        if db is not None:
            db.record_measurement(dfp, target_fp, m, candidate=config.to_json() if config is not None else None,
                                  estimate_us=estimate_us)
        return m

    runnable = [p for p in problems if isinstance(p, RootOpProblem)]
    for n, problem in enumerate(problems, start=1):
        if options.dispatches and problem.dispatch not in options.dispatches:
            continue
        if problem not in runnable or problem.kind not in ("contraction", "convolution"):
            report.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind,
                                   "reason": getattr(problem, "reason", "") or f"{problem.kind} ops are not tuned yet"})
            continue
        t0 = time.perf_counter()
        shape = "x".join(str(s) for s in problem.loop_sizes)
        result = DispatchResult(problem.dispatch, f"{problem.op_name} {shape} {problem.lhs_type}")
        # One matcher cannot tell apart root ops with equal types, maps and sizes,
        # so such dispatches share the first one's answer.
        fp = matcher_key(problem)
        if fp in seen_fps:
            twin = seen_fps[fp]
            result.__dict__.update({k: v for k, v in twin.__dict__.items() if k not in ("dispatch", "trials")})
            result.note = f"same root op as {twin.dispatch}"
            report.dispatches.append(result)
            continue
        try:
            view = _CostView(problem, target, calibration)
        except Exception as e:  # a space the target cannot describe: skip this dispatch only
            report.skipped.append({"dispatch": problem.dispatch, "kind": problem.kind, "reason": f"no space: {e}"})
            continue
        result.space_size, result.survivors, result.bound_us = view.space_size, len(view.ranked), view.bound_us
        _log(progress, f"[{n}/{len(problems)}] {problem.dispatch}: space {view.space_size}, "
                       f"{len(view.ranked)} survive the funnel; measuring the default")
        base = timed(problem, None)
        result.default_us = base.median_us if base.ok else None
        deadline = (time.perf_counter() + options.time_budget_s) if options.time_budget_s else None

        def measure_batch(cands):
            out = []
            for c in cands:
                if deadline is not None and time.perf_counter() > deadline:
                    out.append((None, "time budget exhausted"))
                    continue
                try:
                    config = target.to_config(problem, c)
                except (ConfigError, ValueError) as e:
                    out.append((None, f"illegal: {e}"))
                    continue
                m = timed(problem, config, view.estimate_us(c))
                if m.details.get("cached"):
                    result.cached += 1
                else:
                    result.measured += 1
                if m.ok:
                    calibration_points.append((view.terms(c), m.median_us * 1e-6))
                    out.append((m.median_us, ""))
                else:
                    result.failed += 1
                    out.append((None, f"{m.status}: {m.reason}"))
            best = min((t for t, _ in out if t is not None), default=None)
            _log(progress, f"    measured {len(ctx.trials) + len(cands)}/{options.budget}"
                           + (f", batch best {best:.1f} us" if best is not None else ""))
            return out

        ctx = SearchContext(view.legal, view.ranked, view.estimate_us, measure_batch, options.budget, seed=options.seed)
        strategy.tune(ctx, options.strategy_options)
        result.trials = ctx.trials
        result.fidelity = fidelity(ctx.trials)
        best = ctx.best()
        end = runner.measure(problem, None) if getattr(runner, "measures_drift", False) else None
        if end is not None and end.ok:
            result.default_end_us = end.median_us
        if best is not None:
            result.best_us = best.time_us
            result.best_config = target.to_config(problem, best.candidate)
        if best is not None and (result.default_us is None or best.time_us < (1 - WIN_MARGIN) * result.default_us):
            result.chosen = "tuned"
        else:
            result.note = result.note or ("IREE's default is as fast as anything measured; kept"
                                          if best is not None else "no candidate measured successfully")
        if result.drift is not None and result.drift > 0.10:
            result.note += f" default drifted {result.drift:.0%} during the run (noisy machine)"
        result.seconds = time.perf_counter() - t0
        seen_fps[fp] = result
        report.dispatches.append(result)
        _log(progress, f"    -> {result.chosen}: default {result.default_us or float('nan'):.1f} us, "
                       f"best {result.best_us or float('nan'):.1f} us")

    if db is not None:
        fitted = fit_calibration(calibration_points)
        if fitted:
            db.save_calibration(target_fp, fitted)

    if verify:
        _verify_and_fall_back(model, problems, report, progress)
    report.seconds = time.perf_counter() - t_start
    return report


def _verify_and_fall_back(model: Path, problems, report: TuneReport, progress) -> None:
    """Keep only winners IREE applies with matching numerics; the rest fall back to default."""
    import tempfile

    by_symbol = {p.dispatch: p for p in problems}
    while True:
        winners = {d.dispatch: d.best_config for d in report.dispatches if d.chosen == "tuned"}
        if not winners:
            report.spec_text, report.verified = "", True
            return
        text = build_spec([by_symbol[s] for s in winners], winners)
        with tempfile.TemporaryDirectory(prefix="iree-dsa-tune-") as tmp:
            spec = Path(tmp) / "spec.mlir"
            spec.write_text(text)
            _log(progress, f"verifying the spec ({len(winners)} configs) with iree-compile and iree.runtime")
            verdict = verify_spec(model, spec)
        bad = {v.dispatch for v in verdict.ops if v.status != "applied"}
        if verdict.numerics and not all(n.ok for n in verdict.numerics):
            bad |= set(winners)  # a whole-function mismatch cannot be pinned on one op
        if not bad and not verdict.compile_error:
            report.spec_text, report.verified = text, True
            return
        if not bad & set(winners):
            bad = set(winners)  # cannot tell which op broke the compile: drop them all
        for d in report.dispatches:
            if d.dispatch in bad and d.chosen == "tuned":
                why = next((v.reason for v in verdict.ops if v.dispatch == d.dispatch), "numerics mismatch")
                d.chosen, d.note = "default", f"tuned config failed verification ({why}); fell back to default"
                report.verify_notes.append(f"{d.dispatch}: {d.note}")
