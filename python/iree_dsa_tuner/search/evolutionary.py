"""A small (mu + lambda) evolutionary search seeded from the cost model's ranking."""

from __future__ import annotations

from .context import SearchContext

OPTIONS = {"population": 4}


def tune(ctx: SearchContext, options: dict | None = None) -> None:
    opts = {**OPTIONS, **(options or {})}
    ctx.measure(list(ctx.ranked[: opts["population"]]))
    while ctx.remaining > 0:
        ok = sorted((t for t in ctx.trials if t.time_us is not None), key=lambda t: t.time_us)
        parents = [t.candidate for t in ok[: opts["population"]]] or list(ctx.ranked[:1])
        children = []
        for parent in parents:
            options_ = [c for c in ctx.neighbours(parent) if not ctx.measured(c)]
            if options_:
                children.append(ctx.rng.choice(options_))
        if not children:
            children = [c for c in ctx.ranked if not ctx.measured(c)][:1]
            if not children:
                return
        if not ctx.measure(children[: ctx.remaining]):
            return
