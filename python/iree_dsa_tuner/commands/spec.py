"""`iree-dsa-tune spec`: a tuning spec from a plan of configs you chose."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import InputError
from ..flags import check_iree_flags
from ..ir import compile_model
from ..ir.artifacts import spec_problems
from ..flags import flags_header
from ..report.table import check_writable, write_output
from ..tuning_spec import ConfigError, SpecError, build_spec
from .common import add_target_argument, target_compile_flags


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "spec",
        help="write a tuning spec from a plan (dispatch -> config)",
        description="Write a Transform-dialect tuning spec that attaches the configs of PLAN to "
        "the root ops of MODEL's dispatches (contractions, convolutions, attention, softmax, and elementwise roots). PLAN is JSON: {\"<dispatch symbol>\": {\"pipeline\": "
        "\"DoubleTilingExpert\", \"distribution\": [...], \"vector_common_parallel\": [...], "
        "\"vector_reduction\": [...]}}, one tile per loop of the root op as `inspect` lists them "
        "(loop_sizes). Check the result with `iree-dsa-tune verify MODEL SPEC`.",
    )
    p.add_argument("model", metavar="MODEL.mlir")
    p.add_argument("--plan", required=True, metavar="PLAN.json", help="dispatch symbol -> config")
    p.add_argument("-o", "--output", default="-", metavar="SPEC.mlir", help="output file (default: stdout)")
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                   help="an iree-compile flag the model is compiled with (repeatable), for dispatches that exist "
                        "only under it, e.g. a batch-1 conv's route (docs/CONV.md); the spec's header records it "
                        "and `verify` reads it back")
    add_target_argument(p)
    p.set_defaults(func=run)


def read_plan(path: str) -> dict:
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    try:
        plan = json.loads(p.read_text())
    except json.JSONDecodeError as e:
        raise InputError(f"{p}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    if not isinstance(plan, dict) or not plan:
        raise InputError(f"{p}: a plan is a non-empty JSON object mapping dispatch symbols to configs")
    return plan


def run(args: argparse.Namespace) -> int:
    check_writable(args.output)
    plan = read_plan(args.plan)
    check_iree_flags(args.iree_flag)
    flags = tuple(args.iree_flag)
    # Every dispatch a spec may configure: root ops, and elementwise roots (docs/ELEMENTWISE.md).
    problems = spec_problems(compile_model(args.model, target_compile_flags(args) + flags))
    try:
        text = build_spec(problems, plan)
    except (SpecError, ConfigError) as e:
        raise InputError(f"{args.plan}: {e}") from None
    write_output(args.output, flags_header(flags) + text)
    return 0
