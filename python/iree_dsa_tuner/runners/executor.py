"""Where independent work (candidate compiles) runs: the executor seam.

An `Executor` has one job: `map(fn, items)` returns `[fn(item) for item in
items]`, in order, possibly computed in parallel. Runners use it for the
work that may overlap (compiling candidates); timings never go through it,
a runner times one candidate at a time itself.

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

Plugging in a distributed engine (Ray) for users who outgrow one machine --
no Ray dependency here, the seam is all it needs:

    import ray

    class RayExecutor(Executor):
        def __init__(self, address="auto", num_cpus_per_task=1):
            ray.init(address=address, ignore_reinit_error=True)
            self._remote = ray.remote(num_cpus=num_cpus_per_task)(_call)

        def map(self, fn, items):
            # One task per item; ray.get keeps the input order.
            return ray.get([self._remote.remote(fn, item) for item in items])

    def _call(fn, item):
        return fn(item)

and pass `executor=RayExecutor()` to a runner (e.g. `HostBenchRunner(...,
executor=...)`). The same picklability rule holds. Two things differ from a
local pool: worker nodes need the same wheels (iree-base-compiler, this
package) installed, and artifacts must land on storage every node and the
timing host see (give the runner a shared `work_dir`). Host timings still
run on the one machine the tuning is for, so only compiles fan out.
"""

from __future__ import annotations

import abc
import multiprocessing
from concurrent.futures import Executor as _FuturesExecutor
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Callable, Iterable, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class Executor(abc.ABC):
    """Runs `fn` over `items`; results in input order."""

    jobs: int = 1

    @abc.abstractmethod
    def map(self, fn: Callable[[Item], Result], items: Iterable[Item]) -> list[Result]:
        ...

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


def make_executor(jobs: int, kind: str = "thread") -> Executor:
    """The local executor for `jobs` workers: `thread` (default) or `process`."""
    if jobs <= 1:
        return SerialExecutor()
    if kind == "process":
        return LocalProcessPool(jobs)
    if kind == "thread":
        return LocalThreadPool(jobs)
    raise ValueError(f"unknown executor kind {kind!r}; expected 'thread' or 'process'")
