"""The DSA's candidate space: per-core tiles x parallelism x vector width x DMA stages x fusion x quant block."""

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


def dsa_space(problem, desc: TargetDescription) -> CandidateSpace:
    """Per-core tile M/N/K x parallelism x vector width x DMA stages x fusion x quant block."""
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
    }
    return CandidateSpace(shape, desc.name, choices,
                          derive=lambda cols: dsa_vector_step(cols, desc, shape))
