"""Runners: measure a candidate config of one dispatch.

- `host-bench` (`HostBenchRunner`): the host CPU, for real, with iree-benchmark-module.
- `replay` (`ReplayRunner`): recorded measurements played back (tests, no hardware).
- `dsa-sim` (`DsaSimRunner`): the DSA plugin's cycle-approximate timing model
  (`iree_dsa_plugin.timing`), reached through the target's interface.
"""

from __future__ import annotations

import importlib

from .base import Runner
from .executor import Executor, LocalProcessPool, LocalThreadPool, SerialExecutor, make_executor
from .host import HostBenchRunner
from .measurement import (
    COMPILE_ERROR,
    OK,
    RUN_ERROR,
    STATUSES,
    TIMEOUT,
    WRONG_NUMERICS,
    Measurement,
    drift,
)
from .replay import ReplayRunner

# Runner name -> "module:Class". The simulator is the DSA plugin's; the tuner
# only knows where to find it, so the two packages stay decoupled.
RUNNER_CLASSES = {
    "host-bench": "iree_dsa_tuner.runners.host:HostBenchRunner",
    "replay": "iree_dsa_tuner.runners.replay:ReplayRunner",
    "dsa-sim": "iree_dsa_tuner.runners.dsa_sim:DsaSimRunner",
}


def runner_class(name: str) -> type[Runner]:
    from ..errors import InputError

    if name not in RUNNER_CLASSES:
        raise InputError(f"unknown runner {name!r}; known: {', '.join(RUNNER_CLASSES)}")
    module_name, class_name = RUNNER_CLASSES[name].split(":")
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as e:
        raise InputError(f"runner {name!r} is not available: {e}") from None


def make_runner(name: str, *args, **kwargs) -> Runner:
    return runner_class(name)(*args, **kwargs)


__all__ = [
    "COMPILE_ERROR",
    "Executor",
    "HostBenchRunner",
    "LocalProcessPool",
    "LocalThreadPool",
    "Measurement",
    "OK",
    "RUNNER_CLASSES",
    "RUN_ERROR",
    "ReplayRunner",
    "Runner",
    "STATUSES",
    "SerialExecutor",
    "TIMEOUT",
    "WRONG_NUMERICS",
    "drift",
    "make_executor",
    "make_runner",
    "runner_class",
]
