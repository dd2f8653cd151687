"""A numpy reference of a model's public functions, from its linalg form.

The model is lowered to IREE's input form (`--compile-to=input`: torch and
ONNX become linalg on tensors) and named ops are generalised
(`iree-opt --linalg-generalize-named-ops`), so every compute op is a
`linalg.generic`. Those are evaluated in float64 / int64:
- contractions and convolutions (a body that multiplies the inputs and adds
  into the output, with optional casts) with `np.einsum`, the inputs first
  gathered over the loops their maps read (`d1 * 2 + d4` windows included;
  `iteration_space.py`);
- everything else by evaluating the body over the iteration space with
  broadcasting, reductions folded with the body's combiner; the scalar
  `arith`/`math` ops of a body are in `elementwise.py`;
- `iree_linalg_ext.attention` as softmax(scale Q K^T + mask) V; `linalg.softmax` directly;
- static tensor slicing, padding and concatenation between them.
Any op outside this subset raises `NotEvaluable`; `verify` then checks each
tuned dispatch alone against a numpy model of its root op (`dispatch_alone.py`).
"""

from __future__ import annotations

import math
import re
import weakref

import numpy as np
from iree.compiler import ir

from .elementwise import (
    CASTS,
    COMBINERS,
    FLOAT_ELEMENTS,
    NotEvaluable,
    as_type,
    element_of,
    evaluate,
    is_integer,
)
from .iteration_space import MAX_DENSE_ELEMENTS, _in_space, _loop_sizes, _loops_read, _map_dims, _to_space

# Kept under their old names: other modules import them from here.
_element = element_of
_as_type = as_type
_is_integer = is_integer
_FLOAT = FLOAT_ELEMENTS

__all__ = ["NotEvaluable", "NumpyModel", "MAX_DENSE_ELEMENTS"]


def _wide(element: str):
    return np.float64 if element in FLOAT_ELEMENTS else np.int64


# `dense_resource<KEY>` constants (a torch export's small tables, such as rotary frequencies): the
# bindings can make such an attribute but not read its bytes, so each model's blobs are read from
# its text's resource section, `{-# dialect_resources: { builtin: { KEY: "0x..." } } #-}` (the
# first 4 bytes of a blob are its alignment). Per parsing context: keys are only unique in a module.
_RESOURCE_BLOBS: "weakref.WeakKeyDictionary[ir.Context, dict[str, bytes]]" = weakref.WeakKeyDictionary()
_BLOB = re.compile(r'^\s*(?:"([^"]+)"|([\w.$-]+))\s*:\s*"0x([0-9A-Fa-f]*)"', re.MULTILINE)


def resource_blobs(text: str) -> dict[str, bytes]:
    """KEY -> the element bytes of each builtin resource blob in a module's text."""
    start = text.rfind("{-#")
    if start < 0:
        return {}
    return {m.group(1) or m.group(2): bytes.fromhex(m.group(3))[4:] for m in _BLOB.finditer(text, start)}


def _resource_constant(attr: ir.Attribute, text: str, element: str):
    from ..parameters import elements_from_bytes

    key = text[len("dense_resource<"):text.index(">")]
    blob = _RESOURCE_BLOBS.get(attr.context, {}).get(key)
    if blob is None:
        raise NotEvaluable(f"constant {text[:60]} (its blob is not in the module's text)")
    try:
        value = elements_from_bytes(element, ir.ShapedType(attr.type).shape, blob)
    except ValueError as e:  # a length or element type the blob does not fit
        raise NotEvaluable(f"constant {text[:60]} ({e})") from None
    return as_type(value, element)


def _constant(attr: ir.Attribute, element: str):
    text = str(attr)
    if text.startswith("dense_resource<"):
        return _resource_constant(attr, text, element)
    if isinstance(attr, (ir.FloatAttr,)) or element in FLOAT_ELEMENTS and not text.startswith("dense"):
        return np.float64(ir.FloatAttr(attr).value)
    if isinstance(attr, ir.IntegerAttr):
        value = np.int64(ir.IntegerAttr(attr).value)
        return np.bool_(value & 1) if element == "i1" else value
    if isinstance(attr, ir.DenseElementsAttr) or text.startswith("dense"):
        dense = ir.DenseElementsAttr(attr)
        shape = tuple(ir.ShapedType(attr.type).shape)
        if dense.is_splat:
            value = _constant(dense.get_splat_value(), element)
            return np.full(shape, value, dtype=np.bool_ if element == "i1" else _wide(element))
        return as_type(np.array(dense), element).reshape(shape)
    raise NotEvaluable(f"constant {text[:60]}")


def _eval_body(block: ir.Block, args: list, outer: dict, loop_sizes: list[int], stop=None) -> dict:
    """Every SSA value of a body (its arguments bound to `args`), up to `stop` or the yield.

    Values from outside the body (scalars a torch export hoists, such as the exponent of
    `math.fpowi`, or a table `tensor.extract` reads) come from `outer`.
    """
    env = dict(zip(block.arguments, args))

    def get(v):
        if v in env:
            return env[v]
        if v in outer:
            return outer[v]
        raise NotEvaluable("a body uses a value from outside it")

    for op in block.operations:
        op = op.operation
        if (stop is not None and op == stop) or op.name == "linalg.yield":
            return env
        element = element_of(str(op.results[0].type)) if op.results else ""
        if op.name == "arith.constant":
            results = [_constant(op.attributes["value"], element)]
        elif op.name == "linalg.index":
            dim = ir.IntegerAttr(op.attributes["dim"]).value
            shape = [1] * len(loop_sizes)
            shape[dim] = loop_sizes[dim]
            results = [np.arange(loop_sizes[dim], dtype=np.int64).reshape(shape)]
        elif op.name == "tensor.extract":  # a gather (an embedding lookup) inside the body
            table = np.asarray(get(op.operands[0]))
            index = [np.asarray(get(v)) for v in list(op.operands)[1:]]
            results = [table[tuple(np.broadcast_arrays(*index))] if index else table[()]]
        else:
            results = evaluate(op, [get(v) for v in op.operands])
        env.update(zip(op.results, results))
    raise NotEvaluable("a body without linalg.yield")


def _yielded(block: ir.Block, env: dict, outer: dict) -> list:
    yield_op = list(block.operations)[-1].operation
    return [env[v] if v in env else outer[v] for v in yield_op.operands]


def _contraction_einsum(block, ins_in_space, maps, loop_sizes, out_dims):
    """np.einsum for bodies `out + (cast? in0) * (cast? in1)`; None if the body is not that."""
    ops = [o.operation for o in block.operations]
    if len(block.arguments) != 3 or not ops or ops[-1].name != "linalg.yield":
        return None
    producers = {r: o for o in ops for r in o.results}

    def through_casts(v):
        while v in producers and producers[v].name in CASTS and producers[v].name != "arith.bitcast":
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
    if any(d is None for d in out_dims):
        return None
    letters = "abcdefghijklmnopqrstuvwxyz"
    operands, subscripts = [], []
    for array, amap in zip(ins_in_space, maps[:2]):
        read = _loops_read(amap)
        drop = tuple(d for d in range(len(loop_sizes)) if d not in read)
        wide = np.asarray(array, dtype=np.float64 if np.asarray(array).dtype.kind == "f" else np.int64)
        operands.append(np.squeeze(wide, axis=drop) if drop else wide)
        subscripts.append("".join(letters[d] for d in read))
    out = "".join(letters[d] for d in out_dims)
    return np.einsum(f"{subscripts[0]},{subscripts[1]}->{out}", *operands, optimize=True)


def _factored_contraction(block, args, in_maps, loop_sizes, out_dims, outer):
    """`out + P * Q` where P and Q each read only some of the loops (an INT4 weight's
    `(c - z) * u`, its scale read per group along K, times the activation's codes): each factor
    is evaluated over its own loops, then one np.einsum sums their product. The whole
    iteration space (M x N x K) is never made. None: the body is not that, or a factor needs
    as many elements as the space the dense path refuses."""
    ops = [o.operation for o in block.operations]
    n_in = len(in_maps)
    if len(block.arguments) != n_in + 1 or len(ops) < 3 or ops[-1].name != "linalg.yield":
        return None
    producers = {r: o for o in ops for r in o.results}
    add, acc = producers.get(ops[-1].operands[0]), block.arguments[n_in]
    if add is None or add.name not in ("arith.addf", "arith.addi") or acc not in list(add.operands):
        return None
    mul = producers.get(add.operands[1] if add.operands[0] == acc else add.operands[0])
    if mul is None or mul.name not in ("arith.mulf", "arith.muli"):
        return None
    deps = {a: frozenset(_loops_read(m)) for a, m in zip(block.arguments, in_maps)}
    deps[acc] = None  # a factor may not read the accumulator
    for o in ops:
        if o == mul:
            break
        if o.name == "linalg.index":
            found = frozenset([ir.IntegerAttr(o.attributes["dim"]).value])
        else:
            inner = [deps.get(v, frozenset()) for v in o.operands]  # an outside value reads no loop
            found = None if any(d is None for d in inner) else frozenset().union(*inner)
        for r in o.results:
            deps[r] = found
    factors = [deps.get(v, frozenset()) for v in mul.operands]
    if any(d is None or math.prod(loop_sizes[i] for i in d) > MAX_DENSE_ELEMENTS for d in factors) \
            or any(d is None for d in out_dims):
        return None
    env = _eval_body(block, list(args) + [np.zeros([1] * len(loop_sizes))], outer, loop_sizes, stop=mul)
    letters = "abcdefghijklmnopqrstuvwxyz"
    operands, subscripts = [], []
    for v, read in zip(mul.operands, factors):
        order = sorted(read)
        full = [loop_sizes[i] if i in read else 1 for i in range(len(loop_sizes))]
        value = np.broadcast_to(np.asarray(env[v] if v in env else outer[v]), full).reshape([loop_sizes[i] for i in order])
        wide = np.float64 if value.dtype.kind == "f" else np.int64
        operands.append(value.astype(wide, copy=False))
        subscripts.append("".join(letters[i] for i in order))
    out = "".join(letters[d] for d in out_dims)
    return np.einsum(f"{subscripts[0]},{subscripts[1]}->{out}", *operands, optimize=True)


def _eval_generic(op: ir.Operation, values: dict) -> list[np.ndarray]:
    n_in = len(op.operands) - len(op.results)
    operands = [values[v] for v in op.operands]
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    loop_sizes = _loop_sizes(operands, maps)
    n_loops = len(loop_sizes)
    iterators = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
    reduction = [i for i, t in enumerate(iterators) if "reduction" in t]
    block = op.regions[0].blocks[0]
    out_elements = [element_of(str(r.type)) for r in op.results]
    inits = [np.asarray(operands[n_in + i], dtype=_wide(e)) for i, e in enumerate(out_elements)]
    out_dims = [_map_dims(m) for m in maps[n_in:]]
    args = [_in_space(a, m, loop_sizes) for a, m in zip(operands[:n_in], maps[:n_in])]
    if reduction and n_in == 2 and len(op.results) == 1:
        product = _contraction_einsum(block, args, maps, loop_sizes, out_dims[0])
        if product is not None:
            return [as_type(inits[0] + product, out_elements[0])]
    if reduction and len(op.results) == 1 and math.prod(loop_sizes) > MAX_DENSE_ELEMENTS:
        product = _factored_contraction(block, args, maps[:n_in], loop_sizes, out_dims[0], values)
        if product is not None:
            return [as_type(inits[0] + product, out_elements[0])]
    if math.prod(loop_sizes) > MAX_DENSE_ELEMENTS:
        raise NotEvaluable(f"iteration space of {math.prod(loop_sizes)} elements")
    if not reduction:
        outs = [_to_space(init, dims, n_loops) for init, dims in zip(inits, out_dims)]
        env = _eval_body(block, args + outs, values, loop_sizes)
        results = []
        for value, init, dims, element in zip(_yielded(block, env, values), inits, out_dims, out_elements):
            value = np.broadcast_to(value, tuple(loop_sizes))
            order = [d for d in dims if d is not None]
            results.append(as_type(np.transpose(value, order).reshape(init.shape), element))
        return results
    if len(op.results) != 1:
        pair = _max_with_index(block, args, inits, out_dims, reduction, n_in)
        if pair is None:
            raise NotEvaluable("a reduction with several outputs (other than a max and its index)")
        return [as_type(v, e) for v, e in zip(pair, out_elements)]
    # A reduction with another combiner: evaluate the body's non-accumulator part
    # over the whole space, then fold it along the reduction loops.
    yield_op = list(block.operations)[-1].operation
    producers = {r: o.operation for o in block.operations for r in o.operation.results}
    combine = producers.get(yield_op.operands[0])
    out_arg = block.arguments[n_in]
    if combine is None or combine.name not in COMBINERS or out_arg not in list(combine.operands):
        raise NotEvaluable("a reduction whose body is not `out <op> f(inputs)`")
    for body_op in block.operations:
        body_op = body_op.operation
        if body_op == combine:
            break
        if out_arg in list(body_op.operands):
            raise NotEvaluable("a reduction body reads the accumulator twice")
    other = combine.operands[1] if combine.operands[0] == out_arg else combine.operands[0]
    env = _eval_body(block, args + [np.zeros([1] * n_loops)], values, loop_sizes, stop=combine)
    contribution = np.broadcast_to(env[other] if other in env else values[other], tuple(loop_sizes))
    folded = COMBINERS[combine.name].reduce(contribution, axis=tuple(reduction), keepdims=True)
    folded = np.squeeze(folded, axis=tuple(reduction))
    kept = [d for d in range(n_loops) if d not in reduction]
    order = [kept.index(d) for d in out_dims[0] if d is not None]
    folded = np.transpose(folded, order).reshape(inits[0].shape)
    return [as_type(COMBINERS[combine.name](inits[0], folded), out_elements[0])]


def _max_with_index(block: ir.Block, args: list, inits: list, out_dims: list, reduction: list[int], n_in: int):
    """torch's `max(dim)` (values and indices; a softmax's running max), as a torch export lowers it:
    `m = maximumf(in, m)` and `i = select(cmpf ogt(in, m), index(d), i)` over one reduction loop `d`.
    The index is the first position of the maximum, and the initial index where nothing beats the
    initial maximum. None: the body is anything else."""
    ops = [o.operation for o in block.operations]
    if n_in != 1 or len(reduction) != 1 or len(ops) != 6 or out_dims[0] != out_dims[1]:
        return None
    index, cast, maximum, compare, select, yield_op = ops
    x, m_arg, i_arg = block.arguments[0], block.arguments[1], block.arguments[2]
    if not (index.name == "linalg.index" and ir.IntegerAttr(index.attributes["dim"]).value == reduction[0]
            and cast.name == "arith.index_cast" and cast.operands[0] == index.results[0]
            and maximum.name == "arith.maximumf" and set(maximum.operands) == {x, m_arg}
            and compare.name == "arith.cmpf" and list(compare.operands) == [x, m_arg]
            and ir.IntegerAttr(compare.attributes["predicate"]).value == 2  # ogt
            and select.name == "arith.select" and list(select.operands) == [compare.results[0], cast.results[0], i_arg]
            and list(yield_op.operands) == [maximum.results[0], select.results[0]]):
        return None
    axis = reduction[0]
    values = np.asarray(args[0], dtype=np.float64)
    kept = [d for d in range(values.ndim) if d != axis]
    order = [kept.index(d) for d in out_dims[0] if d is not None]
    best = np.transpose(values.max(axis=axis), order).reshape(inits[0].shape)
    first = np.transpose(values.argmax(axis=axis), order).reshape(inits[1].shape)
    return np.maximum(inits[0], best), np.where(best > inits[0], first, inits[1])


def _static(op: ir.Operation, name: str) -> list[int]:
    values = list(ir.DenseI64ArrayAttr(op.attributes[name]))
    if any(v < -(1 << 62) or v > (1 << 62) for v in values):  # ShapedType::kDynamic
        raise NotEvaluable(f"{op.name} with dynamic {name}")
    return values


def _slices(op: ir.Operation) -> tuple:
    return tuple(slice(o, o + s * st, st) for o, s, st in
                 zip(_static(op, "static_offsets"), _static(op, "static_sizes"), _static(op, "static_strides")))


def _eval_pad(op: ir.Operation, values: dict) -> np.ndarray:
    """tensor.pad with static amounts and a padding value that does not depend on the index."""
    source = np.asarray(values[op.operands[0]])
    region = op.regions[0].blocks[0]
    body = [o.operation for o in region.operations]
    env = {}
    for inner in body[:-1]:
        if inner.name != "arith.constant":
            raise NotEvaluable("tensor.pad whose padding value depends on the index")
        env[inner.results[0]] = _constant(inner.attributes["value"], element_of(str(inner.results[0].type)))
    pad_value = body[-1].operands[0]
    fill = env[pad_value] if pad_value in env else values.get(pad_value)
    if fill is None:
        raise NotEvaluable("tensor.pad's padding value")
    widths = list(zip(_static(op, "static_low"), _static(op, "static_high")))
    return np.pad(source, widths, constant_values=np.asarray(fill).item())


def _eval_attention(op: ir.Operation, values: dict) -> np.ndarray:
    """`iree_linalg_ext.attention`: softmax(scale * Q K^T (+ mask) over the keys) V, in float64.

    The loop groups come from the maps: k1 (head width) is in Q and K only, k2 (keys)
    in K and V only, n (value width) in V and the output only; the rest index all.
    A float mask is added to the scaled scores; an i1 mask keeps a score where it is true
    and drops it (-inf) where false (both checked against IREE 3.13's CPU build). A score
    region that does more than yield the score is not covered.
    """
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    n_in = len(op.operands) - len(op.results)
    if n_in not in (4, 5) or len(maps) != n_in + 1:
        raise NotEvaluable(f"attention with {n_in} inputs")
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    if len(body) != 1 or body[0].name != "iree_linalg_ext.yield" \
            or body[0].operands[0] != op.regions[0].blocks[0].arguments[0]:
        raise NotEvaluable("attention with a score modification region")
    q_dims, k_dims, v_dims, o_dims = (_map_dims(maps[i]) for i in (0, 1, 2, n_in))
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
    if n_in == 5:
        scores = scores + _attention_mask(op, values, maps[4], score_dims)
    axes = tuple(score_dims.index(d) for d in key_loops)
    scores = scores - scores.max(axis=axes, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=axes, keepdims=True)
    out = np.einsum(f"{sub(score_dims)},{sub(v_dims)}->{sub(o_dims)}", weights, v)
    return _as_type(out, _element(str(op.results[0].type)))


def _attention_mask(op: ir.Operation, values: dict, mask_map: ir.AffineMap, score_dims: list[int]) -> np.ndarray:
    """The mask as an additive term over the score axes (0 / -inf for an i1 mask)."""
    mask_dims = _map_dims(mask_map)
    if any(d is not None and d not in score_dims for d in mask_dims):
        raise NotEvaluable("an attention mask over loops the scores do not have")
    mask = np.asarray(values[op.operands[4]])
    in_space = _to_space(mask, mask_dims, mask_map.n_dims)
    aligned = in_space.reshape([in_space.shape[d] for d in range(mask_map.n_dims) if d in score_dims]) \
        if all(in_space.shape[d] == 1 for d in range(mask_map.n_dims) if d not in score_dims) else None
    if aligned is None:
        raise NotEvaluable("an attention mask over loops the scores do not have")
    order = sorted(score_dims)
    aligned = np.transpose(aligned, [order.index(d) for d in score_dims])
    if _element(str(op.operands[4].type)) == "i1":
        return np.where(aligned.astype(bool), 0.0, -np.inf)
    return aligned.astype(np.float64)


def _tensor_shape(value: ir.Value) -> tuple[int, ...]:
    t = value.type.maybe_downcast() if hasattr(value.type, "maybe_downcast") else value.type
    return tuple(t.shape) if isinstance(t, ir.ShapedType) else ()


class NumpyModel:
    """The public functions of a model, evaluated with numpy."""

    def __init__(self, text: str, parameters=None):
        """`parameters`: the `parameters.Parameters` whose archives hold the values of the
        model's `#flow.parameter.named` globals (the same archives the runtime reads)."""
        self.parameters = parameters
        # Called as observe(op, values) after each op a function evaluates (the quantiser reads
        # the activations its contractions meet this way); None: nothing is watched.
        self.observe = None
        self._ctx = ir.Context()
        with self._ctx:
            self.module = ir.Module.parse(text)
        _RESOURCE_BLOBS[self._ctx] = resource_blobs(text)
        self.functions = {}
        self._globals = {}  # util.global: name -> the op (its value is read on first load)
        for op in self.module.body.operations:
            op = op.operation
            if op.name in ("func.func", "util.func"):
                self.functions[ir.StringAttr(op.attributes["sym_name"]).value] = op
            elif op.name == "util.global":
                self._globals[ir.StringAttr(op.attributes["sym_name"]).value] = op

    def global_value(self, name: str):
        """The value of `util.global @name` (see `_global_value`)."""
        with self._ctx:
            return self._global_value(name)

    def evaluate_op(self, op: ir.Operation, values: dict) -> None:
        """Evaluate one op of this model's module into `values` (value -> numpy array)."""
        self._step(op, values)

    def _global_value(self, name: str):
        """A weight: held in the module (`util.global @w = dense<...>`, a deployed model's form) or
        named in a parameter archive (`#flow.parameter.named`, an externalised export's form)."""
        from ..parameters import parameter_of_global

        op = self._globals.get(name)
        if op is None or "initial_value" not in op.attributes or "is_mutable" in op.attributes:
            raise NotEvaluable(f"util.global @{name} without a constant value in the module")
        value = op.attributes["initial_value"]
        parameter = parameter_of_global(op)
        if parameter is not None:
            if self.parameters is None:
                raise NotEvaluable(f"util.global @{name} = {str(value)[:60]} (no parameter archive given)")
            try:
                array = self.parameters.value(parameter.scope, parameter.key)
            except KeyError:
                raise NotEvaluable(f"util.global @{name}: parameter '{parameter.key}' is in no archive") from None
            return as_type(np.asarray(array), parameter.element)
        if not isinstance(value, ir.DenseElementsAttr) and not str(value).startswith("dense"):
            # e.g. #flow.parameter.named: the values live in a parameter archive, not here.
            raise NotEvaluable(f"util.global @{name} = {str(value)[:60]} (not a value in the module)")
        return _constant(value, _element(str(ir.TypeAttr(op.attributes["type"]).value)))

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
            if op.name in ("func.return", "util.return"):
                return [values[v] for v in op.operands]
            self._step(op, values)
            if self.observe is not None:
                self.observe(op, values)
        raise NotEvaluable("function without a return")

    def _step(self, op: ir.Operation, values: dict) -> None:
        name = op.name
        if name == "linalg.generic":
            values.update(zip(op.results, _eval_generic(op, values)))
        elif name == "iree_linalg_ext.attention":
            values[op.results[0]] = _eval_attention(op, values)
        elif name == "linalg.softmax":  # float64, the row max subtracted (docs/SOFTMAX.md)
            x = np.asarray(values[op.operands[0]], dtype=np.float64)
            e = np.exp(x - x.max(axis=ir.IntegerAttr(op.attributes["dimension"]).value, keepdims=True))
            values[op.results[0]] = e / e.sum(axis=ir.IntegerAttr(op.attributes["dimension"]).value, keepdims=True)
        elif name == "tensor.empty":
            element = _element(str(op.results[0].type))
            values[op.results[0]] = np.zeros(_tensor_shape(op.results[0]),
                                             dtype=np.float64 if element in _FLOAT else np.int64)
        elif name == "arith.constant":
            values[op.results[0]] = _constant(op.attributes["value"], _element(str(op.results[0].type)))
        elif name in ("tensor.collapse_shape", "tensor.expand_shape", "tensor.reshape"):
            values[op.results[0]] = np.reshape(values[op.operands[0]], _tensor_shape(op.results[0]))
        elif name == "tensor.extract_slice":  # rank-reducing slices drop unit dims: reshape
            source = np.asarray(values[op.operands[0]])
            values[op.results[0]] = np.reshape(source[_slices(op)], _tensor_shape(op.results[0]))
        elif name == "tensor.insert_slice":
            dest = np.array(values[op.operands[1]], copy=True)
            region = dest[_slices(op)]
            dest[_slices(op)] = np.reshape(values[op.operands[0]], region.shape)
            values[op.results[0]] = dest
        elif name == "tensor.concat":
            axis = ir.IntegerAttr(op.attributes["dim"]).value
            values[op.results[0]] = np.concatenate([np.asarray(values[v]) for v in op.operands], axis=axis)
        elif name == "linalg.fill":
            element = _element(str(op.results[0].type))
            values[op.results[0]] = np.full(_tensor_shape(op.results[0]), _as_type(values[op.operands[0]], element))
        elif name == "tensor.pad":
            values[op.results[0]] = _eval_pad(op, values)
        elif name == "tensor.extract":
            index = tuple(int(values[v]) for v in list(op.operands)[1:])
            values[op.results[0]] = np.asarray(values[op.operands[0]])[index]
        elif name == "util.global.load":
            values[op.results[0]] = self._global_value(ir.FlatSymbolRefAttr(op.attributes["global"]).value)
        elif name == "tensor.cast":  # static to static: the same values
            values[op.results[0]] = np.reshape(values[op.operands[0]], _tensor_shape(op.results[0]))
        elif name == "tensor.from_elements":
            values[op.results[0]] = np.reshape(np.array([values[v] for v in op.operands]),
                                               _tensor_shape(op.results[0]))
        elif name == "tensor.splat":
            values[op.results[0]] = np.full(_tensor_shape(op.results[0]), values[op.operands[0]])
        elif name.startswith(("arith.", "math.")):  # scalar arithmetic between the tensor ops
            values.update(zip(op.results, evaluate(op, [values[v] for v in op.operands])))
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
