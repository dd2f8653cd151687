"""`iree-dsa-tune funnel`: prune each dispatch's space with the analytic cost model."""

from __future__ import annotations

import argparse

from ..costmodel import run_funnel
from ..errors import InputError
from ..core.shape import UnsupportedProblem, parse_shape
from ..targets import TargetDescriptionError, UnknownTarget, get_target
from .common import (JSON_TO_STDOUT, HelpFormatter, add_dispatch_argument, add_json_argument, add_target_argument,
                     check_json_destination, emit_json, select_dispatches, target_compile_flags,
                     target_search_paths)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "funnel",
        help="prune each dispatch's candidate space analytically (roofline, scratchpad/DMA or caches, latency)",
        description="Build every tunable dispatch's candidate space on a target and push it through "
        "the pruning funnel: legality -> roofline (compute vs memory bound, traffic with re-reads) -> "
        "scratchpad/DMA on a DSA (capacity x stage depth, minimum useful transfer), cache on a CPU -> "
        "latency (idle cores, descriptor queue, launches, dominated variants). Prints per dispatch the "
        "roofline numbers, how many candidates enter and leave each stage with the top reasons, and the "
        "survivors ranked by estimated time. Stage names, reasons and the knobs shown are the target's "
        "own: a CPU's candidates are tiles and vector steps (no DMA stages, fusion or INT4 block). "
        "Nothing is compiled or measured except the dispatch discovery.",
        epilog="examples:\n"
        "  iree-dsa-tune funnel --shape 1x256x256 --dtype i8 --target dsa-e1      # the seed's R5.5\n"
        "  iree-dsa-tune funnel --shape 1x1024x4096 --dtype i8 --fused --target dsa-e1\n"
        "  iree-dsa-tune funnel --shape 1x2048x2048 --dtype f32 --target host     # this machine's CPU\n"
        "  iree-dsa-tune funnel model.mlir --target dsa-e1 --dispatch main_dispatch_3 --json",
        formatter_class=HelpFormatter,
    )
    p.add_argument("model", nargs="?", metavar="MODEL.mlir", help="model or dispatch MLIR (or use --shape)")
    p.add_argument("--shape", metavar="MxNxK", help="a single GEMM instead of a model (BxMxNxK for batched)")
    p.add_argument("--dtype", default="i8", metavar="TYPE",
                   help="element type for --shape: i8, bf16, f32, or LHSxRHS such as i8xi4 (default i8)")
    p.add_argument("--fused", action="store_true",
                   help="with --shape: the GEMM has an elementwise consumer that may be fused")
    add_target_argument(p)
    add_dispatch_argument(p, "prune")
    p.add_argument("--top", type=int, default=10, metavar="N", help="survivors to list (default 10)")
    add_json_argument(p, "every dispatch's funnel")
    p.set_defaults(func=run)


def _problems(args):
    if args.shape and args.model:
        raise InputError("give either MODEL.mlir or --shape, not both")
    if args.shape:
        try:
            return [("shape " + args.shape, parse_shape(args.shape, args.dtype, args.fused))]
        except ValueError as e:
            raise InputError(str(e)) from None
    if not args.model:
        raise InputError("nothing to do: give MODEL.mlir or --shape MxNxK")
    from ..ir import load_problems  # imports the IREE compiler only when a model is given

    problems = load_problems(args.model, target_compile_flags(args))
    chosen = set(select_dispatches([p.dispatch for p in problems], args.dispatch, args.model))
    return [(p.dispatch, p) for p in problems if p.dispatch in chosen]


def run(args: argparse.Namespace) -> int:
    check_json_destination(args)
    try:
        target = get_target(args.target, target_search_paths(args))
    except (UnknownTarget, TargetDescriptionError) as e:
        raise InputError(str(e)) from None
    desc = target.describe()
    results, skipped = [], []
    for name, problem in _problems(args):
        try:
            space = target.space(problem)
        except UnsupportedProblem as e:
            skipped.append((name, str(e)))
            continue
        results.append(run_funnel(space, desc, dispatch=name, estimator=target.estimator))
    if args.json:
        emit_json(args, {
            "target": desc.name,
            "target_source": desc.source,
            "dispatches": [r.to_json(limit=args.top) for r in results],
            "skipped": [{"dispatch": n, "reason": why} for n, why in skipped],
        })
        if args.json == JSON_TO_STDOUT:
            return 0
    print(f"target {desc.name} ({desc.source})")
    for r in results:
        print()
        print(f"== {r.dispatch}: {r.space.shape.label()}")
        print("\n".join(r.lines(limit=args.top)))
    for name, why in skipped:
        print()
        print(f"== {name}: skipped: {why}")
    return 0
