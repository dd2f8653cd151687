"""The `dsa-sim` runner: a candidate timed by the plugin's event-level simulator.

IREE's default for a dispatch (config None) is its llvm-cpu choice, mapped onto
the DSA by `DsaTarget.untuned_config`: the baseline a DSA user gets without tuning.
"""

from __future__ import annotations

from pathlib import Path

from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.runners.base import Runner, as_config

from .eventsim import simulate
from .functional import ScratchpadOverflow


class DsaSimRunner(Runner):
    name = "dsa-sim"
    # What decides a simulated time besides this module: every module of the plugin (the
    # simulator, its workload and functional model, attention, the config <-> candidate
    # mapping and the untuned config) and the tuner's shape, candidate, config, tile-list
    # and description code it runs. A change to any of them makes `code_version` differ,
    # so a reused tuning database re-measures.
    measurement_modules = (
        *(__package__ if p.stem == "__init__" else f"{__package__}.{p.stem}" for p in sorted(Path(__file__).parent.glob("*.py"))),
        "iree_dsa_tuner.core.shape", "iree_dsa_tuner.core.candidate", "iree_dsa_tuner.core.config",
        "iree_dsa_tuner.targets.mapping", "iree_dsa_tuner.description",
    )

    def __init__(self, target, default_configs: dict[str, CompilationConfig]):
        self.target = target
        self.defaults = default_configs

    def measure(self, problem, config) -> Measurement:
        config = as_config(config)
        if config is None:
            config = self.defaults.get(problem.dispatch)
            if config is None:
                return Measurement.failure(Status.COMPILE_ERROR, "IREE gave this dispatch no default config",
                                           runner=self.name)
            config = self.target.untuned_config(problem, config)
        try:
            candidate = self.target.from_config(problem, config)
        except (ConfigError, ValueError) as e:
            return Measurement.failure(Status.COMPILE_ERROR, f"not a DSA schedule: {e}", runner=self.name)
        try:
            sim = simulate(self.target.describe(), problem, candidate)
        except ScratchpadOverflow as e:
            return Measurement.failure(Status.RUN_ERROR, f"does not fit: {e}", runner=self.name)
        except ValueError as e:  # a schedule the knobs ask for but the DSA cannot run (weight_streaming.py)
            return Measurement.failure(Status.COMPILE_ERROR, f"not a DSA schedule: {e}", runner=self.name)
        us = sim.seconds * 1e6
        breakdown = {k: v for k, v in sim.to_json().items() if k not in ("seconds", "events")}
        return Measurement(Status.OK, median_us=us, min_us=us, repetitions=1, runner=self.name,
                           details=breakdown)
