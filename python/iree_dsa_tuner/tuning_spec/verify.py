"""Prove a tuning spec does what it says: applied in IREE's configured IR, same numerics.

IREE 3.13 ignores a spec that does not match without a word (see docs/IREE_NOTES),
so "iree-compile accepted it" proves nothing. `verify_spec` compiles the model
with the spec, reads every configured dispatch, and compares the root op's
lowering_config and the function's translation_info with what the spec's
matcher attaches. Then it runs the compiled module on seeded random inputs
and compares with a float64 numpy evaluation of the model's linalg form
(`reference.py`). Where that cannot evaluate a function, each dispatch the
spec configures is checked alone: its root op compiled with the spec against
a numpy model of that root op (`dispatch_alone.py`). IREE's default build is
never the reference: its default config can be what computes wrong results.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import compile_to_vmfb, tuning_spec_flags
from ..flags import HOST_FLAGS
from ..errors import CompileError, InputError
from ..core.config import CompilationConfig
from ..core.problems import RootOpProblem
from ..core.status import NumericsVerdict, Status
from ..core.words import plural
from ..ir.artifacts import ModelArtifacts, compile_model, spec_problems
from .builder import SpecError, build_spec
from .numerics import NumericsResult, compare_modules
from ..ir.configured import read_configured_dispatches
from .reading import SpecMatcher, canonical_attr, matcher_for_dispatch, read_spec



@dataclass
class OpVerdict:
    dispatch: str
    matcher: str
    status: str
    reason: str = ""
    expected_lowering_config: str = ""
    actual_lowering_config: str | None = None

    def to_json(self) -> dict:
        return {
            "dispatch": self.dispatch,
            "matcher": self.matcher,
            "status": self.status,
            "reason": self.reason,
            "expected_lowering_config": self.expected_lowering_config,
            "actual_lowering_config": self.actual_lowering_config,
        }


@dataclass
class VerifyReport:
    model: str
    spec: str
    ops: list[OpVerdict] = field(default_factory=list)
    numerics: list[NumericsResult] = field(default_factory=list)
    compile_error: str = ""
    numerics_checked: bool = True
    parameters: dict | None = None  # what the numerics ran with (`Parameters.to_record`); None: no weights
    parameters_text: str = ""  # the same, as the line the output prints

    @property
    def numerics_mismatch(self) -> bool:
        return any(n.checked and not n.ok for n in self.numerics)

    @property
    def ok(self) -> bool:
        """Every matcher applied, and no compared output differs (or numerics were not asked for).

        A function with nothing to compare is "not checked", never a match: with
        numerics asked for, at least one output must have been compared.
        """
        compared = any(n.checked for n in self.numerics)
        return (
            not self.compile_error
            and (bool(self.ops) or not self.spec)
            and all(v.status == Status.APPLIED for v in self.ops)
            and (not self.numerics_checked or (compared and not self.numerics_mismatch))
        )

    def to_json(self) -> dict:
        return {
            "model": self.model,
            "spec": self.spec,
            "ok": self.ok,
            "compile_error": self.compile_error,
            "ops": [v.to_json() for v in self.ops],
            "numerics": [n.to_json() for n in self.numerics],
            "parameters": self.parameters,
        }


def _dims_match(matcher: SpecMatcher, problem: RootOpProblem) -> bool:
    sizes = problem.sizes()
    groups = ("batch", "m", "n", "k") if matcher.kind == "contraction" else tuple(sizes)
    expected = tuple(tuple(sizes[g]) for g in groups if g in sizes)
    return matcher.dims[: len(expected)] == expected


def _same_types(matcher: SpecMatcher, problem: RootOpProblem) -> bool:
    if matcher.operand_types:  # an inner_tiled matcher checks whole operand types
        return matcher.operand_types == tuple(o.type_str for o in (*problem.inputs, problem.output))
    return matcher.element_types == (problem.lhs_type, problem.rhs_type, problem.out_type) and (
        not matcher.indexing_maps or matcher.indexing_maps == problem.indexing_maps)


def _targets(matchers: list[SpecMatcher], problems: list[RootOpProblem]) -> list[tuple[SpecMatcher, str]]:
    """(matcher, dispatch it was written for): by name first, else by what it checks."""
    pairs = []
    for problem in problems:
        m = matcher_for_dispatch(matchers, problem.dispatch)
        if m is not None:
            pairs.append((m, problem.dispatch))
    named = {m.name for m, _ in pairs}
    covered = {d for _, d in pairs}
    # A matcher also fires on every other dispatch with an identical root op: check those too.
    for problem in problems:
        if problem.dispatch in covered:
            continue
        for m, _ in list(pairs):
            if m.kind == problem.kind and _dims_match(m, problem) and _same_types(m, problem):
                pairs.append((m, problem.dispatch))
                break
    for m in matchers:
        if m.name in named:
            continue
        hits = [p.dispatch for p in problems if isinstance(p, RootOpProblem) and m.kind == p.kind and _dims_match(m, p)]
        if hits:
            pairs.extend((m, h) for h in hits)
        else:
            pairs.append((m, ""))
    order = {p.dispatch: i for i, p in enumerate(problems)}
    return sorted(pairs, key=lambda pair: order.get(pair[1], len(order)))


def _buffer_view_types(evaluator, func, seen=()) -> tuple[list[str | None], list[str | None]]:
    """Tensor types behind a function's `!hal.buffer_view` arguments and results.

    Torch exports wrap the model in ABI functions taking buffer views; the
    tensor types sit on the `hal.tensor.import` / `export` ops, here or in the
    `$async` function the wrapper calls.
    """
    from iree.compiler import ir

    from ..ir.mlir_walk import _walk

    block = func.regions[0].blocks[0]
    args = list(block.arguments)
    arg_types: list[str | None] = [str(a.type) if str(a.type).startswith("tensor<") else None for a in args]
    result_types: list[str | None] = []
    exports = {}
    for op in _walk(func):
        if op.name == "hal.tensor.import":
            source = op.operands[0]  # the buffer view; a wait fence may follow
            if source in args:
                arg_types[args.index(source)] = str(op.results[0].type)
        elif op.name == "hal.tensor.export":
            exports[op.results[0]] = str(op.operands[0].type)
        elif op.name == "util.call":
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            if callee in evaluator.functions and callee not in seen:
                inner_args, inner_results = _buffer_view_types(evaluator, evaluator.functions[callee], seen + (callee,))
                for position, value in enumerate(op.operands):
                    if value in args and position < len(inner_args) and inner_args[position]:
                        arg_types[args.index(value)] = inner_args[position]
                for r, t in zip(op.results, inner_results):
                    if t:
                        exports[r] = t
        elif op.name in ("util.return", "func.return") and op.parent == func:
            result_types = [exports.get(v, str(v.type)) for v in op.operands]
    return arg_types, result_types


def _function_signatures(artifacts, parameters=None):
    """Public functions with static tensor arguments, from IREE's input form of the model.

    The input form (torch and ONNX lowered to linalg) is also what the numpy
    reference evaluates (its parameter globals read from `parameters`' archives).
    Functions taking fences (torch's `$async` variants) are left out: their sync
    twin covers them.
    """
    from .reference import NumpyModel

    evaluator = NumpyModel(artifacts.generic_input_text(), parameters)
    signatures, outputs = public_signatures(evaluator)
    return signatures, outputs, evaluator


def public_signatures(evaluator) -> tuple[dict, dict]:
    """{function: [(shape, element)] of its arguments}, {function: [element] of its results}:
    the public functions of a `NumpyModel` whose arguments are all static tensors."""
    from .reference import _element

    signatures, outputs = {}, {}
    for name in evaluator.public_names():
        arg_types, result_types = _buffer_view_types(evaluator, evaluator.functions[name])
        if any(t is None or not t.startswith("tensor<") or "?" in t for t in arg_types):
            continue
        signatures[name] = [(tuple(int(d) for d in t[7:-1].split("x")[:-1]), _element(t)) for t in arg_types]
        outputs[name] = [_element(t) for t in result_types if t and t.startswith("tensor<")]
    return signatures, outputs


def verify_spec(
    model: str | os.PathLike,
    spec: str | os.PathLike,
    *,
    target_flags: tuple[str, ...] = HOST_FLAGS,
    check_numerics: bool = True,
    seed: int = 0,
    timeout_s: float = 120.0,
    artifacts: ModelArtifacts | None = None,
    extra_flags: tuple[str, ...] = (),
    parameters=None,
    built: tuple[Path, Path] | None = None,
) -> VerifyReport:
    """Compile `model` with `spec`: is every matcher's config applied, and do the numerics match?

    `artifacts` is the model compiled once (`ir.compile_model`); given, its dispatch
    IR and numpy reference input are reused instead of compiled again.
    `extra_flags` are whole-model flags the build under test adds (a recipe's); with
    `spec` None only the numerics of that build are checked.
    `parameters` (`parameters.Parameters`): the archives the model's parameter globals are
    read from, by the module and the numpy reference alike; default: the artifacts' own, else
    random ones from `seed` when the model reads any (`parameters.resolve_parameters`).
    `built`: (vmfb, executable-configurations dump directory) of this very build, made by the
    caller (the same model, flags and spec): read instead of compiling again.
    """
    if artifacts is None:
        artifacts = compile_model(model, target_flags)
    model, target_flags = artifacts.model, artifacts.target_flags
    matchers = read_spec(spec) if spec is not None else []
    report = VerifyReport(str(model), str(spec) if spec is not None else "", numerics_checked=check_numerics)
    if spec is not None and not matchers:
        raise InputError(f"{spec}: the spec has no matchers, so it configures nothing")
    pairs = _targets(matchers, spec_problems(artifacts))

    with tempfile.TemporaryDirectory(prefix="iree-dsa-verify-") as tmp:
        tuned_vmfb, config_dir = built if built is not None else (Path(tmp) / "tuned.vmfb", Path(tmp) / "configs")
        try:
            if built is None:
                compile_to_vmfb(
                    model, tuned_vmfb, target_flags=target_flags, timeout_s=timeout_s,
                    extra_flags=(*extra_flags, *(tuning_spec_flags(spec) if spec is not None else ()),
                                 f"--iree-hal-dump-executable-configurations-to={config_dir}"),
                )
        except CompileError as e:
            report.compile_error = str(e)
            report.ops = [OpVerdict(d or "?", m.name, Status.FAILED, str(e), m.lowering_config) for m, d in pairs]
            return report

        configured = {}
        for f in sorted(config_dir.glob("*.mlir")):
            for c in read_configured_dispatches(f.read_text()):
                configured[c.symbol] = c
        for m, dispatch in pairs:
            report.ops.append(_op_verdict(m, dispatch, configured))

        if check_numerics:
            weights = model_parameters(artifacts, parameters, seed)
            if weights is not None:
                report.parameters, report.parameters_text = weights.to_record(), weights.describe()
            signatures, outputs, reference = _function_signatures(artifacts, weights)
            asserting = frozenset(name for name, func in reference.functions.items() if "check.expect" in str(func))
            report.numerics = compare_modules(tuned_vmfb, signatures, outputs, numpy_reference=reference,
                                              seed=seed, asserting=asserting, parameters=weights)
            if spec is not None and any(n.checked and not n.ok for n in report.numerics):
                _excuse_iree_default_errors(report.numerics, artifacts, extra_flags, weights, seed, timeout_s,
                                            (signatures, outputs, reference, asserting))
            if any(n.unevaluable for n in report.numerics):
                alone = _check_alone(artifacts, spec, pairs, report.ops, extra_flags, seed, timeout_s)
                if any(n.checked for n in alone):
                    for n in report.numerics:
                        if n.unevaluable:
                            whole = ("numpy cannot judge the spec on it as a whole" if n.output >= 0 else
                                     "the numpy reference cannot evaluate it as a whole")
                            n.detail = f"{whole} ({n.unevaluable}); its tuned dispatches were checked alone against numpy"
                report.numerics.extend(alone)
    return report


# A function whose tuned build is off by more than this many times IREE's default build's
# own error (plus the tolerance) is wrong because of the spec, whatever the default does.
SPEC_ERROR_MARGIN = 2.0


def _default_numerics(artifacts: ModelArtifacts, extra_flags, weights, seed: int, timeout_s: float,
                      reference, strict: bool = False) -> dict:
    """IREE's own build of the model (no spec; the build's `extra_flags`) against numpy, per
    (function, output), made once per artifacts, flags, archives and seed. A build that does
    not compile has no results (`strict`: its CompileError is raised instead)."""
    cache = artifacts.__dict__.setdefault("_default_numerics", {})
    key = (tuple(extra_flags), id(weights), seed)
    if key not in cache:
        signatures, outputs, numpy_reference, asserting = reference
        with tempfile.TemporaryDirectory(prefix="iree-dsa-default-") as tmp:
            vmfb = Path(tmp) / "default.vmfb"
            try:
                compile_to_vmfb(artifacts.model, vmfb, target_flags=artifacts.target_flags, timeout_s=timeout_s,
                                extra_flags=tuple(extra_flags))
                results = compare_modules(vmfb, signatures, outputs, numpy_reference=numpy_reference, seed=seed,
                                          asserting=asserting, parameters=weights)
            except CompileError:
                if strict:
                    raise
                results = []
        cache[key] = (weights, {(n.function, n.output): n for n in results})  # weights: keeps id() unique
    return cache[key][1]


def _excuse_iree_default_errors(numerics: list[NumericsResult], artifacts: ModelArtifacts, extra_flags, weights,
                                seed: int, timeout_s: float, reference) -> None:
    """A function off in the tuned build may be off in IREE's own build as well (IREE 3.13's CPU
    attention with a 256-wide head split along it, a model that quantises at run time and
    rounds a code differently from float64): then numpy cannot judge the spec on that function.
    Each such result becomes `unevaluable`, so the spec's dispatches are checked alone; one
    off by more than SPEC_ERROR_MARGIN x the default's error stays wrong."""
    default = _default_numerics(artifacts, extra_flags, weights, seed, timeout_s, reference)
    for n in numerics:
        d = default.get((n.function, n.output))
        if not n.checked or n.ok or d is None or not d.checked or d.ok:
            continue
        if n.max_error <= SPEC_ERROR_MARGIN * d.max_error + n.tolerance:
            n.unevaluable = (f"IREE's build without the spec is off by {d.max_error:.3g} too, "
                             f"the tuned one by {n.max_error:.3g}")
            n.checked, n.detail = False, f"numpy cannot judge the spec on it as a whole ({n.unevaluable})"


def model_parameters(artifacts: ModelArtifacts, parameters=None, seed: int = 0):
    """The archives a run of `artifacts`' model reads: `parameters`, else those the artifacts
    carry (a command's --parameters), else random ones from `seed` (None: it reads none)."""
    from ..parameters import resolve_parameters

    if parameters is not None:
        return parameters
    if artifacts.parameters is not None:
        return artifacts.parameters
    return resolve_parameters(artifacts.model, seed=seed)


def _check_alone(artifacts: ModelArtifacts, spec, pairs, verdicts: list[OpVerdict], extra_flags, seed: int,
                 timeout_s: float) -> list[NumericsResult]:
    """The spec's applied configs, one dispatch per matcher, each checked alone against numpy."""
    from .dispatch_alone import DispatchCheck, check_dispatches_alone

    applied = {v.dispatch for v in verdicts if v.status == Status.APPLIED}
    checks, seen = [], set()
    for m, dispatch in pairs:
        if dispatch not in applied or m.name in seen or dispatch not in artifacts.source_files:
            continue
        seen.add(m.name)
        checks.append(DispatchCheck(dispatch, artifacts.source_files[dispatch], canonical_attr(m.lowering_config),
                                    canonical_attr(m.translation_info) if m.translation_info else ""))
    if not checks:
        why = ("the spec configures no dispatch it applies to" if spec is not None
               else "no spec: the build's dispatches are IREE's own, and IREE's default build is no reference")
        return [NumericsResult.not_checked("-", f"no dispatch to check alone ({why})")]
    return check_dispatches_alone(checks, str(spec), artifacts.target_flags, extra_flags, seed=seed,
                                  timeout_s=timeout_s)


def _op_verdict(m: SpecMatcher, dispatch: str, configured: dict) -> OpVerdict:
    expected_lc = canonical_attr(m.lowering_config) if m.lowering_config else ""
    expected_ti = canonical_attr(m.translation_info) if m.translation_info else ""
    if not dispatch:
        return OpVerdict("", m.name, Status.NOT_APPLIED, "the matcher matches no dispatch of this model", expected_lc)
    got = configured.get(dispatch)
    if got is None:
        return OpVerdict(dispatch, m.name, Status.FAILED, "dispatch missing from IREE's configured output", expected_lc)
    if got.lowering_config == expected_lc and got.translation_info == expected_ti:
        return OpVerdict(dispatch, m.name, Status.APPLIED, "", expected_lc, got.lowering_config)
    why = "IREE kept its default config (the matcher did not match the root op)"
    if got.lowering_config == expected_lc:
        why = f"translation_info differs: got {got.translation_info}"
    return OpVerdict(dispatch, m.name, Status.NOT_APPLIED, why, expected_lc, got.lowering_config)


def check_config(artifacts: ModelArtifacts, problem, config: CompilationConfig) -> NumericsVerdict:
    """One config alone in a spec: applied by IREE, and the model's numerics unchanged?

    Gate (c) of the L2 proposer: a proposal must pass it before it may win.
    """
    try:
        text = build_spec([problem], {problem.dispatch: config})
    except Exception as e:  # a config the spec builder refuses never reaches IREE
        return NumericsVerdict(Status.NOT_APPLIED, f"spec: {e}")
    with tempfile.TemporaryDirectory(prefix="iree-dsa-proposal-") as tmp:
        spec = Path(tmp) / "proposal.mlir"
        spec.write_text(text)
        try:
            report = verify_spec(artifacts.model, spec, artifacts=artifacts)
        except CompileError as e:
            return NumericsVerdict(Status.NOT_APPLIED, f"compile: {str(e).splitlines()[0] if str(e) else e}")
    if report.compile_error:
        return NumericsVerdict(Status.NOT_APPLIED, f"compile: {report.compile_error.splitlines()[0]}")
    mine = [v for v in report.ops if v.dispatch == problem.dispatch]
    if not mine or any(v.status != Status.APPLIED for v in mine):
        return NumericsVerdict(Status.NOT_APPLIED, mine[0].reason if mine else "no verdict for this dispatch")
    bad = [n for n in report.numerics if n.checked and not n.ok]
    if bad:
        return NumericsVerdict(Status.WRONG_NUMERICS, bad[0].describe())
    if not any(n.checked for n in report.numerics):
        why = "; ".join(n.describe() for n in report.numerics[:2]) or "the model has no function to run"
        return NumericsVerdict(Status.WRONG_NUMERICS, f"no output was compared: {why}")
    return NumericsVerdict(Status.VERIFIED)


def check_build(flagged: ModelArtifacts, base: ModelArtifacts, seed: int = 0,
                timeout_s: float = 120.0) -> NumericsVerdict:
    """Does the model built with other flags (`flagged`: its target flags hold them) compute
    what the model does? Its outputs against the numpy reference, each function; where it is
    off, IREE's build without those flags (`base`) is the witness, as for a spec: a function
    both builds get about as wrong (SPEC_ERROR_MARGIN) says nothing of the flags. Gate of
    L2's compile-flag proposals (task/stage_flags.py)."""
    weights = model_parameters(base, None, seed)
    signatures, outputs, reference = _function_signatures(base, weights)  # the model as written
    asserting = frozenset(name for name, func in reference.functions.items() if "check.expect" in str(func))
    judged = (signatures, outputs, reference, asserting)
    try:
        mine = _default_numerics(flagged, (), weights, seed, timeout_s, judged, strict=True)
    except CompileError as e:
        return NumericsVerdict(Status.NOT_APPLIED, f"compile: {(str(e).splitlines() or ['?'])[0]}")
    results = list(mine.values())
    wrong = [n for n in results if n.checked and not n.ok]
    if wrong:
        witness = _default_numerics(base, (), weights, seed, timeout_s, judged)
        for n in list(wrong):
            d = witness.get((n.function, n.output))
            if d is not None and d.checked and not d.ok and n.max_error <= SPEC_ERROR_MARGIN * d.max_error + n.tolerance:
                wrong.remove(n)
        if wrong:
            return NumericsVerdict(Status.WRONG_NUMERICS, wrong[0].describe())
        return NumericsVerdict(Status.VERIFIED)
    if not any(n.checked for n in results):
        why = "; ".join(n.describe() for n in results[:2]) or "the model has no function to run"
        return NumericsVerdict(Status.WRONG_NUMERICS, f"no output was compared: {why}")
    return NumericsVerdict(Status.VERIFIED)


def failure_reasons(report: VerifyReport, dispatches) -> dict[str, str]:
    """Why each of `dispatches` fails `report`, never empty (those that do not fail are left out).

    A dispatch fails when its config was not applied, when its root op checked alone
    differs from numpy (that blames it and the dispatches sharing its matcher), or when a
    whole function differs (that blames every dispatch: which one broke it is unknown).
    """
    matcher_of = {v.dispatch: v.matcher for v in report.ops}
    reasons: dict[str, str] = {}
    for v in report.ops:
        if v.dispatch in dispatches and v.status != Status.APPLIED:
            reasons[v.dispatch] = v.reason or f"{v.status} (IREE's configured dump does not show the config)"
    for n in report.numerics:
        if not n.checked or n.ok:
            continue
        if n.dispatch:
            blamed = {d for d in dispatches if d == n.dispatch or
                      (matcher_of.get(d) and matcher_of.get(d) == matcher_of.get(n.dispatch))}
        else:
            blamed = set(dispatches)
        for d in blamed:
            reasons.setdefault(d, f"numerics: {n.describe()}")
    if report.compile_error:
        for d in dispatches:
            reasons.setdefault(d, f"compile: {report.compile_error.splitlines()[0]}")
    return reasons


@dataclass
class VerifiedSpec:
    text: str  # "" when nothing survived
    dropped: dict[str, str]  # dispatch -> why its winner was left out
    report: VerifyReport | None  # the last verification (None: nothing to verify)


def build_verified(artifacts: ModelArtifacts, problems, winners: dict[str, CompilationConfig],
                   progress=None, built: tuple[str, Path, Path] | None = None) -> VerifiedSpec:
    """One spec for `winners` that IREE applies with matching numerics.

    A winner IREE does not apply is dropped and the rest verified again; a numerics
    mismatch of the whole function cannot be pinned on one op, so it drops them all,
    as does a compile error that names none; a dispatch checked alone that differs from
    numpy drops only itself (and its twins). Outputs that could not be compared are
    reported in `report.numerics` as not checked; they drop nothing. Every dropped
    winner's reason says what failed (`failure_reasons`).
    `built`: (spec text, vmfb, configurations dump) of a build of `artifacts` the caller made
    with a spec: verifying that very text reads them instead of building the model again.
    """
    winners = dict(winners)
    unknown = set(winners) - {p.dispatch for p in problems}
    if unknown:
        raise KeyError(f"no root op for {', '.join(sorted(unknown))} among the problems")
    dropped: dict[str, str] = {}
    # A winner no matcher can express (e.g. a masked attention) is dropped before anything is built.
    by_dispatch = {p.dispatch: p for p in problems}
    for symbol in sorted(winners):
        try:
            build_spec([by_dispatch[symbol]], {symbol: winners[symbol]})
        except SpecError as e:
            dropped[symbol] = f"no spec can carry it: {e}"
            del winners[symbol]
    verdict = None
    while winners:
        # In model order, whatever the winners' order: of two twins (the same root op) the first
        # one's matcher is written, so the text is the one a build made from the same configs had.
        text = build_spec([p for p in problems if p.dispatch in winners], winners)
        with tempfile.TemporaryDirectory(prefix="iree-dsa-tune-") as tmp:
            spec = Path(tmp) / "spec.mlir"
            spec.write_text(text)
            reused = built[1:] if built is not None and built[0] == text else None
            if progress is not None:
                progress(f"verifying the spec ({plural(len(winners), 'config')}) with "
                         + ("the build timed with it" if reused else "iree-compile") + " and iree.runtime")
            verdict = verify_spec(artifacts.model, spec, artifacts=artifacts, built=reused)
        reasons = failure_reasons(verdict, set(winners))
        bad = {v.dispatch for v in verdict.ops if v.status != Status.APPLIED} | set(reasons)
        if not bad and not verdict.compile_error:
            return VerifiedSpec(text, dropped, verdict)
        if not bad & set(winners):
            bad = set(winners)  # cannot tell which op broke the compile: drop them all
        for symbol in sorted(bad & set(winners)):
            dropped[symbol] = reasons.get(symbol) or "verification failed without a reason (please report this)"
            del winners[symbol]
    return VerifiedSpec("", dropped, verdict)
