"""The pruning funnel (R5.4): legality -> roofline -> scratchpad/DMA (a CPU: cache) -> latency.

Every candidate of a space enters; each stage removes some and records, per
candidate, the stage and a reason code; survivors are ranked by the analytic
estimate. Everything is numpy over all candidates at once, so the funnel runs
at millions of candidates per second and a whole model costs milliseconds.

Relative stages compare against the best candidate that can exist: the
roofline stage's reference is the best roofline time among candidates that
are legal and fit the scratchpad (so pruning never leaves nothing), and the
latency stage's reference is the best full estimate among what is left.

Stage names, reason texts and the knobs a survivor shows are the target's own
(`TargetDescription.funnel_stages`, `.knobs`; `Reason.text_for`): a CPU has
caches, not a scratchpad, and no DMA stages, fusion or INT4 block knobs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.candidate import KNOBS, TilingCandidate
from ..space.space import CandidateSpace
from ..description import TargetDescription
from .estimate import Estimate, estimate
from .geometry import TileGeometry
from .kind import tile_geometry
from .roofline import RooflineReport, roofline
from ..core.reasons import FUNNEL_STAGES, Reason, stage_names

STAGES = FUNNEL_STAGES  # the canonical (DSA) names; a target prints its own (`funnel_stages`)

# Traffic within this factor of compulsory counts as "no re-reads" (rounding of tiles).
_REREAD_TOLERANCE = 1.05


@dataclass
class StageCount:
    name: str
    entered: int
    left: int
    reasons: list[tuple[str, int]]

    @property
    def pruned(self) -> int:
        return self.entered - self.left


@dataclass
class Survivor:
    rank: int
    candidate: TilingCandidate
    estimate_s: float
    compute_s: float
    memory_s: float
    latency_s: float
    launch_s: float
    knobs: tuple[str, ...] | None = None  # the target's knobs (None: every field)

    def to_json(self) -> dict:
        return {
            "rank": self.rank,
            "candidate": self.candidate.to_json(self.knobs),
            "estimate_us": self.estimate_s * 1e6,
            "compute_us": self.compute_s * 1e6,
            "memory_us": self.memory_s * 1e6,
            "latency_us": self.latency_s * 1e6,
            "launch_us": self.launch_s * 1e6,
        }


@dataclass
class FunnelResult:
    space: CandidateSpace
    target: str
    roofline: RooflineReport
    stages: list[StageCount]
    columns: dict[str, np.ndarray]
    reason_code: np.ndarray  # per candidate, 0 = survivor
    estimate: Estimate
    geometry: TileGeometry
    order: np.ndarray  # survivor indices, best first
    # Legal and within the scratchpad: what can run at all (the set blind search and
    # refinement draw from), whichever stage pruned it.
    runnable: np.ndarray | None = None
    seconds: float = 0.0
    dispatch: str = ""
    # The target's words: a CPU's stage names and reason texts, and the knobs its candidates show.
    cpu: bool = False
    knobs: tuple[str, ...] = KNOBS

    @property
    def stage_names(self) -> tuple[str, ...]:
        return stage_names(self.cpu)

    @property
    def size(self) -> int:
        return len(self.reason_code)

    @property
    def survivor_count(self) -> int:
        return len(self.order)

    def stage_of(self, i: int) -> str:
        return Reason.of_code(int(self.reason_code[i])).stage_for(self.cpu) or "survived"

    def reason_of(self, i: int) -> str:
        return Reason.of_code(int(self.reason_code[i])).text_for(self.cpu)

    def candidate(self, i: int) -> TilingCandidate:
        return TilingCandidate(*(int(self.columns[k][i]) for k in KNOBS))

    def survivors(self, limit: int | None = None) -> list[Survivor]:
        out = []
        e = self.estimate
        for rank, i in enumerate(self.order[:limit], start=1):
            out.append(Survivor(rank, self.candidate(i), float(e.total_s[i]), float(e.compute_s[i]),
                                float(e.memory_s[i]), float(e.latency_s[i]), float(e.launch_s[i]), self.knobs))
        return out

    @property
    def shrink(self) -> float:
        return self.size / max(self.survivor_count, 1)

    def to_json(self, limit: int = 20) -> dict:
        return {
            "dispatch": self.dispatch,
            "target": self.target,
            "shape": self.space.shape.label(),
            "space": {"size": self.space.size, "dimensions": self.space.dimensions()},
            "roofline": self.roofline.to_json(),
            "stages": [
                {"stage": s.name, "entered": s.entered, "left": s.left,
                 "reasons": [{"reason": r, "count": c} for r, c in s.reasons]}
                for s in self.stages
            ],
            "survivors": self.survivor_count,
            "shrink": self.shrink,
            "ranked": [s.to_json() for s in self.survivors(limit)],
            "seconds": self.seconds,
        }

    def lines(self, limit: int = 10, top_reasons: int = 3) -> list[str]:
        out = [f"space: {self.space.describe()}"]
        out += self.roofline.lines()
        out.append("")
        out.append(f"{'stage':<11} {'in':>7} {'out':>7} {'pruned':>7}  top reasons")
        for s in self.stages:
            reasons = s.reasons[:top_reasons]
            first = f"{reasons[0][1]:>6}  {reasons[0][0]}" if reasons else ""
            out.append(f"{s.name:<11} {s.entered:>7} {s.left:>7} {s.pruned:>7}  {first}")
            for text, count in reasons[1:]:
                out.append(f"{'':<11} {'':>7} {'':>7} {'':>7}  {count:>6}  {text}")
        out.append(f"survivors: {self.survivor_count} of {self.size} ({self.shrink:.0f}x smaller)")
        out.append("")
        out.append(f"{'#':>3} {'est us':>9} {'compute':>8} {'memory':>8} {'launch':>7}  candidate")
        for s in self.survivors(limit):
            out.append(f"{s.rank:>3} {s.estimate_s * 1e6:>9.3f} {s.compute_s * 1e6:>8.3f} "
                       f"{s.memory_s * 1e6:>8.3f} {s.launch_s * 1e6:>7.2f}  {s.candidate.short(self.knobs)}")
        return out


def _prune(code: np.ndarray, alive: np.ndarray, mask: np.ndarray, reason: Reason) -> None:
    """Mark alive candidates matching `mask` as pruned with `reason` (first reason wins)."""
    hit = alive & mask
    code[hit] = reason.code
    alive &= ~hit


def _stage_reasons(code: np.ndarray, entering: np.ndarray, stage: str, cpu: bool) -> list[tuple[str, int]]:
    """(text in the target's words, count) of the reasons of canonical `stage`, most frequent first."""
    counts = np.bincount(code[entering], minlength=len(Reason))
    found = [(Reason.of_code(i).text_for(cpu), int(c)) for i, c in enumerate(counts)
             if c and Reason.of_code(i).stage == stage]
    return sorted(found, key=lambda rc: -rc[1])


# Estimates closer than this (relative) are ties for the dominance rule.
_TIE_TOLERANCE = 1e-3


def _dominated(cols: dict[str, np.ndarray], geo: TileGeometry, est: Estimate, alive: np.ndarray) -> np.ndarray:
    """Per group of equal tiles (M, N, K, fusion, quant block, schedule), all but the best variant.

    Best = fastest estimate (ties within _TIE_TOLERANCE), then least compute
    (no wasted lanes), then fewest DMA buffers, then fewest cores: the cheaper
    variant leaves scratchpad and cores to concurrent work for free.
    """
    idx = np.flatnonzero(alive)
    out = np.zeros(len(alive), dtype=bool)
    if len(idx) < 2:
        return out
    bucket = np.round(np.log(est.total_s[idx]) / np.log1p(_TIE_TOLERANCE)).astype(np.int64)
    keys = [geo.tm[idx], geo.tn[idx], geo.tk[idx], cols["fusion"][idx], cols["quant_block"][idx],
            cols["k_split"][idx]]
    tiebreak = [bucket, est.compute_s[idx], cols["dma_stages"][idx], cols["parallelism"][idx]]
    order = np.lexsort(tuple(reversed(keys + tiebreak)))
    sorted_keys = np.stack([k[order] for k in keys])
    first_of_group = np.ones(len(idx), dtype=bool)
    first_of_group[1:] = np.any(sorted_keys[:, 1:] != sorted_keys[:, :-1], axis=0)
    out[idx[order[~first_of_group]]] = True
    return out


def run_funnel(space: CandidateSpace, desc: TargetDescription,
               columns: dict[str, np.ndarray] | None = None, dispatch: str = "", estimator=None) -> FunnelResult:
    """Prune `space` stage by stage; `estimator` is the target's L0 model (`Target.estimator`).

    Without one, an accelerator with a scratchpad is estimated by its tiles, DMA and MAC array
    (`costmodel.estimate`); a CPU's register-blocking model belongs to the host target
    (`host.costmodel`), so a CPU description needs its target's estimator.
    """
    t0 = time.perf_counter()
    shape = space.shape
    cols = columns if columns is not None else space.columns()
    n = len(cols["tile_m"])
    geo = tile_geometry(shape, desc, cols)
    cpu = desc.cpu is not None  # caches and registers, not a scratchpad: register blocking costs it
    if estimator is None:
        if cpu:
            raise ValueError(f"{desc.name} is a CPU: pass its target's L0 model (estimator=target.estimator)")
        estimator = estimate
    est = estimator(shape, desc, cols, geo)
    code = np.zeros(n, dtype=np.int16)
    alive = np.ones(n, dtype=bool)
    stages: list[StageCount] = []

    names = dict(zip(FUNNEL_STAGES, desc.funnel_stages))

    def close_stage(name: str, entering: np.ndarray) -> None:
        # `name` is canonical (what reasons carry); the count shows the target's own name.
        stages.append(StageCount(names[name], int(entering.sum()), int(alive.sum()),
                                 _stage_reasons(code, entering, name, cpu)))

    # (0) legality: what llvm-cpu or the ISA cannot take at all.
    entering = alive.copy()
    vec_n, tile_n = cols["vec_n"], np.minimum(cols["tile_n"], shape.inner("n"))
    qb = cols["quant_block"]
    _prune(code, alive, cols["vec_k"] < 1, Reason.NO_VECTOR_STEP)
    _prune(code, alive, (vec_n > tile_n) & (vec_n > min(space.choices["vec_n"])), Reason.VECTOR_WIDER_THAN_TILE)
    _prune(code, alive, (qb > 0) & (geo.tk % np.maximum(qb, 1) != 0), Reason.K_TILE_NOT_QUANT_MULTIPLE)
    vector_elements = cols["vec_m"] * np.minimum(vec_n, tile_n) * cols["vec_k"]
    if shape.kind == "attention":  # the widest vector is the score block times the head step or the value lanes
        head_step = np.minimum(cols["tile_k"], max(shape.head_dim, 1))
        vector_elements = cols["vec_m"] * cols["vec_k"] * np.maximum(head_step, np.minimum(vec_n, tile_n))
    _prune(code, alive, vector_elements >= desc.max_vector_elements, Reason.VECTOR_SIZE_LIMIT)
    _prune(code, alive, cols["vec_m"] > geo.tm, Reason.VECTOR_M_BEYOND_TILE)
    close_stage("legal", entering)

    # Caches are not a capacity limit (they spill to the next level), so on a CPU
    # every tile "fits"; the cost of not fitting is in the estimate.
    fits = np.ones(n, dtype=bool) if cpu else geo.footprint_bytes <= desc.scratchpad_bytes
    runnable = alive & fits
    # (1) roofline (R5.1): attainable time from compute and traffic with re-reads.
    entering = alive.copy()
    reference_pool = alive & fits
    if reference_pool.any():
        reference = est.roofline_s[reference_pool].min()
        slow = est.roofline_s > desc.roofline_slack * reference
        compute_dominant = est.compute_s >= est.memory_s
        port_bound = est.bandwidth < desc.dram_bytes_per_s
        compulsory = shape.compulsory_bytes
        rereads = (geo.traffic_bytes - geo.unfused_extra_bytes) > _REREAD_TOLERANCE * compulsory
        _prune(code, alive, slow & compute_dominant, Reason.COMPUTE_UNDERUSED)
        if cpu:  # no DMA ports or unfused round trips: slow memory means re-streaming
            _prune(code, alive, slow, Reason.OPERAND_REREADS)
        _prune(code, alive, slow & port_bound, Reason.TOO_FEW_DMA_PORTS)
        _prune(code, alive, slow & rereads, Reason.OPERAND_REREADS)
        _prune(code, alive, slow, Reason.UNFUSED_ROUND_TRIP)
    close_stage("roofline", entering)

    # (2) scratchpad / DMA (R5.2): capacity, minimum useful DMA, useful stage depth. On a CPU
    # ("cache") nothing here applies: its tiles all fit and it has no DMA steps or buffers.
    entering = alive.copy()
    _prune(code, alive, ~fits, Reason.SCRATCHPAD_OVERFLOW)
    can_grow = ((geo.tk < shape.inner("k")) | (geo.tn < shape.inner("n")) | (geo.tm < shape.inner("m")))
    _prune(code, alive, (geo.step_bytes < desc.min_dma_bytes) & can_grow, Reason.DMA_STEP_TOO_SMALL)
    steps_per_core = np.ceil(geo.tiles / est.busy_cores) * geo.k_steps
    _prune(code, alive, cols["dma_stages"] > np.maximum(steps_per_core, 1), Reason.STAGES_WASTED)
    close_stage("scratchpad", entering)

    # (3) latency (R5.3): idle cores, descriptor queue, launches, no overlap.
    entering = alive.copy()
    # More cores than tiles idle the extra ones, but only a smaller choice that still covers
    # every tile is the same schedule for less: 16 cores on 9 tiles is one round, 8 is two.
    choices = np.array(sorted(space.choices["parallelism"]), dtype=np.int64)
    cover_at = np.searchsorted(choices, geo.tiles)  # the smallest choice >= tiles
    cover = np.where(cover_at < len(choices), choices[np.minimum(cover_at, len(choices) - 1)], np.iinfo(np.int64).max)
    _prune(code, alive, cols["parallelism"] > cover, Reason.IDLE_CORES)
    if alive.any():
        # Dominated variants go first: they never deserve a place among the survivors.
        _prune(code, alive, _dominated(cols, geo, est, alive), Reason.DOMINATED)
        best = est.total_s[alive].min()
        # The slack widens until `min_survivors` remain: a model that is right about the
        # region but not the exact point needs a few candidates to measure (R5.6: tens).
        ordered = np.sort(est.total_s[alive])
        cutoff = max(desc.latency_slack * best, ordered[min(desc.min_survivors, len(ordered)) - 1])
        slow = est.total_s > cutoff
        if not cpu:  # DMA descriptors, buffering and fusion are DSA knobs
            latency_dominant = est.latency_s >= np.maximum(est.compute_s, est.memory_s)
            _prune(code, alive, slow & latency_dominant, Reason.DESCRIPTOR_LATENCY)
            _prune(code, alive, slow & (cols["dma_stages"] == 1), Reason.SINGLE_BUFFER)
            _prune(code, alive, slow & (geo.unfused_extra_bytes > 0), Reason.SECOND_LAUNCH)
        _prune(code, alive, slow, Reason.SLOWER_THAN_SLACK)
    close_stage("latency", entering)

    survivors = np.flatnonzero(alive)
    order = survivors[np.argsort(est.total_s[survivors], kind="stable")]
    result = FunnelResult(space, desc.name, roofline(shape, desc), stages, cols, code, est, geo, order,
                          runnable=runnable, dispatch=dispatch, cpu=cpu, knobs=desc.knobs)
    result.seconds = time.perf_counter() - t0
    return result
