"""Analytical cost model: roofline, scratchpad/DMA, latency; the pruning funnel."""

from .estimate import Estimate, estimate
from .funnel import STAGES, FunnelResult, StageCount, Survivor, run_funnel
from .geometry import TileGeometry, ceil_div
from .kind import tile_geometry
from .roofline import RooflineReport, roofline

__all__ = [
    "STAGES",
    "Estimate",
    "FunnelResult",
    "RooflineReport",
    "StageCount",
    "Survivor",
    "TileGeometry",
    "ceil_div",
    "estimate",
    "roofline",
    "run_funnel",
    "tile_geometry",
]
