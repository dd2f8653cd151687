"""Which tile geometry and which L0 estimate a problem takes, by its kind.

The GEMM bookkeeping (`geometry`, `estimate`) and attention's flash schedule on a
scratchpad part (`attention`, built on both) never pick between each other: this module
sits above the three and does. A scratchpad part runs attention as a flash schedule
(tile_k = KV block); the host's attention candidates carry the head in tile_k, take the
GEMM geometry here, and `cpu.py` costs them.
"""

from __future__ import annotations

import numpy as np

from ..core.shape import GemmShape
from ..description import TargetDescription
from .attention import attention_estimate, attention_geometry
from .estimate import Estimate, estimate
from .geometry import TileGeometry, gemm_geometry


def tile_geometry(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray]) -> TileGeometry:
    """The candidates' tile geometry: attention's flash schedule on a scratchpad part, else the GEMM's."""
    if shape.kind == "attention" and desc.cpu is None:
        return attention_geometry(shape, desc, cols)
    return gemm_geometry(shape, desc, cols)


def scratchpad_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray],
                        geo: TileGeometry) -> Estimate:
    """A scratchpad part's L0 model: attention's flash schedule or the GEMM scratchpad/DMA/MAC-array model."""
    if shape.kind == "attention":
        return attention_estimate(shape, desc, cols, geo)
    return estimate(shape, desc, cols, geo)
