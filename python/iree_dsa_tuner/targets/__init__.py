"""Targets the tuner can tune for, found through entry points and description files."""

from .base import Target
from ..description import (
    SCHEMA_VERSION,
    TargetDescription,
    TargetDescriptionError,
    load_description,
    parse_description,
)
from .registry import (
    ENTRY_POINT_GROUP,
    TARGET_PATH_ENV,
    UnknownTarget,
    get_target,
    list_targets,
    load_catalog,
    search_paths,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "SCHEMA_VERSION",
    "TARGET_PATH_ENV",
    "Target",
    "TargetDescription",
    "TargetDescriptionError",
    "UnknownTarget",
    "get_target",
    "list_targets",
    "load_catalog",
    "load_description",
    "parse_description",
    "search_paths",
]
