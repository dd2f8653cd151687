"""`iree-dsa-tune db export`: the tuning database as CSV or JSON."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..db import DEFAULT_DB_PATH, TuningDatabase
from ..errors import InputError


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "db",
        help="read the tuning database",
        description="The tuning database (SQLite) holds every measurement a tune made -- timings, "
        "failures with their reasons, cost-model estimates -- keyed by dispatch fingerprint (the root "
        "op, whatever model it came from), target fingerprint (target description, IREE version, CPU "
        "model) and candidate config, plus and calibrations.",
    )
    actions = p.add_subparsers(dest="db_action", metavar="ACTION")
    export = actions.add_parser(
        "export",
        help="write every record as CSV or JSON",
        description="Write the tuning database's records: --csv gives one row per measurement "
        "(candidate config as JSON text); --json gives measurements and calibrations in one "
        "document. Output goes to stdout unless -o is given.",
    )
    fmt = export.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", action="store_const", const="csv", dest="format", help="CSV, one row per measurement")
    fmt.add_argument("--json", action="store_const", const="json", dest="format",
                     help="JSON with measurements and calibration")
    export.add_argument("--db", default=str(DEFAULT_DB_PATH), metavar="PATH",
                        help=f"tuning database file (default: {DEFAULT_DB_PATH})")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    export.set_defaults(func=run)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def run(args: argparse.Namespace) -> int:
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
