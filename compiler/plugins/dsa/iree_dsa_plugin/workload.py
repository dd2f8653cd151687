"""What one candidate asks of the DSA: tiles per core, DMA descriptors, MAC issues, drains.

This is the event simulator's own reading of a schedule, written from the
target description and the candidate alone (it shares nothing with the
tuner's cost model, so a simulated time is a measurement of the schedule,
not the estimate repeated).

The schedule is output-stationary: output tiles are dealt round-robin to the
busy cores; a tile walks its K slices, each slice brought into a scratchpad
buffer by DMA descriptors (one per operand, one more for INT4 block scales),
and the finished tile leaves by one drain descriptor. Edge tiles are charged
as full tiles: the DMA zero-pads them and the array computes the padding.

A descriptor moves a 2-D block: `rows` runs of `run` contiguous bytes. DRAM
pays for whole bursts and for every page it opens, so its cost in DRAM bytes
is at least its payload; small or narrow blocks cost more per useful byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import GemmShape
from iree_dsa_tuner.description import TargetDescription, TargetDescriptionError

from .functional import ScratchpadOverflow


@dataclass(frozen=True)
class SimulatorParams:
    """`[simulator]` of a DSA description: the memory-system facts only the simulator uses.

    Optional in a description file; the defaults are an LPDDR5-class part's
    (64-byte bursts, 2 KiB pages, an activation worth two bursts of bandwidth,
    a scratchpad port as wide as one MAC step's operands).
    """

    dram_burst_bytes: int = 64
    dram_page_bytes: int = 2048
    dram_page_open_bytes: int = 128  # DRAM bandwidth lost each time a transfer opens a page
    scratchpad_port_bytes_per_cycle: int = 0  # 0: mac_m x mac_k + mac_k x mac_n (one MAC step's operands)


_ZERO_ALLOWED = {"dram_page_open_bytes", "scratchpad_port_bytes_per_cycle"}


def simulator_params(desc: TargetDescription) -> SimulatorParams:
    table = desc.extras.get("simulator", {})
    if not isinstance(table, dict):
        raise TargetDescriptionError(desc.source, "simulator", "expected a table")
    values = {}
    for name, default in SimulatorParams.__dataclass_fields__.items():
        value = table.get(name, default.default)
        zero_ok = name in _ZERO_ALLOWED
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (value == 0 and not zero_ok):
            raise TargetDescriptionError(desc.source, f"simulator.{name}",
                                         f"expected a {'non-negative' if zero_ok else 'positive'} integer, "
                                         f"got {value!r}")
        values[name] = value
    unknown = sorted(set(table) - set(values))
    if unknown:
        raise TargetDescriptionError(desc.source, f"simulator.{unknown[0]}", "unknown field")
    return SimulatorParams(**values)


@dataclass(frozen=True)
class Transfer:
    """One DMA descriptor: payload bytes and the DRAM bytes it really occupies."""

    kind: str  # "A", "B", "scales", "C", "partials", "A gather"
    payload: float
    dram_cost: float  # 0 for a core-to-core transfer over the NoC (it never touches DRAM)
    noc: bool = False  # core to core over the NoC: the payload streams through the port only


def dram_cost(rows: int, run: float, params: SimulatorParams, stride: float = 0.0) -> float:
    """DRAM bytes a block of `rows` runs of `run` contiguous bytes, `stride` bytes apart,
    occupies: every run in whole bursts, plus an activation per page the block touches."""
    if run <= 0 or rows <= 0:
        return 0.0
    bursts = rows * math.ceil(run / params.dram_burst_bytes - 1e-9)
    if stride >= params.dram_page_bytes or rows == 1:
        pages = rows * math.ceil(run / params.dram_page_bytes - 1e-9)
    else:  # several runs share a page
        pages = math.ceil(((rows - 1) * stride + run) / params.dram_page_bytes - 1e-9)
    return bursts * params.dram_burst_bytes + pages * params.dram_page_open_bytes


def _block(kind: str, rows: int, run: float, line: float, params: SimulatorParams) -> Transfer:
    """`rows` runs of `run` bytes out of an operand whose lines are `line` bytes long."""
    # Runs that span whole lines sit back to back in memory: one long run.
    if run >= line:
        run, rows = run * rows, 1
    return Transfer(kind, rows * run, dram_cost(rows, run, params, line))


@dataclass(frozen=True)
class Workload:
    """A candidate on the DSA, counted per core: identical tiles, identical K steps."""

    busy_cores: int
    tiles: int  # output tiles of the whole problem
    k_steps: int  # K slices per tile
    step_transfers: tuple[Transfer, ...]  # the loads of one K slice
    drain: Transfer  # one finished tile written back
    step_cycles: int  # MAC-array issues for one K slice
    copy_cycles: int  # accumulator -> output staging buffer over the scratchpad port
    stages: int  # operand buffers in the scratchpad
    in_flight: int  # descriptors a core may have queued (engines x queue depth)
    latency_cycles: float  # issue to first byte of a descriptor
    port_bytes_per_cycle: float  # one core's DMA path: NoC port, scratchpad port
    dram_bytes_per_cycle: float  # the shared DRAM
    useful_macs: int
    mac_slots_per_cycle: int  # per core, at the compute type
    consumer_bytes: float  # an unfused elementwise consumer: C read + written again (0: none)
    # Weight streaming (weight_streaming.py): loads each K slice of a core's first tile adds (its
    # resident activations, never loaded again), the partial sums a K-split tile exchanges over
    # the NoC before its drain, and the vector-unit cycles that add the received ones.
    first_tile_transfers: tuple[Transfer, ...] = ()
    exchange: Transfer | None = None
    reduce_cycles: int = 0
    # Weight streaming in waves: the work above is one wave, run this many times in a row.
    waves: int = 1

    def tiles_of_core(self, core: int) -> int:
        """Round-robin: the first tiles % busy cores get one tile more."""
        base, extra = divmod(self.tiles, self.busy_cores)
        return base + (core < extra)


def _ceil(a: float, b: float) -> int:
    return -(-int(a) // int(b))


def check_scratchpad(desc: TargetDescription, buffers: list[tuple[str, float]]) -> None:
    """A schedule whose buffers do not fit one core's scratchpad cannot run: say which ones."""
    need = sum(size for _, size in buffers)
    if need > desc.scratchpad_bytes:
        parts = ", ".join(f"{name} {size / 1024:.1f} KiB" for name, size in buffers)
        raise ScratchpadOverflow(f"needs {need / 1024:.1f} KiB of scratchpad per core ({parts}); "
                                 f"{desc.name} has {desc.scratchpad_bytes / 1024:.0f} KiB")


def build_workload(desc: TargetDescription, shape: GemmShape, c: TilingCandidate) -> Workload:
    params = simulator_params(desc)
    m_in, n_in, k_in = shape.inner("m"), shape.inner("n"), shape.inner("k")
    tm, tn, tk = min(c.tile_m, m_in), min(c.tile_n, n_in), min(c.tile_k, k_in)
    tiles_m = shape.outer("m") * _ceil(m_in, tm)
    if shape.group_sizes("m"):  # a block of the m group: whole inner rows when larger (a conv's OH x OW)
        tm, tiles_m = int(shape.block("m", c.tile_m)), int(shape.tile_count("m", c.tile_m))
    tiles = shape.batch * tiles_m * shape.outer("n") * _ceil(n_in, tn)
    k_steps = shape.outer("k") * _ceil(k_in, tk)
    if shape.group_sizes("k"):  # a conv's DMA step may span whole filter rows (input channels x taps)
        tk, k_steps = int(shape.block("k", c.tile_k)), int(shape.tile_count("k", c.tile_k))
    busy = max(1, min(c.parallelism, tiles))

    # A is [M, K]-major unless its contiguous dim is M; B is [K, N] or PyTorch's [N, K].
    a_b, b_b, c_b = shape.lhs_bytes, shape.rhs_bytes, shape.out_bytes
    if shape.lhs_inner_role == "k":
        a = _block("A", tm, tk * a_b, k_in * a_b, params)
    else:
        a = _block("A", tk, tm * a_b, m_in * a_b, params)
    if shape.rhs_inner_role == "k":
        b = _block("B", tn, tk * b_b, k_in * b_b, params)
    else:
        b = _block("B", tk, tn * b_b, n_in * b_b, params)
    loads = [a, b]
    if c.quant_block:
        # fp16 scales, one per (K block, column), stored [K / block, N].
        loads.append(_block("scales", _ceil(tk, c.quant_block), tn * desc.scale_bytes, n_in * desc.scale_bytes,
                            params))
    drain = _block("C", tm, tn * c_b, n_in * c_b, params)

    check_scratchpad(desc, [(f"{t.kind} x {max(1, c.dma_stages)} stages", max(1, c.dma_stages) * t.payload)
                            for t in loads]
                     + [("accumulator", tm * tn * desc.accumulator_bytes), ("output staging", drain.payload)])

    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    depth = desc.mac_k_for(compute_type)
    lanes = max(1, c.vec_n)
    # One issue covers mac_m rows x mac_n lanes x depth; a vector step of `lanes`
    # columns needs ceil(lanes / mac_n) issues, and idles the rest when narrower.
    step_cycles = _ceil(tm, desc.mac_m) * _ceil(tn, lanes) * _ceil(lanes, desc.mac_n) * _ceil(tk, depth)
    port = params.scratchpad_port_bytes_per_cycle or \
        int(desc.mac_m * desc.mac_k + desc.mac_k * desc.mac_n)
    copy_cycles = _ceil(tm * tn * desc.accumulator_bytes, port)
    clock = desc.clock_hz
    consumer = 2.0 * shape.batch * shape.m * shape.n * c_b if shape.has_consumer and not c.fusion else 0.0
    return Workload(
        busy_cores=busy, tiles=tiles, k_steps=k_steps, step_transfers=tuple(loads), drain=drain,
        step_cycles=step_cycles, copy_cycles=copy_cycles, stages=max(1, c.dma_stages),
        in_flight=desc.dma_engines * desc.dma_queue_depth, latency_cycles=desc.dma_descriptor_s * clock,
        port_bytes_per_cycle=min(desc.dma_port_bytes_per_s / clock, float(port)),
        dram_bytes_per_cycle=desc.dram_bytes_per_s / clock, useful_macs=shape.macs,
        mac_slots_per_cycle=desc.mac_m * desc.mac_n * depth, consumer_bytes=consumer,
    )


def roofline_bound_seconds(desc: TargetDescription, shape: GemmShape) -> float:
    """No schedule beats this: every MAC at the part's peak, or A + B + C over DRAM once."""
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    macs_per_s = desc.cores * desc.mac_m * desc.mac_n * desc.mac_k_for(compute_type) * desc.clock_hz
    moved = shape.batch * (shape.m * shape.k * shape.lhs_bytes + shape.k * shape.n * shape.rhs_bytes
                           + shape.m * shape.n * shape.out_bytes)
    return max(shape.macs / macs_per_s, moved / desc.dram_bytes_per_s)
