"""Where a runner's work runs: the executor seam.

`map(fn, items)` returns `[fn(item) for item in items]`, in order, possibly
computed in parallel: runners use it for the work that may overlap
(compiling candidates). `run_timing(fn, item)` runs one timing where timings
are taken (see below); a runner never overlaps two.

Three executors ship:
- `SerialExecutor`: in the calling thread (jobs=1, tests, debugging).
- `LocalThreadPool(jobs)`: threads. What runners use by default: a candidate
  compile is an `iree-compile` subprocess (the GIL is released while it runs)
  plus a little MLIR-bindings work, so threads give the parallelism without
  re-importing the tuner in every worker.
- `LocalProcessPool(jobs)`: a `concurrent.futures.ProcessPoolExecutor` with
  `jobs` worker processes, started with `spawn` (the tuner holds MLIR contexts,
  whose thread pools a fork would copy half-locked). For Python-heavy work.
  `fn` and the items must be picklable (module-level functions, dataclasses of
  paths and plain data), and a script using it needs the usual
  `if __name__ == "__main__":` guard, because spawned workers import `__main__`.

Timings go through the executor too, but never in parallel: a runner hands
one timing at a time to `run_timing(fn, item)`. Local executors run it here,
in the calling thread; `runners.ray_executor.RayExecutor` compiles on a Ray
cluster and times on one benchmark actor per machine, pinned to one CPU, after
checking that every timing machine is the same hardware. Such an executor sets
`ships_files`: its workers may not see the driver's files, so a runner sends
what a job reads and gets back what it writes.
"""

from __future__ import annotations

import abc
import multiprocessing
import os
from concurrent.futures import Executor as _FuturesExecutor
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Callable, Iterable, TypeVar

from ..errors import TunerError

Item = TypeVar("Item")
Result = TypeVar("Result")


class ExecutorError(TunerError):
    """The place work runs is gone or unusable (a lost worker, a mismatched cluster).

    Not a result of the candidate: runners let it stop the run rather than record it.
    """


class Executor(abc.ABC):
    """Runs `fn` over `items`; results in input order."""

    jobs: int = 1
    # True when workers may not see this process's files (jobs carry their inputs as data).
    ships_files: bool = False
    # What timings ran on, when that is not this machine (it joins the tuning records' key).
    timing_hardware: str | None = None

    @abc.abstractmethod
    def map(self, fn: Callable[[Item], Result], items: Iterable[Item]) -> list[Result]:
        ...

    def run_timing(self, fn: Callable[[Item], Result], item: Item) -> Result:
        """`fn(item)` where timings are taken, one at a time: here, in the calling thread."""
        return fn(item)

    def close(self) -> None:
        """Release workers; the executor may not be used afterwards."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SerialExecutor(Executor):
    """Runs everything in the calling thread."""

    def map(self, fn, items):
        return [fn(item) for item in items]


class _PooledExecutor(Executor):
    """`jobs` workers from a concurrent.futures pool, created on first use and reused."""

    def __init__(self, jobs: int):
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.jobs = jobs
        self._pool: _FuturesExecutor | None = None

    @abc.abstractmethod
    def _make_pool(self) -> _FuturesExecutor:
        """The pool kind (processes or threads) each subclass names."""

    def map(self, fn, items):
        items = list(items)
        if self.jobs == 1 or len(items) <= 1:
            return [fn(item) for item in items]
        if self._pool is None:
            self._pool = self._make_pool()
        return list(self._pool.map(fn, items))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class LocalProcessPool(_PooledExecutor):
    """`jobs` worker processes on this machine (spawned: safe beside threads and IREE)."""

    def _make_pool(self) -> _FuturesExecutor:
        return ProcessPoolExecutor(max_workers=self.jobs, mp_context=multiprocessing.get_context("spawn"))


class LocalThreadPool(_PooledExecutor):
    """`jobs` threads (compiles are iree-compile subprocesses, so threads suffice)."""

    def _make_pool(self) -> _FuturesExecutor:
        return ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="iree-dsa-compile")


def usable_cores() -> int:
    """CPUs this process may run on (its affinity mask, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def make_executor(jobs: int, kind: str = "thread") -> Executor:
    """The local executor for `jobs` workers: `thread` (default) or `process`."""
    if jobs <= 1:
        return SerialExecutor()
    if kind == "process":
        return LocalProcessPool(jobs)
    if kind == "thread":
        return LocalThreadPool(jobs)
    raise ValueError(f"unknown executor kind {kind!r}; expected 'thread' or 'process'")
