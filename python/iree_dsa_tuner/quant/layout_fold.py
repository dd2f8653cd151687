"""Broadcasts of activations folded into the contraction that reads them.

An export often materialises a broadcast of an activation only to feed a contraction: pi0's
grouped-query attention repeats its one KV head for 8 query heads (`repeat_kv`: a copy of the
867 x 256 K cache into 8 x 867 x 256, then a transpose and reshapes into the batch_matmul of
Q K^T). IREE runs that broadcast as a dispatch of its own, writing 8 copies to memory, and the
contraction then reads all 8. Read through an indexing map instead, the contraction reads the
one copy: the broadcast dispatch is gone and the contraction moves 1/8 of those bytes. The
arithmetic is the same, element for element.

Only contractions whose two operands are activations are rewritten (attention's Q K^T and P V):
a contraction with a weight is a quantisation site (`sites.py`), whose layout ops are applied
to the stored weight offline instead. An operand is folded when the layout ops between its
source value and the contraction (copies that move elements and reshapes) hold a broadcast, and
every dimension of the source is read by one dimension of the operand (or has size 1): the
source's dimensions then index the contraction's loops directly. Which operand dimension reads
which source dimension is found by pushing the source's element indices through the layout
ops (numpy views), so any chain of transposes, broadcasts and unit reshapes composes without a
case per op. The contraction becomes a `linalg.generic` with the same loops, iterator types and
body, built as a small module parsed and verified by the MLIR bindings and spliced in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from iree.compiler import ir
from iree.compiler.dialects import linalg

from .rewrite import tensor_type
from .sites import _RESHAPES, _copy, _dim, _functions, _is_copy, _owner, _trace, _walk, maps_of, shape_of

# An operand this large is not pushed through its layout ops as an index tensor (int64 each).
_MAX_INDEX_ELEMENTS = 1 << 26
_FLOATS = ("f32", "f16", "bf16")


@dataclass
class FoldedOperand:
    """One contraction operand now read straight from the broadcast's source (for the report)."""

    contraction: str
    operand: int
    source_shape: tuple[int, ...]
    operand_shape: tuple[int, ...]

    def describe(self) -> str:
        return (f"{self.contraction}: operand {self.operand} read as {'x'.join(map(str, self.source_shape))} "
                f"through its map, not as a {'x'.join(map(str, self.operand_shape))} copy")


def _layout_chain(value: ir.Value) -> tuple[list[ir.Operation], ir.Value]:
    """The layout ops that produce `value` (source first) and the value they start from."""
    chain = []
    while True:
        op = _owner(value)
        if op is None or not (_is_copy(op) or op.name in _RESHAPES):
            return list(reversed(chain)), value
        chain.append(op)
        value = op.operands[0]


def _source_dims(chain: list[ir.Operation], source: ir.Value, operand: ir.Value) -> list[int | None] | None:
    """For each source dimension, the operand dimension that reads it (None: size 1), or None when
    some source dimension is not read by exactly one operand dimension."""
    source_shape = shape_of(source)
    values = {source: np.arange(int(np.prod(source_shape)), dtype=np.int64).reshape(source_shape)}
    for op in chain:
        value = values[op.operands[0]]
        values[op.results[0]] = (np.reshape(value, shape_of(op.results[0])) if op.name in _RESHAPES
                                 else _copy(op, value))
    # A contiguous copy: unravel_index misreads a broadcast view (zero strides).
    coords = np.unravel_index(np.ascontiguousarray(values[operand]), source_shape)
    shape = shape_of(operand)
    out: list[int | None] = []
    for j, size in enumerate(source_shape):
        if size == 1:
            out.append(None)
            continue
        match = [a for a in range(len(shape)) if shape[a] == size and np.array_equal(
            coords[j], np.broadcast_to(np.arange(size).reshape([-1 if i == a else 1 for i in range(len(shape))]),
                                       shape))]
        if len(match) != 1 or match[0] in out:  # no diagonal reads: one operand dim per source dim
            return None
        out.append(match[0])
    return out


def _foldable(op: ir.Operation) -> bool:
    """Whether `op` is an activation x activation contraction of static shapes computing
    `out + a * b` in one float type (what the rewritten generic computes)."""
    if any(_trace(op.operands[i]) is not None for i in (0, 1)):
        return False  # a weight: a quantisation site, whose layout is applied offline there
    if not all(ir.RankedTensorType(v.type).has_static_shape for v in op.operands):
        return False
    types = {str(ir.RankedTensorType(v.type).element_type) for v in list(op.operands) + list(op.results)}
    if len(types) != 1 or next(iter(types)) not in _FLOATS:
        return False
    if op.name == "linalg.generic":
        body = [o.operation.name for o in op.regions[0].blocks[0].operations]
        return body == ["arith.mulf", "arith.addf", "linalg.yield"]
    return op.name in ("linalg.batch_matmul", "linalg.matmul")


def _affine(expr_loops: list[int], n_loops: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(n_loops))
    return f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in expr_loops)})>"


def _iterators(op: ir.Operation) -> list[str]:
    """`op`'s iterator types: a generic's own, or a named contraction's from its maps (a loop the
    output does not read reduces)."""
    if "iterator_types" in op.attributes:
        return [str(t).split("<")[-1].rstrip(">") for t in ir.ArrayAttr(op.attributes["iterator_types"])]
    maps = maps_of(op)
    out_loops = {_dim(e) for e in maps[2].results}
    return ["parallel" if d in out_loops else "reduction" for d in range(maps[0].n_dims)]


def _unit_dims_dropped(name: str, value_type: str, shape: tuple[int, ...], loops: list[int | None]) \
        -> tuple[list[str], str, list[int]]:
    """A `tensor.collapse_shape` of `name` that drops its unit dimensions (each joins a neighbour
    that is not one), so the generic reads it through a projected permutation, which IREE can
    collapse and fuse (a constant 0 in a map blocks both): (lines, new name, its loops)."""
    kept = [i for i, d in enumerate(loops) if d is not None]
    if len(kept) == len(loops):
        return [], name, list(loops)
    groups = [[] for _ in kept]
    for i in range(len(loops)):
        groups[min(range(len(kept)), key=lambda g: (abs(kept[g] - i), kept[g] < i))].append(i)
    element = value_type[value_type.rindex("x") + 1:-1]
    collapsed = tensor_type([shape[i] for i in kept], element)
    assoc = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
    return ([f"{name}_c = tensor.collapse_shape {name} [{assoc}] : {value_type} into {collapsed}"],
            f"{name}_c", [loops[i] for i in kept])


@dataclass
class _Tensor:
    """A tensor the generic reads or writes: its SSA name, shape and the loop each dim is read by."""

    name: str
    shape: list[int]
    loops: list[int]
    element: str

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.element)


def _reassociation(groups: list[list[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def _merge_run(t: _Tensor, run: list[int]) -> tuple[list[list[int]], _Tensor]:
    """`t` with the dims read by the loops of `run` (adjacent, in order) made one."""
    start = t.loops.index(run[0])
    groups = [[i] for i in range(start)] + [list(range(start, start + len(run)))] + \
        [[i] for i in range(start + len(run), len(t.loops))]
    size = int(np.prod(t.shape[start:start + len(run)]))
    merged = _Tensor(f"{t.name}_m", t.shape[:start] + [size] + t.shape[start + len(run):],
                     t.loops[:start + 1] + t.loops[start + len(run):], t.element)
    return groups, merged


def _adjacent(loops: list[int], run: list[int]) -> bool:
    if run[0] not in loops:
        return False
    start = loops.index(run[0])
    return loops[start:start + len(run)] == run


def _template(op: ir.Operation, inputs: list[ir.Value], input_loops: list[list[int | None]],
              folded: set[int]) -> str:
    """The contraction as a module: `@folded(a, b, out)` holding one generic reading `inputs`.
    The folded sources' unit dimensions are dropped first; and where the loops the folded operand
    no longer reads (the broadcast's, beside the rows of the other operand) are adjacent and in
    one order in the other operand and the output, they become one loop (8 heads x 51 rows: one
    M of 408), a contraction IREE and the DSA see as one matmul."""
    maps = maps_of(op)
    kinds = dict(enumerate(_iterators(op)))  # loop -> "parallel" | "reduction"
    element = str(ir.RankedTensorType(op.results[0].type).element_type)
    in_types = [str(v.type) for v in inputs]
    out_type = str(op.results[0].type)
    lines, tensors = [], []
    for name, value, loop in zip(("%a", "%b"), inputs, input_loops):
        extra, new_name, new_loops = _unit_dims_dropped(name, str(value.type), shape_of(value), loop)
        lines += extra
        kept = [i for i, d in enumerate(loop) if d is not None]
        tensors.append(_Tensor(new_name, [shape_of(value)[i] for i in kept], new_loops, element))
    out = _Tensor("%o", list(shape_of(op.results[0])), [_dim(e) for e in maps[2].results], element)
    result_lines: list[str] = []
    if len(folded) == 1:
        f = next(iter(folded))
        other = tensors[1 - f]
        run = [d for d in other.loops if d in out.loops and d not in tensors[f].loops]
        if len(run) >= 2 and _adjacent(other.loops, run) and _adjacent(out.loops, run):
            groups, merged = _merge_run(other, run)
            lines.append(f"{merged.name} = tensor.collapse_shape {other.name} {_reassociation(groups)} : "
                         f"{other.type} into {merged.type}")
            tensors[1 - f] = merged
            out_groups, merged_out = _merge_run(out, run)
            lines.append(f"{merged_out.name} = tensor.collapse_shape {out.name} {_reassociation(out_groups)} : "
                         f"{out.type} into {merged_out.type}")
            result_lines = [f"%e = tensor.expand_shape %r {_reassociation(out_groups)} output_shape "
                            f"[{', '.join(map(str, out.shape))}] : {merged_out.type} into {out.type}"]
            out = merged_out
    used = sorted({d for t in tensors + [out] for d in t.loops})
    renumber = {d: i for i, d in enumerate(used)}
    n_loops = len(used)
    iterators = [kinds[d] for d in used]
    maps_text = ", ".join(_affine([renumber[d] for d in t.loops], n_loops) for t in tensors + [out])
    result = "%e" if result_lines else "%r"
    return "\n".join([
        "module {",
        f"util.func @folded(%a: {in_types[0]}, %b: {in_types[1]}, %o: {out_type}) -> {out_type} {{",
        *lines,
        f"%r = linalg.generic {{indexing_maps = [{maps_text}], iterator_types = "
        f"[{', '.join(chr(34) + it + chr(34) for it in iterators)}]}} "
        f"ins({tensors[0].name}, {tensors[1].name} : {tensors[0].type}, {tensors[1].type}) "
        f"outs({out.name} : {out.type}) {{",
        f"^bb0(%x: {element}, %y: {element}, %z: {element}):",
        f"  %m = arith.mulf %x, %y : {element}",
        f"  %s = arith.addf %z, %m : {element}",
        f"  linalg.yield %s : {element}",
        f"}} -> {out.type}",
        *result_lines,
        f"util.return {result} : {out_type}",
        "}",
        "}",
    ])


def _materialised_broadcast(chain: list[ir.Operation]) -> bool:
    """Whether IREE would write the broadcast in `chain` to memory: a copy that enlarges its input,
    followed by a copy that moves elements (a transpose). A broadcast followed by reshapes only,
    IREE fuses into the contraction by itself (pi0's V: no broadcast dispatch), and re-writing
    that one costs more than it saves (its output transpose then fuses into the contraction, whose
    rows the DSA can no longer take as one M)."""
    grown = False
    for op in chain:
        if op.name in _RESHAPES:
            continue
        if grown:
            return True
        grown = int(np.prod(shape_of(op.results[0]))) > int(np.prod(shape_of(op.operands[0])))
    return False


def fold_activation_broadcasts(module: ir.Module) -> list[FoldedOperand]:
    """Rewrite, in place, every activation x activation contraction of `module` that reads a
    broadcast through layout ops so that it reads the broadcast's source through its indexing
    map (see the module doc). Returns what was folded."""
    folded = []
    # The contractions are collected before anything is erased: a walked op inside an erased
    # layout op's region would dangle.
    contractions = [op for _, func in _functions(module) for op in _walk(func)
                    if op.name.startswith("linalg.") and len(op.operands) == 3 and len(op.results) == 1
                    and linalg.isa_contraction_op(op)]
    for op in contractions:
        if not _foldable(op):
            continue
        maps = maps_of(op)
        inputs, loops, done = [], [], []
        for i in (0, 1):
            operand = op.operands[i]
            operand_loops = [_dim(e) for e in maps[i].results]
            chain, source = _layout_chain(operand)
            source_dims = None
            if _materialised_broadcast(chain) and None not in operand_loops \
                    and int(np.prod(shape_of(operand))) <= _MAX_INDEX_ELEMENTS:
                source_dims = _source_dims(chain, source, operand)
            if source_dims is None:
                inputs.append(operand)
                loops.append(operand_loops)
                continue
            inputs.append(source)
            loops.append([None if a is None else operand_loops[a] for a in source_dims])
            done.append((i, chain, source))
        if not done:
            continue
        folded += [FoldedOperand(_name(op), i, shape_of(source), shape_of(op.operands[i]))
                   for i, _, source in done]
        _splice(op, inputs, loops, [c for _, c, _ in done], {i for i, _, _ in done})
    return folded


def _grows(chain: list[ir.Operation]) -> bool:
    """Whether a copy in `chain` enlarges its input (a broadcast IREE would write to memory
    before an attention op, which fuses no producer)."""
    return any(op.name not in _RESHAPES and int(np.prod(shape_of(op.results[0]))) > int(np.prod(shape_of(op.operands[0])))
               for op in chain)


def fold_attention_broadcasts(module: ir.Module) -> list[FoldedOperand]:
    """Rewrite, in place, every `iree_linalg_ext.attention` of `module` whose K, V or mask is a
    broadcast (a KV head repeated for each query head, a mask repeated per head) to read the
    broadcast's source through its indexing map: the op's maps may skip the batch loop, so its
    one copy is read by every head. Returns what was folded."""
    from iree.compiler.dialects import tensor

    folded = []
    ops = [op for _, func in _functions(module) for op in _walk(func) if op.name == "iree_linalg_ext.attention"]
    for op in ops:
        maps = maps_of(op)
        n_inputs = len(op.operands) - len(op.results)
        changed = False
        for i in range(1, n_inputs):  # K, V, the scale (a scalar: skipped), the mask
            operand = op.operands[i]
            if not isinstance(operand.type, ir.RankedTensorType):
                continue
            operand_loops = [_dim(e) for e in maps[i].results]
            chain, source = _layout_chain(operand)
            if not chain or not _grows(chain) or None in operand_loops or \
                    not ir.RankedTensorType(source.type).has_static_shape or \
                    int(np.prod(shape_of(operand))) > _MAX_INDEX_ELEMENTS:
                continue
            try:
                source_dims = _source_dims(chain, source, operand)
            except ValueError:  # a layout op the index push cannot follow
                continue
            if source_dims is None:
                continue
            loops = [None if a is None else operand_loops[a] for a in source_dims]
            kept = [j for j, d in enumerate(loops) if d is not None]
            with ir.InsertionPoint(op), op.location:
                value = source
                if len(kept) < len(loops):
                    groups = [[] for _ in kept]
                    for j in range(len(loops)):
                        groups[min(range(len(kept)), key=lambda g: (abs(kept[g] - j), kept[g] < j))].append(j)
                    element = ir.RankedTensorType(source.type).element_type
                    value = tensor.CollapseShapeOp(
                        ir.RankedTensorType.get([shape_of(source)[j] for j in kept], element), source,
                        ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), x)
                                                            for x in g]) for g in groups])).result
            new_map = ir.AffineMap.get(maps[i].n_dims, 0, [ir.AffineDimExpr.get(loops[j]) for j in kept])
            maps[i] = new_map
            folded.append(FoldedOperand(f"iree_linalg_ext.attention {'x'.join(map(str, shape_of(op.operands[0])))}", i,
                                        shape_of(source), shape_of(operand)))
            op.operands[i] = value
            changed = True
            _erase_unused(chain)
        if changed:
            op.attributes["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])
    return folded


def _name(op: ir.Operation) -> str:
    shape = "x".join(map(str, shape_of(op.operands[0]))) + "*" + "x".join(map(str, shape_of(op.operands[1])))
    return f"{op.name} {shape}"


def _splice(op: ir.Operation, inputs: list[ir.Value], loops: list[list[int | None]],
            chains: list[list[ir.Operation]], folded: set[int]) -> None:
    """Replace `op` by the generic reading `inputs` through `loops`, then erase the layout ops
    nothing else reads."""
    template = ir.Module.parse(_template(op, inputs, loops, folded))
    template.operation.verify()
    func = next(o.operation for o in template.body.operations if o.operation.name == "util.func")
    entry = func.regions[0].blocks[0]
    for arg, value in zip(entry.arguments, (inputs[0], inputs[1], op.operands[2])):
        arg.replace_all_uses_with(value)
    body = [o.operation for o in entry.operations]
    for o in body[:-1]:
        ir.InsertionPoint(op).insert(o.detach_from_parent())
    op.results[0].replace_all_uses_with(body[-1].operands[0])
    op.erase()
    _erase_unused(*chains)


def _erase_unused(*chains: list[ir.Operation]) -> None:
    """Erase the layout ops of `chains` (and their empty inits) that nothing reads any more.
    Two chains may share an op (both operands read through one copy): handles to one op compare
    equal but are distinct objects, and one left pointing at an erased op must never be read, so
    each op is erased once and skipped after."""
    gone: set[ir.Operation] = set()
    for chain in chains:
        for layout in reversed(chain):
            if layout in gone or any(list(r.uses) for r in layout.results):
                continue
            init = layout.operands[1] if len(layout.operands) > 1 else None
            owner = _owner(init) if init is not None else None
            gone.add(layout)
            layout.erase()
            if owner is not None and owner not in gone and owner.name == "tensor.empty" \
                    and all(not list(r.uses) for r in owner.results):
                gone.add(owner)
                owner.erase()


__all__ = ["FoldedOperand", "fold_activation_broadcasts", "fold_attention_broadcasts"]
