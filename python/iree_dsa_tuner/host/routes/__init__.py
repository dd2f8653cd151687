"""The host's compile routes: rewrites of the whole build (flags, or a preprocessing transform
script) that compete as flag presets in the host recipe, each confirmed by timing the whole model.

Each route is one module of this package with the same two functions:
- `plan(planning: RoutePlanning) -> ir.conv_route.ConvRoute`: the route for this model (falsy when
  it does not apply; its notes say why when that is worth saying), with its progress lines;
- `presets(route, planning) -> {name: flags}`: the presets it adds when taken;
and, optionally, `REPLACES`: the recipe's own presets (`host.flag_presets`) its presets stand in for
when it is taken (they cannot build then).
A route that depends on another reads that one's plan from `planning.planned` (by module name), so
`ROUTES` plans them in order. A new route is a new module plus its line in `ROUTES` and
`PRESET_ORDER`.
"""

from __future__ import annotations

from . import batch1_conv, conv_fold, k_split, unbatch, winograd
from .planning import RoutePlanning

# The order the routes are planned in (and listed in a tune's report) ...
ROUTES = (batch1_conv, k_split, unbatch, conv_fold, winograd)
# ... and the order their presets are timed in.
PRESET_ORDER = (batch1_conv, conv_fold, winograd, k_split, unbatch)


def _name(route_module) -> str:
    return route_module.__name__.rpartition(".")[2]


def plan_routes(model, target, progress=None) -> tuple[list, dict[str, tuple[str, ...]] | None]:
    """(the routes taken or noted, the presets the recipe times: its own and the routes'; None when
    no route adds any, so the recipe times its own `FLAG_PRESETS`) for `model` on the host `target`."""
    from ...ir.artifacts import cache_root, compile_model
    from ..flag_presets import FLAG_PRESETS

    plain = compile_model(model, target.compile_flags)
    planning = RoutePlanning(plain, target.describe().cpu, cache_root() / "routes", progress)
    for route_module in ROUTES:
        planning.planned[_name(route_module)] = route_module.plan(planning)
    taken = [r for r in planning.planned.values() if r or r.notes]
    extra: dict[str, tuple[str, ...]] = {}
    replaced: set[str] = set()
    for route_module in PRESET_ORDER:
        route = planning.planned[_name(route_module)]
        if route:
            extra.update(route_module.presets(route, planning))
            replaced.update(getattr(route_module, "REPLACES", ()))
    if not extra:
        return taken, None
    # The routes' flags compete as presets, unless a preset already builds the same flags (the
    # route of IREE 3.13 is im2col, which the im2col presets already time).
    known = {frozenset(flags) for flags in FLAG_PRESETS.values()}
    base = {name: flags for name, flags in FLAG_PRESETS.items() if name not in replaced}
    return taken, dict(base, **{name: flags for name, flags in extra.items() if frozenset(flags) not in known})


__all__ = ["PRESET_ORDER", "ROUTES", "RoutePlanning", "plan_routes"]
