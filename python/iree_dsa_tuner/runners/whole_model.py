"""Timing a whole model: its entry function, compiled under a recipe (flags + spec), one thread.

Dispatch time is not model time (a dispatch benchmark runs on scratch buffers, without the
packing, copies and launches around it), so every model-level decision is confirmed here:
each variant is compiled once, then all variants are timed in interleaved rounds
(`iree-benchmark-module --device=local-sync --function=ENTRY` on zero-filled inputs of the
function's own shapes), and a variant is better only beyond the noise the rounds show.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import compile_to_vmfb, find_tool, first_error_line, tuning_spec_flags
from ..errors import CompileError, InputError
from .host import exclusive_timing

_TIME_UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
# Below this relative difference two medians are the same whatever the rounds say.
MIN_NOISE = 0.02


@dataclass
class Variant:
    """One way to build the model: extra compile flags and an optional tuning spec."""

    name: str
    flags: tuple[str, ...] = ()
    spec: Path | None = None
    vmfb: Path | None = None
    error: str = ""
    times_us: list[float] = field(default_factory=list)  # one median per round

    @property
    def median_us(self) -> float | None:
        return statistics.median(self.times_us) if self.times_us else None

    @property
    def noise(self) -> float:
        """Relative noise of this variant's rounds: 2 x the median absolute deviation over the median.

        A robust spread: one round slowed by a neighbour on a shared machine does not make a
        2.5x faster variant "within the noise", while rounds that disagree throughout do.
        At least MIN_NOISE.
        """
        median = self.median_us
        if len(self.times_us) < 2 or not median:
            return MIN_NOISE
        mad = statistics.median(abs(t - median) for t in self.times_us)
        return max(MIN_NOISE, 2.0 * mad / median)

    def to_json(self) -> dict:
        return {"name": self.name, "flags": list(self.flags), "spec": str(self.spec) if self.spec else None,
                "median_us": self.median_us, "rounds_us": [round(t, 2) for t in self.times_us],
                "noise": round(self.noise, 4), "error": self.error}


def beats(candidate: Variant, incumbent: Variant) -> bool:
    """Faster beyond the noise of both: the only way a model-level decision is kept."""
    if candidate.median_us is None or incumbent.median_us is None:
        return False
    margin = max(candidate.noise, incumbent.noise)
    return candidate.median_us < incumbent.median_us * (1.0 - margin)


_SUB_BYTE_BITS = {"i1": 1, "i2": 2, "i4": 4, "si4": 4, "ui4": 4}


def entry_inputs(signature: list[tuple[tuple[int, ...], str]], scratch_dir: Path | None = None) -> list[str]:
    """`--input=` flags of zero-filled arguments (timing does not depend on the values of a GEMM).

    iree-benchmark-module cannot parse a splat of a sub-byte type (an i4 weight), so those
    are zero bytes from a file in `scratch_dir`, packed as the runtime reads them.
    """
    out = []
    for i, (shape, element) in enumerate(signature):
        dims = "x".join(str(d) for d in shape)
        prefix = f"--input={dims + 'x' if dims else ''}{element}="
        bits = _SUB_BYTE_BITS.get(element)
        if bits is None:
            out.append(prefix + "0")
            continue
        if scratch_dir is None:
            raise ValueError(f"argument {i} is {element}: zero inputs of a sub-byte type need a scratch directory")
        zeros = Path(scratch_dir) / f"input{i}.{element}.bin"
        zeros.write_bytes(bytes(-(-math.prod(shape) * bits // 8)))
        out.append(prefix + "@" + str(zeros))
    return out


class WholeModelTimer:
    """Compiles variants of one model and times its entry function in interleaved rounds."""

    def __init__(self, model: Path, target_flags: tuple[str, ...], function: str,
                 signature: list[tuple[tuple[int, ...], str]], *, work_dir: Path | None = None,
                 timeout_s: float = 300.0, repetitions: int = 3):
        self.model, self.target_flags, self.function = Path(model), tuple(target_flags), function
        self._tmp = None if work_dir else tempfile.TemporaryDirectory(prefix="iree-dsa-whole-model-")
        self.work_dir = Path(work_dir) if work_dir else Path(self._tmp.name)
        self.inputs = entry_inputs(signature, self.work_dir)
        self.timeout_s, self.repetitions = timeout_s, repetitions
        self._iterations: int | None = None

    def compile(self, variant: Variant) -> Variant:
        key = hashlib.sha256(json.dumps([variant.flags, str(variant.spec)]).encode()).hexdigest()[:12]
        out = self.work_dir / f"{key}.vmfb"
        flags = tuple(variant.flags) + (tuning_spec_flags(variant.spec) if variant.spec else ())
        try:
            compile_to_vmfb(self.model, out, extra_flags=flags, target_flags=self.target_flags,
                            timeout_s=self.timeout_s)
            variant.vmfb = out
        except (CompileError, InputError) as e:  # a variant IREE cannot build is a result, not a crash
            variant.error = str(e).splitlines()[0]
        return variant

    def _run(self, vmfb: Path, iterations: int) -> float:
        argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-sync",
                f"--function={self.function}", *self.inputs, f"--benchmark_min_time={iterations}x",
                f"--benchmark_repetitions={self.repetitions}", "--benchmark_format=json"]
        with exclusive_timing():
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout_s, check=False)
        if proc.returncode != 0:
            raise RuntimeError(first_error_line(proc.stderr, f"iree-benchmark-module exited {proc.returncode}"))
        document = json.loads(proc.stdout[proc.stdout.find("{"):])
        times = [float(b["real_time"]) * _TIME_UNIT_TO_US[b.get("time_unit", "ns")]
                 for b in document.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
        if not times:
            raise RuntimeError("iree-benchmark-module reported no repetitions")
        return statistics.median(times)

    def time(self, variants: list[Variant], rounds: int = 3, seconds_per_call: float = 0.05) -> list[Variant]:
        """Each buildable variant timed once per round, rounds interleaved (A B C, A B C, ...)."""
        ready = [v for v in variants if v.vmfb is not None and not v.error]
        if not ready:
            return variants
        if self._iterations is None:  # calls per repetition: about `seconds_per_call` for the first variant
            probe = self._run(ready[0].vmfb, 1)
            self._iterations = max(1, min(1000, math.ceil(seconds_per_call * 1e6 / max(probe, 1.0))))
        for _ in range(rounds):
            for v in ready:
                try:
                    v.times_us.append(self._run(v.vmfb, self._iterations))
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    v.error = f"timing failed: {e}"
        return variants

    def settle(self, candidate: Variant, incumbent: Variant, most_rounds: int) -> bool:
        """More interleaved rounds of the two while the candidate looks faster but not beyond the noise.

        On a shared machine one disturbed round can hide a real 2x win (or fake one). A
        lead that holds up as rounds are added ends up beyond the noise; one that was a
        fluke does not. Stops at `most_rounds` rounds each. Returns `beats(candidate, incumbent)`.
        """
        while (not beats(candidate, incumbent) and candidate.median_us is not None
               and incumbent.median_us is not None and candidate.median_us < incumbent.median_us
               and min(len(candidate.times_us), len(incumbent.times_us)) < most_rounds
               and not candidate.error and not incumbent.error):
            self.time([incumbent, candidate], 1)
        return beats(candidate, incumbent)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
