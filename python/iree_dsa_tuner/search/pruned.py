"""L0 -> L1: measure the cost model's top-k survivors, then refine around the best.

When the survivors and the best's neighbours are all measured and budget is left, the
search takes the next candidate by estimate from everything that can run (the funnel's
relative stages can leave only a few survivors) and refines around any new best.

The analytic model is good at ranking regions and poor at exact order, so most
of the budget goes to its top picks and the rest to one-knob neighbours of the
measured best (hill climbing), which fixes the model's local mistakes.
"""

from __future__ import annotations

from .context import SearchContext

# explore_fraction: share of the budget spent on the model's ranking before
# local refinement. max_per_vector_step: candidates that differ only in outer
# tiles often tie in the model; measuring many of them teaches little, so the
# explore phase takes at most this many per vector step before taking more.
# hopeless_margin: after the explore phase, stop when nothing has beaten IREE's default and
# the scaled estimates say nothing left will beat it by this much (SearchContext.nothing_can_win).
OPTIONS = {"explore_fraction": 0.6, "max_per_vector_step": 2, "hopeless_margin": 0.02}


def _vector_step(c) -> tuple:
    return c.vec_m, c.vec_n, c.vec_k


def diverse_prefix(ranked, count: int, per_step: int, key=_vector_step) -> list:
    """The first `count` of `ranked`, at most `per_step` per `key` (the vector step: vec_m, vec_n,
    vec_k) first, then the others in their order."""
    chosen, seen, held = [], {}, []
    for c in ranked:
        key_of_c = key(c)
        if seen.get(key_of_c, 0) < per_step:
            seen[key_of_c] = seen.get(key_of_c, 0) + 1
            chosen.append(c)
        else:
            held.append(c)
        if len(chosen) == count:
            return chosen
    return chosen + held[: count - len(chosen)]


def tune(ctx: SearchContext, options: dict | None = None) -> None:
    opts = {**OPTIONS, **(options or {})}
    first = max(1, int(round(ctx.budget * opts["explore_fraction"])))
    ctx.measure(diverse_prefix(ctx.ranked, first, opts["max_per_vector_step"]))
    while ctx.remaining > 0:
        if ctx.nothing_can_win(opts["hopeless_margin"]):
            ctx.stopped = "no candidate beat IREE's default and the cost model expects none of the rest to"
            return
        best = ctx.best()
        if best is None:
            # Everything failed so far: keep walking down the ranking.
            rest = [c for c in ctx.ranked if not ctx.measured(c)]
            if not rest or not ctx.measure(rest[:1]):
                return
            continue
        step = [c for c in ctx.neighbours(best.candidate) if not ctx.measured(c)]
        if not step:
            step = [c for c in ctx.ranked if not ctx.measured(c)][:1]
        if not step:  # survivors and the best's neighbours all measured: the model's next pick
            following = ctx.next_by_estimate()
            if following is None:
                return
            step = [following]
        ctx.measure(step[:1], source="refine")
