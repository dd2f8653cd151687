"""A numpy reference of a model's public functions, from its linalg form.

The model is lowered to IREE's input form (`--compile-to=input`: torch and
ONNX become linalg on tensors) and named ops are generalised
(`iree-opt --linalg-generalize-named-ops`), so every compute op is a
`linalg.generic`. Those are evaluated in float64 / int64:
- contractions (a body that multiplies the inputs and adds into the output,
  with optional casts) with `np.einsum`;
- everything else by evaluating the body over the iteration space with
  broadcasting, reductions folded with the body's combiner;
- `iree_linalg_ext.attention` (unmasked) as softmax(scale Q K^T) V.
Maps must be projected permutations (convolution windows `d1 + d3` are not);
any op outside this subset raises `NotEvaluable`, and `verify` then says the
reference was IREE's default build instead.
"""

from __future__ import annotations

import math
import re

import numpy as np
from iree.compiler import ir


# Largest iteration space evaluated densely (elements); einsum has no such limit.
MAX_DENSE_ELEMENTS = 1 << 26


class NotEvaluable(Exception):
    """The model uses an op or a shape the numpy evaluator does not cover."""


_FLOAT = {"f16", "bf16", "f32", "f64"}
_INT = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def _sub_byte_bits(element: str) -> int | None:
    """Bits of a sub-byte integer type (i2, i4, si4, ui4), None for anything else."""
    digits = element.lstrip("su")
    if digits.startswith("i") and digits[1:].isdigit() and 1 < int(digits[1:]) < 8:
        return int(digits[1:])
    return None


def _is_integer(element: str) -> bool:
    return element in _INT or _sub_byte_bits(element) is not None


def _element(type_text: str) -> str:
    return type_text.split("x")[-1].rstrip(">") if type_text.startswith("tensor<") else type_text


def _as_type(value, element: str):
    """Round a float64/int64 array to what `element` can hold, kept wide for the next op."""
    if element in _FLOAT:
        if element == "f16":
            return np.asarray(value, dtype=np.float64).astype(np.float16).astype(np.float64)
        if element == "f32":
            return np.asarray(value, dtype=np.float64).astype(np.float32).astype(np.float64)
        if element == "bf16":
            f = np.asarray(value, dtype=np.float32)
            bits = f.view(np.uint32)
            rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
            return rounded.view(np.float32).astype(np.float64)
        return np.asarray(value, dtype=np.float64)
    bits = _sub_byte_bits(element)
    if bits is not None:
        # Two's complement wrap to `bits` (signless and signed); ui types keep [0, 2^bits).
        value = np.mod(np.asarray(value).astype(np.int64), 1 << bits)
        return value if element.startswith("ui") else np.where(value >= 1 << (bits - 1), value - (1 << bits), value)
    if element in _INT:
        if element == "i1":
            return np.asarray(value).astype(np.bool_)
        return np.asarray(value).astype(_INT[element]).astype(np.int64)
    raise NotEvaluable(f"element type {element}")


def _map_dims(amap: ir.AffineMap) -> list:
    """Loop index of each result, None for a broadcast constant 0, (loop, C) for
    `dN floordiv C` (a group-wise quantisation scale); fails on sums."""
    out = []
    for expr in amap.results:
        e = expr.maybe_downcast() if hasattr(expr, "maybe_downcast") else expr
        if isinstance(e, ir.AffineDimExpr):
            out.append(e.position)
        elif isinstance(e, ir.AffineConstantExpr) and e.value == 0:
            out.append(None)
        elif (m := re.fullmatch(r"d(\d+) floordiv (\d+)", str(e).strip())) and int(m.group(2)) > 0:
            out.append((int(m.group(1)), int(m.group(2))))
        else:
            raise NotEvaluable(f"indexing map {amap} is not a projected permutation")
    return out


def _expand_floordiv(array, dims: list, loop_sizes: list[int]):
    """An operand read at `dN floordiv C`, repeated C times along that axis: then read at `dN`."""
    if not any(isinstance(d, tuple) for d in dims):
        return array, dims
    array = np.asarray(array)
    out_dims = []
    for axis, d in enumerate(dims):
        if isinstance(d, tuple):
            loop, c = d
            array = np.take(np.repeat(array, c, axis=axis), np.arange(loop_sizes[loop]), axis=axis)
            d = loop
        out_dims.append(d)
    return array, out_dims


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


_BINARY = {
    "arith.addf": np.add, "arith.addi": np.add, "arith.subf": np.subtract, "arith.subi": np.subtract,
    "arith.mulf": np.multiply, "arith.muli": np.multiply, "arith.divf": np.divide,
    "arith.maximumf": np.maximum, "arith.maxnumf": np.fmax, "arith.minimumf": np.minimum,
    "arith.minnumf": np.fmin, "arith.maxsi": np.maximum, "arith.minsi": np.minimum,
    "arith.andi": np.logical_and, "arith.ori": np.logical_or, "math.powf": np.power,
}
_UNARY = {
    "arith.negf": np.negative, "math.exp": np.exp, "math.tanh": np.tanh, "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x), "math.log": np.log, "math.absf": np.abs, "math.erf": None,
}
_CASTS = ("arith.extf", "arith.truncf", "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
          "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.bitcast", "arith.index_cast")
_CMP = {"olt": np.less, "ole": np.less_equal, "ogt": np.greater, "oge": np.greater_equal, "oeq": np.equal,
        "one": np.not_equal, "slt": np.less, "sle": np.less_equal, "sgt": np.greater, "sge": np.greater_equal,
        "eq": np.equal, "ne": np.not_equal, "ult": np.less, "ugt": np.greater}
_COMBINERS = {"arith.addf": np.add, "arith.addi": np.add, "arith.maximumf": np.maximum,
              "arith.maxnumf": np.fmax, "arith.minimumf": np.minimum, "arith.maxsi": np.maximum,
              "arith.minsi": np.minimum, "arith.mulf": np.multiply}


def _constant(attr: ir.Attribute, element: str):
    text = str(attr)
    if isinstance(attr, (ir.FloatAttr,)) or element in _FLOAT and not text.startswith("dense"):
        return np.float64(ir.FloatAttr(attr).value)
    if isinstance(attr, ir.IntegerAttr):
        return np.int64(ir.IntegerAttr(attr).value)
    if isinstance(attr, ir.DenseElementsAttr) or text.startswith("dense"):
        dense = ir.DenseElementsAttr(attr)
        shape = tuple(ir.ShapedType(attr.type).shape)
        if dense.is_splat:
            value = _constant(dense.get_splat_value(), element)
            return np.full(shape, value, dtype=np.float64 if element in _FLOAT else np.int64)
        return _as_type(np.array(dense), element).reshape(shape)
    raise NotEvaluable(f"constant {text[:60]}")


def _eval_body(block: ir.Block, args: list, n_inputs: int, env_outer: dict) -> list:
    env = {}
    for arg, value in zip(block.arguments, args):
        env[arg] = value

    def get(v):
        if v in env:
            return env[v]
        if v in env_outer:
            return env_outer[v]
        raise NotEvaluable("a body uses a value from outside it")

    for op in block.operations:
        op = op.operation
        name = op.name
        if name == "linalg.yield":
            return [get(v) for v in op.operands]
        element = _element(str(op.results[0].type)) if op.results else ""
        if name in _BINARY:
            env[op.results[0]] = _as_type(_BINARY[name](get(op.operands[0]), get(op.operands[1])), element)
        elif name in _UNARY and _UNARY[name] is not None:
            env[op.results[0]] = _as_type(_UNARY[name](get(op.operands[0])), element)
        elif name in _CASTS:
            env[op.results[0]] = _cast(name, get(op.operands[0]), _element(str(op.operands[0].type)), element)
        elif name == "arith.constant":
            env[op.results[0]] = _constant(op.attributes["value"], element)
        elif name in ("arith.cmpf", "arith.cmpi"):
            predicate = str(op.attributes["predicate"]).split(":")[0].strip()
            names = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
                     "ule", "une", "uno", "true"] if name == "arith.cmpf" else \
                ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
            key = names[int(predicate)] if predicate.isdigit() else predicate
            if key not in _CMP:
                raise NotEvaluable(f"{name} predicate {key}")
            env[op.results[0]] = _CMP[key](get(op.operands[0]), get(op.operands[1]))
        elif name == "arith.select":
            env[op.results[0]] = np.where(get(op.operands[0]), get(op.operands[1]), get(op.operands[2]))
        else:
            raise NotEvaluable(f"{name} in a linalg.generic body")
    raise NotEvaluable("a body without linalg.yield")


def _cast(name: str, src, source: str, element: str):
    """One arith cast; the unsigned ones read a signless integer's bits as unsigned."""
    if name in ("arith.extui", "arith.uitofp") and source.lstrip("su").startswith("i"):
        bits = int(source.lstrip("su")[1:])
        src = np.mod(np.asarray(src).astype(np.int64), 1 << bits)
    return _as_type(np.trunc(src) if name.startswith("arith.fpto") else src, element)


def _contraction_einsum(op, block, ins, maps_dims, loop_sizes):
    """np.einsum for bodies `out + (cast? in0) * (cast? in1)`; None if the body is not that."""
    ops = [o.operation for o in block.operations]
    if len(block.arguments) != 3 or not ops or ops[-1].name != "linalg.yield":
        return None
    producers = {r: o for o in ops for r in o.results}

    def through_casts(v):
        while v in producers and producers[v].name in _CASTS:
            v = producers[v].operands[0]
        return v

    add = producers.get(ops[-1].operands[0])
    if add is None or add.name not in ("arith.addf", "arith.addi"):
        return None
    a, b = add.operands
    out_arg = block.arguments[2]
    mul = producers.get(b) if a == out_arg else producers.get(a) if b == out_arg else None
    if mul is None or mul.name not in ("arith.mulf", "arith.muli"):
        return None
    x, y = (through_casts(v) for v in mul.operands)
    if {x, y} != {block.arguments[0], block.arguments[1]}:
        return None
    letters = "abcdefghijklmnopqrstuvwxyz"
    if any(d is None for dims in maps_dims for d in dims):
        return None
    subs = ["".join(letters[d] for d in dims) for dims in maps_dims]
    wide = [np.asarray(v, dtype=np.float64 if np.asarray(v).dtype.kind == "f" else np.int64) for v in ins[:2]]
    return np.einsum(f"{subs[0]},{subs[1]}->{subs[2]}", *wide)


def _eval_generic(op: ir.Operation, values: dict) -> np.ndarray:
    n_in = len(op.operands) - len(op.results)
    operands = [values[v] for v in op.operands]
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    maps_dims = [_map_dims(m) for m in maps]
    n_loops = maps[0].n_dims
    loop_sizes = [1] * n_loops
    for array, dims in zip(operands, maps_dims):
        array = np.asarray(array)
        for axis, d in enumerate(dims):
            if isinstance(d, int) and axis < array.ndim:
                loop_sizes[d] = array.shape[axis]
    if any(isinstance(d, tuple) for dims in maps_dims for d in dims):
        expanded = [_expand_floordiv(a, d, loop_sizes) for a, d in zip(operands, maps_dims)]
        operands, maps_dims = [a for a, _ in expanded], [d for _, d in expanded]
    iterators = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
    reduction = [i for i, t in enumerate(iterators) if "reduction" in t]
    block = op.regions[0].blocks[0]
    out_element = _element(str(op.results[0].type))
    init = np.asarray(operands[n_in], dtype=np.float64 if out_element in _FLOAT else np.int64)
    if reduction and n_in == 2:
        product = _contraction_einsum(op, block, operands, maps_dims, loop_sizes)
        if product is not None:
            return _as_type(init + product, out_element)
    if math.prod(loop_sizes) > MAX_DENSE_ELEMENTS:
        raise NotEvaluable(f"iteration space of {math.prod(loop_sizes)} elements")
    args = [_to_space(np.asarray(a), d, n_loops) for a, d in zip(operands[:n_in], maps_dims[:n_in])]
    out_dims = maps_dims[n_in]
    if not reduction:
        full = tuple(loop_sizes)
        out = _to_space(init, out_dims, n_loops)
        result = _eval_body(block, args + [out], n_in, values)[0]
        result = np.broadcast_to(result, full)
        order = [d for d in out_dims if d is not None]
        return _as_type(np.transpose(result, order).reshape(init.shape), out_element)
    # A reduction with another combiner: evaluate the body's non-accumulator part
    # over the whole space, then fold it along the reduction loops.
    yield_op = list(block.operations)[-1].operation
    producers = {r: o.operation for o in block.operations for r in o.operation.results}
    combine = producers.get(yield_op.operands[0])
    out_arg = block.arguments[n_in]
    if combine is None or combine.name not in _COMBINERS or out_arg not in list(combine.operands):
        raise NotEvaluable("a reduction whose body is not `out <op> f(inputs)`")
    other = combine.operands[1] if combine.operands[0] == out_arg else combine.operands[0]
    marker = np.zeros([1] * n_loops)
    env = {}
    for a, v in zip(block.arguments, args + [marker]):
        env[a] = v
    # Evaluate the ops that feed `other` (they must not read the accumulator).
    for body_op in block.operations:
        body_op = body_op.operation
        if body_op == combine:
            break
        if out_arg in list(body_op.operands):
            raise NotEvaluable("a reduction body reads the accumulator twice")
    sub_values = _eval_body_until(block, args, combine, values)
    contribution = np.broadcast_to(sub_values[other] if other in sub_values else env[other], tuple(loop_sizes))
    folded = _COMBINERS[combine.name].reduce(contribution, axis=tuple(reduction), keepdims=True)
    folded = np.squeeze(folded, axis=tuple(reduction))
    kept = [d for d in range(n_loops) if d not in reduction]
    order = [kept.index(d) for d in out_dims if d is not None]
    folded = np.transpose(folded, order).reshape(init.shape)
    return _as_type(_COMBINERS[combine.name](init, folded), out_element)


def _eval_body_until(block, args, stop, outer):
    """SSA values of the body's ops before `stop` (inputs bound to `args`)."""
    env = dict(zip(block.arguments, args))
    for op in block.operations:
        op = op.operation
        if op == stop:
            break
        results = _eval_body_single(op, env, outer)
        env.update(results)
    return env


def _eval_body_single(op, env, outer):
    """One body op through the same rules as `_eval_body`."""
    # Build a one-op block view by reusing _eval_body's dispatch on a tiny env.
    name = op.name
    element = _element(str(op.results[0].type)) if op.results else ""

    def get(v):
        if v in env:
            return env[v]
        if v in outer:
            return outer[v]
        raise NotEvaluable("a body uses a value from outside it")

    if name in _BINARY:
        return {op.results[0]: _as_type(_BINARY[name](get(op.operands[0]), get(op.operands[1])), element)}
    if name in _UNARY and _UNARY[name] is not None:
        return {op.results[0]: _as_type(_UNARY[name](get(op.operands[0])), element)}
    if name in _CASTS:
        return {op.results[0]: _cast(name, get(op.operands[0]), _element(str(op.operands[0].type)), element)}
    if name == "arith.constant":
        return {op.results[0]: _constant(op.attributes["value"], element)}
    raise NotEvaluable(f"{name} in a reduction body")


def _eval_attention(op: ir.Operation, values: dict) -> np.ndarray:
    """`iree_linalg_ext.attention`: softmax(scale * Q K^T over the keys) V, in float64.

    The loop groups come from the maps: k1 (head width) is in Q and K only, k2 (keys)
    in K and V only, n (value width) in V and the output only; the rest index all.
    A mask operand, or a score region that does more than yield the score, is not covered.
    """
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    n_in = len(op.operands) - len(op.results)
    if n_in != 4 or len(maps) != 5:
        raise NotEvaluable("masked attention")
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    if len(body) != 1 or body[0].name != "iree_linalg_ext.yield" \
            or body[0].operands[0] != op.regions[0].blocks[0].arguments[0]:
        raise NotEvaluable("attention with a score modification region")
    q_dims, k_dims, v_dims, _, o_dims = (_map_dims(m) for m in maps)
    if any(not isinstance(d, int) for dims in (q_dims, k_dims, v_dims, o_dims) for d in dims):
        raise NotEvaluable("attention maps that are not projected permutations")
    letters = "abcdefghijklmnopqrstuvwxyz"
    key_loops = [d for d in k_dims if d in v_dims and d not in q_dims]
    score_dims = [d for d in range(maps[0].n_dims) if (d in q_dims and d not in k_dims) or
                  (d in q_dims and d in k_dims and d in o_dims) or d in key_loops]

    def sub(dims):
        return "".join(letters[d] for d in dims)

    q, k, v = (np.asarray(values[x], dtype=np.float64) for x in list(op.operands)[:3])
    scale = float(np.asarray(values[op.operands[3]]))
    scores = np.einsum(f"{sub(q_dims)},{sub(k_dims)}->{sub(score_dims)}", q, k) * scale
    axes = tuple(score_dims.index(d) for d in key_loops)
    scores = scores - scores.max(axis=axes, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=axes, keepdims=True)
    out = np.einsum(f"{sub(score_dims)},{sub(v_dims)}->{sub(o_dims)}", weights, v)
    return _as_type(out, _element(str(op.results[0].type)))


def _tensor_shape(value: ir.Value) -> tuple[int, ...]:
    t = value.type.maybe_downcast() if hasattr(value.type, "maybe_downcast") else value.type
    return tuple(t.shape) if isinstance(t, ir.ShapedType) else ()


class NumpyModel:
    """The public functions of a model, evaluated with numpy."""

    def __init__(self, text: str):
        self._ctx = ir.Context()
        with self._ctx:
            self.module = ir.Module.parse(text)
        self.functions = {}
        for op in self.module.body.operations:
            op = op.operation
            if op.name in ("func.func", "util.func"):
                self.functions[ir.StringAttr(op.attributes["sym_name"]).value] = op

    def public_names(self) -> list[str]:
        out = []
        for name, op in self.functions.items():
            vis = op.attributes["sym_visibility"] if "sym_visibility" in op.attributes else None
            if vis is None or ir.StringAttr(vis).value == "public":
                out.append(name)
        return out

    def __call__(self, name: str, *args) -> list[np.ndarray]:
        # exp overflowing to inf (a sigmoid of a large negative input) and casts to
        # +-inf are the model's own f32 semantics, which IREE computes too: no warning.
        with self._ctx, np.errstate(over="ignore"):
            return self._run(self.functions[name], list(args))

    def _run(self, func: ir.Operation, args: list) -> list:
        block = func.regions[0].blocks[0]
        values = {}
        for a, v in zip(block.arguments, args):
            element = _element(str(a.type))
            values[a] = _as_type(np.asarray(v, dtype=np.float64 if element in _FLOAT else None), element) \
                if element in _FLOAT or _is_integer(element) else v
        for op in block.operations:
            op = op.operation
            name = op.name
            if name in ("func.return", "util.return"):
                return [values[v] for v in op.operands]
            if name == "linalg.generic":
                values[op.results[0]] = _eval_generic(op, values)
            elif name == "iree_linalg_ext.attention":
                values[op.results[0]] = _eval_attention(op, values)
            elif name == "tensor.empty":
                element = _element(str(op.results[0].type))
                values[op.results[0]] = np.zeros(_tensor_shape(op.results[0]),
                                                 dtype=np.float64 if element in _FLOAT else np.int64)
            elif name == "arith.constant":
                values[op.results[0]] = _constant(op.attributes["value"], _element(str(op.results[0].type)))
            elif name in ("tensor.collapse_shape", "tensor.expand_shape", "tensor.reshape"):
                values[op.results[0]] = np.reshape(values[op.operands[0]], _tensor_shape(op.results[0]))
            elif name in ("hal.tensor.import", "hal.tensor.export"):
                values[op.results[0]] = values[op.operands[0]]
            elif name == "hal.tensor.barrier":
                for r, v in zip(op.results, op.operands):
                    values[r] = values.get(v)
            elif name in ("util.call", "func.call"):
                callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                if callee not in self.functions:
                    raise NotEvaluable(f"call to {callee}")
                results = self._run(self.functions[callee], [values.get(v) for v in op.operands])
                for r, v in zip(op.results, results):
                    values[r] = v
            elif name in ("hal.devices.get", "hal.fence.create", "hal.fence.await", "util.null"):
                for r in op.results:
                    values[r] = None
            else:
                raise NotEvaluable(name)
        raise NotEvaluable("function without a return")
