"""How well the L0 cost model ranks candidates, before and after calibration.

    python bench/cost_model_fidelity.py [--part dsa|host|both] [--shape NAME ...] [--json OUT]
    python bench/cost_model_fidelity.py --quick     # one tiny shape per part, smoke mode

dsa part (dsa-e1, the basket of bench/search_efficiency.py, or --dsa-shape): per
dispatch, the 32 legal candidates with the best L0 estimates plus 16 other legal
ones drawn at random (seeded) are measured by the DSA runner (`dsa-sim`, the
plugin's event simulator, which shares no formula with the L0 model). Figures:
Spearman(L0 estimate, simulated time) on that set, and whether the simulator's best
of the set is among L0's top 5; before = L0 as shipped; held-out = the driver's
`fit_calibration` (the L0 term weights the tuner refits after every tune) fitted on
every *other* dispatch's simulated set, i.e. what a new dispatch sees after earlier
tunes calibrated L0 on the simulator. --fit also tries L0's
`[l0] dma_run_overhead_bytes` (DRAM bytes lost per contiguous run a DMA step
reads) over a grid on the same simulated sets and prints the value with the best
median Spearman, the number to store in the target's description file.

host part:
Per host shape, a fixed candidate set -- the 16 legal candidates with the best
uncalibrated estimates plus 8 other legal ones drawn at random (seeded) -- is
measured once with the host runner (iree-benchmark-module, one thread) and
recorded in this run's tuning database. Every ranking below is computed on those
same measurements:

- before: the cost model with no calibration;
- after (driver): the calibration the tuner itself stores: `iree_dsa_tuner.tune`
  (pruned, budget 16, no verification) runs on the shape with the same database and
  runner (the fixed set's measurements are served from it, anything else is
  measured), fits the model's efficiency weights to what it measured and saves
  them; they are read back with `db.load_calibration(target_fp)` (the key `tune`
  uses: `target_fingerprint(target.describe(), extra="runner=host-bench")`) and
  applied through the search driver's cost view (`search.cost_view.CostView`);
- after (held-out): `fit_calibration` (the driver's fit) on the fixed sets of
  every *other* shape of this run, i.e. what a new shape sees from earlier ones.

Figures: Spearman rank correlation of estimate vs measured time, and whether the
measured best of the set is among the 5 best estimates (the driver's `fidelity`).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import common

DEFAULT_SHAPES = ("f32_kn_1x2048x2048", "f32_kn_1x4096x1024", "f32_kn_1x1024x4096", "f32_kn_16x1024x1024",
                  "f32_kn_50x1024x1024", "f32_nk_1x2048x2048", "i8_kn_50x1024x1024")
QUICK_SHAPES = ("f32_kn_1x128x256",)


def ranking_fidelity(candidates, times_us: dict, view) -> dict:
    """The driver's fidelity figures for `view`'s estimates on the measured candidates."""
    from iree_dsa_tuner.search.context import Trial

    fidelity, _ = common.fidelity_functions()
    trials = [Trial(c, times_us[c], view.estimate_us(c)) for c in candidates if times_us.get(c) is not None]
    return fidelity(trials)


def pick_candidates(view, top: int, extra: int, seed: int) -> list:
    """The `top` legal candidates by estimate, then `extra` other legal ones at random."""
    by_estimate = sorted(view.legal, key=lambda c: (view.estimate_us(c), str(c)))
    chosen = by_estimate[:top]
    rest = by_estimate[top:]
    chosen += random.Random(seed).sample(rest, min(extra, len(rest)))
    return chosen


def measure_shape(entry, model: Path, target, db, args) -> dict:
    from iree_dsa_tuner import TuneOptions, compile_model, tune
    from iree_dsa_tuner.core.fingerprint import dispatch_fingerprint, target_fingerprint
    from iree_dsa_tuner.runners import RunnerOptions

    cost_view = common.cost_view_class()
    artifacts = compile_model(model, target.compile_flags)
    problem = common.root_problem(artifacts)
    before = cost_view(problem, target, None)
    candidates = pick_candidates(before, args.top, args.extra, args.seed)
    runner = target.make_runner(artifacts, RunnerOptions(repetitions=args.repetitions))
    # The key `tune` records under and reads its calibration from (target + runner).
    target_fp = target_fingerprint(target.describe(), extra=f"runner={runner.name}")
    times_us, terms = {}, {}
    dfp = dispatch_fingerprint(problem)
    started = time.perf_counter()
    try:
        for c in candidates:
            config = target.to_config(problem, c)
            m = runner.measure(problem, config)
            m.dispatch = problem.dispatch
            db.record_measurement(dfp, target_fp, m, candidate=config.to_json(), estimate_us=before.estimate_us(c))
            times_us[c] = m.median_us if m.ok else None
            if m.ok:
                terms[c] = before.terms(c)
        measure_s = time.perf_counter() - started
        options = TuneOptions(strategy="pruned", budget=args.budget, seed=args.seed, repetitions=args.repetitions)
        report = tune(artifacts, target, options, db=db, runner=runner, verify=False)
    finally:
        runner.close()
    calibration = db.load_calibration(target_fp)
    after = cost_view(problem, target, calibration)
    d = report.dispatches[0]
    return {
        "name": entry.name, "label": entry.label, "problem": problem, "candidates": candidates,
        "times_us": times_us, "terms": terms, "measure_s": measure_s,
        "failed": sum(1 for t in times_us.values() if t is None),
        "before": ranking_fidelity(candidates, times_us, before),
        "after_driver": ranking_fidelity(candidates, times_us, after), "calibration_driver": calibration,
        "tune_run": {"measured": d.measured, "cached": d.cached, "fidelity_in_run": d.fidelity},
    }


def held_out(results: list[dict], target) -> None:
    """Calibrate on every other shape's fixed set; rank this shape with it."""
    _, fit_calibration = common.fidelity_functions()
    for r in results:
        points = [(o["terms"][c], o["times_us"][c] * 1e-6) for o in results if o is not r
                  for c in o["candidates"] if c in o["terms"] and o["times_us"].get(c)]
        calibration = fit_calibration(points)
        r["calibration_held_out"] = calibration
        if calibration is None:
            r["after_held_out"] = {}
            continue
        view = common.cost_view_class()(r["problem"], target, calibration)
        r["after_held_out"] = ranking_fidelity(r["candidates"], r["times_us"], view)


def _cell(fid: dict) -> tuple[str, str]:
    if not fid:
        return "-", "-"
    rho = "-" if fid.get("spearman") is None else f"{fid['spearman']:.2f}"
    return rho, "yes" if fid.get("best_in_top5") else "no"


def print_results(results: list[dict]) -> dict:
    rows = []
    for r in results:
        b, a, h = _cell(r["before"]), _cell(r["after_driver"]), _cell(r.get("after_held_out", {}))
        fitted = (r["calibration_driver"] or {}).get("points")
        rows.append([r["label"], len(r["candidates"]) - r["failed"], *b, fitted or "none", *a, *h])
    common.print_table(["shape", "measured", "rho before", "top5 before", "calib. points", "rho after", "top5 after",
                        "rho held-out", "top5 held-out"], rows,
                       title="Spearman(estimate, measured) and 'measured best in the estimate's top 5', "
                             "same measurements; after = the driver's stored calibration (fitted on "
                             "'calib. points' measurements; none = the tuner stored none, ranking unchanged)")
    summary = {}
    for key in ("before", "after_driver", "after_held_out"):
        rhos = [r[key]["spearman"] for r in results if r.get(key) and r[key].get("spearman") is not None]
        top5 = sum(1 for r in results if r.get(key) and r[key].get("best_in_top5"))
        summary[key] = {"median_spearman": common.median(rhos) if rhos else None, "top5": top5, "shapes": len(results)}
    common.print_table(["ranking", "median rho", "best in top 5"],
                       [[k, common.fmt(v["median_spearman"], ".2f"), f"{v['top5']}/{v['shapes']}"]
                        for k, v in summary.items()], title="summary")
    return summary


DSA_TARGET = "dsa-e1"
QUICK_DSA_SHAPES = ("f32_kn_1x256x512",)


def dsa_shape(entry, model: Path, target, args) -> dict:
    from iree_dsa_tuner import compile_model
    from iree_dsa_tuner.runners import RunnerOptions

    artifacts = compile_model(model, target.compile_flags)
    problem = common.root_problem(artifacts)
    view = common.cost_view_class()(problem, target, None)
    candidates = pick_candidates(view, args.dsa_top, args.dsa_extra, args.seed)
    runner = target.make_runner(artifacts, RunnerOptions())
    times_us, terms = {}, {}
    started = time.perf_counter()
    for c in candidates:
        m = runner.measure(problem, target.to_config(problem, c))
        times_us[c] = m.median_us if m.ok else None
        if m.ok:
            terms[c] = view.terms(c)
    return {"name": entry.name, "label": entry.label, "problem": problem, "candidates": candidates,
            "times_us": times_us, "terms": terms, "measure_s": time.perf_counter() - started,
            "failed": sum(1 for t in times_us.values() if t is None),
            "before": ranking_fidelity(candidates, times_us, view)}


def print_dsa(results: list[dict], name: str) -> dict:
    rows = []
    for r in results:
        b, h = _cell(r["before"]), _cell(r.get("after_held_out", {}))
        rows.append([r["label"], len(r["candidates"]) - r["failed"], *b, *h, f"{r['measure_s']:.1f}"])
    common.print_table(["dispatch", "simulated", "rho L0", "sim best in L0 top5", "rho held-out",
                        "top5 held-out", "sim s"], rows,
                       title=f"{name}: Spearman(L0 estimate, event-simulated time) and 'the simulator's best "
                             "in L0's top 5'; held-out = L0 with the driver's calibration fitted on the other dispatches")
    summary = {}
    for key in ("before", "after_held_out"):
        rhos = [r[key]["spearman"] for r in results if r.get(key) and r[key].get("spearman") is not None]
        top5 = sum(1 for r in results if r.get(key) and r[key].get("best_in_top5"))
        summary[key] = {"median_spearman": common.median(rhos) if rhos else None, "top5": top5,
                        "shapes": len(results)}
    common.print_table(["ranking", "median rho", "sim best in L0 top 5"],
                       [[k, common.fmt(v["median_spearman"], ".2f"), f"{v['top5']}/{v['shapes']}"]
                        for k, v in summary.items()], title=f"{name} summary (issue 11 target: median rho >= 0.8)")
    return summary


RUN_OVERHEAD_GRID = (0, 16, 32, 64, 128, 256, 512)


def fit_run_overhead(results: list[dict], target) -> dict:
    """Median Spearman and top-5 hits of L0 with each run overhead of the grid, on the simulated sets."""
    from iree_dsa_tuner.core.shape import gemm_shape
    from iree_dsa_tuner.costmodel import tile_geometry
    from iree_dsa_tuner.search.context import Trial
    from iree_dsa_tuner.space.space import candidates_to_columns

    fidelity, _ = common.fidelity_functions()
    desc = target.describe()
    rows, table = [], {}
    for value in RUN_OVERHEAD_GRID:
        variant = desc.with_changes(extras={**desc.extras, "l0": {**desc.extras.get("l0", {}),
                                                                  "dma_run_overhead_bytes": value}})
        rhos, hits = [], 0
        for r in results:
            ok = [c for c in r["candidates"] if r["times_us"].get(c) is not None]
            shape = gemm_shape(r["problem"])
            cols = candidates_to_columns(ok)
            est = target.estimator(shape, variant, cols, tile_geometry(shape, variant, cols)).total_s * 1e6
            fid = fidelity([Trial(c, r["times_us"][c], float(e)) for c, e in zip(ok, est)])
            if fid.get("spearman") is not None:
                rhos.append(fid["spearman"])
            hits += bool(fid.get("best_in_top5"))
        table[value] = {"median_spearman": common.median(rhos), "top5": hits}
        rows.append([value, f"{common.median(rhos):.2f}", f"{hits}/{len(results)}"])
    best = max(RUN_OVERHEAD_GRID, key=lambda v: (table[v]["median_spearman"], table[v]["top5"], -v))
    common.print_table(["dma_run_overhead_bytes", "median rho", "sim best in L0 top 5"], rows,
                       title=f"{target.name}: L0's DRAM bytes lost per contiguous run, fitted to the simulator")
    print(f"\nbest: dma_run_overhead_bytes = {best}  (the [l0] table of {desc.source})")
    return {"grid": table, "best": best}


def dsa_part(args, work: Path) -> dict:
    from iree_dsa_tuner.targets import get_target

    target = get_target(args.dsa_target)
    entries = common.select_entries(args.dsa_shape, args.quick, QUICK_DSA_SHAPES)
    models = common.write_models(entries, work / "dsa-models")
    results = []
    for n, entry in enumerate(entries, start=1):
        common.progress(f"[dsa {n}/{len(entries)}] {entry.label}: simulating {args.dsa_top}+{args.dsa_extra} candidates")
        results.append(dsa_shape(entry, models[entry.name], target, args))
    held_out(results, target)
    summary = print_dsa(results, target.name)
    fit = fit_run_overhead(results, target) if args.fit else None
    return {"target": target.name, "summary": summary, "run_overhead_fit": fit,
            "shapes": [{**{k: v for k, v in r.items() if k not in ("problem", "candidates", "times_us", "terms")},
                        "measurements": [{"candidate": c.to_json(), "time_us": r["times_us"][c]}
                                         for c in r["candidates"]]} for r in results]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("dsa", "host", "both"), default="both")
    parser.add_argument("--shape", action="append", default=[], metavar="NAME",
                        help=f"host shapes (default {', '.join(DEFAULT_SHAPES)})")
    parser.add_argument("--dsa-shape", action="append", default=[], metavar="NAME",
                        help="dsa part: only these basket entries (default: the whole basket)")
    parser.add_argument("--dsa-target", default=DSA_TARGET, metavar="NAME", help=f"dsa part: target (default {DSA_TARGET})")
    parser.add_argument("--fit", action="store_true", help="dsa part: fit L0's dma_run_overhead_bytes to the simulator")
    parser.add_argument("--dsa-top", type=int, default=32, help="dsa: candidates with the best L0 estimates")
    parser.add_argument("--dsa-extra", type=int, default=16, help="dsa: random other legal candidates")
    parser.add_argument("--quick", action="store_true", help="smoke mode: one tiny shape, 6 + 2 candidates")
    parser.add_argument("--top", type=int, default=16, help="candidates with the best estimates (default 16)")
    parser.add_argument("--extra", type=int, default=8, help="random other legal candidates (default 8)")
    parser.add_argument("--budget", type=int, default=16, help="the calibrating tune run's budget")
    parser.add_argument("--repetitions", type=int, default=5, help="host runner repetitions per candidate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args(argv)
    if args.quick:
        args.top, args.extra, args.budget, args.repetitions = min(args.top, 6), min(args.extra, 2), min(args.budget, 6), 1
        args.dsa_top, args.dsa_extra = min(args.dsa_top, 12), min(args.dsa_extra, 4)

    machine = common.print_header("bench/cost_model_fidelity.py: L0 cost model ranking, before/after calibration")
    document = {"bench": "cost_model_fidelity", "machine": machine, "args": vars(args)}
    with tempfile.TemporaryDirectory(prefix="fidelity-") as tmp:
        if args.part in ("dsa", "both"):
            document["dsa"] = dsa_part(args, Path(tmp))
        if args.part in ("host", "both"):
            document.update(host_part(args, Path(tmp)))
    common.write_json(args.json, document)
    return 0


def host_part(args, work: Path) -> dict:
    from iree_dsa_tuner.db import TuningDatabase
    from iree_dsa_tuner.targets import get_target

    names = args.shape or list(QUICK_SHAPES if args.quick else DEFAULT_SHAPES)
    entries = [common.gen_basket.find_entry(n) for n in names]
    target = get_target("host")
    results = []
    models = common.write_models(entries, work / "models")
    with TuningDatabase(work / "tuning.sqlite") as db:
        for n, entry in enumerate(entries, start=1):
            common.progress(f"[{n}/{len(entries)}] {entry.label}: measuring {args.top}+{args.extra} candidates")
            results.append(measure_shape(entry, models[entry.name], target, db, args))
    held_out(results, target)
    summary = print_results(results)
    return {
        "summary": summary,
        "shapes": [{**{k: v for k, v in r.items() if k not in ("problem", "candidates", "times_us", "terms")},
                    "measurements": [{"candidate": c.to_json(), "time_us": r["times_us"][c]} for c in r["candidates"]]}
                   for r in results],
    }


if __name__ == "__main__":
    raise SystemExit(main())
