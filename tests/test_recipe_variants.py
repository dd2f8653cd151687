"""bench/recipe_variants.py: the changes it makes to a shipped recipe before timing both."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.recipe import Recipe, model_sha256

from conftest import BATCH1_LINEAR, cpu_target, matmul_model, write_model

BENCH = Path(__file__).resolve().parent.parent / "bench"


def recipe_variants():
    sys.path.insert(0, str(BENCH))  # it imports its neighbour lerobot_vs_pytorch
    spec = importlib.util.spec_from_file_location("recipe_variants", BENCH / "recipe_variants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def recipe_for(model: Path, spec: str = "") -> Recipe:
    return Recipe(str(model), model_sha256(model), "haswell", (GLOBAL_DATA_TILING_FLAG,), spec)


def test_the_estimated_spec_holds_the_estimates_mmt4d_distributions(tmp_path):
    rv = recipe_variants()
    # ACT's FFN down projection's shape: IREE's distribution streams the right operand per row tile.
    model = write_model(tmp_path, "ffn.mlir", matmul_model(96, 512, 3200))
    recipe = recipe_for(model)
    said = rv.with_estimated_spec(recipe, model, tmp_path, cpu_target("avx2"))
    assert said.endswith("mmt4d distributions") and recipe.spec == "ffn.estimated.spec.mlir"
    text = (tmp_path / recipe.spec).read_text()
    assert "Mmt4dTilingExpert" in text and f"flags: {GLOBAL_DATA_TILING_FLAG}" in text
    # A recipe with a tuned spec is left alone: the estimate would replace its configs.
    tuned = recipe_for(model, "tuned.spec.mlir")
    assert rv.with_estimated_spec(tuned, model, tmp_path, cpu_target("avx2")).endswith("skipped")
    assert tuned.spec == "tuned.spec.mlir"


def test_the_k_split_change_adds_the_routes_script_where_it_cuts(tmp_path):
    rv = recipe_variants()
    long_k = write_model(tmp_path, "long_k.mlir", matmul_model(4, 16, 65536))
    recipe = recipe_for(long_k)
    said = rv.with_k_split(recipe, long_k, tmp_path, cpu_target("avx2"))
    assert said.startswith("K 65536 in") and recipe.flags[0] == GLOBAL_DATA_TILING_FLAG
    assert recipe.flags[1].startswith(TRANSFORM_FLAG + "=")
    short = write_model(tmp_path, "short.mlir", matmul_model(4, 16, 256))
    assert rv.with_k_split(recipe_for(short), short, tmp_path, cpu_target("avx2")).endswith("skipped")


def test_the_inner_tiled_change_unbatches_in_place_of_the_recipes_own_script(tmp_path):
    from iree_dsa_tuner.flags import DATA_TILING_FLAG, INNER_TILED_FLAG

    rv = recipe_variants()
    # A batch-1 batch_matmul (a linear layer as iree-turbine writes it): the unbatch script comes in,
    # the recipe's own script goes (iree-compile takes one), data tiling moves to the global path.
    model = write_model(tmp_path, "linear.mlir", BATCH1_LINEAR)
    recipe = Recipe(str(model), model_sha256(model), "haswell", (f"{TRANSFORM_FLAG}=k-split.mlir", DATA_TILING_FLAG))
    said = rv.with_inner_tiled(recipe, model, tmp_path, cpu_target("avx2"))
    assert said == "inner-tiled, unbatched (its own script dropped)"
    assert recipe.flags[:2] == (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
    assert recipe.flags[2].startswith(f"{TRANSFORM_FLAG}={tmp_path}/unbatch-")
    # A plain matmul needs no script: the recipe's own stays; without data tiling there is nothing to do.
    plain = write_model(tmp_path, "plain.mlir", matmul_model(8, 32, 64))
    kept = recipe_for(plain)
    assert rv.with_inner_tiled(kept, plain, tmp_path, cpu_target("avx2")) == "inner-tiled"
    assert kept.flags == (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
    untiled = Recipe(str(plain), model_sha256(plain), "haswell", ())
    assert rv.with_inner_tiled(untiled, plain, tmp_path, cpu_target("avx2")).endswith("skipped")
