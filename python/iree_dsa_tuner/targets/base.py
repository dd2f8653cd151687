"""The one interface through which the tuner knows a target (DESIGN.md)."""

from __future__ import annotations

import abc

from ..flags import HOST_FLAGS, with_target_cpu
from ..core.candidate import TilingCandidate
from ..space.space import CandidateSpace
from ..core.config import CompilationConfig
from ..description import TargetDescription


class Target(abc.ABC):
    """A tunable target: its description, its space, and the IREE mapping both ways.

    Subclasses hold a `TargetDescription` (numbers from a data file) and turn
    candidates into `CompilationConfig`s llvm-cpu accepts, and back.
    """

    def __init__(self, description: TargetDescription):
        self._description = description

    @property
    def name(self) -> str:
        return self._description.name

    @property
    def kind(self) -> str:
        return self._description.kind

    @property
    def source(self) -> str:
        return self._description.source

    @property
    def compile_flags(self) -> tuple[str, ...]:
        """iree-compile flags of this target's llvm-cpu path (its description's `iree.target_cpu`).

        Every target, the DSA included, drives IREE's llvm-cpu code generation (a
        pure-Python package cannot add a HAL backend); a DSA pins a fixed CPU so
        that what compiles does not depend on the build machine.
        """
        cpu = self._description.iree_target_cpu
        return with_target_cpu(HOST_FLAGS, cpu)

    def describe(self) -> TargetDescription:
        """Peak ops per type, memory levels (a DSA's scratchpad and DMA, a CPU's caches), launch
        costs, ISA tile constraints."""
        return self._description

    @property
    def knobs(self) -> tuple[str, ...]:
        """The `TilingCandidate` fields this target varies; what users read shows only these
        (`TilingCandidate.short(knobs)`). A CPU has no DMA stages, fusion, INT4 block or K split."""
        return self._description.knobs

    @property
    def funnel_stages(self) -> tuple[str, ...]:
        """The funnel's stage names in this target's words (the third: scratchpad, or a CPU's cache)."""
        return self._description.funnel_stages

    @abc.abstractmethod
    def space(self, problem) -> CandidateSpace:
        """The knobs and their values for one problem (lazy; `.size` reports it)."""

    @abc.abstractmethod
    def to_config(self, problem, candidate: TilingCandidate) -> CompilationConfig:
        """The compilation_info IREE applies for this candidate."""

    @abc.abstractmethod
    def from_config(self, problem, config: CompilationConfig) -> TilingCandidate:
        """Read a candidate back from a config (e.g. one found in a configured dispatch)."""

    @property
    @abc.abstractmethod
    def runner_names(self) -> tuple[str, ...]:
        """Names of the runners that can measure a candidate on this target."""

    @abc.abstractmethod
    def make_runner(self, artifacts, options):
        """The runner that measures candidates of `artifacts`' dispatches on this target.

        `artifacts` is the model compiled once (`ir.ModelArtifacts`), `options` a
        `runners.RunnerOptions`.
        """

    @property
    @abc.abstractmethod
    def estimator(self):
        """The L0 cost model: `(shape, description, columns, geometry) -> costmodel.Estimate`."""

    def untuned_config(self, problem, iree_default: CompilationConfig) -> CompilationConfig:
        """What this target runs for a dispatch nobody tuned, given IREE's own config for it."""
        return iree_default

    # Whether every model is compiled under the compile routes (the batch-1 convolution route,
    # ir/conv_route.py, and the INT4 dequantisation fusion) when it needs them. A target whose
    # whole-model timing decides the route (the host's recipe) leaves it off here.
    always_routes_batch1_convs: bool = False
    # Whether tuning a model means searching whole-model flags and a spec confirmed by timing every
    # entry function (`tune_whole_model`), rather than dispatch by dispatch (`model_tuning.tune_model`).
    tunes_whole_model: bool = False
    # Whether the runner times candidates on a real machine (so a cluster's machines can time them);
    # a simulated target measures in this process.
    measures_on_hardware: bool = False

    def tune_whole_model(self, model, options, *, db=None, routes: bool = True, functions=None, weights=None,
                         rounds: int = 3, parameters=None, progress=None):
        """Tune `model` as a whole on a target that `tunes_whole_model` (the host's recipe: flags, its
        compile routes among them, and a spec, each confirmed by timing every entry function);
        returns a `model_tuning.ModelTuning`. `routes=False` takes no compile route; `functions`,
        `weights` and `rounds` are the whole-model timing's; `parameters` the model's weight archives."""
        raise NotImplementedError(f"target {self.name!r} tunes dispatch by dispatch, not the whole model")

    def estimate_untunable(self, traffic) -> tuple[float, str] | None:
        """(us, how) for one call of a dispatch with no tunable root op, from its `DispatchTraffic`.

        None: this target does not model such dispatches (the host measures them inside the
        whole model instead). A target that returns a time names how it was estimated.
        """
        return None

    def check_knobs(self, candidate: TilingCandidate) -> str | None:
        """Knob values this target cannot run at all, whatever the cost model says (None = fine)."""
        cores = self.describe().cores
        if not 1 <= candidate.parallelism <= cores:
            return f"parallelism {candidate.parallelism} outside 1..{cores} cores"
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, source={self.source!r})"
