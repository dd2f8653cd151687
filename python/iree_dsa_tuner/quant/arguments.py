"""Weights passed as function arguments, made parameters of the model.

An export that takes its weights as arguments (`aot.export` of a module without externalised
parameters: `torch_gemma_mlp.mlir`'s gate, up and down) cannot be quantised offline: nothing in
the model holds them. When a manifest names those arguments as weights (`weight_arguments`),
each becomes a parameter global (`#flow.parameter.named<"model"::"<function>.arg<i>">`), loaded
at the function's entry (through `torch_c.from_builtin_tensor` for a torch function) and dropped
from the signature; its values come from the stage's archive, or from a seed. The model is then
quantised like any other.
"""

from __future__ import annotations

import re

from iree.compiler import ir

from ..errors import InputError

_VTENSOR = re.compile(r"^!torch\.vtensor<\[([0-9,]*)\],(\w+)>$")
_TORCH_ELEMENTS = {"f32": "f32", "f16": "f16", "bf16": "bf16"}


def _builtin_type(t: ir.Type) -> tuple[ir.Type, bool]:
    """The builtin tensor type of an argument, and whether it is a torch vtensor."""
    text = str(t)
    m = _VTENSOR.match(text)
    if m:
        dims, element = m.group(1), m.group(2)
        if element not in _TORCH_ELEMENTS:
            raise InputError(f"a weight argument of type {text}: only float weights are quantised")
        shape = "".join(f"{d}x" for d in dims.split(",") if d)
        return ir.Type.parse(f"tensor<{shape}{_TORCH_ELEMENTS[element]}>"), True
    if text.startswith("tensor<") and "?" not in text:
        return t, False
    raise InputError(f"a weight argument of type {text}: expected a static tensor")


def lift_weight_arguments(text: str, indices: tuple[int, ...], source: str = "<model>") -> tuple[str, list[str]]:
    """`text` with arguments `indices` of its (single) public function made parameter globals:
    (the new text, their keys)."""
    with ir.Context(), ir.Location.unknown():
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise InputError(f"{source}: cannot parse: {str(e).splitlines()[0]}") from None
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"
                 and ("sym_visibility" not in op.attributes
                      or ir.StringAttr(op.attributes["sym_visibility"]).value == "public")]
        if len(funcs) != 1:
            raise InputError(f"{source}: weight_arguments needs one public func.func, found {len(funcs)}")
        func = funcs[0].operation
        name = ir.StringAttr(func.attributes["sym_name"]).value
        block = func.regions[0].blocks[0]
        n = len(block.arguments)
        bad = [i for i in indices if not 0 <= i < n]
        if bad or len(set(indices)) != len(indices):
            raise InputError(f"{source}: weight_arguments {list(indices)}: @{name} takes {n} arguments (0..{n - 1})")
        keys = []
        first = block.operations[0]
        for i in sorted(indices):
            arg = block.arguments[i]
            builtin, torch = _builtin_type(arg.type)
            key = f"{name}.arg{i}"
            keys.append(key)
            attrs = {"sym_name": ir.StringAttr.get(key), "sym_visibility": ir.StringAttr.get("private"),
                     "type": ir.TypeAttr.get(builtin),
                     "initial_value": ir.Attribute.parse(f'#flow.parameter.named<"model"::"{key}"> : {builtin}')}
            ir.InsertionPoint(func).insert(ir.Operation.create("util.global", attributes=attrs))
            with ir.InsertionPoint(first):
                value = ir.Operation.create("util.global.load", results=[builtin],
                                            attributes={"global": ir.FlatSymbolRefAttr.get(key)}).result
                if torch:
                    value = ir.Operation.create("torch_c.from_builtin_tensor", results=[arg.type],
                                                operands=[value]).result
            arg.replace_all_uses_with(value)
        for i in sorted(indices, reverse=True):
            block.erase_argument(i)
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        func.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get([a.type for a in block.arguments], list(ftype.results)))
        if "arg_attrs" in func.attributes:
            del func.attributes["arg_attrs"]
        if not module.operation.verify():
            raise InputError(f"{source}: the model with its weight arguments as parameters does not verify")
        return str(module), keys


__all__ = ["lift_weight_arguments"]
