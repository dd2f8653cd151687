"""The `dsa-sim` runner: a candidate timed by the plugin's event-level simulator.

IREE's default for a dispatch (config None) is its llvm-cpu choice, mapped onto
the DSA by `DsaTarget.untuned_config`: the baseline a DSA user gets without tuning.
"""

from __future__ import annotations

from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.runners.base import Runner, as_config

from .eventsim import simulate
from .functional import ScratchpadOverflow


class DsaSimRunner(Runner):
    name = "dsa-sim"

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
        us = sim.seconds * 1e6
        breakdown = {k: v for k, v in sim.to_json().items() if k not in ("seconds", "events")}
        return Measurement(Status.OK, median_us=us, min_us=us, repetitions=1, runner=self.name,
                           details=breakdown)
