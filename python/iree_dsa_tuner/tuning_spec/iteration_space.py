"""A generic's operands laid over its iteration space, for the numpy reference (`reference.py`).

What an indexing map says in numpy: the loop each result of a projected permutation is
(`_map_dims`), the loops a map reads (`_loops_read`), each loop's extent from an operand
dimension it indexes alone (`_loop_sizes`), an operand gathered at every point of the
iteration space through any affine map (`_in_space`: strided windows and `floordiv`
groups included, size-1 axes where a loop is not read), and an array indexed by loops
viewed with one axis per loop (`_to_space`). Iteration spaces past `MAX_DENSE_ELEMENTS`
are refused with `NotEvaluable` rather than materialised.
"""

from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir

from .elementwise import NotEvaluable

# Largest iteration space evaluated densely (elements); einsum has no such limit.
MAX_DENSE_ELEMENTS = 1 << 26


def _map_dims(amap: ir.AffineMap) -> list:
    """Loop index of each result, None for a broadcast constant 0; fails on anything else
    (the output of a generic and the operands of an attention must be written this way)."""
    out = []
    for e in amap.results:
        if isinstance(e, ir.AffineDimExpr):
            out.append(e.position)
        elif isinstance(e, ir.AffineConstantExpr) and e.value == 0:
            out.append(None)
        else:
            raise NotEvaluable(f"indexing map {amap} is not a projected permutation")
    return out


def _affine_index(expr, loop_sizes: list[int]):
    """The values of one map result over the iteration space (size-1 axes where a loop
    does not appear): `d1 * 2 + d4` for a strided window, `d2 floordiv 32` for a group."""
    if isinstance(expr, ir.AffineDimExpr):
        shape = [1] * len(loop_sizes)
        shape[expr.position] = loop_sizes[expr.position]
        return np.arange(loop_sizes[expr.position], dtype=np.int64).reshape(shape)
    if isinstance(expr, ir.AffineConstantExpr):
        return np.int64(expr.value)
    if isinstance(expr, (ir.AffineAddExpr, ir.AffineMulExpr, ir.AffineModExpr, ir.AffineFloorDivExpr,
                         ir.AffineCeilDivExpr)):
        a, b = _affine_index(expr.lhs, loop_sizes), _affine_index(expr.rhs, loop_sizes)
        if isinstance(expr, ir.AffineAddExpr):
            return a + b
        if isinstance(expr, ir.AffineMulExpr):
            return a * b
        if isinstance(expr, ir.AffineModExpr):
            return np.mod(a, b)
        if isinstance(expr, ir.AffineFloorDivExpr):
            return np.floor_divide(a, b)
        return -np.floor_divide(-a, b)
    raise NotEvaluable(f"map result {expr}")


def _loops_read(amap: ir.AffineMap) -> list[int]:
    """The loops a map's results depend on, in loop order."""
    used = set()

    def visit(e):
        if isinstance(e, ir.AffineDimExpr):
            used.add(e.position)
        elif not isinstance(e, (ir.AffineConstantExpr, ir.AffineSymbolExpr)):
            visit(e.lhs)
            visit(e.rhs)

    for e in amap.results:
        visit(e)
    return sorted(used)


def _loop_sizes(operands: list, maps: list[ir.AffineMap]) -> list[int]:
    """Each loop's extent, from an operand dimension that the loop indexes alone."""
    sizes: list[int | None] = [None] * maps[0].n_dims
    for array, amap in zip(operands, maps):
        shape = np.shape(array)
        for axis, e in enumerate(amap.results):
            if isinstance(e, ir.AffineDimExpr) and axis < len(shape) and sizes[e.position] is None:
                sizes[e.position] = shape[axis]
    if any(s is None for s in sizes):
        raise NotEvaluable("a loop that no operand dimension gives the extent of")
    return sizes


def _in_space(array, amap: ir.AffineMap, loop_sizes: list[int]) -> np.ndarray:
    """`array` read through `amap` at every point of the iteration space (size-1 axes for
    the loops it does not read): a gather, so windows and groups need no special case."""
    array = np.asarray(array)
    n_loops = len(loop_sizes)
    if array.ndim == 0 or not amap.results:
        return array.reshape([1] * n_loops)
    read = _loops_read(amap)
    if math.prod(loop_sizes[d] for d in read) > MAX_DENSE_ELEMENTS:
        raise NotEvaluable(f"an operand read over {math.prod(loop_sizes[d] for d in read)} points")
    index = np.broadcast_arrays(*[_affine_index(e, loop_sizes) for e in amap.results])
    gathered = array[tuple(index)]
    return gathered.reshape([loop_sizes[d] if d in read else 1 for d in range(n_loops)])


def _to_space(array: np.ndarray, dims: list[int | None], n_loops: int) -> np.ndarray:
    """View `array` (indexed by `dims`) with one axis per loop, size 1 where absent."""
    keep = [i for i, d in enumerate(dims) if d is not None]
    a = array.reshape([array.shape[i] for i in keep]) if len(keep) != array.ndim else array
    loops = [dims[i] for i in keep]
    if len(set(loops)) != len(loops):
        raise NotEvaluable("a map indexes two dimensions with one loop")
    a = np.transpose(a, np.argsort(loops)) if loops else a
    shape = [1] * n_loops
    for loop, size in zip(sorted(loops), a.shape):
        shape[loop] = size
    return a.reshape(shape)
