"""Dispatch discovery and root-op problem extraction.

IREE decides what a dispatch is (fusion, unit-dim collapsing, generic vs named
op), so problems are read from the executable sources IREE dumps, never from
the input model: a tile list is only right against the op IREE configures.
"""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import replace
from typing import Iterator

from iree.compiler import ir
from iree.compiler.dialects import func, iree_codegen, linalg

from ..errors import InputError
from ..core.problems import (
    AttentionProblem,
    ContractionProblem,
    ConvolutionProblem,
    DispatchTraffic,
    ElementwiseProblem,
    InnerTiledProblem,
    SoftmaxProblem,
    OperandInfo,
    Problem,
    RootOpProblem,
    UntunableDispatch,
    WeightQuantisation,
    element_bits,
)

_ATTENTION_OPS = ("iree_linalg_ext.attention", "iree_linalg_ext.online_attention")
# A data-tiled GEMM lowered through the CPU's intrinsic (docs/DATA_TILING.md 11): a root op that is
# no linalg op.
INNER_TILED_OP = "iree_codegen.inner_tiled"
# Ops that belong to every dispatch and say nothing about its root.
_BOOKKEEPING_PREFIXES = (
    "hal.", "iree_tensor_ext.", "iree_codegen.", "arith.constant", "tensor.empty",
    "func.return", "linalg.yield", "iree_linalg_ext.yield",
)

CONVOLUTION_GROUPS = ("batch", "output_image", "output_channel", "filter_loop", "input_channel", "depth")
CONTRACTION_GROUPS = ("batch", "m", "n", "k")
ATTENTION_GROUPS = ("batch", "m", "k1", "k2", "n")
SOFTMAX_GROUPS = ("parallel", "reduction")


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


# ---- dequantised sub-byte weights (docs/INT4.md) ------------------------------------------

# Ops a dequantisation body may hold: casts of the packed integer, a zero point
# subtracted, one multiply by the scale.
_CASTS = ("arith.extsi", "arith.extui", "arith.sitofp", "arith.uitofp", "arith.extf", "arith.truncf")
# Ops a dequantisation body may hold: casts of the packed integer, a zero point subtracted (a
# tensor, or a constant), one multiply by the scale; and, for two nibbles packed per byte, the
# index arithmetic and shifts that pick one.
_DEQUANT_BODY_OPS = {*_CASTS, "arith.subf", "arith.subi", "arith.mulf", "arith.constant", "linalg.yield"}
_NIBBLE_OPS = {"linalg.index", "arith.remui", "arith.remsi", "arith.andi", "arith.cmpi", "arith.select",
               "arith.shli", "arith.shrsi", "arith.shrui", "arith.trunci"}
_UNSIGNED_CASTS = {"arith.extui", "arith.uitofp", "arith.shrui"}


def _producer(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    op = getattr(owner, "operation", None)
    return op if isinstance(op, ir.Operation) else None


def _int_bits(type_text: str) -> int | None:
    """Bits of an integer element type ("i4" -> 4), None for anything else."""
    m = re.fullmatch(r"[su]?i(\d+)", type_text)
    return int(m.group(1)) if m else None


def _is_packed_weight_type(type_text: str) -> bool:
    """2- to 7-bit integers: what a weight quantiser packs. An i1 is a mask, not a weight."""
    return 2 <= (_int_bits(type_text) or 8) < 8


def _map_results(amap: ir.AffineMap) -> list[tuple[int, int] | None]:
    """Per result: (loop, divisor) for `dN` (divisor 1) or `dN floordiv C`; None otherwise."""
    out = []
    for expr in amap.results:
        d = _dim_position(expr)
        if d is not None:
            out.append((d, 1))
            continue
        m = re.fullmatch(r"d(\d+) floordiv (\d+)", str(expr).strip())
        out.append((int(m.group(1)), int(m.group(2))) if m else None)
    return out


def _nibble_pairs(op: ir.Operation, args: list, body: list) -> int | None:
    """The input index of a byte tensor holding two 4-bit weights per byte, read through
    `dN floordiv 2` and unpacked with shifts in the body; None when the body is no such unpacking."""
    if not any(o.name in ("arith.shrsi", "arith.shrui") for o in body):
        return None
    maps = _indexing_maps(op)
    for i, a in enumerate(args):
        if _int_bits(str(a.type)) != 8:
            continue
        if any(r is not None and r[1] == 2 for r in _map_results(maps[i])):
            return i
    return None


def _dequantisation(op: ir.Operation) -> dict | None:
    """What a `linalg.generic` dequantising a sub-byte integer tensor does, or None.

    Returns the packed input's index and type ("ui4" when the body reads it
    unsigned), the scale and zero-point inputs (a constant zero point is "const"), and, per
    loop, how many consecutive elements share one scale (`group_loops`: loop -> elements).
    The packed input is either a 2- to 7-bit integer tensor or bytes holding two nibbles each.
    """
    if op.name != "linalg.generic" or len(op.results) != 1:
        return None
    if any("reduction" in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])):
        return None
    block = op.regions[0].blocks[0]
    n_in = len(op.operands) - 1
    body = [o.operation for o in block.operations]
    args = list(block.arguments)[:n_in]
    if not str(block.arguments[n_in].type).startswith(("f", "bf")):
        return None
    nibbles = None
    if any(o.name not in _DEQUANT_BODY_OPS for o in body):
        if any(o.name not in _DEQUANT_BODY_OPS | _NIBBLE_OPS for o in body):
            return None
        nibbles = _nibble_pairs(op, args, body)
        if nibbles is None:
            return None
        packed = nibbles
    else:
        narrow = [i for i, a in enumerate(args) if _is_packed_weight_type(str(a.type))]
        if not narrow:
            return None
        # A zero-point tensor can be as narrow as the weight: the weight is the larger one.
        packed = max(narrow, key=lambda i: math.prod(_as_shaped(op.operands[i].type).shape)
                     if _as_shaped(op.operands[i].type).has_static_shape else 0)
    producers = {r: o for o in body for r in o.results}

    def origin(v):
        """What `v` is computed from: an input index, "packed" for the (zero-point corrected,
        unpacked) weight, "const" for a constant, or None."""
        while True:
            if v in args:
                return args.index(v)
            o = producers.get(v)
            if o is None:  # defined outside the body: a constant captured from above
                owner = _producer(v)
                return "const" if owner is not None and owner.name == "arith.constant" else None
            if o.name in _CASTS:
                v = o.operands[0]
            elif o.name == "arith.constant":
                return "const"
            elif o.name in ("arith.subf", "arith.subi"):
                return "packed" if origin(o.operands[0]) in (packed, "packed") else None
            elif o.name in _NIBBLE_OPS:
                return "packed" if nibbles is not None else None
            else:
                return None

    muls = [o for o in body if o.name == "arith.mulf"]
    if len(muls) != 1:
        return None
    subs = [o for o in body if o.name in ("arith.subf", "arith.subi")]
    if len(subs) > 1:
        return None
    zero_point = None
    if subs:
        lhs, rhs = (origin(v) for v in subs[0].operands)
        if lhs not in (packed, "packed") or rhs is None or rhs == packed:
            return None
        zero_point = rhs
    mul_sources = [origin(v) for v in muls[0].operands]
    mul_sources = [packed if m == "packed" else m for m in mul_sources]
    if mul_sources.count(packed) != 1 or None in mul_sources or "const" in mul_sources:
        return None
    scale = next(i for i in mul_sources if i != packed)
    if scale == zero_point or not str(args[scale].type).startswith(("f", "bf")):
        return None
    unsigned = any(o.name in _UNSIGNED_CASTS for o in body)
    shaped = [_as_shaped(v.type) for v in op.operands]
    if any(t is None or not t.has_static_shape for t in shaped):
        return None
    maps = _indexing_maps(op)
    # Loop sizes from the output (every loop indexes it directly in an elementwise dequantisation).
    sizes = _loop_sizes(maps[-1:], [tuple(shaped[-1].shape)]) or _loop_sizes(maps, [tuple(t.shape) for t in shaped])
    scale_results = _map_results(maps[scale])
    if sizes is None or None in scale_results:
        return None
    # Loops the scale does not index share it whole; `dN floordiv C` shares it C at a time.
    in_scale = {d: c for d, c in scale_results}
    group_loops = {d: (sizes[d] if d not in in_scale else in_scale[d]) for d in range(len(sizes))
                   if d not in in_scale or in_scale[d] > 1}
    bits = 4 if nibbles is not None else _int_bits(str(args[packed].type))
    scale_type = str(_as_shaped(op.operands[scale].type).element_type)
    return {
        "packed": packed, "scale": scale, "zero_point": zero_point,
        "element_type": f"{'u' if unsigned else ''}i{bits}", "scale_type": scale_type,
        "group_loops": group_loops, "maps": maps, "nibble_pairs": nibbles is not None,
    }


def _is_dequantising_contraction(op: ir.Operation) -> bool:
    """IREE's codegen folds a fused dequantisation into the matmul's body before it
    configures it (one generic reading the packed weight and its scales); that op
    carries the config, though it is no longer a two-input contraction."""
    if op.name != "linalg.generic" or len(op.results) != 1:
        return False
    if not any("reduction" in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])):
        return False
    block = op.regions[0].blocks[0]
    n_in = len(op.operands) - 1
    body = {o.operation.name for o in block.operations}
    narrow = [a for a in list(block.arguments)[:n_in] if _is_packed_weight_type(str(a.type))]
    return len(narrow) == 1 and "arith.mulf" in body and "arith.addf" in body \
        and body <= _DEQUANT_BODY_OPS | {"arith.addf"}


_INTEGER_QUANT_BODY_OPS = {"arith.extsi", "arith.extui", "arith.subi", "arith.muli", "arith.addi", "linalg.yield"}


def _integer_quantised_contraction(op: ir.Operation) -> dict | None:
    """The quantiser's w4a8 contraction (docs/QUANT.md): one generic over (output loops, K) with
    inputs (INT8 activation, 4-bit codes, per-group integer scale[, zero point]), an integer
    accumulator and a body of only integer casts, a subtraction, multiplies and the add. Returns
    the codes' type ("ui4" read unsigned), the group (the `k floordiv G` of the scale's map) and
    whether it has zero points; None if `op` is not one."""
    if op.name != "linalg.generic" or len(op.results) != 1 or len(op.operands) not in (4, 5):
        return None
    iterators = [str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])]
    if sum("reduction" in t for t in iterators) != 1:
        return None
    block = op.regions[0].blocks[0]
    n_in = len(op.operands) - 1
    args = list(block.arguments)
    body = [o.operation for o in block.operations]
    if any(o.name not in _INTEGER_QUANT_BODY_OPS for o in body):
        return None
    types = [str(a.type) for a in args]
    if types[0] != "i8" or not _is_packed_weight_type(types[1]) or types[n_in] != "i32" \
            or any(t != "i8" for t in types[2:n_in]):
        return None
    scale_map = _indexing_maps(op)[2]
    group = 0
    for expr in scale_map.results:
        text = str(expr)
        if "floordiv" in text:
            group = int(text.split("floordiv")[1].strip())
    if not group:
        return None
    codes_cast = [o for o in body if o.operands and o.operands[0] == args[1]]
    unsigned = bool(codes_cast) and codes_cast[0].name == "arith.extui"
    return {"element_type": ("u" if unsigned else "") + f"i{_int_bits(types[1])}", "group": group,
            "zero_point": n_in == 4}


def _weight_quantisation(root: ir.Operation, k_loops: tuple[int, ...]) -> WeightQuantisation | None:
    """The fused form: an input of the root op produced by a dequantisation in the same dispatch."""
    root_maps = _indexing_maps(root)
    for operand in range(len(root.operands) - len(root.results)):
        producer = _producer(root.operands[operand])
        info = _dequantisation(producer) if producer is not None else None
        if info is None:
            continue
        # Dequantisation loop behind each dimension of the weight, and the root loop behind it.
        out_results = _map_results(info["maps"][-1])
        root_results = _map_results(root_maps[operand])
        if None in out_results or None in root_results or len(out_results) != len(root_results):
            continue
        group = 1
        for (dq_loop, _), (root_loop, _) in zip(out_results, root_results):
            if root_loop in k_loops and dq_loop in info["group_loops"]:
                group *= info["group_loops"][dq_loop]
        return WeightQuantisation(
            operand=operand, element_type=info["element_type"], group_size=group,
            scale_type=info["scale_type"], zero_point=info["zero_point"] is not None, form="fused")
    return None


def _dequantise_dispatch(symbol: str, func_op: ir.Operation) -> UntunableDispatch | None:
    """IREE's split form: a dispatch whose one compute op dequantises a sub-byte weight."""
    generics = [op for op in _walk(func_op) if op.name.startswith("linalg.") and op.parent.name == "func.func"]
    if len(generics) != 1:
        return None
    op = generics[0]
    info = _dequantisation(op)
    if info is None:
        return None
    # Collapsed by IREE, so its loops no longer say which one is K; the quantiser's
    # groups run along K, so every loop that shares a scale is a K loop.
    group = math.prod(info["group_loops"].values()) if info["group_loops"] else 1
    moved = sum(_shaped(v).num_bytes for v in op.operands)  # packed + scales (+ zero points) read, float written
    q = WeightQuantisation(
        operand=-1, element_type=info["element_type"], group_size=group, scale_type=info["scale_type"],
        zero_point=info["zero_point"] is not None, form="split", producer=symbol, dequantise_bytes=moved)
    return UntunableDispatch(
        symbol, f"dequantises {info['element_type']} weights (group {group}) for another dispatch; "
                "no contraction, convolution or attention root op", op.name, dequantises=q)


def _input_bindings(root: ir.Operation) -> tuple[int, ...]:
    """The HAL binding each input of the root op is loaded from (-1: not a direct load)."""
    out = []
    for value in list(root.operands)[:len(root.operands) - len(root.results)]:
        op, binding = _producer(value), -1
        while op is not None and op.name in ("tensor.collapse_shape", "tensor.expand_shape", "linalg.generic"):
            if op.name == "linalg.generic":  # a fused dequantisation reads its packed input
                info = _dequantisation(op)
                if info is None:
                    break
                op = _producer(op.operands[info["packed"]])
            else:
                op = _producer(op.operands[0])
        if op is not None and op.name == "iree_tensor_ext.dispatch.tensor.load":
            subspan = _producer(op.operands[0])
            if subspan is not None and "binding" in subspan.attributes:
                binding = int(ir.IntegerAttr(subspan.attributes["binding"]).value)
        out.append(binding)
    return tuple(out)


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


# ---- softmax (docs/SOFTMAX.md) ---------------------------------------------------------------


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


# ---- elementwise roots (docs/ELEMENTWISE.md) -------------------------------------------------


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


# The host program's lines that say where a dispatch reads and writes.
_SCOPE = re.compile(r"^  (util\.initializer|util\.func|func\.func)\b")
_DISPATCH_OP = re.compile(r"stream\.cmd\.dispatch\s+(?:@[\w$.\-]+::)*@([\w$.\-]+)")
_STREAM_ACCESS = re.compile(r"\b(ro|wo|rw)\s+(%[\w$.\-]+)\[(%[\w$.\-]+) for (%[\w$.\-]+)\]")
_INDEX_CONSTANT = re.compile(r"(%[\w$.\-]+) = arith\.constant (\d+) : index")
_EXECUTE_OPERAND = re.compile(r"(%[\w$.\-]+) as (%[\w$.\-]+)\s*:")
_AWAIT = re.compile(r"(%[\w$.\-]+) = stream\.timepoint\.await\b.*=> (%[\w$.\-]+)")
_GLOBAL_LOAD = re.compile(r"(%[\w$.\-]+) = util\.global\.load (?:immutable )?(@[\w$.\-]+)")
_GLOBAL_STORE = re.compile(r"util\.global\.store (%[\w$.\-]+), (@[\w$.\-]+)")


def _host_accesses(host_text: str) -> list[tuple[str, bool, list[tuple[str, tuple]]]]:
    """Per `stream.cmd.dispatch`, in program order: (symbol, runs in an initializer,
    [(ro|wo|rw, resource key)] in binding order).

    A resource key is (resource, offset, length) with the resource followed through
    the names it goes by: an execute region's block argument, an awaited result, a
    global it is stored to and loaded from (a dequantisation IREE hoisted into an
    initializer writes a global the entry function reads).
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    out, scope, in_initializer, constants = [], 0, False, {}
    pending: list[str] | None = None
    for line in host_text.splitlines():
        m = _SCOPE.match(line)
        if m:  # SSA names are per function: qualify them by a scope number
            scope, in_initializer, constants = scope + 1, m.group(1) == "util.initializer", {}
        local = lambda name: f"{scope}:{name}"  # noqa: E731
        for name, value in _INDEX_CONSTANT.findall(line):
            constants[name] = int(value)
        if "stream.cmd.execute" in line:
            for outer, inner in _EXECUTE_OPERAND.findall(line):
                union(local(inner), local(outer))
        for result, awaited in _AWAIT.findall(line):
            union(local(result), local(awaited))
        for result, name in _GLOBAL_LOAD.findall(line):
            union(local(result), name)
        for value, name in _GLOBAL_STORE.findall(line):
            union(name, local(value))
        if pending is None and _DISPATCH_OP.search(line):
            pending = [line]
        elif pending is not None:
            pending.append(line)
        if pending is not None and line.strip() == "}":
            text = "\n".join(pending)
            accesses = [(mode, (local(res), constants.get(off, off), constants.get(length, length)))
                        for mode, res, off, length in _STREAM_ACCESS.findall(text)]
            out.append((_DISPATCH_OP.search(text).group(1), in_initializer, accesses))
            pending = None
    return [(symbol, init, [(mode, (find(res), off, length)) for mode, (res, off, length) in accesses])
            for symbol, init, accesses in out]


def link_split_dequantisation(problems: list[Problem], host_text: str) -> list[Problem]:
    """Attach each dequantise dispatch to the dispatch that reads what it wrote.

    The host program (`stream.cmd.dispatch` ops, in program order, each listing
    its resources in binding order) says which byte range a dispatch writes and
    which later dispatch reads it; that reader's root-op input loaded from the
    same binding is the dequantised weight. A producer in an initializer ran once,
    at load ("hoisted": IREE const-evaluated the dequantisation of a constant
    weight); one in the function runs on every call ("split").
    """
    producers = {p.dispatch: p for p in problems if isinstance(p, UntunableDispatch) and p.dequantises}
    if not producers:
        return problems
    last_writer: dict[tuple, tuple[str, bool]] = {}
    readers: dict[str, tuple[str, int, bool]] = {}  # consumer -> (producer, binding, hoisted)
    for symbol, in_initializer, accesses in _host_accesses(host_text):
        for binding, (mode, key) in enumerate(accesses):
            writer = last_writer.get(key)
            if mode in ("ro", "rw") and writer and writer[0] in producers and symbol not in readers:
                readers[symbol] = (writer[0], binding, writer[1])
        for mode, key in accesses:
            if mode in ("wo", "rw"):
                last_writer[key] = (symbol, in_initializer)
    out: list[Problem] = []
    for p in problems:
        link = readers.get(p.dispatch)
        if isinstance(p, RootOpProblem) and p.weight_quant is None and link is not None \
                and link[1] in p.input_bindings:
            q = replace(producers[link[0]].dequantises, operand=p.input_bindings.index(link[1]))
            if link[2]:  # done once at load: nothing per call beyond this dispatch's own f32 read
                q = replace(q, form="hoisted", dequantise_bytes=0)
            out.append(replace(p, weight_quant=q))
        else:
            out.append(p)
    consumers = {link[0]: (c, link[2]) for c, link in readers.items()}

    def reason(p: UntunableDispatch) -> str:
        consumer, hoisted = consumers[p.dispatch]
        when = "once at load (IREE hoisted it), " if hoisted else ""
        return (f"dequantises {p.dequantises.element_type} weights (group {p.dequantises.group_size}) {when}for "
                f"{consumer}; no contraction, convolution or attention root op")

    return [replace(p, reason=reason(p)) if isinstance(p, UntunableDispatch) and p.dispatch in consumers else p
            for p in out]
