"""The `dsa-sim` runner: a candidate timed by the DSA plugin's cycle-approximate model.

IREE's default for a dispatch (config None) is its llvm-cpu choice read from
the configured IR, mapped onto the DSA by the target's `from_config`: the
baseline a DSA user gets without tuning.
"""

from __future__ import annotations

from ..spec.config import CompilationConfig, ConfigError
from .base import Runner, as_config
from .measurement import COMPILE_ERROR, OK, Measurement


def _k_extent(problem) -> int:
    k = 1
    for loop in problem.dim_groups.get("k", ()) or problem.dim_groups.get("filter_loop", ()):
        k *= problem.loop_sizes[loop]
    return k


class DsaSimRunner(Runner):
    name = "dsa-sim"
    measures_drift = False  # a model does not drift

    def __init__(self, target, default_configs: dict[str, CompilationConfig]):
        self.target = target
        self.defaults = default_configs

    def untuned_dsa_config(self, problem, config: CompilationConfig) -> CompilationConfig:
        """IREE's llvm-cpu tiles plus what a DSA compiler does without tuning.

        The whole K extent per DMA step, the vector width of IREE's N tile,
        every core, double buffering, and the consumer fused when IREE fused it.
        """
        desc = self.target.describe()
        n_loops = [i for i in problem.dim_groups.get("n", ())] or [i for i, t in enumerate(problem.loop_types) if t == "parallel"][-1:]
        vec_n = max([config.vector_common_parallel[i] for i in n_loops] + [1])
        knobs = {
            "iree_dsa.tile_k": _k_extent(problem),
            "iree_dsa.vector_width": vec_n,
            "iree_dsa.parallelism": desc.cores,
            "iree_dsa.dma_stages": 2,
            "iree_dsa.fusion": 1 if problem.fused_ops else 0,
        }
        return CompilationConfig(config.pipeline, config.distribution, config.vector_common_parallel,
                                 config.vector_reduction, tuple(sorted(knobs.items())))

    def measure(self, problem, config) -> Measurement:
        from iree_dsa_plugin.timing import simulate

        config = as_config(config)
        if config is None:
            config = self.defaults.get(problem.dispatch)
            if config is None:
                return Measurement.failure(COMPILE_ERROR, "IREE gave this dispatch no default config", runner=self.name)
        if not any(k.startswith("iree_dsa.") for k, _ in config.extra):
            config = self.untuned_dsa_config(problem, config)
        try:
            candidate = self.target.from_config(problem, config)
        except (ConfigError, ValueError) as e:
            return Measurement.failure(COMPILE_ERROR, f"not a DSA schedule: {e}", runner=self.name)
        timing = simulate(self.target.describe(), problem, candidate)
        us = timing.seconds * 1e6
        return Measurement(OK, median_us=us, min_us=us, repetitions=1, runner=self.name,
                           details={"cycles": timing.cycles})
