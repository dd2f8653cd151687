"""`iree-dsa-tune tune`: search, measure, and write a verified tuning spec."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..errors import InputError
from ..flags import check_iree_flags
from ..report import format_table, plural, write_output
from ..search.progress import ProgressDisplay
from ..report.table import check_writable
from ..runners.executor import usable_cores
from ..runners.ray_executor import parse_executor
from ..search import STRATEGIES
from ..search.options import TuneOptions
from ..search.proposer import PROPOSER_TIMEOUT_S, TRIGGERS, ExternalProposer
from .common import (add_db_argument, add_dispatch_argument, default_db, add_json_argument, add_parameters_argument, add_target_argument,
                     check_json_destination, emit_json, human_output, model_parameters, recipe_device, select_dispatches,
                     target_search_paths)

DEFAULT_DB = default_db()


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "tune",
        help="tune every dispatch and write a verified spec",
        description="For every tunable dispatch of MODEL: build the target's candidate space, prune it "
        "with the analytic funnel (roofline, then the target's memory stage: scratchpad/DMA on a DSA, caches on a CPU; latency), let a strategy pick what to "
        "measure, measure on the target's runner (host: iree-benchmark-module, one thread; DSA: the "
        "in-tree event simulator), and keep the best only when it beats IREE's default. The winners "
        "form one spec, verified (applied + numerics) before it is written. Measurements go to an "
        "SQLite database: a re-run or --resume after a kill re-measures nothing already recorded. "
        "On the host it also tunes the whole model: flag presets (data tiling, ukernels, ...) timed on "
        "every entry function in interleaved rounds, each built with the cost model's softmax configs "
        "(no flag changes a softmax) and, on the global data-tiling path, its distribution for every "
        "mmt4d or inner_tiled dispatch (alone a weight stays cached, in the model it is read cold); "
        "then a searched spec kept only when the whole model confirms it, "
        "and SPEC.recipe.toml written beside the spec (build with `iree-dsa-tune compile --recipe`).",
    )
    p.add_argument("model", metavar="MODEL.mlir")
    add_target_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="SPEC.mlir", help="where the verified spec goes")
    p.add_argument("--strategy", default="pruned", choices=sorted(STRATEGIES),
                   help="pruned (L0 ranks, L1 measures top-k, then refines; default), random, exhaustive, evolutionary")
    p.add_argument("--budget", type=int, default=16, metavar="N", help="measurements per dispatch (default 16)")
    p.add_argument("--time-budget", type=float, default=None, metavar="S",
                   help="seconds the whole tune may take: on the host the flag presets come first (rounds after "
                        "the first end by half of it) and the dispatch search gets what they leave, less the "
                        "spec's verification and confirmation; dispatches are searched largest default time x "
                        "calls first, each with its share of the time left, a candidate only when it should "
                        "end in time; those not reached are skipped and say so")
    p.add_argument("--jobs", type=int, default=usable_cores(), metavar="J",
                   help="parallel compiles: flag presets and candidates (timings stay serial, never beside a "
                        f"compile; default: every usable core, here {usable_cores()})")
    p.add_argument("--executor", default="local", metavar="local|ray[:ADDRESS]",
                   help="where candidates compile and time: local (default), or a Ray cluster (ray: $RAY_ADDRESS "
                        "or a new local instance; ray:ADDRESS joins that one). On Ray, compiles run on any node and "
                        "timings on one pinned benchmark worker per machine, each with this machine's hardware "
                        "(others are refused); host target, with --no-recipe (needs pip install "
                        "'iree-dsa-tuner[ray]')")
    add_db_argument(p)
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run (recorded measurements are always reused; this is explicit)")
    p.add_argument("--no-db", action="store_true", help="measure everything afresh and record nothing")
    add_dispatch_argument(p, "tune")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repetitions", type=int, default=5, help="host: benchmark repetitions per candidate (median)")
    add_json_argument(p, "the full report")
    p.add_argument("--proposer", metavar="CMD",
                   help="L2 proposer: a command given the problem, target and history as one JSON object on "
                        "stdin, printing a JSON list of configs; each passes legality, is measured, and is "
                        "checked (applied + numerics) before it may win (tools/proposers/register_blocking.py)")
    p.add_argument("--proposer-budget", type=int, default=None, metavar="N",
                   help="measurements per dispatch held back for proposals (default: budget/4, at least 1)")
    p.add_argument("--proposer-when", default="always", choices=TRIGGERS,
                   help="always (default); below-target: only when L1's best is under 95%% of the "
                        "cost model's roofline bound; elite-gap: only when the search's best is under 95%% of "
                        "the hand-written elite template's performance (docs/ELITE.md)")
    p.add_argument("--proposer-min-share", type=float, default=0.0, metavar="F",
                   help="ask the proposer only for dispatches with at least this share of the model's default "
                        "time (0..1; default 0: all); dispatches are asked in descending share")
    p.add_argument("--proposer-timeout", type=float, default=PROPOSER_TIMEOUT_S, metavar="S",
                   help=f"seconds a proposer may take per dispatch (default {PROPOSER_TIMEOUT_S:g})")
    p.add_argument("--plot", metavar="DIR",
                   help="write roofline.png (default and tuned point per dispatch) and funnel.png to DIR "
                        "(needs matplotlib: pip install 'iree-dsa-tuner[plot]')")
    p.add_argument("--no-recipe", action="store_true",
                   help="host: tune dispatches only (no whole-model flag search, no recipe file)")
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                   help="one more iree-compile flag the model is compiled with (repeatable), e.g. "
                        "--iree-flag=--iree-dispatch-creation-enable-aggressive-fusion to tune an INT4 "
                        "dequantisation fused into its matvec (docs/INT4.md). The spec matches the dispatches "
                        "these flags make: build with the same flags. The host recipe searches flags itself, "
                        "so with the host target this needs --no-recipe")
    p.add_argument("--no-conv-route", "--no-routes", dest="no_conv_route", action="store_true",
                   help="take no compile route: on a DSA target, a split INT4 dequantisation is by default fused "
                        "into its contraction (--iree-dispatch-creation-enable-aggressive-fusion, docs/INT4.md); "
                        "and batch-1 convolutions are not routed (by default a model with one is compiled with the flags "
                        "that make it tunable, --iree-global-opt-use-im2col-for-convs for 2-D and a kernel-tap "
                        "preprocessing script for 1-D, and the spec is only valid with them: docs/CONV.md); and on the "
                        "host the long-K, unbatch, batch-fold, register-tiled and Winograd routes do not compete as presets (a GEMM whose reduction crowds the "
                        "L2 cut into K chunks, docs/DATA_TILING.md 9; batched GEMMs rewritten as 2-D ones so inner-tiled "
                        "data tiling builds, docs/DATA_TILING.md 11, and only the GEMMs it can build marked for it, "
                        "docs/DATA_TILING.md 13; batched NCHW convolutions with small output images as one GEMM over "
                        "all images' pixels, docs/CONV.md; f32 linear layers packed into the CPU's register tile and built "
                        "without the ukernel, docs/DATA_TILING.md 18; each a preprocessing script; and 3x3 stride-1 convolutions as "
                        "Winograd F(6x6,3x3) with their filters transformed at load, docs/CONV.md, two flags)")
    p.add_argument("--rounds", type=int, default=3, metavar="N",
                   help="host: interleaved rounds of whole-model timing per decision (default 3)")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="host: the threads the model will run on. The whole-model timings that pick the presets "
                        "and keep the spec run on IREE's task device with N workers (default 1: local-sync, "
                        "the calling thread); the dispatch search still times each candidate on one thread. "
                        "A recipe tuned on one thread may be slower on more (the recipe records N)")
    p.add_argument("--function", action="append", default=[], metavar="NAME[=WEIGHT]",
                   help="host: an entry function to time (repeatable; default: every public one); a recipe or "
                        "spec is kept only if no timed function gets slower and their total, each function "
                        "counted WEIGHT times (default 1), gets faster")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr (a live bar on a terminal; elsewhere one line per dispatch's search)")
    add_parameters_argument(p, "the model (the whole-model timing and the spec's numerics)")
    p.set_defaults(func=run)


def _fmt(v, spec=".1f"):
    return "-" if v is None else format(v, spec)


def _percent(fraction) -> str:
    return "-" if not fraction else f"{100 * fraction:.0f}%"


def summary_table(report) -> str:
    """One row per dispatch. Its best is the search's best measured time (`DispatchResult.best_us`,
    the elite's included), the number the search's progress lines end on; speedup and % bound are
    of what runs (the best when chosen is tuned, else IREE's default)."""
    rows = []
    for d in report.dispatches:
        j = d.to_json()
        fid = d.fidelity or {}
        rows.append([
            d.dispatch, _fmt(d.default_us), _fmt(d.best_us), _fmt(j["speedup"], ".2f") + ("x" if j["speedup"] else ""),
            _percent(j["roofline_fraction"]), _fmt(d.elite_us), _percent(d.tuned_vs_elite),
            f"{d.measured}+{d.cached}c/{d.survivors}/{d.space_size}",
            "-" if fid.get("spearman") is None else f"{fid['spearman']:.2f}{'*' if fid.get('best_in_top5') else ''}",
            d.chosen, d.note,
        ])
    table = format_table(["dispatch", "default us", "best us", "speedup", "% bound", "elite us", "elite/tuned",
                          "measured/survivors/space", "rho", "chosen", "note"], rows,
                         right_align={1, 2, 3, 4, 5, 6, 7, 8})
    total = report.to_json()
    lines = [table, ""]
    if total["speedup"]:
        lines.append(f"model: default {total['total_default_us']:.1f} us -> tuned {total['total_best_us']:.1f} us "
                     f"({total['speedup']:.2f}x) on {report.target}, strategy {report.strategy}, "
                     f"{report.seconds:.1f} s")
        cov = total["coverage"]
        tuned = plural(len(report.dispatches), "tuned dispatch", "tuned dispatches")
        lines.append(f"  every call counted ({plural(sum(d.calls for d in report.dispatches), 'call')} of "
                     f"{tuned}); {100 * cov['measured_share']:.1f}% measured"
                     + (f", {plural(len(cov['estimated']), 'dispatch')} without a tunable root op estimated"
                        if cov["estimated"] else "")
                     + (f"; NOT counted: {plural(len(cov['not_counted']), 'dispatch')} this target cannot time "
                        "alone" if cov["not_counted"] else ""))
    for s in report.skipped:
        how = f" [counted: {s['estimated_how']}, {s['estimated_us']:.1f} us x {s['calls']}]" \
            if s.get("estimated_us") is not None else ""
        lines.append(f"skipped {s['dispatch']}: {s['reason']}{how}")
    for d in report.dispatches:
        if d.proposer is not None and d.twin_of is None:
            lines.append(proposer_line(d))
    lines.append("(best us = the best measured, the elite's included; speedup, % bound = of what runs (chosen); "
                 "measured+cached / funnel survivors / space; rho = Spearman of estimate vs measured, "
                 "* = measured best in the model's top 5; elite/tuned = elite us / the search's own best us, "
                 "over 100% when the search beat the hand-written elite template (docs/ELITE.md))")
    return "\n".join(lines)


def proposer_line(d) -> str:
    """One line per dispatch on what L2 did: asked or why not, what came of the proposals."""
    run = d.proposer
    head = f"L2 {d.dispatch} (share {100 * (run.amdahl_share or 0):.0f}%): "
    if not run.invoked:
        return head + f"not asked: {run.decision}"
    if run.error:
        return head + f"proposer failed: {run.error}"
    counts = {}
    for p in run.proposals:
        counts[p.status] = counts.get(p.status, 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "nothing proposed"
    won = " -> a proposal won" if d.chosen == "tuned" and d.best_source == "proposer" else ""
    return head + f"{len(run.proposals)} proposals: {summary}{won}"


def run(args: argparse.Namespace) -> int:
    from ..model_tuning import tune_model
    from ..targets import get_target

    check_writable(args.output)
    check_json_destination(args)
    if args.budget < 1:
        raise InputError("--budget must be at least 1")
    if args.repetitions < 1:
        raise InputError("--repetitions must be at least 1")
    if args.threads < 1:
        raise InputError("--threads must be at least 1")
    if args.rounds < 1:
        raise InputError("--rounds must be at least 1")
    if args.time_budget is not None and not args.time_budget > 0:
        raise InputError("--time-budget must be a positive number of seconds")
    if args.plot:
        # Before any work: a missing plotting library must not cost a whole tuning run.
        from ..report.plots import PlotError, check_plotting

        try:
            check_plotting(args.plot)
        except PlotError as e:
            raise InputError(str(e)) from None
    proposer = None
    if args.proposer:
        if args.proposer_budget is not None and args.proposer_budget < 0:
            raise InputError("--proposer-budget must be at least 0")
        if not 0.0 <= args.proposer_min_share <= 1.0:
            raise InputError("--proposer-min-share must be between 0 and 1")
        try:
            proposer = ExternalProposer.from_command(args.proposer, timeout_s=args.proposer_timeout)
        except ValueError as e:
            raise InputError(f"--proposer: {e}") from None
    check_iree_flags(args.iree_flag)
    ray_address = parse_executor(args.executor)
    target = get_target(args.target, search_paths=target_search_paths(args))
    if args.threads != 1 and (not target.tunes_whole_model or args.no_recipe):
        raise InputError(f"--threads {args.threads}: only the host's whole-model timings run on several threads "
                         f"({'--no-recipe times dispatches alone' if args.no_recipe else target.name + ' has none'})")
    # Before any work: a bad archive is one line and nothing is written.
    parameters = model_parameters(args, args.model, seed=args.seed)
    if args.dispatch:  # a pattern that selects nothing is a typo: say so before any work
        from ..ir.artifacts import compile_model

        model = compile_model(Path(args.model), target.compile_flags + tuple(args.iree_flag))
        select_dispatches([p.dispatch for p in model.problems()], args.dispatch, args.model)
    if ray_address is not None:
        if not target.measures_on_hardware:
            raise InputError(f"--executor ray: {target.name} is measured in this process (its runner times "
                             "nothing on a machine); use it with the host target")
        if target.tunes_whole_model and not args.no_recipe:
            raise InputError("--executor ray: the whole-model recipe search times on this machine; "
                             "add --no-recipe to tune the dispatches on the cluster")
    if args.iree_flag and target.tunes_whole_model and not args.no_recipe:
        raise InputError("--iree-flag: the host recipe searches the compile flags itself; "
                         "add --no-recipe to tune the dispatches these flags make")
    options = TuneOptions(strategy=args.strategy, budget=args.budget, time_budget_s=args.time_budget,
                          seed=args.seed, jobs=args.jobs, repetitions=args.repetitions, threads=args.threads,
                          dispatches=tuple(args.dispatch), proposer=proposer,
                          proposer_budget=args.proposer_budget, proposer_when=args.proposer_when,
                          proposer_min_share=args.proposer_min_share)
    progress = ProgressDisplay(sys.stderr) if not args.quiet else None
    db = None if args.no_db else args.db
    with contextlib.ExitStack() as stack:
        if progress is not None:
            stack.enter_context(progress)  # the bar ends before the summary is printed
        if ray_address is not None:
            from ..runners.ray_executor import RayExecutor, hardware_fingerprint

            # The host target describes this machine's CPU: every timing machine must be the same.
            # A refused worker is said even with --quiet: the run has fewer machines than asked.
            refusal = progress or (lambda text: print(text, file=sys.stderr, flush=True))
            options.executor = stack.enter_context(
                RayExecutor(ray_address or None, reference_fingerprint=hardware_fingerprint(), say=refusal))
            workers = options.executor.start()
            if progress is not None:
                progress(f"ray: {plural(len(workers), 'benchmark worker')} ({', '.join(w.address for w in workers)}), "
                         f"{options.executor.jobs} compile slots")
        from ..host.recipe import parse_function_weights

        functions, weights = parse_function_weights(args.function)
        tuning = tune_model(Path(args.model), target, options, db=db, iree_flags=tuple(args.iree_flag),
                            routes=not args.no_conv_route, whole_model=not args.no_recipe, functions=functions,
                            weights=weights, rounds=args.rounds, progress=progress, parameters=parameters)
    report, routes, recipe_result, extra_flags = (tuning.report, tuning.routes, tuning.recipe_result,
                                                  tuning.extra_flags)
    # With --json on stdout, everything else this command prints goes to stderr.
    stdout = sys.stdout
    with contextlib.redirect_stdout(human_output(args)):
        return _report(args, target, report, routes, recipe_result, extra_flags, stdout, parameters)


def _report(args, target, report, routes, recipe_result, extra_flags, stdout, parameters=None) -> int:
    from ..flags import flags_header
    from ..ir.conv_route import user_flags

    output = Path(args.output)
    shown_flags = user_flags(extra_flags, output) if report.spec_text else extra_flags
    print(summary_table(report))
    if parameters is not None:
        print(parameters.describe())
    for route in routes:
        if route and route.dispatches:
            print(f"{route.what} compiled the model with {plural(len(route.flags), 'more flag')} "
                  f"for {', '.join(route.dispatches)}")
        elif route:  # a whole-model route: its flags are presets, which the recipe table below judges
            print(f"{route.what}: its {plural(len(route.flags), 'flag')} competed as whole-model presets")
        for note in route.notes:
            print(f"{route.what}: {note}")
    if recipe_result is not None:
        print("\n" + recipe_table(recipe_result, args.time_budget))
    if args.json:
        document = report.to_json()
        document["compile_flags"] = list(shown_flags)
        for route in routes:
            document[route.key] = route.to_json()
        if recipe_result is not None:
            document["recipe"] = recipe_result.to_json()
        document["parameters"] = parameters.to_record() if parameters is not None else None
        emit_json(args, document, stdout)
    if args.plot:
        from ..report.plots import write_plots

        for path in write_plots(report.to_json(), args.plot):
            print(f"plot: {path}")
    if report.spec_text:
        write_output(output, flags_header(shown_flags, output.parent) + report.spec_text)
        print(f"\nspec: {output} (verified: {report.verification()})")
        if shown_flags and recipe_result is None:
            import shlex

            print("the spec is valid only with these iree-compile flags (also in its header; verify reads them): "
                  + shlex.join(shown_flags))
            print("build with: " + shlex.join(["iree-compile", *target.compile_flags, *shown_flags,
                                               f"--iree-codegen-tuning-spec-path={output}", args.model,
                                               "-o", "model.vmfb"]))
    else:
        # The output always reflects this run: a spec from an earlier run must not be picked up.
        removed = output.is_file()
        output.unlink(missing_ok=True)
        gone = f"; removed the old {output}" if removed else ""
        spent = recipe_result is not None and any("time budget" in n for n in recipe_result.notes)
        if not report.dispatches and spent:
            print(f"\nno dispatch searched: the time budget went to the flag presets; no spec written{gone}")
        elif not report.dispatches:
            print(f"\nnothing to tune: no dispatch of this model has a root op the tuner can search; no spec written{gone}")
        else:
            where = " (on the whole model)" if recipe_result is not None else ""
            print(f"\nno dispatch beat IREE's default{where}; no spec written{gone}")
    if recipe_result is not None:
        from ..recipe import recipe_path

        recipe = recipe_result.recipe
        recipe.spec = output.name if report.spec_text else ""
        recipe.flags = user_flags(tuple(recipe.flags), output)
        path = recipe_path(output)
        recipe.path = path  # a script beside it is stored by name: the recipe moves with its files
        write_output(path, recipe.to_toml())
        print(f"recipe: {path} (flags: {' '.join(recipe.flags) or 'none'}; spec: {recipe.spec or 'none'})")
        print(f"build with: iree-dsa-tune compile {args.model} --recipe {path} -o model.vmfb")
        device = recipe_device(recipe)  # timed on IREE's task device with N workers (--threads N): run it so
        if parameters is not None or device:
            print("run with: iree-run-module --module=model.vmfb " + device + ("" if parameters is None else (
                " ".join(f"--parameters={scope + '=' if scope else ''}WEIGHTS.irpa" for scope in parameters.scopes)
                if parameters.random else " ".join(parameters.runtime_flags())) + " ") + "...")
    return 0


def recipe_table(result, budget_s: float | None = None) -> str:
    """Every variant's median per entry function and their total; then, per function, IREE's
    default against the recipe's build, so a function the recipe slowed cannot hide in a total."""
    default = result.variants[0]
    rows = []
    for v in result.variants:
        timed = v.functions
        vs = default.total_us(timed) / v.total_us(timed) if timed and default.total_us(timed) and v.total_us(timed) \
            else None
        rows.append([v.name, *(_fmt(v.function_median_us(f)) for f in result.functions), _fmt(v.median_us),
                     "-" if vs is None else f"{vs:.2f}x", "-" if v.median_us is None else f"{100 * v.noise:.0f}%",
                     "<- recipe" if _is_recipe(result, v) else "", result.verdicts.get(v.name, v.error)])
    names = ["@" + f for f in result.functions]
    threads = result.recipe.threads
    device = "1 thread" if threads == 1 else f"{threads} threads, IREE's task device"
    lines = [f"whole model {', '.join(names)} ({device}, median of interleaved rounds; total = "
             + ("weighted " if result.recipe.weights else "") + "sum of the functions; '-' = not timed there):",
             format_table(["variant", *(n + " us" for n in names), "total us", "vs default", "noise", "", "verdict"],
                          rows, right_align=set(range(1, len(names) + 4)))]
    chosen = [v for v in result.variants if _is_recipe(result, v)]
    for f in result.functions:
        before = default.function_median_us(f)
        # The spec's build was timed only where its dispatches run; elsewhere the flags' build is the recipe's.
        after = next((v.function_median_us(f) for v in chosen if v.function_median_us(f) is not None), None)
        if after is None:
            after = next((v.function_median_us(f) for v in result.variants
                          if tuple(v.flags) == result.recipe.flags and not v.spec and v.function_median_us(f)), None)
        ratio = f" ({before / after:.2f}x)" if before and after else ""
        lines.append(f"whole model @{f}: IREE default {_fmt(before)} us -> recipe {_fmt(after)} us{ratio}")
    lines += [f"note: {n}" for n in result.notes]
    lines.append(result.phases_text(budget_s))
    return "\n".join(lines)


def _is_recipe(result, v) -> bool:
    """The variant that is the recipe: its spec's build when a spec was kept, else its flags' build."""
    if result.recipe_variant:  # with two specs confirmed on the same flags, only the kept one
        return v.name == result.recipe_variant
    if result.spec_text:
        return v.spec is not None and tuple(v.flags) == result.recipe.flags
    return v.spec is None and tuple(v.flags) == result.recipe.flags
