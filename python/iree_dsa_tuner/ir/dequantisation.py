"""Dequantised sub-byte weights (docs/INT4.md) and integer-quantised contractions (docs/QUANT.md).

Finds a `linalg.generic` that dequantises a 2- to 7-bit (or two-nibbles-per-byte) weight
with its scales and zero points, in each of IREE's forms: fused (the root op's input is
produced by it in the same dispatch, `_weight_quantisation`), folded into the matmul's
body (`_is_dequantising_contraction`), or split into a dispatch of its own
(`_dequantise_dispatch`), which `link_split_dequantisation` attaches to the dispatch
that reads what it wrote, from the host program's `stream.cmd.dispatch` accesses (a
producer IREE hoisted into an initializer runs once, at load). Also the quantiser's w4a8
contraction (`_integer_quantised_contraction`), and the HAL binding each root-op input
is loaded from (`_input_bindings`, seeing through a fused dequantisation), by which a
split producer's output is found among its reader's inputs.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from iree.compiler import ir

from ..core.problems import Problem, RootOpProblem, UntunableDispatch, WeightQuantisation
from .mlir_walk import _as_shaped, _dim_position, _indexing_maps, _loop_sizes, _producer, _shaped, _walk

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
