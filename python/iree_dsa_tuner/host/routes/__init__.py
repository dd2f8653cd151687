"""The host's compile routes: rewrites of the whole build (flags, or a preprocessing transform
script) that compete as flag presets in the host recipe, each confirmed by timing the whole model.

Each route is one module of this package with the same two functions:
- `plan(planning: RoutePlanning) -> ir.conv_route.ConvRoute`: the route for this model (falsy when
  it does not apply; its notes say why when that is worth saying), with its progress lines;
- `presets(route, planning) -> {name: flags}`: the presets it adds when taken;
its two ranks, `PLAN_RANK` (the order routes are planned in, and listed in a tune's report)
and `PRESET_RANK` (the order their presets are timed in). A route that depends on another reads
that one's plan from `planning.planned` (by module name) and ranks after it. The routes are
found by listing this package: a new route is a new module (and its tests), nothing else.
Optionally a route names in `REPLACES` the recipe's own presets (`host.flag_presets`) its presets
stand in for when it is taken (they cannot build then).
"""

from __future__ import annotations

import importlib
import pkgutil

from .planning import RoutePlanning


def _route_modules() -> list:
    """Every module of this package that is a route (has `plan` and `presets`)."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if callable(getattr(module, "plan", None)) and callable(getattr(module, "presets", None)):
            found.append(module)
    return found


# The order the routes are planned in (and listed in a tune's report) ...
ROUTES = tuple(sorted(_route_modules(), key=lambda m: (m.PLAN_RANK, m.__name__)))
# ... and the order their presets are timed in.
PRESET_ORDER = tuple(sorted(ROUTES, key=lambda m: (m.PRESET_RANK, m.__name__)))


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
