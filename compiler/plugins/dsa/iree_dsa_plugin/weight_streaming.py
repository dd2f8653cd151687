"""The weight-streaming schedule on the DSA: activations resident, every weight read once.

At batch 1 with tens to a few hundred tokens a GEMM's weights dwarf its activations, and the
output-stationary schedule (`workload.build_workload`) pays for re-reading B per M tile and A per
N tile. A candidate with `k_split = s >= 1` runs this schedule instead:

- the busy cores form teams of s; a team owns whole-M output tiles (all M rows x tn columns),
  dealt round-robin over the N tiles; core i of a team reduces the i-th 1/s share of K;
- a core keeps its activations, M x its K share, resident in the scratchpad: they arrive once,
  slice by slice beside the weights of its first tile, and are never loaded again. When the busy
  cores' ports have room (together at least twice the DRAM bandwidth), the teams' cores that need
  the same share read 1/teams of it each from DRAM and all-gather the rest core to core over the
  NoC (a ring: 2 (teams - 1) / teams of the slice through each port), so the activations cross
  DRAM once; otherwise every team reads them;
- every tile streams only its weights (and INT4 scales) K slice by K slice through `dma_stages`
  buffers, so each weight byte crosses DRAM once in the whole dispatch. The weights are read in
  the order they stream: a DSA compiler lays constant weights out tile by tile when it builds
  the model (as IREE's data tiling packs them for mmt4d on a CPU), so one slice is one
  contiguous run, whatever the model's [K, N] or [N, K] layout;
- with s > 1 a tile ends in a ring reduce-scatter over the NoC: a core owns tm / s rows of the
  tile (tn / s columns of its rows when it has fewer rows than s), sends the s - 1 row shares of its partial sums it does not own and receives s - 1 shares
  of its own (2 (s - 1) / s x tm x tn x accumulator bytes through its port, no DRAM; one share
  in flight, so one share of receive buffer), adds the received shares into its own rows' buffer
  on the vector unit, and drains them. The staging buffer is free once the partials have left,
  so the next tile's exchange overlaps this tile's drain.

The K split is what keeps cores busy when N alone has too few tiles, and what makes a long K
fit: the resident panel is M x K / s.

Row bands (`tile_m < M`): when a whole-M accumulator would cap the N tile below what a DMA moves
efficiently (816 tokens x 4-byte sums leave 80 columns in 512 KiB), the team also splits M into
b = ceil(M / tile_m) bands: b x s cores, core (band, share) holding tile_m rows x K / s resident.
The b cores of one share need the same weight slice: each reads 1/b of it from DRAM and the ring
all-gathers the rest over the NoC (2 (b - 1) / b of the slice through each port), so a weight
byte still crosses DRAM once, at the price of port traffic. Edge bands are charged as full.

Waves: when the bands need more cores than the candidate has (s x b > parallelism: the
activations do not fit the scratchpads all at once, pi0's prefix MLP down projection holds 816 x
16384 INT8 activations, 13.4 MB against 8 MiB of scratchpad), the bands run in w sequential
waves of parallelism // s bands each, one after the other on the same cores: each wave loads
its rows' activations and streams every weight again, so a weight byte crosses DRAM w times.
The simulator runs one wave and charges it w times (the last, partial wave as full).
"""

from __future__ import annotations

import math

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import GemmShape
from iree_dsa_tuner.description import TargetDescription

from .attention import vector_unit
from .workload import Transfer, Workload, _block, check_scratchpad, dram_cost, simulator_params


def _ceil(a: float, b: float) -> int:
    return -(-int(a) // int(b))


def own_share(tm: int, tn: int, split: int) -> tuple[int, int]:
    """(rows, columns) of a tile one core of a team of `split` reduces and drains: tm / split
    whole rows, or tn / split columns of every row when the tile has fewer rows than cores."""
    if tm >= split:
        return _ceil(tm, split), tn
    return tm, _ceil(tn, split)


def wave_bands(bands: int, split: int, parallelism: int) -> tuple[int, int]:
    """(row bands per wave, waves): as many bands at once as `parallelism` cores hold teams of
    `split`, the rest in later waves."""
    per_wave = max(1, min(bands, parallelism // split))
    return per_wave, _ceil(bands, per_wave)


def gathers_activations(desc: TargetDescription, teams: int, split: int) -> bool:
    """Whether the teams share their activations over the NoC instead of each reading them: only
    when the ports of the busy cores can carry the gather beside a DRAM-bound weight stream."""
    return teams > 1 and teams * split * desc.dma_port_bytes_per_s >= 2 * desc.dram_bytes_per_s


def build_weight_streaming_workload(desc: TargetDescription, shape: GemmShape, c: TilingCandidate) -> Workload:
    """Per-core work of a weight-streaming candidate (`c.k_split >= 1`).

    Raises ValueError for what this schedule cannot express (an M tile below M, a batched or
    multi-loop GEMM, more K shares than cores) and `ScratchpadOverflow` when its buffers do not fit.
    """
    split = c.k_split
    if shape.kind != "contraction" or shape.batch != 1 or shape.outer("m") != 1 or shape.outer("k") != 1:
        raise ValueError("weight streaming needs a batch-1 contraction with one M and one K loop")
    m_in, n_in, k_in = shape.inner("m"), shape.inner("n"), shape.inner("k")
    tm = min(c.tile_m, m_in)
    if split > c.parallelism:
        raise ValueError(f"k_split {split} needs {split} cores, parallelism is {c.parallelism}")
    bands, waves = wave_bands(_ceil(m_in, tm), split, c.parallelism)
    params = simulator_params(desc)
    tn = min(c.tile_n, n_in)
    share = _ceil(k_in, split)  # K elements one core reduces
    tk = min(c.tile_k, share)
    k_steps = _ceil(share, tk)
    tiles_n = shape.outer("n") * _ceil(n_in, tn)
    team = split * bands
    teams = max(1, min(c.parallelism // team, tiles_n))

    a_b, b_b, c_b = shape.lhs_bytes, shape.rhs_bytes, shape.out_bytes
    if shape.lhs_inner_role == "k":
        a = _block("A", tm, tk * a_b, k_in * a_b, params)
    else:
        a = _block("A", tk, tm * a_b, m_in * a_b, params)
    packed = tk * tn * b_b  # weights (and scales) packed in streaming order: one run per slice
    loads = [Transfer("B", packed, dram_cost(1, packed, params))]
    if c.quant_block:
        scales = _ceil(tk, c.quant_block) * tn * desc.scale_bytes
        loads.append(Transfer("scales", scales, dram_cost(1, scales, params)))
    buffers = [(f"{t.kind} x {max(1, c.dma_stages)} stages", max(1, c.dma_stages) * t.payload) for t in loads]
    if bands > 1:  # the bands of one share read 1/b of each slice and gather the rest from each other
        slice_bytes = sum(t.payload for t in loads)
        loads = [Transfer(t.kind, t.payload / bands, t.dram_cost / bands) for t in loads]
        loads.append(Transfer("B gather", 2 * (bands - 1) / bands * slice_bytes, 0.0, noc=True))
    first = [a]
    if gathers_activations(desc, teams, team):
        first = [Transfer("A", a.payload / teams, a.dram_cost / teams),
                 Transfer("A gather", 2 * (teams - 1) / teams * a.payload, 0.0, noc=True)]
    rows, cols = own_share(tm, tn, split)
    drain = _block("C", rows, cols * c_b, n_in * c_b, params)
    partial = tm * tn * desc.accumulator_bytes
    exchange = Transfer("partials", 2 * (split - 1) / split * partial, 0.0) if split > 1 else None
    stages = max(1, c.dma_stages)
    buffers += [("resident activations", tm * k_steps * tk * a_b), ("accumulator", partial),
                ("output staging", partial if split > 1 else drain.payload)]
    if split > 1:  # one share in flight (ring), and this core's rows reduced while they drain
        buffers += [("partials in", rows * cols * desc.accumulator_bytes),
                    ("own share", rows * cols * desc.accumulator_bytes)]
    check_scratchpad(desc, buffers)

    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    depth = desc.mac_k_for(compute_type)
    lanes = max(1, c.vec_n)
    step_cycles = _ceil(tm, desc.mac_m) * _ceil(tn, lanes) * _ceil(lanes, desc.mac_n) * _ceil(tk, depth)
    port = params.scratchpad_port_bytes_per_cycle or int(desc.mac_m * desc.mac_k + desc.mac_k * desc.mac_n)
    clock = desc.clock_hz
    consumer = 2.0 * shape.m * shape.n * c_b if shape.has_consumer and not c.fusion else 0.0
    return Workload(
        busy_cores=teams * team, tiles=tiles_n * team, k_steps=k_steps, step_transfers=tuple(loads), drain=drain,
        step_cycles=step_cycles, copy_cycles=_ceil(partial, port), stages=stages,
        in_flight=desc.dma_engines * desc.dma_queue_depth, latency_cycles=desc.dma_descriptor_s * clock,
        port_bytes_per_cycle=min(desc.dma_port_bytes_per_s / clock, float(port)),
        dram_bytes_per_cycle=desc.dram_bytes_per_s / clock, useful_macs=_ceil(shape.macs, waves),
        mac_slots_per_cycle=desc.mac_m * desc.mac_n * depth, consumer_bytes=consumer,
        first_tile_transfers=tuple(first), exchange=exchange,
        reduce_cycles=math.ceil((split - 1) * rows * cols / vector_unit(desc).lanes), waves=waves,
    )


__all__ = ["build_weight_streaming_workload"]
