"""Runners: measure a candidate config of one dispatch.

- `host-bench` (`HostBenchRunner`): the host CPU, for real, with iree-benchmark-module.
- `replay` (`ReplayRunner`): recorded measurements played back (tests, no hardware).
A target makes its runner (`Target.make_runner`); the DSA's simulator runner lives
in its plugin.
"""

from __future__ import annotations

from .base import Runner, RunnerOptions, as_config
from .executor import Executor, LocalProcessPool, LocalThreadPool, SerialExecutor, make_executor
from .replay import ReplayRunner

__all__ = [
    "Executor",
    "LocalProcessPool",
    "LocalThreadPool",
    "ReplayRunner",
    "Runner",
    "RunnerOptions",
    "SerialExecutor",
    "as_config",
    "make_executor",
]
