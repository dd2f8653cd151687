"""Reading the project's TOML files (manifests, recipes) with one-line errors that name the file."""

from __future__ import annotations

import tomllib
from pathlib import Path

from .errors import InputError


def read_toml(path: str | Path, what: str) -> dict:
    """The table in `path`; a missing, binary or malformed file is one InputError naming it."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a {what}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a {what}: {str(e).splitlines()[0]}") from None
