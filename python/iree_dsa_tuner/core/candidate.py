"""One point of the tuning space: the knobs a target understands."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Iterable


@dataclass(frozen=True)
class TilingCandidate:
    """Tiles and target knobs for one root op, in GEMM terms (M, N, K).

    - `tile_m`, `tile_n`: the per-core output tile (IREE `distribution`).
    - `tile_k`: the K slice one DMA step brings into the scratchpad (DSA only;
      llvm-cpu never tiles reduction loops at the distribution level).
    - `vec_m`, `vec_n`, `vec_k`: one MAC/vector step (IREE
      `vector_common_parallel` / `vector_reduction`).
    - `parallelism`: cores the dispatch is spread over.
    - `dma_stages`: scratchpad buffers per operand (2 = double buffering).
    - `fusion`: 1 when the elementwise consumer runs in the same dispatch.
    - `quant_block`: INT4 weight block size along K (0 when not quantised).
    - `k_split`: the schedule (DSA only). 0: output-stationary, every output tile walks
      its K slices and re-reads its A rows and B columns. s >= 1: weight-streaming, each
      core keeps its activations (the whole M x K/s) resident and streams every weight
      once; teams of s cores split K and add their partial sums over the NoC.
    """

    tile_m: int
    tile_n: int
    tile_k: int
    vec_m: int
    vec_n: int
    vec_k: int
    parallelism: int = 1
    dma_stages: int = 1
    fusion: int = 0
    quant_block: int = 0
    k_split: int = 0  # last, defaulted: older candidates and configs read as output-stationary

    def to_json(self, knobs: Iterable[str] | None = None) -> dict:
        """Every field (what the database stores), or only `knobs` (what a report shows)."""
        values = asdict(self)
        if knobs is None:
            return values
        shown = set(knobs)
        return {k: v for k, v in values.items() if k in shown}

    @staticmethod
    def from_json(obj: dict) -> "TilingCandidate":
        names = {f.name for f in fields(TilingCandidate)}
        unknown = set(obj) - names
        if unknown:
            raise ValueError(f"unknown candidate keys: {', '.join(sorted(unknown))}")
        return TilingCandidate(**{k: int(v) for k, v in obj.items()})

    def short(self, knobs: Iterable[str] | None = None) -> str:
        """One line; with `knobs` (the target's), the knobs it does not have are left out."""
        shown = set(KNOBS if knobs is None else knobs)
        text = f"tile {self.tile_m}x{self.tile_n}x{self.tile_k} vec {self.vec_m}x{self.vec_n}x{self.vec_k}"
        if "parallelism" in shown:
            text += f" par {self.parallelism}"
        if "dma_stages" in shown:
            text += f" stages {self.dma_stages}"
        if "fusion" in shown:
            text += f" fuse {self.fusion}"
        if "quant_block" in shown and self.quant_block:
            text += f" qblock {self.quant_block}"
        if "k_split" in shown and self.k_split:
            text += f" stream ksplit {self.k_split}"
        return text


# Column order used for the vectorised (numpy) form of a set of candidates.
KNOBS = tuple(f.name for f in fields(TilingCandidate))
# What a CPU (llvm-cpu's DoubleTilingExpert) varies: tiles and vector steps; its threads are
# IREE's (parallelism records the cores), and it has no DMA stages, fusion knob, INT4 block
# knob or weight-streaming schedule.
CPU_KNOBS = ("tile_m", "tile_n", "tile_k", "vec_m", "vec_n", "vec_k", "parallelism")
