"""How well the host's L0 model (host/costmodel.py) ranks real dispatch times, per weight layout.

    python bench/host_cost_model_fidelity.py [--shape f32_nk_1x2048x2048 ...] [--sample 12] [--json OUT]
    python bench/host_cost_model_fidelity.py --rescore OUT.json   # the stored times, today's estimates

For each shape (tools/gen_basket.py names; default: the transposed-B [N,K] shapes the funnel
got backwards, and their [K,N] twins), the dispatch is compiled once, the host space's legal
candidates are ranked by the L0 estimate, and `--sample` of them, spread evenly over that
ranking (the fastest, the slowest and evenly between; deterministic), plus IREE's own default,
are measured with the tuner's host runner (iree-benchmark-module on the dispatch benchmark,
median of 3). Printed per shape: Spearman of estimate vs measured over the sample, whether the
measured best is among the estimate's top 3 of the sample, the estimate's pick vs the measured
best, and the default's time; then the median Spearman per layout.
Measurements are interleaved by nothing (each candidate is timed once, 3 repetitions); the
ranking question only needs the large differences to be right. `--rescore` re-ranks the times
a previous `--json` stored with the current model (no measuring): how the model was calibrated.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from types import SimpleNamespace
from pathlib import Path

import common

# The [N,K] shapes of the basket (weights as PyTorch's Linear stores them) and [K,N] twins.
SHAPES = ("f32_nk_1x2048x2048", "f32_nk_1x4096x1024", "f32_nk_1x1024x4096", "f32_nk_16x1024x1024",
          "f32_kn_1x2048x2048", "f32_kn_16x1024x1024")
QUICK = ("f32_nk_1x256x512",)
# Attention of the reference models (tools/gen_vla_basket.py names): `--attention`.
ATTENTION = ("attention_24x16x300x64", "attention_32x1x283x128", "attention_24x16x16x64")


def _model(name: str):
    """(model text, layout label) of a gen_basket GEMM name or a gen_vla_basket op name."""
    import gen_vla_basket

    ops = {op.name: op for op in gen_vla_basket.basket_ops()}
    if name in ops:
        return gen_vla_basket.op_mlir(ops[name]), ops[name].kind
    entry = common.gen_basket.find_entry(name)
    return entry.mlir(), "[N,K]" if entry.weights_nk else "[K,N]"


def _spearman(xs, ys):
    fidelity, _ = common.fidelity_functions()
    trials = [SimpleNamespace(estimate_us=x, time_us=y) for x, y in zip(xs, ys)]
    return fidelity(trials).get("spearman")


def spread_sample(ranked: list, count: int) -> list:
    """`count` items evenly spaced over `ranked` (both ends included), order kept."""
    if len(ranked) <= count:
        return list(ranked)
    step = (len(ranked) - 1) / (count - 1)
    picks = sorted({round(i * step) for i in range(count)})
    return [ranked[i] for i in picks]


def _compiled(name: str, work: Path):
    """(target, artifacts, problem, cost view, layout) of one shape on the host."""
    from iree_dsa_tuner import compile_model
    from iree_dsa_tuner.targets import get_target

    text, layout = _model(name)
    model = work / f"{name}.mlir"
    model.write_text(text)
    target = get_target("host")
    artifacts = compile_model(model, target.compile_flags)
    (problem,) = [p for p in artifacts.problems() if p.kind in ("contraction", "attention")]
    return target, artifacts, problem, common.cost_view_class()(problem, target), layout


def run_shape(name: str, work: Path, sample: int) -> dict:
    from iree_dsa_tuner.runners.host import HostBenchRunner

    target, artifacts, problem, view, layout = _compiled(name, work)
    ranked = sorted(view.legal, key=view.estimate_us)
    picks = spread_sample(ranked, sample)
    runner = HostBenchRunner(artifacts, target.describe(), repetitions=3)
    try:
        configs = [target.to_config(problem, c) for c in picks]
        runner.prepare(problem, [None, *configs])
        default = runner.measure(problem, None)
        rows = []
        for c, config in zip(picks, configs):
            m = runner.measure(problem, config)
            rows.append({"vec": [c.vec_m, c.vec_n, c.vec_k], "tile": [c.tile_m, c.tile_n, c.tile_k],
                         "estimate_us": view.estimate_us(c),
                         "measured_us": m.median_us if m.ok else None, "status": str(m.status)})
    finally:
        runner.close()
    return summarise(name, layout, rows, len(view.legal), default.median_us if default.ok else None)


def summarise(name: str, layout: str, rows: list[dict], legal: int, default_us: float | None) -> dict:
    ok = [r for r in rows if r["measured_us"]]
    rho = _spearman([r["estimate_us"] for r in ok], [r["measured_us"] for r in ok]) if len(ok) >= 3 else None
    best = min(ok, key=lambda r: r["measured_us"]) if ok else None
    pick = min(ok, key=lambda r: r["estimate_us"]) if ok else None
    top3 = sorted(ok, key=lambda r: r["estimate_us"])[:3]
    return {"shape": name, "layout": layout, "spearman": rho,
            "best_in_top3": best in top3 if best else None, "measured": len(ok), "legal": legal,
            "default_us": default_us,
            "best_us": best["measured_us"] if best else None, "best_vec": best["vec"] if best else None,
            "pick_us": pick["measured_us"] if pick else None, "pick_vec": pick["vec"] if pick else None,
            "rows": rows}


def rescore(stored: dict, work: Path) -> dict:
    """`stored` (one shape of a previous --json) with every estimate recomputed by today's model."""
    _, _, _, view, layout = _compiled(stored["shape"], work)
    by_tiles = {((c.tile_m, c.tile_n, c.tile_k), (c.vec_m, c.vec_n, c.vec_k)): c for c in view.legal}
    by_tiles.update({((c.tile_m, c.tile_n), (c.vec_m, c.vec_n, c.vec_k)): c for c in view.legal})
    rows = []
    for row in stored["rows"]:
        c = by_tiles.get((tuple(row["tile"]), tuple(row["vec"])))
        if c is not None:
            rows.append({**row, "estimate_us": view.estimate_us(c)})
    return summarise(stored["shape"], layout, rows, len(view.legal), stored["default_us"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", action="append", default=[], help="TYPE_LAYOUT_MxNxK (repeatable)")
    parser.add_argument("--quick", action="store_true", help=f"one small shape ({', '.join(QUICK)})")
    parser.add_argument("--attention", action="store_true", help=f"the reference models' attention ({', '.join(ATTENTION)})")
    parser.add_argument("--sample", type=int, default=12, help="candidates measured per shape")
    parser.add_argument("--json", help="write every figure as JSON")
    parser.add_argument("--rescore", metavar="JSON", help="re-rank the times stored by a previous --json")
    args = parser.parse_args()
    names = args.shape or (QUICK if args.quick else ATTENTION if args.attention else SHAPES)
    machine = common.print_header("host L0 fidelity: estimate vs measured dispatch time, 1 thread")
    results = []
    with tempfile.TemporaryDirectory(prefix="host-fidelity-") as tmp:
        if args.rescore:
            stored = json.loads(Path(args.rescore).read_text())["results"]
            results = [rescore(r, Path(tmp)) for r in stored if not args.shape or r["shape"] in args.shape]
        for name in names if not args.rescore else ():
            print(f"-- {name}", flush=True)
            results.append(run_shape(name, Path(tmp), args.sample))
    table = [[r["shape"], common.fmt(r["spearman"]), str(r["best_in_top3"]), f"{r['measured']}/{r['legal']}",
              common.fmt(r["default_us"], ".1f"), common.fmt(r["best_us"], ".1f"), str(r["best_vec"]),
              common.fmt(r["pick_us"], ".1f"), str(r["pick_vec"])] for r in results]
    print(common.format_table(["shape", "rho", "best in top3", "measured/legal", "default us", "best us",
                               "best vec m,n,k", "L0 pick us", "L0 pick vec"], table))
    for layout in ("[N,K]", "[K,N]", "attention"):
        rhos = [r["spearman"] for r in results if r["layout"] == layout and r["spearman"] is not None]
        if rhos:
            print(f"median Spearman {layout}: {common.median(rhos):.2f} over {len(rhos)} shapes")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
