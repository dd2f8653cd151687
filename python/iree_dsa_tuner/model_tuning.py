"""`tune_model`: the one library entry that tunes a whole model on a target.

What "tuning a model" means is the target's to say, not a command's:
- a target that tunes the whole model (`Target.tunes_whole_model`: the host CPU) does it itself
  (`Target.tune_whole_model`; the host's recipe searches whole-model flag presets and a spec, each
  confirmed by timing every entry function, and its compile routes compete there as presets:
  `host.recipe`, `host.routes`);
- any other target (a DSA) tunes dispatch by dispatch (`pipeline.tune`), after the compile routes
  it always takes (`Target.always_routes_batch1_convs`: the batch-1 conv route and the INT4
  dequantisation fusion, `ir.artifacts.take_routes`).
`iree-dsa-tune tune`, `demo`, the benches and `build_actions` call it; `task` tunes per stage in
Amdahl order through the same search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .ir.artifacts import compile_model, take_routes
from .pipeline import tune
from .search.options import TuneOptions
from .search.results import TuneResult


@dataclass
class ModelTuning:
    """What `tune_model` found: the dispatch report, and how the model must be built for its spec."""

    report: TuneResult
    routes: list = field(default_factory=list)  # ir.conv_route.ConvRoute per route taken or noted
    recipe_result: object | None = None  # host.recipe.RecipeResult, on a target that tunes the whole model
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
        return target.tune_whole_model(model, options, db=db, routes=routes, functions=functions, weights=weights,
                                       rounds=rounds, parameters=parameters, progress=progress)
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


__all__ = ["ModelTuning", "tune_model"]
