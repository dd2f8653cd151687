"""Host model-level tuning: a recipe (whole-model flags + per-dispatch spec), each decision timed
on the whole model, which is every entry function of the module.

1. Every flag preset (`host.flag_presets.FLAG_PRESETS`) is compiled and each entry function timed in
   interleaved rounds beside IREE's default; a preset is chosen only when no function gets
   slower beyond its noise and the weighted total gets faster beyond the noise
   (`host.whole_model.beats`). One function is not the model: on a four-function module,
   data tiling with ukernels sped the timed projection up and made an attention-score batch
   matmul in another function 0.55x as fast. Every preset but the default is built with the
   estimate's softmax configs (`shared_spec`): no flag changes a softmax, and its untuned time
   would hide the presets' differences.
2. The dispatches the chosen flags leave tunable are found by compiling the model with those
   flags (`ir.compile_model`): under data tiling IREE 3.13 encodes the contractions before a
   spec is applied and configures them as `Mmt4dTilingExpert`, so discovery finds no
   contraction a DoubleTilingExpert spec could set there (docs/PERFORMANCE.md).
3. Those dispatches are tuned (`pipeline.tune`); the spec is kept only when it beats the build
   without it on the functions that call its dispatches (read from the host program), timed
   again in interleaved rounds. When it makes some of those functions slower, the spec without
   their dispatches is confirmed the same way (the others keep their win). A function that calls none of them runs the same code either
   way; timing only it would hide the spec's win (a verified 10.9x conv spec was dropped
   because the one function timed did not contain the conv).

A model that reads its weights from parameter archives (an externalised iree-turbine export)
is timed and verified with the archives given, or with random ones from the seed
(`parameters.resolve_parameters`); the recipe records which.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from textwrap import shorten
from typing import Callable

from ...core.selection import select_dispatches
from ...core.words import plural
from ...errors import CompileError, InputError
from ...flags import global_data_tiling_twin, target_cpu_of
from ...ir.artifacts import compile_model
from ...ir.host_program import read_host_program
from ...pipeline import tune
from ...recipe import Recipe, model_sha256
from ..flag_presets import FLAG_PRESETS
from ..whole_model import Variant, WholeModelTimer, beats, slower_functions
from ...search.options import TuneOptions
from ...search.results import TuneResult
from .presets import (choose_preset, compile_variants, drop_far_behind, estimate_contenders, estimated_distributions,
                      presets_that_apply, settle_candidate, shared_spec, verdict, verified_preset_spec)
from .search_spec import estimated_spec, has_mmt4d, shared_configs, with_shared


@dataclass
class RecipeResult:
    recipe: Recipe
    spec_text: str  # "" when no spec was kept
    variants: list[Variant]  # every preset timed (the default first), then the build with the spec
    tune_result: TuneResult | None
    functions: list[str]  # the entry functions timed, in order
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    verdicts: dict[str, str] = field(default_factory=dict)  # variant name -> why it was kept or not
    spec_functions: list[str] = field(default_factory=list)  # where the spec was confirmed (its dispatches run)
    spec_baseline: Variant | None = None  # the chosen flags' build, timed again beside the spec's there
    parameters: object | None = None  # `parameters.Parameters` the model was timed with; None: it reads none
    phases: dict[str, float] = field(default_factory=dict)  # where `seconds` went, in order (`PHASES`)
    # The variant that is the recipe (the kept spec's build; with two specs confirmed, only one is).
    recipe_variant: str = ""
    spec_candidates: list[str] = field(default_factory=list)  # the variants that confirmed a searched spec
    # The numerics of the recipe's own estimated spec as its verification found them (JSON form);
    # empty when the spec is the search's (its report carries them) or there is none.
    spec_numerics: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"functions": self.functions, "weights": {f: self.recipe.weights.get(f, 1.0) for f in self.functions},
                "flags": list(self.recipe.flags), "spec_kept": bool(self.spec_text),
                "recipe_variant": self.recipe_variant, "spec_candidates": self.spec_candidates,
                "spec_functions": self.spec_functions,
                "spec_baseline": self.spec_baseline.to_json() if self.spec_baseline else None,
                "variants": [dict(v.to_json(), verdict=self.verdicts.get(v.name, "")) for v in self.variants],
                "notes": self.notes, "dispatches": self.tune_result.to_json() if self.tune_result else None,
                "parameters": self.parameters.to_record() if self.parameters is not None else None,
                "seconds": round(self.seconds, 2),
                "phases": {name: round(s, 2) for name, s in self.phases.items()}}

    def phases_text(self, budget_s: float | None = None) -> str:
        """One line: where the tune's time went, against the budget when there was one."""
        parts = ", ".join(f"{name} {self.phases[name]:.0f} s" for name in PHASES if name in self.phases)
        of = f" of the {budget_s:g} s budget" if budget_s else ""
        return f"time: {self.seconds:.0f} s{of} ({parts})"


# The phases of a whole-model tune, in order. "start": compiling the model and finding its
# routes before the presets; "search": the dispatch search without its verification.
PHASES = ("start", "presets", "search", "verification", "confirmation")


# ---- which entry function runs which dispatch ----------------------------------------------

def _dispatch_calls(configured_text: str) -> dict[str, dict[str, int]]:
    """Per public function of the host program (IREE's configured IR), the dispatch symbols one
    call of it runs, through its private calls, and how many times (`ir.host_program`)."""
    program = read_host_program(configured_text)
    return {function: dict(program.calls(function)) for function in program.functions}


def functions_holding(dispatches: set[str], calls: dict[str, dict[str, int]], timed: list[str]) -> list[str]:
    """The timed functions that run at least one of `dispatches`, in timing order."""
    return [f for f in timed if dispatches & set(calls.get(f, {}))]


# ---- which functions are timed, and with what weight ---------------------------------------

def parse_function_weights(names: list[str]) -> tuple[list[str], dict[str, float]]:
    """`--function NAME[=WEIGHT]` values -> (names in order, {name: weight} for those given one).

    A weight counts a function that many times in the model's total (a denoising step run
    10 times per chunk: weight 10).
    """
    functions: list[str] = []
    weights: dict[str, float] = {}
    for text in names:
        name, _, weight = text.lstrip("@").partition("=")
        if not name:
            raise InputError(f"--function {text!r}: expected NAME or NAME=WEIGHT")
        if weight:
            try:
                weights[name] = float(weight)
            except ValueError:
                raise InputError(f"--function {text!r}: the weight is not a number") from None
            if not (weights[name] > 0 and math.isfinite(weights[name])):
                raise InputError(f"--function {text!r}: the weight must be a positive number")
        if name not in functions:
            functions.append(name)
    return functions, weights


def _entries(artifacts, functions: list[str] | None, calls: dict[str, dict[str, int]]) -> tuple[dict, list[str]]:
    """{function: signature} to time, and notes on the public functions that cannot be timed.

    Default: every public function with static tensor arguments. A function left out matters
    only when it runs dispatches no timed function runs (torch's `$async` twin runs what its
    sync twin runs: leaving it out loses nothing).
    """
    from ...tuning_spec.verify import _function_signatures

    signatures, _, _ = _function_signatures(artifacts)
    if functions:
        missing = [f for f in functions if f not in signatures]
        if missing:
            raise InputError(f"{artifacts.model}: no public function {', '.join('@' + f for f in missing)} with "
                             f"static tensor arguments (have: {', '.join(signatures) or 'none'})")
        return {f: signatures[f] for f in functions}, []
    if not signatures:
        raise InputError(f"{artifacts.model}: no public function with static tensor arguments to time")
    covered = {symbol for f in signatures for symbol in calls.get(f, {})}
    notes = []
    for f, runs in calls.items():
        uncovered = sorted(set(runs) - covered)
        if f not in signatures and uncovered:
            notes.append(f"@{f} is not timed (dynamic or non-tensor arguments): {plural(len(uncovered), 'dispatch')} "
                         f"only it runs ({', '.join(uncovered[:3])}{', ...' if len(uncovered) > 3 else ''}) "
                         "are not in the whole-model time")
    return dict(signatures), notes


def _functions_text(functions: list[str]) -> str:
    return ", ".join("@" + f for f in functions)


def tune_recipe(model: str | Path, target, options: TuneOptions, *, presets: dict[str, tuple[str, ...]] | None = None,
                rounds: int = 3, db=None, functions: list[str] | None = None, weights: dict[str, float] | None = None,
                progress: Callable[[str], None] | None = None, parameters=None,
                started: float | None = None) -> RecipeResult:
    """`functions`: the entry functions to time (default: every public one); `weights`: how many
    times each counts in the model's total (default 1); `parameters`: the archives its weights
    are read from (default: random ones from `options.seed` when it reads any); `started`: the
    `time.perf_counter()` the caller's tune began at (the time budget counts from it)."""
    from ...parameters import resolve_parameters

    t0 = time.perf_counter() if started is None else started
    total_budget_s = options.time_budget_s  # the whole tune's; `options` gets the search's share below
    phases: dict[str, float] = {}
    say = progress or (lambda text: None)
    model = Path(model)
    if parameters is None:
        parameters = resolve_parameters(model, seed=options.seed)
    if parameters is not None:
        say(parameters.describe())
    presets = dict(presets or FLAG_PRESETS)
    base = compile_model(model, target.compile_flags)
    entries, notes = _entries(base, functions, _dispatch_calls(base.configured_text))
    unknown = sorted(set(weights or {}) - set(entries))
    if unknown:
        raise InputError(f"a weight for {_functions_text(unknown)}, which is not timed")
    # Named only when the model reads parameters, or runs on more than one thread: a scripted timer
    # (tests) need not know them.
    timer_options = {"parameters": parameters} if parameters is not None else {}
    if options.threads != 1:
        timer_options["threads"] = options.threads
        say(f"whole-model timings on {plural(options.threads, 'thread')} (IREE's task device); the dispatch "
            "search times each candidate on one")
    timer = WholeModelTimer(model, target.compile_flags, entries, weights=weights, **timer_options)
    timed = timer.functions
    verdicts: dict[str, str] = {}
    presets, skipped = presets_that_apply(base, presets)
    if skipped:
        notes.append(f"presets {', '.join(skipped)} not tried: the model has nothing for them to act on (im2col "
                     "needs a convolution, attention decomposition an attention op, data tiling a contraction, "
                     "a convolution or a decomposed attention)")
    try:
        base.parameters = parameters  # the shared spec's numerics read the weights too
        t_shared = time.perf_counter()
        shared = shared_spec(base, target, timer.work_dir, notes, say)
        # What one verification costs on this model, measured (the reserve's floor for each).
        verify_s = time.perf_counter() - t_shared if shared is not None else None
        say(f"building {len(presets)} flag presets, {max(1, options.jobs)} at a time")
        t_build = time.perf_counter()
        phases["start"] = t_build - t0
        # Every preset but IREE's default (the reference) is built with the shared spec; after the
        # first round the fastest ones get their own (`estimate_contenders`).
        spec_of = {name: shared if flags else None for name, flags in presets.items()}
        variants = compile_variants(timer, [Variant(name, flags, spec=spec_of[name].path if spec_of[name] else None)
                                            for name, flags in presets.items()], options.jobs)
        compile_s = (time.perf_counter() - t_build) / math.ceil(len(variants) / max(1, options.jobs))
        for v in variants:
            if v.error:  # the first line, cut: IREE may print a whole op with its encodings (several KB)
                notes.append(f"preset {v.name}: does not build: {shorten(v.error, 300)}")
        say(f"timing {_functions_text(timed)} under {len(variants)} flag presets, {rounds} interleaved rounds")
        t_time = time.perf_counter()
        timer.time(variants, 1)
        round_s = (time.perf_counter() - t_time) / max(1, len([v for v in variants if v.vmfb]))
        default = variants[0]
        # Successive halving: a preset far behind the fastest after one round gets no more rounds
        # (13 presets x 3 rounds of a 2 s UNet step took the whole 300 s budget).
        contenders = drop_far_behind(variants, default.functions)
        estimated = estimate_contenders(model, target, contenders, spec_of, timer, options.jobs, notes, say)
        for v in estimated:
            spec_of[v.name].built.parameters = parameters  # verified with the weights it was timed with
        if estimated:
            timer.time(estimated, 1)  # their first round again, as built now
        # Under --time-budget the presets' later rounds (settling included) end by PRESET_SHARE of
        # it: on a loaded machine the UNet's presets alone took 483 s of a 300 s budget.
        presets_end = t0 + PRESET_SHARE * total_budget_s if total_budget_s else None
        extra = rounds_that_fit(rounds - 1, presets_end, round_s * len(contenders))
        if extra > 0:
            timer.time(contenders, extra)
        # The fastest-looking preset gets extra rounds against the default when the noise
        # hides its lead (settle), so a noisy round cannot throw away a real win.
        candidate = settle_candidate(default, variants[1:])
        if candidate is not None:
            done = 1 + extra
            timer.settle(candidate, default, most_rounds=done + rounds_that_fit(3 * rounds - done, presets_end,
                                                                                2 * round_s))
        best = choose_preset(default, variants[1:])
        for v in variants[1:]:
            verdicts[v.name] = verdict(v, default)
        verdicts[best.name] = "chosen" + (f" ({verdicts[best.name]})" if best is not default else
                                          ": no preset beats IREE's default on the whole model")
        say(f"flags: {best.name}" + (f" ({default.median_us:.1f} -> {best.median_us:.1f} us over "
                                     f"{plural(len(timed), 'function')})" if best is not default
                                     else " (no preset beats IREE's default beyond the noise)"))

        phases["presets"] = time.perf_counter() - t_build
        # The dispatches the chosen flags leave tunable, tuned and confirmed on the functions running them.
        search_name, search_flags, flagged = _search_build(model, target, best, variants, notes, say)
        flagged.parameters = parameters  # the spec's numerics read the weights it was timed with
        calls = _dispatch_calls(flagged.configured_text)
        result, spec_text, spec_functions, incumbent = None, "", [], None
        chosen_flags, recipe_variant = tuple(best.flags), best.name
        # GEMMs the chosen build already runs with the estimate's distribution are not searched:
        # timed alone their weights stay warm, and the search's picks lost to the estimate's in
        # the model every time it was tried (pi0's expert 0.92x, SigLIP's 0.82x, pi0.5's within
        # the noise; docs/DATA_TILING.md 13). The budget goes to the rest.
        settled = (estimated_distributions(spec_of.get(best.name)) if search_flags == tuple(best.flags)
                   else set())
        if functions or settled:
            # Only what the named functions run (a spec for another function could not be
            # confirmed), less the settled GEMMs.
            theirs = {symbol for f in (timed if functions else calls) for symbol in calls.get(f, {})} - settled
            wanted = tuple(select_dispatches(sorted(theirs), options.dispatches, strict=False))
            if settled:
                notes.append(f"{plural(len(settled), 'mmt4d or inner_tiled dispatch')} kept the estimate's distribution "
                             f"{best.name} was built with: not searched")
            if not wanted:
                notes.append(f"{_functions_text(timed)}: no dispatch to tune under {best.name}"
                             + (" besides those" if settled else ""))
                result = TuneResult(str(model), getattr(target, "name", str(target)), options.strategy)
            options = dataclasses.replace(options, dispatches=wanted)
        if result is None and options.time_budget_s:
            # --time-budget covers the whole tune: the search gets what the presets left, less
            # what verifying and confirming a spec will take (`spec_reserve_s`).
            specs = 2 if has_mmt4d(flagged) else 1  # the estimated spec too (`estimated_spec`)
            # A chosen build with its own estimated spec: verified for the recipe if no spec wins.
            own_spec = spec_of.get(best.name) is not None and spec_of[best.name].configs is not None
            # A chosen build with the shared configs: the search's spec verified again with them (`with_shared`).
            rechecked = spec_of.get(best.name) is not None
            reserve = spec_reserve_s(best, default, variants, compile_s, rounds, round_s, specs=specs,
                                     verifications=int(own_spec) + int(rechecked), verify_s=verify_s)
            left = options.time_budget_s - (time.perf_counter() - t0) - reserve
            if left < 1:
                notes.append(f"the time budget of {options.time_budget_s:g} s was spent on the flag presets "
                             f"(and {reserve:.0f} s kept for confirming a spec): no dispatch searched")
                result = TuneResult(str(model), getattr(target, "name", str(target)), options.strategy)
            else:
                say(f"searching dispatches for up to {left:.0f} s of the {options.time_budget_s:g} s budget "
                    f"({reserve:.0f} s kept for verifying and confirming a spec)")
                options = dataclasses.replace(options, time_budget_s=left, budget_started=None)  # left from now
        if result is None:
            t_search = time.perf_counter()
            result = tune(flagged, target, options, db=db, progress=progress)
            phases["search"] = time.perf_counter() - t_search - result.verify_seconds
            phases["verification"] = result.verify_seconds
        if not result.dispatches:
            reasons = sorted({s["reason"] for s in result.skipped})
            if reasons:
                notes.append(f"no dispatch is tunable under {search_name}: " + "; ".join(reasons[:2]))
        # The candidate specs: the search's, and the same with the cost model's mmt4d distributions
        # for the mmt4d dispatches it left at IREE's default (search/estimated.py: alone, a weight
        # stays in the cache; in the model it is read cold, which only the estimate accounts for).
        candidates: list[tuple[str, str, set[str]]] = []
        in_spec = {d.dispatch for d in result.dispatches if d.chosen == "tuned"} if result.spec_text else set()
        # The shared configs the search's winners leave out go into every candidate: the chosen
        # build they are confirmed against has them.
        chosen_spec = spec_of.get(best.name)
        own = chosen_spec is not None and chosen_spec.configs is not None and search_flags == tuple(best.flags)
        if own:  # the chosen build's own estimated spec, on the same build the search ran on
            shared_here = {d: c for d, c in chosen_spec.configs.items() if d not in in_spec}
        else:
            shared_here = shared_configs(flagged, target, in_spec) if chosen_spec is not None else {}
        t_estimate = time.perf_counter()
        if result.spec_text:
            searched = with_shared(flagged, result, in_spec, shared_here, progress)
            if searched is not None:
                candidates.append(searched)
        # Only with time left for its build and verification (the reserve counted them), and only
        # when the chosen build did not have the estimate's distributions already.
        time_left = t0 + total_budget_s - t_estimate if total_budget_s else math.inf
        estimated = (estimated_spec(flagged, target, result, in_spec, options, calls, timed, progress, shared_here)
                     if time_left > 2 * (best.compile_s or compile_s) and not own else None)
        phases["verification"] = phases.get("verification", 0.0) + time.perf_counter() - t_estimate
        if estimated is not None:
            candidates.append(estimated)
        if candidates:
            held = {name: functions_holding(dispatches, calls, timed) for name, _, dispatches in candidates}
            candidates = [c for c in candidates if held[c[0]]]
            if not candidates:
                notes.append(f"the spec's dispatches ({', '.join(sorted(in_spec))}) are run by none of the timed "
                             f"functions ({_functions_text(timed)}): not kept")
        if candidates:
            spec_functions = sorted({f for name, _, _ in candidates for f in held[name]}, key=list(timed).index)
            t_confirm_build = time.perf_counter()
            rivals = []
            for name, text, _ in candidates:
                v = Variant(f"{search_name}+{name}", search_flags, spec=timer.work_dir / f"candidate.{name}.mlir")
                v.spec.write_text(text)
                timer.compile(v)
                rivals.append(v)
            incumbent = Variant(best.name + " (again)", best.flags, spec=best.spec, vmfb=best.vmfb)
            if search_flags != tuple(best.flags) or len(rivals) > 1:
                # Other flags build every dispatch differently, and two specs differ on different
                # functions: only the whole model can say.
                spec_functions = list(timed)
            say(f"confirming {plural(len(rivals), 'spec')} on {_functions_text(spec_functions)} (the functions running "
                "their dispatches)")
            t_confirm = time.perf_counter()
            # Two rounds at least (one round has no spread to judge the noise by), more as the
            # budget allows: a round is the chosen build and each spec's, about the chosen build's
            # share of a preset round each. Then settling rounds while the budget lasts.
            confirm_end = t0 + total_budget_s if total_budget_s else None
            pair_round_s = (1 + len(rivals)) * round_s * _share_of_average(best, variants, default.functions)
            confirm_rounds = max(min(2, rounds), rounds_that_fit(rounds, confirm_end, pair_round_s))
            timer.time([incumbent, *rivals], confirm_rounds, functions=spec_functions)
            variants.extend(rivals)
            # Which spec to settle against the chosen build: the search's, unless the estimated
            # one beats it beyond the noise, or the search's is no faster than the chosen build
            # while the estimated one looks faster (ACT: the search's spec 213.6 ms, the chosen
            # build 185.3, the estimated 193.4, all within 25% noise).
            with_spec = rivals[0]
            if len(rivals) > 1:
                chosen_us, search_us, estimated_us = (v.total_us(spec_functions) for v in (incumbent, *rivals))
                search_no_faster = search_us is None or chosen_us is None or search_us >= chosen_us
                estimated_ahead = estimated_us is not None and (search_us is None or estimated_us < search_us)
                if beats(rivals[1], rivals[0]) or (search_no_faster and estimated_ahead):
                    with_spec = rivals[1]
            per_round = (time.perf_counter() - t_confirm) / confirm_rounds
            most_rounds = confirm_rounds + rounds_that_fit(3 * rounds - confirm_rounds, confirm_end, per_round)
            kept = timer.settle(with_spec, incumbent, most_rounds=most_rounds)
            if not kept and with_spec.name == f"{search_name}+spec":
                # Leave out the dispatches of the functions the spec made slower, and confirm what
                # is left the same way; again while another function turns out slower (each round
                # leaves out one more function's, never all of them).
                left_out: set[str] = set()
                attempt = with_spec
                for step in range(1, len(spec_functions)):
                    slowed = set(slower_functions(attempt, incumbent))
                    if not slowed or slowed <= left_out:
                        break  # refused on the total, not on a function: leaving one out would not help
                    left_out |= slowed
                    name = "spec-less" if step == 1 else f"spec-less{step}"
                    lesser = _spec_without(left_out, flagged, result, in_spec, shared_here, calls, spec_functions,
                                           progress, name)
                    if lesser is None:
                        break
                    v = Variant(f"{search_name}+{name}", search_flags, spec=timer.work_dir / f"candidate.{name}.mlir")
                    v.spec.write_text(lesser[1])
                    timer.compile(v)
                    say(f"confirming the spec without the dispatches of {_functions_text(sorted(left_out))} "
                        "(slower with them)")
                    timer.time([incumbent, v], confirm_rounds, functions=spec_functions)
                    variants.append(v)
                    rivals.append(v)
                    candidates.append(lesser)
                    if timer.settle(v, incumbent, most_rounds=most_rounds):
                        notes.append(f"the spec made {_functions_text(sorted(left_out))} slower: kept without the "
                                     f"dispatches they run ({verdict(with_spec, incumbent)} with them)")
                        with_spec, kept = v, True
                        break
                    attempt = v
            for v in rivals:
                verdicts[v.name] = (f"{verdict(v, incumbent)} (against {best.name}'s build timed "
                                    f"again beside it on {_functions_text(spec_functions)})")
            if kept:
                chosen_name = with_spec.name[len(search_name) + 1:]
                spec_text = next(text for name, text, _ in candidates if name == chosen_name)
                chosen_flags = search_flags
                recipe_variant = with_spec.name
                say(f"spec kept ({with_spec.name}): {_functions_text(spec_functions)} {incumbent.median_us:.1f} -> "
                    f"{with_spec.median_us:.1f} us")
            else:
                notes.append(f"the spec's dispatch-level win did not show on {_functions_text(spec_functions)} "
                             f"(the functions running its dispatches): {verdict(with_spec, incumbent)}; not kept")
            phases["confirmation"] = time.perf_counter() - t_confirm_build
        spec_numerics: list[dict] = []
        if not spec_text and chosen_spec is not None:
            # The chosen build was timed with its spec: the recipe builds it so, verified.
            t_verify = time.perf_counter()
            spec_text, spec_numerics = verified_preset_spec(chosen_spec, notes, say, best)
            phases["verification"] = phases.get("verification", 0.0) + time.perf_counter() - t_verify
        recipe = Recipe(str(model), model_sha256(model), _target_cpu(target), chosen_flags,
                        whole_model_us={v.name: v.median_us for v in variants if v.median_us is not None},
                        functions=tuple(timed), weights=dict(timer.weights),
                        function_us={v.name: {f: v.function_median_us(f) for f in v.functions}
                                     for v in variants + ([incumbent] if incumbent else []) if v.functions},
                        parameters=parameters.to_record() if parameters is not None else {},
                        variant=recipe_variant, tuned_on=_tuned_on(target), threads=options.threads)
        return RecipeResult(recipe, spec_text, variants, result, timed, notes, time.perf_counter() - t0,
                            verdicts, spec_functions, incumbent, parameters, phases, recipe_variant,
                            [v.name for v in variants[len(presets):]], spec_numerics)
    finally:
        timer.close()


def _spec_without(left_out: set[str], flagged, result: TuneResult, in_spec: set[str], shared_here: dict,
                  calls: dict[str, dict[str, int]], spec_functions: list[str], progress,
                  name: str) -> tuple[str, str, set[str]] | None:
    """(`name`, text, dispatches): the search's spec without the dispatches of the functions in
    `left_out` (those it made slower beyond the noise), when another function it runs keeps a
    dispatch of its own; else None. One function's slowdown need not cost the others their win
    (a multi-function module: the chunk projection's 2x win was refused whole because the MLP in
    another function ran 11% slower with its own tuned dispatches)."""
    if not [f for f in spec_functions if f not in left_out]:
        return None
    drop = {symbol for f in left_out for symbol in calls.get(f, {})}
    if not in_spec - drop:
        return None
    return with_shared(flagged, result, in_spec, shared_here, progress, without=drop, name=name)


# Of --time-budget, the share by which the flag presets' rounds after the first must end.
PRESET_SHARE = 0.5


def rounds_that_fit(wanted: int, end: float | None, round_s: float) -> int:
    """How many of `wanted` rounds of `round_s` seconds each end by `end` (a perf_counter time;
    None: no budget, all of them)."""
    if end is None or wanted <= 0:
        return max(0, wanted)
    return max(0, min(wanted, int((end - time.perf_counter()) // max(round_s, 1e-6))))


# The numpy reference of a spec's numerics costs about this many calls of IREE's default build
# (Diffusion Policy's UNet: 10 s against a 1.8 s call).
NUMPY_REFERENCE_CALLS = 5.0
# A build with a spec varies by more than its preset's: the UNet's spec builds took 29 s against its
# preset's 27 s, and the verification and confirmation 79 s of a 69 s reserve (316 s of 300).
RESERVE_MARGIN = 1.2


def spec_reserve_s(best: Variant, default: Variant, variants: list[Variant], compile_s: float, rounds: int,
                   round_s: float, specs: int = 1, verifications: int = 0, verify_s: float | None = None) -> float:
    """Seconds to keep for `specs` specs after the search (two where the build has mmt4d dispatches:
    the search's and the one with the estimated distributions): each one's verification (a build of
    the model with it, then the numpy reference) and confirmation (another build, then all builds
    timed in twice the rounds, settling included); and `verifications` more verifications alone.
    A build costs what the chosen preset's did (`compile_s`, the presets' average, when unknown):
    with three average builds kept, the UNet's verification and confirmation took 72 s of a 46 s
    reserve and its tune 343 s of 300. A round of the chosen build costs its share of the average
    round: pi0's prefix default (9.6 s a call) made the average 2x the chosen build's, and a reserve
    from the average left the search nothing. `verify_s`: what a verification took on this model
    (the shared spec's, measured), a floor for each: the encoder's numerics are checked dispatch by
    dispatch (the numpy reference cannot run its asserts), 13 s a verification where a build and
    numpy's 5 calls came to 7 s, and its tune ended 18 s past its budget."""
    functions = default.functions
    build_s = best.compile_s or compile_s
    # At most one more build: a model too big for numpy to run whole in seconds has, so far, had
    # what it cannot evaluate (pi0's prefix: a dense_resource constant; 5 calls of its 12.7 s
    # default kept 173 s and left its search nothing), and its dispatches are checked alone.
    numerics_s = min(build_s, NUMPY_REFERENCE_CALLS * (default.total_us(functions) or 0.0) * 1e-6)
    rounds_s = (1 + specs) * 2 * rounds * round_s * _share_of_average(best, variants, functions)
    verification_s = max(build_s + numerics_s, verify_s or 0.0)
    # Each spec: its verification and its confirmation's build; `verifications`: more specs
    # verified but not timed.
    return RESERVE_MARGIN * (specs * build_s + (specs + verifications) * verification_s + rounds_s)


def _share_of_average(best: Variant, variants: list[Variant], functions: list[str]) -> float:
    """`best`'s time over the average of the timed variants' (1.0 when either is unknown)."""
    totals = [t for t in (v.total_us(functions) for v in variants if not v.error) if t]
    mine = best.total_us(functions)
    return mine / (sum(totals) / len(totals)) if totals and mine else 1.0


def _search_build(model: Path, target, best: Variant, timed: list[Variant], notes: list[str],
                  say) -> tuple[str, tuple[str, ...], object]:
    """(name, flags, `ModelArtifacts`) the dispatch search runs on: the chosen preset's, or, when
    it tiles data on IREE's default path, the same flags on the global path, where a spec can set
    the mmt4d's distribution (docs/DATA_TILING.md 7). The whole model then decides between the
    two (the spec's confirmation runs every timed function). The twin is searched only when it
    was timed among the presets and the chosen one is not faster beyond the noise (a spec on a
    slower build rarely wins back the gap: pi0's prefix ran 3.05 s under gdt+tile-bytes-4m
    against 2.43 s under dt+tile-bytes-4m, and its mmt4d tiles moved a dispatch by 1-7%), and
    only when it builds and gives the search an mmt4d; otherwise the chosen preset's build is."""
    flags = tuple(best.flags)
    twin = global_data_tiling_twin(flags)
    rival = next((v for v in timed if tuple(v.flags) == twin), None) if twin is not None else None
    if twin is not None and (rival is None or rival.error or rival.dropped or beats(best, rival)):
        why = ("was not timed" if rival is None else "did not build" if rival.error
               else "was slower than it on the whole model")
        notes.append(f"searched under {best.name}, not on the global data-tiling path: its twin there {why}")
        twin = None
    if twin is not None:
        name = rival.name
        try:
            built = compile_model(model, target.compile_flags + twin)
            if any(getattr(p, "is_mmt4d", False) for p in built.problems()):
                say(f"searching under {name}: the same flags on the global data-tiling path, where a spec reaches "
                    "the mmt4d dispatches")
                return name, twin, built
            notes.append(f"{name} makes no mmt4d dispatch: searched under {best.name}")
        except (InputError, CompileError) as e:
            notes.append(f"{name} (searched for its mmt4d tiles) does not build: {shorten(str(e), 200)}; "
                         f"searched under {best.name}")
    return best.name, flags, compile_model(model, target.compile_flags + flags)


def _target_cpu(target) -> str:
    return target_cpu_of(target.compile_flags) or "host"


def _tuned_on(target) -> dict:
    """The machine the recipe's timings come from, when it compiles for this machine's CPU."""
    from ...core.fingerprint import host_cpu_id, host_cpu_model, host_vector_isa
    from ...core.host_isa import is_this_cpu

    if not is_this_cpu(_target_cpu(target)):
        return {}
    machine = {"cpu": host_cpu_model(), "vector_isa": host_vector_isa()}
    if cpu_id := host_cpu_id():
        machine["cpu_id"] = cpu_id
    return machine
