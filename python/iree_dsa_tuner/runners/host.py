"""Timing one dispatch on the host CPU under a candidate config, with iree-benchmark-module.

How a candidate is measured (IREE 3.13, each step tried on this machine):

1. Once per model (`ir.artifacts`, shared with discovery and verify): the
   compile that dumps the executable sources also dumps one standalone
   benchmark module per dispatch (`--iree-hal-dump-executable-benchmarks-to`:
   its executable plus a function that dispatches it on scratch buffers).
   `--compile-from=executable-sources` of a dumped source does NOT produce
   benchmarks in 3.13, so the per-dispatch benchmark file is the unit we
   recompile, not the executable source.
2. The dumped benchmark carries IREE's default config, and compiling it with a
   spec leaves both configs on the op (IREE_NOTES trap), so the artifacts keep
   it with every config attribute stripped: recompiling lets IREE configure the
   dispatch afresh, with its default or with the spec's config. Cost per
   candidate is one dispatch, whatever the model.
3. Per candidate: `iree-compile STRIPPED --iree-codegen-tuning-spec-path=SPEC
   --iree-hal-benchmark-dispatch-repeat-count=R
   --iree-hal-dump-executable-configurations-to=CDIR -o cand.vmfb`; the
   configured dump proves the spec applied (a matcher that misses is silent).
   The build's `--iree-preprocessing-*` flags are left out: the dump is past
   preprocessing, and a route's script run on it again rewrites the formed op.
4. `iree-benchmark-module --device=local-sync --batch_size=B
   --benchmark_min_time=Bx --benchmark_repetitions=W+N --benchmark_format=json`:
   local-sync runs on the calling thread (one thread). Measured in 3.13: the
   benchmark function loops `--batch_size` times over a body holding R
   dispatches (R baked in at compile time), google-benchmark counts B
   iterations per call, and `real_time` is per iteration, i.e. the time of R
   dispatches whatever B is (B = 1 and B = R give the same number). With
   `--benchmark_min_time=Bx` each repetition is exactly one call (without it a
   repetition runs for 0.5 s). So per-dispatch time is `real_time / R`; B only
   sets how long a repetition is. The first W repetitions are warm-up and
   dropped.

Compiles of many candidates may run in parallel (`prepare`, through an
executor); timings never overlap: the runner hands one at a time to the
executor's `run_timing` (here, or on a benchmark worker of a Ray cluster), and
a process lock plus an flock on a file in the temp directory serialise them
across threads and processes of one machine. Call
`prepare` for a batch and then `measure` each candidate, rather than compiling
the next batch in the background while timing: on a 2-core box a concurrent
iree-compile shows up in the timings.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from ..compiler import compile_to_vmfb, executable_benchmark_flags, find_tool, first_error_line, tuning_spec_flags
from ..core.fingerprint import DEFAULT_CANDIDATE_KEY, candidate_key
from ..errors import CompileError, CompileTimeout
from ..core.config import CompilationConfig
from .base import Runner, as_config
from .executor import Executor, ExecutorError, make_executor
from ..core.measurement import Measurement
from ..core.status import Status

# R is unrolled into the compiled module (a compile-time cost); B is a
# runtime loop, so long repetitions of tiny dispatches come from B.
_MAX_DISPATCH_REPEAT = 100
_MAX_BATCH = 100_000

_TIME_UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

_TIMING_LOCK = threading.Lock()
TIMING_LOCK_FILE = Path(tempfile.gettempdir()) / "iree-dsa-tuner-host-timing.lock"


@contextlib.contextmanager
def exclusive_timing(lock_file: Path = TIMING_LOCK_FILE):
    """Only one host timing at a time on this machine (threads and processes)."""
    with _TIMING_LOCK:
        with open(lock_file, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


# ---- the compile step (module level: it runs in executor workers) -----------------

@dataclass(frozen=True)
class CompileJob:
    """Everything one candidate compile needs; picklable for process pools."""

    problem: object  # RootOpProblem
    config: dict | None  # None: IREE's default
    benchmark_source: str  # stripped benchmark module of the dispatch
    out_dir: str
    dispatch_repeat: int
    target_flags: tuple[str, ...]
    timeout_s: float


@dataclass
class CompiledCandidate:
    """A candidate's benchmark module, or why there is none."""

    key: str
    vmfb: str | None
    dispatch_repeat: int
    failure: Measurement | None = None
    lowering_config: str | None = None  # what IREE actually configured
    compile_s: float = 0.0


def _configured_lowering(config_dir: Path, symbol: str) -> tuple[str | None, str | None]:
    """(lowering_config, translation_info) IREE put on `symbol`'s root op."""
    from ..ir.configured import read_configured_dispatches

    for path in sorted(config_dir.glob("*.mlir")):
        text = path.read_text(errors="replace")
        if symbol not in text:
            continue
        for dispatch in read_configured_dispatches(text):
            if dispatch.symbol == symbol:
                return dispatch.lowering_config, dispatch.translation_info
    return None, None


def compile_candidate(job: CompileJob) -> CompiledCandidate:
    """Compile one candidate's benchmark module; failures come back as data."""
    from ..tuning_spec.builder import build_spec
    from ..tuning_spec.reading import canonical_attr

    key = candidate_key(job.config)
    out = Path(job.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    def failed(status: str, reason: str) -> CompiledCandidate:
        return CompiledCandidate(key, None, job.dispatch_repeat, Measurement.failure(status, reason),
                                 compile_s=time.monotonic() - started)

    flags = [f"--iree-hal-benchmark-dispatch-repeat-count={job.dispatch_repeat}"]
    config = None
    if job.config is not None:
        try:
            config = CompilationConfig.from_json(job.config)
            spec_text = build_spec([job.problem], {job.problem.dispatch: config})
        except Exception as e:  # an illegal candidate is a result, not a crash
            return failed(Status.COMPILE_ERROR, f"spec: {e}")
        spec_path = out / "spec.mlir"
        spec_path.write_text(spec_text)
        flags.extend(tuning_spec_flags(spec_path))
    config_dir = out / "configured"
    shutil.rmtree(config_dir, ignore_errors=True)
    flags.append(f"--iree-hal-dump-executable-configurations-to={config_dir}")
    vmfb = out / "candidate.vmfb"
    try:
        compile_to_vmfb(job.benchmark_source, vmfb, extra_flags=tuple(flags), target_flags=job.target_flags, retries=0,
                        timeout_s=job.timeout_s)
    except CompileTimeout:
        return failed(Status.TIMEOUT, f"iree-compile did not finish in {job.timeout_s:g} s")
    except CompileError as e:
        return failed(Status.COMPILE_ERROR, str(e))
    lowering, _ = _configured_lowering(config_dir, job.problem.dispatch)
    if config is not None:
        # A matcher that misses leaves IREE's default in place without a word.
        wanted = canonical_attr(config.lowering_config_text())
        if lowering is None or canonical_attr(lowering) != wanted:
            return failed(Status.COMPILE_ERROR, f"the spec did not apply: IREE configured {lowering or 'nothing'}")
    return CompiledCandidate(key, str(vmfb), job.dispatch_repeat, None, lowering, time.monotonic() - started)


@dataclass(frozen=True)
class DetachedCompile:
    """A compile for a worker that may not see this machine's files: the source travels as text."""

    job: CompileJob
    source_text: str


@dataclass
class DetachedCompiled:
    """What a detached compile sends back: the result, and the module as bytes (None on failure)."""

    compiled: CompiledCandidate
    vmfb_bytes: bytes | None


def compile_detached(task: DetachedCompile) -> DetachedCompiled:
    """`compile_candidate` in a private temporary directory; the module comes back as bytes."""
    with tempfile.TemporaryDirectory(prefix="iree-dsa-compile-") as tmp:
        source = Path(tmp) / "benchmark.mlir"
        source.write_text(task.source_text)
        local = replace(task.job, benchmark_source=str(source), out_dir=str(Path(tmp) / "out"))
        compiled = compile_candidate(local)
        data = Path(compiled.vmfb).read_bytes() if compiled.vmfb else None
    return DetachedCompiled(replace(compiled, vmfb=None), data)


def land_detached(job: CompileJob, result: DetachedCompiled) -> CompiledCandidate:
    """Write a detached compile's module where a local compile of `job` would have put it."""
    if result.vmfb_bytes is None:
        return result.compiled
    out = Path(job.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    vmfb = out / "candidate.vmfb"
    vmfb.write_bytes(result.vmfb_bytes)
    return replace(result.compiled, vmfb=str(vmfb))


# ---- the timing step (module level: it runs where the executor times) ----------------

@dataclass(frozen=True)
class TimingJob:
    """One timing run of a compiled candidate; picklable, and self-contained when `vmfb_bytes` is set."""

    vmfb: str  # the module's path on the machine that compiled it
    dispatch_repeat: int
    flags: tuple[str, ...]  # iree-benchmark-module flags besides --module (device, batch, repetitions)
    warmup: int
    timeout_s: float
    candidate: str = DEFAULT_CANDIDATE_KEY  # which candidate this is (for a replacement timer, and logs)
    vmfb_bytes: bytes | None = None  # the module itself, for a worker that cannot read `vmfb`


def time_candidate(job: TimingJob) -> Measurement:
    """Time one compiled candidate with iree-benchmark-module, alone on this machine."""
    with contextlib.ExitStack() as stack:
        vmfb = job.vmfb
        if job.vmfb_bytes is not None:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="iree-dsa-time-")))
            vmfb = str(tmp / "candidate.vmfb")
            Path(vmfb).write_bytes(job.vmfb_bytes)
        argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", *job.flags]
        with exclusive_timing():
            try:
                proc = subprocess.run(argv, capture_output=True, timeout=job.timeout_s, check=False)
            except subprocess.TimeoutExpired:
                return Measurement.failure(Status.TIMEOUT,
                                           f"iree-benchmark-module did not finish in {job.timeout_s:g} s")
    stdout = proc.stdout.decode("utf-8", errors="replace")
    stderr = proc.stderr.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        return Measurement.failure(
            Status.RUN_ERROR, first_error_line(stderr, f"iree-benchmark-module exited with status {proc.returncode}"))
    try:
        times = parse_benchmark_json(_json_part(stdout), job.dispatch_repeat, job.warmup)
    except (ValueError, KeyError) as e:
        return Measurement.failure(Status.RUN_ERROR, f"cannot read iree-benchmark-module output: {e}")
    if not times:
        return Measurement.failure(Status.RUN_ERROR, "iree-benchmark-module reported no timed repetitions")
    return Measurement(status=Status.OK, median_us=statistics.median(times), min_us=min(times),
                       repetitions=len(times), details={"times_us": [round(t, 3) for t in times]})


# ---- benchmark output ---------------------------------------------------------------

def parse_benchmark_json(text: str, dispatch_repeat: int, warmup: int) -> list[float]:
    """Per-dispatch real times (us) of each measured repetition; warm-up dropped."""
    document = json.loads(text)
    per_call = []
    for entry in document.get("benchmarks", []):
        if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
            continue
        scale = _TIME_UNIT_TO_US.get(entry.get("time_unit", "ns"))
        if scale is None:
            raise ValueError(f"unknown time unit {entry.get('time_unit')!r}")
        per_call.append(float(entry["real_time"]) * scale)
    return [t / dispatch_repeat for t in per_call[warmup:]]


def _json_part(stdout: str) -> str:
    """The JSON document in iree-benchmark-module's stdout (it may print before it)."""
    start = stdout.find("{")
    return stdout[start:] if start >= 0 else stdout


# ---- the runner -----------------------------------------------------------------------

class HostBenchRunner(Runner):
    """Measures one dispatch of a compiled model (`artifacts`) on this CPU, one thread, per config.

    `repetitions` measured repetitions after `warmup` discarded ones. Each
    repetition runs the compiled body of `dispatch_repeat` dispatches (about
    `min_call_s` by a rough estimate) `batch` times, at least
    `min_batch` and about `min_repetition_s` in all. `timeout_s` bounds each
    compile and each timing run. `jobs` compile workers (or an `executor`)
    serve `prepare`; the executor also decides where timings run (`timer`,
    by default `time_candidate`, is called there). Candidates are compiled in
    `work_dir` (a temporary directory, removed by close(), when not given). The repeat counts come
    from a single-core estimate of the dispatch at `description`'s peak and
    bandwidth: a config slower than that only makes a call longer.
    """

    name = "host-bench"
    measures_drift = True

    def __init__(
        self,
        artifacts,
        description,
        *,
        repetitions: int = 5,
        warmup: int = 1,
        timeout_s: float = 60.0,
        jobs: int = 1,
        executor: Executor | None = None,
        work_dir: str | os.PathLike | None = None,
        min_call_s: float = 0.002,
        min_repetition_s: float = 0.1,
        min_batch: int = 5,
        timer: Callable[[TimingJob], Measurement] = time_candidate,
    ):
        if repetitions < 1:
            raise ValueError("repetitions must be at least 1")
        self.artifacts = artifacts
        # One core at its peak and the DRAM bandwidth: the optimistic bound for repeat counts.
        self._flops_per_s = description.peak_ops("f32") / max(description.cores, 1)
        self._bytes_per_s = description.dram_bytes_per_s
        self._attention_efficiency = description.cpu.attention_efficiency if description.cpu else None
        # IREE's default softmax runs ~100x below its parts (docs/SOFTMAX.md): runs sized for it.
        self._softmax_efficiency = float(description.extras.get("host_space", {}).get("softmax_efficiency", 1.0))
        self.repetitions = repetitions
        self.warmup = max(0, warmup)
        self.timeout_s = timeout_s
        self.target_flags = executable_benchmark_flags(tuple(artifacts.target_flags))
        self.min_call_s = min_call_s
        self.min_repetition_s = min_repetition_s
        self.min_batch = max(1, min_batch)
        self.timer = timer  # module level (picklable): it runs where the executor times
        self._owns_executor = executor is None
        self.executor = executor or make_executor(jobs)
        self._owns_work_dir = work_dir is None
        self.work_dir = Path(work_dir) if work_dir else Path(tempfile.mkdtemp(prefix="iree-dsa-host-bench-"))
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self._compiled: dict[tuple[str, str], CompiledCandidate] = {}
        self._lock = threading.Lock()

    # ---- per candidate --------------------------------------------------------
    def _estimate_s(self, problem) -> float:
        rate = self._flops_per_s
        if getattr(problem, "kind", "") == "attention" and self._attention_efficiency:
            rate *= self._attention_efficiency  # sized for what IREE's attention runs at, not the peak
        if getattr(problem, "kind", "") == "softmax":
            rate *= self._softmax_efficiency
        return max(problem.flops / rate, problem.bytes / self._bytes_per_s, 1e-7)

    def dispatch_repeat(self, problem) -> int:
        """Dispatches compiled into one benchmark body: about `min_call_s` of work."""
        return max(1, min(_MAX_DISPATCH_REPEAT, math.ceil(self.min_call_s / self._estimate_s(problem))))

    def batch(self, problem, dispatch_repeat: int) -> int:
        """Body executions per repetition: about `min_repetition_s`, at least `min_batch`."""
        wanted = math.ceil(self.min_repetition_s / (dispatch_repeat * self._estimate_s(problem)))
        return max(self.min_batch, min(_MAX_BATCH, wanted))

    def _job(self, problem, config: CompilationConfig | None, source: str) -> CompileJob:
        key = candidate_key(config.to_json() if config else None)
        digest = hashlib.sha256(f"{problem.dispatch}\n{key}".encode()).hexdigest()[:16]
        return CompileJob(problem, config.to_json() if config else None, source,
                          str(self.work_dir / "candidates" / digest), self.dispatch_repeat(problem),
                          self.target_flags, self.timeout_s)

    def _source_or_failure(self, problem) -> tuple[str | None, Measurement | None]:
        source = self.artifacts.benchmark_files.get(problem.dispatch)
        if source is None:
            return None, Measurement.failure(
                Status.COMPILE_ERROR, f"IREE made no benchmark for {problem.dispatch} (dynamic shapes?)")
        return source, None

    def prepare(self, problem, configs: Iterable[CompilationConfig | dict | None]) -> None:
        """Compile candidates ahead of timing, `jobs` at a time."""
        source, failure = self._source_or_failure(problem)
        jobs = []
        for config in configs:
            try:
                config = as_config(config)
            except Exception:
                continue  # measure() reports it
            key = candidate_key(config.to_json() if config else None)
            if (problem.dispatch, key) in self._compiled or failure is not None:
                continue
            jobs.append(self._job(problem, config, source))
        for compiled in self._compile(jobs):
            self._compiled[(problem.dispatch, compiled.key)] = compiled

    @property
    def timing_hardware(self) -> str | None:
        """What timings run on when that is not this machine (the executor knows)."""
        return self.executor.timing_hardware

    def _compile(self, jobs: list[CompileJob]) -> list[CompiledCandidate]:
        """Compile through the executor; a worker that may not see our files gets the source as text."""
        if not self.executor.ships_files:
            return self.executor.map(compile_candidate, jobs)
        texts = {job.benchmark_source: Path(job.benchmark_source).read_text() for job in jobs}
        results = self.executor.map(compile_detached, [DetachedCompile(job, texts[job.benchmark_source])
                                                       for job in jobs])
        return [land_detached(job, result) for job, result in zip(jobs, results)]

    def compiled(self, problem, config) -> CompiledCandidate:
        config = as_config(config)
        key = candidate_key(config.to_json() if config else None)
        found = self._compiled.get((problem.dispatch, key))
        if found is None:
            source, failure = self._source_or_failure(problem)
            if failure is not None:
                return CompiledCandidate(key, None, 0, failure)
            found = self._compile([self._job(problem, config, source)])[0]
            self._compiled[(problem.dispatch, key)] = found
        return found

    def measure(self, problem, config) -> Measurement:
        candidate_json = None
        try:
            config = as_config(config)
            candidate_json = config.to_json() if config else None
            compiled = self.compiled(problem, config)
            details = {"dispatch_repeat": compiled.dispatch_repeat, "compile_s": round(compiled.compile_s, 3)}
            if compiled.failure is not None:
                result = compiled.failure
            else:
                details["batch"] = self.batch(problem, compiled.dispatch_repeat)
                result = self._time(compiled, details["batch"])
            if compiled.lowering_config:
                details["lowering_config"] = compiled.lowering_config
        except ExecutorError:
            raise  # the workers are gone: not this candidate's result, so nothing is recorded
        except Exception as e:  # nothing about one candidate may stop a run
            result, details = Measurement.failure(Status.COMPILE_ERROR, f"{type(e).__name__}: {e}"), {}
        return replace(result, runner=self.name, candidate=candidate_json, dispatch=problem.dispatch,
                       details={**details, **result.details})

    def _time(self, compiled: CompiledCandidate, batch: int) -> Measurement:
        flags = (
            "--device=local-sync",  # one thread: the one that runs the benchmark
            # One call per repetition: B loop trips of R dispatches each.
            f"--batch_size={batch}",
            f"--benchmark_min_time={batch}x",
            f"--benchmark_repetitions={self.warmup + self.repetitions}",
            "--benchmark_format=json",
        )
        shipped = Path(compiled.vmfb).read_bytes() if self.executor.ships_files else None
        job = TimingJob(compiled.vmfb, compiled.dispatch_repeat, flags, self.warmup, self.timeout_s,
                        compiled.key, shipped)
        return self.executor.run_timing(self.timer, job)

    def close(self) -> None:
        if self._owns_executor:
            self.executor.close()
        if self._owns_work_dir:
            shutil.rmtree(self.work_dir, ignore_errors=True)


__all__ = [
    "CompileJob",
    "CompiledCandidate",
    "DEFAULT_CANDIDATE_KEY",
    "DetachedCompile",
    "HostBenchRunner",
    "TimingJob",
    "compile_candidate",
    "compile_detached",
    "exclusive_timing",
    "parse_benchmark_json",
    "time_candidate",
]
