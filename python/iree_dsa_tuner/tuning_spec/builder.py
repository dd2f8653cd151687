"""Build a Transform-dialect tuning spec with the MLIR Python bindings.

Layout of every spec (what IREE 3.13's MaterializeUserConfigs expects):
  module {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint}
    @apply_op_config(op, config)    annotate op "compilation_info" = config
    @match_<dispatch>(op)           match.contraction|convolution|online_attention + dims_equal
                                    per group, yields (op, compilation_info); a softmax: the
                                    DAG of its decomposed max and sum-of-exp generics
                                    (cast_compatible_dag_from_root, docs/SOFTMAX.md); an
                                    inner_tiled GEMM: its name and its three operands' types
Attention is matched as `online_attention`: IREE 3.13 rewrites attention into it before a
spec is applied, and a matcher on `iree_linalg_ext.attention` silently matches nothing.
    @__kernel_config(variant)       one transform.foreach_match over all matchers
The spec is verified by the bindings before it is printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from iree.compiler import ir
from iree.compiler.dialects import preprocessing_transform as match_ops
from iree.compiler.dialects import transform

from ..ir.discovery import CONTRACTION_GROUPS, CONVOLUTION_GROUPS
from ..ir.softmax_roots import softmax_root_maps
from ..core.problems import (AttentionProblem, ContractionProblem, ConvolutionProblem, ElementwiseProblem,
                             InnerTiledProblem, RootOpProblem, SoftmaxProblem)
from ..core.config import CompilationConfig, ConfigError

ENTRY_POINT = "__kernel_config"
APPLY_CONFIG = "apply_op_config"


class SpecError(ValueError):
    """A problem/config pair that cannot become a spec entry."""


@dataclass(frozen=True)
class SpecEntry:
    problem: RootOpProblem
    config: CompilationConfig


def matcher_name(dispatch_symbol: str) -> str:
    """`match_` + the dispatch symbol with every non-identifier character made `_`."""
    return "match_" + re.sub(r"[^A-Za-z0-9_]", "_", dispatch_symbol)


def matcher_key(problem: RootOpProblem) -> tuple:
    """Two problems with equal keys are indistinguishable to a matcher."""
    return (problem.kind, getattr(problem, "inner_tile", None), problem.lhs_type, problem.rhs_type, problem.out_type,
            problem.indexing_maps, tuple(sorted((k, tuple(v)) for k, v in problem.sizes().items())),
            getattr(problem, "strides", ()), getattr(problem, "dilations", ()), getattr(problem, "dag_text", ""))


def _element_type(text: str) -> ir.Type:
    return ir.Type.parse(text)


# online_attention's results, in the matcher's order.
_ONLINE_ATTENTION_GROUPS = ("batch", "m", "n", "k1", "k2")


def _online_attention_maps(problem: AttentionProblem) -> list[ir.AffineMap]:
    """Q, K, V, scale, [mask,] O, max, sum: the row max and row sum are O without its value-width
    loops."""
    maps = [ir.AffineMapAttr(ir.Attribute.parse(m)).value for m in problem.indexing_maps]
    if len(maps) not in (5, 6):
        raise SpecError(f"{problem.dispatch}: an attention op with {len(maps)} maps")
    out = maps[-1]
    value_loops = set(problem.dim_groups.get("n", ()))
    row = [e for e in out.results if not (isinstance(e, ir.AffineDimExpr) and e.position in value_loops)]
    row_map = ir.AffineMap.get(out.n_dims, out.n_symbols, row)
    return maps + [row_map, row_map]


def _match_online_attention(problem: AttentionProblem, op):
    i64_param = transform.ParamType.get(ir.IntegerType.get_signless(64))
    element = _element_type(problem.lhs_type)
    # The online form accumulates the output, the row max and the row sum in f32.
    accumulator = ir.F32Type.get()
    matched = match_ops.MatchOnlineAttentionOp(
        *([i64_param] * 5), op, element, _element_type(problem.rhs_type), _element_type(problem.inputs[2].element_type),
        element, accumulator, accumulator, accumulator,
        ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in _online_attention_maps(problem)]))
    return matched, [problem.sizes()[g] for g in _ONLINE_ATTENTION_GROUPS]


def masked_attention_dag_text(problem: AttentionProblem) -> str:
    """A masked `online_attention` as a function of its operands (Q, K, V, scale, mask and the
    three accumulators): IREE 3.13's online_attention matcher takes unmasked ops only, so a masked
    one is matched as this one-op DAG, which pins its maps, operand types and score region."""
    maps = _online_attention_maps(problem)
    element = problem.lhs_type
    sizes = problem.loop_sizes

    def typed(m: ir.AffineMap, element_type: str) -> str:
        dims = [sizes[e.position] for e in m.results if isinstance(e, ir.AffineDimExpr)]
        return "tensor<" + "".join(f"{d}x" for d in dims) + element_type + ">"

    q, k, v = (i.type_str for i in problem.inputs)
    mask = problem.mask.type_str
    out = typed(maps[5], "f32")
    row = typed(maps[6], "f32")
    maps_text = ", ".join(str(ir.AffineMapAttr.get(m)) for m in maps)
    return (f"func.func @masked_attention(%q: {q}, %k: {k}, %v: {v}, %scale: {element}, %mask: {mask}, "
            f"%acc: {out}, %max: {row}, %sum: {row}) -> {out} {{\n"
            f"%r:3 = iree_linalg_ext.online_attention <indexing_maps = [{maps_text}]> "
            f"ins(%q, %k, %v, %scale, %mask : {q}, {k}, {v}, {element}, {mask}) "
            f"outs(%acc, %max, %sum : {out}, {row}, {row}) {{\n"
            f"^bb0(%s: f32):\n  iree_linalg_ext.yield %s : f32\n}} -> {out}, {row}, {row}\n"
            f"return %r#0 : {out}\n}}\n")


def _generic_text(maps: list[ir.AffineMap], iterators: list[str], ins: list[tuple[str, str]], out: tuple[str, str],
                  body: list[str], element: str, result: str) -> str:
    maps_text = ", ".join(str(ir.AffineMapAttr.get(m)) for m in maps)
    its = ", ".join(f'"{t}"' for t in iterators)
    args = ", ".join(f"%a{i}: {element}" for i in range(len(ins) + 1))
    return (f"{result} = linalg.generic {{indexing_maps = [{maps_text}], iterator_types = [{its}]}} "
            f"ins({', '.join(v for v, _ in ins)} : {', '.join(t for _, t in ins)}) outs({out[0]} : {out[1]}) {{\n"
            f"^bb0({args}):\n" + "\n".join(body) + f"\n}} -> {out[1]}\n")


def softmax_dag_text(problem: SoftmaxProblem) -> str:
    """IREE 3.13's decomposition of the softmax up to its root, as a function of (x, the max's
    init, the sum's init): the row max (maxnumf) and the sum of exp(x - max). The spec's DAG
    matcher holds these two ops, so it pins the root's body, maps, loops, shapes and element
    type, and that its second input is the row max of its first (a layer norm's reduction of the
    same shapes does not match)."""
    element = problem.lhs_type
    x_type = problem.inputs[0].type_str
    row_shape = [s for i, s in enumerate(problem.loop_sizes) if i != problem.dimension]
    row_type = "tensor<" + "".join(f"{s}x" for s in row_shape) + element + ">"
    rank = len(problem.loop_sizes)
    x_map, row_map, _ = softmax_root_maps(rank, problem.dimension)
    iterators = ["reduction" if i == problem.dimension else "parallel" for i in range(rank)]
    max_op = _generic_text([x_map, row_map], iterators, [("%x", x_type)], ("%max_init", row_type),
                           [f"%m = arith.maxnumf %a0, %a1 : {element}", f"linalg.yield %m : {element}"],
                           element, "%max")
    sum_op = _generic_text([x_map, row_map, row_map], iterators, [("%x", x_type), ("%max", row_type)],
                           ("%sum_init", row_type),
                           [f"%d = arith.subf %a0, %a1 : {element}", f"%e = math.exp %d : {element}",
                            f"%s = arith.addf %e, %a2 : {element}", f"linalg.yield %s : {element}"],
                           element, "%sum")
    return (f"func.func @softmax_root(%x: {x_type}, %max_init: {row_type}, %sum_init: {row_type}) -> {row_type} {{\n"
            f"{max_op}{sum_op}return %sum : {row_type}\n}}\n")


def _match_dag(dag_text: str, op) -> None:
    """`cast_compatible_dag_from_root` over the generics of a one-function module (a softmax's
    `softmax_dag_text`, an elementwise root's `dag_text`), parsed with the bindings and moved into
    the matcher's body; the function's arguments become the body's."""
    any_value = transform.AnyValueType.get()
    dag = match_ops.MatchCastCompatibleDagFromRootOp(any_value, any_value, op)
    template = ir.Module.parse(dag_text)
    func = template.body.operations[0]
    entry = func.regions[0].blocks[0]
    block = dag.regions[0].blocks.append(*[a.type for a in entry.arguments])
    for old, new in zip(entry.arguments, block.arguments):
        old.replace_all_uses_with(new)
    ops = [o for o in entry.operations if o.operation.name in ("linalg.generic", "iree_linalg_ext.online_attention")]
    for o in ops:
        ir.InsertionPoint(block).insert(o.operation.detach_from_parent())
    with ir.InsertionPoint(block):
        transform.YieldOp([])  # the body's implicit terminator


def _match_name_and_operand_types(problem, op) -> None:
    """`iree_codegen.inner_tiled` has no structured-op matcher in IREE 3.13: its name, then each
    operand cast-compatible with its type (the outer sizes and the inner tile, so the layout). The
    same for an elementwise root whose body captures a constant, which the DAG matcher cannot
    match (`ElementwiseProblem.match_key`)."""
    transform.MatchOperationNameOp(op, [problem.op_name])
    any_value = transform.AnyValueType.get()
    for i, operand in enumerate((*problem.inputs, problem.output)):
        value = transform.GetOperandOp(any_value, op, [i])
        match_ops.MatchCastCompatibleTypesOp(value, ir.Type.parse(operand.type_str))


def _build_matcher(problem: RootOpProblem, config: CompilationConfig, any_op, any_param) -> None:
    name = matcher_name(problem.dispatch)
    seq = transform.NamedSequenceOp(
        name, [any_op], [any_op, any_param],
        arg_attrs=[{"transform.readonly": ir.UnitAttr.get()}],
    )
    with ir.InsertionPoint(seq.body):
        op = seq.bodyTarget
        maps = [ir.AffineMapAttr(ir.Attribute.parse(m)).value for m in problem.indexing_maps]
        types = (_element_type(problem.lhs_type), _element_type(problem.rhs_type), _element_type(problem.out_type))
        if isinstance(problem, SoftmaxProblem):
            transform.MatchOperationNameOp(op, ["linalg.generic"])
            _match_dag(softmax_dag_text(problem), op)
            matched, expected = None, []
        elif isinstance(problem, ElementwiseProblem) and problem.captures_constants:
            _match_name_and_operand_types(problem, op)
            matched, expected = None, []
        elif isinstance(problem, ElementwiseProblem):
            transform.MatchOperationNameOp(op, ["linalg.generic"])
            _match_dag(problem.dag_text, op)
            matched, expected = None, []
        elif isinstance(problem, AttentionProblem) and problem.mask is not None:
            transform.MatchOperationNameOp(op, ["iree_linalg_ext.online_attention"])
            _match_dag(masked_attention_dag_text(problem), op)
            matched, expected = None, []
        elif isinstance(problem, AttentionProblem):
            matched, expected = _match_online_attention(problem, op)
        elif isinstance(problem, InnerTiledProblem):
            _match_name_and_operand_types(problem, op)
            matched, expected = None, []
        elif isinstance(problem, ContractionProblem) and problem.dag_text:  # the w4a8 generic
            transform.MatchOperationNameOp(op, ["linalg.generic"])
            _match_dag(problem.dag_text, op)
            matched, expected = None, []
        elif isinstance(problem, ContractionProblem):
            matched = match_ops.MatchContractionOp(op, *types, indexing_maps=maps)
            groups = CONTRACTION_GROUPS
            expected = [problem.sizes()[g] for g in groups]
        elif isinstance(problem, ConvolutionProblem):
            matched = match_ops.MatchConvolutionOp(op, *types, indexing_maps=maps)
            groups = CONVOLUTION_GROUPS + ("strides", "dilations")
            expected = [problem.sizes()[g] for g in CONVOLUTION_GROUPS] + [list(problem.strides), list(problem.dilations)]
        else:
            raise SpecError(f"{problem.dispatch}: {problem.kind} ops cannot be tuned yet")
        for result, values in zip(matched.results if matched is not None else (), expected):
            match_ops.MatchDimsEqualOp(result, values)
        compilation_info = ir.Attribute.parse(config.compilation_info_text())
        param = transform.ParamConstantOp(any_param, compilation_info)
        transform.YieldOp([op, param.result])


def build_spec_module(entries: list[SpecEntry]) -> ir.Module:
    """The spec as an `ir.Module` (in the current context); deterministic for equal input."""
    any_op = transform.AnyOpType.get()
    any_param = transform.AnyParamType.get()
    module = ir.Module.create()
    module.operation.attributes["transform.with_named_sequence"] = ir.UnitAttr.get()
    module.operation.attributes["iree_codegen.tuning_spec_with_default_entrypoint"] = ir.UnitAttr.get()
    readonly = {"transform.readonly": ir.UnitAttr.get()}
    with ir.InsertionPoint(module.body):
        apply = transform.NamedSequenceOp(APPLY_CONFIG, [any_op, any_param], [], arg_attrs=[readonly, readonly])
        with ir.InsertionPoint(apply.body):
            transform.AnnotateOp(apply.bodyTarget, "compilation_info", param=apply.bodyExtraArgs[0])
            transform.YieldOp([])
        matchers = []
        for entry in entries:
            _build_matcher(entry.problem, entry.config, any_op, any_param)
            matchers.append(matcher_name(entry.problem.dispatch))
        entry_point = transform.NamedSequenceOp(
            ENTRY_POINT, [any_op], [any_op], arg_attrs=[{"transform.consumed": ir.UnitAttr.get()}])
        entry_point.operation.attributes["iree_codegen.tuning_spec_entrypoint"] = ir.UnitAttr.get()
        with ir.InsertionPoint(entry_point.body):
            result = transform.ForeachMatchOp(
                any_op, [], entry_point.bodyTarget, [],
                ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(m) for m in matchers]),
                ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(APPLY_CONFIG) for _ in matchers]),
            )
            transform.YieldOp([result.results[0]])
    if not module.operation.verify():
        raise SpecError("the generated spec does not verify")
    return module


def prepare_entries(problems: list[RootOpProblem], configs: dict[str, CompilationConfig]) -> list[SpecEntry]:
    """Pair each configured problem with its config; check legality; drop duplicates.

    Dispatches whose root ops are identical to a matcher (same kind, types, maps
    and sizes) share one matcher: foreach_match applies the first that matches,
    so two different configs for them would silently lose one. That is an error.
    """
    by_symbol = {p.dispatch: p for p in problems}
    unknown = sorted(set(configs) - set(by_symbol))
    if unknown:
        raise SpecError(f"the plan names dispatches the model does not have: {', '.join(unknown)}")
    entries: list[SpecEntry] = []
    seen: dict[tuple, SpecEntry] = {}
    for problem in problems:  # IREE's dispatch order: deterministic
        if problem.dispatch not in configs:
            continue
        config = configs[problem.dispatch]
        if not isinstance(problem, (ContractionProblem, ConvolutionProblem, AttentionProblem, SoftmaxProblem,
                                    ElementwiseProblem)):
            raise SpecError(f"{problem.dispatch}: {problem.kind} dispatches cannot be tuned")
        try:
            config.check_against(problem.loop_types)
        except ConfigError as e:
            raise SpecError(f"{problem.dispatch}: {e}") from None
        key = matcher_key(problem)
        if key in seen:
            if seen[key].config != config:
                raise SpecError(
                    f"{problem.dispatch} and {seen[key].problem.dispatch} have identical root ops "
                    "but different configs; a matcher cannot tell them apart")
            continue
        seen[key] = SpecEntry(problem, config)
        entries.append(seen[key])
    return entries


def build_spec(problems: list[RootOpProblem], configs: dict[str, CompilationConfig | dict]) -> str:
    """Tuning-spec text for `configs` (dispatch symbol -> config) on `problems`.

    The Python API for build hooks; `iree-dsa-tune spec` is a thin layer over it.
    """
    parsed = {k: v if isinstance(v, CompilationConfig) else CompilationConfig.from_json(v) for k, v in configs.items()}
    entries = prepare_entries(problems, parsed)
    with ir.Context(), ir.Location.unknown():
        module = build_spec_module(entries)
        # Local scope prints attributes inline: each matcher shows its own
        # compilation_info, which is what a reviewer of the spec reads.
        return module.operation.get_asm(use_local_scope=True, assume_verified=True) + "\n"
