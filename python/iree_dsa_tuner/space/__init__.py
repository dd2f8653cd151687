"""Candidate spaces: the knobs of a problem and their values, enumerated lazily as numpy columns.

A target builds its space (`Target.space`); the candidate and shape types live in `core`.
"""

from ..core.candidate import KNOBS, TilingCandidate
from ..core.shape import GemmShape, UnsupportedProblem, gemm_shape, simple_gemm
from .space import CandidateSpace, candidates_to_columns, tile_ladder

__all__ = [
    "KNOBS",
    "CandidateSpace",
    "GemmShape",
    "TilingCandidate",
    "UnsupportedProblem",
    "candidates_to_columns",
    "gemm_shape",
    "simple_gemm",
    "tile_ladder",
]
