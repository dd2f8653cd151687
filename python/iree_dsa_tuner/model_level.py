"""Host model-level tuning: a recipe (whole-model flags + per-dispatch spec), each decision timed
on the whole model.

1. Every flag preset (`recipe.FLAG_PRESETS`) is compiled and the model's entry function timed
   in interleaved rounds beside IREE's default; a preset is chosen only when it beats the
   default beyond the rounds' noise (`runners.whole_model.beats`).
2. The dispatches the chosen flags leave tunable are found by compiling the model with those
   flags (`ir.compile_model`): under data tiling IREE 3.13 encodes the contractions before a
   spec is applied and configures them as `Mmt4dTilingExpert`, so discovery finds no
   contraction a DoubleTilingExpert spec could set there (docs/PERFORMANCE.md).
3. Those dispatches are tuned (`pipeline.tune`); the spec is kept only when the model with it
   beats the model without it, timed again in interleaved rounds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import InputError
from .ir.artifacts import compile_model
from .pipeline import tune
from .recipe import DATA_TILING_FLAG, FLAG_PRESETS, Recipe, model_sha256
from .runners.whole_model import Variant, WholeModelTimer, beats
from .search.options import TuneOptions
from .search.results import TuneResult


@dataclass
class RecipeResult:
    recipe: Recipe
    spec_text: str  # "" when no spec was kept
    variants: list[Variant]  # every variant timed, the default first
    tune_result: TuneResult | None
    function: str
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"function": self.function, "flags": list(self.recipe.flags), "spec_kept": bool(self.spec_text),
                "variants": [v.to_json() for v in self.variants], "notes": self.notes,
                "dispatches": self.tune_result.to_json() if self.tune_result else None,
                "seconds": round(self.seconds, 2)}


def _entry(artifacts, function: str | None) -> tuple[str, list]:
    from .tuning_spec.verify import _function_signatures

    signatures, _, _ = _function_signatures(artifacts)
    if function is not None:
        if function not in signatures:
            raise InputError(f"{artifacts.model}: no public function @{function} with static tensor arguments "
                             f"(have: {', '.join(signatures) or 'none'})")
        return function, signatures[function]
    if not signatures:
        raise InputError(f"{artifacts.model}: no public function with static tensor arguments to time")
    name = next(iter(signatures))
    return name, signatures[name]


def presets_that_apply(artifacts, presets: dict[str, tuple[str, ...]]) -> tuple[dict, list[str]]:
    """The presets worth timing on this model, and the names left out.

    Data tiling and ukernels act on contractions and convolutions only: on a model with none
    (attention alone) their builds are IREE's default again, and one of several equal builds
    beating the default is chance, not a win worth recording as a flag.
    """
    problems = artifacts.problems()  # also fills batch1_convs (refused, but data tiling acts on them)
    if artifacts.batch1_convs or any(getattr(p, "kind", "") in ("contraction", "convolution") for p in problems):
        return dict(presets), []
    skipped = [name for name, flags in presets.items() if DATA_TILING_FLAG in flags]
    return {name: flags for name, flags in presets.items() if name not in skipped}, skipped


def tune_recipe(model: str | Path, target, options: TuneOptions, *, presets: dict[str, tuple[str, ...]] | None = None,
                rounds: int = 3, db=None, function: str | None = None,
                progress: Callable[[str], None] | None = None) -> RecipeResult:
    t0 = time.perf_counter()
    say = progress or (lambda text: None)
    model = Path(model)
    presets = dict(presets or FLAG_PRESETS)
    base = compile_model(model, target.compile_flags)
    function, signature = _entry(base, function)
    timer = WholeModelTimer(model, target.compile_flags, function, signature)
    notes: list[str] = []
    presets, skipped = presets_that_apply(base, presets)
    if skipped:
        notes.append(f"presets {', '.join(skipped)} not tried: the model has no contraction or convolution "
                     "for data tiling to act on")
    try:
        variants = [timer.compile(Variant(name, flags)) for name, flags in presets.items()]
        for v in variants:
            if v.error:
                notes.append(f"preset {v.name}: does not build: {v.error}")
        say(f"timing @{function} under {len(variants)} flag presets, {rounds} interleaved rounds")
        timer.time(variants, rounds)
        default = variants[0]
        # The fastest-looking preset gets extra rounds against the default when the noise
        # hides its lead (settle), so a noisy round cannot throw away a real win.
        timed = [v for v in variants[1:] if v.median_us is not None]
        if timed:
            timer.settle(min(timed, key=lambda v: v.median_us), default, most_rounds=3 * rounds)
        contenders = sorted((v for v in variants[1:] if beats(v, default)), key=lambda v: v.median_us)
        best = contenders[0] if contenders else default
        say(f"flags: {best.name}" + (f" ({default.median_us:.1f} -> {best.median_us:.1f} us)" if best is not default
                                     else " (no preset beats IREE's default beyond the noise)"))

        # The dispatches the chosen flags leave tunable, tuned and confirmed on the whole model.
        flagged = compile_model(model, target.compile_flags + tuple(best.flags))
        result = tune(flagged, target, options, db=db, progress=progress)
        spec_text = ""
        if not result.dispatches:
            reasons = sorted({s["reason"] for s in result.skipped})
            notes.append(f"no dispatch is tunable under {best.name}: " + "; ".join(reasons[:2]))
        elif result.spec_text:
            with_spec = Variant(f"{best.name}+spec", best.flags, spec=timer.work_dir / "candidate.spec.mlir")
            with_spec.spec.write_text(result.spec_text)
            timer.compile(with_spec)
            incumbent = Variant(best.name + " (again)", best.flags, vmfb=best.vmfb)
            timer.time([incumbent, with_spec], rounds)
            variants.append(with_spec)
            if timer.settle(with_spec, incumbent, most_rounds=3 * rounds):
                spec_text = result.spec_text
                say(f"spec kept: whole model {incumbent.median_us:.1f} -> {with_spec.median_us:.1f} us")
            else:
                notes.append(f"the spec's dispatch-level win did not show on the whole model "
                             f"({incumbent.median_us or float('nan'):.1f} -> {with_spec.median_us or float('nan'):.1f}"
                             f" us, noise {max(incumbent.noise, with_spec.noise):.0%}): not kept")
        recipe = Recipe(str(model), model_sha256(model), _target_cpu(target), tuple(best.flags),
                        whole_model_us={v.name: v.median_us for v in variants if v.median_us is not None})
        return RecipeResult(recipe, spec_text, variants, result, function, notes, time.perf_counter() - t0)
    finally:
        timer.close()


def _target_cpu(target) -> str:
    flag = next((f for f in target.compile_flags if f.startswith("--iree-llvmcpu-target-cpu=")), "")
    return flag.split("=", 1)[1] if flag else "host"
