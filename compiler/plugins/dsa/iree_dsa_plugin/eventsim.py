"""Event-level simulator of the DSA: the `dsa-sim` runner's measurement.

Per core it plays the schedule of `workload.build_workload` event by event:
- the loads of a K slice wait for a free scratchpad buffer (`dma_stages` of
  them: 1 serialises DMA and compute, 2 and 3 let loads run ahead), then for a
  slot in the core's DMA queues (engines x queue depth); each descriptor spends
  the descriptor latency before its first byte, then streams;
- streaming descriptors share their core's port (NoC port and scratchpad DMA
  port, the narrower), and the cores that are streaming at that moment share
  the DRAM equally; a descriptor occupies DRAM for its burst- and page-rounded
  cost, so narrow blocks and small transfers get less payload per second;
- the MAC array issues a slice once all its descriptors have landed and the
  previous slice is done; at a tile's end the accumulator is copied to the output
  staging buffer over the scratchpad port (the array waits), then drained by one
  descriptor through the same queues and port as the loads; a next copy waits
  for the staging buffer to drain;
- the dispatch starts after its launch; an unfused consumer is a second launch
  and a pass that reads and writes the output on every core;
- a weight-streaming schedule (weight_streaming.py) adds its resident activations to
  the slices of a core's first tile, and, with a K split, ends each tile with the
  partial sums' exchange over the NoC (through the core's port, not DRAM: the port
  is shared with the core's DRAM streams, max-min fair) and their addition on the
  vector unit before the drain.

Aggregation (why big shapes stay fast): cores that receive the same number of
tiles start together and run identical schedules, so each such class is one
simulated core standing for all of them (DRAM sharing still counts every core
of a class). And once the leader's last windows of one or two whole tiles agree on
their duration and on every resource's busy time, the pipeline has settled: the
simulator jumps over the tiles up to the last three at once, shifting pending events
and adding each period's busy time. That is an approximation (see STEADY_RTOL): within
1 % of replaying every slice on a seeded sample of tiled candidates (tested); the
timeline shows a skipped span as one "steady state" interval.
Two kinds of jump are off, because a replay showed them wrong (`JUMPS` says which run):
- periods inside a tile (a few slices, 16 or 32): a sampled 7 % of candidates came out
  more than 1 % off, up to 48 %, and some deadlocked (two core classes a slice apart,
  a weight-streaming core's first-tile loads in the window);
- any jump in a weight-streaming schedule (resident activations loaded during the first
  tile, a K split's exchange at each tile's end): its tiles are few and long, so it is
  replayed slice by slice.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from dataclasses import dataclass, field, replace

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import GemmShape, gemm_shape
from iree_dsa_tuner.description import TargetDescription

from .workload import Transfer, Workload, build_workload, dram_cost, roofline_bound_seconds, simulator_params

_LATENCY_END, _MAC_END, _COPY_END, _REDUCE_END = 0, 1, 2, 3
_DRAIN = -1  # descriptor kind index of a drain (loads use their index in step_transfers)
_EXCHANGE = -2  # a K-split tile's partial sums to and from the other cores of its team (NoC)
_EPS = 1e-9
# Steady state: a short period (<= 8 slices) counts as settled when three consecutive
# windows of it, and two consecutive windows of three periods, agree within STEADY_RTOL
# on their duration and on every resource's busy time (the long windows reject a period
# that is only part of a longer pattern). Patterns that never repeat exactly (lockstep
# cores whose latency and streaming phases drift) are caught by long periods (16, 32
# slices) or whole tiles, whose three last windows must agree within LONG_STEADY_RTOL: the
# average over a long window is what repeats. Skipped periods are charged the last
# window's figures; errors compound over nested jumps, so a simulated time is within about 1%
# of a full replay
# (tests/test_dsa_timing.py compares them).
STEADY_RTOL = 1e-3
LONG_STEADY_RTOL = 5e-3
_SHORT_PERIODS = tuple(range(1, 9))
_LONG_PERIODS = (16, 32)
# Which steady-state jumps run (the module docstring says why the others do not).
JUMPS = {"slices": False, "tiles": True, "weight_streaming": False}


def _same_windows(marks: list, rtol: float) -> bool:
    """marks[0] is now, marks[i] one window earlier than marks[i - 1]; do the windows agree?"""
    n = len(marks) - 1
    spans = [marks[i][0] - marks[i + 1][0] for i in range(n)]
    if min(spans) <= 0 or max(spans) - min(spans) > rtol * max(spans):
        return False
    for j in range(len(marks[0][1])):
        for m in range(2):
            deltas = [marks[i][1][j][m] - marks[i + 1][1][j][m] for i in range(n)]
            if max(deltas) - min(deltas) > rtol * max(max(deltas), spans[0]):
                return False
    return True


def _steady_period(marks: list, short, long, rtol: float = STEADY_RTOL, long_rtol: float = LONG_STEADY_RTOL) -> int:
    """The shortest period (in marks) the end of `marks` has settled into, or 0."""
    for p in short:
        if 6 * p >= len(marks):
            break
        windows = [marks[-1 - i * p] for i in range(4)]
        triple = [marks[-1 - i * 3 * p] for i in range(3)]
        if _same_windows(windows, rtol) and _same_windows(triple, rtol):
            return p
    for p in long:
        if 3 * p >= len(marks):
            break
        if _same_windows([marks[-1 - i * p] for i in range(4)], long_rtol):
            return p
    return 0


@dataclass
class Interval:
    """One busy or stall span of one resource of one core, in cycles from the launch."""

    resource: str  # "dma", "mac", "drain", "launch"
    name: str
    start: float
    end: float
    args: dict = field(default_factory=dict)


@dataclass
class CoreTimeline:
    core: int
    intervals: list[Interval]


@dataclass
class SimResult:
    """Total time and where it went; `timeline` per busy core when asked for."""

    cycles: float
    seconds: float
    compute_cycles: float  # the busiest core's MAC-array issue cycles
    dma_cycles: float  # cycles the busiest core had a descriptor queued or streaming
    exposed_stall_cycles: float  # the busiest core's dispatch time not spent issuing MACs
    launch_cycles: float
    unfused_consumer_cycles: float
    mac_utilisation: float  # useful MACs / MAC slots of the busy cores' issue cycles
    efficiency: float  # achieved ops/s over the part's peak at the compute type
    imbalance: float  # busiest core's tiles x busy cores / tiles
    dram_efficiency: float  # payload / DRAM bytes occupied (bursts and page opens)
    roofline_bound_cycles: float
    events: int  # events the simulator processed (aggregation keeps this small)
    timeline: list[CoreTimeline] | None = None
    waves: int = 1  # weight streaming in waves: the figures above cover all of them

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__
                if k != "timeline" and not (k == "waves" and self.waves == 1)}

    def lines(self) -> list[str]:
        cycle_us = self.seconds * 1e6 / self.cycles if self.cycles else 0.0
        return [
            f"cycles            {self.cycles:,.0f}  ({self.seconds * 1e6:.3f} us, event simulator)",
            f"  compute         {self.compute_cycles:,.0f}",
            f"  dma             {self.dma_cycles:,.0f}",
            f"  exposed stall   {self.exposed_stall_cycles:,.0f}",
            f"  launch          {self.launch_cycles:,.0f}",
            f"  unfused consumer {self.unfused_consumer_cycles:,.0f}",
            f"mac utilisation   {100 * self.mac_utilisation:.1f}% (of the issue cycles)",
            f"dram efficiency   {100 * self.dram_efficiency:.1f}% (payload / bytes occupied)",
            f"efficiency        {100 * self.efficiency:.2f}% of peak",
            f"core imbalance    {self.imbalance:.2f}",
            f"roofline bound    {self.roofline_bound_cycles:,.0f} cycles "
            f"({self.roofline_bound_cycles * cycle_us:.3f} us); simulated / bound = "
            f"{self.cycles / max(self.roofline_bound_cycles, 1e-9):.2f}",
        ] + ([f"waves             {self.waves} (weight streaming: one simulated, run {self.waves} times)"]
             if self.waves > 1 else [])


class _CoreClass:
    """`count` cores with the same tiles, simulated as one."""

    def __init__(self, first_core: int, count: int, tiles: int, w: Workload):
        self.first_core, self.count, self.tiles = first_core, count, tiles
        self.total = tiles * w.k_steps
        self.done = 0  # slices whose MACs finished
        self.next_load = 0  # next slice whose loads are queued
        self.next_tile_load = 0  # first slice of the next tile whose once-per-tile loads are not queued
        self.pending: deque = deque()  # (kind, step) waiting for a queue slot
        self.in_flight = 0
        self.streaming: list[list] = []  # [remaining DRAM bytes, kind, step]
        self.arrived: dict[int, int] = {}
        self.mac_until: float | None = None  # a slice is issuing until then
        self.copy_until: float | None = None
        self.copy_waiting = False  # a finished tile sits in the accumulator
        self.staging_busy = False
        # A K-split tile's own rows, reduced and draining: the next tile's reduce waits for them.
        self.share_busy = False
        self.reduce_waiting: deque = deque()
        self.finished_at: float | None = None
        # Accounting (cycles) and the timeline.
        self.mac_cycles = 0.0
        self.dma_cycles = 0.0
        self.dma_since: float | None = None
        self.drain_since = 0.0
        self.exchange_since = 0.0
        self.stall_since: float | None = None
        self.intervals: list[Interval] | None = None


class _Engine:
    def __init__(self, w: Workload, start: float, record: bool, aggregate: bool = True):
        streaming = bool(w.first_tile_transfers) or w.exchange is not None
        self.w, self.now, self.record = w, start, record
        self.aggregate = aggregate and (JUMPS["weight_streaming"] or not streaming)
        self.heap: list = []
        self.seq = 0
        self.events = 0
        self.payload = 0.0
        self.dram_bytes = 0.0
        base, extra = divmod(w.tiles, w.busy_cores)
        self.classes = []
        if extra:
            self.classes.append(_CoreClass(0, extra, base + 1, w))
        if w.busy_cores - extra:
            self.classes.append(_CoreClass(extra, w.busy_cores - extra, base, w))
        for c in self.classes:
            c.intervals = [] if record else None
            c.stall_since = start
        # Loads of every slice, then loads once per tile (attention's Q tile) issued with a
        # tile's first slice once the previous tile's slices are done (one buffer).
        # Then loads of every slice of a core's first tile only (weight streaming's resident
        # activations).
        self.transfers = tuple(w.step_transfers) + tuple(getattr(w, "tile_transfers", ()))
        self.tile_kinds = range(len(w.step_transfers), len(self.transfers))
        self.transfers += tuple(w.first_tile_transfers)
        self.first_tile_kinds = range(len(self.transfers) - len(w.first_tile_transfers), len(self.transfers))
        self.output_in_place = bool(getattr(w, "output_in_place", False))
        # Core-to-core transfers over the NoC stream their payload through the port, not DRAM.
        self.step_cost = [t.payload if t.noc else t.dram_cost for t in self.transfers]
        self.noc_kinds = frozenset(({_EXCHANGE} if w.exchange is not None else set())
                                   | {k for k, t in enumerate(self.transfers) if t.noc})

    def _needed(self, step: int) -> int:
        """Descriptors that must land before slice `step` may issue."""
        first = step % self.w.k_steps == 0
        return (len(self.w.step_transfers) + (len(self.tile_kinds) if first else 0)
                + (len(self.first_tile_kinds) if step < self.w.k_steps else 0))

    # ---- helpers -------------------------------------------------------------------
    def _push(self, t: float, kind: int, cls: int, data) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (t, self.seq, kind, cls, data))

    def _note(self, c: _CoreClass, resource: str, name: str, start: float, end: float, **args) -> None:
        if c.intervals is not None and end > start:
            c.intervals.append(Interval(resource, name, start, end, args))

    def _dma_busy(self, c: _CoreClass, delta: int) -> None:
        before = c.in_flight
        c.in_flight += delta
        if before == 0 and c.in_flight > 0:
            c.dma_since = self.now
        elif before > 0 and c.in_flight == 0:
            c.dma_cycles += self.now - c.dma_since
            self._note(c, "dma", "dma", c.dma_since, self.now)
            c.dma_since = None

    # ---- what can start now ------------------------------------------------------
    def _start_work(self, i: int, c: _CoreClass) -> bool:
        """Start every descriptor, MAC slice or copy that may start at `now`; True if any did."""
        w = self.w
        started = False
        while c.next_load < c.total and c.next_load < c.done + w.stages:
            for kind in range(len(w.step_transfers)):
                c.pending.append((kind, c.next_load))
            if c.next_load < w.k_steps:
                for kind in self.first_tile_kinds:
                    c.pending.append((kind, c.next_load))
            c.next_load += 1
        while self.tile_kinds and c.next_tile_load < c.total and c.next_tile_load <= c.done:
            for kind in self.tile_kinds:
                c.pending.append((kind, c.next_tile_load))
            c.next_tile_load += w.k_steps
        while c.pending and c.in_flight < w.in_flight:
            kind, step = c.pending.popleft()
            self._dma_busy(c, +1)
            if kind == _DRAIN:
                c.drain_since = self.now
            elif kind == _EXCHANGE:
                c.exchange_since = self.now
            self._push(self.now + w.latency_cycles, _LATENCY_END, i, (kind, step))
            started = True
        if c.mac_until is None and c.copy_until is None:
            if c.copy_waiting and not c.staging_busy:
                c.copy_waiting = False
                c.copy_until = self.now + w.copy_cycles
                self._push(c.copy_until, _COPY_END, i, None)
                self._note(c, "mac", "copy to staging", self.now, c.copy_until)
                return True
            j = c.done
            # An accumulator drained in place is busy until its drain has left.
            held = self.output_in_place and c.staging_busy and j % w.k_steps == 0
            if j < c.total and not c.copy_waiting and not held and c.arrived.get(j, 0) == self._needed(j):
                if c.stall_since is not None:
                    self._note(c, "mac", "stall", c.stall_since, self.now)
                    c.stall_since = None
                c.mac_until = self.now + w.step_cycles
                c.mac_cycles += w.step_cycles
                self._push(c.mac_until, _MAC_END, i, j)
                self._note(c, "mac", "mac", self.now, c.mac_until, slice=j)
                started = True
        return started

    # ---- events --------------------------------------------------------------------
    def _complete(self, i: int, c: _CoreClass, kind: int, step: int) -> None:
        self._dma_busy(c, -1)
        if kind == _DRAIN:
            self._note(c, "drain", "drain", c.drain_since, self.now, tile=step // self.w.k_steps)
            if self.w.exchange is None:
                c.staging_busy = False
            else:
                c.share_busy = False
                if c.reduce_waiting:
                    self._reduce(i, c, c.reduce_waiting.popleft())
                    c.staging_busy = False
        elif kind == _EXCHANGE:
            # The team's shares of this core's rows are in: add them once the previous rows have
            # drained. Then the staging and receive buffers are free for the next tile, whose
            # exchange overlaps this tile's drain.
            self._note(c, "drain", "exchange partials (NoC)", c.exchange_since, self.now,
                       tile=step // self.w.k_steps)
            if c.share_busy:
                c.reduce_waiting.append(step)
            else:
                self._reduce(i, c, step)
                c.staging_busy = False
        else:
            c.arrived[step] = c.arrived.get(step, 0) + 1

    def _reduce(self, i: int, c: _CoreClass, step: int) -> None:
        c.share_busy = True
        self._note(c, "drain", "reduce partials", self.now, self.now + self.w.reduce_cycles)
        self._push(self.now + self.w.reduce_cycles, _REDUCE_END, i, step)

    def _handle(self, kind: int, i: int, data) -> None:
        c = self.classes[i]
        w = self.w
        if kind == _LATENCY_END:
            k, step = data
            cost = w.drain.dram_cost if k == _DRAIN else w.exchange.payload if k == _EXCHANGE else self.step_cost[k]
            if cost <= 0:
                self._complete(i, c, k, step)
            else:
                c.streaming.append([cost, k, step])
        elif kind == _MAC_END:
            j = data
            c.mac_until = None
            c.done = j + 1
            c.arrived.pop(j, None)
            if c.done % w.k_steps == 0:
                c.copy_waiting = True
            if c.done < c.total:
                c.stall_since = self.now
        elif kind == _REDUCE_END:
            c.pending.append((_DRAIN, data))
        else:  # copy done: the accumulator is free, the staging buffer drains (after the exchange)
            c.copy_until = None
            c.staging_busy = True
            c.pending.append((_EXCHANGE if w.exchange is not None else _DRAIN, c.done - 1))

    def _rates(self) -> list[tuple[float, float]]:
        """Per class: the rate of each of its DRAM descriptors (payload-agnostic DRAM bytes per
        cycle) and of each NoC exchange (bytes per cycle).

        A core's port is shared by all its streams; the DRAM equally by the cores streaming from
        it. An exchange takes the port left over by DRAM streams capped below their port share.
        """
        w = self.w
        if not self.noc_kinds:
            active = sum(c.count for c in self.classes if c.streaming)
            if not active:
                return [(0.0, 0.0)] * len(self.classes)
            per_core = min(w.port_bytes_per_cycle, w.dram_bytes_per_cycle / active)
            return [(per_core / len(c.streaming) if c.streaming else 0.0, 0.0) for c in self.classes]
        noc = [sum(1 for e in c.streaming if e[1] in self.noc_kinds) for c in self.classes]
        active = sum(c.count for c, x in zip(self.classes, noc) if len(c.streaming) > x)
        out = []
        for c, x in zip(self.classes, noc):
            n, d = len(c.streaming), len(c.streaming) - x
            dram = min(w.port_bytes_per_cycle / n, w.dram_bytes_per_cycle / active / d) if d else 0.0
            out.append((dram, (w.port_bytes_per_cycle - d * dram) / x if x else 0.0))
        return out

    # ---- steady-state jumps --------------------------------------------------------
    def _counters(self) -> tuple:
        # DMA busy time includes the open span, so a period's delta is right whether or
        # not the DMA went idle inside it.
        return tuple((c.mac_cycles, c.dma_cycles + (self.now - c.dma_since if c.dma_since is not None else 0.0))
                     for c in self.classes) + ((self.payload, self.dram_bytes),)

    def _jump_room(self, period_steps: int) -> int:
        """Slices every class may skip: short of its next tile boundary (a period inside a
        tile) or of its last three tiles (a period of whole tiles)."""
        w, room = self.w, None
        for c in self.classes:
            if c.finished_at is not None:
                continue
            if period_steps % w.k_steps:
                to_boundary = (c.done // w.k_steps + 1) * w.k_steps - c.done - 1
                n = to_boundary - w.stages - 2
            else:
                n = ((c.total - c.done) // w.k_steps - 3) * w.k_steps
            room = n if room is None else min(room, n)
        return max(room or 0, 0)

    def _jump(self, periods: int, period_steps: int, period_cycles: float, before: tuple) -> None:
        shift, steps = periods * period_cycles, periods * period_steps
        after = self._counters()
        for i, c in enumerate(self.classes):
            if c.finished_at is not None:
                continue
            c.mac_cycles += periods * (after[i][0] - before[i][0])
            c.dma_cycles += periods * (after[i][1] - before[i][1])
            if c.intervals is not None:
                busy = after[i][0] - before[i][0]
                self._note(c, "mac", "steady state", self.now, self.now + shift, periods=periods,
                           slices=steps, mac_busy=round(busy / period_cycles, 4))
                self._note(c, "dma", "steady state", self.now, self.now + shift, periods=periods, slices=steps)
            c.done += steps
            c.next_load += steps
            if period_steps % self.w.k_steps == 0:
                c.next_tile_load += steps
            c.pending = deque((k, s + steps) for k, s in c.pending)
            c.reduce_waiting = deque(s + steps for s in c.reduce_waiting)
            c.arrived = {s + steps: n for s, n in c.arrived.items()}
            for entry in c.streaming:
                entry[2] += steps
            if c.mac_until is not None:
                c.mac_until += shift
            if c.copy_until is not None:
                c.copy_until += shift
            if c.dma_since is not None:
                c.dma_since += shift
            c.drain_since += shift
            c.exchange_since += shift
            if c.stall_since is not None:
                c.stall_since += shift
        self.payload += periods * (after[-1][0] - before[-1][0])
        self.dram_bytes += periods * (after[-1][1] - before[-1][1])
        heap = []
        for t, seq, kind, i, data in self.heap:
            if kind in (_MAC_END, _REDUCE_END):
                data += steps
            elif kind == _LATENCY_END:
                data = (data[0], data[1] + steps)
            heap.append((t + shift, seq, kind, i, data))
        heapq.heapify(heap)
        self.heap = heap
        self.now += shift

    # ---- the loop ------------------------------------------------------------------
    def run(self) -> float:
        w = self.w
        # (time, counters, leader's slice) at each leader slice start since the last jump,
        # and at each leader tile start since the last jump over whole tiles.
        slice_marks: list[tuple] = []
        tile_marks: list[tuple] = []
        short = [p for p in _SHORT_PERIODS if p < w.k_steps]
        long = [p for p in _LONG_PERIODS if p < w.k_steps]
        leader = self.classes[0]
        while True:
            leader_started = False
            progressed = True
            while progressed:
                progressed = False
                for i, c in enumerate(self.classes):
                    if c.finished_at is None:
                        mac_before = c.mac_until
                        progressed |= self._start_work(i, c)
                        if i == 0 and mac_before is None and c.mac_until is not None:
                            leader_started = True
            for c in self.classes:
                if c.finished_at is None and c.done == c.total and not c.copy_waiting and \
                        c.copy_until is None and not c.staging_busy and not c.share_busy and c.in_flight == 0:
                    c.finished_at = self.now
            if all(c.finished_at is not None for c in self.classes):
                return max(c.finished_at for c in self.classes)
            if leader_started and self.aggregate:
                mark = (self.now, self._counters(), leader.done)
                if slice_marks and slice_marks[-1][2] // w.k_steps != leader.done // w.k_steps:
                    slice_marks = []  # periods inside a tile are looked for in one tile only
                slice_marks.append(mark)
                p = _steady_period(slice_marks, short, long) if JUMPS["slices"] else None
                if p and self._try_jump(p, slice_marks):
                    slice_marks = []
                elif leader.done % w.k_steps == 0 and JUMPS["tiles"]:
                    tile_marks.append(mark)
                    q = _steady_period(tile_marks, (), (1, 2))
                    if q and self._try_jump(q * w.k_steps, tile_marks, q):
                        slice_marks, tile_marks = [], []
            self._advance()

    def _try_jump(self, period_steps: int, marks: list, period_marks: int | None = None) -> bool:
        periods = self._jump_room(period_steps) // period_steps
        if periods <= 0:
            return False
        start = marks[-1 - (period_marks or period_steps)]
        self._jump(periods, period_steps, self.now - start[0], start[1])
        return True

    def _advance(self) -> None:
        rates = self._rates()
        t_next = self.heap[0][0] if self.heap else math.inf
        for c, (dram, noc) in zip(self.classes, rates):
            for entry in c.streaming:
                t_next = min(t_next, self.now + entry[0] / (noc if entry[1] in self.noc_kinds else dram))
        if t_next == math.inf:
            raise RuntimeError("DSA simulator deadlock: nothing pending and work left")  # a bug, not bad input
        dt = t_next - self.now
        # Transfers ending now are decided by their end time, not by leftover bytes: far from
        # the launch, a few bytes' worth of cycles is below the clock's float resolution.
        horizon = t_next + _EPS * max(1.0, abs(t_next)) * 1e-3
        ending = []
        for i, (c, (dram, noc)) in enumerate(zip(self.classes, rates)):
            if not c.streaming:
                continue
            if noc:
                kept = []
                for e in c.streaming:
                    rate = noc if e[1] in self.noc_kinds else dram
                    if self.now + e[0] / rate <= horizon:
                        ending.append((i, e))
                    else:
                        kept.append(e)
                self.dram_bytes += dram * dt * sum(1 for e in c.streaming if e[1] not in self.noc_kinds) * c.count
                for e in kept:
                    e[0] -= (noc if e[1] in self.noc_kinds else dram) * dt
                c.streaming = kept
                continue
            moved = dram * dt
            self.dram_bytes += moved * len(c.streaming) * c.count
            ending += [(i, e) for e in c.streaming if self.now + e[0] / dram <= horizon]
            c.streaming = [e for e in c.streaming if self.now + e[0] / dram > horizon]
            for entry in c.streaming:
                entry[0] -= moved
        self.now = t_next
        for i, (_, kind, step) in ending:
            c = self.classes[i]
            if kind not in self.noc_kinds:  # DRAM payload only: NoC transfers never touch DRAM
                t = self.w.drain if kind == _DRAIN else self.transfers[kind]
                self.payload += t.payload * c.count
            self._complete(i, c, kind, step)
            self.events += 1
        while self.heap and self.heap[0][0] <= horizon:
            _, _, kind, i, data = heapq.heappop(self.heap)
            self._handle(kind, i, data)
            self.events += 1


def _consumer_workload(desc: TargetDescription, w: Workload, shape: GemmShape) -> Workload:
    """An unfused elementwise consumer: every core reads its share of C and writes it back."""
    params = simulator_params(desc)
    share = w.consumer_bytes / 2 / desc.cores
    t = Transfer("C", share, dram_cost(1, share, params))
    elements = shape.batch * shape.m * shape.n / desc.cores
    return replace(w, busy_cores=desc.cores, tiles=desc.cores, k_steps=1, step_transfers=(t,), drain=t,
                   step_cycles=max(1, math.ceil(elements / (desc.mac_m * desc.mac_n))), copy_cycles=0,
                   stages=1, consumer_bytes=0.0, first_tile_transfers=(), exchange=None, reduce_cycles=0)


def _timelines(engine: _Engine, cores: int, offset: float = 0.0) -> dict[int, list[Interval]]:
    out: dict[int, list[Interval]] = {}
    for c in engine.classes:
        for core in range(c.first_core, c.first_core + c.count):
            out[core] = [replace(iv, start=iv.start + offset, end=iv.end + offset) for iv in c.intervals or []]
    return out


def simulate_workload(desc: TargetDescription, shape: GemmShape, w: Workload, record: bool = False,
                      aggregate: bool = True) -> SimResult:
    clock = desc.clock_hz
    launch = desc.launch_s * clock
    main = _Engine(w, launch, record, aggregate)
    end = main.run()
    # Weight streaming in waves: one wave simulated, the waves run back to back on the same cores
    # (a timeline shows the first).
    waves = w.waves
    end = launch + waves * (end - launch)
    leader = main.classes[0]
    events, payload, dram_bytes = main.events * waves, main.payload * waves, main.dram_bytes * waves
    consumer_cycles = 0.0
    timeline = None
    if record:
        per_core = _timelines(main, w.busy_cores)
        for core in range(w.busy_cores):
            per_core[core].insert(0, Interval("launch", "launch", 0.0, launch))
    if w.consumer_bytes > 0:
        cw = _consumer_workload(desc, w, shape)
        second = _Engine(cw, end + launch, record, aggregate)
        consumer_end = second.run()
        consumer_cycles = consumer_end - end
        events += second.events
        payload += second.payload
        dram_bytes += second.dram_bytes
        if record:
            for core, intervals in _timelines(second, cw.busy_cores).items():
                per_core.setdefault(core, []).append(Interval("launch", "launch (consumer)", end, end + launch))
                per_core[core] += [replace(iv, name=f"consumer {iv.name}") for iv in intervals]
        end = consumer_end
    if record:
        timeline = [CoreTimeline(core, sorted(per_core[core], key=lambda iv: (iv.start, iv.resource)))
                    for core in sorted(per_core)]
    main_cycles = waves * (max(c.finished_at for c in main.classes) - launch)
    compute = leader.mac_cycles * waves
    if shape.kind == "attention":
        from .attention import attention_roofline_seconds

        bound = attention_roofline_seconds(desc, shape) * clock
    else:
        bound = roofline_bound_seconds(desc, shape) * clock
    issue_slots = sum(c.mac_cycles * c.count for c in main.classes) * w.mac_slots_per_cycle * waves
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    peak = desc.peak_ops(compute_type)
    return SimResult(
        cycles=end, seconds=end / clock, compute_cycles=compute, dma_cycles=leader.dma_cycles * waves,
        exposed_stall_cycles=main_cycles - compute,
        launch_cycles=launch * (2 if w.consumer_bytes > 0 else 1),
        unfused_consumer_cycles=consumer_cycles - (launch if w.consumer_bytes > 0 else 0.0),
        mac_utilisation=min(1.0, w.useful_macs / max(issue_slots, 1)),
        efficiency=shape.ops / (end / clock) / peak,
        imbalance=leader.tiles * w.busy_cores / w.tiles,
        waves=waves,
        dram_efficiency=payload / dram_bytes if dram_bytes else 1.0,
        roofline_bound_cycles=bound, events=events, timeline=timeline,
    )


def workload_for(desc: TargetDescription, problem, candidate: TilingCandidate) -> tuple[GemmShape, Workload]:
    """The shape and per-core work of `candidate` for `problem` (attention has its own builder).

    Raises `ScratchpadOverflow` when the schedule's buffers do not fit a core's scratchpad.
    """
    if getattr(problem, "kind", "") == "attention":
        from .attention import attention_shape, build_attention_workload

        shape = attention_shape(problem)
        return shape, build_attention_workload(desc, shape, candidate)
    shape = gemm_shape(problem)
    if candidate.k_split:
        from .weight_streaming import build_weight_streaming_workload

        return shape, build_weight_streaming_workload(desc, shape, candidate)
    return shape, build_workload(desc, shape, candidate)


def simulated_lower_bound_s(desc: TargetDescription, problem, candidate: TilingCandidate) -> float:
    """Seconds no simulation of `candidate` can beat: the launch, then the larger of the busiest
    core's MAC issues and every DRAM payload byte over the whole DRAM's bandwidth (both are
    serial in the simulator). Transfers over the NoC (an operand gathered from a neighbour's
    scratchpad, weight streaming's partial sums) do not touch DRAM and are left out: counted,
    they put the bound above the simulated time of exactly the fastest candidates.

    Raises `ScratchpadOverflow` like `workload_for`. Exact searches (branch and bound) rely on
    it; they check it against every candidate they simulate.
    """
    _, w = workload_for(desc, problem, candidate)
    clock = desc.clock_hz
    compute = -(-w.tiles // w.busy_cores) * w.k_steps * w.step_cycles / clock

    def dram(transfers) -> float:
        return sum(t.payload for t in transfers if not t.noc)

    payload = w.tiles * (w.k_steps * dram(w.step_transfers) + dram(getattr(w, "tile_transfers", ()))
                         + dram([w.drain]))
    # Weight streaming's resident activations: every busy core loads its share once.
    payload += w.busy_cores * w.k_steps * dram(w.first_tile_transfers)
    return desc.launch_s + w.waves * max(compute, payload / w.dram_bytes_per_cycle / clock)


def simulate(desc: TargetDescription, problem, candidate: TilingCandidate, record: bool = False,
             aggregate: bool = True) -> SimResult:
    """Simulate `candidate` for `problem` (a problem or a GemmShape) on the part `desc` describes.

    `record` keeps the per-core timeline; `aggregate=False` replays every slice
    (no steady-state jumps: slow on big shapes, for checking the jumps).
    """
    shape, workload = workload_for(desc, problem, candidate)
    return simulate_workload(desc, shape, workload, record, aggregate)
