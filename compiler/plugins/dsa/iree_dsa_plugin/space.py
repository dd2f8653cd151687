"""The DSA's candidate space: per-core tiles x parallelism x vector width x DMA stages x fusion x quant block
x schedule (output-stationary, or weight-streaming with its K split)."""

from __future__ import annotations

import numpy as np

from iree_dsa_tuner.core.shape import GemmShape, gemm_shape
from iree_dsa_tuner.space.space import CandidateSpace, group_ladder, tile_ladder
from iree_dsa_tuner.description import TargetDescription


def _floor_pow2(x: np.ndarray) -> np.ndarray:
    """Largest power of two <= x, elementwise (0 where x < 1)."""
    x = np.asarray(x, dtype=np.int64)
    out = np.zeros_like(x)
    positive = x >= 1
    out[positive] = 1 << (np.log2(x[positive]).astype(np.int64))
    # log2 of exact powers can land a hair low in floating point; fix up.
    too_small = positive & (out * 2 <= x)
    out[too_small] *= 2
    return out


def dsa_vector_step(columns: dict[str, np.ndarray], desc: TargetDescription, shape: GemmShape) -> None:
    """Derive the IREE vector tiles of a DSA candidate from its knobs.

    vec_m is the MAC array's row count (or the tile, if smaller); vec_n is the
    vector-width knob; vec_k is the array's reduction depth at the problem's
    compute type, halved until llvm-cpu's vector-size limit holds, because the
    same config must still compile on the host path. 0 marks "cannot fit".
    """
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    vec_m = np.minimum(columns["tile_m"], desc.mac_m)
    vec_n_eff = np.minimum(columns["vec_n"], columns["tile_n"])
    vec_k = np.minimum(columns["tile_k"], desc.mac_k_for(compute_type))
    limit = (desc.max_vector_elements - 1) // np.maximum(vec_m * vec_n_eff, 1)
    vec_k = np.minimum(_floor_pow2(vec_k), _floor_pow2(limit))
    columns["vec_m"] = vec_m
    columns["vec_k"] = vec_k


def _quant_blocks(shape: GemmShape, desc: TargetDescription) -> tuple[int, ...]:
    """INT4 scale blocks the DSA may use: a real model's blocks must divide its quantiser's
    group (each block then sits in one group; its scale is the group's, repeated)."""
    if not shape.quantised:
        return (0,)
    blocks = tuple(b for b in desc.quant_block_sizes if not shape.quant_group or shape.quant_group % b == 0)
    return blocks or (0,)


# K splits a weight-streaming schedule may take, from the smallest whose resident activations
# could fit a core: enough to keep cores busy on narrow N, not so many that the space balloons.
K_SPLIT_CHOICES = 4


def k_splits(shape: GemmShape, desc: TargetDescription, rows: int | None = None,
             waves: bool = False) -> tuple[int, ...]:
    """The K splits of the weight-streaming schedules the space offers: for a plain batch-1
    GEMM whose activations (`rows`, by default the whole M, x K / s) can sit in a core's
    scratchpad, powers of two up to the cores left for them (docs/DSA_TARGET.md); none for
    anything else. With `waves` the bands take turns on all the cores (weight_streaming.py)."""
    if shape.kind != "contraction" or shape.batch != 1 or shape.outer("m") != 1 or shape.outer("k") != 1:
        return ()
    m = shape.inner("m")
    rows = m if rows is None else rows
    cores = desc.cores if waves else desc.cores // -(-m // rows)  # the row bands share the cores
    # Three quarters of the scratchpad for the resident panel leave room for the weight stream
    # (seven eighths in waves, where every byte of panel saves a wave; the funnel checks the fit).
    panel = rows * shape.inner("k") * shape.lhs_bytes
    share = 7 / 8 if waves else 3 / 4
    smallest = 1
    while smallest <= cores and panel / smallest > desc.scratchpad_bytes * share:
        smallest *= 2
    splits = []
    s = smallest
    while s <= cores and len(splits) < K_SPLIT_CHOICES:
        splits.append(s)
        s *= 2
    return tuple(splits)


def row_bands(shape: GemmShape, desc: TargetDescription, count: int) -> tuple[int, ...]:
    """Band heights a weight-streaming schedule may split M into: only where a whole-M
    accumulator and its staging buffer would leave N tiles narrower than the DMA's efficient
    run (`dma.min_useful_bytes` of output per row); from the ladder below M, at least one MAC
    array of rows, and no more bands than cores."""
    m = shape.inner("m")
    widest = desc.scratchpad_bytes // (2 * m * desc.accumulator_bytes)
    if widest * shape.out_bytes >= desc.min_dma_bytes or widest >= shape.inner("n"):
        return ()
    return tuple(r for r in tile_ladder(m, count) if desc.mac_m <= r < m and -(-m // r) <= desc.cores)


# Band counts a schedule in waves may split M into: even waves come from band counts that are
# multiples of what one wave holds, which is not known before the K split is.
WAVE_BAND_COUNTS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)


def wave_rows(shape: GemmShape, desc: TargetDescription) -> tuple[int, ...]:
    """Band heights for weight streaming in waves: M cut into WAVE_BAND_COUNTS bands, each
    rounded up to whole MAC-array rows (the last band the shorter), at least one array of rows."""
    m = shape.inner("m")
    rows = set()
    for bands in WAVE_BAND_COUNTS:
        r = -(-m // bands)
        r = -(-r // desc.mac_m) * desc.mac_m
        if desc.mac_m <= r < m:
            rows.add(r)
    return tuple(sorted(rows, reverse=True))


def dsa_space(problem, desc: TargetDescription) -> CandidateSpace:
    """Per-core tile M/N/K x parallelism x vector width x DMA stages x fusion x quant block x schedule."""
    shape = gemm_shape(problem)
    count = desc.tile_choices
    choices = {
        "tile_m": group_ladder(shape, "m", count),  # a conv's: whole output rows too
        "tile_n": tile_ladder(shape.inner("n"), count),
        "tile_k": group_ladder(shape, "k", count),  # a conv's: whole filter rows too
        "vec_m": (0,),  # derived
        "vec_n": desc.vector_widths,
        "vec_k": (0,),  # derived
        "parallelism": desc.parallelism(),
        "dma_stages": desc.stage_depths,
        "fusion": desc.fusion if shape.has_consumer else (0,),
        "quant_block": _quant_blocks(shape, desc),
        "k_split": (0,),  # output-stationary
    }
    # Weight streaming: the whole M (or a band of it) resident, N tiles whose accumulator and
    # staging buffer fit beside it, K steps within a core's share of K, and at least as many
    # cores as the team (K split x bands).
    streaming = []
    for rows in (shape.inner("m"),) + row_bands(shape, desc, count):
        n_cap = desc.scratchpad_bytes // (2 * rows * desc.accumulator_bytes)
        n_tiles = tile_ladder(shape.inner("n"), count) if shape.inner("n") <= n_cap else \
            tile_ladder(1 << (max(n_cap, 1).bit_length() - 1), count)
        bands = -(-shape.inner("m") // rows)
        streaming += [{"k_split": (s,), "tile_m": (rows,), "tile_n": n_tiles,
                       "tile_k": tile_ladder(-(-shape.inner("k") // s), count),
                       "parallelism": tuple(p for p in choices["parallelism"] if p >= s * bands)}
                      for s in k_splits(shape, desc, rows)]
    streaming = [p for p in streaming if p["parallelism"]]
    if not streaming:
        # No wave holds every row's activations (pi0's prefix down projection: 816 x 16384 INT8,
        # 13.4 MB against 8 MiB of scratchpad): row bands in waves, each streaming the weights
        # again. Offered only here, so a GEMM that streams in one wave keeps the space it had.
        for rows in wave_rows(shape, desc):
            n_cap = desc.scratchpad_bytes // (2 * rows * desc.accumulator_bytes)
            n_tiles = tile_ladder(min(shape.inner("n"), 1 << (max(n_cap, 1).bit_length() - 1)), count)
            streaming += [{"k_split": (s,), "tile_m": (rows,), "tile_n": n_tiles,
                           "tile_k": tile_ladder(-(-shape.inner("k") // s), count),
                           "parallelism": tuple(p for p in choices["parallelism"] if p >= s)}
                          for s in k_splits(shape, desc, rows, waves=True)]
    streaming = tuple(p for p in streaming if p["parallelism"])
    return CandidateSpace(shape, desc.name, choices, derive=lambda cols: dsa_vector_step(cols, desc, shape),
                          extra_products=streaming)
