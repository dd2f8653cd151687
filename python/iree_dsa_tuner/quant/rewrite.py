"""A weight site rewritten into its quantised form, with the MLIR Python bindings.

Each site's replacement is written as a small module (its new parameter globals and one
function from the activation and the accumulator to the result), parsed and verified by the
bindings, and spliced in: the globals move into the model, the function's ops move before the
contraction, its arguments become the activation and the accumulator, and the contraction's
uses read the function's result. The layout ops and the float weight they read are erased when
nothing else reads them, so the float weight leaves the model.

The new contraction runs over the output's loops (in the output's order) then K, and reads the
weight as stored, `[N, K]`: a transpose or broadcast the export put before the matmul is gone
(applied to the stored weight) rather than run per call.

Forms (`weights.py` has their arithmetic, `docs/QUANT.md` their IR):
- w8a8 and w4a8: the activation's per-token max |x| (a reduction over K; with static
  activations a calibrated constant instead), its INT8 codes (an elementwise op), the i32 contraction (w4a8: one generic that reads the packed 4-bit codes,
  the group's integer scale and zero point through `k floordiv G`, and multiplies in i32:
  there is no float weight, not even inside the dispatch), and an epilogue that rescales the
  i32 sums by the token's and the channel's scales (and adds the accumulator the export
  started from, when it is not zeros);
- bf16: the activation rounded to bf16 and a bf16 x bf16 -> f32 contraction into the
  export's own accumulator.

A convolution (`conv.py`) keeps its named op and its filter's shape: the same convolution on the
INT8 codes into i32 (or on bf16 into the export's f32 accumulator), its activation scale one max
|x| per batch element (a reduction over the sample, or the static constant), and the epilogue as
above with the sample's and the output channel's scales.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from iree.compiler import ir

from .sites import WeightSite, shape_of
from .weights import INT8_MAX, LayerForm

_TINY = "1.000000e-30"


def tensor_type(shape, element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _map(n_loops: int, results: list[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(n_loops))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _generic(result: str, maps: list[str], iterators: list[str], ins: list[tuple[str, str]],
             out: tuple[str, str], args: list[str], body: list[str]) -> list[str]:
    its = ", ".join(f'"{t}"' for t in iterators)
    return [f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
            f"ins({', '.join(v for v, _ in ins)} : {', '.join(t for _, t in ins)}) outs({out[0]} : {out[1]}) {{",
            f"^bb0({', '.join(args)}):", *[f"  {line}" for line in body], f"}} -> {out[1]}"]


@dataclass(frozen=True)
class NewParameter:
    """A tensor the quantised model reads from its archive: its global, key and type."""

    symbol: str
    scope: str
    key: str
    shape: tuple[int, ...]
    element: str

    @property
    def type_text(self) -> str:
        return tensor_type(self.shape, self.element)

    def global_text(self) -> str:
        scope = f'"{self.scope}"::' if self.scope else ""
        return f'util.global private @"{self.symbol}" = #flow.parameter.named<{scope}"{self.key}"> : {self.type_text}'


def site_parameters(site: WeightSite, form: LayerForm, scope: str, smoothed: bool) -> dict[str, NewParameter]:
    """The tensors `site` stores in `form`, by role."""
    base = f"{site.name}.{form.scheme}"

    def new(role: str, shape, element: str) -> NewParameter:
        return NewParameter(f"__quant.{base}.{role}", scope, f"{base}.{role}", tuple(shape), element)

    n, k = site.n, site.k
    weight_shape = site.conv.filter_shape if site.conv is not None else (n, k)
    if form.scheme == "bf16":
        return {"weight": new("weight", weight_shape, "bf16")}
    out = {"weight": new("weight", weight_shape, "i8" if form.scheme == "w8a8" else "i4"),
           "scale": new("scale", (n,), form.scale_type)}
    if form.scheme == "w4a8":
        out["group_scale"] = new("group_scale", (n, k // form.group), "i8")
        if form.zero_point:
            out["zero_point"] = new("zero_point", (n, k // form.group), "i8")
    if smoothed:
        out["smoothing"] = new("inverse_smoothing", (k,), "f32")
    return out


def _zero_accumulator(value: ir.Value) -> bool:
    """Whether `value` is a fill of 0.0 (the export's accumulator adds nothing): a `linalg.fill`, or
    its generalised form (a generic whose body yields its one scalar input)."""
    owner = value.owner
    op = owner.operation if isinstance(owner, (ir.Operation, ir.OpView)) else None
    if op is not None and op.name == "linalg.generic" and len(op.operands) == 2:
        body = [o.operation for o in op.regions[0].blocks[0].operations]
        scalar = not str(op.operands[0].type).startswith("tensor")
        if not (scalar and len(body) == 1 and body[0].operands[0] == op.regions[0].blocks[0].arguments[0]):
            return False
    elif op is None or op.name != "linalg.fill":
        return False
    fill = op.operands[0].owner
    fill = fill.operation if isinstance(fill, (ir.Operation, ir.OpView)) else None
    if fill is None or fill.name != "arith.constant":
        return False
    try:
        return float(ir.FloatAttr(fill.attributes["value"]).value) == 0.0
    except (ValueError, TypeError):
        return False


def _f32_literal(value) -> str:
    """An f32 constant's text that parses back to the same f32 (9 significant digits)."""
    return f"{float(np.float32(value)):.8e}"


def site_template(site: WeightSite, form: LayerForm, params: dict[str, NewParameter],
                  activation_amax=None) -> str:
    """The replacement of `site` as a module: its globals and `@quantised_site(x, acc) -> result`.
    A static form's activations are quantised with `activation_amax` (its calibrated max |x|), a
    constant the quantising and rescaling ops read in place of the per-token reduction."""
    if form.static and activation_amax is None:
        raise ValueError(f"{site.name}: a static activation scale needs its calibrated max |x|")
    if site.conv is not None:
        return _conv_template(site, form, params, activation_amax)
    x_shape = shape_of(site.x_value)
    out_shape = shape_of(site.op.results[0])
    ro, rx, kx = len(out_shape), len(x_shape), site.x_k_axis
    new_loop = {old: i for i, old in enumerate(site.out_loops)}
    new_loop[site.k_loop] = ro
    loops = ro + 1
    x_type, out_type = tensor_type(x_shape, "f32"), tensor_type(out_shape, "f32")
    x_map = _map(loops, [f"d{new_loop[d]}" for d in site.x_loops])
    n_pos = new_loop[site.n_loop]
    w_map = _map(loops, [f"d{n_pos}", f"d{ro}"])
    out_map = _map(loops, [f"d{i}" for i in range(ro)])
    contraction_its = ["parallel"] * ro + ["reduction"]
    lines = [f"util.func private @quantised_site(%x: {x_type}, %init: {out_type}) -> {out_type} {{"]
    lines += [f"%{p.key.replace('.', '_')} = util.global.load @\"{p.symbol}\" : {p.type_text}"
              for p in params.values()]
    ref = {role: f"%{p.key.replace('.', '_')}" for role, p in params.items()}

    if form.scheme == "bf16":
        x_id = _map(rx, [f"d{i}" for i in range(rx)])
        lines += ["%xb_empty = tensor.empty() : " + tensor_type(x_shape, "bf16")]
        lines += _generic("%xb", [x_id, x_id], ["parallel"] * rx, [("%x", x_type)],
                          ("%xb_empty", tensor_type(x_shape, "bf16")), ["%a: f32", "%o: bf16"],
                          ["%t = arith.truncf %a : f32 to bf16", "linalg.yield %t : bf16"])
        lines += _generic("%y", [x_map, w_map, out_map], contraction_its,
                          [("%xb", tensor_type(x_shape, "bf16")), (ref["weight"], params["weight"].type_text)],
                          ("%init", out_type), ["%a: bf16", "%b: bf16", "%c: f32"],
                          ["%ae = arith.extf %a : bf16 to f32", "%be = arith.extf %b : bf16 to f32",
                           "%p = arith.mulf %ae, %be : f32", "%s = arith.addf %c, %p : f32", "linalg.yield %s : f32"])
        lines += [f"util.return %y : {out_type}", "}"]
        return _module(params, lines)

    rows = [d for i, d in enumerate(x_shape) if i != kx]
    rows_type = tensor_type(rows, "f32")
    x_id = _map(rx, [f"d{i}" for i in range(rx)])
    x_rows = _map(rx, [f"d{i}" for i in range(rx) if i != kx])
    lines += ["%zero = arith.constant 0.000000e+00 : f32", "%zero_i32 = arith.constant 0 : i32",
              f"%tiny = arith.constant {_TINY} : f32", f"%qmax = arith.constant {float(INT8_MAX):e} : f32",
              f"%qmin = arith.constant {-float(INT8_MAX):e} : f32"]
    xs = "%x"
    if "smoothing" in params:
        k_map = _map(rx, [f"d{kx}"])
        lines += [f"%xs_empty = tensor.empty() : {x_type}"]
        lines += _generic("%xs", [x_id, k_map, x_id], ["parallel"] * rx,
                          [("%x", x_type), (ref["smoothing"], params["smoothing"].type_text)], ("%xs_empty", x_type),
                          ["%a: f32", "%s: f32", "%o: f32"], ["%m = arith.mulf %a, %s : f32", "linalg.yield %m : f32"])
        xs = "%xs"
    # The row's max |x|: a block argument `%m` read from the per-token reduction, or (static) the
    # calibrated constant the body captures; the bodies after it are the same either way.
    if form.static:
        lines += [f"%m = arith.constant {_f32_literal(activation_amax)} : f32"]
        row_ins, row_args = [], []
    else:
        lines += [f"%rows_empty = tensor.empty() : {rows_type}",
                  f"%rows_zero = linalg.fill ins(%zero : f32) outs(%rows_empty : {rows_type}) -> {rows_type}"]
        lines += _generic("%amax", [x_id, x_rows], ["reduction" if i == kx else "parallel" for i in range(rx)],
                          [(xs, x_type)], ("%rows_zero", rows_type), ["%a: f32", "%m: f32"],
                          ["%b = math.absf %a : f32", "%c = arith.maximumf %b, %m : f32", "linalg.yield %c : f32"])
        row_ins, row_args = [("%amax", rows_type)], ["%m: f32"]
    xq_type = tensor_type(x_shape, "i8")
    lines += [f"%xq_empty = tensor.empty() : {xq_type}"]
    lines += _generic("%xq", [x_id] + [x_rows] * len(row_ins) + [x_id], ["parallel"] * rx, [(xs, x_type)] + row_ins,
                      ("%xq_empty", xq_type), ["%a: f32"] + row_args + ["%o: i8"], _QUANTISE_BODY)
    acc_type = tensor_type(out_shape, "i32")
    lines += [f"%acc_empty = tensor.empty() : {acc_type}",
              f"%acc_zero = linalg.fill ins(%zero_i32 : i32) outs(%acc_empty : {acc_type}) -> {acc_type}"]
    if form.scheme == "w8a8":
        lines += _generic("%acc", [x_map, w_map, out_map], contraction_its,
                          [("%xq", xq_type), (ref["weight"], params["weight"].type_text)], ("%acc_zero", acc_type),
                          ["%a: i8", "%b: i8", "%c: i32"],
                          ["%ae = arith.extsi %a : i8 to i32", "%be = arith.extsi %b : i8 to i32",
                           "%p = arith.muli %ae, %be : i32", "%s = arith.addi %c, %p : i32", "linalg.yield %s : i32"])
    else:
        g_map = _map(loops, [f"d{n_pos}", f"d{ro} floordiv {form.group}"])
        ins = [("%xq", xq_type), (ref["weight"], params["weight"].type_text),
               (ref["group_scale"], params["group_scale"].type_text)]
        args, body = ["%a: i8", "%b: i4", "%u: i8"], ["%ae = arith.extsi %a : i8 to i32"]
        maps = [x_map, w_map, g_map]
        if form.zero_point:
            ins.append((ref["zero_point"], params["zero_point"].type_text))
            args.append("%z: i8")
            maps.append(g_map)
            body += ["%bu = arith.extui %b : i4 to i32", "%ze = arith.extui %z : i8 to i32",
                     "%be = arith.subi %bu, %ze : i32"]
        else:
            body += ["%be = arith.extsi %b : i4 to i32"]
        body += ["%ue = arith.extui %u : i8 to i32", "%w = arith.muli %be, %ue : i32",
                 "%p = arith.muli %ae, %w : i32", "%s = arith.addi %c, %p : i32", "linalg.yield %s : i32"]
        lines += _generic("%acc", maps + [out_map], contraction_its, ins, ("%acc_zero", acc_type),
                          args + ["%c: i32"], body)
    o_id = _map(ro, [f"d{i}" for i in range(ro)])
    o_rows = _map(ro, [f"d{new_loop[d]}" for i, d in enumerate(site.x_loops) if i != kx])
    lines += _epilogue(site, params, ref, "%acc", acc_type, out_type, o_id, [o_rows] * len(row_ins), row_ins,
                       row_args, _map(ro, [f"d{n_pos}"]))
    lines += [f"util.return %y : {out_type}", "}"]
    return _module(params, lines)


# x * 127 / max |x| (at least _TINY), rounded half to even and clamped to +-127, as i8.
_QUANTISE_BODY = ["%t = arith.maximumf %m, %tiny : f32", "%r = arith.divf %qmax, %t : f32",
                  "%v = arith.mulf %a, %r : f32", "%n = math.roundeven %v : f32",
                  "%lo = arith.maximumf %n, %qmin : f32", "%hi = arith.minimumf %lo, %qmax : f32",
                  "%i = arith.fptosi %hi : f32 to i8", "linalg.yield %i : i8"]


def _epilogue(site: WeightSite, params: dict, ref: dict, acc: str, acc_type: str, out_type: str, o_id: str,
              row_maps: list[str], row_ins: list, row_args: list[str], o_n: str) -> list[str]:
    """`%y`: the i32 sums * (the activation's scale) * (the channel's scale) [+ the export's
    accumulator], over the output."""
    scale = params["scale"]
    ins = [(acc, acc_type)] + row_ins + [(ref["scale"], scale.type_text)]
    args = ["%a: i32"] + row_args + [f"%s: {scale.element}"]
    maps = [o_id] + row_maps + [o_n]
    body = ["%t = arith.maximumf %m, %tiny : f32", "%sx = arith.divf %t, %qmax : f32",
            "%af = arith.sitofp %a : i32 to f32"]
    body += ["%sw = arith.extf %s : f16 to f32"] if scale.element == "f16" else []
    sw = "%sw" if scale.element == "f16" else "%s"
    body += ["%p = arith.mulf %af, %sx : f32", f"%q = arith.mulf %p, {sw} : f32"]
    result = "%q"
    if not _zero_accumulator(site.op.operands[2]):
        ins.append(("%init", out_type))
        args.append("%i: f32")
        maps.append(o_id)
        body += ["%r = arith.addf %q, %i : f32"]
        result = "%r"
    body += [f"linalg.yield {result} : f32"]
    ro = len(shape_of(site.op.results[0]))
    return [f"%y_empty = tensor.empty() : {out_type}",
            *_generic("%y", maps + [o_id], ["parallel"] * ro, ins, ("%y_empty", out_type), args + ["%o: f32"], body)]


def _conv_template(site: WeightSite, form: LayerForm, params: dict[str, NewParameter], activation_amax) -> str:
    """`site_template` for a convolution: the site's own named op on the quantised operands."""
    layout = site.conv
    x_shape, out_shape = shape_of(site.x_value), layout.output_shape
    rx, ro = len(x_shape), len(out_shape)
    x_type, out_type = tensor_type(x_shape, "f32"), tensor_type(out_shape, "f32")
    weight = params["weight"]
    lines = [f"util.func private @quantised_site(%x: {x_type}, %init: {out_type}) -> {out_type} {{"]
    lines += [f"%{p.key.replace('.', '_')} = util.global.load @\"{p.symbol}\" : {p.type_text}" for p in params.values()]
    ref = {role: f"%{p.key.replace('.', '_')}" for role, p in params.items()}
    x_id = _map(rx, [f"d{i}" for i in range(rx)])
    o_id = _map(ro, [f"d{i}" for i in range(ro)])

    def conv(result: str, x: str, x_element: str, out: str, out_element: str) -> list[str]:
        return [f"{result} = {layout.op_name} {layout.attributes} ins({x}, {ref['weight']} : "
                f"{tensor_type(x_shape, x_element)}, {weight.type_text}) outs({out} : "
                f"{tensor_type(out_shape, out_element)}) -> {tensor_type(out_shape, out_element)}"]

    if form.scheme == "bf16":
        lines += ["%xb_empty = tensor.empty() : " + tensor_type(x_shape, "bf16")]
        lines += _generic("%xb", [x_id, x_id], ["parallel"] * rx, [("%x", x_type)],
                          ("%xb_empty", tensor_type(x_shape, "bf16")), ["%a: f32", "%o: bf16"],
                          ["%t = arith.truncf %a : f32 to bf16", "linalg.yield %t : bf16"])
        lines += conv("%y", "%xb", "bf16", "%init", "f32")
        lines += [f"util.return %y : {out_type}", "}"]
        return _module(params, lines)
    batch = x_shape[0]
    lines += ["%zero = arith.constant 0.000000e+00 : f32", "%zero_i32 = arith.constant 0 : i32",
              f"%tiny = arith.constant {_TINY} : f32", f"%qmax = arith.constant {float(INT8_MAX):e} : f32",
              f"%qmin = arith.constant {-float(INT8_MAX):e} : f32"]
    # The sample's max |x|: a reduction over everything but the batch, or the static constant.
    x_batch, o_batch = _map(rx, ["d0"]), _map(ro, ["d0"])
    if form.static:
        lines += [f"%m = arith.constant {_f32_literal(activation_amax)} : f32"]
        row_ins, row_args = [], []
    else:
        batch_type = tensor_type((batch,), "f32")
        lines += [f"%rows_empty = tensor.empty() : {batch_type}",
                  f"%rows_zero = linalg.fill ins(%zero : f32) outs(%rows_empty : {batch_type}) -> {batch_type}"]
        lines += _generic("%amax", [x_id, x_batch], ["parallel"] + ["reduction"] * (rx - 1), [("%x", x_type)],
                          ("%rows_zero", batch_type), ["%a: f32", "%m: f32"],
                          ["%b = math.absf %a : f32", "%c = arith.maximumf %b, %m : f32", "linalg.yield %c : f32"])
        row_ins, row_args = [("%amax", batch_type)], ["%m: f32"]
    xq_type = tensor_type(x_shape, "i8")
    lines += [f"%xq_empty = tensor.empty() : {xq_type}"]
    lines += _generic("%xq", [x_id] + [x_batch] * len(row_ins) + [x_id], ["parallel"] * rx, [("%x", x_type)] + row_ins,
                      ("%xq_empty", xq_type), ["%a: f32"] + row_args + ["%o: i8"], _QUANTISE_BODY)
    acc_type = tensor_type(out_shape, "i32")
    lines += [f"%acc_empty = tensor.empty() : {acc_type}",
              f"%acc_zero = linalg.fill ins(%zero_i32 : i32) outs(%acc_empty : {acc_type}) -> {acc_type}"]
    lines += conv("%acc", "%xq", "i8", "%acc_zero", "i32")
    lines += _epilogue(site, params, ref, "%acc", acc_type, out_type, o_id, [o_batch] * len(row_ins), row_ins,
                       row_args, _map(ro, ["d1"]))
    lines += [f"util.return %y : {out_type}", "}"]
    return _module(params, lines)


def _module(params: dict[str, NewParameter], lines: list[str]) -> str:
    return "module {\n" + "\n".join([p.global_text() for p in params.values()] + lines) + "\n}\n"


_PURE = ("linalg.generic", "linalg.fill", "linalg.transpose", "linalg.broadcast", "linalg.copy", "tensor.empty",
         "tensor.expand_shape", "tensor.collapse_shape", "util.global.load", "arith.constant")


def splice(module: ir.Module, site: WeightSite, template_text: str) -> None:
    """Replace `site`'s contraction in `module` by the function of `template_text` (see the doc)."""
    template = ir.Module.parse(template_text)
    template.operation.verify()
    ops = [o.operation for o in template.body.operations]
    first_function = next(o.operation for o in module.body.operations
                          if o.operation.name in ("func.func", "util.func"))
    for g in (o for o in ops if o.name == "util.global"):
        ir.InsertionPoint(first_function).insert(g.detach_from_parent())
    func = next(o for o in ops if o.name == "util.func")
    entry = func.regions[0].blocks[0]
    x, init = site.x_value, site.op.operands[2]
    for old, new in zip(entry.arguments, (x, init)):
        old.replace_all_uses_with(new)
    body = [o.operation for o in entry.operations]
    for o in body[:-1]:
        ir.InsertionPoint(site.op).insert(o.detach_from_parent())
    result = body[-1].operands[0]
    site.op.results[0].replace_all_uses_with(result)
    dead = [site.op, *reversed(site.chain), site.source]
    init_owner = init.owner.operation if isinstance(init.owner, (ir.Operation, ir.OpView)) else None
    if init_owner is not None:
        dead.append(init_owner)
        if init_owner.name in ("linalg.fill", "linalg.generic"):
            filled = init_owner.operands[1].owner
            if isinstance(filled, (ir.Operation, ir.OpView)):
                dead.append(filled.operation)
    gone: set[ir.Operation] = set()  # one op may sit in `dead` twice, under distinct handles
    for op in dead:  # the contraction first, then what only it read
        if op in gone:
            continue
        if op is site.op or op.name in _PURE + ("linalg.generic",) and all(not list(r.uses) for r in op.results):
            gone.add(op)
            op.erase()


def erase_unused_globals(module: ir.Module) -> list[str]:
    """Erase the util.globals no op loads any more (the float weights): their symbols."""
    loaded = set()

    def walk(op):
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    child = child.operation
                    if child.name == "util.global.load":
                        loaded.add(ir.FlatSymbolRefAttr(child.attributes["global"]).value)
                    walk(child)

    walk(module.operation)
    erased = []
    for op in list(module.body.operations):
        op = op.operation
        if op.name == "util.global" and ir.StringAttr(op.attributes["sym_name"]).value not in loaded \
                and "is_mutable" not in op.attributes:
            erased.append(ir.StringAttr(op.attributes["sym_name"]).value)
            op.erase()
    return erased


__all__ = ["NewParameter", "erase_unused_globals", "site_parameters", "site_template", "splice", "tensor_type"]
