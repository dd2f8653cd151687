"""The task table: every reference manifest's action chunk on a DSA target, default vs tuned.

    python bench/task_table.py [--target dsa-e1] [--budget-ms 50] [--manifest pi0 ...] [--budget N] [--scheme w8a8]

For each manifest: one chunk with IREE's default schedules and after `task`'s Amdahl-order
tuning (no spec library, so nothing is reused), chunk ms, Hz, actions/s with RTC, the physical
limit and the ratio to it, and the verdict against 100 ms / 10 Hz and GR00T on Thor (92 ms).
The DSA model is deterministic: one run is the figure (no medians needed).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from iree_dsa_tuner.commands.task import verdict
from iree_dsa_tuner.report import format_table
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

MANIFESTS = Path(__file__).resolve().parent.parent / "python" / "iree_dsa_tuner" / "examples" / "manifests"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default="dsa-e1")
    parser.add_argument("--budget-ms", type=float, default=None, help="chunk budget (default: each manifest's)")
    parser.add_argument("--manifest", action="append", default=[], help="pi0, openvla, gr00t_dit, diffusion_policy")
    parser.add_argument("--budget", type=int, default=16, help="measurements per tuned dispatch")
    parser.add_argument("--scheme", choices=("w4a8", "w8a8", "bf16", "f32"),
                        help="run every manifest in this quantisation instead of its own")
    args = parser.parse_args()
    names = args.manifest or sorted(p.stem for p in MANIFESTS.glob("*.toml"))
    target = get_target(args.target)
    rows = []
    for name in names:
        manifest = load_manifest(MANIFESTS / f"{name}.toml")
        if args.scheme:
            manifest = replace(manifest, scheme=args.scheme, quant_block=manifest.quant_block
                               if args.scheme == "w4a8" else None)
        print(f"{name}: tuning on {target.name} ...", file=sys.stderr, flush=True)
        r = run_task(manifest, target, TuneOptions(budget=args.budget), budget_ms=args.budget_ms)
        a = r.after
        rows.append([name, manifest.scheme, manifest.flow_steps, f"{a.budget_ms:g}", f"{r.before.chunk_ms:.1f}",
                     f"{a.chunk_ms:.1f}", f"{a.rate_hz:.1f}", f"{a.rate_hz_rtc:.1f}", f"{a.limit_ms:.1f}",
                     f"{a.chunk_ms / a.limit_ms:.2f}x", sum(d["decision"] not in ("stop", "skip") for d in r.decisions),
                     f"{r.seconds:.0f}", verdict(a.chunk_ms, a.rate_hz, a.limit_ms).split(";")[0]
                     + ("; < 92 ms" if a.chunk_ms < 92 else "; >= 92 ms")])
    print(format_table(["manifest", "scheme", "flow", "budget ms", "default ms", "tuned ms", "Hz", "act/s RTC",
                        "limit ms", "/limit", "tuned ops", "s", "verdict"], rows,
                       right_align={2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
    print(f"target {target.name}; Hz = 1000 / chunk ms; act/s RTC = actions/s with real-time chunking; "
          "limit = max(weights / DRAM bandwidth, ops / peak)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
