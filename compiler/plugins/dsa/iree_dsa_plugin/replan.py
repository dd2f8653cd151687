"""L2 schedule moves the DSA's L1 space lacks, and the static reading that ranks them.

L1's space (space.py) offers powers of two and the full extent per tile, K splits and row bands
from the same ladders. On shapes whose extents are not powers of two that leaves time on the
table, because the simulator charges an edge tile or a last K slice as full (the DMA zero-pads
it, the array computes the padding):

- a K share such as OpenVLA's 11008 / 8 = 1376 (32 x 43) is either one slice, whose only INT4
  block that divides it is 32 (scales twice as many as at 64, four times as at 128), or slices
  of a power of two that pad it (512: 3 x 512 = 1536, 11.6% more weight bytes read);
- M = 276 in bands of 256 (the ladder's) reads and exchanges 512 rows' worth, not 276.

`replans` re-plans the schedule as a whole instead of one knob at a time: for each row band
(M cut into b balanced bands, each rounded up to whole MAC-array rows) and K split s (b x s cores
a team), the K slice that pads the core's share least for each INT4 block (or none), the N tile
(powers of two and exact divisors of N), and the DMA stages that fit; with the output-stationary
schedule the same for its M, N and K tiles. Every move is a config the DSA plugin already reads
(`iree_dsa.*` keys beside llvm-cpu tiles); only the values are off L1's ladders, so real
iree-compile compiles the same dispatch and the L2 gate checks its numerics.

`static_estimate_s` ranks them: the schedule's own bytes and issues (`eventsim.workload_for`),
read without replaying a single event: the launch, then the largest of the busiest core's MAC
issues, the DRAM bytes every descriptor occupies (bursts and page opens) over DRAM, and the
busiest core's port bytes (DRAM streams, NoC gathers and exchanges) over its port (with one DMA
buffer, port and MAC time add up: a slice's loads wait for the previous slice's issues). On the 2,012
legal re-plans of OpenVLA's 276 x 4096 x 11008 prefill GEMM its rank order agrees with the event
simulator's (Spearman 0.92) and its best eight hold the simulator's best; the funnel's estimate,
which has no row bands or NoC traffic, does not (0.0).
"""

from __future__ import annotations

import dataclasses

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import gemm_shape
from iree_dsa_tuner.description import TargetDescription

from .functional import ScratchpadOverflow

# How many K slices per core share a re-plan may cut (more are short DMA runs).
MAX_K_STEPS = 16
# Row bands a re-plan may cut M into (each at least one MAC array of rows).
MAX_BANDS = 8


def n_tiles(extent: int, multiple: int, around: int) -> list[int]:
    """N tiles near `around` (a quarter to four times it): powers of two and exact divisors of
    `extent` that are multiples of `multiple`, and `extent` itself when it is that near."""
    lo, hi = max(multiple, around // 4), min(extent, around * 4)
    values = {1 << i for i in range(extent.bit_length()) if lo <= (1 << i) <= hi}
    values |= {d for d in range(multiple, hi + 1, multiple) if d >= lo and extent % d == 0}
    if lo <= extent <= hi:
        values.add(extent)
    return sorted(values)


def k_slices(share: int, block: int, depth: int) -> list[int]:
    """K slices for a share of `share` elements: for each slice count 1..MAX_K_STEPS the
    smallest slice that covers the share, rounded up to the INT4 `block` (or the MAC depth).
    A slice is never above the share (the simulator would clip it, and a clipped slice must
    still be a multiple of the block)."""
    unit = max(block, depth, 1)
    out = []
    for steps in range(1, MAX_K_STEPS + 1):
        tk = -(-(-(-share // steps)) // unit) * unit
        if tk <= share and tk not in out:
            out.append(tk)
    return out


def balanced_rows(m: int, bands: int, mac_m: int) -> int:
    if bands == 1:
        return m
    rows = -(-m // bands)
    return -(-rows // mac_m) * mac_m


def _vector_step(desc: TargetDescription, shape, c: TilingCandidate) -> TilingCandidate:
    """vec_m and vec_k as the space derives them (space.dsa_vector_step)."""
    import numpy as np

    from .space import dsa_vector_step

    cols = {k: np.array([getattr(c, k)], dtype=np.int64) for k in ("tile_m", "tile_n", "tile_k", "vec_n")}
    dsa_vector_step(cols, desc, shape)
    return dataclasses.replace(c, vec_m=int(cols["vec_m"][0]), vec_k=int(cols["vec_k"][0]))


def _kind(start: TilingCandidate, c: TilingCandidate) -> str:
    """What a re-plan changed, most structural first (a playbook's kind)."""
    if (c.k_split > 0) != (start.k_split > 0):
        return "streaming"
    if c.tile_m != start.tile_m and c.k_split:
        return "balanced-bands"
    if c.k_split != start.k_split:
        return "k-split"
    if c.tile_k != start.tile_k or c.quant_block != start.quant_block:
        return "k-slices"
    if c.tile_m != start.tile_m or c.tile_n != start.tile_n:
        return "exact-tiles"
    return "stages"


def replans(desc: TargetDescription, problem, start: TilingCandidate) -> list[tuple[str, TilingCandidate]]:
    """(kind, candidate) re-plans of `start`'s schedule for a GEMM (the module docstring); none
    for attention or a shape the DSA's GEMM space does not read."""
    if getattr(problem, "kind", "") == "attention":
        return []
    try:
        shape = gemm_shape(problem)
    except (ValueError, KeyError, TypeError):
        return []
    from .space import _quant_blocks

    m, n, k = shape.inner("m"), shape.inner("n"), shape.inner("k")
    depth = desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type))
    blocks = [b for b in _quant_blocks(shape, desc)]
    tiles_n = n_tiles(n, min(desc.vector_widths), min(start.tile_n, n))
    plain = shape.kind == "contraction" and len(shape.group_sizes("m")) <= 1 and len(shape.group_sizes("k")) <= 1
    plans: list[tuple[int, int]] = []  # (tile_m, k_split)
    streams = plain and shape.batch == 1 and shape.outer("m") == 1 and shape.outer("k") == 1
    for bands in range(1, MAX_BANDS + 1):
        rows = balanced_rows(m, bands, desc.mac_m)
        if bands > 1 and rows >= m:
            continue
        if streams:
            s = 1
            while s * bands <= desc.cores:
                plans.append((rows, s))
                s *= 2
        if plain:
            plans.append((rows, 0))  # output-stationary, M tiles of balanced height
    out: dict[TilingCandidate, str] = {}
    for rows, split in plans:
        share = -(-k // split) if split else k
        for block in blocks:
            for tk in k_slices(share, block, depth):
                for tn in tiles_n:
                    # The deepest DMA buffering that fits: the simulator rewards overlap, and a
                    # shallower variant is the same traffic.
                    for stages in sorted(desc.stage_depths, reverse=True):
                        c = dataclasses.replace(start, tile_m=rows, tile_n=tn, tile_k=tk, k_split=split,
                                                quant_block=block, dma_stages=stages,
                                                parallelism=desc.cores if split else start.parallelism)
                        c = _vector_step(desc, shape, c)
                        if c.vec_k < 1 or c == start or c in out:
                            break
                        if fits(desc, problem, c):
                            out[c] = _kind(start, c)
                            break
    return [(kind, c) for c, kind in out.items()]


def fits(desc: TargetDescription, problem, candidate: TilingCandidate) -> bool:
    """Whether the schedule can run: its buffers fit a core's scratchpad and the DSA's
    schedules can express it."""
    from .eventsim import workload_for

    try:
        workload_for(desc, problem, candidate)
    except (ScratchpadOverflow, ValueError):
        return False
    return True


def static_estimate_s(desc: TargetDescription, problem, candidate: TilingCandidate) -> float | None:
    """Seconds the schedule's own traffic and issues take at best (the module docstring), or
    None when it cannot run (its buffers overflow the scratchpad, or the schedule cannot
    express it). Not a simulation: no event is replayed, so DMA latency, fill and drain, and
    phases that cannot overlap are not counted."""
    from .eventsim import workload_for

    try:
        _, w = workload_for(desc, problem, candidate)
    except (ScratchpadOverflow, ValueError):
        return None
    per_core = -(-w.tiles // w.busy_cores)
    tile_loads = tuple(getattr(w, "tile_transfers", ()))

    def dram(transfers) -> float:
        return sum(t.dram_cost for t in transfers if not t.noc)

    def port(transfers) -> float:
        return sum(t.payload for t in transfers)

    exchange = w.exchange.payload if w.exchange is not None else 0.0
    dram_bytes = (w.tiles * (w.k_steps * dram(w.step_transfers) + dram(tile_loads) + w.drain.dram_cost)
                  + w.busy_cores * w.k_steps * dram(w.first_tile_transfers))
    port_bytes = (per_core * (w.k_steps * port(w.step_transfers) + port(tile_loads) + w.drain.payload + exchange)
                  + w.k_steps * port(w.first_tile_transfers))
    compute = per_core * w.k_steps * w.step_cycles
    port_cycles = port_bytes / w.port_bytes_per_cycle
    # One buffer per operand: a slice's loads wait for the previous slice's MACs (no overlap).
    cycles = max(dram_bytes / w.dram_bytes_per_cycle, port_cycles + compute if w.stages == 1 else
                 max(port_cycles, compute))
    return desc.launch_s + w.waves * cycles / desc.clock_hz


def physical_floor_s(desc: TargetDescription, problem) -> float:
    """Seconds no schedule of `problem` can beat on the simulated part, whatever its knobs.

    The roofline bound (workload.roofline_bound_seconds: every operand over DRAM once, or every
    MAC at peak) leaves out three things the simulator charges every schedule:
    - the launch (`launch.dispatch_overhead_us`): the dispatch starts after it;
    - the DRAM pages: a descriptor occupies DRAM for its bytes in whole bursts plus one page
      opening per page it touches (workload.dram_cost), so N bytes occupy at least
      N x (1 + page_open_bytes / page_bytes) (dsa-e1: 1 + 128 / 2048, 6.25% more);
    - an INT4 weight's block scales (`scale_bytes` per block per column), at the largest
      block the schedule may use.
    So: the launch, then the larger of every MAC at the part's peak and the compulsory bytes
    (scales included) at that page-rounded occupancy over DRAM. Nothing here is a schedule's
    choice: it is a floor, not an estimate.
    """
    from .space import _quant_blocks
    from .workload import simulator_params

    if getattr(problem, "kind", "") == "attention":
        from .attention import attention_shape

        shape = attention_shape(problem)
    else:
        shape = gemm_shape(problem)
    params = simulator_params(desc)
    moved = shape.compulsory_bytes
    blocks = [b for b in _quant_blocks(shape, desc) if b] if shape.kind != "attention" else []
    if blocks:
        moved += shape.batch * -(-shape.k // max(blocks)) * shape.n * desc.scale_bytes
    occupied = moved * (1 + params.dram_page_open_bytes / params.dram_page_bytes)
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    macs_per_s = desc.cores * desc.mac_m * desc.mac_n * desc.mac_k_for(compute_type) * desc.clock_hz
    return desc.launch_s + max(shape.macs / macs_per_s, occupied / desc.dram_bytes_per_s)


__all__ = ["k_slices", "physical_floor_s", "replans", "static_estimate_s"]
