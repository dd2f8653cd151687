"""The register-tiled GEMM route (host/routes/register_tiled.py): the tile it picks per CPU, which
models it takes, its presets, and that its build computes the GEMMs (real iree-compile for haswell,
which every x86-64 runner executes, and iree.runtime on seeded data).
(lit_tests/presets/register_tiled_route.test shows the packed dispatches IREE configures.)"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from iree_dsa_tuner.flags import DECOMPOSE_ATTENTION_PASSES, PREPROCESSING_PIPELINE_FLAG
from iree_dsa_tuner.host.flag_presets import TILE_BYTES_4M
from iree_dsa_tuner.host.routes.k_split import InputGemm, input_gemms
from iree_dsa_tuner.host.routes.register_tiled import (NO_UKERNELS_FLAG, plan_register_tiled_route,
                                                       register_tile, register_tiled_presets)

AVX512 = SimpleNamespace(vector_register_bytes=64, vector_registers=32, l2_bytes=2 << 20)
AVX2 = SimpleNamespace(vector_register_bytes=32, vector_registers=16, l2_bytes=1 << 20)


def gemm(m: int, n: int, k: int, batch: int = 1, op: str = "linalg.batch_matmul", element_bytes: int = 4):
    return InputGemm(op, batch, m, n, k, element_bytes)


def test_the_tile_is_twelve_of_sixteen_registers_on_avx2_and_twentyfour_of_thirtytwo_on_avx512():
    # Two registers across, as many rows as three quarters of the registers allow (a BLAS's 6 x 16).
    assert register_tile(AVX2) == (6, 16, 1)
    assert register_tile(AVX512) == (12, 32, 1)


def test_the_route_packs_f32_linear_layers_and_refuses_a_model_with_batched_products():
    siglip = [gemm(256, 1152, 1152), gemm(256, 4304, 1152), gemm(256, 1152, 4304)]
    route = plan_register_tiled_route(siglip, AVX2)
    assert route and route.key == "register_tiled_route"
    pipeline, ukernels = route.flags
    assert pipeline.startswith(PREPROCESSING_PIPELINE_FLAG + "=builtin.module(util.func(")
    assert "linalg-block-pack-matmul{block-factors=6,16,1 allow-padding=true" in pipeline
    assert ukernels == NO_UKERNELS_FLAG
    assert route.notes == ["3 f32 GEMMs packed into 6 x 16 x 1 tiles"]
    # Attention over heads as batched products (pi0's prefix): the pass would pack them too.
    prefix = [gemm(816, 2048, 2048), gemm(816, 816, 256, batch=8), gemm(816, 256, 816, batch=8)]
    refused = plan_register_tiled_route(prefix, AVX2)
    assert not refused and "batches of 8" in refused.notes[0]
    # Nothing of one product in f32 (an i8 GEMM), or no CPU model: no route, nothing said.
    assert not plan_register_tiled_route([gemm(16, 64, 64, element_bytes=1)], AVX2).notes
    assert not plan_register_tiled_route(siglip, None)


def test_the_attention_preset_decomposes_after_the_packing():
    presets = register_tiled_presets((6, 16, 1), has_attention=True)
    assert set(presets) == {"register-tiled+tile-bytes-4m", "attn-decomposed+register-tiled+tile-bytes-4m"}
    for flags in presets.values():
        assert flags[1:] == (NO_UKERNELS_FLAG, TILE_BYTES_4M)
    attention = presets["attn-decomposed+register-tiled+tile-bytes-4m"][0]
    # The decomposition's products come after the pass, so they are not packed.
    assert attention.index("linalg-block-pack-matmul") < attention.index(DECOMPOSE_ATTENTION_PASSES[0])
    assert set(register_tiled_presets((6, 16, 1), has_attention=False)) == {"register-tiled+tile-bytes-4m"}


LINEAR = """
util.global private @weight = #util.byte_pattern<1> : tensor<1x{k}x{n}xf32>
func.func @linear(%a: tensor<1x{m}x{k}xf32>, %w: tensor<1x{k}x{n}xf32>) -> tensor<1x{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{m}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x{m}x{n}xf32>) -> tensor<1x{m}x{n}xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<1x{m}x{k}xf32>, tensor<1x{k}x{n}xf32>) outs(%f : tensor<1x{m}x{n}xf32>) -> tensor<1x{m}x{n}xf32>
  return %r : tensor<1x{m}x{n}xf32>
}}
"""


def test_the_packed_build_computes_the_gemm(tmp_path):
    """A linear layer as iree-turbine writes it, with rows and columns that are not multiples of the
    tile (padded), built under the route's preset for haswell and run on seeded data."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    m, k, n = 13, 40, 24
    model = tmp_path / "linear.mlir"
    model.write_text(LINEAR.format(m=m, k=k, n=n))
    assert input_gemms(model.read_text()) == [gemm(m, n, k)]
    flags = register_tiled_presets(register_tile(AVX2), has_attention=False)["register-tiled+tile-bytes-4m"]
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}"]
    configured = ic.compile_file(str(model), extra_args=base + list(flags)
                                 + ["--compile-to=executable-configurations"]).decode()
    assert "linalg.mmt4d" in configured and "Mmt4dTilingExpert" in configured
    module = rt.load_vm_flatbuffer(ic.compile_file(str(model), extra_args=base + list(flags)), driver="local-sync")
    rng = np.random.default_rng(23)
    a = rng.standard_normal((1, m, k), dtype=np.float32)
    w = rng.standard_normal((1, k, n), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.linear(a, w)), a @ w, rtol=1e-5, atol=1e-5)


def test_tune_offers_the_route_on_a_linear_layer(tmp_path, monkeypatch):
    from conftest import BATCH1_LINEAR, cpu_target, presets_a_host_tune_times, write_model

    presets, said = presets_a_host_tune_times(write_model(tmp_path, "linear.mlir", BATCH1_LINEAR), monkeypatch,
                                              cpu_target("avx2"))
    assert "register-tiled+tile-bytes-4m" in presets
    assert "block-factors=6,16,1" in presets["register-tiled+tile-bytes-4m"][0]
    assert "attn-decomposed+register-tiled+tile-bytes-4m" not in presets  # no attention op
    assert any(line.startswith("register-tiled GEMM route") and "1 f32 GEMM packed" in line for line in said)


def test_the_lit_test_runs_the_routes_own_passes():
    """lit_tests/presets/register_tiled_route.test spells the pipeline out (lit cannot call the
    route); it must stay the one the route writes for AVX2."""
    from pathlib import Path

    from iree_dsa_tuner.flags import preprocessing_pipeline_flag
    from iree_dsa_tuner.host.routes.register_tiled import packing_passes

    lit = (Path(__file__).parent.parent / "lit_tests/presets/register_tiled_route.test").read_text()
    flag = preprocessing_pipeline_flag(packing_passes(register_tile(AVX2)))
    assert f'"{flag}"' in lit
    assert "builtin.module(func.func(" + ",".join(packing_passes((6, 16, 1))) + ",canonicalize))" in lit
