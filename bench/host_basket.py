"""The host basket, whole model: IREE's default vs every flag preset vs the tuner's recipe vs numpy.

    python bench/host_basket.py [--quick] [--shape f32_nk_1x2048x2048 ...] [--rounds 3] [--budget 16] [--json OUT]

Each basket shape (tools/gen_basket.py: f32 [K,N] and [N,K], int8, OpenVLA's bf16 [N,K] decode)
becomes a deployed-style model (`constant_weights_text`: the weights a `util.global` constant,
`@main(%a)`), and `tune_recipe` (what `tune --target host` runs) searches the flag presets and
the dispatch specs, timing the whole entry function in interleaved rounds. Printed per shape,
from the same run: the whole-function median of IREE's default, of the best preset and of the
recipe, numpy's (OpenBLAS, one thread, kernel named; int8 as f32 sgemm, bf16 as f32), the ratios,
the weight-streaming rate of batch-1 shapes in GB/s beside numpy's, tuning seconds and dispatch
measurements.

Second column: the same GEMM with the weights as function arguments (`@main(%a, %b)`, the
form a benchmark of one layer often takes), IREE's default vs the constant-weight recipe's
flags and spec applied to it, timed in their own interleaved rounds. Data tiling cannot pack
argument weights at compile time, so the recipe may lose there; the column shows by how much.

1 thread everywhere (local-sync). Geomeans per group and over the basket end the report.
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
# Below this a whole-model difference is not called slower (the timer's own floor is 2%).
NOISE_FLOOR = 0.03


def time_with_weights_as_arguments(entry, work: Path, recipe_flags: tuple[str, ...], spec: Path | None,
                                   rounds: int) -> dict:
    """Default vs the recipe on `@main(%a, %b)`, interleaved; medians in us (None if a build failed)."""
    from iree_dsa_tuner.host.whole_model import Variant, WholeModelTimer
    from iree_dsa_tuner.targets import get_target

    model = work / f"{entry.name}.args.mlir"
    model.write_text(entry.mlir())
    signature = [(entry.lhs_dims, entry.element_type), (entry.rhs_dims, entry.element_type)]
    timer = WholeModelTimer(model, get_target("host").compile_flags, "main", signature)
    try:
        default, recipe = Variant("default"), Variant("recipe", recipe_flags, spec=spec)
        timer.time([timer.compile(default), timer.compile(recipe)], rounds)
        return {"default_us": default.median_us, "recipe_us": recipe.median_us,
                "error": default.error or recipe.error or None}
    finally:
        timer.close()


def run_shape(entry, work: Path, args) -> dict:
    from iree_dsa_tuner.host.recipe import tune_recipe
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
    per_dispatch = max((d.measured for d in result.tune_result.dispatches), default=0) if result.tune_result else 0
    spec = None
    if result.spec_text:
        spec = work / f"{entry.name}.spec.mlir"
        spec.write_text(result.spec_text)
    as_args = time_with_weights_as_arguments(entry, work, tuple(result.recipe.flags), spec, args.rounds)
    return {
        "shape": entry.name, "default_us": default.median_us, "best_preset": best_preset.name,
        "best_preset_us": best_preset.median_us, "recipe_flags": list(result.recipe.flags),
        "spec_kept": bool(result.spec_text), "recipe_us": recipe_us, "numpy_us": numpy_us,
        "recipe_vs_default": default.median_us / recipe_us if recipe_us else None,
        "recipe_vs_best_preset": best_preset.median_us / recipe_us if recipe_us else None,
        "recipe_vs_numpy": numpy_us / recipe_us if recipe_us else None,
        "recipe_gbps": weight_bytes / recipe_us / 1e3 if entry.m == 1 and recipe_us else None,
        "numpy_gbps": weight_bytes / numpy_us / 1e3 if entry.m == 1 else None,
        "tuning_s": round(seconds, 1), "measurements": measured, "most_measured_per_dispatch": per_dispatch,
        "group": entry.group, "args_default_us": as_args["default_us"], "args_recipe_us": as_args["recipe_us"],
        "args_recipe_vs_default": (as_args["default_us"] / as_args["recipe_us"]
                                   if as_args["default_us"] and as_args["recipe_us"] else None),
        "args_error": as_args["error"], "notes": result.notes,
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
    names = args.shape or (QUICK if args.quick else [e.name for e in gen_basket.basket()])
    machine = common.print_header("host basket: whole model, constant weights (and as arguments), 1 thread")
    rows, results = [], []
    with tempfile.TemporaryDirectory(prefix="host-basket-") as tmp:
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
                         r["tuning_s"], r["measurements"], common.fmt(r["args_default_us"], ".1f"),
                         common.fmt(r["args_recipe_us"], ".1f"), common.fmt(r["args_recipe_vs_default"], ".2f", "x")])
    common.print_table(["shape", "default us", "best preset", "us", "recipe flags", "spec", "recipe us", "numpy us",
                        "vs default", "vs best preset", "vs numpy", "GB/s", "numpy GB/s", "tune s", "meas.",
                        "args: default us", "args: recipe us", "args: vs default"], rows,
                       title="whole function @main, median of interleaved rounds (> 1x = the recipe is faster)")
    done = [r for r in results if "error" not in r]
    for group in [*gen_basket.GROUPS, None]:
        members = [r for r in done if group is None or r["group"] == group]
        if not members:
            continue
        label = group or "all"
        print(f"geomean {label:>15}: recipe vs numpy "
              f"{common.fmt(common.geomean([r['recipe_vs_numpy'] for r in members]), '.2f', 'x')}, "
              f"vs default {common.fmt(common.geomean([r['recipe_vs_default'] for r in members]), '.2f', 'x')}, "
              f"vs best preset {common.fmt(common.geomean([r['recipe_vs_best_preset'] for r in members]), '.2f', 'x')}, "
              f"weights as arguments vs default "
              f"{common.fmt(common.geomean([r['args_recipe_vs_default'] for r in members]), '.2f', 'x')} "
              f"({len(members)} shapes)")
    slower = [r["shape"] for r in done if r["recipe_vs_best_preset"] and r["recipe_vs_best_preset"] < 1 - NOISE_FLOOR]
    print(f"recipe slower than the best preset beyond {NOISE_FLOOR:.0%}: {', '.join(slower) or 'none'}")
    tuning = sorted(r["tuning_s"] for r in done)
    if tuning:
        print(f"tuning time per model: median {common.median(tuning):.0f} s, max {tuning[-1]:.0f} s; "
              f"most dispatch measurements on one dispatch: {max(r['most_measured_per_dispatch'] for r in done)}")
    for r in results:
        if "error" in r:
            print(f"{r['shape']}: FAILED: {r['error']}")
        for note in r.get("notes", []):
            print(f"{r['shape']}: {note}")
    common.write_json(args.json, {"machine": machine, "shapes": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
