"""Candidate <-> llvm-cpu tile lists, shared by every target that lowers through llvm-cpu.

Per loop of the root op (IREE's loop order), by GEMM role:
- batch loops: distribution 1, vector 1 (one batch element per tile);
- n loops: the innermost loop of the group gets the tile, outer ones 1;
- m loops: the group tile is split over the group's loops, inner first
  (`GemmShape.split_tile`): a tile up to the innermost extent stays on the
  innermost loop (outer ones 1), a multiple of it covers whole inner rows. For a
  convolution (m = batch, output height, output width) tile_m = r * OW is an
  (r x OW) block of the output image, at both the distribution and the vector
  level (IREE 3.13's ConvTileAndDecomposeExpert compiles an OH tile > 1 at both,
  docs/CONV.md). A contraction's m tiles never exceed its innermost m loop, so
  it keeps the innermost-only lists;
- k loops: distribution 0 and vector_common_parallel 0 (llvm-cpu tiles
  reductions only at the vector_reduction level); the innermost gets vec_k,
  outer ones (a conv's filter window) 1.
"""

from __future__ import annotations

from ..core.shape import GemmShape
from ..core.config import CompilationConfig, ConfigError


def tile_lists(shape: GemmShape, tile_m: int, tile_n: int, vec_m: int, vec_n: int,
               vec_k: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    distribution, parallel, reduction = [], [], []
    m_loops = [i for i, r in enumerate(shape.loop_roles) if r == "m"]
    # The m group's block, per loop; the vector block never exceeds it.
    m_dist = dict(zip(m_loops, shape.split_tile("m", tile_m)))
    m_vec = dict(zip(m_loops, shape.split_tile("m", min(vec_m, tile_m))))
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if role == "k":
            distribution.append(0)
            parallel.append(0)
            reduction.append(vec_k if inner else 1)
        elif role == "m":
            distribution.append(m_dist[i])
            parallel.append(m_vec[i])
            reduction.append(0)
        elif role == "batch" or not inner:
            distribution.append(1)
            parallel.append(1)
            reduction.append(0)
        else:
            distribution.append(tile_n)
            parallel.append(min(vec_n, tile_n))
            reduction.append(0)
    return tuple(distribution), tuple(parallel), tuple(reduction)


def group_tiles(shape: GemmShape, config: CompilationConfig) -> dict[str, int]:
    """Inverse of `tile_lists`: the m group's block (product over its loops), the
    innermost n/k loops' tiles (1 where absent).

    A distribution entry 0 (IREE: not tiled) reads as the loop's size, a vector entry 0
    as the loop's distribution tile. IREE's own configs may block the m group in a way
    `tile_lists` would not (e.g. two rows of half the width); they read as a block of
    the same number of elements.
    """
    n_loops = len(shape.loop_roles)
    for level in ("distribution", "vector_common_parallel", "vector_reduction"):
        if len(getattr(config, level)) != n_loops:
            raise ConfigError(f"{level} has {len(getattr(config, level))} entries but the op has {n_loops} loops")
    out = {"tile_m": 1, "tile_n": 1, "vec_m": 1, "vec_n": 1, "vec_k": 1}
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if role == "m":
            dist = config.distribution[i] or shape.loop_sizes[i]
            out["tile_m"] *= dist
            out["vec_m"] *= config.vector_common_parallel[i] or dist
        elif not inner:
            continue
        elif role == "n":
            out["tile_n"] = config.distribution[i] or shape.loop_sizes[i]
            out["vec_n"] = config.vector_common_parallel[i]
        elif role == "k":
            out["vec_k"] = config.vector_reduction[i]
    return out


def loop_types(shape: GemmShape) -> tuple[str, ...]:
    return tuple("reduction" if r == "k" else "parallel" for r in shape.loop_roles)


# ---- attention (iree_linalg_ext.online_attention, llvm-cpu's LinalgExtTileAndVectorize) ----
#
# IREE 3.13 turns attention into online_attention before a spec is applied, and its CPU
# pipeline reads three levels over the loops (batch, m, k1, k2, n), by role:
# - distribution: batch 1, m the query tile, n the value-width tile, k1/k2 0;
# - vector_common_parallel: batch 1, m / n the register tile, k1/k2 0;
# - vector_reduction: k1 the head-width step (0 = whole), k2 the KV block, others 0.
# The candidate carries the KV block in `vec_k` and the head-width step in `tile_k`.
ATTENTION_PIPELINE = "LinalgExtTileAndVectorize"


def attention_tile_lists(shape: GemmShape, tile_m: int, tile_n: int, vec_m: int, vec_n: int, vec_k: int,
                         head_step: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    # The m group may span several loops: heads that share K and V are m loops (IREE's
    # attention detail puts a dim that K and V do not index with the queries). A query tile
    # above the inner extent takes whole inner rows of several heads (`split_tile`).
    m_loops = [i for i, r in enumerate(shape.loop_roles) if r == "m"]
    m_dist = dict(zip(m_loops, shape.split_tile("m", tile_m)))
    distribution, parallel, reduction = [], [], []
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if role in ("k", "k1"):
            distribution.append(0)
            parallel.append(0)
            step = vec_k if role == "k" else (0 if head_step >= shape.head_dim else head_step)
            reduction.append(step if inner else 1)
        elif role == "m":
            distribution.append(int(m_dist[i]))
            parallel.append(min(vec_m, int(m_dist[i])) if inner else 1)
            reduction.append(0)
        elif role == "batch" or not inner:
            distribution.append(1)
            parallel.append(1)
            reduction.append(0)
        else:
            distribution.append(tile_n)
            parallel.append(min(vec_n, tile_n))
            reduction.append(0)
    return tuple(distribution), tuple(parallel), tuple(reduction)


def attention_group_tiles(shape: GemmShape, config: CompilationConfig) -> dict[str, int]:
    """Inverse of `attention_tile_lists` (an absent m loop, as in decode, reads as 1)."""
    out = group_tiles(shape, config)
    out["tile_k"] = shape.head_dim
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if inner and role == "k1":
            out["tile_k"] = config.vector_reduction[i] or shape.head_dim
    return out


def attention_loop_types(shape: GemmShape) -> tuple[str, ...]:
    return tuple("reduction" if r in ("k", "k1") else "parallel" for r in shape.loop_roles)


# ---- softmax (linalg.softmax, decomposed by IREE; DoubleTilingExpert on its root) ----------
#
# The root is the sum of exp(x - max) over the softmax dimension; its loops are the softmax
# operand's. By role (`host.target.softmax_shape`: parallel loops "m", the softmax dimension "k"):
# - distribution: the row tile split over the parallel loops, inner first (whole inner rows
#   for tiles above the innermost extent); 0 for the reduction loop (never split);
# - vector_common_parallel: the vector rows on the innermost parallel loop (within its
#   distribution tile), 1 on the outer ones, 0 for the reduction loop;
# - vector_reduction: the vector step on the reduction loop, 0 elsewhere.


def softmax_tile_lists(shape: GemmShape, tile_m: int, vec_m: int,
                       vec_k: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    m_loops = [i for i, r in enumerate(shape.loop_roles) if r == "m"]
    m_dist = dict(zip(m_loops, shape.split_tile("m", tile_m)))
    distribution, parallel, reduction = [], [], []
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if role == "k":
            distribution.append(0)
            parallel.append(0)
            reduction.append(vec_k)
        else:
            distribution.append(int(m_dist[i]))
            parallel.append(min(vec_m, int(m_dist[i])) if inner else 1)
            reduction.append(0)
    return tuple(distribution), tuple(parallel), tuple(reduction)


def softmax_group_tiles(shape: GemmShape, config: CompilationConfig) -> dict[str, int]:
    """Inverse of `softmax_tile_lists`: the row tile (product over the parallel loops), the
    vector rows of the innermost parallel loop and the reduction step. As in `group_tiles`,
    a distribution 0 reads as the loop's size and a vector 0 as the loop's distribution tile."""
    n_loops = len(shape.loop_roles)
    for level in ("distribution", "vector_common_parallel", "vector_reduction"):
        if len(getattr(config, level)) != n_loops:
            raise ConfigError(f"{level} has {len(getattr(config, level))} entries but the op has {n_loops} loops")
    out = {"tile_m": 1, "vec_m": 1, "vec_k": 1}
    for i, (role, inner) in enumerate(zip(shape.loop_roles, shape.loop_is_inner)):
        if role == "k":
            out["vec_k"] = config.vector_reduction[i] or shape.loop_sizes[i]
            continue
        dist = config.distribution[i] or shape.loop_sizes[i]
        out["tile_m"] *= dist
        if inner:
            out["vec_m"] = config.vector_common_parallel[i] or dist
    return out


# ---- mmt4d (data tiling's packed GEMM, Mmt4dTilingExpert; docs/DATA_TILING.md) --------------
#
# `linalg.mmt4d` loops are (M1, N1, K1, M0, N0, K0), `linalg.batch_mmt4d`'s (B, M1, ..., K0):
# outer tile counts, then the inner tile IREE's encoding fixed before any spec runs. Its
# pipeline tiles and distributes with `distribution`, then hands each inner tile to the mmt4d
# ukernel, which takes the whole K. So only the distribution over M1 and N1 is a choice;
# the other levels are IREE's own, always: one inner tile per vector step over the whole K0.
# `host.target.mmt4d_shape` gives the loops roles m, n, k (outer) and m0, n0, k0 (inner).
MMT4D_PIPELINE = "Mmt4dTilingExpert"


def mmt4d_loop_types(shape: GemmShape) -> tuple[str, ...]:
    return tuple("reduction" if r in ("k", "k0") else "parallel" for r in shape.loop_roles)


def mmt4d_tile_lists(shape: GemmShape, tile_m: int,
                     tile_n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """`tile_m` / `tile_n`: the M1 / N1 tiles (in inner tiles) of one workgroup."""
    distribution, parallel, reduction = [], [], []
    for role, size in zip(shape.loop_roles, shape.loop_sizes):
        distribution.append({"m": tile_m, "n": tile_n, "batch": 1}.get(role, 0))
        parallel.append({"batch": 1, "m": 1, "n": 1, "m0": size, "n0": size}.get(role, 0))
        reduction.append({"k": 1, "k0": size}.get(role, 0))
    return tuple(distribution), tuple(parallel), tuple(reduction)


def mmt4d_group_tiles(shape: GemmShape, config: CompilationConfig) -> dict[str, int]:
    """Inverse of `mmt4d_tile_lists`: the M1 and N1 distribution tiles (0 reads as whole).
    Any other vector level is refused: it is not one `mmt4d_tile_lists` can write, and off
    IREE's own it ran 11-17x slower without the ukernel (docs/DATA_TILING.md 3)."""
    n_loops = len(shape.loop_roles)
    for level in ("distribution", "vector_common_parallel", "vector_reduction"):
        if len(getattr(config, level)) != n_loops:
            raise ConfigError(f"{level} has {len(getattr(config, level))} entries but the op has {n_loops} loops")
    out = {"tile_m": 1, "tile_n": 1}
    for i, (role, size) in enumerate(zip(shape.loop_roles, shape.loop_sizes)):
        if role in ("m", "n"):
            out["tile_" + role] = config.distribution[i] or size
    _, parallel, reduction = mmt4d_tile_lists(shape, out["tile_m"], out["tile_n"])
    if tuple(config.vector_common_parallel) != parallel or tuple(config.vector_reduction) != reduction:
        raise ConfigError(f"an mmt4d's vector levels must be one inner tile over the whole K0 ({list(parallel)} / "
                          f"{list(reduction)}); got {list(config.vector_common_parallel)} / "
                          f"{list(config.vector_reduction)}")
    return out
