"""Quantised policies on a DSA target: one row per manifest, its stages quantised for real by the
quantiser where their weights are in the model (docs/QUANT.md), tuned by `task`.

    python bench/quant_task.py [--target dsa-e1] [--budget 8] [--manifest PATH ...] [--l2 off|auto|on] [--json FILE] [--write-docs]

Per manifest: the scheme, whether each stage is quantised for real or re-typed (a what-if, for
weights that are function arguments), the worst stage's accuracy against f32 (rel L2, cosine;
measured by running both models with IREE on seeded calibration inputs), the chunk with IREE's
default schedules and tuned, the physical limit (for real stages every byte a call moves:
weights as stored, scales, activations, outputs) and the ratio, then the issue's target and
whether it is met. A row judged by its limit whose chunk already meets the manifest's budget
(`task` stops tuning there) runs again with the budget set to the row's target (target ratio x
limit): the tuning database keeps the first run's measurements, so only the further searches
are new. "launches ms" is every dispatch call of the chunk times the target's launch overhead,
which the tuned time holds and the limit leaves out. Where the target is missed, the largest
dispatches of the tuned chunk are named with their share. Then each large-M GEMM of the quantised stages against its bounds, with what the
scratchpad and the DMA forbid. The DSA model is deterministic: one run is the figure.
--write-docs rewrites the marked block of docs/TASK.md with this run's output (made with --l2
off, the library's default: L1 alone; `--l2 auto` adds the L2 tier as `task`'s CLI runs it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from common import emit_report
from iree_dsa_tuner.report import format_table
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

REPO = Path(__file__).resolve().parent.parent
# (manifest, the target a row is judged against: ratio to the limit, and chunk ms if any, and the
# activation scales when not the manifest's: "static" rows are the same policy with one calibrated
# INT8 scale per layer instead of per-token ones, docs/QUANT.md)
ROWS = (
    ("lit_tests/inputs/lerobot/pi0_w4a8.toml", 1.2, 100.0, None),
    ("lit_tests/inputs/lerobot/pi0_w4a8.toml", 1.2, 100.0, "static"),
    ("lit_tests/inputs/lerobot/pi0_expert_w4a8.toml", 1.2, None, None),
    ("lit_tests/inputs/lerobot/pi0_expert_w4a8.toml", 1.2, None, "static"),
    ("lit_tests/inputs/manifests/torch_expert_quantized.toml", 1.2, None, None),
    ("lit_tests/inputs/manifests/torch_expert_quantized.toml", 1.2, None, "static"),
    ("lit_tests/inputs/lerobot/act_w8a8.toml", 1.2, None, None),
    ("lit_tests/inputs/lerobot/diffusion_policy_w8a8.toml", 1.2, None, None),
    ("lit_tests/inputs/lerobot/diffusion_policy_w8a8.toml", 1.2, None, "static"),
    ("python/iree_dsa_tuner/examples/manifests/pi0.toml", 1.2, None, None),
)
# A GEMM with at least this many rows should read each weight once, its activations resident.
LARGE_M = 256
LARGE_M_TARGET = 1.5
LARGE_M_HEADERS = ["manifest", "a8 scales", "stage", "dispatch", "us/call", "compute us", "weights-once us", "ratio", "met",
                   "output us", "/ all three", "why not"]


def _why(p, desc, bound_us: float, output_us: float) -> str:
    """What the chip forbids about reading each weight once with every row resident, and where
    the schedule's price lies."""
    from iree_dsa_tuner.core.problems import element_bits

    m, k = p.M, p.K
    panel = element_bits(p.lhs_type) / 8  # bytes per activation element
    cap = desc.scratchpad_bytes // (2 * m * desc.accumulator_bytes)  # whole-M accumulator, double-buffered
    reasons = []
    if m * k * panel / desc.cores > desc.scratchpad_bytes * 7 / 8:
        waves = -(-int(m * k * panel) // int(desc.cores * desc.scratchpad_bytes * 7 / 8))
        reasons.append(f"activations {m}x{k} exceed {desc.cores} cores' scratchpads even split {desc.cores} ways: "
                       f"at least {waves} waves of rows, each streaming the weights again")
    if output_us > LARGE_M_TARGET * bound_us:
        reasons.append(f"writing its output once takes {output_us:.0f} us, {output_us / bound_us:.1f}x the bound")
    if cap * desc.accumulator_bytes < desc.min_dma_bytes:
        reasons.append(f"a whole-M accumulator ({m} rows) leaves output rows of {cap * desc.accumulator_bytes} B "
                       f"(under the {desc.min_dma_bytes} B a DMA needs): row bands gather each weight slice "
                       f"over the NoC, through {desc.dma_port_bytes_per_s / 1e9:.0f} GB/s core ports")
    return "; ".join(reasons) or "the scratchpad allows it: a gap of the search or the schedules, not of the chip"


def large_m_rows(result, target) -> list:
    """Each large-M GEMM of the quantised stages: its tuned time per call against max(its MACs at
    peak, its weights (as stored, with their scales) streamed once)."""
    from iree_dsa_tuner.ir import compile_model

    desc = target.describe()
    out = []
    for stage in result.manifest.stages:
        q = result.quantization.get(stage.name, {})
        if not q.get("quantized"):
            continue
        count = stage.repeat * stage.count(result.manifest.flow_steps)
        problems = {p.dispatch: p for p in compile_model(Path(q["mlir"]), target.compile_flags).problems()
                    if getattr(p, "kind", "") == "contraction"}
        for a in result.after.amdahl:
            p = problems.get(a["dispatch"]) if a["stage"] == stage.name else None
            if p is None or p.M < LARGE_M:
                continue
            us = a["ms"] * 1e3 / (a["calls"] * count)
            compute = p.flops / desc.peak_ops(desc.compute_type(p.lhs_type, p.rhs_type)) * 1e6
            weights = sum(i.num_bytes for i in p.inputs[1:]) / desc.dram_bytes_per_s * 1e6
            ratio = us / max(compute, weights)
            output = p.output.num_bytes / desc.dram_bytes_per_s * 1e6
            out.append([result.manifest.model_id, result.manifest.quant_activations, stage.name, a["dispatch"], f"{us:.1f}", f"{compute:.1f}",
                        f"{weights:.1f}", f"{ratio:.2f}x", "yes" if ratio <= LARGE_M_TARGET else "NO",
                        f"{output:.1f}", f"{us / max(compute, weights, output):.2f}x",
                        _why(p, desc, max(compute, weights), output) if ratio > LARGE_M_TARGET else ""])
    return out
HEADERS = ["manifest", "scheme", "a8 scales", "stages quantised", "rel L2", "cosine", "default ms", "tuned ms", "limit ms",
           "launches ms", "/limit", "target", "met"]


def launches_ms(result, target) -> float:
    """Every dispatch call of the tuned chunk times the target's launch overhead."""
    calls = sum(s["repeat"] * s["count"] * s["dispatch_calls"] for s in result.after.stages)
    return calls * target.describe().launch_s * 1e3


def run_row(manifest, target, budget: int, ratio_target: float, ms_target: float | None, library: Path,
            l2: str = "off"):
    """`task` on one row; again with the row's target as the budget when the manifest's budget
    stopped it short of the target (see the module doc). `l2`: task's L2 mode (the docs rows:
    off, the library's default; the CLI's default is auto)."""
    result = run_task(manifest, target, TuneOptions(budget=budget), library=library, l2=l2)
    a = result.after
    goal = ratio_target * a.limit_ms
    if ms_target is not None:
        goal = min(goal, ms_target)
    if a.meets_budget and a.chunk_ms > goal:
        print(f"  {manifest.model_id}: {a.chunk_ms:.1f} ms meets the manifest's {a.budget_ms:g} ms budget, not "
              f"the row's target; again with a {goal:.1f} ms budget", file=sys.stderr, flush=True)
        result = run_task(manifest, target, TuneOptions(budget=budget), budget_ms=goal, library=library,
                          retune=True, l2=l2)
    return result


def row(result, ratio_target: float, ms_target: float | None, target) -> tuple[list, dict]:
    a, b, m = result.after, result.before, result.manifest
    q = result.quantization
    real = [s for s, v in q.items() if v["quantized"]]
    accs = [v["accuracy"] for v in q.values() if v["quantized"] and v["accuracy"]]
    worst = max(accs, key=lambda x: x["rel_l2"]) if accs else None
    ratio = a.chunk_ms / a.limit_ms if a.limit_ms else float("inf")
    met = ratio <= ratio_target and (ms_target is None or a.chunk_ms <= ms_target)
    goal = f"<= {ratio_target:g}x limit" + (f", <= {ms_target:g} ms" if ms_target else "")
    launches = launches_ms(result, target)
    cells = [m.model_id, m.scheme, m.quant_activations if real and m.scheme != "bf16" else "-",
             f"{len(real)}/{len(m.stages)}" + ("" if real else " (what-if)"),
             f"{worst['rel_l2']:.4f}" if worst else "-", f"{worst['cosine']:.5f}" if worst else "-",
             f"{b.chunk_ms:.1f}", f"{a.chunk_ms:.1f}", f"{a.limit_ms:.1f}", f"{launches:.1f}", f"{ratio:.2f}x",
             goal, "yes" if met else "NO"]
    record = {"manifest": m.model_id, "scheme": m.scheme, "activations": m.quant_activations, "quantization": q,
              "default_ms": b.chunk_ms,
              "chunk_ms": a.chunk_ms, "limit_ms": a.limit_ms, "ratio": ratio, "target": goal, "met": met, "launches_ms": launches,
              "largest": [{k: x[k] for k in ("stage", "dispatch", "calls", "ms", "share", "how")}
                          for x in a.amdahl[:3]]}
    return cells, record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", default="dsa-e1")
    ap.add_argument("--budget", type=int, default=8, help="measurements per searched dispatch (default 8)")
    ap.add_argument("--manifest", action="append", default=[], help="manifest paths (default: the three rows)")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    ap.add_argument("--write-docs", action="store_true", help="rewrite the marked block of docs/TASK.md")
    ap.add_argument("--l2", choices=("off", "auto", "on"), default="off",
                    help="task's L2 tier (default off, as the docs rows are made; `task`'s CLI default is auto: "
                         "L2 runs when R3.4's triggers fire, stage builds under IREE's fusion flags included)")
    args = ap.parse_args(argv)
    target = get_target(args.target)
    rows, records, large = [], [], []
    if args.write_docs and args.l2 != "off":
        ap.error("--write-docs writes the docs rows, which are made with --l2 off")
    plan = [(m, 1.2, None, None) for m in args.manifest] or [(REPO / m, r, t, a) for m, r, t, a in ROWS]
    with tempfile.TemporaryDirectory() as library:
        for path, ratio, ms, activations in plan:
            manifest = load_manifest(path)
            if activations is not None:
                manifest = replace(manifest, quant_activations=activations)
            print(f"{manifest.model_id} ({manifest.scheme}) on {target.name} ...", file=sys.stderr, flush=True)
            # One library per row: a static row of the same policy is another binding, not a stale one.
            result = run_row(manifest, target, args.budget, ratio, ms, Path(library) / str(len(rows)), args.l2)
            cells, record = row(result, ratio, ms, target)
            rows.append(cells)
            records.append(record)
            large += large_m_rows(result, target)
    lines = [format_table(HEADERS, rows, right_align={4, 5, 6, 7, 8, 9, 10})]
    for r in records:
        if not r["met"]:
            parts = ", ".join(f"{x['stage']}/{x['dispatch']} {100 * x['share']:.1f}% ({x['how']})" for x in r["largest"])
            over = (r["limit_ms"] + r["launches_ms"]) / r["limit_ms"] if r["limit_ms"] else 0.0
            floor = f", limit + launches alone {over:.2f}x" if over > 1 else ""
            lines.append(f"{r['manifest']} ({r['activations']}): target {r['target']} missed ({r['ratio']:.2f}x; "
                         f"launches {r['launches_ms']:.1f} ms, {100 * r['launches_ms'] / r['chunk_ms']:.0f}% of the "
                         f"chunk{floor}); largest: {parts}")
    if large:
        lines.append(f"\nlarge-M GEMMs (M >= {LARGE_M}): tuned time per call against max(compute at peak, weights "
                     f"streamed once); target <= {LARGE_M_TARGET:g}x")
        lines.append(format_table(LARGE_M_HEADERS, large, right_align={4, 5, 6, 7, 9, 10}))
        lines.append("(output us: writing its result once at DRAM bandwidth, a floor the bound above leaves out; "
                     "/ all three: us/call against max(compute, weights once, output once))")
    text = "\n".join(lines)
    emit_report(text, records, doc=REPO / "docs" / "TASK.md" if args.write_docs else None,
                marker=f"bench/quant_task.py {args.target}", json_path=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
