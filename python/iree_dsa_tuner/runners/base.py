"""The one small base class every runner shares (kernel_tuner style)."""

from __future__ import annotations

import abc
import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
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
    # Modules (besides those of the runner's classes) whose source decides the numbers
    # this runner measures, e.g. a simulator; part of `code_version`.
    measurement_modules: tuple[str, ...] = ()

    @property
    def code_version(self) -> str:
        """sha256 of the sources that measure: the runner's class (and its bases') modules
        plus `measurement_modules`.

        The tuning database keeps it beside each record and reuses a record only under
        the same code version: a changed runner or simulator re-measures.
        """
        modules = [k.__module__ for k in type(self).__mro__ if k not in (object, abc.ABC)]
        return source_hash([*modules, *self.measurement_modules])

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


def source_hash(modules: Iterable[str]) -> str:
    """sha256 over the source files of `modules` (imported ones; a package counts as its
    `__init__`), in a stable order; a module not imported yet is found, not run. A module
    without a source file hashes by its name."""
    digest = hashlib.sha256()
    for name in sorted(set(modules)):
        module = sys.modules.get(name)
        if module is not None:
            path = getattr(module, "__file__", None)
        else:  # found, not imported: hashing a source does not run it
            spec = importlib.util.find_spec(name)
            path = spec.origin if spec is not None else None
        digest.update(name.encode() + b"\0")
        if path and Path(path).suffix == ".py":
            digest.update(Path(path).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def as_config(config: CompilationConfig | dict | None) -> CompilationConfig | None:
    if config is None or isinstance(config, CompilationConfig):
        return config
    return CompilationConfig.from_json(config)
