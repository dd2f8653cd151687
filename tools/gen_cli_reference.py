"""Write docs/CLI.md: every command's `--help`, taken from the argparse definitions themselves.

    python tools/gen_cli_reference.py [--check] [OUT]

The page is generated, never edited by hand: `iree-dsa-tune`, each of its subcommands (and their
own subcommands, `db export`), and `iree-dsa-sim`, each `--help` as argparse prints it at a fixed
width of 100 columns. `tests/test_cli_reference.py` fails when the page and the parsers differ;
`--check` does the same from the shell (exit 1, naming the first differing line).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WIDTH = "100"
# argparse's layout differs between Python versions: the page is written by this one.
PYTHON = "3.11"
HEADER = f"""# Command-line reference

Generated from the argparse definitions by `python tools/gen_cli_reference.py` under Python
{PYTHON} (do not edit by hand; `tests/test_cli_reference.py` fails when this page and the commands
differ). Every command speaks one grammar (README, "Use"); exit status 0 is done, 2 an error (one
line on stderr), 1 a verdict (`verify` found a config not applied or numerics that differ).
"""


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """(name, parser) of each subcommand `parser` declares, in declaration order."""
    out = []
    for action in parser._actions:  # argparse keeps its subparsers here; there is no public accessor
        if isinstance(action, argparse._SubParsersAction):
            out += list(action.choices.items())
    return out


def _sections(prog: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    text = [f"{'#' * level} `{prog}`", "", "```", parser.format_help().rstrip(), "```", ""]
    for name, sub in _subcommands(parser):
        text += _sections(f"{prog} {name}", sub, min(level + 1, 4))
    return text


def reference() -> str:
    """The page, at WIDTH columns whatever the terminal."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH  # argparse wraps to $COLUMNS
    try:
        from iree_dsa_plugin.sim_cli import build_parser as sim_parser
        from iree_dsa_tuner.cli import build_parser

        lines = [HEADER] + _sections("iree-dsa-tune", build_parser(), 2) + _sections("iree-dsa-sim", sim_parser(), 2)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=str(REPO / "docs" / "CLI.md"))
    ap.add_argument("--check", action="store_true", help="compare with OUT instead of writing it")
    args = ap.parse_args(argv)
    text = reference()
    out = Path(args.out)
    if args.check:
        have = out.read_text() if out.is_file() else ""
        if have != text:
            diff = next((i for i, (a, b) in enumerate(zip(have.splitlines(), text.splitlines())) if a != b),
                        min(len(have.splitlines()), len(text.splitlines())))
            print(f"{out}: stale from line {diff + 1}; run python tools/gen_cli_reference.py", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
