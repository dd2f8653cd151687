"""Tuning specs: build, link, read back, verify."""

from .builder import SpecEntry, SpecError, build_spec, matcher_name
from ..core.config import CompilationConfig, ConfigError
from .link import link_spec_files, link_spec_texts

__all__ = [
    "CompilationConfig",
    "ConfigError",
    "SpecEntry",
    "SpecError",
    "build_spec",
    "link_spec_files",
    "link_spec_texts",
    "matcher_name",
]
