"""Several models on one part (R1.8): how to split the cores between them, each with its own spec set.

A partition gives model i `cores_i` of the part's cores. The models run concurrently, so they
also share DRAM: each gets bandwidth in proportion to its cores (the arbitration a fair NoC
gives; the part's total is never exceeded). Each partition is judged with IREE's default
schedules (cheap: the event simulator only); the one that minimises the worst chunk-over-budget
ratio is then tuned, model by model, on its share of the part, and each model's spec set is
stored under `<target>-<cores>c` in the library (its configs use at most those cores).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import InputError
from ..search.options import TuneOptions
from .manifest import Manifest
from .run import TaskResult, run_task


def share_of(target, cores: int):
    """`target` reduced to `cores` of its cores and that share of its DRAM bandwidth."""
    desc = target.describe()
    fraction = cores / desc.cores
    share = desc.with_changes(name=f"{desc.name}-{cores}c", cores=cores,
                              dram_bytes_per_s=desc.dram_bytes_per_s * fraction,
                              declared_peak_ops_i8=desc.declared_peak_ops_i8 * fraction)
    return type(target)(share)


def partitions(cores: int, models: int, step: int) -> list[tuple[int, ...]]:
    """Every split of `cores` into `models` positive parts, each a multiple of `step` (or the remainder)."""
    sizes = list(range(step, cores, step))
    out = []
    for split in itertools.product(sizes, repeat=models - 1):
        last = cores - sum(split)
        if last >= 1:
            out.append((*split, last))
    return out


@dataclass
class PartitionResult:
    cores: tuple[int, ...]
    results: list[TaskResult]
    considered: list[dict] = field(default_factory=list)  # per partition: the default chunk ms of each model

    @property
    def meets_all(self) -> bool:
        return all(r.after.meets_budget for r in self.results)

    def to_json(self) -> dict:
        return {"partition": list(self.cores), "meets_all_budgets": self.meets_all,
                "models": [dict(r.to_json(), cores=c) for r, c in zip(self.results, self.cores)],
                "considered": self.considered}


def partition_task(manifests: list[Manifest], target, options: TuneOptions, *, budget_ms: float | None = None,
                   library: Path | None = None, retune: bool = False,
                   progress: Callable[[str], None] | None = None, db=None) -> PartitionResult:
    """`db`: the tuning database every run goes through (`run_task`'s), or None."""
    say = progress or (lambda text: None)
    cores = target.describe().cores
    if len(manifests) > cores:
        raise InputError(f"{len(manifests)} models cannot share {cores} cores")
    step = max(1, cores // 8)  # at most 8 sizes per model keeps the search to seconds
    considered = []
    best, best_score = None, float("inf")
    for split in partitions(cores, len(manifests), step):
        chunks = [run_task(m, share_of(target, c), options, budget_ms=budget_ms, tune=False, db=db).after
                  for m, c in zip(manifests, split)]
        score = max(t.chunk_ms / t.budget_ms for t in chunks)
        considered.append({"partition": list(split), "default_chunk_ms": [round(t.chunk_ms, 3) for t in chunks],
                           "worst_over_budget": round(score, 4)})
        if score < best_score:
            best, best_score = split, score
    say(f"partition {best} of {cores} cores (worst chunk/budget {best_score:.2f} with IREE's defaults); tuning")
    results = [run_task(m, share_of(target, c), options, budget_ms=budget_ms, library=library, retune=retune,
                        progress=progress, db=db) for m, c in zip(manifests, best)]
    return PartitionResult(tuple(best), results, considered)
