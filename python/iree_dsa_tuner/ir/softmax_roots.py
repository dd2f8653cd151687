"""Softmax roots (docs/SOFTMAX.md): a dispatch's top-level `linalg.softmax` and its problem.

In executable sources, the largest top-level static `linalg.softmax` of a dispatch with
no contraction, convolution or attention (`_softmax_op`) and its `SoftmaxProblem`; the
maps of the root generic IREE decomposes it into (`softmax_root_maps`, what a spec
matches); and in configured IR, that decomposed root, sum(exp(x - max)) over one loop,
which carries the lowering_config (`decomposed_softmax_root`).
"""

from __future__ import annotations

import math

from iree.compiler import ir

from ..core.problems import Problem, SoftmaxProblem, UntunableDispatch
from .dequantisation import _input_bindings
from .mlir_walk import _as_shaped, _fused_ops, _producer, _shaped, _walk


def _softmax_op(func_op: ir.Operation) -> ir.Operation | None:
    """The dispatch's top-level `linalg.softmax` (the largest if several), or None."""
    best, best_size = None, -1
    for op in _walk(func_op):
        if op.name != "linalg.softmax" or op.parent.name != "func.func":
            continue
        st = _as_shaped(op.operands[0].type)
        size = math.prod(st.shape) if st is not None and st.has_static_shape else 0
        if size > best_size:
            best, best_size = op, size
    return best


def softmax_root_maps(rank: int, dimension: int) -> list[ir.AffineMap]:
    """Maps of the root generic IREE decomposes a softmax into: x, the row max, the row sum.

    The loops are the operand's dimensions; the max and the sum drop the softmax dimension.
    (In the current context.)
    """
    dims = [ir.AffineDimExpr.get(i) for i in range(rank)]
    row = [d for i, d in enumerate(dims) if i != dimension]
    return [ir.AffineMap.get(rank, 0, dims), ir.AffineMap.get(rank, 0, row), ir.AffineMap.get(rank, 0, row)]


def _softmax_problem(symbol: str, func_op: ir.Operation, op: ir.Operation) -> Problem:
    x, out = _shaped(op.operands[0]), _shaped(op.results[0])
    if x is None or out is None or not x.shape:
        return UntunableDispatch(symbol, "linalg.softmax has a dynamic shape; only static shapes are tuned", op.name)
    dimension = int(ir.IntegerAttr(op.attributes["dimension"]).value)
    rank = len(x.shape)
    parallel = tuple(i for i in range(rank) if i != dimension)
    maps = softmax_root_maps(rank, dimension)
    return SoftmaxProblem(
        dispatch=symbol, op_name=op.name, loop_sizes=tuple(x.shape),
        loop_types=tuple("reduction" if i == dimension else "parallel" for i in range(rank)),
        dim_groups={"parallel": parallel, "reduction": (dimension,)},
        indexing_maps=tuple(str(ir.AffineMapAttr.get(m)) for m in maps), inputs=(x,), output=out,
        fused_ops=_fused_ops(func_op, op), dimension=dimension, input_bindings=_input_bindings(op))


def _body_ops(op: ir.Operation) -> list[str]:
    return [o.operation.name for o in op.regions[0].blocks[0].operations]


def _reduction_loops(op: ir.Operation) -> list[int]:
    return [i for i, t in enumerate(ir.ArrayAttr(op.attributes["iterator_types"])) if "reduction" in str(t)]


def decomposed_softmax_root(func_op: ir.Operation) -> ir.Operation | None:
    """In configured IR, the root op of a decomposed softmax: sum(exp(x - max)) over one loop.

    IREE decomposes `linalg.softmax` before configuring it into a max reduction (x), this
    two-input reduction (x and that max) and the normalisation (x, max, sum); the root
    carries the lowering_config. Recognised by its body (exp, add) and by its second input
    being a one-input reduction of its first.
    """
    for op in _walk(func_op):
        if op.name != "linalg.generic" or op.parent.name != "func.func" or len(op.results) != 1:
            continue
        if len(op.operands) != 3 or len(_reduction_loops(op)) != 1:
            continue
        body = _body_ops(op)
        if "math.exp" not in body or "arith.addf" not in body:
            continue
        producer = _producer(op.operands[1])
        if producer is None or producer.name != "linalg.generic" or len(producer.operands) != 2:
            continue
        if producer.operands[0] != op.operands[0] or _reduction_loops(producer) != _reduction_loops(op):
            continue
        if any(name in _body_ops(producer) for name in ("arith.maxnumf", "arith.maximumf")):
            return op
    return None
