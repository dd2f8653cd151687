"""The task table: every reference manifest's action chunk on the DSA targets, default vs tuned.

    python bench/task_table.py [--target dsa-e1 --target dsa-c1] [--budget-ms 50] [--manifest pi0 ...]
                               [--budget N] [--scheme w8a8] [--write-library transform_specs] [--write-docs]

For each manifest and target: one chunk with IREE's default schedules and after `task`'s
Amdahl-order tuning (nothing reused: every set is tuned afresh), chunk ms, Hz, actions/s with
RTC, the physical limit and the ratio to it, the coverage (the share of the chunk from root ops
the simulator timed; the rest is the streaming estimate of dispatches with no tunable root op),
and the verdict against 100 ms / 10 Hz and GR00T on Thor (92 ms). Every call of every dispatch
counts. The DSA model is deterministic: one run is the figure (no medians needed).

--write-library DIR stores each tuned set in DIR (replacing the model's older sets there): this
is how transform_specs/ is made, and tests/test_task.py checks that those sets still reproduce.
--write-docs rewrites the marked tables in docs/PERFORMANCE.md and docs/TASK.md with this run's.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from iree_dsa_tuner.commands.task import coverage_text, verdict
from iree_dsa_tuner.report import format_table
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

REPO = Path(__file__).resolve().parent.parent
MANIFESTS = REPO / "python" / "iree_dsa_tuner" / "examples" / "manifests"
DOCS = (REPO / "docs" / "PERFORMANCE.md", REPO / "docs" / "TASK.md")
HEADERS = ["manifest", "scheme", "flow", "budget ms", "default ms", "tuned ms", "Hz", "act/s RTC", "limit ms",
           "/limit", "timed", "calls/chunk", "verdict"]


def marker(target: str, end: bool = False) -> str:
    return f"<!-- bench/task_table.py {target} {'end' if end else 'begin'} -->"


def table_rows(result) -> list:
    a, b = result.after, result.before
    m = result.manifest
    calls = sum(s["count"] * s["repeat"] * s["dispatch_calls"] for s in a.stages)
    short = verdict(a.chunk_ms, a.rate_hz, a.limit_ms, a.coverage).split(";")[0]
    return [m.model_id, m.scheme, m.flow_steps, f"{a.budget_ms:g}", f"{b.chunk_ms:.1f}", f"{a.chunk_ms:.1f}",
            f"{a.rate_hz:.1f}", f"{a.rate_hz_rtc:.1f}", f"{a.limit_ms:.1f}", f"{a.chunk_ms / a.limit_ms:.2f}x",
            f"{100 * a.coverage['modelled_share']:.1f}%", calls,
            short + ("; < 92 ms" if a.chunk_ms < 92 else "; >= 92 ms")]


def markdown(rows: list, command: str) -> str:
    lines = [f"`{command}`:", "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    lines += ["", "timed = share of the chunk from root ops the event simulator timed; the rest is the streaming "
              "estimate of dispatches with no tunable root op (bytes / DRAM, element ops / vector unit). "
              "calls/chunk = dispatch calls in one chunk, every repeat and every deduplicated executable's "
              "call counted. limit = max(weight bytes of every call / DRAM bandwidth, ops / peak)."]
    return "\n".join(lines)


def rewrite_docs(target: str, block: str) -> list[Path]:
    written = []
    for doc in DOCS:
        text = doc.read_text()
        begin, end = marker(target), marker(target, end=True)
        if begin not in text or end not in text:
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        doc.write_text(f"{head}{begin}\n{block}\n{end}{tail}")
        written.append(doc)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", action="append", default=[], help="dsa-e1, dsa-c1 (default: both)")
    parser.add_argument("--budget-ms", type=float, default=None, help="chunk budget (default: each manifest's)")
    parser.add_argument("--manifest", action="append", default=[], help="pi0, openvla, gr00t_dit, diffusion_policy")
    parser.add_argument("--budget", type=int, default=16, help="measurements per tuned dispatch")
    parser.add_argument("--scheme", choices=("w4a8", "w8a8", "bf16", "f32"),
                        help="run every manifest in this quantisation instead of its own")
    parser.add_argument("--write-library", metavar="DIR", help="store each tuned spec set in DIR (transform_specs)")
    parser.add_argument("--write-docs", action="store_true",
                        help="rewrite the marked task tables in docs/ (only for a default run)")
    args = parser.parse_args()
    if args.write_docs and (args.budget_ms or args.manifest or args.scheme or args.budget != 16):
        parser.error("--write-docs records the default run only (no --budget-ms, --manifest, --scheme, --budget)")
    names = args.manifest or sorted(p.stem for p in MANIFESTS.glob("*.toml"))
    for target_name in args.target or ["dsa-e1", "dsa-c1"]:
        target = get_target(target_name)
        rows, results = [], []
        for name in names:
            manifest = load_manifest(MANIFESTS / f"{name}.toml")
            if args.scheme:
                manifest = replace(manifest, scheme=args.scheme, quant_block=manifest.quant_block
                                   if args.scheme == "w4a8" else None)
            library = None
            if args.write_library:
                library = Path(args.write_library)
                shutil.rmtree(library / target.name / manifest.model_id, ignore_errors=True)
            print(f"{name}: tuning on {target.name} ...", file=sys.stderr, flush=True)
            r = run_task(manifest, target, TuneOptions(budget=args.budget), budget_ms=args.budget_ms,
                         library=library, retune=True)
            rows.append(table_rows(r))
            results.append(r)
        print(format_table(HEADERS, rows, right_align=set(range(2, 12))))
        print(f"target {target.name}; Hz = 1000 / chunk ms; act/s RTC = actions/s with real-time chunking; "
              "limit = max(weights of every call / DRAM bandwidth, ops / peak)")
        for r in results:
            print(f"  {r.manifest.model_id}: {coverage_text(r.after.coverage)}")
        print()
        if args.write_docs:
            block = markdown(rows, f"python bench/task_table.py --target {target.name}")
            for doc in rewrite_docs(target.name, block):
                print(f"wrote the {target.name} table into {doc.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
