"""Timing a whole model: every entry function, compiled under a recipe (flags + spec), one thread.

Dispatch time is not model time (a dispatch benchmark runs on scratch buffers, without the
packing, copies and launches around it), so every model-level decision is confirmed here:
each variant is compiled once, then all variants are timed in interleaved rounds, function by
function (A f1, B f1, A f2, B f2, ...: `iree-benchmark-module --device=local-sync --function=F`
on zero-filled inputs of F's own shapes, and the model's parameter archives, `--parameters`,
when it reads its weights from them). A module has several entry functions, and a flag
that speeds one can slow another (data tiling with ukernels made an 8x256x64 batch matmul
0.55x as fast while it sped a projection up), so a variant is better only when no function
gets slower beyond its noise and the weighted total gets faster beyond the noise.

Rounds are interleaved, so two variants timed in the same rounds are compared round by round: the
noise is then the spread of the per-round ratios, not of each variant's own times. A neighbour
that slows one round slows both sides of it alike, so its load cancels in the ratio; compared
median to median, a drift from 100 to 200 us across rounds made a steady 2x win "within the
noise". With fewer than MIN_PAIRED_ROUNDS shared rounds, each variant's own spread is the noise.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import compile_to_vmfb, find_tool, first_error_line, tuning_spec_flags
from ..core.measurement import relative_spread
from ..errors import CompileError, InputError
from ..runners.host import exclusive_timing

_TIME_UNIT_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
# Below this relative difference two medians are the same whatever the rounds say.
MIN_NOISE = 0.02
# Shared rounds from which two variants are compared round by round (their ratios' spread).
MIN_PAIRED_ROUNDS = 3


def _relative_noise(times_us: list[float]) -> float:
    """2 x the median absolute deviation over the median, at least MIN_NOISE.

    A robust spread: one round slowed by a neighbour on a shared machine does not make a
    2.5x faster variant "within the noise", while rounds that disagree throughout do.
    """
    if len(times_us) < 2:
        return MIN_NOISE
    return max(MIN_NOISE, relative_spread(times_us))


@dataclass
class Variant:
    """One way to build the model: extra compile flags and an optional tuning spec, and its times.

    `rounds_us` holds, per entry function, one median per interleaved round. The model's
    time is the weighted sum of the functions' medians (`weights`, 1 for a function not
    named there); a variant timed on some functions only (a spec, confirmed where its
    dispatches run) has a total over those.
    """

    name: str
    flags: tuple[str, ...] = ()
    spec: Path | None = None
    vmfb: Path | None = None
    error: str = ""
    rounds_us: dict[str, list[float]] = field(default_factory=dict)
    # Per function, which of the timer's rounds each of `rounds_us` came from (pairs rounds of two
    # variants; empty for times not from a WholeModelTimer round).
    round_ids: dict[str, list[int]] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    dropped: str = ""  # why it got no more rounds (far behind the fastest after the first): never chosen
    compile_s: float | None = None  # what building it took (beside the other builds of its batch)
    # Where a build with a spec dumped its executable configurations: verifying that spec on this
    # build reads them instead of building the model again (ACT: 39 s of a 300 s budget).
    configurations: Path | None = None

    @property
    def functions(self) -> list[str]:
        """The functions this variant was timed on, in timing order."""
        return [f for f, times in self.rounds_us.items() if times]

    def weight(self, function: str) -> float:
        return self.weights.get(function, 1.0)

    def function_median_us(self, function: str) -> float | None:
        times = self.rounds_us.get(function)
        return statistics.median(times) if times else None

    def function_noise(self, function: str) -> float:
        return _relative_noise(self.rounds_us.get(function, []))

    def total_us(self, functions: list[str] | None = None) -> float | None:
        """Weighted sum of the medians of `functions` (default: all timed); None if one is missing."""
        functions = self.functions if functions is None else functions
        medians = [self.function_median_us(f) for f in functions]
        if not functions or any(m is None for m in medians):
            return None
        return sum(self.weight(f) * m for f, m in zip(functions, medians))

    def total_noise(self, functions: list[str] | None = None) -> float:
        """Relative noise of the weighted total: each function's noise, weighted by its share of the total."""
        functions = self.functions if functions is None else functions
        total = self.total_us(functions)
        if not total:
            return MIN_NOISE
        spread = sum(self.weight(f) * self.function_median_us(f) * self.function_noise(f) for f in functions)
        return max(MIN_NOISE, spread / total)

    @property
    def median_us(self) -> float | None:
        """The model's time: the weighted total over every function this variant was timed on."""
        return self.total_us()

    @property
    def noise(self) -> float:
        return self.total_noise()

    @property
    def times_us(self) -> list[float]:
        """Per round, the weighted total over the functions (for reports; decisions use the medians)."""
        functions = self.functions
        rounds = min((len(self.rounds_us[f]) for f in functions), default=0)
        return [sum(self.weight(f) * self.rounds_us[f][r] for f in functions) for r in range(rounds)]

    def to_json(self) -> dict:
        return {"name": self.name, "flags": list(self.flags), "spec": str(self.spec) if self.spec else None,
                "median_us": self.median_us, "noise": round(self.noise, 4), "error": self.error,
                "compile_s": round(self.compile_s, 2) if self.compile_s is not None else None,
                "functions": {f: {"median_us": self.function_median_us(f), "noise": round(self.function_noise(f), 4),
                                  "weight": self.weight(f), "rounds_us": [round(t, 2) for t in self.rounds_us[f]]}
                              for f in self.functions}}


def _margin(candidate: Variant, incumbent: Variant, function: str) -> float:
    return max(candidate.function_noise(function), incumbent.function_noise(function))


def _by_round(v: Variant, function: str) -> dict[int, float]:
    ids, times = v.round_ids.get(function, []), v.rounds_us.get(function, [])
    return dict(zip(ids, times)) if len(ids) == len(times) else {}


def paired_ratio(candidate: Variant, incumbent: Variant, functions: list[str]) -> tuple[float, float] | None:
    """(median, noise) of candidate / incumbent over the rounds both were timed in on every one of
    `functions` (their weighted totals per round), the noise being the ratios' spread (2 x MAD /
    median, at least MIN_NOISE); None below MIN_PAIRED_ROUNDS shared rounds."""
    mine = {f: _by_round(candidate, f) for f in functions}
    theirs = {f: _by_round(incumbent, f) for f in functions}
    shared = set.intersection(*(set(mine[f]) & set(theirs[f]) for f in functions)) if functions else set()
    if len(shared) < MIN_PAIRED_ROUNDS:
        return None
    ratios = []
    for r in sorted(shared):
        total = sum(incumbent.weight(f) * theirs[f][r] for f in functions)
        if total <= 0:
            return None
        ratios.append(sum(candidate.weight(f) * mine[f][r] for f in functions) / total)
    return statistics.median(ratios), max(MIN_NOISE, relative_spread(ratios))


def slower_functions(candidate: Variant, incumbent: Variant) -> dict[str, float]:
    """The functions `candidate` makes slower beyond the noise: {function: candidate/incumbent time}.
    Round by round where they share rounds (the module docstring), else beyond the noise of both."""
    out = {}
    for f in incumbent.functions:
        mine, theirs = candidate.function_median_us(f), incumbent.function_median_us(f)
        if mine is None or not theirs:
            continue
        paired = paired_ratio(candidate, incumbent, [f])
        if paired is not None:
            if paired[0] > 1.0 + paired[1]:
                out[f] = paired[0]
        elif mine > theirs * (1.0 + _margin(candidate, incumbent, f)):
            out[f] = mine / theirs
    return out


def beats(candidate: Variant, incumbent: Variant) -> bool:
    """The only way a model-level decision is kept: on every function the incumbent was timed on,
    the candidate was timed too, none got slower beyond the noise, and the weighted total got
    faster beyond the noise (round by round where they share rounds, else beyond the noise of
    both totals)."""
    functions = incumbent.functions
    if candidate.error or incumbent.error or candidate.dropped or not functions:
        return False
    if any(candidate.function_median_us(f) is None for f in functions) or slower_functions(candidate, incumbent):
        return False
    paired = paired_ratio(candidate, incumbent, functions)
    if paired is not None:
        return paired[0] < 1.0 - paired[1]
    mine, theirs = candidate.total_us(functions), incumbent.total_us(functions)
    margin = max(candidate.total_noise(functions), incumbent.total_noise(functions))
    return mine < theirs * (1.0 - margin)


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


Signature = list[tuple[tuple[int, ...], str]]
LONG_CALL_US = 1e6  # a function call this long is timed once per round


def device_flags(threads: int) -> tuple[str, ...]:
    """iree-benchmark-module's device for `threads` threads: the calling thread alone (local-sync)
    for one, IREE's task device with that many workers for more."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    if threads == 1:
        return ("--device=local-sync",)
    return ("--device=local-task", f"--task_topology_max_group_count={threads}")


class WholeModelTimer:
    """Compiles variants of one model and times its entry functions in interleaved rounds."""

    def __init__(self, model: Path, target_flags: tuple[str, ...], entries: dict[str, Signature] | str,
                 signature: Signature | None = None, *, weights: dict[str, float] | None = None,
                 work_dir: Path | None = None, timeout_s: float = 300.0, repetitions: int = 3,
                 parameters=None, threads: int = 1):
        """`entries`: {function: its arguments (shape, element type)}, every function to time, in
        order; one function's name with its `signature` (the older form) times that one alone.
        `parameters` (`parameters.Parameters`): the archives the model's weights are read from
        (without them a model with `#flow.parameter.named` globals cannot run). `threads`: 1 runs each
        call on the calling thread (`local-sync`); N on IREE's task device with N workers."""
        if isinstance(entries, str):
            entries = {entries: signature or []}
        if not entries:
            raise ValueError("no entry function to time")
        self.model, self.target_flags = Path(model), tuple(target_flags)
        self.functions = list(entries)
        self.weights = {f: float(w) for f, w in (weights or {}).items() if f in entries}
        self._tmp = None if work_dir else tempfile.TemporaryDirectory(prefix="iree-dsa-whole-model-")
        self.work_dir = Path(work_dir) if work_dir else Path(self._tmp.name)
        self.inputs = {}
        for i, (function, sig) in enumerate(entries.items()):
            scratch = self.work_dir / f"inputs{i}"  # sub-byte zeros of each function apart: shapes differ
            scratch.mkdir(parents=True, exist_ok=True)
            self.inputs[function] = entry_inputs(sig, scratch)
        self.timeout_s, self.repetitions = timeout_s, repetitions
        self.parameters = parameters
        self.parameter_flags = parameters.runtime_flags() if parameters is not None else ()
        self.device_flags = device_flags(threads)
        self._iterations: dict[str, int] = {}
        self._repetitions: dict[str, int] = {}
        self._round = 0  # rounds timed so far: each time of a round carries its number (Variant.round_ids)

    def compile(self, variant: Variant) -> Variant:
        key = hashlib.sha256(json.dumps([variant.flags, str(variant.spec)]).encode()).hexdigest()[:12]
        out = self.work_dir / f"{key}.vmfb"
        flags = tuple(variant.flags) + (tuning_spec_flags(variant.spec) if variant.spec else ())
        configurations = out.with_suffix(".configurations") if variant.spec else None
        if configurations is not None:
            flags += (f"--iree-hal-dump-executable-configurations-to={configurations}",)
        t0 = time.perf_counter()
        try:
            compile_to_vmfb(self.model, out, extra_flags=flags, target_flags=self.target_flags,
                            timeout_s=self.timeout_s)
            variant.vmfb, variant.configurations = out, configurations
            variant.compile_s = time.perf_counter() - t0
        except (CompileError, InputError) as e:  # a variant IREE cannot build is a result, not a crash
            variant.error = str(e).splitlines()[0]
        return variant

    def _repetitions_us(self, vmfb: Path, function: str, iterations: int, clock: str = "real_time") -> list:
        """One iree-benchmark-module run of `function`: each repetition's (wall, `clock`) time in us."""
        argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", *self.device_flags,
                f"--function={function}", *self.parameter_flags, *self.inputs[function],
                f"--benchmark_min_time={iterations}x",
                f"--benchmark_repetitions={self._repetitions.get(function, self.repetitions)}",
                "--benchmark_format=json"]
        with exclusive_timing():
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout_s, check=False)
        if proc.returncode != 0:
            raise RuntimeError(first_error_line(proc.stderr, f"iree-benchmark-module exited {proc.returncode}"))
        document = json.loads(proc.stdout[proc.stdout.find("{"):])
        times = [(float(b["real_time"]) * _TIME_UNIT_TO_US[b.get("time_unit", "ns")],
                  float(b[clock]) * _TIME_UNIT_TO_US[b.get("time_unit", "ns")])
                 for b in document.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
        if not times:
            raise RuntimeError("iree-benchmark-module reported no repetitions")
        return times

    def _run(self, vmfb: Path, function: str, iterations: int) -> float:
        return statistics.median(wall for wall, _ in self._repetitions_us(vmfb, function, iterations))

    def time(self, variants: list[Variant], rounds: int = 3, seconds_per_call: float = 0.05,
             functions: list[str] | None = None) -> list[Variant]:
        """Each buildable variant timed on each function once per round, interleaved variant by
        variant within a function (A f1, B f1, A f2, B f2, ...), so a neighbour's load hits
        every variant of a function alike. `functions`: a subset of the timer's (default all)."""
        functions = self.functions if functions is None else functions
        unknown = [f for f in functions if f not in self.inputs]
        if unknown:
            raise ValueError(f"not an entry function of this timer: {', '.join(unknown)}")
        for v in variants:
            v.weights = dict(self.weights)
        for _ in range(rounds):
            self._round += 1
            for function in functions:
                while function not in self._iterations:  # calls per repetition: about `seconds_per_call`
                    ready = [v for v in variants if v.vmfb is not None and not v.error]
                    if not ready:
                        return variants
                    try:
                        probe = self._run(ready[0].vmfb, function, 1)
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        ready[0].error = f"timing @{function} failed: {e}"
                        continue
                    self._iterations[function] = max(1, min(1000, math.ceil(seconds_per_call * 1e6 / max(probe, 1.0))))
                    # A call of a second or more is its own repetition: the rounds give the spread
                    # (three repetitions of a 14 s layer per variant and round cost minutes).
                    self._repetitions[function] = 1 if probe >= LONG_CALL_US else self.repetitions
                for v in [v for v in variants if v.vmfb is not None and not v.error]:
                    try:
                        v.rounds_us.setdefault(function, []).append(
                            self._run(v.vmfb, function, self._iterations[function]))
                        v.round_ids.setdefault(function, []).append(self._round)
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        v.error = f"timing @{function} failed: {e}"
        return variants

    def settle(self, candidate: Variant, incumbent: Variant, most_rounds: int) -> bool:
        """More interleaved rounds of the two while the candidate looks faster but not beyond the noise.

        On a shared machine one disturbed round can hide a real 2x win (or fake one). A
        lead that holds up as rounds are added ends up beyond the noise; one that was a
        fluke does not. A candidate that already makes a function slower beyond the noise
        gets no more rounds: it is refused. Times the functions the incumbent was timed on;
        stops at `most_rounds` rounds each. Returns `beats(candidate, incumbent)`.
        """
        functions = incumbent.functions

        def rounds_of(v: Variant) -> int:
            return min((len(v.rounds_us.get(f, [])) for f in functions), default=0)

        while (not beats(candidate, incumbent) and not candidate.error and not incumbent.error
               and candidate.total_us(functions) is not None and incumbent.total_us(functions) is not None
               and candidate.total_us(functions) < incumbent.total_us(functions)
               and not slower_functions(candidate, incumbent)
               and min(rounds_of(candidate), rounds_of(incumbent)) < most_rounds):
            self.time([incumbent, candidate], 1, functions=functions)
        return beats(candidate, incumbent)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
