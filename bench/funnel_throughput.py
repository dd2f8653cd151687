"""Candidates per second through the pruning funnel (median of repeats).

    python bench/funnel_throughput.py [--target dsa-e1] [--repeats 9]

Times `run_funnel` (geometry, estimate, all four stages, ranking) on spaces of
embodied shapes; enumeration of the space into columns is timed separately.
"""

from __future__ import annotations

import argparse
import statistics
import time

from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.targets import get_target

SHAPES = [
    ("R5.5 gemv 1x256x256 i8", simple_gemm(1, 256, 256, "i8")),
    ("pi0 action 1x1024x4096 i8", simple_gemm(1, 1024, 4096, "i8", has_consumer=True)),
    ("pi0 chunk 50x1024x4096 i8", simple_gemm(50, 1024, 4096, "i8", has_consumer=True)),
    ("R5.6 256x2048x2048 i8", simple_gemm(256, 2048, 2048, "i8", has_consumer=True)),
    ("W4A8 1x2048x2048", simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True)),
    ("SigLIP 256x1152x4304 bf16", simple_gemm(256, 1152, 4304, "bf16", has_consumer=True)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default="dsa-e1")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    target = get_target(args.target)
    desc = target.describe()
    print(f"target {desc.name}; median of {args.repeats} repeats")
    print(f"{'shape':<28} {'space':>7} {'survive':>7} {'enum ms':>8} {'funnel ms':>9} {'cand/s':>12}")
    total_candidates, total_seconds = 0, 0.0
    for label, shape in SHAPES:
        space = target.space(shape)
        enum_times, funnel_times = [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            cols = space.columns()
            t1 = time.perf_counter()
            result = run_funnel(space, desc, columns=cols, estimator=target.estimator)
            t2 = time.perf_counter()
            enum_times.append(t1 - t0)
            funnel_times.append(t2 - t1)
        enum_s, funnel_s = statistics.median(enum_times), statistics.median(funnel_times)
        total_candidates += space.size
        total_seconds += funnel_s
        print(f"{label:<28} {space.size:>7} {result.survivor_count:>7} {enum_s * 1e3:>8.2f} "
              f"{funnel_s * 1e3:>9.2f} {space.size / funnel_s:>12,.0f}")
    print(f"{'all':<28} {total_candidates:>7} {'':>7} {'':>8} {total_seconds * 1e3:>9.2f} "
          f"{total_candidates / total_seconds:>12,.0f}")


if __name__ == "__main__":
    main()
