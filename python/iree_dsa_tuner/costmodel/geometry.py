"""Tile geometry of many candidates at once (numpy columns in, numpy columns out).

Everything here is exact integer bookkeeping of what a candidate's tiles
imply: how many tiles, how many K steps, bytes per DMA step, scratchpad
footprint, MAC-array cycles per step, traffic with re-reads. The funnel and
the DSA event simulator both build on it, so they count the same bytes.

A CPU description runs through the same bookkeeping with its neutral DMA (one
stage, no descriptors; `description._parse_cpu`): its tiles and traffic count as
here, while its step bytes and footprint are not limits (caches spill).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.shape import GemmShape
from ..description import TargetDescription


def ceil_div(a, b):
    return -(-np.asarray(a) // np.asarray(b))


@dataclass
class TileGeometry:
    """Per-candidate arrays (all of the same length)."""

    tm: np.ndarray  # tile extents clamped to the loop they land on
    tn: np.ndarray
    tk: np.ndarray
    tiles_m: np.ndarray
    tiles_n: np.ndarray
    tiles: np.ndarray  # output tiles of the whole problem (batch included)
    k_steps: np.ndarray  # DMA/compute steps per output tile
    lhs_step_bytes: np.ndarray  # one K slice of the A tile
    rhs_step_bytes: np.ndarray  # one K slice of the B tile, INT4 scales included
    out_tile_bytes: np.ndarray
    descriptors_per_step: np.ndarray
    footprint_bytes: np.ndarray  # scratchpad one core needs
    compute_cycles_per_step: np.ndarray  # MAC-array cycles for one K slice of one tile
    traffic_bytes: np.ndarray  # DRAM bytes with re-reads (unpadded)
    unfused_extra_bytes: np.ndarray  # round trip of an unfused consumer
    step_macs: np.ndarray  # useful MACs in one full step (for utilisation)
    # Weight streaming (k_split >= 1; zeros for output-stationary candidates): the cores that
    # split K, the busy cores, the activations a core reads from DRAM once (its 1/teams of its
    # share) and gathers from the other teams over the NoC, and per tile the partial sums it
    # exchanges over the NoC and the vector cycles that add them.
    k_split: np.ndarray | None = None
    busy_cores: np.ndarray | None = None
    resident_bytes: np.ndarray | None = None
    gather_bytes: np.ndarray | None = None
    exchange_bytes: np.ndarray | None = None
    reduce_cycles: np.ndarray | None = None
    # Row bands (tile_m < M): the bands of a team, and per K step the weight slice a core
    # gathers from the other bands over the NoC (it reads only 1/bands of it from DRAM).
    bands: np.ndarray | None = None
    weight_gather_step_bytes: np.ndarray | None = None
    # Waves (bands x split > parallelism): the fields above describe one wave of bands, run this
    # many times in a row, each streaming every weight again; traffic_bytes covers all of them.
    waves: np.ndarray | None = None

    @property
    def step_bytes(self) -> np.ndarray:
        return self.lhs_step_bytes + self.rhs_step_bytes


def gemm_geometry(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray]) -> TileGeometry:
    """The GEMM (and convolution, im2col-style) bookkeeping; `kind.tile_geometry` picks attention's
    flash schedule instead where it applies."""
    n_in, k_in = shape.inner("n"), shape.inner("k")
    # The m tile is a block of the m group: within the innermost loop, or whole inner
    # rows (a conv's output image, GemmShape.split_tile); tm counts its elements (the
    # rows of its im2col A slice: overlapping windows are re-read, no halo reuse).
    tile_m = np.asarray(cols["tile_m"])
    tm = shape.block("m", tile_m) if shape.group_sizes("m") else np.minimum(tile_m, shape.inner("m"))
    tn = np.minimum(cols["tile_n"], n_in)
    tile_k = np.asarray(cols["tile_k"])
    tk = shape.block("k", tile_k) if shape.group_sizes("k") else np.minimum(tile_k, k_in)
    tiles_m = shape.tile_count("m", tile_m) if shape.group_sizes("m") else ceil_div(shape.inner("m"), tm)
    tiles_n = shape.outer("n") * ceil_div(n_in, tn)
    tiles = shape.batch * tiles_m * tiles_n
    k_steps = shape.tile_count("k", tile_k) if shape.group_sizes("k") else ceil_div(k_in, tk)

    qb = cols["quant_block"]
    quantised = qb > 0
    # Per-block scales for INT4 weights: one per (block of K) x column, moved with B.
    scale_step = np.where(quantised, ceil_div(tk, np.maximum(qb, 1)) * tn * desc.scale_bytes, 0)
    lhs_step = tm * tk * shape.lhs_bytes
    rhs_step = tk * tn * shape.rhs_bytes + scale_step
    out_tile = tm * tn * shape.out_bytes
    descriptors = 2 + quantised.astype(np.int64)

    stages = cols["dma_stages"]
    # Operand buffers are multiplied by the stage depth; one accumulator tile
    # and one output staging tile (the DMA-out source) sit beside them.
    footprint = stages * (lhs_step + rhs_step) + tm * tn * desc.accumulator_bytes + out_tile

    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    mac_k = desc.mac_k_for(compute_type)
    vec_n = cols["vec_n"]
    # A step narrower than the array leaves lanes idle; a wider one takes
    # several passes; a tile edge that is not a multiple wastes the remainder.
    compute_cycles = (ceil_div(tm, desc.mac_m) * ceil_div(tn, vec_n) * ceil_div(vec_n, desc.mac_n)
                      * ceil_div(tk, mac_k))

    ob = shape.operand_bytes()
    scale_total = (shape.batch * ceil_div(shape.k, np.maximum(qb, 1)) * shape.n * desc.scale_bytes
                   * quantised)
    # Output-stationary schedule: every (M tile, N tile) pair streams its A rows
    # and B columns over K, so A is read once per N tile and B once per M tile.
    traffic = ob["lhs"] * tiles_n + (ob["rhs"] + scale_total) * tiles_m + ob["out"]
    unfused = np.where((cols["fusion"] == 0) & shape.has_consumer, 2 * ob["out"], 0.0)
    busy = np.minimum(cols["parallelism"], tiles)
    zeros = np.zeros_like(tiles)
    split = np.asarray(cols.get("k_split", zeros))
    resident, gather, exchange, reduce = zeros, zeros, zeros, zeros
    bands, weight_gather, waves = np.ones_like(tiles), zeros, np.ones_like(tiles)
    stream = split > 0
    if stream.any():
        # Weight streaming (the plugin's weight_streaming.py): teams of `split` K shares x
        # `bands` row bands, each core with tm rows and 1/split of K resident, walking its team's
        # N tiles; B read once (the bands of a share gather each slice from each other).
        s = np.maximum(split, 1)
        # As many bands at once as the cores hold teams of s; the rest in later waves.
        all_bands = np.where(stream, ceil_div(shape.inner("m"), tm), 1)
        bands = np.where(stream, np.maximum(1, np.minimum(all_bands, cols["parallelism"] // s)), 1)
        waves = ceil_div(all_bands, bands)
        team = s * bands
        share = ceil_div(shape.inner("k"), s)
        ws_tk = np.minimum(tile_k, share)
        ws_steps = ceil_div(share, ws_tk)
        teams = np.maximum(1, np.minimum(cols["parallelism"] // team, tiles_n))
        # The share of a tile a core reduces and drains: whole rows, or columns of a short tile.
        own = np.where(tm >= s, ceil_div(tm, s) * tn, tm * ceil_div(tn, s))
        partial = tm * tn * desc.accumulator_bytes
        ws_resident = tm * ws_steps * ws_tk * shape.lhs_bytes
        ws_rhs = ws_tk * tn * shape.rhs_bytes + np.where(quantised, ceil_div(ws_tk, np.maximum(qb, 1)) * tn
                                                         * desc.scale_bytes, 0)
        ws_footprint = (stages * ws_rhs + ws_resident + 2 * partial
                        + np.where(s > 1, 2 * own * desc.accumulator_bytes, out_tile - partial))
        lanes = int((desc.extras.get("vector_unit", {}) or {}).get("lanes", desc.mac_n))
        tk = np.where(stream, ws_tk, tk)
        k_steps = np.where(stream, ws_steps, k_steps)
        tiles = np.where(stream, tiles_n * team, tiles)
        busy = np.where(stream, teams * team, busy)
        lhs_step = np.where(stream, 0, lhs_step)
        rhs_step = np.where(stream, ws_rhs / bands, rhs_step)
        weight_gather = np.where(stream & (bands > 1), 2 * (bands - 1) * ws_rhs / bands, 0)
        out_tile = np.where(stream, own * shape.out_bytes, out_tile)
        footprint = np.where(stream, ws_footprint, footprint)
        descriptors = np.where(stream, 1 + quantised.astype(np.int64) + (bands > 1), descriptors)
        compute_cycles = np.where(stream, ceil_div(tm, desc.mac_m) * ceil_div(tn, vec_n) * ceil_div(vec_n, desc.mac_n)
                                  * ceil_div(ws_tk, mac_k), compute_cycles)
        # The teams gather their activations over the NoC when the busy cores' ports have room
        # for it (at least twice the DRAM bandwidth); otherwise every team reads them.
        gathers = (teams > 1) & (teams * team * desc.dma_port_bytes_per_s >= 2 * desc.dram_bytes_per_s)
        copies = np.where(gathers, 1, teams)
        traffic = np.where(stream, ob["lhs"] * copies + (ob["rhs"] + scale_total) * waves + ob["out"], traffic)
        resident = np.where(stream, np.where(gathers, ws_resident / teams, ws_resident), 0)
        gather = np.where(stream & gathers, 2 * (teams - 1) * ws_resident / teams, 0)
        exchange = np.where(stream, 2 * (s - 1) * partial / s, 0)
        reduce = np.where(stream, ceil_div((s - 1) * own, lanes), 0)
    return TileGeometry(
        tm=tm, tn=tn, tk=tk, tiles_m=tiles_m, tiles_n=tiles_n, tiles=tiles, k_steps=k_steps,
        lhs_step_bytes=lhs_step, rhs_step_bytes=rhs_step, out_tile_bytes=out_tile,
        descriptors_per_step=descriptors, footprint_bytes=footprint,
        compute_cycles_per_step=compute_cycles, traffic_bytes=traffic + unfused,
        unfused_extra_bytes=unfused, step_macs=tm * tn * tk,
        k_split=split, busy_cores=busy, resident_bytes=resident, gather_bytes=gather, exchange_bytes=exchange,
        reduce_cycles=reduce, bands=bands, weight_gather_step_bytes=weight_gather, waves=waves,
    )
