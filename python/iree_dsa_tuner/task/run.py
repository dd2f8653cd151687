"""Task-level tuning: a manifest's chunk on a target, tuned in Amdahl order until its budget is met.

1. Each stage model is compiled once (`ir.compile_model`; under the batch-1 conv route where
   the target takes it, as `tune` does); its root ops are re-typed to the manifest's
   quantisation scheme (w4a8: i8 activations x i4 weights -> i32, the INT4 block then a knob
   searched with the tiles) and timed with IREE's default schedule. Every other dispatch
   (elementwise, reductions, softmax, copies, dequantisations, refused ops) is costed by the
   target's streaming estimate, not dropped, and every one counts once per call the host
   program makes (`ir.host_program`).
2. Dispatches are tuned largest share of the chunk first (`search.search_problems`, one at
   a time) until the chunk meets its budget or what is left is under MIN_SHARE each. The
   search reaches the target through the pipeline's hooks (`pipeline.search_hooks`): every
   measurement, IREE's defaults included, goes through the tuning database `tune` uses (a
   re-run measures nothing already recorded), and a root op's twins in its stage (equal
   `twin_key`) share its search and are marked `twin_of` it.
3. Every tuned op gets an R7.4 decision (`decision.decide`) against its elite: the
   hand-written elite template measured by the search (docs/ELITE.md), or the cost
   model's roofline bound where no template rule applies.
4. The winners become one verified spec per stage (`pipeline.verify_winners`, `tune`'s own
   stage: a winner that fails is replaced by its next-best verified config, on the stage's own
   f32 model), stored in the library under a hash of what they are bound to
   (`library`), and reused while that binding holds.
"""

from __future__ import annotations

import json

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core.config import CompilationConfig
from ..core.problems import is_tunable, with_types
from ..core.words import plural
from ..ir.artifacts import compile_model, take_routes
from ..pipeline import search_hooks, verify_winners
from ..runners.base import RunnerOptions, as_config
from ..search.driver import SearchHooks, search_problems
from ..search.proposers import ScheduleMoves
from ..search.options import TuneOptions
from ..search.results import DispatchResult
from .decision import ESCALATE, decide
from ..tuning_spec.verify import check_build
from .l2 import L2_MODES, Playbook, l2_triggers, run_l2
from .stage_flags import StageBuild, try_flag_variants
from .library import SpecSet, find_spec_set, write_spec_set, write_times
from .manifest import Manifest
from .timeline import DispatchTime, Timeline, timeline

# Dispatches whose share of the chunk is below this are not worth a search of their own.
MIN_SHARE = 0.01


@dataclass
class _Op:
    """One root op of one stage: its problem as IREE sees it (f32) and as the target computes it."""

    stage: str
    problem: object  # RootOpProblem as discovered (the spec is written against it), or UntunableDispatch
    computed: object  # the same op in the scheme's types (what is timed and searched); None: not tunable
    calls: int = 1  # calls per run of the stage
    weight_bytes: int = 0  # per call
    default_us: float | None = None
    us: float | None = None
    config: CompilationConfig | None = None  # tuned config, when one beat the default
    bound_us: float | None = None
    how: str = "measured"
    traffic: object = None  # DispatchTraffic of one call (the streaming estimate's input)
    searched: bool = False  # searched, alone or as a twin of the op the search measured
    result: DispatchResult | None = None  # what the search found (None: it had no space for the op)

    @property
    def tunable(self) -> bool:
        return self.computed is not None


@dataclass
class TaskResult:
    manifest: Manifest
    target: str
    before: Timeline
    after: Timeline
    decisions: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    variants: list[dict] = field(default_factory=list)
    spec_set: SpecSet | None = None
    reused: bool = False
    seconds: float = 0.0
    quantization: dict = field(default_factory=dict)  # stage -> how its model was quantised (and its accuracy)
    l2: dict | None = None  # what the L2 tier did (task/l2.py), when it ran
    build_flags: dict = field(default_factory=dict)  # stage -> the iree-compile flags it is built with (L2's)
    on_hardware: bool = False  # the target's times are measured on a real machine (medians), not simulated

    def to_json(self) -> dict:
        out = self.after.to_json()
        out.update({
            "model": self.manifest.model_id, "version": self.manifest.version, "target": self.target,
            "scheme": self.manifest.scheme, "flow_steps": self.manifest.flow_steps,
            "before": self.before.to_json(), "decisions": self.decisions, "skipped": self.skipped,
            "spec_set": str(self.spec_set.directory) if self.spec_set else None, "reused_spec_set": self.reused,
            "seconds": round(self.seconds, 2),
        })
        if self.variants:
            out["variants"] = self.variants
        if self.quantization:
            out["quantization"] = self.quantization
        if self.l2 is not None:
            out["l2"] = self.l2
        if self.build_flags:
            out["build_flags"] = self.build_flags
        return out


def _quantization_record(manifest: Manifest, quantized: dict) -> dict:
    """Per stage: the real quantised model and its accuracy against f32, or why it is a what-if."""
    if manifest.scheme == "f32":
        return {}
    out = {}
    for name, q in quantized.items():
        if q == FLOAT_STAGE:
            out[name] = {"quantized": False, "reason": "no contraction multiplies by a weight (its convolutions are "
                                                       "not quantised): runs in f32, as exported"}
            continue
        if q is None:
            out[name] = {"quantized": False, "reason": "its weights are function arguments: root ops re-typed "
                                                       f"to {manifest.scheme} for the target (a what-if)"}
            continue
        forms: dict[str, int] = {}
        for site in q.sites:
            forms[site.form] = forms.get(site.form, 0) + 1
        worst = q.worst()
        out[name] = {"quantized": True, "mlir": str(q.mlir), "parameters": q.archives,
                     "accuracy": worst.to_json() if worst else None, "weight_bytes": q.weight_bytes,
                     "forms": dict(sorted(forms.items())),
                     "fell_back": [s.name for s in q.sites if s.reason.startswith("fell back")]}
    return out


def _stage_artifacts(mlir: Path, parameters, target, say, flags: tuple[str, ...] = ()):
    art = compile_model(mlir, target.compile_flags + tuple(flags))
    if flags:  # the numbers to match are the model's, not what the flags make of it
        art.reference_flags = target.compile_flags
    if target.always_routes_batch1_convs:
        art, _ = take_routes(art, say=say)
    art.parameters = parameters  # the weights its spec's numerics read (None: random from a seed)
    return art


def quantized_stage(manifest: Manifest, stage, say=None):
    """The stage's model quantised to the manifest's scheme (`quant.quantize_model`, cached), or
    None when the scheme is f32 or the stage's weights are function arguments (nothing to
    quantise offline: its root ops are then re-typed, a what-if)."""
    from ..errors import InputError
    from ..quant import quantize_model

    if manifest.scheme == "f32":
        return None
    try:
        return quantize_model(stage.mlir, manifest.quant_options(), parameters=stage.parameters,
                              weight_arguments=stage.weight_arguments, say=say)
    except InputError as e:
        if "nothing to quantise" not in str(e):
            raise InputError(f"{manifest.path}: stage {stage.name}: {e}") from None
        if _holds_weights(stage):  # e.g. only norms, or depthwise convs: real weights that stay f32
            return FLOAT_STAGE
        return None


# A stage whose model holds its weights but has no contraction or convolution to quantise (only
# norms and biases, depthwise convolutions): it runs in f32, as it is; not re-typed (that would
# describe a model nobody wrote).
FLOAT_STAGE = "f32"


def _holds_weights(stage) -> bool:
    from ..parameters import read_model_parameters

    try:
        return bool(read_model_parameters(stage.mlir))
    except Exception:  # unreadable: compiling it reports what is wrong
        return False


def _ops(manifest: Manifest, target, skipped: list[dict], say=None,
         quantized: dict | None = None) -> tuple[dict, list[_Op]]:
    artifacts, ops = {}, []
    quantized = {} if quantized is None else quantized
    for stage in manifest.stages:
        q = quantized.setdefault(stage.name, quantized_stage(manifest, stage, say))
        artifacts[stage.name], stage_ops = _stage_build(manifest, stage, q, target, skipped, say)
        ops += stage_ops
    return artifacts, ops


def _stage_build(manifest: Manifest, stage, q, target, skipped: list[dict], say,
                 flags: tuple[str, ...] = ()) -> tuple[object, list[_Op]]:
    """One stage compiled (its quantised model when `q` is one, with `flags` added to the
    target's) and its ops, every call of every dispatch."""
    lhs, rhs, out = manifest.types
    ops: list[_Op] = []
    art = _stage_artifacts(q.mlir, q.parameters(), target, say, flags) if q not in (None, FLOAT_STAGE) else \
        _stage_artifacts(stage.mlir, stage.parameters, target, say, flags)
    calls, traffic = art.calls(), art.traffic()
    for p in art.problems():
        n = calls.get(p.dispatch, 0)
        if n == 0:  # only in an initializer: it runs once when the model loads, not per chunk
            skipped.append({"stage": stage.name, "dispatch": p.dispatch,
                            "reason": "runs once at load (in an initializer), not per chunk"})
            continue
        t = traffic.get(p.dispatch)
        if q == FLOAT_STAGE:
            ops.append(_Op(stage.name, p, p if is_tunable(p) else None, n,
                           (t.read_bytes + t.written_bytes) if t is not None else 0, traffic=t))
        elif q is not None:
            # The real quantised model: its ops are what they are, and every byte a call moves
            # (weights as stored, scales, activations, outputs) counts toward the limit.
            moved = (t.read_bytes + t.written_bytes) if t is not None else 0
            ops.append(_Op(stage.name, p, p if is_tunable(p) else None, n, moved, traffic=t))
        elif is_tunable(p):
            computed = with_types(p, lhs, rhs, out)
            weights = computed.inputs[1].num_bytes if len(computed.inputs) > 1 else 0  # softmax: none
            ops.append(_Op(stage.name, p, computed, n, weights, traffic=t))
        else:
            ops.append(_Op(stage.name, p, None, n, art.constant_read_bytes(p.dispatch), traffic=t))
    return art, ops


def _binding(manifest: Manifest, ops: list[_Op]) -> dict:
    """Which shapes, scheme, flow and action steps a spec set is for (every call of every root op)."""
    shapes: dict[str, list[str]] = {}
    for o in ops:
        if not o.tunable:
            continue
        text = f"{o.problem.op_name} {'x'.join(map(str, o.problem.loop_sizes))} {o.problem.lhs_type}"
        shapes.setdefault(o.stage, []).append(text + (f" x{o.calls}" if o.calls > 1 else ""))
    return manifest.binding(shapes)


def manifest_binding(manifest: Manifest, target) -> dict:
    """The binding of `manifest` on `target` (its stage models compiled, nothing timed)."""
    return _binding(manifest, _ops(manifest, target, [])[1])


def _times(ops: list[_Op]) -> list[DispatchTime]:
    return [DispatchTime(o.stage, o.problem.dispatch, o.us or 0.0, o.weight_bytes,
                         o.problem.flops if o.tunable else 0, o.how, o.calls)
            for o in ops if o.us is not None]


def _estimate(op: _Op, target, why: str = "") -> str | None:
    """Cost `op` by the target's streaming estimate; the reason it could not be, or None."""
    if op.traffic is None:
        return "IREE's dispatch source has no bindings to read its traffic from"
    estimate = target.estimate_untunable(op.traffic)
    if estimate is None:
        return f"{target.name} has no estimate for dispatches without a tunable root op"
    op.default_us = op.us = estimate[0]
    op.how = estimate[1] + (f" ({why})" if why else "")
    return None


def _time_defaults(ops: list[_Op], hooks: dict, target, skipped: list[dict]) -> list[_Op]:
    """IREE's default schedule of each tunable op, timed on the target; every other dispatch
    costed by its streaming estimate. The ops that have a time (the others go to `skipped`)."""
    for o in ops:
        if o.tunable:
            m = hooks[o.stage].measure(o.computed, None)
            o.default_us = o.us = m.median_us if m.ok else None
            if o.us is not None:
                continue
            o.computed = None  # nothing to tune from: it is estimated like any other dispatch
            why = f"its default could not be timed: {m.reason or m.status}"
        else:
            why = ""
        problem = _estimate(o, target, why)
        if problem is not None:
            skipped.append({"stage": o.stage, "dispatch": o.problem.dispatch,
                            "reason": f"NOT COUNTED in the chunk: {why or getattr(o.problem, 'reason', '')}; "
                                      f"{problem}"})
    return [o for o in ops if o.us is not None]


class _StageBuilds:
    """run_task's stages as they are built: each stage's artifacts, ops, runner and hooks live in
    run_task's own dicts and list (the timeline reads them), and L2's compile-flag proposals
    (task/stage_flags.py) swap a stage's build in and out of them."""

    def __init__(self, manifest, target, options, db, make, quantized, artifacts, ops, runners, hooks, skipped,
                 say):
        self.manifest, self.target, self.options, self.db, self.make = manifest, target, options, db, make
        self.quantized, self.artifacts, self.ops, self.runners, self.hooks = quantized, artifacts, ops, runners, hooks
        self.skipped, self.say = skipped, say
        self.flags: dict[str, tuple[str, ...]] = {}  # stage -> the extra flags it is built with
        self.measurements = 0  # what L2's rebuilt stages were timed with, searches included

    def rebuild(self, stage_name: str, flags: tuple[str, ...]) -> StageBuild:
        stage = next(s for s in self.manifest.stages if s.name == stage_name)
        skipped: list[dict] = []
        art, ops = _stage_build(self.manifest, stage, self.quantized.get(stage_name), self.target, skipped,
                                self.say, flags)
        runner = self.make(art)
        hooks = search_hooks(art, self.target, self.options, runner, self.db)
        return StageBuild(stage_name, tuple(flags), art, _time_defaults(ops, {stage_name: hooks}, self.target, skipped),
                          runner, hooks, skipped)

    def install(self, build: StageBuild) -> StageBuild:
        """The stage runs `build` from now on; the build it ran until now is returned."""
        name = build.stage
        old = StageBuild(name, self.flags.get(name, ()), self.artifacts[name],
                         [o for o in self.ops if o.stage == name], self.runners[name], self.hooks[name],
                         [s for s in self.skipped if s["stage"] == name])
        at = next((i for i, o in enumerate(self.ops) if o.stage == name), len(self.ops))
        self.ops[:] = [o for o in self.ops if o.stage != name]
        self.ops[at:at] = build.ops
        self.skipped[:] = [s for s in self.skipped if s["stage"] != name] + build.skipped
        self.artifacts[name], self.runners[name], self.hooks[name] = build.artifacts, build.runner, build.hooks
        if build.flags:
            self.flags[name] = build.flags
        else:
            self.flags.pop(name, None)
        return old

    def retune(self, stage_name: str, make_timeline, l2: bool) -> list[dict]:
        """L1 on the stage's (new) ops, in the chunk's Amdahl order: the stage's decisions. Each
        timing the search and the defaults made counts in `measurements` (those the tuning
        database already held are not timed again and not counted)."""
        decisions = _tune_in_amdahl_order(self.ops, self.hooks, self.target, self.options, make_timeline,
                                          lambda line: self.say(f"  {line.strip()}"), l2)
        searched = {id(o.result): o.result for o in self.ops if o.stage == stage_name and o.result is not None}
        self.measurements += sum(r.measured for r in searched.values())
        return [d for d in decisions if d["stage"] == stage_name]


def run_task(manifest: Manifest, target, options: TuneOptions, *, budget_ms: float | None = None,
             library: Path | None = None, retune: bool = False, flow_steps: tuple[int, ...] = (),
             progress: Callable[[str], None] | None = None, runner_factory: Callable | None = None,
             tune: bool = True, db=None, l2: str = "off", proposers: list | None = None) -> TaskResult:
    """Time, tune and store one manifest's chunk on `target` (see the module's docstring).

    `runner_factory(artifacts)` replaces the target's runner (tests, recorded measurements);
    `tune=False` times IREE's defaults only (no search, nothing stored). `db`: the open
    `db.TuningDatabase` measurements go through (the caller owns it), or None (measure
    everything, record nothing). `l2` (task/l2.py): "auto" runs the L2 tier after L1 when
    R3.4's triggers fire, "on" always, "off" never; `proposers` are its proposers (default:
    the built-in schedule moves). Its playbook lives in the library (`<library>/<target>/playbook.json`).
    """
    if l2 not in L2_MODES:
        raise ValueError(f"unknown L2 mode {l2!r}; choose from {', '.join(L2_MODES)}")
    l2_report = None
    t0 = time.perf_counter()
    say = progress or (lambda text: None)
    desc = target.describe()
    skipped: list[dict] = []
    quantized: dict = {}
    artifacts, ops = _ops(manifest, target, skipped, say, quantized)
    make = runner_factory or (lambda art: target.make_runner(art, RunnerOptions(repetitions=options.repetitions,
                                                                                jobs=options.jobs)))
    runners = {name: make(art) for name, art in artifacts.items()}
    lhs, rhs, _ = manifest.types
    compute_type = desc.compute_type(lhs, rhs)

    def make_timeline() -> Timeline:
        return timeline(manifest, _times(ops), dram_bytes_per_s=desc.dram_bytes_per_s,
                        peak_ops_per_s=desc.peak_ops(compute_type), budget_ms=budget_ms)

    try:
        # Per stage (its artifacts' defaults and flags key its records). No calibration is loaded:
        # one fitted by an earlier run would change what the search measures, and the chunk's
        # figures must not depend on the database's history.
        hooks = {name: search_hooks(art, target, options, runners[name], db) for name, art in artifacts.items()}
        binding = _binding(manifest, ops)
        stored = find_spec_set(library, target.name, manifest, binding, retune=retune) if library and tune else None

        ops[:] = _time_defaults(ops, hooks, target, skipped)
        before = make_timeline()
        say(f"{manifest.model_id} on {target.name}: {before.chunk_ms:.2f} ms per chunk with IREE's defaults "
            f"(budget {before.budget_ms:g} ms, limit {before.limit_ms:.2f} ms, "
            f"{100 * before.coverage['modelled_share']:.0f}% of it from timed root ops)")

        builds = _StageBuilds(manifest, target, options, db, make, quantized, artifacts, ops, runners, hooks,
                              skipped, say)
        if not tune:
            decisions = []
        elif stored is not None:
            for stage, flags in sorted(stored.flags.items()):  # the set was tuned on these builds
                builds.install(builds.rebuild(stage, tuple(flags))).runner.close()
            _apply_stored(stored, ops, hooks)
            decisions = [{"dispatch": o.problem.dispatch, "stage": o.stage, "decision": "reuse",
                          "reason": f"spec set {stored.directory.name} matches this manifest"} for o in ops]
        else:
            decisions = _tune_in_amdahl_order(ops, hooks, target, options, make_timeline, say, l2 != "off")
            triggers = l2_triggers(decisions, make_timeline().meets_budget)
            if l2 == "on" or (l2 == "auto" and triggers):
                say(f"L2: {'; '.join(triggers) or 'asked for'}")
                book_path = library / target.name / "playbook.json" if library is not None else None
                book = Playbook.load(book_path)
                chunk_l1_ms, t_flags = make_timeline().chunk_ms, time.perf_counter()
                flag_rounds, redone = try_flag_variants(
                    [s.name for s in manifest.stages], builds.rebuild, builds.install,
                    lambda stage: builds.retune(stage, make_timeline, l2 != "off"), make_timeline,
                    lambda new, old: check_build(new, old), say)
                for stage, stage_decisions in redone.items():  # the stage's ops are the kept build's
                    decisions[:] = [d for d in decisions if d["stage"] != stage] + stage_decisions
                l2_report = run_l2(ops, hooks, target, decisions, make_timeline, proposers or [ScheduleMoves()],
                                   say, book)
                l2_report.builds, l2_report.chunk_before_ms = flag_rounds, chunk_l1_ms
                book.record(flag_rounds)
                l2_report.seconds += time.perf_counter() - t_flags
                l2_report.measurements += builds.measurements
                if book_path is not None:
                    book.write(book_path)
        written = tune and stored is None and library is not None
        if written:
            dropped: list[dict] = []
            stored = _store(library, target, manifest, binding, artifacts, ops, say, dropped, builds.flags)
            for drop in dropped:  # the decision stands corrected: its winner is not in the chunk
                for d in decisions:
                    if d["dispatch"] == drop["dispatch"] and d["stage"] == drop["stage"]:
                        if drop["outcome"] == "default":
                            d["decision"], d["reason"] = "dropped", f"{d['reason']}; verification: {drop['reason']}"
                        else:
                            d["reason"] += (f"; verification: {drop['reason']}; its next-best verified config "
                                            "replaces it")
        after = make_timeline()
        if written:
            write_times(stored, target.name, before.to_json(), after.to_json(),
                        [{"stage": o.stage, "dispatch": o.problem.dispatch, "calls": o.calls,
                          "default_us": o.default_us, "tuned_us": o.us} for o in ops if o.config is not None])
            if l2_report is not None:
                (stored.directory / "l2.json").write_text(json.dumps(l2_report.to_json(), indent=2) + "\n")
        reused = stored is not None and any(d["decision"] == "reuse" for d in decisions)
    finally:
        for runner in runners.values():
            runner.close()
    result = TaskResult(manifest, target.name, before, after, decisions, skipped, spec_set=stored, reused=reused,
                        quantization=_quantization_record(manifest, quantized),
                        l2=l2_report.to_json() if l2_report is not None else None,
                        build_flags={k: list(v) for k, v in sorted(builds.flags.items())},
                        on_hardware=bool(getattr(target, "measures_on_hardware", False)))
    for steps in flow_steps:
        variant = timeline(manifest.with_flow_steps(steps), _times(ops), dram_bytes_per_s=desc.dram_bytes_per_s,
                           peak_ops_per_s=desc.peak_ops(compute_type), budget_ms=budget_ms)
        result.variants.append({"flow_steps": steps, **variant.to_json()})
    result.seconds = time.perf_counter() - t0
    return result


def _search(op: _Op, ops: list[_Op], hooks: SearchHooks, target, options: TuneOptions) -> None:
    """Search `op` together with its twins in its stage (equal `hooks.twin_key`, as `tune`
    groups them): `op` is measured and each twin's result is marked `twin_of` it. A twin
    reached later in Amdahl order takes its result then, so the chunk changes in that order."""
    key = hooks.twin_key(op.computed)
    group = [op] + [o for o in ops if o is not op and o.stage == op.stage and o.tunable and not o.searched
                    and hooks.twin_key(o.computed) == key]
    outcome = search_problems([o.computed for o in group], target, hooks, options)
    found = {r.dispatch: r for r in outcome.dispatches}
    for o in group:
        o.searched, o.result = True, found.get(o.problem.dispatch)


def _tune_in_amdahl_order(ops: list[_Op], hooks: dict[str, SearchHooks], target, options: TuneOptions,
                          make_timeline: Callable[[], Timeline], say, l2: bool = True) -> list[dict]:
    decisions: list[dict] = []
    current = make_timeline()
    for entry in list(current.amdahl):
        current = make_timeline()
        op = next(o for o in ops if o.stage == entry["stage"] and o.problem.dispatch == entry["dispatch"])
        if not op.tunable:
            continue
        share = next(a["share"] for a in current.amdahl if a["dispatch"] == entry["dispatch"]
                     and a["stage"] == entry["stage"])
        if current.meets_budget:
            decisions.append({"dispatch": op.problem.dispatch, "stage": op.stage, "decision": "stop",
                              "reason": f"the chunk meets its budget ({current.chunk_ms:.2f} <= "
                                        f"{current.budget_ms:g} ms)"})
            break
        if share < MIN_SHARE:
            decisions.append({"dispatch": op.problem.dispatch, "stage": op.stage, "decision": "stop",
                              "reason": f"every remaining dispatch is under {MIN_SHARE:.0%} of the chunk"})
            break
        if not op.searched:
            say(f"  tuning {op.stage}/{op.problem.dispatch} ({share:.1%} of the chunk)")
            _search(op, ops, hooks[op.stage], target, options)
        result = op.result
        if result is None:
            decisions.append({"dispatch": op.problem.dispatch, "stage": op.stage, "decision": "skip",
                              "reason": "no space for this op on the target"})
            continue
        op.bound_us = result.bound_us
        if result.chosen == "tuned":
            op.us, op.config, op.how = result.best_us, result.best_config, "tuned"
        after_share = make_timeline()
        elite_us, elite = (result.elite_us, "template") if result.elite_us else (op.bound_us, "roofline bound")
        fraction = (elite_us / op.us) if elite_us and op.us else None
        d = decide(share, fraction, after_share.meets_budget)
        reason = d.reason
        if d.decision == ESCALATE:
            reason += "; escalated to L2" if l2 else "; L2 is off (--l2 off): kept as tuned"
        decisions.append({"dispatch": op.problem.dispatch, "stage": op.stage, "decision": d.decision,
                          "reason": f"{op.default_us:.1f} -> {op.us:.1f} us; {reason}", "elite": elite,
                          "elite_us": elite_us, "bound_us": op.bound_us,
                          **({"twin_of": result.twin_of} if result.twin_of else {})})
    return decisions


def _apply_stored(stored: SpecSet, ops: list[_Op], hooks: dict[str, SearchHooks]) -> None:
    """Time each op under the stored set's config: the set is reused, nothing is searched."""
    for o in ops:
        config = stored.configs.get(o.stage, {}).get(o.problem.dispatch)
        if config is None or not o.tunable:
            continue
        m = hooks[o.stage].measure(o.computed, as_config(config))  # stored as JSON; keyed as a config
        if m.ok and m.median_us < o.us:
            o.us, o.config, o.how = m.median_us, config, "tuned"


def _store(library: Path, target, manifest: Manifest, binding: dict, artifacts: dict, ops: list[_Op],
           say, dropped: list[dict], flags: dict) -> SpecSet:
    """The verified winners of every stage, written as a spec set. Verification is `tune`'s own
    stage (`pipeline.verify_winners`): a winner that fails is replaced by its next-best verified
    config, or goes back to IREE's default; either is appended to `dropped` with why."""
    specs, configs = {}, {}
    for stage in manifest.stages:
        stage_ops = [o for o in ops if o.stage == stage.name and o.config is not None]
        if not stage_ops:
            continue
        say(f"  verifying the {stage.name} spec ({plural(len(stage_ops), 'config')})")
        results = []
        for o in stage_ops:  # the winner the chunk holds (L2's, when it kept one), with the search's trials
            r = o.result or DispatchResult(o.problem.dispatch, "", default_us=o.default_us)
            r.chosen, r.best_config, r.best_us, r.verify_failure = "tuned", o.config, o.us, ""
            results.append(r)
        problems = [o.problem for o in ops if o.stage == stage.name and o.tunable]
        verified = verify_winners(artifacts[stage.name], problems, results, target,
                                  lambda line: say(f"  {line}"))
        for o, r in zip(stage_ops, results):
            if r.chosen != "tuned":
                o.config, o.us, o.how = None, o.default_us, "measured"
            elif r.best_config != o.config:
                o.config, o.us = r.best_config, r.best_us
            if r.verify_failure:
                outcome = "next-best" if r.chosen == "tuned" else "default"
                dropped.append({"stage": stage.name, "dispatch": o.problem.dispatch, "reason": r.verify_failure,
                                "outcome": outcome})
                say(f"  {'replaced' if outcome == 'next-best' else 'dropped'} {stage.name}/{o.problem.dispatch}: "
                    f"{r.note}")
        if verified.text:
            specs[stage.name] = verified.text
            configs[stage.name] = {o.problem.dispatch: o.config.to_json() for o in stage_ops if o.config is not None}
    return write_spec_set(library, target.name, manifest, binding, specs, configs, flags)


__all__ = ["MIN_SHARE", "TaskResult", "manifest_binding", "run_task"]
