"""Per-dispatch times of one whole-model build on the host: where the model's time goes.

IREE 3.13's local HAL has no per-dispatch profiling, so a build is timed dispatch by dispatch
from its own dispatch benchmarks: the model is compiled with the build's flags (and spec) and
`--iree-hal-dump-executable-benchmarks-to`, which writes, per executable, a module whose
benchmark function dispatches it in a loop with the configs that build chose (the spec's and
IREE's). Each module is compiled and timed with `iree-benchmark-module --batch_size=B`, one
thread. A dispatch's time in the model is its time per call x its calls per call of the model
(read from the host program, `ir.host_program`).

What this does not see: the host program's own work between dispatches (allocation, copies
outside dispatches, waits), and inputs: benchmark buffers are zeros (written before timing, so
their memory is real, `ir.benchmark_buffers`), so a dispatch whose time depends on its data
(masks, NaNs) may differ. The sum of the dispatches beside the measured
whole-model time says how much that is.
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..compiler import CompileError, compile_to_vmfb, find_tool, tuning_spec_flags
from ..errors import InputError
from .host import exclusive_timing

_TIME_UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


@dataclass
class DispatchTime:
    """One dispatch of a build: its time per call (None when it could not be timed) and calls."""

    dispatch: str
    us: float | None
    calls: int
    error: str = ""

    @property
    def total_us(self) -> float | None:
        return self.us * self.calls if self.us is not None else None

    def to_json(self) -> dict:
        return {"dispatch": self.dispatch, "us_per_call": None if self.us is None else round(self.us, 3),
                "calls": self.calls, "total_us": None if self.total_us is None else round(self.total_us, 3),
                "error": self.error}


def _entry_points(benchmark: Path) -> list[tuple[str, str]]:
    """(benchmark function, dispatch symbol) of one dumped module. The function is named
    `<executable>_<variant>_<export>`; the export (`hal.executable.export`) is the dispatch."""
    from iree.compiler import ir

    functions, exports = [], []

    def walk(op) -> None:
        name = op.operation.name
        attributes = op.operation.attributes
        if name == "hal.executable.export":
            exports.append(ir.StringAttr(attributes["sym_name"]).value)
        elif name == "util.func" and "iree.reflection" in attributes:
            reflection = ir.DictAttr(attributes["iree.reflection"])
            if "iree.benchmark" in reflection and ir.StringAttr(reflection["iree.benchmark"]).value == "dispatch":
                functions.append(ir.StringAttr(attributes["sym_name"]).value)
        if name in ("builtin.module", "hal.executable", "hal.executable.variant"):
            for region in op.operation.regions:
                for block in region.blocks:
                    for child in block.operations:
                        walk(child)

    with ir.Context():
        module = ir.Module.parse(benchmark.read_text())
        walk(module.operation)
    return [(f, max((e for e in exports if f.endswith("_" + e)), key=len, default=f)) for f in functions]


def _time_function(vmfb: Path, function: str, repetitions: int, min_run_s: float, timeout_s: float) -> float:
    """Median us per dispatch of `function`, each repetition running about `min_run_s` of dispatches."""

    def run(batch: int, reps: int) -> list[float]:
        argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-sync",
                f"--function={function}", f"--batch_size={batch}", f"--benchmark_min_time={batch}x",
                f"--benchmark_repetitions={reps}", "--benchmark_format=json"]
        with exclusive_timing():
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False)
        if proc.returncode != 0:
            lines = [line for line in proc.stderr.splitlines() if line.strip()]
            raise RuntimeError(lines[-1] if lines else f"iree-benchmark-module exited {proc.returncode}")
        document = json.loads(proc.stdout[proc.stdout.find("{"):])
        # iree-benchmark-module reports per batch item (one dispatch) already
        return [float(b["real_time"]) * _TIME_UNIT_TO_US[b.get("time_unit", "ns")]
                for b in document.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]

    probe = run(1, 1)
    if not probe:
        raise RuntimeError("iree-benchmark-module reported no repetitions")
    batch = max(1, min(10000, math.ceil(min_run_s * 1e6 / max(probe[0], 0.1))))
    return statistics.median(run(batch, repetitions))


def _with_buffers_written(benchmark: Path, work: Path) -> Path:
    """The dumped benchmark with its buffers written before they are timed (ir.benchmark_buffers)."""
    from iree.compiler import ir

    from ..ir.benchmark_buffers import write_buffers_first

    out = work / ("written." + benchmark.name)
    with ir.Context():
        module = ir.Module.parse(benchmark.read_text())
        write_buffers_first(module)
        out.write_text(module.operation.get_asm(assume_verified=True))
    return out


def profile_build(model: str | Path, target_flags: tuple[str, ...], flags: tuple[str, ...] = (),
                  spec: str | Path | None = None, *, calls: dict[str, int] | None = None, jobs: int = 1,
                  repetitions: int = 5, min_run_s: float = 0.02, timeout_s: float = 600.0,
                  progress=None) -> list[DispatchTime]:
    """Every dispatch of the build `target_flags + flags (+ spec)` of `model`, timed alone, with its
    calls (`calls`: dispatch -> calls per call of the model; a dispatch it lacks runs at load only,
    0 calls; without `calls` each dispatch counts once)."""
    say = progress or (lambda text: None)
    extra = tuple(flags) + (tuning_spec_flags(Path(spec)) if spec else ())
    with tempfile.TemporaryDirectory(prefix="iree-dsa-profile-") as tmp:
        work = Path(tmp)
        dump = work / "benchmarks"
        try:
            compile_to_vmfb(model, work / "model.vmfb", target_flags=target_flags, timeout_s=timeout_s,
                            extra_flags=extra + (f"--iree-hal-dump-executable-benchmarks-to={dump}",))
        except CompileError as e:
            raise InputError(f"{model}: the build does not compile: {str(e).splitlines()[0]}") from None
        benchmarks = sorted(dump.glob("*.mlir"))
        say(f"timing {len(benchmarks)} dispatch benchmarks of the build ({' '.join(extra) or 'IREE defaults'})")

        def build(path: Path) -> tuple[Path, Path | None, str]:
            out = work / (path.stem + ".vmfb")
            try:  # the dumped module holds the build's configs: compiled as it is, its buffers written first
                compile_to_vmfb(_with_buffers_written(path, work), out, target_flags=target_flags,
                                timeout_s=timeout_s, retries=0)
                return path, out, ""
            except CompileError as e:
                return path, None, str(e).splitlines()[0]

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            built = list(pool.map(build, benchmarks))
        times: list[DispatchTime] = []
        for n, (path, vmfb, error) in enumerate(built, start=1):
            for function, dispatch in _entry_points(path):
                # Absent from the host program's public functions: it runs at load (an initializer).
                count = calls.get(dispatch, 0) if calls is not None else 1
                if vmfb is None:
                    times.append(DispatchTime(dispatch, None, count, f"benchmark does not compile: {error}"))
                    continue
                try:
                    us = _time_function(vmfb, function, repetitions, min_run_s, timeout_s)
                    times.append(DispatchTime(dispatch, us, count))
                except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                    times.append(DispatchTime(dispatch, None, count, f"benchmark failed: {e}"))
            if n % 10 == 0:
                say(f"    {n}/{len(built)} timed")
    return sorted(times, key=lambda t: (-(t.total_us or 0.0), t.dispatch))


__all__ = ["DispatchTime", "profile_build"]
