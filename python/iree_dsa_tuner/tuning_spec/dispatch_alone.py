"""Each tuned dispatch checked alone: its root op under the spec against float64 numpy.

Where the numpy reference cannot evaluate a whole function, the only other
reference would be IREE's own default build, and that can be the thing under
test: IREE 3.13's default attention config for a 256-wide head steps the head
and computes wrong results (docs/ATTENTION.md). So instead each dispatch the
spec configures is rebuilt as a module of its own, from IREE's executable
source of that dispatch:

- one public function per root op (contraction, convolution, attention, softmax), whose
  arguments are the root op's operands; constants, `tensor.empty` and
  `linalg.fill` that feed it are copied with it (an attention's scale, a
  contraction's zero accumulator), everything else becomes an argument;
- that module is compiled with the spec (the build under test), the configured
  dump shows the spec's config on each root op, and it runs on seeded random
  inputs;
- the same module, named ops generalised, is evaluated by `NumpyModel` in
  float64: the root op's own numpy model.

Results carry `reference="numpy-root-op"` and the dispatch they check.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from iree.compiler import ir
from iree.compiler.dialects import func

from ..compiler import compile_to_vmfb, run_iree_tool, tuning_spec_flags
from ..errors import CompileError
from ..ir.configured import read_configured_dispatches
from ..ir.discovery import source_root_op
from ..ir.mlir_walk import _walk, dispatch_functions
from .elementwise import NotEvaluable, element_of
from .numerics import NumericsResult, compare_modules

REFERENCE = "numpy-root-op"
# Ops copied into the standalone function with the root op (they read no input).
_COPIED = ("arith.constant", "tensor.empty", "linalg.fill")


@dataclass
class DispatchCheck:
    """One dispatch to check alone: what the spec should put on its root op."""

    dispatch: str
    source_file: str  # IREE's executable source holding the dispatch
    lowering_config: str  # canonical text, as the configured dump prints it
    translation_info: str


def _producer(value: ir.Value) -> ir.Operation | None:
    """The op defining `value` (None for a block argument)."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def _copyable(value: ir.Value) -> bool:
    """Is `value` made inside the dispatch from constants only (copied, not an argument)?"""
    producer = _producer(value)
    if producer is None or producer.name not in _COPIED:
        return False
    return all(_copyable(v) for v in producer.operands)


def _outside_values(root: ir.Operation) -> list[ir.Value]:
    """Values the root op's region uses but does not define (constants hoisted out of a body)."""
    nested = list(_walk(root))
    inside = set()
    for op in [root, *nested]:
        for region in op.regions:
            for block in region.blocks:
                inside.update(block.arguments)
    for op in nested:
        inside.update(op.results)
    outside: list[ir.Value] = []
    for op in nested:
        outside.extend(v for v in op.operands if v not in inside and v not in outside)
    return outside


def _copy(op: ir.Operation, mapping: dict) -> ir.Operation:
    """`op` cloned at the insertion point, its operands replaced through `mapping`."""
    new = op.clone()
    for i, v in enumerate(op.operands):
        new.operands[i] = mapping[v]
    mapping.update(zip(op.results, new.results))
    return new


def _standalone_function(name: str, root: ir.Operation) -> func.FuncOp:
    """Append @name(operands...) -> root results, the root op alone, at the insertion point."""
    outside = _outside_values(root)
    if not all(_copyable(v) for v in outside):
        raise NotEvaluable(f"{root.name}'s region reads a value computed outside it")
    arguments = []
    for v in root.operands:
        if not _copyable(v) and v not in arguments:
            if not isinstance(v.type, ir.RankedTensorType) or not ir.RankedTensorType(v.type).has_static_shape:
                raise NotEvaluable(f"{root.name} operand of type {v.type} (only static tensors are generated)")
            arguments.append(v)
    result_types = [r.type for r in root.results]
    fn = func.FuncOp(name, ir.FunctionType.get([v.type for v in arguments], result_types))
    entry = fn.add_entry_block()
    mapping = dict(zip(arguments, entry.arguments))
    with ir.InsertionPoint(entry):
        order: list[ir.Operation] = []

        def collect(value):
            """The copied producers of `value`, operands first."""
            producer = _producer(value)
            if value in mapping or any(value in list(op.results) for op in order):
                return
            for v in producer.operands:
                collect(v)
            order.append(producer)

        for v in [*root.operands, *outside]:
            collect(v)
        for producer in order:
            _copy(producer, mapping)
        copied_root = _copy(root, mapping)
        for nested in _walk(copied_root):  # the body's hoisted constants: their copies
            for i, v in enumerate(nested.operands):
                if v in outside:
                    nested.operands[i] = mapping[v]
        for attribute in ("lowering_config", "compilation_info", "root_op"):
            if attribute in copied_root.attributes:
                del copied_root.attributes[attribute]
        func.ReturnOp(list(copied_root.results))
    return fn


def _text_without_name(fn: func.FuncOp) -> str:
    """A function's text under a fixed name: equal for root ops IREE would merge into one executable."""
    name = fn.operation.attributes["sym_name"]
    fn.operation.attributes["sym_name"] = ir.StringAttr.get("f")
    text = fn.operation.get_asm(assume_verified=True)
    fn.operation.attributes["sym_name"] = name
    return text


def standalone_module(checks: list[DispatchCheck]) -> tuple[str, dict[str, list[str]], dict[str, str]]:
    """(module text, function -> the dispatches it checks, dispatch -> why it cannot be checked alone).

    Identical root ops (twin dispatches) share one function: IREE would merge their
    executables, and the second function would have no dispatch of its own.
    """
    functions: dict[str, list[str]] = {}
    refused: dict[str, str] = {}
    seen: dict[str, str] = {}  # function text without its name -> function
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        sources: dict[str, ir.Module] = {}
        for i, check in enumerate(checks):
            if check.source_file not in sources:
                sources[check.source_file] = ir.Module.parse(Path(check.source_file).read_text())
            found = dict(dispatch_functions(sources[check.source_file]))
            func_op = found.get(check.dispatch)
            root = source_root_op(func_op) if func_op is not None else None  # a softmax: linalg.softmax
            if root is None:
                refused[check.dispatch] = "no root op found in its executable source"
                continue
            name = f"check_{i}"
            try:
                with ir.InsertionPoint(module.body):
                    fn = _standalone_function(name, root)
            except NotEvaluable as e:
                refused[check.dispatch] = str(e)
                continue
            key = _text_without_name(fn)
            if key in seen:
                fn.operation.erase()
                functions[seen[key]].append(check.dispatch)
                continue
            seen[key] = name
            functions[name] = [check.dispatch]
        text = module.operation.get_asm(assume_verified=True)
    return text, functions, refused


def _signatures(text: str) -> tuple[dict, dict]:
    """Argument (shape, element) and result elements of each function of the standalone module."""
    signatures, outputs = {}, {}
    with ir.Context():
        module = ir.Module.parse(text)
        for op in module.body.operations:
            op = op.operation
            name = ir.StringAttr(op.attributes["sym_name"]).value
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            signatures[name] = [(tuple(ir.RankedTensorType(t).shape), element_of(str(t))) for t in ftype.inputs]
            outputs[name] = [element_of(str(t)) for t in ftype.results]
    return signatures, outputs


def _applied(configured, function: str, check: DispatchCheck) -> str:
    """"" when the standalone build put the spec's config on `function`'s root op, else why not."""
    mine = [c for c in configured if c.symbol.startswith(f"{function}_dispatch")]
    if not mine:
        return "its root op made no dispatch of its own when compiled alone"
    for c in mine:
        if c.lowering_config == check.lowering_config and c.translation_info == check.translation_info:
            return ""
    return f"the spec's config did not apply to the root op compiled alone (got {mine[0].lowering_config})"


def _only_function(text: str, function: str) -> str:
    """The standalone module with `function` alone (the others erased)."""
    with ir.Context():
        module = ir.Module.parse(text)
        for op in list(module.body.operations):
            if ir.StringAttr(op.operation.attributes["sym_name"]).value != function:
                op.operation.erase()
        return module.operation.get_asm(assume_verified=True)


def _check_module(text: str, functions: dict[str, list[str]], by_dispatch: dict, spec: str,
                  target_flags: tuple[str, ...], extra_flags: tuple[str, ...], seed: int,
                  timeout_s: float) -> list[NumericsResult]:
    """Build one standalone module and compare each of its functions with numpy; a CompileError
    when the module does not build."""
    from .reference import NumpyModel

    results: list[NumericsResult] = []
    with tempfile.TemporaryDirectory(prefix="iree-dsa-alone-") as tmp:
        source = Path(tmp) / "root_ops.mlir"
        source.write_text(text)
        vmfb, config_dir = Path(tmp) / "root_ops.vmfb", Path(tmp) / "configs"
        compile_to_vmfb(source, vmfb, target_flags=target_flags, timeout_s=timeout_s,
                        extra_flags=(*extra_flags, *tuning_spec_flags(spec),
                                     f"--iree-hal-dump-executable-configurations-to={config_dir}"))
        generic = run_iree_tool("iree-opt", ["--linalg-generalize-named-ops"], input_path=source,
                                what="generalising the root ops").text
        configured = [c for f in sorted(config_dir.glob("*.mlir")) for c in read_configured_dispatches(f.read_text())]
        signatures, outputs = _signatures(text)
        numpy_model = NumpyModel(generic)
        for function, dispatches in functions.items():
            applied = []
            for dispatch in dispatches:
                why = _applied(configured, function, by_dispatch[dispatch])
                if why:
                    results.append(_not_checked(dispatch, why))
                else:
                    applied.append(dispatch)
            if not applied:
                continue
            compared = compare_modules(vmfb, {function: signatures[function]}, outputs,
                                       numpy_reference=numpy_model, seed=seed)
            for dispatch in applied:  # twins share one run: each gets its own copy of the verdict
                for r in compared:
                    r = replace(r, function=dispatch, dispatch=dispatch,
                                reference=REFERENCE if r.checked else r.reference)
                    if r.unevaluable:
                        r.detail = f"its root op is not evaluable in numpy either: {r.unevaluable}"
                    results.append(r)
    return results


def check_dispatches_alone(checks: list[DispatchCheck], spec: str, target_flags: tuple[str, ...],
                           extra_flags: tuple[str, ...] = (), *, seed: int = 0,
                           timeout_s: float = 120.0) -> list[NumericsResult]:
    """One result per output of each dispatch's root op (or one not-checked result saying why).

    All root ops are built as one module; when that fails, each is built alone, so one root op
    IREE cannot build by itself (an inner_tiled GEMM under some flags) costs only its own check."""
    results: list[NumericsResult] = []
    text, functions, refused = standalone_module(checks)
    for dispatch, why in refused.items():
        results.append(_not_checked(dispatch, f"cannot be rebuilt alone: {why}"))
    if not functions:
        return results
    by_dispatch = {c.dispatch: c for c in checks}
    common = dict(by_dispatch=by_dispatch, spec=spec, target_flags=target_flags, extra_flags=extra_flags,
                  seed=seed, timeout_s=timeout_s)
    try:
        return results + _check_module(text, functions, **common)
    except CompileError as e:
        if len(functions) == 1:
            return results + [_not_checked(d, f"compiling its root op alone failed: {e}")
                              for ds in functions.values() for d in ds]
    for function, dispatches in functions.items():
        try:
            results += _check_module(_only_function(text, function), {function: dispatches}, **common)
        except CompileError as e:
            results += [_not_checked(d, f"compiling its root op alone failed: {e}") for d in dispatches]
    return results


def _not_checked(dispatch: str, why: str) -> NumericsResult:
    result = NumericsResult.not_checked(dispatch, why)
    result.dispatch = dispatch
    return result
