"""Aligned text tables and all-or-nothing output files."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..core.words import plural  # re-exported: the tables' and commands' plural
from ..errors import InputError


def format_table(headers: list[str], rows: list[list[object]], right_align: set[int] | None = None) -> str:
    """A plain aligned table; numeric columns right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if right_align is None:
        right_align = {
            i for i in range(len(headers))
            if rows and all(isinstance(r[i], (int, float)) for r in rows if r[i] is not None and r[i] != "")
        }
    lines = []
    for n, row in enumerate(cells):
        parts = [c.rjust(widths[i]) if i in right_align else c.ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def check_writable(path: str | os.PathLike) -> Path:
    """Fail before any work if `path` cannot be written ("-" is stdout)."""
    p = Path(path)
    if str(path) == "-":
        return p
    parent = p.parent if str(p.parent) else Path(".")
    if parent.exists() and not parent.is_dir():
        raise InputError(f"{p}: cannot write: {parent} is a file, not a directory")
    if not parent.is_dir():
        raise InputError(f"{p}: cannot write: directory {parent} does not exist (create it first)")
    if p.is_dir():
        raise InputError(f"{p}: cannot write: is a directory (give a file path)")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"{p}: cannot write: permission denied")
    return p


def write_output(path: str | os.PathLike, text: str) -> None:
    """Write all of `text` or nothing: a temp file in the same directory, then rename."""
    if str(path) == "-":
        sys.stdout.write(text)
        return
    p = check_writable(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=str(p.parent if str(p.parent) else "."))
    try:
        # mkstemp makes the file 0600; an output file gets what the user's umask gives any new file.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, p)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise InputError(f"{p}: cannot write: {e.strerror}") from None
