"""The one small base class every runner shares (kernel_tuner style)."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Iterable

from ..core.config import CompilationConfig
from ..core.measurement import Measurement


@dataclass(frozen=True)
class RunnerOptions:
    """What a user may set about measuring, whatever the target (`Target.make_runner`)."""

    repetitions: int = 5  # timed repetitions per candidate (the median is kept)
    jobs: int = 1  # parallel candidate compiles; timings stay serial
    timeout_s: float = 60.0  # per compile and per timing run
    executor: object | None = None  # an `Executor` for compiles and timings (None: `jobs` local threads)


class Runner(abc.ABC):
    """Measures candidates of a problem on one target.

    A runner never raises for a bad candidate: compile errors, run errors,
    timeouts and wrong numerics come back as a `Measurement` with that status
    and a reason, so a search records them and goes on. `config=None` means
    IREE's own default config for the dispatch.
    """

    name: str = "runner"
    # True when a time can change during a run (a real machine), so the default is
    # measured again at the end and a drift beyond DRIFT_THRESHOLD is reported.
    measures_drift: bool = False

    @abc.abstractmethod
    def measure(self, problem, config: CompilationConfig | dict | None) -> Measurement:
        ...

    def prepare(self, problem, configs: Iterable[CompilationConfig | dict | None]) -> None:
        """Do ahead what can overlap (e.g. compile many candidates in parallel).

        Optional: `measure` must work without it. The default does nothing.
        """

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
