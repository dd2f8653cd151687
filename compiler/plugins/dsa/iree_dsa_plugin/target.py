"""The DSA target family: description files -> `Target` objects for the tuner.

The DSA has no HAL backend of its own in the IREE wheel, so a DSA candidate is
expressed as an llvm-cpu `compilation_info` (DESIGN.md): `distribution` is the
per-core tile, the vector levels are one MAC step, and the knobs llvm-cpu has
no word for travel in the translation_info configuration dictionary under
`iree_dsa.*` keys, which survive into the configured dispatch.
"""

from __future__ import annotations

from pathlib import Path

from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.costmodel.kind import scratchpad_estimate
from iree_dsa_tuner.runners.base import Runner, RunnerOptions
from iree_dsa_tuner.core.shape import gemm_shape
from iree_dsa_tuner.space.space import CandidateSpace
from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.targets.base import Target
from iree_dsa_tuner.description import description_files
from iree_dsa_tuner.targets.mapping import group_tiles, loop_types, tile_lists
from iree_dsa_tuner.targets.registry import files_of_kind, load_files

from . import attention
from .space import dsa_space

BUILTIN_DIR = Path(__file__).with_name("targets")

# Pipelines per problem kind on the llvm-cpu functional path.
PIPELINE_BY_KIND = {"contraction": "DoubleTilingExpert", "convolution": "ConvTileAndDecomposeExpert"}

# translation_info configuration keys and the candidate fields they carry.
EXTRA_KEYS = {
    "iree_dsa.tile_k": "tile_k",
    "iree_dsa.parallelism": "parallelism",
    "iree_dsa.dma_stages": "dma_stages",
    "iree_dsa.fusion": "fusion",
    "iree_dsa.vector_width": "vec_n",
    "iree_dsa.quant_block": "quant_block",
    "iree_dsa.k_split": "k_split",
}
# Written only when set (INT4 weights; a weight-streaming schedule): a config without them
# reads back as no quant block and the output-stationary schedule.
_OPTIONAL_EXTRA = {"iree_dsa.quant_block", "iree_dsa.k_split"}


def _k_extent(problem) -> int:
    """The whole reduction: a GEMM's K, a convolution's input channels x filter taps."""
    groups = problem.dim_groups
    loops = groups.get("k", ()) or tuple(groups.get("filter_loop", ())) + tuple(groups.get("input_channel", ()))
    k = 1
    for loop in loops:
        k *= problem.loop_sizes[loop]
    return k


def _dsa_knobs(config: CompilationConfig) -> dict:
    extra = dict(config.extra)
    for key in EXTRA_KEYS:
        if key not in extra and key not in _OPTIONAL_EXTRA:
            raise ConfigError(f"config has no {key!r} in translation_info configuration: not a DSA config")
    return extra


class DsaTarget(Target):
    """One DSA generation, simulated by the in-tree functional model and event simulator."""

    def space(self, problem) -> CandidateSpace:
        if attention.is_attention(problem):
            return attention.attention_space(problem, self.describe())
        return dsa_space(problem, self.describe())

    def to_config(self, problem, candidate: TilingCandidate) -> CompilationConfig:
        if attention.is_attention(problem):
            extra = {key: getattr(candidate, attr) for key, attr in EXTRA_KEYS.items() if key not in _OPTIONAL_EXTRA}
            return attention.attention_to_config(problem, candidate, extra)
        shape = gemm_shape(problem)
        if candidate.vec_k < 1:
            raise ConfigError(f"candidate has no vector step llvm-cpu can compile: {candidate.short()}")
        dist, vec, red = tile_lists(shape, candidate.tile_m, candidate.tile_n,
                                    candidate.vec_m, candidate.vec_n, candidate.vec_k)
        extra = {key: getattr(candidate, attr) for key, attr in EXTRA_KEYS.items()
                 if key not in _OPTIONAL_EXTRA or getattr(candidate, attr)}
        config = CompilationConfig(PIPELINE_BY_KIND[shape.kind], dist, vec, red, tuple(sorted(extra.items())))
        config.check_against(loop_types(shape))
        return config

    def from_config(self, problem, config: CompilationConfig) -> TilingCandidate:
        if attention.is_attention(problem):
            return attention.attention_from_config(problem, config, _dsa_knobs(config))
        shape = gemm_shape(problem)
        config.check_against(loop_types(shape))
        extra = _dsa_knobs(config)
        t = group_tiles(shape, config)
        return TilingCandidate(
            tile_m=t["tile_m"], tile_n=t["tile_n"], tile_k=extra["iree_dsa.tile_k"],
            vec_m=t["vec_m"], vec_n=extra["iree_dsa.vector_width"], vec_k=t["vec_k"],
            parallelism=extra["iree_dsa.parallelism"], dma_stages=extra["iree_dsa.dma_stages"],
            fusion=extra["iree_dsa.fusion"], quant_block=extra.get("iree_dsa.quant_block", 0),
            k_split=extra.get("iree_dsa.k_split", 0),
        )

    def untuned_config(self, problem, iree_default: CompilationConfig) -> CompilationConfig:
        """IREE's llvm-cpu tiles plus what a DSA compiler does without tuning.

        The whole K extent per DMA step, the vector width of IREE's N tile,
        every core, double buffering, and the consumer fused when IREE fused it.
        An INT4 weight IREE fused with its dequantisation streams in the largest
        block of the description that divides the model's group (its scales must
        be read per group whatever the schedule).
        """
        desc = self.describe()
        if attention.is_attention(problem):
            return attention.attention_untuned_config(desc, problem, iree_default)
        n_loops = list(problem.dim_groups.get("n", ())) or \
            [i for i, t in enumerate(problem.loop_types) if t == "parallel"][-1:]
        vec_n = max([iree_default.vector_common_parallel[i] for i in n_loops] + [1])
        knobs = {
            "iree_dsa.tile_k": _k_extent(problem),
            "iree_dsa.vector_width": vec_n,
            "iree_dsa.parallelism": desc.cores,
            "iree_dsa.dma_stages": 2,
            "iree_dsa.fusion": 1 if problem.fused_ops else 0,
        }
        quant = getattr(problem, "weight_quant", None)  # attention has none, and no GEMM shape
        group = quant.group_size if quant is not None and quant.form == "fused" and quant.operand == 1 else 0
        blocks = [b for b in desc.quant_block_sizes if group and group % b == 0]
        if blocks:
            knobs["iree_dsa.quant_block"] = max(blocks)

        def config(tile_k: int) -> CompilationConfig:
            return CompilationConfig(iree_default.pipeline, iree_default.distribution,
                                     iree_default.vector_common_parallel, iree_default.vector_reduction,
                                     tuple(sorted({**knobs, "iree_dsa.tile_k": tile_k}.items())))

        # ...and, like any DSA compiler, a K step whose buffers fit the scratchpad: the
        # whole K where it fits, else the largest power of two (a quant block multiple) that does.
        tile_k = knobs["iree_dsa.tile_k"]
        floor = max(knobs.get("iree_dsa.quant_block", 1), 1)
        while tile_k > floor and not self._fits(problem, config(tile_k)):
            smaller = 1 << ((tile_k - 1).bit_length() - 1)  # the power of two below tile_k
            tile_k = max(smaller, floor)
        return config(tile_k)

    def _fits(self, problem, config: CompilationConfig) -> bool:
        from .eventsim import workload_for
        from .functional import ScratchpadOverflow

        try:
            workload_for(self.describe(), problem, self.from_config(problem, config))
        except ScratchpadOverflow:
            return False
        except (ConfigError, ValueError):
            return True  # not a GEMM schedule the simulator reads: nothing to shrink
        return True

    def check_knobs(self, candidate: TilingCandidate) -> str | None:
        why = super().check_knobs(candidate)
        if why:
            return why
        desc = self.describe()
        # The DSA issues only the vector widths and buffer depths its description lists.
        if candidate.vec_n not in desc.vector_widths:
            return f"vector width {candidate.vec_n} not one of {list(desc.vector_widths)}"
        if candidate.dma_stages not in desc.stage_depths:
            return f"dma_stages {candidate.dma_stages} not one of {list(desc.stage_depths)}"
        if candidate.quant_block and candidate.quant_block not in desc.quant_block_sizes:
            return f"quant_block {candidate.quant_block} not one of {list(desc.quant_block_sizes)}"
        if candidate.k_split < 0 or candidate.k_split > candidate.parallelism:
            return f"k_split {candidate.k_split} outside 0..parallelism ({candidate.parallelism})"
        return None

    def l2_moves(self, problem, start: TilingCandidate) -> list[tuple[str, TilingCandidate]]:
        """L2's schedule moves beyond L1's ladders (replan.py): `start`'s schedule re-planned
        with balanced row bands, K slices that pad the core's share least, exact N tiles."""
        from .replan import replans

        return replans(self.describe(), problem, start)

    def l2_estimate_s(self, problem, candidate: TilingCandidate) -> float | None:
        """What L2 ranks proposals by: the schedule's own traffic and issues read statically
        (replan.static_estimate_s), None when it cannot run."""
        from .replan import static_estimate_s

        return static_estimate_s(self.describe(), problem, candidate)

    def l2_floor_s(self, problem) -> float:
        """Seconds no schedule of `problem` beats on this part (replan.physical_floor_s): the
        roofline bound plus what the simulator charges every schedule (launch, DRAM pages, INT4
        scales)."""
        from .replan import physical_floor_s

        return physical_floor_s(self.describe(), problem)

    # A batch-1 conv cannot be tuned in place (IREE drops its config); the route makes it a
    # tunable contraction, and a DSA has no whole-model timing that could prefer it unrouted.
    always_routes_batch1_convs = True

    def estimate_untunable(self, traffic) -> tuple[float, str]:
        from .streaming import estimate_streaming

        e = estimate_streaming(self.describe(), traffic)
        return e.seconds * 1e6, f"estimated: streaming, {e.bound}-bound (bytes / DRAM, element ops / vector unit)"

    def make_runner(self, artifacts, options: RunnerOptions) -> Runner:
        from .runner import DsaSimRunner

        return DsaSimRunner(self, artifacts.default_configs())

    @property
    def estimator(self):
        return scratchpad_estimate  # attention's flash schedule or the GEMM scratchpad/DMA/MAC-array model

    @property
    def runner_names(self) -> tuple[str, ...]:
        return ("dsa-sim",)


def builtin_description_files() -> list[Path]:
    return description_files(BUILTIN_DIR)


def provide_targets(search_paths=()) -> list:
    """Built-in DSA descriptions, then `kind = "dsa"` files from the user's search paths.

    Files in the search paths whose kind cannot be read are claimed here so
    their error (file + field) reaches the user instead of being skipped.
    """
    builtin, errors = load_files(builtin_description_files(), DsaTarget)
    user, user_errors = load_files(files_of_kind(search_paths, "dsa", claim_unknown=True), DsaTarget)
    return builtin + user + errors + user_errors
