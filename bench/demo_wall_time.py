"""Wall time of `iree-dsa-tune demo`, cold and warm artifact cache, optionally beside another build.

    python bench/demo_wall_time.py [--rounds 3] [--baseline /path/to/other/venv/bin/iree-dsa-tune]

Each round runs, interleaved: this checkout's demo with an empty artifact cache
(`$IREE_DSA_CACHE_DIR` fresh: every model compiled once), the same with the cache
left from the previous run (warm), and the baseline command when given (a build
from before the one-way pipeline has no artifact cache: its figure is cold).
Prints the median seconds of each and the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_demo(command: list[str], cache: Path, out: Path) -> float:
    env = dict(os.environ, IREE_DSA_CACHE_DIR=str(cache))
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.run([*command, "demo", "-o", str(out)], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} demo failed: {proc.stderr.strip()[-500:]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", metavar="CMD", help="another iree-dsa-tune executable to time beside this one")
    args = parser.parse_args()
    this = [sys.executable, "-m", "iree_dsa_tuner.cli"]
    times: dict[str, list[float]] = {"cold": [], "warm": []}
    if args.baseline:
        times["baseline"] = []
    with tempfile.TemporaryDirectory(prefix="demo-wall-") as tmp:
        tmp = Path(tmp)
        for r in range(args.rounds):
            cache = tmp / f"cache{r}"
            times["cold"].append(run_demo(this, cache, tmp / "out"))
            times["warm"].append(run_demo(this, cache, tmp / "out"))
            if args.baseline:
                times["baseline"].append(run_demo([args.baseline], tmp / "unused", tmp / "out"))
            print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in times.items()), flush=True)
    medians = {k: statistics.median(v) for k, v in times.items()}
    print("\nmedian wall time of `iree-dsa-tune demo` (s): "
          + ", ".join(f"{k} {v:.1f}" for k, v in medians.items()))
    if args.baseline:
        print(f"baseline / cold = {medians['baseline'] / medians['cold']:.2f}x, "
              f"baseline / warm = {medians['baseline'] / medians['warm']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
