"""Count the climbs of one object's walk through the package: calls that carry it into a unit
above the caller's (a callback handed down and called back up), by the layers of
docs/layers.toml.

    python tools/count_climbs.py tune   # TuneOptions from `tune` (the library entry) on a small model, dsa-e1
    python tools/count_climbs.py recipe # TuneOptions from `host.recipe.tune_recipe` (`tune --target host`)
    python tools/count_climbs.py task   # the Manifest from `run_task` on torch_expert, tuned afresh

Every Python call inside python/iree_dsa_tuner is watched (sys.setprofile). A call carries the
object when the callee's arguments hold it (by identity). The walk is the set of (unit, function)
the object reaches; a climb is such a call whose callee's unit is above the caller's (the
callee's unit may import the caller's, directly or not). Imports never run back up (the layer
test), so a climb is always a callable passed down. Each distinct caller -> callee pair is
printed once with how often it ran.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "python" / "iree_dsa_tuner"


def unit_of(filename: str) -> str | None:
    try:
        rel = Path(filename).resolve().relative_to(PACKAGE)
    except ValueError:
        return None
    return rel.parts[0].removesuffix(".py") if rel.parts else None


def below(layers: dict) -> dict[str, set[str]]:
    """unit -> every unit it may import, directly or not."""
    out: dict[str, set[str]] = {}

    def visit(unit: str) -> set[str]:
        if unit not in out:
            out[unit] = set()
            for dep in layers.get(unit, {}).get("imports", []):
                out[unit] |= {dep} | visit(dep)
        return out[unit]

    for unit in layers:
        visit(unit)
    return out


def watch(carried, run) -> tuple[set, Counter, list[str]]:
    """Run `run()` watching every call that carries `carried`: (the functions it reaches, the calls
    that climb, and the units it reaches in time order, repeats folded)."""
    layers = tomllib.loads((REPO / "docs" / "layers.toml").read_text())
    under = below(layers)
    walk: set[tuple[str, str]] = set()
    climbs: Counter = Counter()
    order: list[str] = []

    def profile(frame, event, arg):
        if event != "call":
            return
        callee = unit_of(frame.f_code.co_filename)
        if callee is None or not any(v is carried for v in frame.f_locals.values()):
            return
        walk.add((callee, frame.f_code.co_qualname))
        if not order or order[-1] != callee:
            order.append(callee)
        back = frame.f_back
        caller = unit_of(back.f_code.co_filename) if back is not None else None
        if caller is not None and caller != callee and caller in under.get(callee, set()):
            climbs[(f"{caller}.{back.f_code.co_qualname}", f"{callee}.{frame.f_code.co_qualname}")] += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return walk, climbs, order


def upward_steps(order: list[str]) -> list[tuple[str, str]]:
    """Steps of the walk (in time order) from a unit to one above it: where a reader following
    the object goes back up the layers (a return, then a call from higher up, or a callback)."""
    under = below(tomllib.loads((REPO / "docs" / "layers.toml").read_text()))
    return [(a, b) for a, b in zip(order, order[1:]) if a in under.get(b, set())]


def tune_walk():
    from iree_dsa_tuner.pipeline import tune
    from iree_dsa_tuner.search.options import TuneOptions

    options = TuneOptions(budget=2)
    model = REPO / "lit_tests" / "inputs" / "gemma_mlp_b1.mlir"
    return options, lambda: tune(model, "dsa-e1", options)


def recipe_walk():
    from iree_dsa_tuner.host.recipe import tune_recipe
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets import get_target

    options = TuneOptions(budget=2)
    model = REPO / "lit_tests" / "inputs" / "gemma_mlp_b1.mlir"
    return options, lambda: tune_recipe(model, get_target("host"), options, rounds=1)


def task_walk():
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets import get_target
    from iree_dsa_tuner.task.manifest import load_manifest
    from iree_dsa_tuner.task.run import run_task

    manifest = load_manifest(REPO / "lit_tests" / "inputs" / "manifests" / "torch_expert_quantized.toml")
    library = Path(tempfile.mkdtemp(prefix="climbs-"))
    return manifest, lambda: run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), library=library)


WALKS = {"tune": tune_walk, "recipe": recipe_walk, "task": task_walk}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("walk", choices=WALKS)
    args = ap.parse_args(argv)
    carried, run = WALKS[args.walk]()
    walk, climbs, order = watch(carried, run)
    units = sorted({u for u, _ in walk})
    what = "Manifest" if args.walk == "task" else "TuneOptions"
    steps = upward_steps(order)
    print(f"{args.walk}: the {what} reaches {len(walk)} functions in {len(units)} units ({', '.join(units)}); "
          f"{sum(climbs.values())} calls climb (callbacks, over {len(climbs)} caller -> callee pairs); "
          f"the walk {' -> '.join(order)} steps back up {len(steps)} times")
    for (caller, callee), n in sorted(climbs.items()):
        print(f"  climb: {caller} -> {callee} (x{n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
