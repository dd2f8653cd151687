"""Shipped lerobot recipes beside the same recipes with one change, on the whole model, one thread.

    python bench/recipe_variants.py SRC OUT --change estimated-spec|k-split|inner-tiled|elementwise-tiles
                                    [--only NAME ...]
                                    [-- lerobot_vs_pytorch options, e.g. --rounds 5 --repetitions 7]

SRC holds what tools/export_lerobot.py wrote and the recipes tuned for it (NAME.spec.recipe.toml).
For each NAME this writes OUT/NAME.spec.recipe.toml, the recipe with the change, beside links to
SRC's model files, then runs `bench/lerobot_vs_pytorch.py OUT --baseline-recipes SRC`: both builds
timed in the same interleaved rounds (the table's `baseline/recipe` above 1: the change is faster).

--tuner-timer R times the two builds instead with `tune`'s own whole-model timer
(`host.whole_model.WholeModelTimer`), R interleaved rounds, twice: on the zero-filled inputs
`tune` times with, then on the export's saved inputs; prints each median, the noise and whether
the change beats the recipe beyond it (`beats`, the rule `tune` keeps a spec by).

Changes:
- estimated-spec: a spec with the host estimate's distribution for every mmt4d or inner_tiled
  dispatch of the recipe's build that its spec leaves at IREE's default (search/estimated.py;
  docs/DATA_TILING.md 10, 11); the spec's own configs stay in it.
- elementwise-tiles: each elementwise root's workgroup tile that does not divide its loop made to
  divide it (search/estimated.py, docs/ELEMENTWISE.md); the spec's own configs stay in it.
- k-split: the long-K route's script (host/routes/k_split.py, both rules; docs/DATA_TILING.md 9) added to
  the recipe's flags, its spec kept. Only where the route cuts something on this machine.
- inner-tiled: the recipe's data tiling lowered through inner_tiled instead of the mmt4d ukernel
  (docs/DATA_TILING.md 11), on the global path, with the unbatch route's script (host/routes/unbatch.py) in
  place of the recipe's own script where the model has batched GEMMs; its spec kept (its mmt4d
  configs then match nothing; its softmax config still applies).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import lerobot_vs_pytorch

from iree_dsa_tuner import flags as flags_mod
from iree_dsa_tuner.flags import (DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG,
                                  flags_header)
from iree_dsa_tuner.compiler import tuning_spec_flags
from iree_dsa_tuner.ir.artifacts import compile_model, spec_problems
from iree_dsa_tuner.host.routes.k_split import input_gemms, k_split_flags, plan_splits
from iree_dsa_tuner.recipe import load_recipe
from iree_dsa_tuner.search.estimated import divisible_elementwise_configs, estimated_mmt4d_configs
from iree_dsa_tuner.targets.registry import get_target
from iree_dsa_tuner.host.routes.unbatch import unbatch_flags
from iree_dsa_tuner.tuning_spec import build_spec


def _with_more_configs(recipe, model: Path, out: Path, target, choose, what: str, tag: str) -> str:
    """The recipe's spec plus `choose(problems, defaults, wanted)`'s configs for the dispatches it
    leaves at IREE's default; the spec's own configs kept (read from the build with it: what it
    changed)."""
    built = compile_model(model, target.compile_flags + recipe.build_flags())
    problems = spec_problems(built)
    defaults = built.default_configs()
    kept = {}
    if recipe.spec:
        with_spec = compile_model(model, target.compile_flags + recipe.build_flags()
                                  + tuning_spec_flags(recipe.spec_path()))
        kept = {d: c for d, c in with_spec.default_configs().items() if defaults.get(d) != c}
    wanted = {p.dispatch for p in problems if not p.dispatch.startswith("_initializer")} - set(kept)
    configs = choose(problems, defaults, wanted)
    if not configs:
        return f"no {what} to change: skipped"
    spec = out / f"{model.stem}.{tag}.spec.mlir"
    chosen = {**kept, **configs}
    spec.write_text(flags_header(tuple(recipe.flags)) + build_spec([p for p in problems if p.dispatch in chosen],
                                                                   chosen))
    recipe.spec = spec.name
    return f"{len(configs)} {what}" + (f" beside the spec's {len(kept)} config(s)" if kept else "")


def with_estimated_spec(recipe, model: Path, out: Path, target) -> str:
    """The estimate's distribution for every mmt4d or inner_tiled dispatch the recipe's spec leaves
    at IREE's default."""
    return _with_more_configs(recipe, model, out, target,
                              lambda problems, defaults, wanted: estimated_mmt4d_configs(problems, target, defaults,
                                                                                         wanted),
                              "mmt4d distributions", "estimated")


def with_elementwise_tiles(recipe, model: Path, out: Path, target) -> str:
    """Every elementwise root's workgroup tile that does not divide its loop made to divide it
    (search/estimated.py, docs/ELEMENTWISE.md)."""
    return _with_more_configs(recipe, model, out, target, divisible_elementwise_configs,
                              "elementwise tiles", "elementwise")


def with_k_split(recipe, model: Path, out: Path, target) -> str:
    if any(f.startswith(TRANSFORM_FLAG) for f in recipe.flags):
        return "already has a preprocessing script: skipped"
    built = compile_model(model, target.compile_flags + recipe.build_flags())
    splits = plan_splits(input_gemms(built.input_text()), target.describe().cpu)
    if not splits:
        return "the route cuts nothing here: skipped"
    recipe.flags = tuple(recipe.flags) + k_split_flags(splits, out)
    return ", ".join(f"K {s.k}" + (f" (N {s.n})" if s.n else "") + f" in {s.pieces} x {s.chunk}" for s in splits)


def with_inner_tiled(recipe, model: Path, out: Path, target) -> str:
    """The recipe's data tiling through inner_tiled (docs/DATA_TILING.md 11), with the unbatch
    route's script in place of any other preprocessing script (iree-compile takes one) when the
    model has batched GEMMs; the global data-tiling path, which the route is for."""
    if not flags_mod.uses_data_tiling(recipe.flags):
        return "no data tiling (nothing for inner-tiled to lower): skipped"
    if INNER_TILED_FLAG in recipe.flags:
        return "already inner-tiled: skipped"
    built = compile_model(model, target.compile_flags)
    script = unbatch_flags(input_gemms(built.input_text()), out)
    dropped = [f for f in recipe.flags if f.startswith(TRANSFORM_FLAG)] if script else []
    kept = [f for f in recipe.flags if f not in dropped and f != DATA_TILING_FLAG]
    if GLOBAL_DATA_TILING_FLAG not in kept:
        kept.append(GLOBAL_DATA_TILING_FLAG)
    recipe.flags = tuple(kept) + (INNER_TILED_FLAG,) + script
    return ("inner-tiled" + (", unbatched" if script else "") + (" (its own script dropped)" if dropped else "")
            + (", spec kept" if recipe.spec else ""))


CHANGES = {"estimated-spec": with_estimated_spec, "k-split": with_k_split, "inner-tiled": with_inner_tiled,
           "elementwise-tiles": with_elementwise_tiles}


def tuner_timer(source: Path, out: Path, name: str, rounds: int, target) -> None:
    import json

    from iree_dsa_tuner.host.whole_model import Variant, WholeModelTimer, beats

    record = json.loads((source / f"{name}.json").read_text())
    signature = []
    for i in record["iree_inputs"]:
        *dims, element = i["type"].split("x")
        signature.append((tuple(int(d) for d in dims), element))
    timer = WholeModelTimer(source / f"{name}.mlir", target.compile_flags, {record["function"]: signature},
                            work_dir=out / f"{name}.timer")
    timer.parameter_flags = (f"--parameters={record['parameter_scope']}={source / record['irpa']}",)
    builds = []
    for label, path in (("recipe", source / f"{name}.spec.recipe.toml"), ("changed", out / f"{name}.spec.recipe.toml")):
        recipe = load_recipe(path)
        builds.append(timer.compile(Variant(label, recipe.build_flags(), spec=recipe.spec_path())))
    saved = [f"--input=@{source / i['file']}" for i in record["iree_inputs"]]
    for inputs in ("zeros", "saved"):
        if inputs == "saved":
            timer.inputs[record["function"]] = saved
        a, b = (Variant(v.name, v.flags, spec=v.spec, vmfb=v.vmfb) for v in builds)
        timer.time([a, b], rounds=rounds)
        print(f"[{name}] tune's timer, {inputs} inputs, {rounds} rounds: recipe {a.median_us / 1e3:.1f} ms "
              f"(noise {a.noise:.1%}), changed {b.median_us / 1e3:.1f} ms (noise {b.noise:.1%}), "
              f"{a.median_us / b.median_us:.2f}x; beats it beyond the noise: {beats(b, a)}", flush=True)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", type=Path, help="the exports and their tuned recipes")
    ap.add_argument("out", type=Path, help="where the changed recipes go (created)")
    ap.add_argument("--change", required=True, choices=sorted(CHANGES))
    ap.add_argument("--only", nargs="*", help="these model names only")
    ap.add_argument("--tuner-timer", type=int, metavar="R", help="time with tune's timer, R rounds (see above)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    target = get_target("host")
    names = sorted(p.name.split(".")[0] for p in args.source.glob("*.spec.recipe.toml"))
    written = []
    for name in names:
        if args.only and name not in args.only:
            continue
        recipe = load_recipe(args.source / f"{name}.spec.recipe.toml")
        if recipe.spec:  # the changed recipe lives in OUT: name the original spec by its path
            recipe.spec = str(recipe.spec_path().resolve())
        said = CHANGES[args.change](recipe, args.source / f"{name}.mlir", args.out, target)
        print(f"[{name}] {args.change}: {said}", flush=True)
        if said.endswith("skipped"):
            continue
        for f in args.source.glob(f"{name}.*"):
            link = args.out / f.name
            if ".spec" not in f.name and not link.exists():
                link.symlink_to(f.resolve())
        recipe.path = args.out / f"{name}.spec.recipe.toml"
        recipe.path.write_text(recipe.to_toml())
        written.append(name)
    if not written:
        print("nothing to compare", file=sys.stderr)
        return 1
    if args.tuner_timer:
        for name in written:
            tuner_timer(args.source, args.out, name, args.tuner_timer, target)
        return 0
    return lerobot_vs_pytorch.main([str(args.out), "--only", *written, "--baseline-recipes", str(args.source),
                                    *rest])


if __name__ == "__main__":
    sys.exit(main())
