"""This core's f32 FMA peak, measured: the ceiling a GFLOP/s figure elsewhere in docs/ is read against.

    python bench/fma_peak.py [--rounds 5] [--steps 100000000]

The host target's peak is 2 x clock x fma_ports x f32 lanes per core. host.toml declares the
ports at half the widest vector width (two on every x86 core with FMA); the FMA probe
(python/iree_dsa_tuner/host/fma_probe.py) scales them to full width, since a core such as
AMD's Zen 4 runs a 512-bit FMA as two 256-bit halves, and reads the clock off the same loop.
This script times that loop (independent FMA chains, built with the machine's C compiler) at
each width the CPU reports (zmm with AVX-512F, ymm with AVX2+FMA, xmm), interleaved, one thread,
and prints the median GFLOP/s of each beside the peak the host target derives, so the two can
be compared on any machine. Needs a C compiler (`$CC`, cc or gcc).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from iree_dsa_tuner.host import fma_probe  # noqa: E402
from iree_dsa_tuner.host.target import _cpuinfo, machine_description  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=100_000_000, help="FMA instructions per run")
    args = ap.parse_args()

    flags, _ = _cpuinfo()
    pair = fma_probe.width_pair(flags)
    compiler = fma_probe.c_compiler()
    if pair is None or compiler is None:
        print("fma_peak: needs a C compiler and a CPU with AVX2+FMA or AVX-512F", file=sys.stderr)
        return 2
    widths = [pair[0], pair[1]] + (["xmm"] if pair[1] != "xmm" else [])
    runs: dict[str, list[float]] = {w: [] for w in widths}
    with tempfile.TemporaryDirectory() as tmp:
        loops = {w: fma_probe.build_fma_loop(compiler, w, Path(tmp), steps=args.steps) for w in widths}
        for _ in range(args.rounds):  # interleaved, so a loud neighbour hits every width alike
            for w, exe in loops.items():
                runs[w].append(fma_probe.fma_rate(exe) * fma_probe.lanes(w) * 2 / 1e9)
    print(f"one thread, median of {args.rounds} runs (each the best of 3 x {args.steps} FMAs in 12 chains)")
    for w in widths:
        print(f"  {w}: {statistics.median(runs[w]):.1f} GFLOP/s f32 (runs: "
              + ", ".join(f"{r:.1f}" for r in runs[w]) + ")")
    host = machine_description()
    print(f"  the host target's derived peak: {host.peak_ops('f32') / host.cores / 1e9:.1f} GFLOP/s f32 per core "
          f"({host.cpu.fma_ports} full-width FMA port(s) x {host.mac_n} f32 lanes x 2 x {host.clock_hz / 1e6:.0f} MHz)")
    print(f"  from: {host.source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
