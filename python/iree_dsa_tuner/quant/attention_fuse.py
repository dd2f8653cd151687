"""Eager attention in a torch export raised to one scaled_dot_product_attention.

An export of attention written out by hand (pi0's Gemma layers, ACT's nn.MultiheadAttention)
is a matmul Q K^T, a scale, an additive mask, a softmax and a matmul by V. IREE turns each into
a dispatch of its own, so the scores (8 x 816 x 816 f32 per prefix layer of pi0, 21 MB) go to
memory and come back four times. `torch.aten.scaled_dot_product_attention` on the same
operands becomes IREE's `iree_linalg_ext.attention`: one dispatch whose scores never leave the
chip (an online softmax over key tiles). The arithmetic is the same up to the order of the
softmax's sums; the quantiser's accuracy figures compare against the unfused float model.

The chain is matched in the torch dialect, where its ops are named (after lowering, the
softmax is a max, a subtraction, an exponential, a sum and a division in five generics):

    s = matmul|bmm(q, transpose(k, -2, -1))      q [..., L, E], k [..., S, E]
    s = mul.Scalar(s, c) | div.Scalar(s, c)      optional: the scale (1.0 without one)
    s = add.Tensor(s, mask, 1)                   optional: an additive mask, broadcast to s
    p = softmax.int(s, -1, none | s's dtype)
    p = clone(p)                                 optional
    o = matmul|bmm(p, v)                         v [..., S, Ev]

Each intermediate may have no other use (a `_assert_tensor_metadata` check excepted: it goes
with the value it checks). q, k and v must share their batch dims. The new op is built with
the MLIR bindings and the old chain erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir

from .sites import _owner

_MATMULS = ("torch.aten.matmul", "torch.aten.bmm")
_CHECKS = ("torch.aten._assert_tensor_metadata",)
_FLOATS = ("f32", "f16", "bf16")
# torch's ScalarType codes of the float dtypes a softmax may be asked to compute in
_DTYPE_CODES = {"f16": 5, "f32": 6, "bf16": 15}


@dataclass
class FusedAttention:
    """One chain raised (for the report)."""

    function: str
    query_shape: tuple[int, ...]
    key_shape: tuple[int, ...]
    masked: bool
    scale: float

    def describe(self) -> str:
        return (f"@{self.function}: softmax(Q K^T{' + mask' if self.masked else ''}) V over "
                f"{'x'.join(map(str, self.query_shape))} queries and {'x'.join(map(str, self.key_shape))} keys "
                f"(scale {self.scale:g}) as one attention op")


def _vtensor(value: ir.Value) -> tuple[tuple[int, ...], str] | None:
    """(shape, element type) of a `!torch.vtensor<[...],T>` with static dims, else None."""
    text = str(value.type)
    if not text.startswith("!torch.vtensor<[") or "],"not in text:
        return None
    dims, element = text[len("!torch.vtensor<["):-1].split("],", 1)
    try:
        shape = tuple(int(d) for d in dims.split(",")) if dims else ()
    except ValueError:  # a dynamic dim (-1 or a symbol)
        return None
    return (shape, element) if all(d >= 0 for d in shape) else None


def _constant(value: ir.Value):
    """A torch.constant.{int,float,none,bool}'s Python value; `...` when not a constant."""
    op = _owner(value)
    if op is None:
        return ...
    if op.name == "torch.constant.none":
        return None
    if op.name == "torch.constant.int":
        return ir.IntegerAttr(op.attributes["value"]).value
    if op.name == "torch.constant.float":
        return ir.FloatAttr(op.attributes["value"]).value
    if op.name == "torch.constant.bool":
        return ir.BoolAttr(op.attributes["value"]).value
    return ...


def _users(value: ir.Value) -> list[ir.Operation]:
    return [use.owner.operation if hasattr(use.owner, "operation") else use.owner for use in value.uses]


def _only_user(value: ir.Value) -> tuple[ir.Operation | None, list[ir.Operation]]:
    """The one real user of `value` and the metadata checks that also read it."""
    users = _users(value)
    checks = [u for u in users if u.name in _CHECKS]
    real = [u for u in users if u.name not in _CHECKS]
    return (real[0], checks) if len(real) == 1 else (None, checks)


@dataclass
class _Chain:
    q: ir.Value
    k: ir.Value
    v: ir.Value
    mask: ir.Value | None
    scale: float
    out: ir.Operation
    erase: list[ir.Operation]  # the chain's ops: checks, then consumers before producers


def _match(softmax: ir.Operation) -> _Chain | None:
    s_value = softmax.operands[0]
    p_type = _vtensor(softmax.results[0])
    if p_type is None or p_type[1] not in _FLOATS or len(p_type[0]) < 3:
        return None
    dim, dtype = _constant(softmax.operands[1]), _constant(softmax.operands[2])
    if dim not in (-1, len(p_type[0]) - 1) or dtype not in (None, _DTYPE_CODES[p_type[1]]):
        return None
    checks: list[ir.Operation] = []  # metadata checks of the chain's values: erased with them
    # Forward: an optional clone, then the matmul by V.
    p = softmax.results[0]
    user, seen = _only_user(p)
    checks += seen
    erase = [softmax]
    if user is not None and user.name == "torch.aten.clone" and _constant(user.operands[1]) is None:
        erase.insert(0, user)
        p = user.results[0]
        user, seen = _only_user(p)
        checks += seen
    if user is None or user.name not in _MATMULS or user.operands[0] != p:
        return None
    out = user
    erase.insert(0, out)
    # Backward: optional mask, optional scale, then Q K^T.
    mask, scale = None, 1.0
    op = _owner(s_value)
    if op is not None and op.name == "torch.aten.add.Tensor" and _constant(op.operands[2]) == 1:
        if _only_user(op.results[0])[0] is None:
            return None
        mask = op.operands[1]
        checks += _only_user(op.results[0])[1]
        erase.append(op)
        op = _owner(op.operands[0])
    if op is not None and op.name in ("torch.aten.mul.Scalar", "torch.aten.div.Scalar"):
        c = _constant(op.operands[1])
        if not isinstance(c, (int, float)) or isinstance(c, bool) or c == 0 or _only_user(op.results[0])[0] is None:
            return None
        scale = float(c) if op.name.endswith("mul.Scalar") else 1.0 / float(c)
        checks += _only_user(op.results[0])[1]
        erase.append(op)
        op = _owner(op.operands[0])
    if op is None or op.name not in _MATMULS or _only_user(op.results[0])[0] is None:
        return None
    checks += _only_user(op.results[0])[1]
    erase.append(op)
    q, kt = op.operands[0], op.operands[1]
    transpose = _owner(kt)
    if transpose is None or transpose.name != "torch.aten.transpose.int":
        return None
    k = transpose.operands[0]
    rank = len(p_type[0])
    dims = {_constant(transpose.operands[1]), _constant(transpose.operands[2])}
    if dims not in ({-2, -1}, {rank - 2, rank - 1}, {-2, rank - 1}, {rank - 2, -1}):
        return None
    if len(_users(kt)) == 1:
        erase.append(transpose)
    v = out.operands[1]
    shapes = [_vtensor(x) for x in (q, k, v, out.results[0])]
    if any(s is None or len(s[0]) != rank or s[1] != p_type[1] for s in shapes):
        return None
    (qs, _), (ks, _), (vs, _), (os_, _) = shapes
    if not (qs[:-2] == ks[:-2] == vs[:-2] == os_[:-2] and qs[-1] == ks[-1] and ks[-2] == vs[-2]):
        return None
    if mask is not None:
        m = _vtensor(mask)
        if m is None or m[1] != p_type[1] or len(m[0]) > rank or any(
                a not in (1, b) for a, b in zip(reversed(m[0]), reversed(p_type[0]))):
            return None
    return _Chain(q, k, v, mask, scale, out, checks + erase)


def _ops_named(block: ir.Block, name: str) -> list[ir.Operation]:
    """The ops of `block` named `name`, in order. The bindings hand out a new handle for each
    lookup of an op and do not invalidate the others when one erases it, so a rewrite never
    iterates a list of every op while it erases some: reading a dangling handle is a
    use-after-free (a segfault, or a wrong name)."""
    return [op.operation for op in block.operations if op.operation.name == name]


def _constant_op(name: str, result: str, value=None) -> ir.Operation:
    attributes = {}
    if name == "torch.constant.int":
        attributes["value"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
    elif name == "torch.constant.float":
        attributes["value"] = ir.FloatAttr.get(ir.F64Type.get(), value)
    elif name == "torch.constant.bool":
        attributes["value"] = ir.BoolAttr.get(value)
    return ir.Operation.create(name, results=[ir.Type.parse(result)], attributes=attributes)


def fuse_eager_attention(module: ir.Module) -> list[FusedAttention]:
    """Raise every eager attention chain of `module` (torch dialect) to
    `torch.aten.scaled_dot_product_attention`, in place; what was raised."""
    fused = []
    for top in module.body.operations:
        func = top.operation
        if func.name != "func.func":
            continue
        name = ir.StringAttr(func.attributes["sym_name"]).value
        for block in func.regions[0].blocks:
            # The softmaxes first, then each chain: a rewrite erases ops after its softmax, and a
            # handle to an erased op dangles (_ops_named). No chain erases another's softmax.
            for op in _ops_named(block, "torch.aten.softmax.int"):
                chain = _match(op)
                if chain is None:
                    continue
                with ir.InsertionPoint(chain.out), chain.out.location:
                    mask = chain.mask if chain.mask is not None else \
                        _constant_op("torch.constant.none", "!torch.none").results[0]
                    dropout = _constant_op("torch.constant.float", "!torch.float", 0.0).results[0]
                    no = _constant_op("torch.constant.bool", "!torch.bool", False).results[0]
                    scale = _constant_op("torch.constant.float", "!torch.float", chain.scale).results[0]
                    sdpa = ir.Operation.create(
                        "torch.aten.scaled_dot_product_attention", results=[chain.out.results[0].type],
                        operands=[chain.q, chain.k, chain.v, mask, dropout, no, scale, no])
                chain.out.results[0].replace_all_uses_with(sdpa.results[0])
                for dead in chain.erase:
                    dead.erase()
                fused.append(FusedAttention(name, _vtensor(chain.q)[0], _vtensor(chain.k)[0],
                                            chain.mask is not None, chain.scale))
    return fused


def fuse_attention_text(text: str, element: str = "f32") -> tuple[str, list[FusedAttention], int]:
    """`text` (a torch-dialect module) with its eager attention raised and, unless `element` is
    f32, every attention computed in `element`: (text, what was raised, how many attention ops
    were converted). Unchanged when it holds no torch attention."""
    if "torch.aten.softmax.int" not in text and "torch.aten.scaled_dot_product_attention" not in text:
        return text, [], 0
    with ir.Context():
        module = ir.Module.parse(text)
        fused = fuse_eager_attention(module)
        converted = attention_in(module, element) if element != "f32" else 0
        if not fused and not converted:
            return text, [], 0
        module.operation.verify()
        return module.operation.get_asm(print_generic_op_form=False), fused, converted





# torch's ScalarType code for each float type an attention may be computed in
_TORCH_DTYPE = {"bf16": 15, "f16": 5, "f32": 6}


def _retyped(value: ir.Value, element: str) -> str:
    shape, _ = _vtensor(value)
    return f"!torch.vtensor<[{','.join(map(str, shape))}],{element}>"


# Ops that only move or repeat elements: a conversion commutes with them, so it is made before
# them, on the fewest elements (before a KV head is repeated for each query head, not after).
_TORCH_LAYOUT = ("torch.aten.view", "torch.aten.reshape", "torch.aten.expand", "torch.aten.unsqueeze",
                 "torch.aten.transpose.int", "torch.aten.permute", "torch.aten.clone", "torch.aten._unsafe_view")


def _converted(value: ir.Value, element: str, before: ir.Operation) -> tuple[ir.Value, list[ir.Operation]]:
    """`value` in `element`: the conversion made at the start of the layout ops that produce it
    (each used once), which are rebuilt in `element` after it; and the old layout ops (the
    caller erases them once `value`'s user is gone)."""
    chain = []
    source = value
    while True:
        op = _owner(source)
        if op is None or op.name not in _TORCH_LAYOUT or len(_users(source)) != 1 or _vtensor(op.operands[0]) is None:
            break
        chain.append(op)
        source = op.operands[0]
    at = chain[-1] if chain else before
    with ir.InsertionPoint(at), at.location:
        code = _constant_op("torch.constant.int", "!torch.int", _TORCH_DTYPE[element])
        out = ir.Operation.create("torch.prims.convert_element_type",
                                  results=[ir.Type.parse(_retyped(source, element))],
                                  operands=[source, code.results[0]]).results[0]
    for op in reversed(chain):  # each rebuilt where it was: its other operands are defined there
        with ir.InsertionPoint(op), op.location:
            out = ir.Operation.create(op.name, results=[ir.Type.parse(_retyped(op.results[0], element))],
                                      operands=[out, *list(op.operands)[1:]],
                                      attributes={a.name: a.attr for a in op.attributes}).results[0]
    return out, chain


def attention_in(module: ir.Module, element: str) -> int:
    """Compute every f32 `scaled_dot_product_attention` of `module` in `element` (bf16 or f16):
    Q, K, V and the mask converted to it, the result converted back to f32 (IREE's attention
    accumulates in f32 either way). On the DSA an f32 MAC runs at a sixteenth of the INT8 rate
    and a bf16 one at half. Returns how many attention ops were converted."""
    converted = 0
    for top in module.body.operations:
        func = top.operation
        if func.name != "func.func":
            continue
        for block in func.regions[0].blocks:
            for op in _ops_named(block, "torch.aten.scaled_dot_product_attention"):
                typed = [_vtensor(v) for v in list(op.operands)[:3] + [op.results[0]]]
                if any(t is None or t[1] != "f32" for t in typed):
                    continue
                operands, stale = list(op.operands), []
                for i in range(4):
                    t = _vtensor(operands[i]) if i < 3 or str(operands[i].type).startswith("!torch.vtensor") else None
                    if t is None or t[1] != "f32":
                        continue
                    operands[i], chain = _converted(operands[i], element, op)
                    stale += chain
                with ir.InsertionPoint(op), op.location:
                    narrow = ir.Operation.create(op.name, results=[ir.Type.parse(_retyped(op.results[0], element))],
                                                 operands=operands)
                    f32 = _constant_op("torch.constant.int", "!torch.int", _TORCH_DTYPE["f32"])
                    wide = ir.Operation.create("torch.prims.convert_element_type", results=[op.results[0].type],
                                               operands=[narrow.results[0], f32.results[0]])
                op.results[0].replace_all_uses_with(wide.results[0])
                op.erase()
                for dead in stale:  # each chain from the attention back to its source
                    dead.erase()
                converted += 1
    return converted


__all__ = ["FusedAttention", "attention_in", "fuse_attention_text", "fuse_eager_attention"]
