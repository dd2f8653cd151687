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


TWO_GEMMS = """\
func.func @ffn(%x: tensor<96x512xf32>, %w1: tensor<512x3200xf32>, %w2: tensor<3200x512xf32>) -> tensor<96x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<96x3200xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<96x3200xf32>) -> tensor<96x3200xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<96x512xf32>, tensor<512x3200xf32>) outs(%f1 : tensor<96x3200xf32>) -> tensor<96x3200xf32>
  %e2 = tensor.empty() : tensor<96x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<96x512xf32>) -> tensor<96x512xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<96x3200xf32>, tensor<3200x512xf32>) outs(%f2 : tensor<96x512xf32>) -> tensor<96x512xf32>
  return %y : tensor<96x512xf32>
}
"""


def test_the_estimated_spec_keeps_a_tuned_specs_configs_and_adds_the_rest(tmp_path):
    from iree_dsa_tuner.core.config import CompilationConfig
    from iree_dsa_tuner.ir.artifacts import compile_model
    from iree_dsa_tuner.tuning_spec import build_spec
    from iree_dsa_tuner.tuning_spec.reading import matcher_for_dispatch, read_spec

    rv = recipe_variants()
    target = cpu_target("avx2")
    model = write_model(tmp_path, "two.mlir", TWO_GEMMS)
    built = compile_model(model, target.compile_flags + (GLOBAL_DATA_TILING_FLAG,))
    gemms = [p for p in built.problems() if getattr(p, "is_mmt4d", False)]
    assert len(gemms) == 2
    # The tuned spec set the first GEMM's distribution (one IREE would not pick).
    first = gemms[0]
    default = built.default_configs()[first.dispatch]
    tuned_config = CompilationConfig(default.pipeline, tuple(1 if i < 2 else 0 for i in range(len(default.distribution))),
                                     default.vector_common_parallel, default.vector_reduction)
    assert tuned_config != default
    (tmp_path / "tuned.spec.mlir").write_text(build_spec([first], {first.dispatch: tuned_config}))
    tuned = recipe_for(model, "tuned.spec.mlir")
    tuned.path = tmp_path / "two.spec.recipe.toml"
    out = tmp_path / "out"
    out.mkdir()
    said = rv.with_estimated_spec(tuned, model, out, target)
    assert said.endswith("beside the spec's 1 config(s)") and tuned.spec == "two.estimated.spec.mlir"
    matchers = read_spec(out / tuned.spec)
    assert "distribution = [1, 1, 0, 0, 0, 0]" in matcher_for_dispatch(matchers, first.dispatch).lowering_config
    assert matcher_for_dispatch(matchers, gemms[1].dispatch) is not None


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


def test_elementwise_tiles_writes_the_rules_configs(tmp_path, inputs):
    import shutil

    rv = recipe_variants()
    model = tmp_path / "gather.mlir"
    shutil.copy(inputs / "im2col_gather_pack.mlir", model)
    recipe = Recipe(str(model), model_sha256(model), "haswell", (), "")
    said = rv.with_elementwise_tiles(recipe, model, tmp_path, cpu_target("avx2"))
    assert said == "1 elementwise tiles" and recipe.spec == "gather.elementwise.spec.mlir"
    assert "distribution = [32, 3, 3, 30, 16]" in (tmp_path / recipe.spec).read_text()
