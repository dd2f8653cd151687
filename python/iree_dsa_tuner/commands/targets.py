"""`iree-dsa-tune targets`: list the installed targets and where each comes from."""

from __future__ import annotations

import argparse
import sys

from ..targets import load_catalog
from .common import JSON_TO_STDOUT, add_json_argument, check_json_destination, emit_json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "targets",
        help="list installed targets (DSA generations, the host CPU, user description files)",
        description="List every target the tuner can use: those registered through the "
        "`iree_dsa_tuner.targets` entry points (the DSA plugin's built-in descriptions, the host "
        "CPU described from this machine) and description files found in --target-path "
        "directories or $IREE_DSA_TARGET_PATH. A description file that fails the schema is "
        "reported with its file and field, and the exit status is 1.",
    )
    p.add_argument("--target-path", action="append", default=[], metavar="DIR",
                   help="extra directory of target description files (also $IREE_DSA_TARGET_PATH)")
    add_json_argument(p, "the full descriptions")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_destination(args)
    catalog = load_catalog(args.target_path)
    targets = sorted(catalog.targets.values(), key=lambda t: (t.kind, t.name))
    if args.json:
        emit_json(args, {
            "targets": [dict(t.describe().to_json(), runners=list(t.runner_names)) for t in targets],
            "errors": [str(e) for e in catalog.errors],
        })
    if args.json != JSON_TO_STDOUT:
        print(f"{'name':<10} {'kind':<5} {'peak INT8':>11} {'bandwidth':>11} {'cores':>5}  source")
        for t in targets:
            d = t.describe()
            print(f"{d.name:<10} {d.kind:<5} {d.peak_ops('i8') / 1e12:>7.2f} TOPS {d.dram_bytes_per_s / 1e9:>7.1f} GB/s "
                  f"{d.cores:>5}  {d.source}")
        for e in catalog.errors:
            print(f"iree-dsa-tune: error: {e}", file=sys.stderr)
    return 1 if catalog.errors else 0
