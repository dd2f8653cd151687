"""Root-op problems: the op IREE configures in each dispatch, read as a tunable problem.

IREE decides what a dispatch is (fusion, unit-dim collapsing, generic vs named
op), so problems are read from the executable sources IREE dumps, never from
the input model: a tile list is only right against the op IREE configures.
Per dispatch (`problems_from_sources`): its contraction, convolution, attention or
`inner_tiled` GEMM (the largest if several, `_root_op`) as a problem with its loop
groups, else a split dequantisation (`dequantisation`), else a softmax
(`softmax_roots`), else an `UntunableDispatch` saying why; the elementwise roots of the
dispatches that have none of these (`elementwise_problems_from_sources`); and the op a
dispatch is tuned by in its source and configured IR (`source_root_op`, `configured_root_op`).
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import iree_codegen, linalg

from ..core.problems import (
    AttentionProblem,
    ContractionProblem,
    ConvolutionProblem,
    ElementwiseProblem,
    InnerTiledProblem,
    Problem,
    UntunableDispatch,
    WeightQuantisation,
)
from .dequantisation import (
    _dequantise_dispatch,
    _input_bindings,
    _integer_quantised_contraction,
    _is_dequantising_contraction,
    _weight_quantisation,
)
from .elementwise_roots import _elementwise_dag_text, _elementwise_problem, elementwise_root
from .mlir_walk import (
    _as_shaped,
    _describe_ops,
    _dim_position,
    _dispatch_sources,
    _fused_ops,
    _indexing_maps,
    _ints,
    _loop_sizes,
    _loop_types,
    _shaped,
    _walk,
    dispatch_functions,
)
from .softmax_roots import _softmax_op, _softmax_problem, decomposed_softmax_root

_ATTENTION_OPS = ("iree_linalg_ext.attention", "iree_linalg_ext.online_attention")
# A data-tiled GEMM lowered through the CPU's intrinsic (docs/DATA_TILING.md 11): a root op that is
# no linalg op.
INNER_TILED_OP = "iree_codegen.inner_tiled"

CONVOLUTION_GROUPS = ("batch", "output_image", "output_channel", "filter_loop", "input_channel", "depth")
CONTRACTION_GROUPS = ("batch", "m", "n", "k")
ATTENTION_GROUPS = ("batch", "m", "k1", "k2", "n")
SOFTMAX_GROUPS = ("parallel", "reduction")


def _inner_tiled_problem(symbol: str, func_op: ir.Operation, op: ir.Operation) -> Problem:
    """An `iree_codegen.inner_tiled` GEMM: its outer loops M1, N1, K1 from its maps (each operand
    indexed by two of them, then its inner tile), the inner tile (M0, N0, K0) from the operand
    types (A's inner elements are M0 K0, B's N0 K0, C's M0 N0)."""
    name = op.name
    operands = [_shaped(v) for v in op.operands]
    if any(o is None for o in operands):
        return UntunableDispatch(symbol, f"{name} has a dynamic shape; only static shapes are tuned", name)
    if len(operands) != 3 or len(op.results) != 1:
        return UntunableDispatch(symbol, f"{name} with {len(operands)} operands: only A x B into C is tuned", name)
    maps = _indexing_maps(op)
    lhs, rhs, acc = operands
    outer = [[_dim_position(e) for e in m.results] for m in maps]
    m_loops = [d for d in outer[0] if d in outer[2] and d not in outer[1]]
    n_loops = [d for d in outer[1] if d in outer[2] and d not in outer[0]]
    k_loops = [d for d in outer[0] if d in outer[1] and d not in outer[2]]
    if maps[0].n_dims != 3 or [len(m_loops), len(n_loops), len(k_loops)] != [1, 1, 1]:
        return UntunableDispatch(symbol, f"{name}: only a GEMM over (M1, N1, K1) is tuned, not "
                                         f"{[str(m) for m in maps]}", name)
    sizes = _loop_sizes(maps, [o.shape for o in operands])
    if sizes is None:
        return UntunableDispatch(symbol, f"{name}: cannot read its loop sizes", name)
    a, b, c = (math.prod(o.shape[len(x):]) for o, x in zip(operands, outer))
    k0 = math.isqrt(a * b // c) if c else 0
    if not k0 or a % k0 or b % k0 or (a // k0) * (b // k0) != c:
        return UntunableDispatch(symbol, f"{name}: inner tiles {lhs.type_str}, {rhs.type_str} -> {acc.type_str} "
                                         "are not an M0 x K0 by N0 x K0 GEMM tile", name)
    iterators = [str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])]
    return InnerTiledProblem(
        dispatch=symbol, op_name=name, loop_sizes=tuple(sizes),
        loop_types=tuple("reduction" if "reduction" in t else "parallel" for t in iterators),
        dim_groups={"batch": (), "m": tuple(m_loops), "n": tuple(n_loops), "k": tuple(k_loops)},
        indexing_maps=tuple(str(ir.AffineMapAttr.get(m)) for m in maps), inputs=(lhs, rhs), output=acc,
        fused_ops=_fused_ops(func_op, op), input_bindings=_input_bindings(op),
        inner_tile=(a // k0, b // k0, k0))


def _problem_for(symbol: str, func_op: ir.Operation, op: ir.Operation) -> Problem:
    name = op.name
    if name == INNER_TILED_OP:
        return _inner_tiled_problem(symbol, func_op, op)
    n_inputs = len(op.operands) - len(op.results)
    operands = [_shaped(v) for v in op.operands]
    if any(o is None for o in operands):
        return UntunableDispatch(symbol, f"{name} has a dynamic shape; only static shapes are tuned", name)
    inputs, outputs = operands[:n_inputs], operands[n_inputs:]
    if name in _ATTENTION_OPS:
        # Q, K, V, [scale], [mask]: the maps attribute covers Q, K, V, scale, (mask), output.
        maps = _indexing_maps(op)
        tensor_inputs = [o for o in inputs if o.shape]
        tensor_maps = [m for m in maps if len(m.results) > 0]
        sizes = _loop_sizes(tensor_maps, [o.shape for o in tensor_inputs] + [outputs[0].shape])
        if sizes is None:
            return UntunableDispatch(symbol, f"{name}: cannot read its loop sizes", name)
        detail = iree_codegen.get_attention_op_detail(maps[0], maps[1], maps[2], maps[-1])
        groups = {
            "batch": tuple(detail.batch_dims), "m": tuple(detail.m_dims), "k1": tuple(detail.k1_dims),
            "k2": tuple(detail.k2_dims), "n": tuple(detail.n_dims),
        }
        loop_types = tuple("reduction" if d in groups["k1"] + groups["k2"] else "parallel" for d in range(len(sizes)))
        return AttentionProblem(
            dispatch=symbol, op_name=name, loop_sizes=tuple(sizes), loop_types=loop_types,
            dim_groups=groups, indexing_maps=tuple(str(ir.AffineMapAttr.get(m)) for m in maps),
            inputs=tuple(tensor_inputs[:3]), output=outputs[0], fused_ops=_fused_ops(func_op, op),
            mask=tensor_inputs[3] if len(tensor_inputs) > 3 else None,
        )

    maps = _indexing_maps(op)
    sizes = _loop_sizes(maps, [o.shape for o in inputs + outputs])
    if sizes is None:
        return UntunableDispatch(symbol, f"{name}: a loop is not indexed directly by any operand", name)
    common = dict(
        dispatch=symbol, op_name=name, loop_sizes=tuple(sizes), loop_types=_loop_types(maps),
        indexing_maps=tuple(str(ir.AffineMapAttr.get(m)) for m in maps), inputs=tuple(inputs), output=outputs[0],
        fused_ops=_fused_ops(func_op, op),
    )
    integer_quant = _integer_quantised_contraction(op)
    if integer_quant is not None:
        return _integer_quantised_problem(func_op, op, integer_quant, common)
    if linalg.isa_contraction_op(op):
        dims = linalg.infer_contraction_dimensions(op)
        groups = {g: _ints(getattr(dims, g)) for g in CONTRACTION_GROUPS}
        quant = _weight_quantisation(op, groups["k"])
        if quant is not None:
            # The dequantisation is the weight's producer, described by `weight_quant`, not a consumer.
            fused = list(common["fused_ops"])
            if "linalg.generic" in fused:
                fused.remove("linalg.generic")
            common["fused_ops"] = tuple(fused)
        return ContractionProblem(dim_groups=groups, weight_quant=quant, input_bindings=_input_bindings(op),
                                  **common)
    dims = linalg.infer_convolution_dimensions(op)
    groups = {g: _ints(getattr(dims, g)) for g in CONVOLUTION_GROUPS}
    return ConvolutionProblem(
        dim_groups=groups, strides=_ints(dims.strides), dilations=_ints(dims.dilations), **common)


def _integer_quantised_problem(func_op: ir.Operation, op: ir.Operation, quant: dict, common: dict) -> Problem:
    """The w4a8 contraction as a GEMM: loops read by the activation and the output are M (or
    batch when the codes read them too), by the codes and the output N, the reduction K."""
    maps = _indexing_maps(op)
    x, w, out = ({_dim_position(e) for e in m.results} for m in (maps[0], maps[1], maps[-1]))
    loops = range(maps[0].n_dims)
    groups = {"batch": tuple(d for d in loops if d in x and d in w and d in out),
              "m": tuple(d for d in loops if d in x and d in out and d not in w),
              "n": tuple(d for d in loops if d in w and d in out and d not in x),
              "k": tuple(d for d in loops if d in x and d in w and d not in out)}
    try:
        dag = _elementwise_dag_text(op)
    except ir.MLIRError:
        dag = None
    if dag is None or len(groups["k"]) != 1:
        return UntunableDispatch(common["dispatch"], "a quantised contraction whose body reads values from outside "
                                 "it, or with more than one reduction loop", op.name)
    q = WeightQuantisation(operand=1, element_type=quant["element_type"], group_size=quant["group"],
                           scale_type="i8", zero_point=quant["zero_point"], form="fused")
    return ContractionProblem(dim_groups=groups, weight_quant=q, input_bindings=_input_bindings(op),
                              dag_text=dag, **common)


def elementwise_problems_from_sources(text: str, source_name: str = "<sources>") -> list[ElementwiseProblem]:
    """An `ElementwiseProblem` for each dispatch of IREE's executable-sources IR whose root is an
    all-parallel generic (no contraction, convolution, attention or softmax in it)."""
    out = []
    with _dispatch_sources(text, source_name) as module:
        for symbol, func_op in dispatch_functions(module):
            if _root_op(func_op) is not None or _softmax_op(func_op) is not None:
                continue
            op = elementwise_root(func_op)
            if op is None:
                continue
            try:
                problem = _elementwise_problem(symbol, func_op, op)
            except Exception:  # an op shape the reader did not foresee: left to IREE's config
                continue
            if isinstance(problem, ElementwiseProblem):
                out.append(problem)
    return out


def source_root_op(func_op: ir.Operation) -> ir.Operation | None:
    """The op a dispatch's executable source is tuned by: its root op, else a top-level `linalg.softmax`,
    else its elementwise root."""
    return _root_op(func_op) or _softmax_op(func_op) or elementwise_root(func_op)


def configured_root_op(func_op: ir.Operation) -> ir.Operation | None:
    """The op that carries a dispatch's lowering_config in configured IR (see `_root_op`; an
    elementwise root only when its generic carries IREE's distribution)."""
    root = _root_op(func_op) or decomposed_softmax_root(func_op)
    if root is None:
        op = elementwise_root(func_op)
        if op is not None and "lowering_config" in op.attributes \
                and "distribution" in str(op.attributes["lowering_config"]):
            root = op
    return root


def _root_op(func_op: ir.Operation) -> ir.Operation | None:
    """The op IREE configures: the contraction, convolution, attention or inner_tiled GEMM
    (largest if several)."""
    best, best_work = None, -1
    for op in _walk(func_op):
        is_root = op.name in _ATTENTION_OPS or op.name == INNER_TILED_OP
        if not is_root and op.name.startswith("linalg.") and op.name not in ("linalg.fill", "linalg.yield"):
            try:
                is_root = linalg.isa_contraction_op(op) or linalg.isa_convolution_op(op) \
                    or _is_dequantising_contraction(op) or _integer_quantised_contraction(op) is not None
            except Exception:
                is_root = False
        if not is_root:
            continue
        work = 1
        for v in op.operands:
            st = _as_shaped(v.type)
            if st is not None and st.has_static_shape:
                for d in st.shape:
                    work *= max(d, 1)
        if work > best_work:
            best, best_work = op, work
    return best


def problems_from_sources(text: str, source_name: str = "<sources>") -> list[Problem]:
    """Problems of every dispatch in IREE's executable-sources IR text."""
    with _dispatch_sources(text, source_name) as module:
        problems: list[Problem] = []
        for symbol, func_op in dispatch_functions(module):
            root = _root_op(func_op)
            try:
                dequantise = _dequantise_dispatch(symbol, func_op) if root is None else None
            except Exception:  # an op shape the recogniser did not foresee: not a dequantisation
                dequantise = None
            if dequantise is not None:
                problems.append(dequantise)
                continue
            softmax = _softmax_op(func_op) if root is None else None
            if softmax is not None:
                try:
                    problems.append(_softmax_problem(symbol, func_op, softmax))
                except Exception as e:  # a new op shape must not crash discovery
                    problems.append(UntunableDispatch(symbol, f"linalg.softmax: not understood ({e})", softmax.name))
                continue
            if root is None:
                problems.append(UntunableDispatch(
                    symbol, f"no contraction, convolution or attention root op ({_describe_ops(func_op)})"))
                continue
            try:
                problems.append(_problem_for(symbol, func_op, root))
            except Exception as e:  # a new op shape must not crash discovery
                problems.append(UntunableDispatch(symbol, f"{root.name}: not understood ({e})", root.name))
        return problems
