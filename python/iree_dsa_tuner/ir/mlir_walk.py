"""What every discoverer reads of IREE's dispatch IR: the dispatch functions and their ops.

The dispatch functions of an executable-sources module (`dispatch_functions`, the text
parsed with a one-line error by `_dispatch_sources`), every op nested in one (`_walk`),
and of a structured op its operands' static shapes and element types, its indexing maps,
each loop's trip count and type, the ops fused beside it, and the op that produced a
value. The root-op (`discovery`), softmax, elementwise, dequantisation and traffic
readers all build on these.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from iree.compiler import ir
from iree.compiler.dialects import linalg

from ..core.problems import OperandInfo
from ..errors import InputError

# Ops that belong to every dispatch and say nothing about its root.
_BOOKKEEPING_PREFIXES = (
    "hal.", "iree_tensor_ext.", "iree_codegen.", "arith.constant", "tensor.empty",
    "func.return", "linalg.yield", "iree_linalg_ext.yield",
)


def _as_shaped(t: ir.Type) -> ir.ShapedType | None:
    t = t.maybe_downcast() if hasattr(t, "maybe_downcast") else t
    return t if isinstance(t, ir.ShapedType) else None


def _dim_position(expr) -> int | None:
    """Loop index of an affine expression that is a bare dim (d3), else None."""
    expr = expr.maybe_downcast() if hasattr(expr, "maybe_downcast") else expr
    return expr.position if isinstance(expr, ir.AffineDimExpr) else None


def _walk(op: ir.Operation) -> Iterator[ir.Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                yield from _walk(child)


def _ints(array_attr) -> tuple[int, ...]:
    return tuple(int(x) for x in array_attr)


def _shaped(value: ir.Value) -> OperandInfo | None:
    st = _as_shaped(value.type)
    if st is None:
        return OperandInfo((), str(value.type))
    if not st.has_rank or any(st.is_dynamic_dim(i) for i in range(st.rank)):
        return None
    return OperandInfo(tuple(st.shape), str(st.element_type))


def _indexing_maps(op: ir.Operation) -> list[ir.AffineMap]:
    if "indexing_maps" in op.attributes:
        return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    return [ir.AffineMapAttr(a).value for a in linalg.get_indexing_maps(op)]


def _loop_sizes(maps: list[ir.AffineMap], shapes: list[tuple[int, ...]]) -> list[int] | None:
    """Each loop's trip count, read where a map indexes an operand by that loop alone."""
    num_loops = maps[0].n_dims
    sizes: list[int | None] = [None] * num_loops
    for amap, shape in zip(maps, shapes):
        for pos, expr in enumerate(amap.results):
            d = _dim_position(expr)
            if d is not None and pos < len(shape):
                if sizes[d] is None:
                    sizes[d] = shape[pos]
    if any(s is None for s in sizes):
        return None
    return [int(s) for s in sizes]


def _loop_types(maps: list[ir.AffineMap]) -> tuple[str, ...]:
    """A loop absent from the result map is a reduction (true of every root op we tune)."""
    out = maps[-1]
    in_output = {_dim_position(e) for e in out.results} - {None}
    return tuple("parallel" if d in in_output else "reduction" for d in range(out.n_dims))


def _fused_ops(func_op: ir.Operation, root: ir.Operation) -> tuple[str, ...]:
    names = []
    for op in _walk(func_op):
        if op == root or op.name.startswith(_BOOKKEEPING_PREFIXES) or op.name == "linalg.fill":
            continue
        if op.name.startswith(("linalg.", "iree_linalg_ext.", "tensor.")) and op.parent.name == "func.func":
            names.append(op.name)
    return tuple(names)


def _describe_ops(func_op: ir.Operation) -> str:
    seen = []
    for op in _walk(func_op):
        if op.parent.name != "func.func" or op.name.startswith(_BOOKKEEPING_PREFIXES):
            continue
        if op.name not in seen:
            seen.append(op.name)
    return ", ".join(seen) or "no ops"


def _producer(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    op = getattr(owner, "operation", None)
    return op if isinstance(op, ir.Operation) else None


def dispatch_functions(module: ir.Module) -> Iterator[tuple[str, ir.Operation]]:
    """(symbol, func.func) of every dispatch in an executable-sources module, in order."""
    for op in _walk(module.operation):
        if op.name != "func.func" or op.parent.name != "builtin.module":
            continue
        # Dispatch functions sit in a builtin.module nested in a hal.executable.variant.
        grand = op.parent.parent if op.parent is not None else None
        if grand is None or grand.name != "hal.executable.variant":
            continue
        yield ir.StringAttr(op.attributes["sym_name"]).value, op


@contextlib.contextmanager
def _dispatch_sources(text: str, source_name: str):
    """IREE's executable-sources IR text, parsed (a one-line error naming `source_name` if it is not)."""
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise InputError(f"{source_name}: cannot parse IREE's dispatch IR: {str(e).splitlines()[0]}") from None
        yield module
