"""This core's f32 FMA peak, measured: the ceiling a GFLOP/s figure elsewhere in docs/ is read against.

    python bench/fma_peak.py [--rounds 5]

The host target derives its peak from a declared `fma_ports` (host.toml) times the vector lanes
/proc/cpuinfo reports. That holds where each port executes a full-width FMA per cycle (Intel's
AVX-512 cores), not where a 512-bit FMA is split over two 256-bit units (AMD's Zen 4): there the
declared figure is twice what the core can do. This script times what it can do. It compiles a
loop of independent FMA chains (12 accumulators: enough to cover the FMA latency on both ports)
with gcc, at the widest vector width the CPU reports (zmm with AVX-512F, ymm with AVX2+FMA), runs
it once per round on one thread, and prints the median GFLOP/s (2 flops per lane per FMA) beside
the figure the host target derives. Needs gcc.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from iree_dsa_tuner.targets.host import machine_description  # noqa: E402

# One vector type per width: (gcc flags, vector type, set1, fma, store, f32 lanes).
_WIDTHS = {
    "zmm": ("-mavx512f -mfma", "__m512", "_mm512_set1_ps", "_mm512_fmadd_ps", "_mm512_storeu_ps", 16),
    "ymm": ("-mavx2 -mfma", "__m256", "_mm256_set1_ps", "_mm256_fmadd_ps", "_mm256_storeu_ps", 8),
}

_SOURCE = """
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
int main(void) {{
  {vt} a[12]; {vt} b = {set1}(1.0000001f), c = {set1}(1e-7f);
  for (int i = 0; i < 12; i++) a[i] = {set1}((float)i);
  const long n = {iterations};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long k = 0; k < n; k++)
    for (int i = 0; i < 12; i++) a[i] = {fma}(a[i], b, c);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  float sink = 0.0f, lanes[{lanes}];
  for (int i = 0; i < 12; i++) {{ {store}(lanes, a[i]); sink += lanes[0]; }}
  printf("%.3f %g\\n", (double)n * 12 * {lanes} * 2 / s / 1e9, sink);
  return 0;
}}
"""


def cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def build(width: str, iterations: int, work: Path) -> Path:
    gcc_flags, vt, set1, fma, store, lanes = _WIDTHS[width]
    src = work / f"fma_{width}.c"
    src.write_text(_SOURCE.format(vt=vt, set1=set1, fma=fma, store=store, lanes=lanes, iterations=iterations))
    exe = work / f"fma_{width}"
    subprocess.run(["gcc", "-O3", *gcc_flags.split(), str(src), "-o", str(exe)], check=True)
    return exe


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=100_000_000, help="FMA steps of 12 chains per run")
    args = ap.parse_args()

    flags = cpu_flags()
    widths = [w for w, need in (("zmm", {"avx512f"}), ("ymm", {"avx2", "fma"})) if need <= flags]
    if not widths:
        print("fma_peak: this CPU reports neither AVX-512F nor AVX2+FMA", file=sys.stderr)
        return 2
    host = machine_description()
    with tempfile.TemporaryDirectory() as tmp:
        exes = {w: build(w, args.iterations, Path(tmp)) for w in widths}
        runs: dict[str, list[float]] = {w: [] for w in widths}
        for _ in range(args.rounds):  # interleaved, so a loud neighbour hits every width alike
            for w, exe in exes.items():
                out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
                runs[w].append(float(out.split()[0]))
    print(f"one thread, median of {args.rounds} runs of {args.iterations} x 12 independent FMAs")
    for w in widths:
        print(f"  {w}: {statistics.median(runs[w]):.1f} GFLOP/s f32 (runs: "
              + ", ".join(f"{r:.1f}" for r in runs[w]) + ")")
    cpu = host.cpu
    print(f"  the host target's derived peak: {host.peak_ops('f32') / host.cores / 1e9:.1f} GFLOP/s f32 per core "
          f"({cpu.fma_ports} FMA ports x {host.mac_n} f32 lanes x 2 x {host.clock_hz / 1e6:.0f} MHz; "
          "fma_ports is declared in host.toml, the rest read off this machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
