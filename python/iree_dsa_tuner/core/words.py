"""Words beside a count, made plural once for every layer: `report` re-exports `plural` for the
tables and commands, and the lower units (ir, targets, tuning_spec, host) write their
progress lines and notes with it too."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and `word`, made plural unless `n` is 1: plural(1, "call") is "1 call",
    plural(3, "dispatch") "3 dispatches", plural(2, "proxy", "proxies") "2 proxies"."""
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{n} {many}"
