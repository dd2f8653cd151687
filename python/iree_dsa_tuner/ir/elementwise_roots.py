"""Elementwise roots (docs/ELEMENTWISE.md): the all-parallel generic IREE configures as a root.

In a dispatch with no contraction, convolution, attention or softmax, the top-level
all-parallel `linalg.generic` with the largest static iteration space (a gather, a copy,
an elementwise body) is IREE's root (`elementwise_root`); its `ElementwiseProblem`
carries the op alone as a function of its operands (`_elementwise_dag_text`, which the
w4a8 contraction of `discovery` uses too), the text a spec's matcher is built from.
"""

from __future__ import annotations

import math

from iree.compiler import ir
from iree.compiler.dialects import func

from ..core.problems import ElementwiseProblem, Problem, UntunableDispatch
from .dequantisation import _input_bindings
from .mlir_walk import _as_shaped, _fused_ops, _indexing_maps, _loop_sizes, _shaped, _walk


def elementwise_root(func_op: ir.Operation) -> ir.Operation | None:
    """The all-parallel `linalg.generic` IREE configures as the root of a dispatch that has no
    contraction, convolution, attention or softmax: the top-level one with the largest static
    iteration space (a gather, a copy, an elementwise body; a pack or other consumer may follow).
    None when a top-level generic reduces (a norm's reduction is IREE's root there)."""
    best, best_size = None, -1
    for op in _walk(func_op):
        if op.name != "linalg.generic" or op.parent.name != "func.func":
            continue
        if any("parallel" not in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])):
            return None
        if len(op.results) != 1:
            continue
        shapes = [_as_shaped(v.type) for v in op.operands]
        if any(st is None or not st.has_static_shape for st in shapes):
            continue
        sizes = _loop_sizes(_indexing_maps(op), [tuple(st.shape) for st in shapes])
        if sizes is None:
            continue
        size = math.prod(sizes)
        if size > best_size:
            best, best_size = op, size
    return best


def _elementwise_dag_text(op: ir.Operation) -> str | None:
    """The op alone as a function of its operands (a clone, printed by the bindings), or None
    when its body uses a value defined outside it (such a DAG cannot be matched alone)."""
    with ir.Location.unknown(op.context):
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("elementwise_root", ([v.type for v in op.operands], [r.type for r in op.results]))
            block = fn.add_entry_block()
            with ir.InsertionPoint(block):
                clone = op.clone()
                for i, arg in enumerate(block.arguments):
                    clone.operands[i] = arg
                for name in ("lowering_config", "compilation_info"):
                    if name in clone.attributes:
                        del clone.attributes[name]
                func.ReturnOp(list(clone.results))
        if not module.operation.verify():
            return None
        return str(module)


def _elementwise_problem(symbol: str, func_op: ir.Operation, op: ir.Operation) -> Problem:
    n_inputs = len(op.operands) - len(op.results)
    operands = [_shaped(v) for v in op.operands]
    maps = _indexing_maps(op)
    sizes = _loop_sizes(maps, [o.shape for o in operands])
    try:
        dag = _elementwise_dag_text(op)
    except ir.MLIRError:
        dag = None
    if dag is None:
        return UntunableDispatch(symbol, "linalg.generic: its body uses values defined outside it", op.name)
    return ElementwiseProblem(
        dispatch=symbol, op_name=op.name, loop_sizes=tuple(sizes), loop_types=tuple("parallel" for _ in sizes),
        dim_groups={"parallel": tuple(range(len(sizes)))},
        indexing_maps=tuple(str(ir.AffineMapAttr.get(m)) for m in maps), inputs=tuple(operands[:n_inputs]),
        output=operands[n_inputs], fused_ops=_fused_ops(func_op, op), input_bindings=_input_bindings(op),
        dag_text=dag)
