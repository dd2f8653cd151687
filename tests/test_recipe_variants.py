"""bench/recipe_variants.py: the two changes it makes to a shipped recipe before timing both."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.recipe import Recipe, model_sha256

from conftest import cpu_target, matmul_model, write_model

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
