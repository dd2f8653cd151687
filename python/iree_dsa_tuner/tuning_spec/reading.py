"""Reading tuning specs back with the MLIR bindings (configured dispatches: `ir.configured`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from iree.compiler import ir

from ..compiler import mlir_parse_error
from ..errors import InputError
from ..ir.discovery import INNER_TILED_OP
from ..ir.mlir_walk import _walk
from .builder import matcher_name


@dataclass(frozen=True)
class SpecMatcher:
    """One matcher of a spec: its name, what it checks, and the config it attaches."""

    name: str
    kind: str  # "contraction" | "convolution" | "attention" | "softmax" | "other"
    element_types: tuple[str, ...]
    indexing_maps: tuple[str, ...]
    dims: tuple[tuple[int, ...], ...]
    lowering_config: str
    translation_info: str
    # An inner_tiled matcher's whole operand types (A, B, C): what it checks instead of maps.
    operand_types: tuple[str, ...] = ()


_MATCH_KIND = {
    "transform.iree.match.contraction": "contraction",
    "transform.iree.match.convolution": "convolution",
    "transform.iree.match.attention": "attention",
    "transform.iree.match.online_attention": "attention",
}


def _read_softmax_dag(dag: ir.Operation):
    """(types, maps, dims) of a softmax DAG matcher (the builder's `softmax_dag_text`), or None.

    The root is the generic summing exp: its maps, its loops' sizes (parallel, then the
    reduction) from the x argument, its element types."""
    generics = [op for op in _walk(dag) if op.name == "linalg.generic"]
    roots = [g for g in generics if any(o.name == "math.exp" for o in _walk(g)) and len(g.operands) == 3]
    if len(generics) != 2 or len(roots) != 1:
        return None
    root = roots[0]
    x_type = ir.RankedTensorType(root.operands[0].type)
    out_type = ir.RankedTensorType(root.results[0].type)
    iterators = [str(t) for t in ir.ArrayAttr(root.attributes["iterator_types"])]
    shape = list(x_type.shape)
    parallel = tuple(s for s, t in zip(shape, iterators) if "reduction" not in t)
    reduction = tuple(s for s, t in zip(shape, iterators) if "reduction" in t)
    element = str(x_type.element_type)
    types = (element, element, str(out_type.element_type))
    maps = tuple(str(a) for a in ir.ArrayAttr(root.attributes["indexing_maps"]))
    return types, maps, (parallel, reduction)


def _inner_tiled_reading(operand_types: list[ir.RankedTensorType]):
    """(element types, dims per contraction group) of an inner_tiled matcher's A, B, C types:
    no batch, M1 and K1 from A, N1 from B (the builder's `_match_name_and_operand_types`)."""
    lhs, rhs, out = operand_types
    types = tuple(str(t.element_type) for t in (lhs, rhs, out))
    return types, ((), (lhs.shape[0],), (rhs.shape[0],), (lhs.shape[1],))


def _read_matcher(seq: ir.Operation) -> SpecMatcher:
    kind, types, maps, dims = "other", (), (), []
    lowering, translation = "", ""
    inner_tiled, operand_types = False, []
    for op in _walk(seq):
        if op.name == "transform.match.operation_name":
            names = [ir.StringAttr(a).value for a in ir.ArrayAttr(op.attributes["op_names"])]
            inner_tiled = names == [INNER_TILED_OP]
        elif op.name == "transform.iree.match.cast_compatible_type":
            operand_types.append(ir.RankedTensorType(ir.TypeAttr(op.attributes["target_type"]).value))
        elif op.name in _MATCH_KIND:
            kind = _MATCH_KIND[op.name]
            attrs = op.attributes
            types = tuple(str(ir.TypeAttr(attrs[n]).value) for n in ("lhs_type", "rhs_type", "output_type") if n in attrs)
            if "indexing_maps" in attrs:
                maps = tuple(str(a) for a in ir.ArrayAttr(attrs["indexing_maps"]))
        elif op.name == "transform.iree.match.cast_compatible_dag_from_root":
            softmax = _read_softmax_dag(op)
            if softmax is not None:
                kind = "softmax"
                types, maps, read_dims = softmax
                dims.extend(read_dims)
        elif op.name == "transform.iree.match.dims_equal":
            dims.append(tuple(int(v) for v in ir.DenseI64ArrayAttr(op.attributes["expected_values"])))
        elif op.name == "transform.param.constant":
            value = op.attributes["value"]
            text = str(value)
            if text.startswith("#iree_codegen.compilation_info"):
                info = value
                lowering = str(_field(info, "lowering_config"))
                translation = str(_field(info, "translation_info"))
    name = ir.StringAttr(seq.attributes["sym_name"]).value
    if inner_tiled and len(operand_types) == 3:
        kind = "contraction"
        types, read_dims = _inner_tiled_reading(operand_types)
        return SpecMatcher(name, kind, types, (), read_dims, lowering, translation,
                           tuple(str(t) for t in operand_types))
    return SpecMatcher(name, kind, types, maps, tuple(dims), lowering, translation)


def _field(compilation_info: ir.Attribute, name: str):
    from iree.compiler.dialects import iree_codegen

    info = iree_codegen.CompilationInfoAttr(compilation_info)
    return getattr(info, name)


def read_spec(path: str | Path) -> list[SpecMatcher]:
    """Every matcher that some `foreach_match` in the spec dispatches to."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    text = p.read_text(errors="replace")
    with ir.Context():
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise InputError(mlir_parse_error(p, e, "not a valid tuning spec")) from None
        sequences = {}
        matcher_names: list[str] = []
        has_entry = False
        for op in _walk(module.operation):
            if op.name == "transform.named_sequence":
                sequences[ir.StringAttr(op.attributes["sym_name"]).value] = op
                if "iree_codegen.tuning_spec_entrypoint" in op.attributes:
                    has_entry = True
            elif op.name == "transform.foreach_match":
                for sym in ir.ArrayAttr(op.attributes["matchers"]):
                    name = ir.FlatSymbolRefAttr(sym).value
                    if name not in matcher_names:
                        matcher_names.append(name)
        if not has_entry:
            raise InputError(f"{p}: not a tuning spec: no named_sequence carries iree_codegen.tuning_spec_entrypoint")
        return [_read_matcher(sequences[n]) for n in matcher_names if n in sequences]


def matcher_for_dispatch(matchers: list[SpecMatcher], symbol: str) -> SpecMatcher | None:
    wanted = matcher_name(symbol)
    return next((m for m in matchers if m.name == wanted or m.name.endswith("_" + wanted)), None)


def canonical_attr(text: str) -> str:
    """Attribute text as the bindings print it, so equal configs compare equal."""
    with ir.Context():
        return str(ir.Attribute.parse(text))
