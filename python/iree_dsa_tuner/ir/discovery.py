"""Dispatch discovery and root-op problem extraction.

IREE decides what a dispatch is (fusion, unit-dim collapsing, generic vs named
op), so problems are read from the executable sources IREE dumps, never from
the input model: a tile list is only right against the op IREE configures.
"""

from __future__ import annotations

import os
from typing import Iterator

from iree.compiler import ir
from iree.compiler.dialects import iree_codegen, linalg

from ..compiler import HOST_FLAGS
from ..errors import InputError
from ..core.problems import (
    AttentionProblem,
    ContractionProblem,
    ConvolutionProblem,
    OperandInfo,
    Problem,
    UntunableDispatch,
)

_ATTENTION_OPS = ("iree_linalg_ext.attention", "iree_linalg_ext.online_attention")
# Ops that belong to every dispatch and say nothing about its root.
_BOOKKEEPING_PREFIXES = (
    "hal.", "iree_tensor_ext.", "iree_codegen.", "arith.constant", "tensor.empty",
    "func.return", "linalg.yield", "iree_linalg_ext.yield",
)

CONVOLUTION_GROUPS = ("batch", "output_image", "output_channel", "filter_loop", "input_channel", "depth")
CONTRACTION_GROUPS = ("batch", "m", "n", "k")
ATTENTION_GROUPS = ("batch", "m", "k1", "k2", "n")


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


def _problem_for(symbol: str, func_op: ir.Operation, op: ir.Operation) -> Problem:
    name = op.name
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
    if linalg.isa_contraction_op(op):
        dims = linalg.infer_contraction_dimensions(op)
        groups = {g: _ints(getattr(dims, g)) for g in CONTRACTION_GROUPS}
        return ContractionProblem(dim_groups=groups, **common)
    dims = linalg.infer_convolution_dimensions(op)
    groups = {g: _ints(getattr(dims, g)) for g in CONVOLUTION_GROUPS}
    return ConvolutionProblem(
        dim_groups=groups, strides=_ints(dims.strides), dilations=_ints(dims.dilations), **common)


def _root_op(func_op: ir.Operation) -> ir.Operation | None:
    """The op IREE configures: the contraction, convolution or attention (largest if several)."""
    best, best_work = None, -1
    for op in _walk(func_op):
        is_root = op.name in _ATTENTION_OPS
        if not is_root and op.name.startswith("linalg.") and op.name not in ("linalg.fill", "linalg.yield"):
            try:
                is_root = linalg.isa_contraction_op(op) or linalg.isa_convolution_op(op)
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


def problems_from_sources(text: str, source_name: str = "<sources>") -> list[Problem]:
    """Problems of every dispatch in IREE's executable-sources IR text."""
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise InputError(f"{source_name}: cannot parse IREE's dispatch IR: {str(e).splitlines()[0]}") from None
        problems: list[Problem] = []
        for symbol, func_op in dispatch_functions(module):
            root = _root_op(func_op)
            if root is None:
                problems.append(UntunableDispatch(
                    symbol, f"no contraction, convolution or attention root op ({_describe_ops(func_op)})"))
                continue
            try:
                problems.append(_problem_for(symbol, func_op, root))
            except Exception as e:  # a new op shape must not crash discovery
                problems.append(UntunableDispatch(symbol, f"{root.name}: not understood ({e})", root.name))
        return problems


def load_problems(model: str | os.PathLike, target_flags: tuple[str, ...] = HOST_FLAGS) -> list[Problem]:
    """Compile `model` through IREE (once; see `artifacts`) and return one problem per dispatch."""
    from .artifacts import compile_model

    return compile_model(model, target_flags).problems()
