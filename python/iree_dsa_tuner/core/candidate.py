"""One point of the tuning space: the knobs a target understands."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


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

    def to_json(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_json(obj: dict) -> "TilingCandidate":
        names = {f.name for f in fields(TilingCandidate)}
        unknown = set(obj) - names
        if unknown:
            raise ValueError(f"unknown candidate keys: {', '.join(sorted(unknown))}")
        return TilingCandidate(**{k: int(v) for k, v in obj.items()})

    def short(self) -> str:
        text = f"tile {self.tile_m}x{self.tile_n}x{self.tile_k} vec {self.vec_m}x{self.vec_n}x{self.vec_k} par {self.parallelism} stages {self.dma_stages} fuse {self.fusion}"
        if self.quant_block:
            text += f" qblock {self.quant_block}"
        if self.k_split:
            text += f" stream ksplit {self.k_split}"
        return text


# Column order used for the vectorised (numpy) form of a set of candidates.
KNOBS = tuple(f.name for f in fields(TilingCandidate))
