"""How much of the gap L1 left the L2 tier closes, manifest by manifest on a DSA target (and the host).

    python bench/l2_gain.py [--target dsa-e1 | --host] [--budget 4] [--manifest PATH ...] [--json FILE] [--write-docs]

Each manifest runs as `task --l2 on` does: L1 (the Amdahl-ordered search, --budget measurements
per searched dispatch), then L2 (task/l2.py: the built-in schedule moves, every proposal gated on
legality, a measurement, being faster, and its numerics). For each dispatch L2 visits: L1's time,
L2's, the bound L1 is judged against (the elite template's time where one exists and L1 is
still slower, else the roofline bound: a dispatch that beat its template is judged against what
is left), and the share of the gap closed,
(L1 - L2) / (L1 - bound) (a dispatch already at its bound has no gap, and is left out of the
sum). Beside it the target's floor (`target.l2_floor_s`: what no schedule beats on the simulated
part, the roofline bound plus the launch, DRAM page openings and INT4 scales the simulator
charges every schedule) and the share of the closable gap closed, (L1 - L2) / (L1 - max(bound,
floor)): the part of the gap any schedule could close at all. Per manifest: both over every
visited dispatch (time saved over gap, calls counted), L2's measurements and seconds, and the
chunk before and after L2. A last table lists L2's compile-flag proposals (task/stage_flags.py):
each stage worth it rebuilt under each flag variant, kept or reverted with why, and the chunk it
gave. The DSA model is deterministic: one run is the figure. --write-docs rewrites the marked
block of docs/TASK.md.

--host runs the host part instead (the DSA part is not run): this machine's CPU (`--target
host`, IREE compiling for it: --iree-llvmcpu-target-cpu=host) on a real policy's stage,
lerobot's pi0 action expert in f32 (HOST_MANIFESTS), whose slowest dispatches are the MLP's
projections (1 x 51 x 4096 x 1024 and 1 x 51 x 1024 x 4096). Every time is measured by iree-benchmark-module (the median of
the runner's repetitions, one thread), so the figures move with the machine's load; the host has
no floor (none is estimated), the bound is the elite template measured in L1, else the cost
model's roofline bound (an estimate). Its block (`bench/l2_gain.py host`) names the CPU, its
vector ISA and the load average around the run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from common import emit_report
from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.report import format_table
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

REPO = Path(__file__).resolve().parent.parent
MANIFESTS = (
    "python/iree_dsa_tuner/examples/manifests/pi0.toml",
    "python/iree_dsa_tuner/examples/manifests/openvla.toml",
    "python/iree_dsa_tuner/examples/manifests/gr00t_dit.toml",
    "python/iree_dsa_tuner/examples/manifests/diffusion_policy.toml",
    "lit_tests/inputs/lerobot/pi0_expert_w4a8.toml",
    "lit_tests/inputs/manifests/torch_expert_quantized.toml",
)
# The host part (--host): a real policy's stage, as exported (the slowest host dispatch of the
# lerobot exports small enough to tune in minutes).
HOST_MANIFESTS = ("lit_tests/inputs/lerobot/pi0_expert_host.toml",)
HEADERS = ["manifest", "dispatch", "calls", "L1 us", "L2 us", "bound us", "bound", "floor us", "gap closed",
           "of closable", "kept/tried"]
SUMMARY = ["manifest", "dispatches", "gap us", "closable us", "closed us", "gap closed", "of closable",
           "measurements", "L2 s", "chunk L1 ms", "chunk L2 ms", "limit ms", "chunk gap closed"]


def visited(result) -> list[dict]:
    """One record per dispatch L2 visited: L1 us, L2 us, its bound, and what was kept."""
    bounds = {(d["stage"], d["dispatch"]): (d.get("elite_us"), d.get("elite"), d.get("bound_us"))
              for d in result.decisions}
    calls = {(a["stage"], a["dispatch"]): a["calls"] for a in result.after.amdahl}
    counts = {s.name: s.repeat * s.count(result.manifest.flow_steps) for s in result.manifest.stages}
    out = []
    for r in result.l2["rounds"]:
        key = (r["stage"], r["dispatch"])
        bound_us, kind, roofline = bounds.get(key, (None, None, None))
        if kind == "template" and bound_us is not None and r["before_us"] <= bound_us and roofline is not None:
            bound_us, kind = roofline, "roofline (L1 beat template)"  # what is left is the roofline's gap
        kept = sum(1 for p in r["proposals"] if p["status"] == "kept")
        gap = r["before_us"] - bound_us if bound_us is not None and r["before_us"] > bound_us else 0.0
        floor = r.get("floor_us")
        reachable = max(bound_us, floor) if floor is not None and bound_us is not None else bound_us
        closable = min(gap, max(0.0, r["before_us"] - reachable)) if reachable is not None else 0.0
        saved = r["before_us"] - r["after_us"]
        out.append({"stage": r["stage"], "dispatch": r["dispatch"], "calls": calls.get(key, 1) * counts[r["stage"]],
                    "l1_us": r["before_us"], "l2_us": r["after_us"], "bound_us": bound_us, "bound": kind or "-",
                    "floor_us": floor, "gap_us": gap, "closable_us": closable,
                    "closed": saved / gap if gap else None,
                    "of_closable": min(saved, closable) / closable if closable > 0.05 else None,
                    "kept": kept, "tried": len(r["proposals"]), "error": r["error"]})
    return out


def run(manifest, target, budget: int, progress=None):
    """`task --l2 on` on `manifest` (L1 with `budget` measurements per searched dispatch) with a
    0 ms budget, so the chunk is over it and L2 visits the largest dispatches too (R3.4)."""
    with tempfile.TemporaryDirectory() as library:
        return run_task(manifest, target, TuneOptions(budget=budget), budget_ms=0.0, library=Path(library), l2="on",
                        progress=progress)


def chunk_closed(before_ms: float, after_ms: float, limit_ms: float) -> float | None:
    """The share of the chunk's distance to its physical limit that L2 took off, stage builds
    included (None: L1's chunk is at its limit)."""
    return (before_ms - after_ms) / (before_ms - limit_ms) if before_ms > limit_ms else None


def manifest_rows(result) -> tuple[list[str], list[list[str]], dict]:
    """One manifest's summary row, its rows per visited dispatch, and its JSON record."""
    name = result.manifest.model_id
    seen = visited(result)
    def pct(x):
        return "-" if x is None else f"{100 * x:.0f}%"

    rows = [[name, f"{v['stage']}/{v['dispatch']}", str(v["calls"]), f"{v['l1_us']:.1f}", f"{v['l2_us']:.1f}",
             "-" if v["bound_us"] is None else f"{v['bound_us']:.1f}", v["bound"],
             "-" if v["floor_us"] is None else f"{v['floor_us']:.1f}", pct(v["closed"]), pct(v["of_closable"]),
             f"{v['kept']}/{v['tried']}"]
            for v in seen]
    gap = sum(v["gap_us"] * v["calls"] for v in seen)
    closable = sum(v["closable_us"] * v["calls"] for v in seen)
    closed = sum(min(v["l1_us"] - v["l2_us"], v["gap_us"]) * v["calls"] for v in seen if v["gap_us"])
    closed_of = sum(min(v["l1_us"] - v["l2_us"], v["closable_us"]) * v["calls"] for v in seen if v["closable_us"])
    l2 = result.l2
    summary = [name, str(len(seen)), f"{gap:.1f}", f"{closable:.1f}", f"{closed:.1f}",
               pct(closed / gap if gap else None), pct(closed_of / closable if closable else None),
               str(l2["measurements"]), f"{l2['seconds']:.1f}", f"{l2['chunk_before_ms']:.2f}",
               f"{l2['chunk_after_ms']:.2f}", f"{result.after.limit_ms:.2f}",
               pct(chunk_closed(l2["chunk_before_ms"], l2["chunk_after_ms"], result.after.limit_ms))]
    record = {"manifest": name, "visited": seen, "gap_us": gap, "closable_us": closable, "closed_us": closed,
              "builds": l2.get("builds", []), "build_flags": result.build_flags, "limit_ms": result.after.limit_ms,
              "measurements": l2["measurements"], "seconds": l2["seconds"],
              "chunk_before_ms": l2["chunk_before_ms"], "chunk_after_ms": l2["chunk_after_ms"]}
    return summary, rows, record


BUILD_HEADERS = ["manifest", "stage", "share", "flags", "status", "chunk ms", "why"]


def build_rows(result) -> list[list[str]]:
    """L2's compile-flag proposals (task/stage_flags.py): one row per stage and variant."""
    rows = []
    for b in (result.l2 or {}).get("builds", []):
        for p in b["proposals"]:
            chunk = f"{b['chunk_before_ms']:.2f} -> {p['us'] / 1e3:.2f}" if p["us"] is not None else "-"
            rows.append([result.manifest.model_id, b["stage"], f"{100 * b['share']:.0f}%",
                         " ".join(f.removeprefix("--iree-dispatch-creation-") for f in p["config"]["flags"]),
                         p["status"], chunk, p["reason"]])
    return rows


def slowest_line(records: list[dict]) -> str:
    """The slowest dispatch L2 visited (per call), what L2 made of it and against which bound."""
    seen = [(r["manifest"], v) for r in records for v in r["visited"]]
    if not seen:
        return "L2 visited no dispatch."
    name, v = max(seen, key=lambda mv: mv[1]["l1_us"])
    bound = "no bound" if v["bound_us"] is None else f"{v['bound']} {v['bound_us']:.1f} us"
    return (f"Slowest dispatch: {name} {v['stage']}/{v['dispatch']}, L1 {v['l1_us']:.1f} us -> L2 {v['l2_us']:.1f} us "
            f"({bound}; kept {v['kept']} of {v['tried']} proposals).")


def host_machine_line(target, repetitions: int, load: tuple[float, float]) -> str:
    """Which CPU, vector ISA and IREE CPU the host rows are from, and how loaded the machine was."""
    from iree_dsa_tuner.core.fingerprint import host_cpu_model, host_vector_isa

    desc = target.describe()
    return (f"Machine: {host_cpu_model()}, widest vector ISA {host_vector_isa()}, {os.cpu_count()} logical CPUs; "
            f"IREE --iree-llvmcpu-target-cpu={desc.iree_target_cpu} ({8 * desc.cpu.vector_register_bytes}-bit "
            f"vectors); iree-benchmark-module on one thread (local-sync), median of {repetitions} repetitions "
            f"per config; 1-minute load average {load[0]:.1f} at the start, {load[1]:.1f} at the end.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--target", default="dsa-e1", help="the DSA target (default dsa-e1)")
    where.add_argument("--host", action="store_true", help="the host part only: this machine's CPU on "
                       "HOST_MANIFESTS (its own block of docs/TASK.md; the DSA part is not run)")
    ap.add_argument("--budget", type=int, default=4, help="L1 measurements per searched dispatch (default 4)")
    ap.add_argument("--manifest", action="append", default=[], help="manifest paths (default: the shipped and "
                    "lerobot ones)")
    ap.add_argument("--json", metavar="FILE", help="also write the records as JSON")
    ap.add_argument("--write-docs", action="store_true", help="rewrite the marked block of docs/TASK.md")
    args = ap.parse_args(argv)
    if args.budget < 1:
        ap.error(f"--budget must be at least 1, got {args.budget}")
    target = get_target("host" if args.host else args.target)
    load_start = os.getloadavg()[0]
    rows, summary, records, builds = [], [], [], []
    for path in args.manifest or [REPO / m for m in (HOST_MANIFESTS if args.host else MANIFESTS)]:
        try:
            manifest = load_manifest(path)
        except InputError as e:
            ap.error(str(e))
        print(f"{manifest.model_id} on {target.name} ...", file=sys.stderr, flush=True)
        result = run(manifest, target, args.budget,
                     progress=(lambda line: print(line, file=sys.stderr, flush=True)) if args.host else None)
        summary_row, detail, record = manifest_rows(result)
        summary.append(summary_row)
        rows += detail
        builds += build_rows(result)
        records.append(record)
    tables = [format_table(SUMMARY, summary, right_align=set(range(1, len(SUMMARY)))), "",
              format_table(HEADERS, rows, right_align={2, 3, 4, 5, 7, 8, 9})]
    if builds:  # compile-flag proposals: stages rebuilt, not dispatches re-scheduled
        tables += ["", format_table(BUILD_HEADERS, builds, right_align={2, 5})]
    if args.host:
        repetitions = TuneOptions().repetitions
        machine = host_machine_line(target, repetitions, (load_start, os.getloadavg()[0]))
        text = "\n".join(tables + [
            "(gap: L1's time over its bound, every call of the chunk; the host has no floor, so closable is the "
            "gap; closed: what L2 took off the gap; every us measured by iree-benchmark-module, the bound measured "
            "(template) or estimated (roofline bound); L2 s: wall seconds, compiles and timings)",
            slowest_line(records), machine])
        for r in records:
            r["machine"] = machine
    else:
        text = "\n".join(tables + [
            "(gap: L1's time over its bound, every call of the chunk; a dispatch whose L1 time beat its elite "
            "template is judged against its roofline bound; closable: L1's time over the larger of its bound "
            "and the target's floor; closed: what L2 took off the gap; L2 s: wall seconds, measurements on the "
            "simulator; chunk L2 ms includes the stage builds L2 kept, the last table; chunk gap closed: "
            "(chunk L1 - chunk L2) / (chunk L1 - limit), the limit of the build the chunk ends with)"])
    emit_report(text, records, doc=REPO / "docs" / "TASK.md" if args.write_docs else None,
                marker=f"bench/l2_gain.py {target.name}", json_path=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
