"""L0 -> L1: measure the cost model's top-k survivors, then refine around the best.

The analytic model is good at ranking regions and poor at exact order, so most
of the budget goes to its top picks and the rest to one-knob neighbours of the
measured best (hill climbing), which fixes the model's local mistakes.
"""

from __future__ import annotations

from .context import SearchContext

# Fraction of the budget spent on the model's ranking before local refinement.
OPTIONS = {"explore_fraction": 0.6}


def tune(ctx: SearchContext, options: dict | None = None) -> None:
    opts = {**OPTIONS, **(options or {})}
    first = max(1, int(round(ctx.budget * opts["explore_fraction"])))
    ctx.measure(list(ctx.ranked[:first]))
    while ctx.remaining > 0:
        best = ctx.best()
        if best is None:
            # Everything failed so far: keep walking down the ranking.
            rest = [c for c in ctx.ranked if not ctx.measured(c)]
            if not rest or not ctx.measure(rest[:1]):
                return
            continue
        step = [c for c in ctx.neighbours(best.candidate) if not ctx.measured(c)]
        if not step:
            rest = [c for c in ctx.ranked if not ctx.measured(c)]
            if not rest:
                return
            step = rest
        ctx.measure(step[:1], source="refine")
