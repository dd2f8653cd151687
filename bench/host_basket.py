"""Host, whole model, constant weights: IREE's default vs every flag preset vs the tuner's recipe vs numpy.

    python bench/host_recipe.py [--quick] [--shape f32_kn_1x2048x2048 ...] [--rounds 3] [--budget 16] [--json OUT]

Each shape becomes a deployed-style model (tools/gen_basket.py `constant_weights_text`: the
weights a `util.global` constant, `@main(%a)`), and `tune_recipe` (what `tune --target host`
runs) searches the flag presets and the dispatch specs, timing the whole entry function in
interleaved rounds. Printed per shape, from the same run: the whole-function median of IREE's
default, of the best preset, of the recipe, numpy's (OpenBLAS, one thread, kernel named), the
ratios, the weight-streaming rate of batch-1 shapes in GB/s beside numpy's, tuning seconds and
dispatch measurements. 1 thread everywhere (local-sync).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import common
import gen_basket

QUICK = ("f32_kn_1x256x512",)
# Batch-1 decode and chunk shapes of the reference models, both weight layouts, int8 and bf16.
SHAPES = ("f32_kn_1x2048x2048", "f32_nk_1x2048x2048", "f32_kn_50x4096x1024", "f32_kn_256x1152x1152",
          "f32_kn_50x1024x1024", "i8_kn_16x512x2048", "bf16_kn_1x4096x11008", "bf16_kn_1x11008x4096")


def run_shape(entry, work: Path, args) -> dict:
    from iree_dsa_tuner.model_level import tune_recipe
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets import get_target

    model = work / f"{entry.name}.mlir"
    model.write_text(gen_basket.constant_weights_text(entry))
    t0 = time.perf_counter()
    result = tune_recipe(model, get_target("host"), TuneOptions(budget=args.budget, repetitions=3),
                         rounds=args.rounds, progress=common.progress)
    seconds = time.perf_counter() - t0
    by_name = {v.name: v for v in result.variants}
    default = by_name["default"]
    presets = [v for v in result.variants if v.median_us and not v.name.endswith("+spec")]
    best_preset = min(presets, key=lambda v: v.median_us)
    recipe_us = result.recipe.whole_model_us.get(
        next((v.name for v in result.variants if v.name.endswith("+spec")), ""), None) if result.spec_text else None
    if recipe_us is None:
        chosen = next(v for v in result.variants if tuple(v.flags) == result.recipe.flags and not v.name.endswith("+spec"))
        recipe_us = chosen.median_us
    iterations = common.iterations_for(recipe_us or 100.0)
    numpy_times, blas = common.numpy_matmul_times(entry, iterations=iterations, repetitions=5)
    numpy_us = common.median(numpy_times)
    weight_bytes = entry.n * entry.k * {"f32": 4, "bf16": 2, "i8": 1}[entry.element_type]
    measured = sum(d.measured for d in result.tune_result.dispatches) if result.tune_result else 0
    return {
        "shape": entry.name, "default_us": default.median_us, "best_preset": best_preset.name,
        "best_preset_us": best_preset.median_us, "recipe_flags": list(result.recipe.flags),
        "spec_kept": bool(result.spec_text), "recipe_us": recipe_us, "numpy_us": numpy_us,
        "recipe_vs_default": default.median_us / recipe_us if recipe_us else None,
        "recipe_vs_best_preset": best_preset.median_us / recipe_us if recipe_us else None,
        "recipe_vs_numpy": numpy_us / recipe_us if recipe_us else None,
        "recipe_gbps": weight_bytes / recipe_us / 1e3 if entry.m == 1 and recipe_us else None,
        "numpy_gbps": weight_bytes / numpy_us / 1e3 if entry.m == 1 else None,
        "tuning_s": round(seconds, 1), "measurements": measured, "notes": result.notes,
        "variants": [v.to_json() for v in result.variants], "blas": blas,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"one small shape ({', '.join(QUICK)})")
    parser.add_argument("--shape", action="append", default=[], help="TYPE_LAYOUT_MxNxK (repeatable)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved whole-model rounds per decision")
    parser.add_argument("--budget", type=int, default=16, help="dispatch measurements per dispatch")
    parser.add_argument("--json", help="write every figure as JSON")
    args = parser.parse_args()
    names = args.shape or (QUICK if args.quick else SHAPES)
    machine = common.print_header("host recipe: whole model with constant weights, 1 thread")
    rows, results = [], []
    with tempfile.TemporaryDirectory(prefix="host-recipe-") as tmp:
        for name in names:
            entry = gen_basket.find_entry(name)
            common.progress(f"{name}: presets, dispatch search, whole-model confirmation")
            try:
                r = run_shape(entry, Path(tmp), args)
            except Exception as e:  # one shape failing must not lose the others' figures
                common.progress(f"{name}: failed: {type(e).__name__}: {e}")
                results.append({"shape": name, "error": f"{type(e).__name__}: {e}"})
                continue
            results.append(r)
            common.progress(f"{name}: default {r['default_us']:.1f} us, recipe {r['recipe_us']:.1f} us "
                            f"({' '.join(r['recipe_flags']) or 'default flags'}; spec {'kept' if r['spec_kept'] else 'none'}), "
                            f"numpy {r['numpy_us']:.1f} us")
            rows.append([r["shape"], common.fmt(r["default_us"], ".1f"), f"{r['best_preset']}",
                         common.fmt(r["best_preset_us"], ".1f"), " ".join(f.replace("--iree-", "") for f in
                                                                         r["recipe_flags"]) or "-",
                         "yes" if r["spec_kept"] else "no", common.fmt(r["recipe_us"], ".1f"),
                         common.fmt(r["numpy_us"], ".1f"), common.fmt(r["recipe_vs_default"], ".2f", "x"),
                         common.fmt(r["recipe_vs_best_preset"], ".2f", "x"), common.fmt(r["recipe_vs_numpy"], ".2f", "x"),
                         common.fmt(r["recipe_gbps"], ".1f"), common.fmt(r["numpy_gbps"], ".1f"),
                         r["tuning_s"], r["measurements"]])
    common.print_table(["shape", "default us", "best preset", "us", "recipe flags", "spec", "recipe us", "numpy us",
                        "vs default", "vs best preset", "vs numpy", "GB/s", "numpy GB/s", "tune s", "meas."], rows,
                       title="whole function @main, median of interleaved rounds (> 1x = the recipe is faster)")
    ratios = [r["recipe_vs_numpy"] for r in results if r.get("recipe_vs_numpy")]
    print(f"geomean recipe vs numpy: {common.fmt(common.geomean(ratios), '.2f', 'x')} over {len(ratios)} shapes")
    for r in results:
        if "error" in r:
            print(f"{r['shape']}: FAILED: {r['error']}")
        for note in r.get("notes", []):
            print(f"{r['shape']}: {note}")
    common.write_json(args.json, {"machine": machine, "shapes": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
