"""What IREE configured for each dispatch, read from its configured IR with the bindings."""

from __future__ import annotations

from dataclasses import dataclass

from iree.compiler import ir
from iree.compiler.dialects import linalg

from ..core.config import CompilationConfig, ConfigError, config_from_attrs
from .discovery import configured_root_op
from .mlir_walk import dispatch_functions


@dataclass(frozen=True)
class ConfiguredDispatch:
    """What IREE chose (or was told) for one dispatch, read from its configured IR."""

    symbol: str
    root_op: str
    lowering_config: str | None
    translation_info: str | None
    num_loops: int | None = None  # loops of the root op as IREE configured it


def _loop_count(op) -> int | None:
    """Loops of a structured op: the dimension count of its indexing maps."""
    try:
        if "indexing_maps" in op.attributes:
            maps = ir.ArrayAttr(op.attributes["indexing_maps"])
        else:
            maps = linalg.get_indexing_maps(op)
        return ir.AffineMapAttr(maps[0]).value.n_dims
    except Exception:  # not a structured op with maps: the count is unknown, not wrong
        return None


def read_configured_dispatches(text: str) -> list[ConfiguredDispatch]:
    """Each dispatch's root-op lowering_config and function translation_info."""
    out = []
    with ir.Context():
        module = ir.Module.parse(text)
        for symbol, func_op in dispatch_functions(module):
            root = configured_root_op(func_op)
            translation = func_op.attributes["translation_info"] if "translation_info" in func_op.attributes else None
            lowering = None
            if root is not None and "lowering_config" in root.attributes:
                lowering = root.attributes["lowering_config"]
            out.append(ConfiguredDispatch(
                symbol, root.name if root is not None else "",
                str(lowering) if lowering is not None else None,
                str(translation) if translation is not None else None,
                _loop_count(root) if root is not None else None,
            ))
    return out


def default_configs_from_text(text: str) -> dict[str, CompilationConfig]:
    """IREE's own choice per dispatch, read from its configured IR (the baseline)."""
    out = {}
    for c in read_configured_dispatches(text):
        if not c.lowering_config or not c.translation_info:
            continue
        try:
            out[c.symbol] = config_from_attrs(c.lowering_config, c.translation_info, c.num_loops)
        except (ConfigError, ValueError):
            continue
    return out
