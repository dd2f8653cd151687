"""Knobs and their legal values per problem kind, derived from a target description."""

from .candidate import KNOBS, TilingCandidate
from .shape import GemmShape, UnsupportedProblem, gemm_shape, simple_gemm
from .space import CandidateSpace, candidates_to_columns, tile_ladder
from .build import dsa_space, host_space

__all__ = [
    "KNOBS",
    "CandidateSpace",
    "GemmShape",
    "TilingCandidate",
    "UnsupportedProblem",
    "candidates_to_columns",
    "dsa_space",
    "gemm_shape",
    "host_space",
    "simple_gemm",
    "tile_ladder",
]
