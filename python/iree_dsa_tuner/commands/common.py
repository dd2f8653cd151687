"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import sys


# One grammar for every subcommand: the same default target, --json [FILE], --dispatch SYM.
DEFAULT_TARGET = "host"
JSON_TO_STDOUT = "-"


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, but text written in lines (an epilog of examples) is kept as written;
    one-line text (a description) is wrapped to the terminal as usual."""

    def _fill_text(self, text, width, indent):
        if "\n" in text.strip("\n"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def add_target_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default=DEFAULT_TARGET, metavar="NAME",
                   help=f"target (see `iree-dsa-tune targets`; default: {DEFAULT_TARGET})")
    p.add_argument("--target-path", action="append", default=[], metavar="DIR",
                   help="extra directory of target description files (also $IREE_DSA_TARGET_PATH)")


def target_search_paths(args: argparse.Namespace) -> list[str]:
    """The --target-path directories, each checked: one that is not a directory is an input
    error (a typo would otherwise list, or look for, targets without its files)."""
    from pathlib import Path

    from ..errors import InputError

    paths = list(getattr(args, "target_path", ()) or ())
    for path in paths:
        if not Path(path).is_dir():
            problem = "not a directory" if Path(path).exists() else "no such directory"
            raise InputError(f"--target-path {path}: {problem}")
    return paths


def target_compile_flags(args: argparse.Namespace) -> tuple[str, ...]:
    """iree-compile flags of the chosen target's llvm-cpu path (`Target.compile_flags`).

    A misspelt target name is an error rather than silently the host.
    """
    from ..errors import InputError
    from ..targets import UnknownTarget, get_target

    try:
        target = get_target(args.target, search_paths=target_search_paths(args))
    except UnknownTarget as e:
        raise InputError(str(e).strip("'\"")) from None
    return target.compile_flags


def default_db() -> str:
    """The tuning database every command reads and writes unless given --db: ./iree-dsa-tuning.sqlite
    (`db.DEFAULT_DB_PATH`, the Python API's too), so `demo`, `tune`, `task` and `db` share measurements."""
    from ..db.database import DEFAULT_DB_PATH

    return str(DEFAULT_DB_PATH)


def add_db_argument(p: argparse.ArgumentParser, what: str = "tuning database") -> None:
    p.add_argument("--db", default=default_db(), metavar="PATH",
                   help=f"{what} (default ./{default_db()}, the one demo, tune, task and db share)")


def add_json_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--json", nargs="?", const=JSON_TO_STDOUT, default=None, metavar="FILE",
                   help=f"{what} as JSON: written to FILE, or printed on stdout when no FILE is given "
                        "(then nothing else is printed on stdout)")


def check_json_destination(args: argparse.Namespace) -> None:
    """A model path caught by `--json` (`--json model.mlir`) is an error, not a report file."""
    from ..errors import InputError
    from ..report.table import check_writable

    dest = getattr(args, "json", None)
    if dest is None or dest == JSON_TO_STDOUT:
        return
    if dest.endswith((".mlir", ".toml", ".irpa")):
        raise InputError(f"--json {dest}: that looks like an input, not a report; put the input before --json "
                         "or write --json=FILE")
    check_writable(dest)


def human_output(args: argparse.Namespace):
    """Where tables and summaries go: stdout, unless JSON has it (then stderr)."""
    return sys.stderr if getattr(args, "json", None) == JSON_TO_STDOUT else sys.stdout


def emit_json(args: argparse.Namespace, document, stdout=None) -> None:
    """The document to `--json`'s FILE, or to `stdout` (default: sys.stdout) when none was given."""
    from ..report import write_output

    text = json.dumps(document, indent=2) + "\n"
    if args.json == JSON_TO_STDOUT:
        stream = stdout or sys.stdout
        stream.write(text)
        stream.flush()
    else:
        write_output(args.json, text)


def add_dispatch_argument(p: argparse.ArgumentParser, verb: str) -> None:
    p.add_argument("--dispatch", action="append", default=[], metavar="SYM",
                   help=f"{verb} only the dispatch whose symbol is SYM, or else every dispatch whose symbol "
                        "contains SYM (repeatable; default: all)")


def select_dispatches(symbols, patterns, source: str) -> list[str]:
    """`core.selection.select_dispatches`, its error as one line naming `source`."""
    from ..core.selection import NoDispatchMatches, select_dispatches as select
    from ..errors import InputError

    try:
        return select(symbols, patterns)
    except NoDispatchMatches as e:
        raise InputError(f"{source}: {e}") from None


def add_parameters_argument(p: argparse.ArgumentParser, what: str = "the model") -> None:
    p.add_argument("--parameters", action="append", default=[], metavar="[SCOPE=]FILE.irpa",
                   help=f"a parameter archive {what} reads its weights from, as iree-run-module takes it "
                        "(repeatable; an externalised iree-turbine export needs model=FILE.irpa). Checked "
                        "against the model before any work. Without one, a model that reads parameters is run "
                        "with random ones of the right shapes and dtypes from the seed, and the output says so")


def model_parameters(args: argparse.Namespace, model, seed: int = 0):
    """The `parameters.Parameters` `model` runs with under `--parameters` (random from `seed`
    when none were given; None when it reads none): a bad archive is one line, exit 2."""
    from ..parameters import resolve_parameters

    return resolve_parameters(model, getattr(args, "parameters", []) or [], seed=seed)


def recipe_device(recipe) -> str:
    """The iree-run-module device flags a recipe was timed on, each followed by a space: '' for one
    thread (local-sync, the runtime's default), IREE's task device with N workers for a recipe
    tuned with `tune --threads N`."""
    from ..host.whole_model import device_flags

    return "" if recipe.threads == 1 else "".join(f + " " for f in device_flags(recipe.threads))
