"""Search strategies: each one module with `tune(ctx, options)` and declared OPTIONS."""

from __future__ import annotations

import importlib

from .context import SearchContext, Trial

STRATEGIES = {
    "exhaustive": "exhaustive",
    "random": "random_search",
    "pruned": "pruned",
    "evolutionary": "evolutionary",
}


def get_strategy(name: str):
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    return importlib.import_module(f".{STRATEGIES[name]}", __package__)


__all__ = ["STRATEGIES", "SearchContext", "Trial", "get_strategy"]
