"""Dispatch discovery: the model compiled once (`artifacts`), its root-op problems (`discovery`)."""

from .artifacts import ModelArtifacts, compile_model, load_problems
from .discovery import problems_from_sources

__all__ = ["ModelArtifacts", "compile_model", "load_problems", "problems_from_sources"]
