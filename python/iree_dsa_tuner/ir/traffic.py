"""Dispatch traffic: the bytes each call of a dispatch moves and the vector work beside its root.

Per dispatch of IREE's executable-sources IR (`traffic_from_sources`): each
`dispatch.tensor.load` and `.store` as (HAL binding, bytes), and the element operations
of every top-level structured op other than the root op (body operations per element,
or a fixed count for a named op without a body), as a `DispatchTraffic`: what a target's
estimate of an untunable dispatch, the task's timeline and a call's constant reads count.
"""

from __future__ import annotations

import math

from iree.compiler import ir

from ..core.problems import DispatchTraffic, element_bits
from .discovery import _root_op
from .mlir_walk import (
    _BOOKKEEPING_PREFIXES,
    _as_shaped,
    _dispatch_sources,
    _indexing_maps,
    _loop_sizes,
    _producer,
    _walk,
    dispatch_functions,
)

# Element operations per element of a named op that has no body to count (softmax: max, subtract,
# exp, sum, divide).
_NAMED_OP_ELEMENT_OPS = {"linalg.softmax": 5}


def _binding_of(value: ir.Value) -> int:
    subspan = _producer(value)
    if subspan is not None and "binding" in subspan.attributes:
        return int(ir.IntegerAttr(subspan.attributes["binding"]).value)
    return -1


def _tensor_bytes(t: ir.Type) -> int:
    st = _as_shaped(t)
    if st is None or not st.has_static_shape:
        return 0
    return (math.prod(st.shape) * element_bits(str(st.element_type)) + 7) // 8


def _op_elements(op: ir.Operation) -> int:
    """The iteration space of a structured op: its loops when the maps say them, else its largest operand."""
    shapes = [_as_shaped(v.type) for v in op.operands]
    largest = max((math.prod(st.shape) for st in shapes if st is not None and st.has_static_shape), default=0)
    if "indexing_maps" in op.attributes:
        try:
            maps = _indexing_maps(op)
            sizes = _loop_sizes(maps, [tuple(st.shape) if st is not None and st.has_static_shape else ()
                                       for st in shapes])
            if sizes is not None:
                return math.prod(sizes)
        except Exception:  # maps that do not index the operands directly: fall back to the largest operand
            pass
    return largest


def _vector_ops(func_op: ir.Operation, root: ir.Operation | None) -> int:
    total = 0
    for op in _walk(func_op):
        if (root is not None and op == root) or op.parent.name != "func.func" \
                or op.name.startswith(_BOOKKEEPING_PREFIXES):
            continue
        if not op.name.startswith(("linalg.", "iree_linalg_ext.", "linalg_ext.", "tensor.pack", "tensor.unpack",
                                   "linalg.pack", "linalg.unpack")):
            continue
        body = 0
        if len(op.regions) and len(op.regions[0].blocks):
            body = sum(1 for x in op.regions[0].blocks[0].operations
                       if not x.operation.name.endswith("yield"))
        per_element = max(body, _NAMED_OP_ELEMENT_OPS.get(op.name, 1))
        total += _op_elements(op) * per_element
    return total


def _traffic(func_op: ir.Operation, root: ir.Operation | None) -> DispatchTraffic:
    reads, writes = [], []
    for op in _walk(func_op):
        if op.name == "iree_tensor_ext.dispatch.tensor.load":
            reads.append((_binding_of(op.operands[0]), _tensor_bytes(op.results[0].type)))
        elif op.name == "iree_tensor_ext.dispatch.tensor.store":
            writes.append((_binding_of(op.operands[1]), _tensor_bytes(op.operands[0].type)))
    return DispatchTraffic(tuple(reads), tuple(writes), _vector_ops(func_op, root))


def traffic_from_sources(text: str, source_name: str = "<sources>") -> dict[str, DispatchTraffic]:
    """Per dispatch symbol of IREE's executable-sources IR: the bytes each call moves and its vector work."""
    with _dispatch_sources(text, source_name) as module:
        return {symbol: _traffic(func_op, _root_op(func_op)) for symbol, func_op in dispatch_functions(module)}
