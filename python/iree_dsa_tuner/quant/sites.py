"""Where a model multiplies by a weight: the contractions of its generalised input form
(`--compile-to=input`, named ops generalised) with one operand that is a weight.

Sites are found in the input form as IREE gives it (named ops kept: a convolution stays one, so
IREE still builds it as one), and the same contractions are found again, in the same order, in
its generalised form, which the numpy reference runs for calibration.

A weight is a value computed only by layout ops from a constant of the module: a parameter
global (`util.global.load` of `#flow.parameter.named`), a global with its value inline, or an
`arith.constant`. Layout ops are the ones a torch or ONNX export puts between a stored weight and
its matmul: copies that only move elements (a one-input `linalg.generic` whose body yields its
input: the `Linear` transpose, a broadcast over a batch), and reshapes. The weight is evaluated
through them offline (`weight_matrix`), as the contraction reads it, and stored as `[N, K]`; the
quantised contraction reads it directly, so no dispatch touches the float copy at run time.

A contraction whose two operands are both activations (attention's Q K^T and P V) is not a
site: it stays float. A convolution whose filter is a weight is a site too (`conv.py`): its
filter stays in its own shape, `[F, C, *KS]`, read as the `[F, K]` matrix of its output channels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import linalg

from ..parameters import parameter_of_global
from .conv import ConvLayout, conv_layout, conv_rows, filter_matrix

_RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")


def _dim(expr) -> int | None:
    expr = expr.maybe_downcast() if hasattr(expr, "maybe_downcast") else expr
    return expr.position if isinstance(expr, ir.AffineDimExpr) else None


def maps_of(op: ir.Operation) -> list[ir.AffineMap]:
    """A structured op's indexing maps: its attribute, or a named op's implicit ones."""
    if "indexing_maps" in op.attributes:
        return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    return [ir.AffineMapAttr(a).value for a in linalg.get_indexing_maps(op)]


def shape_of(value: ir.Value) -> tuple[int, ...]:
    return tuple(ir.RankedTensorType(value.type).shape)


def element_type_of(value: ir.Value) -> str:
    return str(ir.RankedTensorType(value.type).element_type)


def _owner(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    return owner.operation if isinstance(owner, (ir.Operation, ir.OpView)) else None


_NAMED_COPIES = ("linalg.transpose", "linalg.broadcast", "linalg.copy")


def _is_copy(op: ir.Operation) -> bool:
    """A transpose, broadcast or copy, named or as a one-input all-parallel generic whose body
    yields its input."""
    if op.name in _NAMED_COPIES:
        return len(op.results) == 1
    if op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1:
        return False
    if any("reduction" in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])):
        return False
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    return len(body) == 1 and body[0].name == "linalg.yield" and body[0].operands[0] == block.arguments[0]


@dataclass
class WeightSite:
    """One contraction that multiplies by a weight, and how it reads it."""

    index: int
    op: ir.Operation
    function: str
    weight_operand: int  # 0 or 1: which input is the weight
    chain: list[ir.Operation]  # the layout ops, the source first
    source: ir.Operation  # util.global.load or arith.constant
    name: str  # the weight's name: its parameter key, else its global's symbol
    k_loop: int
    n_loop: int
    out_loops: tuple[int, ...]  # the loop each output dimension is indexed by
    x_loops: tuple[int, ...]  # the loop each activation dimension is indexed by
    n: int = 0
    k: int = 0
    reason: str = ""  # why it stays float ("" : it is quantised)
    extra: dict = field(default_factory=dict)

    @property
    def x_operand(self) -> int:
        return 1 - self.weight_operand

    @property
    def x_value(self) -> ir.Value:
        return self.op.operands[self.x_operand]

    @property
    def x_k_axis(self) -> int:
        return self.x_loops.index(self.k_loop)

    @property
    def conv(self) -> ConvLayout | None:
        """The convolution's layout, when the site is one (None: a contraction)."""
        return self.extra.get("conv")


def _trace(value: ir.Value) -> tuple[list[ir.Operation], ir.Operation] | None:
    """The layout ops from a module constant to `value` (source first), or None if it is not one."""
    chain = []
    while True:
        op = _owner(value)
        if op is None:
            return None  # a function argument: an activation
        if op.name in ("util.global.load", "arith.constant"):
            if op.name == "arith.constant" and not isinstance(op.results[0].type.maybe_downcast(), ir.RankedTensorType):
                return None
            return list(reversed(chain)), op
        if _is_copy(op) or op.name in _RESHAPES:
            chain.append(op)
            value = op.operands[0]
            continue
        return None


def _global_op(module: ir.Module, symbol: str) -> ir.Operation | None:
    for op in module.body.operations:
        op = op.operation
        if op.name == "util.global" and ir.StringAttr(op.attributes["sym_name"]).value == symbol:
            return op
    return None


def weight_name(module: ir.Module, source: ir.Operation, index: int) -> str:
    if source.name == "util.global.load":
        symbol = ir.FlatSymbolRefAttr(source.attributes["global"]).value
        g = _global_op(module, symbol)
        parameter = parameter_of_global(g) if g is not None else None
        return parameter.key if parameter is not None else symbol
    return f"constant_{index}"


def _functions(module: ir.Module):
    for op in module.body.operations:
        op = op.operation
        if op.name in ("func.func", "util.func"):
            yield ir.StringAttr(op.attributes["sym_name"]).value, op


def _walk(op: ir.Operation):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation
                yield from _walk(child.operation)


def find_sites(module: ir.Module) -> list[WeightSite]:
    """Every contraction of `module` with a weight operand (see the module doc), in walk order.
    A contraction this version cannot rewrite is a site with a `reason` (it stays float)."""
    sites = []
    for fname, func in _functions(module):
        for op in _walk(func):
            if not op.name.startswith("linalg.") or len(op.operands) != 3 or len(op.results) != 1 \
                    or op.name in _NAMED_COPIES:
                continue
            if linalg.isa_convolution_op(op):
                _convolution_site(module, fname, op, sites)
                continue
            if not linalg.isa_contraction_op(op):
                continue
            traced = [_trace(op.operands[i]) for i in (0, 1)]
            if traced[0] is not None and traced[1] is not None:
                continue  # constant x constant: IREE folds it at compile time
            if traced[0] is None and traced[1] is None:
                continue  # activation x activation (attention): stays float
            w = 0 if traced[0] is not None else 1
            chain, source = traced[w]
            maps = maps_of(op)
            dims = [[_dim(e) for e in m.results] for m in maps]
            out_loops, w_loops, x_loops = dims[2], dims[w], dims[1 - w]
            site = WeightSite(len(sites), op, fname, w, chain, source, weight_name(module, source, len(sites)),
                              -1, -1, tuple(out_loops), tuple(x_loops))
            sites.append(site)
            if None in out_loops or None in w_loops or None in x_loops:
                site.reason = "an indexing map that is not a permutation of loops"
                continue
            k_loops = [d for d in w_loops if d in x_loops and d not in out_loops]
            n_loops = [d for d in w_loops if d in out_loops and d not in x_loops]
            batch = [d for d in w_loops if d in out_loops and d in x_loops]
            if len(k_loops) != 1 or len(n_loops) != 1:
                site.reason = (f"the weight is read over {len(n_loops)} output and {len(k_loops)} reduction "
                               "loops; only one of each is quantised")
                continue
            shape = shape_of(op.operands[w])
            if any(shape[w_loops.index(d)] != 1 for d in batch):
                site.extra["batch_loops"] = batch  # a weight broadcast over a batch: checked on its values
            site.k_loop, site.n_loop = k_loops[0], n_loops[0]
            site.k = shape[w_loops.index(site.k_loop)]
            site.n = shape[w_loops.index(site.n_loop)]
            site.reason = _type_reason(op, w)
    return sites


def _type_reason(op: ir.Operation, w: int) -> str:
    """Why a site with weight operand `w` stays as it is, from its types ("" : it is quantised)."""
    if any(not ir.RankedTensorType(v.type).has_static_shape for v in op.operands):
        return "a dynamic shape"
    if element_type_of(op.operands[w]) not in ("f32", "f16", "bf16") or \
            element_type_of(op.results[0]) not in ("f32", "f16", "bf16"):
        return (f"{element_type_of(op.operands[w])} weight into {element_type_of(op.results[0])}: "
                "already quantised or not float")
    return ""


def _convolution_site(module: ir.Module, fname: str, op: ir.Operation, sites: list[WeightSite]) -> None:
    """A convolution whose filter (operand 1) is a weight and whose input is not, as a site."""
    traced = [_trace(op.operands[i]) for i in (0, 1)]
    if traced[1] is None or traced[0] is not None:
        return  # an activation filter (or a constant input IREE folds): not a weight site
    chain, source = traced[1]
    maps = maps_of(op)
    out_loops = tuple(_dim(e) for e in maps[2].results)
    site = WeightSite(len(sites), op, fname, 1, chain, source, weight_name(module, source, len(sites)),
                      -1, -1, out_loops, ())
    sites.append(site)
    layout = conv_layout(op, maps)
    if isinstance(layout, str):
        site.reason = layout
        return
    site.extra["conv"] = layout
    site.n_loop = out_loops[1]
    site.n, site.k = layout.filter_shape[0], int(np.prod(layout.filter_shape[1:]))
    site.reason = _type_reason(op, 1)


def weight_matrix(site: WeightSite, source_value: np.ndarray) -> np.ndarray:
    """The weight as `site`'s contraction reads it, evaluated through its layout ops, as `[N, K]`
    float32."""
    values = {site.source.results[0]: np.asarray(source_value)}
    for op in site.chain:
        value = values[op.operands[0]]
        if op.name in _RESHAPES:
            values[op.results[0]] = np.reshape(value, shape_of(op.results[0]))
        else:
            values[op.results[0]] = _copy(op, value)
    read = np.asarray(values[site.op.operands[site.weight_operand]])
    if site.conv is not None:
        return filter_matrix(read)
    w_loops = [_dim(e) for e in maps_of(site.op)[site.weight_operand].results]
    for d in site.extra.get("batch_loops", []):  # broadcast over a batch: every slice must be one weight
        axis = w_loops.index(d)
        if read.shape[axis] == 1 or read.strides[axis] == 0:
            continue  # a broadcast view (the layout chain's own broadcast): one weight by construction
        first = read[(slice(None),) * axis + (slice(0, 1),)]
        if not np.array_equal(np.broadcast_to(first, read.shape), read):
            raise ValueError("the weight differs along a batch loop")
    index = [slice(None) if d in (site.n_loop, site.k_loop) else 0 for d in w_loops]
    kept = [d for d in w_loops if d in (site.n_loop, site.k_loop)]
    matrix = read[tuple(index)]
    if kept != [site.n_loop, site.k_loop]:
        matrix = matrix.T
    return np.ascontiguousarray(matrix, dtype=np.float32)


def _copy(op: ir.Operation, value: np.ndarray) -> np.ndarray:
    """A copy generic (`_is_copy`) applied to `value` as a numpy view: its input's loops
    transposed into the output's order, broadcast over the loops it does not read (a broadcast
    over ACT's 82 token batches stays one weight in memory)."""
    if op.name == "linalg.transpose":  # result dimension i is input dimension permutation[i]
        return np.transpose(value, [int(x) for x in ir.DenseI64ArrayAttr(op.attributes["permutation"])])
    if op.name == "linalg.copy":
        return value
    if op.name == "linalg.broadcast":  # `dimensions`: the output dimensions the input lacks
        added = [int(x) for x in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
        shape = shape_of(op.results[0])
        kept = [d for i, d in enumerate(shape) if i not in added]
        return np.broadcast_to(np.reshape(value, [shape[i] if i not in added else 1 for i in range(len(shape))]),
                               shape) if list(value.shape) == kept else _fail("a broadcast of an unexpected shape")
    in_map, out_map = maps_of(op)
    in_loops = [_dim(e) for e in in_map.results]
    out_loops = [_dim(e) for e in out_map.results]
    # A unit input dim read at a constant 0 (torch's broadcast of a 1x1xSxS mask over heads).
    if len(in_loops) == value.ndim and any(d is None and value.shape[i] == 1 for i, d in enumerate(in_loops)):
        unit = [i for i, d in enumerate(in_loops) if d is None and value.shape[i] == 1]
        value = np.reshape(value, [n for i, n in enumerate(value.shape) if i not in unit])
        in_loops = [d for i, d in enumerate(in_loops) if i not in unit]
    if None in in_loops or None in out_loops or len(set(in_loops)) != len(in_loops):
        raise ValueError("a copy whose maps are not projected permutations")
    out_shape = shape_of(op.results[0])
    # Axes in the output's loop order, a unit axis for each loop the input does not read.
    order = sorted(range(len(in_loops)), key=lambda a: out_loops.index(in_loops[a]))
    moved = np.transpose(value, order)
    present = [in_loops[a] for a in order]
    shape = [value.shape[in_loops.index(d)] if d in present else 1 for d in out_loops]
    return np.broadcast_to(moved.reshape(shape), out_shape)


def _fail(message: str):
    raise ValueError(message)


def activation_rows(site: WeightSite, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The activation `site` reads, as rows of K (one per token; a convolution's im2col rows),
    float32, and each row's activation max |x| when it is not the row's own (a convolution's
    sample), else None."""
    if site.conv is not None:
        return conv_rows(site.conv, x)
    x = np.moveaxis(np.asarray(x), site.x_k_axis, -1)
    return x.reshape(-1, x.shape[-1]).astype(np.float32), None


__all__ = ["WeightSite", "activation_rows", "element_type_of", "find_sites", "maps_of", "shape_of",
           "weight_matrix"]
