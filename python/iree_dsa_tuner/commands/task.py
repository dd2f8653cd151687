"""`iree-dsa-tune task`: a robot policy's action-chunk latency on a target, tuned to its budget."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..errors import InputError
from ..report import format_table, plural
from ..runners.executor import usable_cores
from ..search.progress import ProgressDisplay
from .common import (JSON_TO_STDOUT, HelpFormatter, add_db_argument, add_json_argument, add_target_argument, check_json_destination,
                     default_db, emit_json, human_output)

# Published task-level references the verdict is printed against (shared/docs/BRIEF.md).
GR00T_THOR_MS = 92.0
TARGET_MS, TARGET_HZ = 100.0, 10.0
DEFAULT_LIBRARY = "transform_specs"
DEFAULT_DB = default_db()  # every command's: `tune`, `task`, `demo` and `db` share their measurements


_EPILOG = """\
MANIFEST is a file, or the name of a shipped manifest (`task --list` lists them), so these run
from any directory:
  iree-dsa-tune task --list
  iree-dsa-tune task pi0 --target dsa-e1 --flow-steps 10,5,4,1
  iree-dsa-tune task gr00t_dit.toml pi0 --target dsa-e1      two policies sharing the part
"""


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "task",
        help="a policy's action-chunk latency and control rate on a target, tuned until its budget is met",
        description="Read MANIFEST (a robot policy: its stages, how often each runs per action chunk, the "
        "quantisation the target runs it in), time one chunk on the target with IREE's default schedules, "
        "then tune dispatches largest share of the chunk first until the chunk meets its latency budget or "
        "no dispatch is worth a search. Every tuned op gets a decision (accept / escalate) by the task-level "
        "rule: an op near its elite is accepted when it is off the critical path or the task meets its "
        "budget; it escalates only when it is a bottleneck, the task is over budget and it is below 95% of "
        "its elite's performance. An escalated or tune-further op, or a chunk over budget, then starts the "
        "L2 tier (--l2): proposals from the built-in schedule moves and any --proposer command, each kept "
        "only when it is legal, measured faster and numerically checked. "
        "The winners become one verified spec per stage, stored in the spec library under a hash of what "
        "they are bound to (stage shapes, quantisation, flow and action steps) and reused while it holds. "
        f"Measurements go to the SQLite database `tune` uses (./{DEFAULT_DB} unless --db): a re-run (or "
        "--resume after a kill) re-measures nothing already recorded.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
    )
    p.add_argument("manifest", metavar="MANIFEST.toml", nargs="*",
                   help="one policy: a manifest file, or a shipped manifest's name (pi0 or pi0.toml, see --list); "
                        "several share the part: the cores are partitioned between them")
    p.add_argument("--list", action="store_true",
                   help="list the shipped manifests, the names MANIFEST takes, and exit")
    add_target_argument(p)
    p.add_argument("--budget-ms", type=float, default=None, metavar="MS",
                   help="latency budget of one chunk (default: the manifest's latency_budget_ms)")
    p.add_argument("--budget", type=int, default=16, metavar="N", help="measurements per tuned dispatch (default 16)")
    p.add_argument("--flow-steps", default="", metavar="LIST",
                   help="also report these flow-step counts side by side, e.g. 10,5,4,1 (1 = the 1-NFE path)")
    p.add_argument("--library", default=DEFAULT_LIBRARY, metavar="DIR",
                   help=f"spec library: DIR/<target>/<model>/<binding hash>/ (default ./{DEFAULT_LIBRARY})")
    p.add_argument("--no-library", action="store_true", help="neither read nor write a spec set")
    p.add_argument("--retune", action="store_true", help="tune a new set even when the library has one")
    # As `tune` has them (commands/tune.py).
    add_db_argument(p)
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run (recorded measurements are always reused; this is explicit)")
    p.add_argument("--no-db", action="store_true", help="measure everything afresh and record nothing")
    add_json_argument(p, "the task report")
    p.add_argument("--plot", metavar="DIR", help="write chunk.png (stages default vs tuned, budget, limit, flow-step "
                                                  "variants) to DIR (needs matplotlib)")
    p.add_argument("--l2", choices=("auto", "on", "off"), default="auto",
                   help="the L2 tier after L1 (docs/TASK.md, L2 at task level): auto runs it when a dispatch is below 95%% of its "
                        "elite or the chunk is over budget; each proposal is measured, checked for numerics and "
                        "kept only when it shortens the chunk (default auto)")
    p.add_argument("--proposer", action="append", default=[], metavar="CMD",
                   help="an external L2 proposer: a command reading one JSON request on stdin and writing a JSON "
                        "list of configs (tools/proposers/); repeatable, asked after the built-in schedule moves")
    p.add_argument("--jobs", type=int, default=usable_cores(), metavar="J",
                   help="parallel compiles of the candidates a search round (L1 or L2) measures together; their "
                        f"timings stay serial (default: every usable core, here {usable_cores()})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (a live bar on a terminal; elsewhere one line per dispatch's search)")
    p.add_argument("--parameters", action="append", default=[], metavar="[SCOPE=]FILE.irpa",
                   help="a parameter archive for every stage that reads parameters and names none in the manifest "
                        "(a stage's own: `parameters = [\"model=stage.irpa\"]`); repeatable, as iree-run-module takes "
                        "it. Stages without one verify their spec on random parameters from the seed")
    p.set_defaults(func=run)


def with_command_parameters(manifest, given: list[str]):
    """`manifest` with `given` archives bound to each stage that reads parameters and names none;
    a scope no such stage reads is an error (one line, before any work)."""
    from dataclasses import replace

    from ..parameters import read_model_parameters, resolve_parameters

    if not given:
        return manifest
    takers = [s for s in manifest.stages if s.parameters is None and read_model_parameters(s.mlir)]
    if not takers:
        raise InputError(f"--parameters {' '.join(given)}: no stage of {manifest.path} reads parameters without "
                         "naming its own archive")
    stages = [replace(s, parameters=resolve_parameters(s.mlir, given)) if s in takers else s
              for s in manifest.stages]
    return replace(manifest, stages=tuple(stages))


def parameter_lines(manifest) -> list[str]:
    """Per stage that reads parameters: which archives its numerics use."""
    from ..parameters import read_model_parameters, unbound_text

    lines = []
    for s in manifest.stages:
        if s.parameters is not None:
            lines.append(f"stage {s.name}: {s.parameters.describe()}")
        elif read_model_parameters(s.mlir):
            lines.append(f"stage {s.name}: " + unbound_text(read_model_parameters(s.mlir)).replace(
                "; none given (running it needs", "; none given: its spec is verified on random ones from the "
                "seed (running it needs"))
    return lines


def resolve_manifest(given: str) -> Path:
    """The manifest file `given` names: the file when there is one, else the shipped manifest of that
    name (`pi0`, `pi0.toml`, `lerobot/pi0`); neither is one line naming the choices."""
    from ..examples import find_shipped_manifest, shipped_manifests

    path = Path(given)
    if path.is_file():
        return path
    shipped = find_shipped_manifest(given)
    if shipped is not None:
        return shipped
    if path.exists():  # a directory: load_manifest says so
        return path
    raise InputError(f"{given}: no such file, nor a shipped manifest of that name (they are: "
                     f"{', '.join(shipped_manifests())}; `iree-dsa-tune task --list` describes them)")


def list_manifests(args: argparse.Namespace) -> int:
    """`task --list`: every shipped manifest, its policy and stages, and its file."""
    from ..examples import shipped_manifests
    from ..task.manifest import load_manifest

    records = []
    for name, path in shipped_manifests().items():
        m = load_manifest(path)
        records.append({"name": name, "path": str(path), "model": m.model_id, "version": m.version,
                        "scheme": m.scheme, "stages": [s.name for s in m.stages],
                        "flow_steps": m.flow_steps, "budget_ms": m.latency_budget_ms})
    if args.json:
        emit_json(args, records)
    if args.json != JSON_TO_STDOUT:
        rows = [[r["name"], r["model"], r["scheme"], ", ".join(r["stages"]), r["flow_steps"], f"{r['budget_ms']:g}",
                 r["path"]] for r in records]
        print(format_table(["name", "model", "quant", "stages", "flow steps", "budget ms", "file"], rows,
                           right_align={4, 5}))
        print(f"\n{plural(len(records), 'shipped manifest')}: iree-dsa-tune task NAME --target dsa-e1")
    return 0


def _flow_steps(text: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        steps = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise InputError(f"--flow-steps: expected a comma list of positive integers, got {text!r}") from None
    if any(s < 1 for s in steps):
        raise InputError(f"--flow-steps: every count must be at least 1, got {text!r}")
    return steps


def coverage_text(coverage: dict) -> str:
    """How much of a chunk rests on timed root ops, and what the rest is."""
    share = coverage.get("modelled_share", 0.0)
    n, est = coverage.get("dispatches", 0), coverage.get("estimated_dispatches", 0)
    text = f"{100 * share:.1f}% of the chunk from timed root ops"
    if est:
        text += f", {100 * (1 - share):.1f}% estimated ({est} of {plural(n, 'dispatch')}: streaming estimate)"
    return text


def verdict(chunk_ms: float, rate_hz: float, limit_ms: float, coverage: dict) -> str:
    """The verdict against the published references, always with the chunk's coverage."""
    ok = chunk_ms <= TARGET_MS and rate_hz >= TARGET_HZ
    return (f"{'meets' if ok else 'misses'} {TARGET_MS:g} ms / {TARGET_HZ:g} Hz; "
            f"{'faster' if chunk_ms < GR00T_THOR_MS else 'slower'} than GR00T on Thor ({GR00T_THOR_MS:g} ms); "
            + (f"{chunk_ms / limit_ms:.2f}x its physical limit; " if limit_ms else "")
            + f"coverage: {coverage_text(coverage)}")


def run(args: argparse.Namespace) -> int:
    from ..db import TuningDatabase
    from ..search.options import TuneOptions
    from ..targets import get_target
    from ..task.manifest import load_manifest

    check_json_destination(args)
    if args.list:
        if args.manifest:
            raise InputError(f"--list takes no manifest, got {' '.join(args.manifest)}")
        return list_manifests(args)
    if not args.manifest:
        raise InputError("task: give a MANIFEST.toml, a file or a shipped manifest's name (`task --list` lists them)")
    if args.budget < 1:
        raise InputError("--budget must be at least 1")
    if args.jobs < 1:
        raise InputError("--jobs must be at least 1")
    if args.budget_ms is not None and not args.budget_ms > 0:
        raise InputError("--budget-ms must be a positive number of milliseconds")
    flow_steps = _flow_steps(args.flow_steps)
    if flow_steps and len(args.manifest) > 1:
        raise InputError("--flow-steps takes one manifest")
    if args.plot:
        from ..report.plots import PlotError, check_plotting

        try:
            check_plotting(args.plot)
        except PlotError as e:
            raise InputError(str(e)) from None
    manifests = [with_command_parameters(load_manifest(resolve_manifest(given)), args.parameters)
                 for given in args.manifest]
    target = get_target(args.target, search_paths=args.target_path)
    options = TuneOptions(budget=args.budget, seed=args.seed, jobs=args.jobs)
    library = None if args.no_library else Path(args.library)
    with contextlib.ExitStack() as stack:
        # A live bar on a terminal, one line per dispatch's search elsewhere; it ends before the summary.
        progress = None if args.quiet else stack.enter_context(ProgressDisplay(sys.stderr))
        # After every input check: a bad input leaves no database behind.
        db = None if args.no_db else stack.enter_context(TuningDatabase(args.db))
        outcome = _search(args, manifests, target, options, library, flow_steps, progress, db)
    return _print(args, target, outcome, flow_steps)


def _search(args, manifests, target, options, library, flow_steps, progress, db):
    """The shared part's `PartitionResult` for several manifests, else the one's `TaskResult`."""
    if len(manifests) > 1:
        from ..task.partition import partition_task

        return partition_task(manifests, target, options, budget_ms=args.budget_ms, library=library,
                              retune=args.retune, progress=progress, db=db)
    from ..task.run import run_task

    return run_task(manifests[0], target, options, budget_ms=args.budget_ms, library=library, retune=args.retune,
                    flow_steps=flow_steps, progress=progress, db=db, l2=args.l2,
                    proposers=_proposers(args))


def _proposers(args) -> list:
    """The L2 proposers: the built-in schedule moves, then any --proposer commands."""
    from ..search.proposers import CommandProposer, ScheduleMoves

    return [ScheduleMoves()] + [CommandProposer(c) for c in args.proposer]


def _print(args, target, outcome, flow_steps) -> int:
    out = human_output(args)
    if hasattr(outcome, "results"):  # several manifests sharing the part
        shared = outcome
        for result, cores in zip(shared.results, shared.cores):
            print(f"== {result.manifest.model_id} on {cores} of {target.describe().cores} cores "
                  f"(and that share of DRAM bandwidth)", file=out)
            print(summary(result) + "\n", file=out)
        rows = [[r.manifest.model_id, c, f"{r.after.chunk_ms:.2f}", f"{r.after.budget_ms:g}",
                 "met" if r.after.meets_budget else "NOT met"] for r, c in zip(shared.results, shared.cores)]
        print(format_table(["model", "cores", "chunk ms", "budget ms", "verdict"], rows, right_align={1, 2, 3}),
              file=out)
        print(f"partition {'/'.join(map(str, shared.cores))} chosen of {len(shared.considered)} considered; "
              f"combined verdict: {'every model meets its budget' if shared.meets_all else 'NOT every model meets its budget'}",
              file=out)
        if args.json:
            emit_json(args, shared.to_json())
        return 0
    result = outcome
    print(summary(result), file=out)
    for line in parameter_lines(result.manifest):
        print(line, file=out)
    if args.json:
        document = result.to_json()
        document["parameters"] = {s.name: s.parameters.to_record() for s in result.manifest.stages
                                  if s.parameters is not None}
        emit_json(args, document)
    if args.plot:
        from ..report.plots import TASK_PNG, plot_task

        print(f"plot: {plot_task(result.to_json(), Path(args.plot) / TASK_PNG)}", file=out)
    return 0


def decision_lines(decisions: list[dict]) -> list[str]:
    """One line per decision; decisions with the same verdict and reason (a reused spec set's, one
    per dispatch) fold into one line that counts them per stage."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for d in decisions:
        groups.setdefault((d["decision"], d["reason"]), []).append(d)
    lines = []
    for (decision, reason), group in groups.items():
        if len(group) == 1:
            d = group[0]
            lines.append(f"{decision:<12} {d['stage']}/{d['dispatch']}: {reason}")
            continue
        stages: dict[str, int] = {}
        for d in group:
            stages[d["stage"]] = stages.get(d["stage"], 0) + 1
        lines.append(f"{decision:<12} {plural(len(group), 'dispatch')} ("
                     + ", ".join(f"{stage} {n}" for stage, n in stages.items()) + f"): {reason}")
    return lines


def summary(result) -> str:
    m, before, after = result.manifest, result.before, result.after
    lines = [f"{m.model_id} {m.version} on {result.target} ({m.scheme}"
             + (f", INT4 block {m.quant_block}" if m.quant_block else "")
             + f", {m.flow_steps} flow steps, chunk {m.chunk_size}, {m.n_action_steps} actions executed)", ""]
    rows = [[s["name"], s["repeat"], s["per"], s["count"], f"{b['ms']:.2f}", f"{s['ms']:.2f}"]
            for s, b in zip(after.stages, before.stages)]
    lines.append(format_table(["stage", "repeat", "per", "count", "default ms", "tuned ms"], rows,
                              right_align={1, 3, 4, 5}))
    lines.append("")
    top = [[a["stage"], a["dispatch"], a["calls"], f"{a['ms']:.2f}", f"{100 * a['share']:.1f}%", a["how"]]
           for a in after.amdahl[:8]]
    lines.append(format_table(["stage", "dispatch (Amdahl order)", "calls", "ms/chunk", "share", "time from"], top,
                              right_align={2, 3, 4}))
    if len(after.amdahl) > 8:
        lines.append(f"(and {plural(len(after.amdahl) - 8, 'more dispatch', 'more dispatches')}: --json lists every one)")
    lines.append("")
    lines += decision_lines(result.decisions)
    for s in result.skipped:
        lines.append(f"skipped {s['stage']}/{s['dispatch']}: {s['reason']}")
    lines.append("")
    lines.append(f"chunk: {before.chunk_ms:.2f} ms with IREE's defaults -> {after.chunk_ms:.2f} ms tuned "
                 f"(budget {after.budget_ms:g} ms: {'met' if after.meets_budget else 'NOT met'}); "
                 f"{after.rate_hz:.1f} Hz, {after.rate_hz_rtc:.1f} actions/s with RTC "
                 f"({after.control_hz_blocking:.1f} without)")
    real = any(q.get("quantized") or "f32, as exported" in q.get("reason", "") for q in result.quantization.values())
    moved = "bytes (weights; every byte a call moves in the quantised stages)" if real else "weights"
    lines.append(f"physical limit: {after.limit_ms:.2f} ms ({moved} {after.weight_limit_ms:.2f} ms at DRAM "
                 f"bandwidth, compute {after.compute_limit_ms:.2f} ms at peak, every call of every dispatch); "
                 + ("times are medians of repeated runs on this machine: no p99 is measured" if result.on_hardware
                    else "p99 = chunk (deterministic model)"))
    judged = [d for d in result.decisions if d["decision"] in ("accept", "escalate", "tune-further")]
    if judged:
        stand_ins = sum(1 for d in judged if d.get("elite") == "roofline bound")
        lines.append("(elite = the hand-written elite template, measured (docs/ELITE.md)"
                     + (f"; the cost model's roofline bound for {plural(stand_ins, 'op')} no template rule covers)"
                        if stand_ins else ")"))
    for stage, q in result.quantization.items():
        if not q["quantized"]:
            lines.append(f"quantisation {stage}: {q['reason']}")
            continue
        acc = q["accuracy"]
        forms = ", ".join(f"{n} {form}" for form, n in q["forms"].items())
        lines.append(f"quantisation {stage}: {forms}; weights {q['weight_bytes']['float'] / 1e6:.1f} -> "
                     f"{q['weight_bytes']['quantized'] / 1e6:.1f} MB; against f32: rel L2 {acc['rel_l2']:.4g}, "
                     f"max abs {acc['max_abs']:.4g}, cosine {acc['cosine']:.6g}"
                     + (f"; fell back: {', '.join(q['fell_back'])}" if q["fell_back"] else ""))
    if result.l2 is not None:
        l2 = result.l2
        tried = sum(len(r["proposals"]) for r in l2["rounds"])
        kept = sum(1 for r in l2["rounds"] for p in r["proposals"] if p["status"] == "kept")
        lines.append(f"L2 ({'; '.join(l2['triggers']) or 'asked for'}): {plural(len(l2['rounds']), 'dispatch')}, "
                     f"{plural(tried, 'proposal')} ({kept} kept, {tried - kept} reverted), "
                     f"{plural(l2['measurements'], 'measurement')} in {l2['seconds']:.1f} s; chunk "
                     f"{l2['chunk_before_ms']:.2f} -> {l2['chunk_after_ms']:.2f} ms")
        for b in l2.get("builds", []):
            kept = [p for p in b["proposals"] if p["status"] == "kept"]
            lines.append(f"  L2 build of {b['stage']}: " + (
                f"{' '.join(kept[-1]['config']['flags'])} kept ({kept[-1]['reason']})" if kept else
                "; ".join(f"{' '.join(p['config']['flags'])}: {p['reason']}" for p in b["proposals"])))
    lines.append("verdict: " + verdict(after.chunk_ms, after.rate_hz, after.limit_ms, after.coverage))
    if result.variants:
        rows = [[v["flow_steps"], f"{v['chunk_ms']:.2f}", f"{v['rate_hz']:.1f}", f"{v['rate_hz_rtc']:.1f}",
                 verdict(v["chunk_ms"], v["rate_hz"], v["limit_ms"], v["coverage"])] for v in result.variants]
        lines += ["", format_table(["flow steps", "chunk ms", "Hz", "actions/s RTC", "verdict"], rows,
                                   right_align={0, 1, 2, 3})]
    if result.spec_set is not None:
        how = "reused" if result.reused else "written"
        lines.append(f"\nspec set {how}: {result.spec_set.directory}")
        for path in result.spec_set.spec_paths():
            stage = path.name[: -len(".spec.mlir")]
            flags = " ".join(result.spec_set.flags.get(stage, ()))
            lines.append(f"  {path.name}: iree-compile --iree-codegen-tuning-spec-path={path} "
                         + (f"{flags} ..." if flags else "..."))
    return "\n".join(lines)
