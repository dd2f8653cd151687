"""`iree-dsa-tune profile`: where one host build of a model spends its time, dispatch by dispatch."""

from __future__ import annotations

import argparse
import sys

from .common import add_json_argument, check_json_destination, emit_json, human_output


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "profile",
        help="time every dispatch of a host build (IREE default or a recipe) alone: the model's Amdahl table",
        description="Compile MODEL for the host (IREE's defaults, or the flags and spec of RECIPE, or "
        "--iree-flag's), dump that build's dispatch benchmarks (each executable with the configs the build "
        "chose), and time each alone on one thread with iree-benchmark-module. A dispatch's share of the "
        "model is its time per call x its calls per call of the model (from the host program). IREE 3.13's "
        "local HAL has no per-dispatch profiler; this is the way to see which dispatches a recipe still "
        "leaves slow. Not in the sum: the host program's own work between dispatches. Benchmark buffers "
        "are zeros, so data-dependent dispatches may differ from the real run; they are written once before "
        "timing, so an operand read many times costs what it costs in the model (IREE's own benchmarks leave "
        "them unwritten: pi0's prefix FFN GEMM 0.68 s there, 1.97 s written; docs/DATA_TILING.md 7). "
        "bench/perf_attribution.py samples the model itself.",
    )
    p.add_argument("model", metavar="MODEL.mlir")
    p.add_argument("--recipe", metavar="RECIPE.toml", help="the build `tune --target host` chose (its flags and spec)")
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                   help="an extra iree-compile flag for the build (repeatable), e.g. --iree-flag=--iree-opt-data-tiling")
    p.add_argument("--top", type=int, default=20, metavar="N", help="rows in the table (default 20; JSON has all)")
    p.add_argument("--repetitions", type=int, default=5, metavar="R", help="timed repetitions per dispatch (median)")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="parallel benchmark compiles (default: every usable core; timings stay serial)")
    add_json_argument(p, "every dispatch's time")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..compiler import check_input_file
    from ..flags import HOST_FLAGS, check_iree_flags, with_target_cpu
    from ..ir.artifacts import compile_model
    from ..recipe import load_recipe
    from ..report import format_table, plural
    from ..runners.dispatch_profile import profile_build
    from ..runners.executor import usable_cores

    check_input_file(args.model)
    check_json_destination(args)
    target_flags, flags, spec = HOST_FLAGS, check_iree_flags(args.iree_flag), None
    if args.recipe:
        recipe = load_recipe(args.recipe)
        recipe.check_model(args.model)
        if note := recipe.machine_note():  # timed on another CPU: its choice may not be this one's
            print(note, file=sys.stderr)
        target_flags = with_target_cpu(HOST_FLAGS, recipe.target_cpu)
        flags, spec = recipe.build_flags() + flags, recipe.spec_path()  # its scripts resolved beside it
    out = human_output(args)
    say = (lambda text: print(text, file=sys.stderr, flush=True))
    calls = compile_model(args.model, target_flags + flags).calls()  # the spec changes configs, not calls
    times = profile_build(args.model, target_flags, flags, spec, calls=calls, jobs=args.jobs or usable_cores(),
                          repetitions=args.repetitions, progress=say)
    total = sum(t.total_us or 0.0 for t in times)
    rows, cumulative = [], 0.0
    for t in times[:max(0, args.top)]:
        cumulative += t.total_us or 0.0
        rows.append([t.dispatch, str(t.calls), "-" if t.us is None else f"{t.us:.1f}",
                     "-" if t.total_us is None else f"{t.total_us:.1f}",
                     f"{(t.total_us or 0.0) / total:.1%}" if total else "-", f"{cumulative / total:.1%}" if total else "-",
                     t.error[:100] or ("" if t.calls else "runs at load (an initializer), not per call")])
    build = " ".join(flags + ((f"spec {spec}",) if spec else ())) or "IREE defaults"
    print(f"build: {build}", file=out)
    print(format_table(["dispatch", "calls", "us/call", "us in model", "share", "cumulative", "note"], rows), file=out)
    untimed = [t for t in times if t.us is None]
    print(f"\nsum of {plural(len(times) - len(untimed), 'timed dispatch', 'timed dispatches')}: {total:.1f} us per call of the model"
          + (f"; {len(untimed)} could not be timed" if untimed else "")
          + (f"; {len(times) - len(rows)} more in --json" if len(times) > len(rows) else ""), file=out)
    if args.json is not None:
        emit_json(args, {"model": args.model, "build": {"flags": list(flags), "spec": str(spec) if spec else None},
                         "target_flags": list(target_flags), "total_us": round(total, 3),
                         "dispatches": [t.to_json() for t in times]})
    return 0
