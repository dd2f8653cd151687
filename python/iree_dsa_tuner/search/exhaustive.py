"""Measure every legal candidate (up to the budget): the reference optimum."""

from __future__ import annotations

from .context import SearchContext

OPTIONS = {}


def tune(ctx: SearchContext, options: dict | None = None) -> None:
    for start in range(0, len(ctx.legal), 64):
        if ctx.remaining <= 0:
            return
        ctx.measure(list(ctx.legal[start:start + 64]))
