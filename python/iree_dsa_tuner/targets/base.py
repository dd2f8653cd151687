"""The one interface through which the tuner knows a target (DESIGN.md)."""

from __future__ import annotations

import abc

from ..space.candidate import TilingCandidate
from ..space.space import CandidateSpace
from ..spec.config import CompilationConfig
from .description import TargetDescription


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

    def describe(self) -> TargetDescription:
        """Peak ops per type, memory levels, DMA and launch costs, ISA tile constraints."""
        return self._description

    @abc.abstractmethod
    def space(self, problem) -> CandidateSpace:
        """The knobs and their values for one problem (lazy; `.size` reports it)."""

    @abc.abstractmethod
    def to_config(self, problem, candidate: TilingCandidate) -> CompilationConfig:
        """The compilation_info IREE applies for this candidate."""

    @abc.abstractmethod
    def from_config(self, problem, config: CompilationConfig) -> TilingCandidate:
        """Read a candidate back from a config (e.g. one found in a configured dispatch)."""

    def compilation_info(self, problem, candidate: TilingCandidate) -> str:
        return self.to_config(problem, candidate).compilation_info_text()

    @property
    @abc.abstractmethod
    def runner_names(self) -> tuple[str, ...]:
        """Names of the runners that can measure a candidate on this target."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, source={self.source!r})"
