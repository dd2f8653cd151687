"""Dispatch discovery and root-op problems."""

from .discovery import load_problems, problems_from_sources, tunable
from .problems import (
    AttentionProblem,
    ContractionProblem,
    ConvolutionProblem,
    OperandInfo,
    Problem,
    RootOpProblem,
    UntunableDispatch,
)

__all__ = [
    "AttentionProblem",
    "ContractionProblem",
    "ConvolutionProblem",
    "OperandInfo",
    "Problem",
    "RootOpProblem",
    "UntunableDispatch",
    "load_problems",
    "problems_from_sources",
    "tunable",
]
