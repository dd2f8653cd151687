"""`iree-dsa-tune demo`: the whole path on the built-in pi0 action-expert block."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..examples import DEFAULT_MODEL, DEFAULT_PLAN
from ..ir import load_problems
from ..core.problems import RootOpProblem
from ..report import format_table, plural, write_output
from ..tuning_spec import build_spec
from ..tuning_spec.verify import verify_spec
from .common import add_db_argument, default_db


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="run inspect -> spec -> verify -> tune on the built-in example model",
        description=f"Runs the tuner's path on the model shipped in the package ({DEFAULT_MODEL.name}, "
        "a pi0 action-expert block: a batch-1 projection and M=50 action-chunk GEMMs): lists its "
        "dispatches, writes a tuning spec from the shipped plan, verifies with real iree-compile "
        "that every config is applied and numerics match, then tunes it on dsa-e1 (every dispatch, "
        "simulated) and on the host (the batch-1 dispatch, measured). Its measurements go to the tuning "
        f"database every command shares (./{default_db()} unless --db), so `iree-dsa-tune db export --csv` "
        "reads them. Exit status 1 when verify finds the spec not applied or its numerics off, as verify's.",
    )
    p.add_argument("-o", "--output-dir", default="iree-dsa-demo", metavar="DIR",
                   help="where the specs go (default: ./iree-dsa-demo)")
    add_db_argument(p, "where the tune steps' measurements go")
    p.add_argument("--no-tune", action="store_true", help="stop after inspect -> spec -> verify")
    p.add_argument("--host-budget", type=int, default=6, metavar="N",
                   help="host measurements for the batch-1 dispatch (default 6)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    print(f"model: {DEFAULT_MODEL}")
    problems = load_problems(DEFAULT_MODEL)
    rows = [[p.dispatch, p.kind, " ".join(f"{k}={v}" for k, v in p.sizes().items())] for p in problems]
    print(format_table(["dispatch", "kind", "sizes"], rows))
    plan = json.loads(DEFAULT_PLAN.read_text())
    spec_path = out / "spec.mlir"
    write_output(spec_path, build_spec([p for p in problems if isinstance(p, RootOpProblem)], plan))
    print(f"\nspec: {spec_path} ({plural(len(plan), 'config')} from {DEFAULT_PLAN.name})")
    report = verify_spec(DEFAULT_MODEL, spec_path)
    print(format_table(["dispatch", "status"], [[v.dispatch, v.status] for v in report.ops]))
    for n in report.numerics:
        if not n.checked:
            print(f"numerics @{n.function}: not checked ({n.detail})")
            continue
        print(f"numerics @{n.function}: {'match' if n.ok else 'MISMATCH'} (max err {n.max_error:.3g}, tolerance {n.tolerance:.3g})")
    print(f"\nverify: {'OK' if report.ok else 'FAILED'}; use it with: "
          f"iree-compile --iree-codegen-tuning-spec-path={spec_path} ...")
    if not report.ok:
        return 1
    if args.no_tune:
        return 0
    from ..model_tuning import tune_model
    from ..search.options import TuneOptions
    from ..targets import get_target
    from .tune import summary_table

    db = Path(args.db)
    batch1 = next(p.dispatch for p in problems if isinstance(p, RootOpProblem))
    runs = [
        ("dsa-e1", "every dispatch, simulated", TuneOptions()),
        ("host", f"{batch1}, measured with iree-benchmark-module (one thread)",
         TuneOptions(dispatches=(batch1,), budget=args.host_budget, repetitions=3)),
    ]
    for target, title, options in runs:
        print(f"\n== tune {target}: {title}")
        result = tune_model(DEFAULT_MODEL, get_target(target), options, db=db, whole_model=False).report
        print(summary_table(result))
        spec = out / f"spec.{target}.mlir"
        if result.spec_text:
            write_output(spec, result.spec_text)
            print(f"\nspec: {spec} (verified: {result.verification()})")
        else:
            print("\nno dispatch beat IREE's default; no spec written")
    print(f"\nmeasurements: {db} (iree-dsa-tune db export --csv --db {db})")
    return 0
