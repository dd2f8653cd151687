"""Blind search: a seeded uniform sample of the legal space (the baseline to beat)."""

from __future__ import annotations

from .context import SearchContext

OPTIONS = {}


def tune(ctx: SearchContext, options: dict | None = None) -> None:
    n = min(ctx.remaining, len(ctx.legal))
    picks = ctx.rng.sample(range(len(ctx.legal)), n)
    ctx.measure([ctx.legal[i] for i in picks])
