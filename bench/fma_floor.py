"""The f32 FMA floor of each lerobot export: the time no one-thread f32 build can beat, and the
eager / recipe ratio that caps.

    python bench/fma_floor.py [DIR] [--bench-json ROWS.json] [--peak GFLOPS] [--json OUT]

For each export in DIR (default: the committed exports, lit_tests/inputs/lerobot/), it counts the
multiply-adds of the products in its input form: every static `linalg.matmul` and
`linalg.batch_matmul` (`host.routes.k_split.input_gemms`: linear layers, attention written as
batched products) and every `iree_linalg_ext.attention` (its Q K^T and P V). The floor is those
FLOPs at the FMA peak of one core that the host's description derives (`--peak` to name another;
bench/fma_peak.py measures it): no build that does these products with f32 FMAs on one core,
IREE's or a BLAS's, runs the model faster. With PyTorch eager's time, eager / floor is the
largest eager / recipe any such build can show on this machine; recipe / floor says how far a
recipe is from it.

PyTorch eager's (and the recipe's) times come from a `bench/lerobot_vs_pytorch.py --json` run
(`--bench-json`); without one, eager's is the time recorded at export (NAME.json) and no recipe
column is filled. Models with convolutions get no floor: the Winograd and kernel-tap routes change
how many multiply-adds a convolution takes, so their products are not a bound.

Counting reads the exports only (nothing is timed), so the FLOP columns are the same on every
machine; the floor and the ratios are this host's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import common

from iree_dsa_tuner.host.routes.k_split import input_gemms
from iree_dsa_tuner.host.target import machine_description
from iree_dsa_tuner.ir.artifacts import compile_model

EXPORTS = common.REPO / "lit_tests" / "inputs" / "lerobot"
ATTENTION = "iree_linalg_ext.attention"
# Named convolution ops (2-D and 1-D, depthwise too): a model with any gets no floor.
CONVOLUTIONS = ("linalg.conv_", "linalg.depthwise_conv_")


def other_products(text: str) -> tuple[int, int]:
    """(FLOPs (2 per multiply-add) of every static attention op of a module's text, Q K^T and P V
    with Q [..., M, K1], K [..., K2, K1], V [..., K2, N]; how many convolution ops it has)."""
    from iree.compiler import ir

    flops, convolutions = 0, 0

    def visit(op) -> "ir.WalkResult":
        nonlocal flops, convolutions
        if op.name.startswith(CONVOLUTIONS):
            convolutions += 1
        elif op.name == ATTENTION and len(op.operands) >= 3:
            q, k, v = (ir.RankedTensorType(o.type) for o in list(op.operands)[:3])
            if q.has_static_shape and k.has_static_shape and v.has_static_shape:
                *batch, m, k1 = q.shape
                k2, n = list(k.shape)[-2], list(v.shape)[-1]
                heads = 1
                for b in batch:
                    heads *= b
                flops += 2 * heads * m * k2 * (k1 + n)
        return ir.WalkResult.ADVANCE

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        ir.Module.parse(text).operation.walk(visit)
    return flops, convolutions


def count(model: Path) -> dict:
    """The export's product FLOPs by kind, from its input form (the model lowered to linalg)."""
    text = compile_model(model, common.HOST_FLAGS).input_text()
    gemms = input_gemms(text)
    attention, convolutions = other_products(text)
    return {"gemm_f32_flops": sum(2 * g.batch * g.m * g.n * g.k for g in gemms if g.element_bytes == 4),
            "gemm_other_flops": sum(2 * g.batch * g.m * g.n * g.k for g in gemms if g.element_bytes != 4),
            "attention_flops": attention, "convolutions": convolutions}


def bench_rows(path: Path | None) -> dict[str, dict]:
    """Export name -> its row of a lerobot_vs_pytorch --json run; ValueError for anything else."""
    if path is None:
        return {}
    try:
        rows = json.loads(path.read_text())
        return {r["name"]: r for r in rows}
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise ValueError(f"{path}: not the rows of a bench/lerobot_vs_pytorch.py --json run ({e})") from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("directory", nargs="?", type=Path, default=EXPORTS,
                    help="exports (NAME.mlir beside NAME.json; default the committed ones)")
    ap.add_argument("--bench-json", type=Path, help="rows a bench/lerobot_vs_pytorch.py --json run wrote")
    ap.add_argument("--peak", type=float, help="GFLOP/s f32 of one core (default: the host description's)")
    ap.add_argument("--only", nargs="*", help="these export names only")
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args(argv)
    exports = sorted(p for p in args.directory.glob("*.mlir") if (p.with_suffix(".json")).is_file()
                     and (not args.only or p.stem in args.only))
    if not exports:
        ap.error(f"{args.directory}: no NAME.mlir with its NAME.json (tools/export_lerobot.py writes both)")
    description = machine_description()
    peak = (args.peak * 1e9 if args.peak else description.peak_ops("f32") / max(1, description.cores))
    try:
        measured = bench_rows(args.bench_json)
    except ValueError as e:
        ap.error(str(e))
    common.print_header("f32 FMA floor of lerobot exports: their products' FLOPs at one core's FMA peak")
    print(f"FMA peak: {peak / 1e9:.1f} GFLOP/s f32, one core ({'--peak' if args.peak else 'the host description'})")
    print(f"eager and recipe times: {args.bench_json.name if args.bench_json else 'eager as recorded at export'}\n")
    rows, records = [], []
    for model in exports:
        common.progress(f"{model.stem}: counting")
        try:
            counted = count(model)
        except Exception as e:  # one export that does not compile: said, and the rest go on
            first = str(e).strip().splitlines() or [type(e).__name__]
            print(f"{model.stem}: not counted: {first[0][:200]}", file=sys.stderr)
            records.append({"name": model.stem, "error": str(e)})
            continue
        record = json.loads(model.with_suffix(".json").read_text())
        bench = measured.get(model.stem, {})
        eager = bench.get("pytorch_ms", record["pytorch_eager"]["median_ms"])
        recipe = bench.get("recipe_ms")
        flops = counted["gemm_f32_flops"] + counted["attention_flops"]
        floor = flops / peak * 1e3 if flops and not counted["convolutions"] else None
        rows.append([model.stem, f"{counted['gemm_f32_flops'] / 1e9:.3f}", f"{counted['attention_flops'] / 1e9:.3f}",
                     str(counted["convolutions"]), common.fmt(floor, ".1f"), common.fmt(eager, ".1f"),
                     common.fmt(recipe, ".1f"), common.fmt(floor / recipe if floor and recipe else None, ".0%"),
                     common.fmt(eager / floor if floor else None, ".2f"),
                     common.fmt(eager / recipe if recipe else None, ".2f")])
        records.append(dict(counted, name=model.stem, floor_ms=floor, eager_ms=eager, recipe_ms=recipe,
                            peak_flops=peak))
    common.print_table(["export", "f32 GEMM GFLOP", "attention GFLOP", "convolutions", "floor ms", "eager ms",
                        "recipe ms", "floor / recipe", "eager / floor (cap)", "eager / recipe"], rows,
                       title="floor = the FLOPs at the FMA peak; '-' with convolutions (routes change their FLOPs)")
    common.write_json(args.json, {"rows": records})
    return 0


if __name__ == "__main__":
    sys.exit(main())
