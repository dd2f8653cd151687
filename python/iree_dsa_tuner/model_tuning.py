"""`tune_model`: the one library entry that tunes a whole model on a target.

What "tuning a model" means is the target's to say, not a command's:
- a target that tunes the whole model (`Target.tunes_whole_model`: the host CPU) searches
  whole-model flag presets and a spec, each confirmed by timing every entry function
  (`model_level.tune_recipe`); a batch-1 conv route and the long-K split (`ir.k_split`)
  compete there as presets;
- any other target (a DSA) tunes dispatch by dispatch (`pipeline.tune`), after the compile routes
  it always takes (`Target.always_routes_batch1_convs`: the batch-1 conv route and the INT4
  dequantisation fusion, `ir.artifacts.take_routes`).
`iree-dsa-tune tune`, `demo`, the benches and `build_actions` call it; `task` tunes per stage in
Amdahl order through the same search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .ir.artifacts import compile_model, route_batch1_convs, take_routes
from .pipeline import tune
from .search.options import TuneOptions
from .search.results import TuneResult


@dataclass
class ModelTuning:
    """What `tune_model` found: the dispatch report, and how the model must be built for its spec."""

    report: TuneResult
    routes: list = field(default_factory=list)  # ir.conv_route.ConvRoute per route taken or noted
    recipe_result: object | None = None  # model_level.RecipeResult, on a target that tunes the whole model
    extra_flags: tuple[str, ...] = ()  # the flags besides the target's that the spec is valid with

    @property
    def spec_text(self) -> str:
        return self.report.spec_text


def tune_model(model: str | Path, target, options: TuneOptions, *, db=None, iree_flags: tuple[str, ...] = (),
               routes: bool = True, whole_model: bool = True, functions: list[str] | None = None,
               weights: dict[str, float] | None = None, rounds: int = 3, parameters=None,
               progress: Callable[[str], None] | None = None) -> ModelTuning:
    """Tune `model` on `target` (see the module's docstring).

    `iree_flags`: more iree-compile flags the model is built with (dispatch-level tuning only: a
    whole-model search chooses its flags itself); `routes=False` takes no compile route;
    `whole_model=False` tunes dispatches only, even where the target tunes the whole model.
    `functions`, `weights` and `rounds` are the whole-model timing's; `parameters` (the model's
    weight archives) are read by it and by the spec's numerics.
    """
    model = Path(model)
    if target.tunes_whole_model and whole_model:
        return _tune_whole_model(model, target, options, db=db, routes=routes, functions=functions,
                                 weights=weights, rounds=rounds, parameters=parameters, progress=progress)
    artifacts = compile_model(model, target.compile_flags + tuple(iree_flags))
    taken: list = []
    # A route changes the whole build. On the DSA that is what its compiler does anyway; where the
    # whole model is timed, only its search may choose a route (the im2col route made SigLIP's patch
    # embedding no faster end to end: docs/CONV.md).
    if routes and target.always_routes_batch1_convs:
        artifacts, taken = take_routes(artifacts, say=progress)
    artifacts.parameters = parameters  # the spec's numerics read these weights (None: random from a seed)
    report = tune(artifacts, target, options, db=db, progress=progress)
    return ModelTuning(report, taken, None, artifacts.target_flags[len(target.compile_flags):])


def _tune_whole_model(model: Path, target, options: TuneOptions, *, db, routes: bool, functions, weights, rounds,
                      parameters, progress) -> ModelTuning:
    from .ir.artifacts import cache_root
    from .ir.conv_fold import input_convs, plan_conv_fold_route
    from .ir.k_split import input_gemms, plan_k_split_route, plan_summed_splits
    from .ir.unbatch import plan_unbatch_route, unbatch_flags
    from .ir.winograd import plan_winograd_route
    from .model_level import tune_recipe
    from .recipe import (FLAG_PRESETS, INNER_TILED_PRESETS, conv_fold_presets, k_split_presets, route_presets,
                         unbatch_presets, winograd_presets)

    started = time.perf_counter()  # --time-budget covers the routes' compile too
    presets, taken = None, []
    if routes:
        # A batch-1 conv is tunable only under the route's flags: they compete as presets.
        plain = compile_model(model, target.compile_flags)
        _, route = route_batch1_convs(plain, say=progress)
        # A long reduction split into chunks (ir/k_split.py) competes the same way.
        # Planned on the input form: the GEMMs the route's script meets, with their real batch.
        gemms = input_gemms(plain.input_text())
        k_route = plan_k_split_route(gemms, plain.problems(), target.describe().cpu, cache_root() / "routes")
        if k_route and progress is not None:
            progress(f"{k_route.what} for {len(k_route.dispatches)} dispatch(es): {k_route.notes[0]}")
        # Batched GEMMs rewritten as 2-D ones, so inner-tiled data tiling builds (ir/unbatch.py).
        u_route = plan_unbatch_route(gemms, cache_root() / "routes")
        if u_route and progress is not None:
            progress(f"{u_route.what}: {u_route.notes[0]}")
        # Batched NCHW convolutions as one GEMM over all images' pixels (ir/conv_fold.py).
        convs = input_convs(plain.input_text())
        f_route = plan_conv_fold_route(convs, target.describe().cpu, cache_root() / "routes")
        if f_route and progress is not None:
            progress(f"{f_route.what}: {f_route.notes[0]}")
        # 3x3 stride-1 convolutions as Winograd F(6x6,3x3), filters transformed at load (ir/winograd.py).
        w_route = plan_winograd_route(convs)
        if w_route and progress is not None:
            progress(f"{w_route.what}: {w_route.notes[0]}")
        taken = [r for r in (route, k_route, u_route, f_route, w_route) if r or r.notes]
        extra = {}
        if route:
            extra.update(route_presets(route.flags))
        if f_route:
            # Inner-tiled does not build beside batched GEMMs (the unbatch route's presets stand in).
            extra.update(conv_fold_presets(f_route.flags, inner_tiled=not u_route))
        if w_route:
            extra.update(winograd_presets(w_route.flags))
        if k_route:
            extra.update(k_split_presets(k_route.flags))
        if u_route:
            routes_dir = cache_root() / "routes"
            # With long reductions too, one script does both (iree-compile takes one): the K chunks
            # summed after, which inner-tiled builds where the in-order ones do not.
            # A row block above the L2 (k_split rule 3) is cut in every hinted script: it is for the
            # inner-tiled kernel, which every preset using the hinted script builds.
            cpu = target.describe().cpu
            row_splits = plan_summed_splits(gemms, cpu, long_k=False) if cpu is not None else []
            splits = plan_summed_splits(gemms, cpu) if k_route else []
            extra.update(unbatch_presets(u_route.flags, unbatch_flags(gemms, routes_dir, hinted=True, splits=row_splits),
                                         unbatch_flags(gemms, routes_dir, hinted=True, splits=splits) if splits else ()))
            if row_splits and progress is not None:
                progress("inner-tiled row blocks above the L2, cut in the hinted script: "
                         + ", ".join(f"K {s.k} (N {s.n}) in {s.pieces} chunks of {s.chunk}" for s in row_splits))
        if extra:
            # The routes' flags compete as presets, unless a preset already builds the same flags
            # (the route of IREE 3.13 is im2col, which the im2col presets already time). The
            # unbatch route's presets replace the plain inner-tiled ones, which cannot build then.
            known = {frozenset(flags) for flags in FLAG_PRESETS.values()}
            base = {name: flags for name, flags in FLAG_PRESETS.items()
                    if not (u_route and name in INNER_TILED_PRESETS)}
            presets = dict(base, **{name: flags for name, flags in extra.items() if frozenset(flags) not in known})
    extra = {"parameters": parameters} if parameters is not None else {}
    result = tune_recipe(model, target, options, db=db, rounds=rounds, functions=functions or None,
                         weights=weights, progress=progress, presets=presets, started=started, **extra)
    report = result.tune_result
    report.spec_text = result.spec_text  # only a spec the whole model confirmed
    if result.spec_numerics:  # the recipe's own estimated spec: what its verification compared
        report.numerics = result.spec_numerics
    return ModelTuning(report, taken, result, tuple(result.recipe.flags))


__all__ = ["ModelTuning", "tune_model"]
