"""Find targets: packaging entry points plus user description files.

Each entry point of group `iree_dsa_tuner.targets` is a callable
`provide_targets(search_paths) -> list[Target]`. Providers read their built-in
description files and also any file of their kind in the user's search paths
(`--target-path DIR` and `IREE_DSA_TARGET_PATH`, os.pathsep-separated), so a
new chip generation is a new file and no code (R2.6). A user file with the
same name as a built-in one replaces it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Iterable, Iterator

from ..core.words import plural
from ..errors import InputError
from .base import Target
from ..description import (
    TargetDescriptionError,
    description_files,
    load_description,
    read_description_data,
)

ENTRY_POINT_GROUP = "iree_dsa_tuner.targets"
TARGET_PATH_ENV = "IREE_DSA_TARGET_PATH"


class UnknownTarget(InputError, LookupError):
    """A target name nothing provides: one line naming what is installed."""


def search_paths(extra: Iterable[str | Path] = ()) -> list[Path]:
    """Directories to scan for user description files: explicit first, then the env var."""
    paths = [Path(p) for p in extra if str(p)]
    env = os.environ.get(TARGET_PATH_ENV, "")
    paths += [Path(p) for p in env.split(os.pathsep) if p]
    return paths


def files_of_kind(directories: Iterable[str | Path], kind: str,
                  claim_unknown: bool = False) -> Iterator[Path]:
    """Description files whose `target.kind` is `kind`.

    With `claim_unknown`, files whose kind cannot be read (syntax errors, a
    missing kind) are yielded too, so that their provider reports the error
    with file and field instead of the file vanishing silently.
    """
    for directory in directories:
        for path in description_files(directory):
            try:
                data = read_description_data(path)
            except (TargetDescriptionError, OSError):
                if claim_unknown:
                    yield path
                continue
            target = data.get("target")
            file_kind = target.get("kind") if isinstance(target, dict) else None
            if file_kind == kind or (claim_unknown and file_kind not in ("dsa", "cpu")):
                yield path


def load_files(paths: Iterable[Path], make) -> tuple[list[Target], list[TargetDescriptionError]]:
    """Build targets from files with `make(description)`; collect schema errors."""
    targets, errors = [], []
    for path in paths:
        try:
            targets.append(make(load_description(path)))
        except TargetDescriptionError as e:
            errors.append(e)
        except OSError as e:
            errors.append(TargetDescriptionError(str(path), "<file>", str(e)))
    return targets, errors


@dataclass
class TargetCatalog:
    """Everything found: targets by name (later sources win) and the files that failed."""

    targets: dict[str, Target] = field(default_factory=dict)
    errors: list[Exception] = field(default_factory=list)


def _providers():
    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def load_catalog(extra_paths: Iterable[str | Path] = ()) -> TargetCatalog:
    paths = search_paths(extra_paths)
    catalog = TargetCatalog()
    seen_errors: set[str] = set()
    for ep in _providers():
        try:
            provide = ep.load()
            provided = provide(paths)
        except TargetDescriptionError as e:
            provided = [e]
        except Exception as e:  # a broken plugin must not hide the others
            provided = [RuntimeError(f"target provider {ep.name!r} ({ep.value}) failed: {e}")]
        for item in provided:
            if isinstance(item, Exception):
                if str(item) not in seen_errors:
                    seen_errors.add(str(item))
                    catalog.errors.append(item)
            else:
                catalog.targets[item.name] = item
    return catalog


def list_targets(search_paths: Iterable[str | Path] = ()) -> list[Target]:
    return sorted(load_catalog(search_paths).targets.values(), key=lambda t: (t.kind, t.name))


def get_target(name: str, search_paths: Iterable[str | Path] = ()) -> Target:
    catalog = load_catalog(search_paths)
    if name in catalog.targets:
        return catalog.targets[name]
    for error in catalog.errors:
        # A malformed file of the requested name is the likely cause: say so.
        if isinstance(error, TargetDescriptionError) and Path(error.source).stem == name:
            raise error
    known = ", ".join(sorted(catalog.targets)) or "none"
    hint = (f"; {plural(len(catalog.errors), 'description file')} failed to load: {catalog.errors[0]}"
            if catalog.errors else "")
    raise UnknownTarget(f"unknown target {name!r} (installed: {known}){hint}")
