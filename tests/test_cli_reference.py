"""docs/CLI.md is every command's --help as the argparse definitions print it (tools/gen_cli_reference.py):
a new option, a changed help text or a new subcommand without the page regenerated fails here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import gen_cli_reference  # noqa: E402


def _options(text: str) -> dict[str, set[str]]:
    """Per section heading, the options and subcommands its usage names (layout-free)."""
    out, heading = {}, None
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line
            out[heading] = set()
        elif heading:
            out[heading] |= set(re.findall(r"--?[a-z][a-z0-9-]*", line))
    return out


def test_the_page_is_what_the_parsers_print():
    page = (ROOT / "docs/CLI.md").read_text()
    now = gen_cli_reference.reference()
    # Every command and option the parsers define is on the page, whatever the Python.
    assert _options(page) == _options(now)
    # Under the Python that wrote it, the page is byte for byte what they print (argparse's
    # layout changes between versions; the options above do not).
    if f"{sys.version_info[0]}.{sys.version_info[1]}" == gen_cli_reference.PYTHON:
        assert page == now, "docs/CLI.md is stale: run python tools/gen_cli_reference.py"


def test_every_subcommand_has_its_section():
    page = (ROOT / "docs/CLI.md").read_text()
    from iree_dsa_tuner.cli import _COMMANDS

    for name in _COMMANDS:
        assert f"### `iree-dsa-tune {name}`" in page
    assert "#### `iree-dsa-tune db export`" in page and "## `iree-dsa-sim`" in page
