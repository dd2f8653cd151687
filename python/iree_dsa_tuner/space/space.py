"""The candidate space of one problem on one target, enumerated lazily.

A space is the cartesian product of knob value lists, each list derived from
the target description and the problem's sizes (never from constants in code),
or a union of such products where one schedule takes values another cannot (the
DSA's weight-streaming schedules keep the whole M: `extra_products`).
Enumeration is lazy: `chunks()` yields numpy columns for slices of the
product, `__iter__` yields `TilingCandidate`s one by one, and `size` is the
product of the list lengths. Structural legality (vector step inside the
tile, llvm-cpu's vector-size limit, quant block dividing the K tile) is the
first stage of the cost-model funnel, so its counts are reported with the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Callable, Iterator

import numpy as np

from ..core.candidate import KNOBS, TilingCandidate
from ..core.shape import GemmShape


# Knobs a space may leave out (they take the candidate's default).
_OPTIONAL_KNOBS = ("k_split",)


def tile_ladder(extent: int, count: int) -> tuple[int, ...]:
    """The `count` largest powers of two not above `extent`, plus `extent` itself.

    Powers of two match the MAC array and DMA granules; the full extent is
    always offered so a dimension can be left whole (a tile that covers it).
    """
    if extent < 1:
        return (1,)
    values = {1 << i for i in range(extent.bit_length()) if (1 << i) <= extent}
    values.add(extent)
    return tuple(sorted(values)[-count:])


def block_ladder(sizes: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Tiles of a loop group (sizes outer to inner): the innermost loop's ladder, then
    whole inner blocks times the ladder of the next loop out, and so on.

    For a conv's output image (OH, OW) = (4, 4): 1, 2, 4 (within a row), 8, 16 (2
    and 4 whole rows); `GemmShape.split_tile` turns each back into per-loop tiles.
    """
    values: set[int] = set()
    inner_block = 1
    for size in reversed(sizes):
        values |= {inner_block * t for t in tile_ladder(size, count)}
        inner_block *= size
    return tuple(sorted(values)) or (1,)


def group_ladder(shape, role: str, count: int) -> tuple[int, ...]:
    """A role's tile ladder: a convolution's m tiles span its output image (and batch)
    in whole rows, its k tiles (a DSA DMA step) whole input-channel rows of its filter
    window (`block_ladder`); everything else tiles its innermost loop only."""
    if role in ("m", "k") and shape.kind == "convolution" and shape.group_sizes(role):
        return block_ladder(shape.group_sizes(role), count)
    return tile_ladder(shape.inner(role), count)


@dataclass(frozen=True)
class CandidateSpace:
    """Knob value lists for one problem; everything else is computed on demand."""

    shape: GemmShape
    target: str
    choices: dict[str, tuple[int, ...]]
    # Fills knobs that are functions of others (e.g. the DSA's MAC step) in place.
    derive: Callable[[dict[str, np.ndarray]], None] | None = field(default=None, compare=False)
    # More products after `choices`' own, each given as the knob lists it changes (the rest as
    # in `choices`). After construction `choices` holds every value some point may take.
    extra_products: tuple[dict[str, tuple[int, ...]], ...] = field(default=(), compare=False)

    def __post_init__(self):
        # A knob one target family added later (the DSA's k_split) may be left out by the
        # spaces that do not offer it: it takes its one default value.
        defaults = {f.name: f.default for f in fields(TilingCandidate)}
        absent = {k: (defaults[k],) for k in _OPTIONAL_KNOBS if k not in self.choices}
        if absent:
            object.__setattr__(self, "choices", {**self.choices, **absent})
        missing = [k for k in KNOBS if k not in self.choices]
        if missing:
            raise ValueError(f"space is missing knobs: {', '.join(missing)}")
        products = [dict(self.choices)] + [{**self.choices, **extra} for extra in self.extra_products]
        products = [p for p in products if all(p[k] for k in KNOBS)]
        object.__setattr__(self, "_products", tuple(products))
        if self.extra_products:
            union = {k: tuple(sorted({v for p in products for v in p[k]})) for k in KNOBS}
            object.__setattr__(self, "choices", {k: union[k] for k in self.choices})

    @property
    def products(self) -> tuple[dict[str, tuple[int, ...]], ...]:
        """The knob lists of each product of the space, the first one given by `choices`."""
        return self._products

    @property
    def size(self) -> int:
        return sum(math.prod(len(p[k]) for k in KNOBS) for p in self._products)

    def __len__(self) -> int:
        return self.size

    def dimensions(self) -> dict[str, int]:
        """How many values each knob takes (the factors of `size` when the space is one product)."""
        return {k: len(self.choices[k]) for k in KNOBS}

    def describe(self) -> str:
        varying = [f"{k}={len(v)}" for k, v in self.choices.items() if len(v) > 1]
        text = f"{self.size} candidates ({' x '.join(varying) or 'one point'})"
        return text if len(self._products) == 1 else f"{text[:-1]}; a union of {len(self._products)} products)"

    def columns(self, start: int = 0, stop: int | None = None) -> dict[str, np.ndarray]:
        """Knob columns (int64) for flat indices [start, stop): the first product, then the others."""
        stop = self.size if stop is None else min(stop, self.size)
        pieces = []
        offset = 0
        for product in self._products:
            size = math.prod(len(product[k]) for k in KNOBS)
            lo, hi = max(start, offset), min(stop, offset + size)
            if lo < hi:
                pieces.append(_product_columns(product, lo - offset, hi - offset))
            offset += size
        if len(pieces) == 1:
            columns = pieces[0]
        else:
            columns = {k: np.concatenate([p[k] for p in pieces]) if pieces else np.zeros(0, dtype=np.int64)
                       for k in KNOBS}
        if self.derive is not None:
            self.derive(columns)
        return columns

    def chunks(self, chunk_size: int = 1 << 16) -> Iterator[dict[str, np.ndarray]]:
        for start in range(0, self.size, chunk_size):
            yield self.columns(start, start + chunk_size)

    def __iter__(self) -> Iterator[TilingCandidate]:
        for cols in self.chunks():
            for row in zip(*(cols[k].tolist() for k in KNOBS)):
                yield TilingCandidate(*row)

    def candidate(self, columns: dict[str, np.ndarray], i: int) -> TilingCandidate:
        return TilingCandidate(*(int(columns[k][i]) for k in KNOBS))


def _product_columns(choices: dict[str, tuple[int, ...]], start: int, stop: int) -> dict[str, np.ndarray]:
    """Knob columns for flat indices [start, stop) of one product; the last knob varies fastest,
    like itertools.product."""
    flat = np.arange(start, stop, dtype=np.int64)
    out: dict[str, np.ndarray] = {}
    for name in reversed(KNOBS):
        values = np.asarray(choices[name], dtype=np.int64)
        out[name] = values[flat % len(values)]
        flat = flat // len(values)
    return {k: out[k] for k in KNOBS}


def candidates_to_columns(candidates: list[TilingCandidate]) -> dict[str, np.ndarray]:
    """The vectorised form of an explicit list of candidates."""
    return {k: np.asarray([getattr(c, k) for c in candidates], dtype=np.int64) for k in KNOBS}
