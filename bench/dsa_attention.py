"""Attention on the DSA: IREE-default-derived untuned time, tuned time and the roofline bound.

    python bench/dsa_attention.py [--target dsa-e1] [--type bf16|f32] [--budget 64] [--json OUT]

Per attention shape of the VLA basket (tools/gen_vla_basket.py: pi0's Gemma prefix
self-attention 8 x 304 x 304 x 256, pi0's action expert over prefix + actions
8 x 50 x 354 x 256, OpenVLA's Llama-2 decode 32 x 1 x 283 x 128, GR00T's DiT
cross-attention 24 x 16 x 300 x 64; heads x queries x keys x head width), plus lerobot
pi0's prefix and action expert as the quantiser leaves them (8 query heads of 816 or 51 rows
over one shared K/V head of 816 or 867 keys, masked, read through the op's maps:
`gqa_mlir`), through the
tuner's own API: `compile_model` (IREE's default config read from its configured IR),
`tune(..., TuneOptions(strategy="pruned", budget=64), verify=False)` timed by the target's
`dsa-sim` runner (the event simulator). "untuned" is IREE's llvm-cpu tiles mapped onto
the DSA by `DsaTarget.untuned_config`; "bound" = max(MACs / peak, Q + K + V + O bytes /
DRAM bandwidth) (launch not included); "measured" counts the simulated candidates.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import gen_vla_basket  # noqa: E402

SHAPES = (
    ("attention_8x304x304x256", "pi0 prefix self-attention"),
    ("attention_8x50x354x256", "pi0 action expert attention"),
    ("attention_32x1x283x128", "OpenVLA decode attention"),
    ("attention_24x16x300x64", "DiT cross-attention"),
    ("gqa_8x816x816x256", "lerobot pi0 prefix, quantised (8 query heads share 1 K/V head, masked)"),
    ("gqa_8x51x867x256", "lerobot pi0 expert, quantised (8 query heads share 1 K/V head, masked)"),
)


def gqa_mlir(heads: int, queries: int, keys: int, head: int, element: str) -> str:
    """Masked grouped-query attention: the heads read one K and one V head and one mask
    through the maps (no head dim in them), as `quant.layout_fold` leaves pi0's Gemma layers."""
    q, kv, mask = f"{heads}x{queries}x{head}x{element}", f"{keys}x{head}x{element}", f"{queries}x{keys}x{element}"
    return f"""func.func @main(%q: tensor<{q}>, %k: tensor<{kv}>, %v: tensor<{kv}>, %mask: tensor<{mask}>) -> tensor<{q}> {{
  %scale = arith.constant {head ** -0.5} : {element}
  %e = tensor.empty() : tensor<{q}>
  %r = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>, affine_map<(b, m, n, k1, k2) -> (k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (k2, n)>, affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (m, k2)>, affine_map<(b, m, n, k1, k2) -> (b, m, n)>]>
      ins(%q, %k, %v, %scale, %mask : tensor<{q}>, tensor<{kv}>, tensor<{kv}>, {element}, tensor<{mask}>)
      outs(%e : tensor<{q}>) {{
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }} -> tensor<{q}>
  return %r : tensor<{q}>
}}
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default="dsa-e1")
    parser.add_argument("--type", default="bf16", choices=("bf16", "f32"), help="operand type (default bf16)")
    parser.add_argument("--budget", type=int, default=64)
    parser.add_argument("--json", help="write the rows as JSON here")
    args = parser.parse_args(argv)

    from iree_dsa_tuner import TuneOptions, compile_model, tune
    from iree_dsa_tuner.runners import RunnerOptions
    from iree_dsa_tuner.targets import get_target

    target = get_target(args.target)
    ops = {op.name: op for op in gen_vla_basket.basket_ops()}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, what in SHAPES:
            path = Path(tmp) / f"{name}.mlir"
            if name.startswith("gqa_"):
                heads, queries, keys, head = (int(v) for v in name.removeprefix("gqa_").split("x"))
                path.write_text(gqa_mlir(heads, queries, keys, head, args.type))
            else:
                path.write_text(gen_vla_basket.op_mlir(ops[name], args.type))
            t0 = time.perf_counter()
            artifacts = compile_model(path, target.compile_flags)
            runner = target.make_runner(artifacts, RunnerOptions())
            report = tune(artifacts, target, TuneOptions(strategy="pruned", budget=args.budget), runner=runner,
                          verify=False)
            d = report.dispatches[0]
            tuned = d.best_us if d.best_us and (not d.default_us or d.best_us < d.default_us) else d.default_us
            rows.append({"shape": name.removeprefix("attention_").removeprefix("gqa_"), "what": what, "untuned_us": d.default_us,
                         "tuned_us": tuned, "bound_us": d.bound_us,
                         "tuned_over_bound": tuned / d.bound_us if tuned and d.bound_us else None,
                         "measured": d.measured, "survivors": d.survivors, "space": d.space_size,
                         "config": d.best_config.compilation_info_text() if d.best_config else None,
                         "seconds": time.perf_counter() - t0})
    print(f"{args.target}, {args.type}, pruned search, budget {args.budget} (event simulator)")
    header = f"{'shape (heads x q x keys x head)':<32} {'untuned us':>10} {'tuned us':>9} {'bound us':>9} " \
             f"{'tuned/bound':>11} {'measured':>8}  what"
    print(header)
    print("-" * len(header))
    for r in rows:
        ratio = f"{r['tuned_over_bound']:.2f}x" if r["tuned_over_bound"] else "-"
        print(f"{r['shape']:<32} {r['untuned_us']:>10.1f} {r['tuned_us']:>9.1f} {r['bound_us']:>9.1f} "
              f"{ratio:>11} {r['measured']:>8}  {r['what']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"target": args.target, "type": args.type, "budget": args.budget,
                                               "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
