"""What a user may set about one tuning run (the pipeline's and the search's options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class TuneOptions:
    strategy: str = "pruned"
    budget: int = 16  # measurements per dispatch
    time_budget_s: float | None = None  # seconds the whole search may take
    # The `time.perf_counter()` that budget counts from (None: when the search starts). `tune`
    # sets it to its own start: its set-up (the host runner dumps and builds the dispatch
    # benchmarks) took the encoder's tune 10 s past its 300 s budget.
    budget_started: float | None = None
    seed: int = 0
    jobs: int = 1  # parallel candidate compiles (timings stay serial)
    # Where candidates compile and time (a `runners.Executor`, e.g. `runners.ray_executor.RayExecutor`);
    # None: `jobs` local threads, timed here. The caller owns it (closes it).
    executor: object | None = None
    repetitions: int = 5  # host: timed repetitions per candidate (median)
    # host: threads the whole model is timed on (1: IREE's local-sync device; N: its task device
    # with N workers). A build tuned on one thread can lose on two: a spec found on one thread left
    # the encoder on two 0.81-0.83x of the same build without it (docs/PERFORMANCE.md 4u).
    threads: int = 1
    strategy_options: dict = field(default_factory=dict)
    dispatches: tuple[str, ...] = ()  # only these symbols (all when empty)
    # L2 (search/proposer.py): a callable request -> list of config JSON, e.g. ExternalProposer.
    proposer: Callable[[dict], list] | None = None
    proposer_budget: int | None = None  # measurements held back for proposals (None: budget // 4, >= 1)
    proposer_when: str = "always"  # "always" | "below-target" | "elite-gap" (proposer.TRIGGERS)
    proposer_min_share: float = 0.0  # ask only for dispatches with at least this Amdahl share
    # Gate (c): (problem, config) -> NumericsVerdict; None = the pipeline's check
    # (a one-dispatch spec compiled, applied and numerics compared).
    proposal_check: Callable | None = None
