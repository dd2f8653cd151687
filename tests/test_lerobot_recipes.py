"""The host recipes tuned on lerobot's policies (lit_tests/inputs/lerobot/recipes/, as `tune` wrote
them) are the ones docs/PERFORMANCE.md section 4b describes, for the exports committed beside them;
those re-tuned on an AMD Zen 4 that beat them there (recipes/zen4/) are section 4l's, and on an AVX2
Zen 3 (recipes/zen3/) section 4r's, and on the Zen 4 read as an AVX2 machine (recipes/avx2/) 4t's;
those tuned there for two threads (recipes/avx2/threads2/, `tune --threads 2`) 4u's."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.recipe import load_recipe

REPO = Path(__file__).resolve().parent.parent
LEROBOT = REPO / "lit_tests" / "inputs" / "lerobot"
RECIPES = LEROBOT / "recipes"
DOCS = REPO / "docs" / "PERFORMANCE.md"


# Each set of shipped recipes, and the docs section whose recipes table holds them.
RECIPE_SETS = {"4b": RECIPES, "4l": RECIPES / "zen4", "4r": RECIPES / "zen3", "4t": RECIPES / "avx2",
               "4u": RECIPES / "avx2" / "threads2", "4v": RECIPES / "avx2" / "register-tiled"}
# The threads each set's whole-model timings ran on (`tune --threads`): the recipe records it.
SET_THREADS = {"4u": 2}


def _doc_rows(section: str) -> dict[str, tuple[str, float]]:
    """export name -> (the recipe's variant, its speed-up over IREE's default) from a section's
    recipes table (rows `| policy | export | tune wall s | variant ... | N.NNx |`)."""
    rows, inside = {}, False
    for line in DOCS.read_text().splitlines():
        if line.startswith("## "):
            inside = line.startswith(f"## {section}.")
        m = re.match(r"\| [^|]+ \| (\w+) \| \d+ \| ([^ |]+)[^|]* \| ([0-9.]+)x \|$", line) if inside else None
        if m:
            rows[m.group(1)] = (m.group(2), float(m.group(3)))
    return rows


def _shipped(directory: Path) -> set[str]:
    return {p.name.split(".")[0] for p in directory.glob("*.recipe.toml")}


@pytest.mark.parametrize("section", sorted(RECIPE_SETS))
def test_each_section_names_every_recipe_of_its_set(section):
    assert _shipped(RECIPE_SETS[section]) and set(_doc_rows(section)) == _shipped(RECIPE_SETS[section])


@pytest.mark.parametrize("section, name", [(s, n) for s, d in sorted(RECIPE_SETS.items()) for n in sorted(_shipped(d))])
def test_a_shipped_recipe_is_for_the_committed_export_and_gives_the_documented_speedup(section, name):
    directory = RECIPE_SETS[section]
    recipe = load_recipe(directory / f"{name}.spec.recipe.toml")
    model = LEROBOT / f"{name}.mlir"
    assert recipe.model_sha256 == hashlib.sha256(model.read_bytes()).hexdigest(), "the export changed"
    variant, speedup = _doc_rows(section)[name]
    times = recipe.whole_model_us
    # The recipe's build is the variant the docs name: the one it records, or (recipes written
    # before it recorded one) the one with its spec when it kept one.
    if recipe.variant:
        assert variant == recipe.variant
    else:
        assert variant.endswith("+spec") == bool(recipe.spec), (variant, recipe.spec)
    if recipe.spec:
        assert (directory / recipe.spec).is_file()
    assert recipe.threads == SET_THREADS.get(section, 1)
    assert round(times["default"] / times[variant], 2) == speedup
    # Never below IREE's default: the one promise a recipe makes.
    assert times[variant] < times["default"]


@pytest.mark.parametrize("manifest", ["diffusion_policy.toml", "pi0.toml"])
def test_the_lerobot_manifests_read_and_name_the_committed_exports(manifest):
    # `task` runs these from the exports with their archives (a copy beside the .irpa files with
    # `parameters = ["model=NAME.irpa"]` per stage; docs/PERFORMANCE.md 4d).
    from iree_dsa_tuner.task.manifest import load_manifest

    m = load_manifest(LEROBOT / manifest)
    assert m.stages and all(s.mlir.is_file() and s.mlir.parent == LEROBOT for s in m.stages)


# The shipped recipes small enough to rebuild and run in the slow tier (45-69 MB of seeded weights
# each): a conv encoder through Winograd, the packed fold (mmt4d in fitted register tiles, no
# ukernels), im2col and global data tiling; SigLIP's
# layer with its attention decomposed; pi0's expert through the register-tiled route's script with
# the unbatch route's steps after it (its 14 x 32 AVX-512 tile, built for haswell here: the tile is
# the script's, whatever the CPU). And SigLIP's AVX2 register-tiled recipe (6 x 16), and the
# encoder's AVX2 one (its layer 4 packed in 6 x 16 tiles, layer 3 folded for data tiling). And ACT's
# (137 MB): Winograd on padded channels for its backbone's layers 1-3, its transformer's linear layers
# in 14 x 32 register tiles, in one script. And
# the UNet step's two (1 GB, the seeded archive made once): its 1-D convolutions as packed kernel
# taps, 28 x 16 and 12 x 8, the strided ones split into taps.
REBUILT = (RECIPES / "diffusion_encoder", RECIPES / "pi0_vision_layer", RECIPES / "pi0_expert_layer",
           RECIPES / "avx2" / "register-tiled" / "pi0_vision_layer", RECIPES / "avx2" / "diffusion_encoder",
           RECIPES / "act", RECIPES / "diffusion_unet", RECIPES / "avx2" / "diffusion_unet")


@pytest.mark.slow
@pytest.mark.parametrize("recipe_stem", REBUILT, ids=lambda p: str(p.relative_to(RECIPES)))
def test_a_shipped_recipe_rebuilds_where_it_ships_and_computes_what_iree_default_does(recipe_stem, tmp_path):
    """As a user runs it: the recipe loaded from the repository (its scripts and spec found beside
    it, not where it was tuned), its build and IREE's default built for haswell (any x86-64 runs
    them alike; which is faster is the bench's business), both run by IREE on the same seeded
    archive and seeded inputs. The recipe's routes reorder the arithmetic, so the outputs agree to
    a float32 tolerance, not bit for bit."""
    from iree_dsa_tuner.compiler import compile_to_vmfb
    from iree_dsa_tuner.flags import HOST_FLAGS, with_target_cpu
    from iree_dsa_tuner.parameters import resolve_parameters
    from iree_dsa_tuner.quant.accuracy import run_functions
    from iree_dsa_tuner.quant.model import calibration_inputs, input_form
    from iree_dsa_tuner.tuning_spec.reference import NumpyModel
    from iree_dsa_tuner.tuning_spec.verify import public_signatures

    name = recipe_stem.name
    model = LEROBOT / f"{name}.mlir"
    recipe = load_recipe(recipe_stem.parent / f"{name}.spec.recipe.toml")
    recipe.check_model(model)
    haswell = with_target_cpu(HOST_FLAGS, "haswell")
    builds = {"default": tmp_path / "default.vmfb", "recipe": tmp_path / "recipe.vmfb"}
    compile_to_vmfb(model, builds["default"], target_flags=haswell)
    compile_to_vmfb(model, builds["recipe"], target_flags=haswell, extra_flags=recipe.compile_flags())
    params = resolve_parameters(model, (), seed=0)
    signatures, _ = public_signatures(NumpyModel(input_form(model)[1], params))
    inputs = calibration_inputs(signatures, 1, 1)
    types = {f: [element for _, element in args] for f, args in signatures.items()}
    runs = {k: run_functions(v, params, inputs, types)["main"][0] for k, v in builds.items()}
    assert len(runs["default"]) == len(runs["recipe"]) >= 1
    for want, got in zip(runs["default"], runs["recipe"]):
        assert want.shape == got.shape and np.isfinite(got).all()
        scale = float(np.abs(want).max())
        assert scale > 0
        assert float(np.abs(got - want).max()) <= 1e-3 * scale, f"{name}: the recipe's build computes other numbers"


# Section 4w's table of the AVX-512 experts' tunes: each column one variant the recipe records.
TUNE_TABLE_VARIANTS = ("register-tiled+unbatch+gdt+inner-tiled", "unbatch+gdt+inner-tiled",
                       "register-tiled+tile-bytes-4m", "default")


def test_section_4w_quotes_the_expert_recipes_own_tune_timings():
    rows, inside = {}, False
    for line in DOCS.read_text().splitlines():
        if line.startswith("## "):
            inside = line.startswith("## 4w.")
        m = re.match(r"\| (pi0\w*_expert_layer) \|((?: [0-9.]+[^|]* \|){4})$", line) if inside else None
        if m:
            rows[m.group(1)] = [float(cell.split()[0]) for cell in m.group(2).strip(" |").split(" | ")]
    assert set(rows) == {"pi0_expert_layer", "pi05_expert_layer"}
    for name, quoted in rows.items():
        recipe = load_recipe(RECIPES / f"{name}.spec.recipe.toml")
        assert recipe.variant.startswith(TUNE_TABLE_VARIANTS[0])
        assert quoted == [round(recipe.whole_model_us[v] / 1e3, 1) for v in TUNE_TABLE_VARIANTS], name
