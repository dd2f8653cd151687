"""The compilation parameters the tuner attaches to one root op.

`CompilationConfig` is target-neutral data; `spec.builder` turns it into
`#iree_codegen.compilation_info` text for llvm-cpu, and `spec.verify` reads it
back from a configured dispatch to prove IREE applied it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Tiling levels llvm-cpu's DoubleTilingExpert reads, in the order IREE prints them.
TILE_LEVELS = ("distribution", "vector_common_parallel", "vector_reduction")

# The CPU pipelines IREE 3.13 accepts in `#iree_cpu.pipeline<...>`.
CPU_PIPELINES = (
    "Default",
    "DoubleTilingExpert",
    "ConvTileAndDecomposeExpert",
    "Mmt4dTilingExpert",
    "BufferOpsTileAndVectorize",
    "DataTiling",
    "LinalgExtTileAndVectorize",
)


class ConfigError(ValueError):
    """A configuration that cannot describe the op it is meant for."""


@dataclass(frozen=True)
class CompilationConfig:
    """Pipeline + tile lists (one entry per loop of the root op) + target knobs.

    `extra` holds target-specific knobs (a DSA plugin's DMA stage depth, say) carried in
    the translation_info configuration dictionary; llvm-cpu ignores them and
    they survive into the configured dispatch.
    """

    pipeline: str
    distribution: tuple[int, ...]
    vector_common_parallel: tuple[int, ...]
    vector_reduction: tuple[int, ...]
    extra: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def from_json(obj: dict) -> "CompilationConfig":
        if not isinstance(obj, dict):
            raise ConfigError(f"a config must be a JSON object, got {type(obj).__name__}")
        unknown = set(obj) - {"pipeline", "extra", *TILE_LEVELS}
        if unknown:
            raise ConfigError(f"unknown config keys: {', '.join(sorted(unknown))}")
        try:
            pipeline = obj.get("pipeline", "DoubleTilingExpert")
            levels = {name: tuple(int(v) for v in obj[name]) for name in TILE_LEVELS}
        except KeyError as e:
            raise ConfigError(f"config is missing the tile level {e.args[0]!r}") from None
        except (TypeError, ValueError):
            raise ConfigError("tile levels must be lists of integers") from None
        extra = obj.get("extra", {})
        if not isinstance(extra, dict) or not all(isinstance(v, int) for v in extra.values()):
            raise ConfigError("'extra' must map knob names to integers")
        config = CompilationConfig(pipeline=pipeline, extra=tuple(sorted(extra.items())), **levels)
        config.check_pipeline()
        return config

    def to_json(self) -> dict:
        out = {"pipeline": self.pipeline}
        for name in TILE_LEVELS:
            out[name] = list(getattr(self, name))
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    def check_pipeline(self) -> None:
        if self.pipeline not in CPU_PIPELINES:
            raise ConfigError(
                f"unknown pipeline {self.pipeline!r}; llvm-cpu accepts: {', '.join(CPU_PIPELINES)}"
            )

    def check_against(self, loop_types: tuple[str, ...]) -> None:
        """The legality rules IREE enforces late (or silently); checked early here."""
        self.check_pipeline()
        n = len(loop_types)
        for name in TILE_LEVELS:
            tiles = getattr(self, name)
            if len(tiles) != n:
                raise ConfigError(f"{name} has {len(tiles)} entries but the op has {n} loops")
            if any(t < 0 for t in tiles):
                raise ConfigError(f"{name} has a negative tile size")
        for i, kind in enumerate(loop_types):
            if kind == "reduction" and self.vector_common_parallel[i]:
                raise ConfigError(f"vector_common_parallel tiles reduction loop {i}")
            if kind == "parallel" and self.vector_reduction[i]:
                raise ConfigError(f"vector_reduction tiles parallel loop {i}")
            if kind == "reduction" and self.distribution[i]:
                raise ConfigError(f"distribution tiles reduction loop {i}")

    def lowering_config_text(self) -> str:
        levels = ", ".join(f"{name} = [{', '.join(str(t) for t in getattr(self, name))}]" for name in TILE_LEVELS)
        return f"#iree_cpu.lowering_config<{levels}>"

    def translation_info_text(self) -> str:
        pipeline = f"pipeline = #iree_cpu.pipeline<{self.pipeline}>"
        if not self.extra:
            return f"#iree_codegen.translation_info<{pipeline}>"
        knobs = ", ".join(f"{k} = {v} : i64" for k, v in self.extra)
        return f"#iree_codegen.translation_info<{pipeline}, {{{knobs}}}>"

    def compilation_info_text(self) -> str:
        return (
            "#iree_codegen.compilation_info<lowering_config = "
            + self.lowering_config_text()
            + ", translation_info = "
            + self.translation_info_text()
            + ">"
        )


def config_from_attrs(lowering_config: str, translation_info: str, num_loops: int | None = None) -> CompilationConfig:
    """Parse `#iree_cpu.lowering_config<...>` + translation_info text into a CompilationConfig.

    Reading only (the #iree_cpu attributes have no Python accessors in 3.13): the
    text comes from the bindings' own printer, so its form is fixed. IREE accepts
    a tile list shorter than the op's loops (the rest untiled) and levels left out
    (`linalg.dot`'s default has no vector_common_parallel); with `num_loops` known,
    both are read as zeros, so every form IREE accepts has one reading. Levels this
    class does not model (`cache_parallel`, ...) are not part of the result.
    """
    levels = {}
    for name in TILE_LEVELS:
        m = re.search(r"\b" + name + r" = (\{[^}]*\}|\[[^\]]*\])", lowering_config)
        if m is None:
            if num_loops is None:
                raise ConfigError(f"no {name} level in {lowering_config}")
            levels[name] = (0,) * num_loops
            continue
        text = m.group(1)
        if text.startswith("{"):  # {sizes = [...], interchange = [...]}: a loop order we cannot express
            if "interchange" in text:
                raise ConfigError(f"{name} has an interchange, which a tile list cannot express: {text}")
            sizes = re.search(r"sizes\s*=\s*\[([^\]]*)\]", text)
            text = f"[{sizes.group(1) if sizes else ''}]"
        values = tuple(int(v) for v in text.strip("[]").split(",") if v.strip())
        if num_loops is not None:
            if len(values) > num_loops:
                raise ConfigError(f"{name} has {len(values)} entries but the op has {num_loops} loops")
            values = values + (0,) * (num_loops - len(values))
        levels[name] = values
    p = re.search(r"#iree_cpu\.pipeline<(\w+)>", translation_info)
    if not p:
        raise ConfigError(f"no CPU pipeline in {translation_info}")
    knobs = tuple(sorted((k, int(v)) for k, v in re.findall(r"([\w.]+) = (\d+) : i64", translation_info)))
    return CompilationConfig(p.group(1), extra=knobs, **levels)
