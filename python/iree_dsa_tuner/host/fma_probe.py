"""How many full-width vector FMAs this core issues per cycle: measured, not assumed.

host.toml declares `fma_ports`, the FMAs a core issues per cycle. That holds at full width on
Intel's server AVX-512 cores (two 512-bit FMA units), not on AMD's Zen 4, which runs a 512-bit
FMA as two halves on its two 256-bit units (there the derived f32 peak was 1.5x what the core
does: docs/PERFORMANCE.md 4n, bench/fma_peak.py), nor, by their manuals, on client cores with one
512-bit unit.

The probe needs no clock (under KVM, /proc/cpuinfo's MHz is not the boost clock the core runs
at). It times the same loop of independent FMA chains at the widest vector width and at half
of it, and compares instructions per second: every x86 core with FMA issues the declared ports'
worth at half the width of its widest registers (ymm under AVX-512, xmm under AVX2), so

    full-width ports = declared ports x (full-width FMAs/s) / (half-width FMAs/s)

rounded to a whole port (the ratio is 1.0 or 0.5 in practice; noise moves it by a few percent).
The half-width rate over the declared ports is also the clock the core runs vector code at,
which replaces /proc/cpuinfo's MHz: under KVM that is the nominal clock (2.6 GHz on the Zen 4
whose FMA loop runs at 3.6), and the derived peak is then the measured one.
The loop is C, built with the machine's C compiler (`$CC`, `cc` or `gcc`); without one, or
on a CPU with neither AVX2+FMA nor AVX-512, the declared value stands and the description's
source says so. The answer is cached per CPU (model name and flags) under
`$IREE_DSA_CACHE_DIR` (default `~/.cache/iree-dsa-tuner`), so the same machine always
describes itself the same way (a spec is byte-identical run to run) and pays the probe once.
`IREE_DSA_HOST_FMA_PORTS` overrides it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..core.cache_dir import cache_root
from ..core.words import plural
from ..errors import InputError

FMA_PORTS_ENV = "IREE_DSA_HOST_FMA_PORTS"
_CACHE_FILE = "host-fma-probe.json"
# Instructions per probe run at each width: ~0.1 s on a 3 GHz core issuing one per cycle.
_STEPS = 25_000_000
_CHAINS = 12  # independent accumulators: covers a 4-5 cycle FMA latency on two ports
_ROUNDS = 3
_TIMEOUT_S = 30

# Per width: (gcc flags, vector type, set1, fma, store, f32 lanes).
_WIDTHS = {
    "zmm": ("-mavx512f -mfma", "__m512", "_mm512_set1_ps", "_mm512_fmadd_ps", "_mm512_storeu_ps", 16),
    "ymm": ("-mavx2 -mfma", "__m256", "_mm256_set1_ps", "_mm256_fmadd_ps", "_mm256_storeu_ps", 8),
    "xmm": ("-mfma", "__m128", "_mm_set1_ps", "_mm_fmadd_ps", "_mm_storeu_ps", 4),
}
# (the widest width, its half) by the CPU flags that allow the wider one.
_PAIRS = ((("avx512f", "fma"), ("zmm", "ymm")), (("avx2", "fma"), ("ymm", "xmm")))

_SOURCE = """
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
int main(void) {{
  {vt} a[{chains}]; {vt} b = {set1}(1.0000001f), c = {set1}(1e-7f);
  for (int i = 0; i < {chains}; i++) a[i] = {set1}((float)i);
  double best = 0.0;
  for (int round = 0; round < {rounds}; round++) {{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < {steps}L / {chains}; k++)
      for (int i = 0; i < {chains}; i++) a[i] = {fma}(a[i], b, c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    double rate = (double)({steps}L / {chains} * {chains}) / s;
    if (rate > best) best = rate;
  }}
  float sink = 0.0f, lanes[{lanes}];
  for (int i = 0; i < {chains}; i++) {{ {store}(lanes, a[i]); sink += lanes[0]; }}
  printf("%.6e %g\\n", best, sink);  /* FMA instructions per second; the sink keeps the loop */
  return 0;
}}
"""


@dataclass(frozen=True)
class FmaProbe:
    """What the probe measured: FMA instructions per second at the widest width and at half."""

    wide: str
    narrow: str
    wide_per_s: float
    narrow_per_s: float

    @property
    def ratio(self) -> float:
        return self.wide_per_s / self.narrow_per_s

    def ports(self, declared: int) -> int:
        return max(1, round(declared * self.ratio))

    def clock_mhz(self, declared: int) -> float:
        """Cycles per second of the vector unit: half-width FMAs/s over the declared ports, to 10 MHz."""
        return round(self.narrow_per_s / declared / 1e7) * 10.0

    def describe(self, declared: int) -> str:
        return (f"FMA probe: {self.wide} {self.ratio:.2f}x {self.narrow} per instruction -> "
                f"{plural(self.ports(declared), 'full-width FMA port')} at {self.clock_mhz(declared):g} MHz")


@dataclass(frozen=True)
class FmaReading:
    """The `[cpu]` fields the probe decides, and where they came from (None: keep the description's)."""

    fma_ports: int
    clock_mhz: float | None
    source: str


def lanes(width: str) -> int:
    """f32 lanes of a vector of `width` ("zmm", "ymm" or "xmm")."""
    return _WIDTHS[width][-1]


def c_compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def build_fma_loop(compiler: str, width: str, work: Path, steps: int = _STEPS) -> Path:
    """The FMA loop at `width` as an executable in `work`: it prints FMA instructions per second,
    the best of a few runs of `steps`, one thread."""
    flags, vt, set1, fma, store, width_lanes = _WIDTHS[width]
    src = work / f"fma_{width}.c"
    src.write_text(_SOURCE.format(vt=vt, set1=set1, fma=fma, store=store, lanes=width_lanes, chains=_CHAINS,
                                  steps=steps, rounds=_ROUNDS))
    exe = work / f"fma_{width}"
    subprocess.run([compiler, "-O3", *flags.split(), str(src), "-o", str(exe)], check=True,
                   capture_output=True, timeout=_TIMEOUT_S)
    return exe


def fma_rate(exe: Path) -> float:
    """FMA instructions per second, as the loop `build_fma_loop` built measures them."""
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=_TIMEOUT_S)
    return float(out.stdout.split()[0])


def width_pair(flags: set[str]) -> tuple[str, str] | None:
    """(the widest FMA width `flags` allow, half of it); None without AVX2+FMA."""
    return next((p for need, p in _PAIRS if set(need) <= flags), None)


def measure(flags: set[str]) -> FmaProbe | None:
    """Time the FMA loop at the widest width `flags` allow and at half; None when it cannot."""
    pair = width_pair(flags)
    compiler = c_compiler()
    if pair is None or compiler is None:
        return None
    wide, narrow = pair
    try:
        with tempfile.TemporaryDirectory(prefix="iree-dsa-fma-") as tmp:
            loops = {width: build_fma_loop(compiler, width, Path(tmp)) for width in (narrow, wide)}
            # Interleaved (narrow, wide, narrow, wide): a frequency step mid-probe hits both.
            rates = {wide: 0.0, narrow: 0.0}
            for _ in range(2):
                for width, exe in loops.items():
                    rates[width] = max(rates[width], fma_rate(exe))
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None
    if not (rates[wide] > 0 and rates[narrow] > 0):
        return None
    return FmaProbe(wide, narrow, rates[wide], rates[narrow])


def _cpu_key(model: str, flags: set[str]) -> str:
    return hashlib.sha256((model + "\n" + " ".join(sorted(flags))).encode()).hexdigest()[:16]


def read_fma(flags: set[str], model: str, declared: int) -> FmaReading:
    """Full-width FMA ports and the vector clock of the CPU `flags` and `model` name describe."""
    value = os.environ.get(FMA_PORTS_ENV, "").strip()
    if value:
        if not (value.isdigit() and int(value) >= 1):
            raise InputError(f"${FMA_PORTS_ENV}={value!r}: expected a whole number of full-width FMA ports (1 or more)")
        return FmaReading(int(value), None, f"${FMA_PORTS_ENV}")
    path = cache_root() / _CACHE_FILE
    key = _cpu_key(model, flags)
    try:
        cache = json.loads(path.read_text())
    except (OSError, ValueError):
        cache = {}
    entry = cache.get(key)
    if not isinstance(entry, dict):
        probe = measure(flags)
        if probe is None:
            return FmaReading(declared, None, "fma_ports declared (no C compiler or no x86 FMA to probe)")
        entry = {"model": model, "wide": probe.wide, "narrow": probe.narrow,
                 "wide_per_s": probe.wide_per_s, "narrow_per_s": probe.narrow_per_s}
        cache[key] = entry
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, path)  # atomic: concurrent tuners read a whole file or none
        except OSError:
            pass  # measured, not cached: the next process probes again
    probe = FmaProbe(entry["wide"], entry["narrow"], float(entry["wide_per_s"]), float(entry["narrow_per_s"]))
    return FmaReading(probe.ports(declared), probe.clock_mhz(declared), probe.describe(declared))
