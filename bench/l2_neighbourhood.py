"""Is there a faster schedule one move away from where L2 stopped? Every neighbour, simulated.

    python bench/l2_neighbourhood.py [--manifest PATH] [--dispatch TEXT ...] [--target dsa-e1] [--json FILE]

L2 (bench/l2_gain.py) ranks its moves by a static reading and measures the best 8 of each round,
so a dispatch it leaves short of its floor is either a ranking miss (a faster neighbour it did not
measure) or a local optimum of the moves it has. This bench tells the two apart: it runs the
manifest as l2_gain does (`task --l2 on`, a 0 ms budget, L1 budget 4), then, for each dispatch L2
visited (or those whose name contains a --dispatch text), takes the config the run ended with and
simulates every neighbour L2 could propose from it: the generic moves (search/proposers.py) and
the target's re-plans (`target.l2_moves`: balanced row bands, K slices, exact N tiles), each that
fits the scratchpad. Printed per dispatch: the time the run ended at, the target's floor, how
many neighbours were simulated, the fastest neighbour, its move and the share of the distance to
the floor it would take off, and where the static reading ranked it among the neighbours.

Every time is the DSA's simulator (deterministic: one run is the figure). The default manifest
is OpenVLA's, whose two prefill GEMMs L2 left where L1 had them in docs/TASK.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import emit_report
from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.report import format_table
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.search.proposers import neighbours
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import _ops, run_task

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = "python/iree_dsa_tuner/examples/manifests/openvla.toml"
HEADERS = ["dispatch", "ended us", "floor us", "neighbours", "fastest us", "its move", "of the distance",
           "static rank", "sim s"]


def neighbourhood(target, problem, start) -> list[tuple[float, float, str, object]]:
    """(simulated s, static s, move, candidate) for every neighbour of `start` that can run."""
    from iree_dsa_plugin.eventsim import simulate

    seen, out = {start}, []
    for kind, cand in neighbours(problem, target, start):
        if cand in seen or target.check_knobs(cand):
            continue
        seen.add(cand)
        static = target.l2_estimate_s(problem, cand)
        if static is None:  # its buffers overflow the scratchpad, or the schedule cannot express it
            continue
        out.append((simulate(target.describe(), problem, cand).seconds, static, kind, cand))
    return out


def rows_for(manifest_path: Path, target, wanted: list[str]) -> tuple[list[list[str]], list[dict]]:
    manifest = load_manifest(manifest_path)
    with tempfile.TemporaryDirectory() as library:
        result = run_task(manifest, target, TuneOptions(budget=4), budget_ms=0.0, library=Path(library), l2="on")
        configs = result.spec_set.configs if result.spec_set else {}
        visited = [(r["stage"], r["dispatch"], r["after_us"], r.get("floor_us")) for r in result.l2["rounds"]]
    _, ops = _ops(manifest, target, [])
    by_key = {(o.stage, o.problem.dispatch): o for o in ops if o.tunable}
    rows, records = [], []
    for stage, dispatch, ended_us, floor_us in visited:
        if wanted and not any(w in dispatch for w in wanted):
            continue
        config = configs.get(stage, {}).get(dispatch)
        op = by_key.get((stage, dispatch))
        if config is None or op is None:
            continue
        start = target.from_config(op.computed, CompilationConfig.from_json(config))
        t0 = time.perf_counter()
        found = neighbourhood(target, op.computed, start)
        seconds = time.perf_counter() - t0
        if not found:
            continue
        best = min(found, key=lambda f: f[0])
        by_static = sorted(found, key=lambda f: f[1])
        rank = next(i for i, f in enumerate(by_static) if f[3] == best[3]) + 1
        fastest_us = best[0] * 1e6
        faster = fastest_us < ended_us - 0.05  # the simulator's figures, to a tenth of a us as printed
        share = ((ended_us - fastest_us) / (ended_us - floor_us)
                 if floor_us is not None and ended_us > floor_us and faster else 0.0)
        rows.append([f"{stage}/{dispatch}", f"{ended_us:.1f}", "-" if floor_us is None else f"{floor_us:.1f}",
                     str(len(found)), f"{fastest_us:.1f}", best[2] if faster else "none faster",
                     f"{100 * share:.0f}%", f"{rank}/{len(found)}" if faster else "-", f"{seconds:.0f}"])
        records.append({"stage": stage, "dispatch": dispatch, "ended_us": ended_us, "floor_us": floor_us, "config": config,
                        "neighbours": len(found), "fastest_us": fastest_us, "move": best[2],
                        "candidate": repr(best[3]), "static_rank": rank, "seconds": seconds})
    return rows, records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=str(REPO / DEFAULT_MANIFEST), help="the manifest (default OpenVLA's)")
    ap.add_argument("--dispatch", nargs="*", default=[], help="only dispatches whose name contains one of these")
    ap.add_argument("--target", default="dsa-e1", help="a DSA target (default dsa-e1)")
    ap.add_argument("--json", metavar="FILE", help="also write the records as JSON")
    args = ap.parse_args(argv)
    target = get_target(args.target)
    if target.describe().is_cpu:
        ap.error("the neighbourhood is simulated: give a DSA target")
    rows, records = rows_for(Path(args.manifest), target, args.dispatch)
    text = "\n".join([format_table(HEADERS, rows),
                      f"({Path(args.manifest).stem} on {args.target}; ended: where L2 left the dispatch; neighbours: "
                      "every move L2 could propose from there that fits, simulated; of the distance: what the fastest "
                      "neighbour would take off the distance to the floor; static rank: its place in L2's static "
                      "ranking of the same neighbours)"])
    emit_report(text, records, doc=None, marker="", json_path=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
