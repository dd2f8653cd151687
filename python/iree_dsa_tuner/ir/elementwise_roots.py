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


def _captured_constants(op: ir.Operation) -> list:
    """The `arith.constant` results defined outside `op` that its body uses (a GELU's `math.fpowi`
    exponent), in first-use order."""
    found = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                for value in inner.operands:
                    owner = value.owner
                    if (not isinstance(owner, ir.Block) and owner.name == "arith.constant"
                            and owner.parent != op and value not in found):
                        found.append(value)
    return found


def _elementwise_dag_text(op: ir.Operation) -> str | None:
    """The op alone as a function of its operands (a clone, printed by the bindings), with the
    constants its body captures defined before it, or None when its body uses another value
    defined outside it (such a DAG cannot be matched alone)."""
    with ir.Location.unknown(op.context):
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("elementwise_root", ([v.type for v in op.operands], [r.type for r in op.results]))
            block = fn.add_entry_block()
            with ir.InsertionPoint(block):
                captured = [(value, value.owner.clone().results[0]) for value in _captured_constants(op)]
                clone = op.clone()
                for i, arg in enumerate(block.arguments):
                    clone.operands[i] = arg
                for region in clone.regions:
                    for body in region.blocks:
                        for inner in body.operations:
                            for i, value in enumerate(inner.operands):
                                for original, copy in captured:
                                    if value == original:
                                        inner.operands[i] = copy
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
        dag_text=dag, unpacked_tiles=_unpacked_tiles(op, maps[:n_inputs], len(sizes)))


def _unpacked_tiles(op: ir.Operation, input_maps: list, loops: int) -> tuple[int, ...]:
    """Per loop, the inner tile of a `linalg.unpack` that produces an input `op` reads through the
    identity map (1 where none tiles it); () when no unpack does."""
    tiles = [1] * loops
    for value, amap in zip(op.operands, input_maps):
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.name != "linalg.unpack" or amap != ir.AffineMap.get_identity(loops):
            continue
        positions = ir.DenseI64ArrayAttr(owner.attributes["inner_dims_pos"])
        inner = ir.DenseI64ArrayAttr(owner.attributes["static_inner_tiles"])
        for pos, tile in zip(positions, inner):
            if tile > 0:  # a dynamic tile is negative
                tiles[pos] = max(tiles[pos], tile)
    return tuple(tiles) if any(t > 1 for t in tiles) else ()
