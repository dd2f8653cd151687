"""The one small base class every runner shares (kernel_tuner style)."""

from __future__ import annotations

import abc
from typing import Iterable

from ..spec.config import CompilationConfig
from .measurement import Measurement


class Runner(abc.ABC):
    """Measures candidates of a problem on one target.

    A runner never raises for a bad candidate: compile errors, run errors,
    timeouts and wrong numerics come back as a `Measurement` with that status
    and a reason, so a search records them and goes on. `config=None` means
    IREE's own default config for the dispatch.
    """

    name: str = "runner"

    @abc.abstractmethod
    def measure(self, problem, config: CompilationConfig | dict | None) -> Measurement:
        ...

    def prepare(self, problem, configs: Iterable[CompilationConfig | dict | None]) -> None:
        """Do ahead what can overlap (e.g. compile many candidates in parallel).

        Optional: `measure` must work without it. The default does nothing.
        """

    def baseline(self, problem) -> Measurement:
        """IREE's default config measured; taken at the start and end of a run to flag drift."""
        return self.measure(problem, None)

    def close(self) -> None:
        """Release workers and temporary files."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def as_config(config: CompilationConfig | dict | None) -> CompilationConfig | None:
    if config is None or isinstance(config, CompilationConfig):
        return config
    return CompilationConfig.from_json(config)
