"""Which dispatches a `--dispatch SYM` selects: the one rule every command and the search use.

An exact symbol selects itself; otherwise every symbol that contains SYM is selected. A pattern
that selects nothing is an error (a typo must not silently tune nothing).
"""

from __future__ import annotations


class NoDispatchMatches(ValueError):
    pass


def select_dispatches(symbols, patterns, *, strict: bool = True) -> list[str]:
    """The symbols, in their order, that `patterns` select (all of them when there is no pattern).

    `strict=False` lets a pattern select nothing (a build under other flags may not have it)."""
    symbols = list(symbols)
    if not patterns:
        return symbols
    chosen: set[str] = set()
    for pattern in patterns:
        hits = [pattern] if pattern in symbols else [s for s in symbols if pattern in s]
        if not hits and strict:
            raise NoDispatchMatches(f"--dispatch {pattern!r} matches no dispatch (they are: "
                                    f"{', '.join(symbols) or 'none'})")
        chosen.update(hits)
    return [s for s in symbols if s in chosen]


__all__ = ["NoDispatchMatches", "select_dispatches"]
