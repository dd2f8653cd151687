"""`iree-dsa-tune link`: merge several tuning specs into the one IREE reads."""

from __future__ import annotations

import argparse

from ..report.table import check_writable, write_output
from ..tuning_spec import link_spec_files


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "link",
        help="link several specs into one",
        description="iree-compile reads a single --iree-codegen-tuning-spec-path (a second one silently "
        "replaces the first). Link specs (per model, per target, hand-written) into one with IREE's "
        "--iree-codegen-link-tuning-specs pass.",
    )
    p.add_argument("specs", nargs="+", metavar="SPEC.mlir")
    p.add_argument("-o", "--output", default="-", metavar="LINKED.mlir")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_writable(args.output)
    write_output(args.output, link_spec_files(args.specs))
    return 0
