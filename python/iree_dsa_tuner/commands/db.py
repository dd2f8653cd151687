"""`iree-dsa-tune db export` / `db import`: the tuning database as CSV or JSON, and back."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..db import TuningDatabase
from ..errors import InputError
from ..report import plural
from .common import JSON_TO_STDOUT, add_db_argument, add_json_argument, check_json_destination, default_db


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "db",
        help="export the tuning database, or import another machine's or rung's export",
        description="The tuning database (SQLite) holds every measurement a tune made -- timings, "
        "failures with their reasons, cost-model estimates -- keyed by dispatch fingerprint (the root "
        "op, whatever model it came from), target fingerprint (target description, IREE version, CPU "
        "model) and candidate config, plus calibrations. `export` writes them out; `import` merges an "
        "export from another machine or another rung of the feedback ladder (R8.2).",
    )
    actions = p.add_subparsers(dest="db_action", metavar="ACTION")
    export = actions.add_parser(
        "export",
        help="write every record as CSV or JSON",
        description="Write the tuning database's records: --csv gives one row per measurement "
        "(candidate config as JSON text); --json gives measurements and calibrations in one "
        "document. Each takes a FILE to write (whole or not at all) as every command's --json does; "
        "without one (and without -o) the export goes to stdout. "
        f"The database is ./{default_db()} unless --db: the one demo, tune and task write.",
    )
    fmt = export.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", nargs="?", const=JSON_TO_STDOUT, default=None, metavar="FILE",
                     help="CSV, one row per measurement: written to FILE, or printed on stdout when no FILE is given")
    add_json_argument(fmt, "measurements and calibrations")
    add_db_argument(export)
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout (as --csv FILE, --json FILE)")
    export.set_defaults(func=run)
    importing = actions.add_parser(
        "import",
        help="merge measurements exported by `db export` (CSV or JSON) into the database",
        description="Load the measurements (and, from JSON, the calibrations) of a `db export` file into "
        "the database, each kept under its own runner and target fingerprint, so telemetry from another "
        "rung (a cycle-approximate model, silicon) or machine sits beside this one's. Where both hold the "
        "same candidate of the same dispatch and target, the later measurement wins. A malformed file "
        "changes nothing (one-line error, exit 2). Then it lists the dispatches whose best measured time "
        "changed and prints the command that re-tunes a model with them: "
        "`iree-dsa-tune tune MODEL.mlir --target NAME --db PATH -o SPEC.mlir` (the re-tune reads the "
        "imported records from PATH instead of measuring those candidates again).",
    )
    importing.add_argument("file", metavar="FILE", help="a `db export --csv` or `--json` file")
    add_db_argument(importing, "tuning database to merge into, created if absent")
    importing.set_defaults(func=run_import)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _destination(args: argparse.Namespace) -> str | None:
    """Where the export goes: --csv/--json's FILE or -o's (None: stdout); both, and differing, is an error."""
    flag = "--csv" if args.csv is not None else "--json"
    given = args.csv if args.csv is not None else args.json
    named = None if given == JSON_TO_STDOUT else given
    if named and args.output and named != args.output:
        raise InputError(f"{flag} {named} and -o {args.output}: two destinations; give one")
    return named or args.output


def run(args: argparse.Namespace) -> int:
    check_json_destination(args)
    if args.csv is not None and args.csv.endswith((".mlir", ".toml", ".irpa", ".sqlite")):
        raise InputError(f"--csv {args.csv}: that looks like an input, not an export; write --csv=FILE")
    if args.json is not None and args.json.endswith(".sqlite"):
        raise InputError(f"--json {args.json}: that looks like the database, not an export; give it as --db")
    args.format = "csv" if args.csv is not None else "json"
    args.output = _destination(args)
    path = Path(args.db)
    # Opening creates a database; an export must not invent an empty one.
    if not path.exists():
        raise InputError(f"{path}: no tuning database here (give --db PATH)")
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a tuning database file")
    if args.output and Path(args.output).is_dir():
        raise InputError(f"{args.output}: is a directory")
    with TuningDatabase(path) as db:
        export = db.export_csv if args.format == "csv" else db.export_json
        if not args.output:
            count = export(sys.stdout)
        else:
            # Write beside the target and rename: no half-written export on failure.
            tmp = Path(args.output).with_name(Path(args.output).name + ".partial")
            try:
                count = export(tmp)
                os.replace(tmp, args.output)
            except OSError as e:
                tmp.unlink(missing_ok=True)
                raise InputError(f"{args.output}: cannot write: {e.strerror}") from None
            print(f"wrote {count} measurements to {args.output}", file=sys.stderr)
    return 0


def run_import(args: argparse.Namespace) -> int:
    from ..db.importing import import_export, read_export

    path = Path(args.db)
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a tuning database file")
    read_export(args.file)  # a malformed file must not even create the database
    with TuningDatabase(path) as db:
        summary = import_export(db, args.file)
    print(f"imported {summary.added + summary.replaced} measurements into {path} ({summary.added} new, "
          f"{summary.replaced} replacing older records, {summary.kept} older than the database's, kept out)"
          + (f", {summary.calibrations} calibrations" if summary.calibrations else ""))
    if not summary.changed:
        print("no dispatch's best changed: nothing to re-tune")
        return 0
    print(f"best changed on {plural(len(summary.changed), 'dispatch')}:")
    for c in summary.changed:
        before = f"{c.before_us:.3f} us" if c.before_us is not None else "none"
        print(f"  {c.dispatch or c.dispatch_fp[:16]}  (runner {c.runner or '?'}, target {c.target_fp[:12]})  "
              f"{before} -> {c.after_us:.3f} us")
    print(f"re-tune the models with these dispatches: iree-dsa-tune tune MODEL.mlir --target NAME --db {path} "
          f"-o SPEC.mlir")
    return 0
