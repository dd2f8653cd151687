"""The register-tiled GEMM route (host/routes/register_tiled.py): the tile it picks per CPU, which
models it takes, its presets, and that its build computes the GEMMs (real iree-compile for haswell,
which every x86-64 runner executes, and iree.runtime on seeded data).
(lit_tests/presets/register_tiled_route.test shows the script's effect on IR and what IREE configures.)"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from iree_dsa_tuner.flags import (DECOMPOSE_ATTENTION_FLAG, GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, INNER_TILED_FLAG,
                                  TRANSFORM_FLAG)
from iree_dsa_tuner.host.flag_presets import TILE_BYTES_4M
from iree_dsa_tuner.host.routes.k_split import InputGemm, input_gemms
from iree_dsa_tuner.host.routes.register_tiled import (NO_UKERNELS_FLAG, BroadcastLinear, broadcast_linears, k_chunk,
                                                       linear_conv_presets, linear_flags, plan_register_tiled_route,
                                                       register_tile, register_tiled_flags, register_tiled_presets)

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
TOKEN_LINEARS = INPUTS / "token_linears.mlir"

AVX512 = SimpleNamespace(vector_register_bytes=64, vector_registers=32, l2_bytes=2 << 20)
AVX2 = SimpleNamespace(vector_register_bytes=32, vector_registers=16, l2_bytes=1 << 20)


def gemm(m: int, n: int, k: int, batch: int = 1, op: str = "linalg.batch_matmul", element_bytes: int = 4):
    return InputGemm(op, batch, m, n, k, element_bytes)


def test_the_tile_leaves_three_registers_for_operands_six_by_sixteen_on_avx2_fourteen_by_thirtytwo_on_avx512():
    # Two registers across, as many rows as the registers allow after the weight's row and the
    # broadcast (a BLAS's 6 x 16 with AVX2's 16; 28 of AVX-512's 32 accumulate).
    assert register_tile(AVX2) == (6, 16, 1)
    assert register_tile(AVX512) == (14, 32, 1)


def test_a_reduction_whose_tile_panels_crowd_the_l2_is_cut_into_chunks_whose_panels_take_an_eighth():
    # pi0's prefix down projection (K = 16384) on AVX2 with a 1 MiB L2: a 6-row and a 16-column
    # panel take 22 x 16384 x 4 = 1.4 MB, above half the L2; chunks of 1024 take 88 KiB, 2048 would
    # take 176 KiB, above an eighth (128 KiB). SigLIP's K = 4304 (378 KB) and K = 2048 stay whole.
    assert k_chunk(16384, (6, 16, 1), AVX2) == 1024
    assert k_chunk(4304, (6, 16, 1), AVX2) is None and k_chunk(2048, (6, 16, 1), AVX2) is None
    # AVX-512's 14 x 32 tile on a 2 MiB L2: 46 x 4 bytes a step, 1024 again.
    assert k_chunk(16384, (14, 32, 1), AVX512) == 1024
    # No multiple of N0 that divides K fits: kept whole.
    assert k_chunk(16381, (6, 16, 1), AVX2) is None


def test_the_route_packs_f32_linear_layers_and_leaves_batched_products_to_iree(tmp_path):
    siglip = [gemm(256, 1152, 1152), gemm(256, 4304, 1152), gemm(256, 1152, 4304)]
    route = plan_register_tiled_route(siglip, AVX2, tmp_path)
    assert route and route.key == "register_tiled_route"
    script, ukernels = route.flags
    assert script.startswith(TRANSFORM_FLAG + "=") and ukernels == NO_UKERNELS_FLAG
    assert "packed_sizes = [6, 16, 1]" in Path(script.split("=", 1)[1]).read_text()
    assert route.notes == ["3 f32 GEMMs packed into 6 x 16 x 1 tiles"]
    # Attention over heads as batched products (pi0's prefix): taken, the batches left alone.
    prefix = [gemm(816, 2048, 2048), gemm(816, 2048, 16384), gemm(816, 816, 256, batch=8),
              gemm(816, 256, 816, batch=8)]
    long_k = plan_register_tiled_route(prefix, AVX2, tmp_path)
    assert long_k.notes == ["2 f32 GEMMs packed into 6 x 16 x 1 tiles, K 16384 in 16 chunks of 1024 "
                            "(2 batched GEMMs left to IREE)"]
    chunked = Path(long_k.flags[0].split("=", 1)[1]).read_text()
    assert "@match_linear_k16384" in chunked and "factor = 16 :" in chunked
    # The same tile gives the same script file; another CPU's tile another.
    assert plan_register_tiled_route(siglip[:1], AVX2, tmp_path).flags == route.flags
    assert plan_register_tiled_route(siglip, AVX512, tmp_path).flags != route.flags
    # Nothing of one product in f32 (an i8 GEMM), or no CPU model: no route, nothing said.
    assert not plan_register_tiled_route([gemm(16, 64, 64, element_bytes=1)], AVX2, tmp_path).notes
    assert not plan_register_tiled_route(siglip, None, tmp_path)
    # iree-compile takes one preprocessing script: another route's blocks this one, and says so.
    blocked = plan_register_tiled_route(siglip, AVX2, tmp_path, taken_flags=(f"{TRANSFORM_FLAG}=other.mlir",))
    assert not blocked and "not taken" in blocked.notes[0]


def test_the_presets_take_4m_tiles_and_one_decomposes_attention_first():
    presets = register_tiled_presets(("--script", NO_UKERNELS_FLAG))
    assert presets == {
        "register-tiled+tile-bytes-4m": ("--script", NO_UKERNELS_FLAG, TILE_BYTES_4M),
        "attn-decomposed+register-tiled+tile-bytes-4m": (DECOMPOSE_ATTENTION_FLAG, "--script", NO_UKERNELS_FLAG,
                                                         TILE_BYTES_4M)}
    # With the unbatch route's script after the packing: the batched products it leaves go to
    # inner-tiled data tiling on the global path.
    both = register_tiled_presets(("--script", NO_UKERNELS_FLAG), ("--both", NO_UKERNELS_FLAG))
    assert both["register-tiled+unbatch+gdt+inner-tiled"] == ("--both", NO_UKERNELS_FLAG, TILE_BYTES_4M,
                                                              GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
    assert {k: v for k, v in both.items() if k != "register-tiled+unbatch+gdt+inner-tiled"} == presets


HEADS = """
func.func @heads(%q: tensor<4x12x16xf32>, %k: tensor<4x16x12xf32>) -> tensor<4x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x12x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  %r = linalg.batch_matmul ins(%q, %k : tensor<4x12x16xf32>, tensor<4x16x12xf32>) outs(%f : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  return %r : tensor<4x12x12xf32>
}
"""


@pytest.mark.parametrize("preset", ["register-tiled+tile-bytes-4m", "register-tiled+unbatch+gdt+inner-tiled"])
def test_the_packed_build_computes_the_gemms(tmp_path, preset):
    """Linear layers as iree-turbine writes them, with rows and columns that are not multiples of the
    tile (padded), and a batch over heads, built under the route's presets for haswell and run on
    seeded data; the linear layer is an mmt4d dispatch in both. The batch is IREE's own under the
    plain preset, and four inner-tiled products when the unbatch route follows the packing."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import BATCH1_LINEAR_TEMPLATE, TARGET_CPU

    m, k, n = 13, 40, 24
    model = tmp_path / "layers.mlir"
    model.write_text(BATCH1_LINEAR_TEMPLATE.format(m=m, k=k, n=n) + HEADS)
    assert gemm(m, n, k) in input_gemms(model.read_text())
    tile = register_tile(AVX2)
    flags = register_tiled_presets(register_tiled_flags(tile, tmp_path),
                                   register_tiled_flags(tile, tmp_path, unbatch=[4]))[preset]
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}"]
    configured = ic.compile_file(str(model), extra_args=base + list(flags)
                                 + ["--compile-to=executable-configurations"]).decode()
    assert "_mmt4d_3x2x40x6x16x1_f32" in configured
    if preset == "register-tiled+tile-bytes-4m":
        assert "heads_dispatch_0_batch_matmul_4x12x12x16_f32" in configured
    else:
        # The four products are one inner-tiled executable (IREE names its dispatch after the fill).
        assert "batch_matmul" not in configured and "iree_codegen.inner_tiled" in configured
    module = rt.load_vm_flatbuffer(ic.compile_file(str(model), extra_args=base + list(flags)), driver="local-sync")
    rng = np.random.default_rng(23)
    a = rng.standard_normal((1, m, k), dtype=np.float32)
    w = rng.standard_normal((1, k, n), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.main(a, w)), a @ w, rtol=1e-5, atol=1e-5)
    q = rng.standard_normal((4, 12, 16), dtype=np.float32)
    kt = rng.standard_normal((4, 16, 12), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.heads(q, kt)), q @ kt, rtol=1e-5, atol=1e-5)


def test_tune_offers_the_route_on_a_linear_layer(tmp_path, monkeypatch):
    from conftest import BATCH1_LINEAR, cpu_target, presets_a_host_tune_times, write_model

    presets, said = presets_a_host_tune_times(write_model(tmp_path, "linear.mlir", BATCH1_LINEAR), monkeypatch,
                                              cpu_target("avx2"))
    assert "register-tiled+tile-bytes-4m" in presets
    script = Path(presets["register-tiled+tile-bytes-4m"][0].split("=", 1)[1]).read_text()
    assert "packed_sizes = [6, 16, 1]" in script
    # The linear layer is a batch-1 batch_matmul, so the unbatch route is taken too, and the preset
    # that runs it after the packing is offered.
    both = Path(presets["register-tiled+unbatch+gdt+inner-tiled"][0].split("=", 1)[1]).read_text()
    assert "packed_sizes = [6, 16, 1]" in both and "@match_batch1 -> @flatten" in both
    assert any(line.startswith("register-tiled GEMM route") and "1 f32 GEMM packed" in line for line in said)



def test_broadcast_linears_reads_torchs_linear_over_tokens_and_nothing_else():
    # @linear and @two_layers share a shape; @batched (own right-hand sides) and @biased (not from
    # zeros) are not linear layers in this form.
    assert broadcast_linears(TOKEN_LINEARS.read_text()) == [BroadcastLinear(13, 12, 24), BroadcastLinear(13, 24, 12)]
    assert BroadcastLinear(82, 512, 3200).name == "linear_82x512x3200"


def test_the_linears_of_lerobots_act_export_are_found_in_its_input_form():
    """ACT as iree-turbine exported it (lerobot 0.6.1; parameters external): its encoder's 82 tokens
    and its decoder's 100 through the attention projections and the 512 -> 3200 -> 512 FFN."""
    import iree.compiler as ic

    text = ic.compile_file(str(INPUTS / "lerobot" / "act.mlir"), extra_args=["--compile-to=input"]).decode()
    assert broadcast_linears(text) == [BroadcastLinear(rows, k, n) for rows in (82, 100)
                                       for k, n in ((512, 512), (512, 3200), (3200, 512))]


def test_the_route_takes_linear_layers_alone_with_rows_fitted_to_their_tokens(tmp_path):
    linears = [BroadcastLinear(82, 512, 3200), BroadcastLinear(100, 512, 512)]
    route = plan_register_tiled_route([], AVX2, tmp_path, linears=linears)
    assert route.flags == linear_flags(linears, (6, 16, 1), tmp_path)
    script = Path(route.flags[0].split("=", 1)[1]).read_text()
    assert route.flags[1] == NO_UKERNELS_FLAG and script.count("cast_compatible_dag_from_root") == 2
    # 82 tokens: 6 rows pad them to 84 (the data-tiled 8 x 8 tile: 88); 100: 5 rows, no padding.
    assert route.notes == ["2 linear layer shapes over [tokens, 1, features] as one GEMM each in 16-column tiles, "
                           "their rows fitted to the tokens (82 in 6, 100 in 5)"]
    assert "inner_tiles = [6, 1]" in script and "inner_tiles = [5, 1]" in script and "packed_sizes" not in script
    # On AVX-512 (14 x 32): 82 in 14 rows (84), 100 in 10 (100).
    wide = plan_register_tiled_route([], AVX512, tmp_path, linears=linears)
    assert wide.notes[0].endswith("in 32-column tiles, their rows fitted to the tokens (82 in 14, 100 in 10)")
    # Beside GEMMs of one product, the route's flags pack those (the linear layers get their own presets).
    both = plan_register_tiled_route([gemm(100, 14, 512)], AVX2, tmp_path, linears=linears)
    assert both.flags == register_tiled_flags((6, 16, 1), tmp_path) and "; 2 linear layer shapes" in both.notes[0]


def test_the_linear_presets_put_the_script_after_the_convolution_flags():
    presets = linear_conv_presets(("--linears", NO_UKERNELS_FLAG), ("--winograd", "--hoist"))
    tail = ("--linears", NO_UKERNELS_FLAG, TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)
    assert presets == {"im2col+register-tiled+gdt": (IM2COL_FLAG,) + tail,
                       "im2col+winograd+register-tiled+gdt": (IM2COL_FLAG, "--winograd", "--hoist") + tail}
    assert list(linear_conv_presets(("--linears", NO_UKERNELS_FLAG))) == ["im2col+register-tiled+gdt"]


def test_the_linear_build_computes_the_layers(tmp_path):
    """token_linears.mlir built under the im2col+register-tiled+gdt preset for haswell (which every
    x86-64 runner executes) and run on seeded data: each layer matches NumPy, the packed product is
    an mmt4d dispatch in the fitted 5 x 16 x 1 tile, and the forms left to IREE still compute."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    flags = linear_conv_presets(linear_flags(broadcast_linears(TOKEN_LINEARS.read_text()), register_tile(AVX2),
                                             tmp_path))["im2col+register-tiled+gdt"]
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", *flags]
    configured = ic.compile_file(str(TOKEN_LINEARS), extra_args=base + ["--compile-to=executable-configurations"]).decode()
    assert "_mmt4d_3x2x12x5x16x1_f32" in configured and "_mmt4d_3x1x24x5x16x1_f32" in configured
    module = rt.load_vm_flatbuffer(ic.compile_file(str(TOKEN_LINEARS), extra_args=base), driver="local-sync")
    rng = np.random.default_rng(29)
    x = rng.standard_normal((13, 1, 12), dtype=np.float32)
    w1 = rng.standard_normal((24, 12), dtype=np.float32)
    w2 = rng.standard_normal((12, 24), dtype=np.float32)
    close = lambda got, want: np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)  # noqa: E731
    close(module.linear(x, w1), x @ w1.T)
    close(module.two_layers(x, w1, w2), (x @ w1.T) @ w2.T)
    batch = rng.standard_normal((13, 12, 24), dtype=np.float32)
    close(module.batched(x, batch), x @ batch)
    bias = rng.standard_normal((13, 1, 24), dtype=np.float32)
    close(module.biased(x, w1, bias), x @ w1.T + bias)


@pytest.mark.parametrize("isa", ("avx2", "avx512"))
def test_tune_offers_the_linear_presets_beside_the_convolution_routes(tmp_path, monkeypatch, isa):
    from conftest import cpu_target, presets_a_host_tune_times, write_model

    from iree_dsa_tuner.host.routes.conv_fold import input_convs
    from iree_dsa_tuner.host.routes.winograd import plan_winograd_route

    convs = (INPUTS / "conv_winograd_params.mlir").read_text()
    linears = TOKEN_LINEARS.read_text()
    aliases = "".join(line + "\n" for line in linears.splitlines() if line.startswith("#"))
    functions = linears[linears.index("module {") + len("module {"):linears.rindex("}")]
    model = write_model(tmp_path, "convs_and_linears.mlir",
                        aliases + convs[:convs.rindex("}")] + functions + "}\n")
    presets, said = presets_a_host_tune_times(model, monkeypatch, cpu_target(isa))
    winograd = plan_winograd_route(input_convs(convs)).flags
    script = presets["im2col+register-tiled+gdt"][1]
    assert presets["im2col+winograd+register-tiled+gdt"] == (IM2COL_FLAG, *winograd, script, NO_UKERNELS_FLAG,
                                                             TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)
    rows = {"avx2": "5", "avx512": "13"}[isa]
    assert f"inner_tiles = [{rows}, 1]" in Path(script.split("=", 1)[1]).read_text()
    assert any(line.startswith("register-tiled GEMM route") and "2 linear layer shapes" in line for line in said)


def test_a_searched_dispatch_is_timed_as_the_packed_build_compiles_it(tmp_path):
    """The host runner recompiles a dispatch's dumped benchmark, which is already past preprocessing:
    the route's script must not run on it again. Run again, it rewrote the formed mmt4d into a 5-loop
    op 20x slower, and the search measured no candidate of pi0's register-tiled GEMMs. IREE's config
    for the dispatch alone is the model's, and a candidate config applies to it."""
    from conftest import BATCH1_LINEAR_TEMPLATE, TARGET_CPU, cpu_description

    from iree_dsa_tuner.ir import compile_model
    from iree_dsa_tuner.runners.host import HostBenchRunner
    from iree_dsa_tuner.tuning_spec.reading import canonical_attr

    model = tmp_path / "linear.mlir"
    model.write_text(BATCH1_LINEAR_TEMPLATE.format(m=13, k=40, n=24))
    base = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}")
    flags = register_tiled_presets(register_tiled_flags(register_tile(AVX2), tmp_path))["register-tiled+tile-bytes-4m"]
    artifacts = compile_model(model, base + flags)
    problem = next(p for p in artifacts.problems() if getattr(p, "is_mmt4d", False))
    in_model = artifacts.default_configs()[problem.dispatch]
    with HostBenchRunner(artifacts, cpu_description("avx2"), repetitions=1, warmup=0) as runner:
        alone = runner.measure(problem, None)
        assert alone.ok, alone.reason
        assert canonical_attr(alone.details["lowering_config"]) == canonical_attr(in_model.lowering_config_text())
        candidate = runner.measure(problem, in_model)
        assert candidate.ok, candidate.reason


# A batch-1 NWC temporal conv (policy_functions.mlir's @temporal_conv, smaller) beside a linear layer.
TEMPORAL_CONV = """
func.func @conv(%x: tensor<1x12x16xf32>, %w: tensor<5x16x24xf32>) -> tensor<1x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
         ins(%x, %w : tensor<1x12x16xf32>, tensor<5x16x24xf32>) outs(%f : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  return %r : tensor<1x8x24xf32>
}
"""


def test_with_the_conv_route_taken_the_tap_split_joins_the_packing_in_one_script_and_both_compute(tmp_path, monkeypatch):
    """iree-compile takes one preprocessing script, so a model with linear layers and a batch-1 1-D
    conv gets a preset whose script splits the conv into taps first and then packs every matmul
    (the taps' too); built for haswell and run on seeded data, both functions compute."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import BATCH1_LINEAR, TARGET_CPU, cpu_target, presets_a_host_tune_times, write_model

    model = write_model(tmp_path, "both.mlir", BATCH1_LINEAR + TEMPORAL_CONV)
    presets, _ = presets_a_host_tune_times(model, monkeypatch, cpu_target("avx2"))
    assert "conv-route" in presets and "register-tiled+tile-bytes-4m" in presets
    flags = presets["conv-route+register-tiled+tile-bytes-4m"]
    assert flags[1:] == (NO_UKERNELS_FLAG, TILE_BYTES_4M)
    script = Path(flags[0].split("=", 1)[1]).read_text()
    assert "@match_conv_1d_nwc_wcf_k5 -> @taps_conv_1d_nwc_wcf_k5" in script and "packed_sizes = [6, 16, 1]" in script
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", *flags]
    configured = ic.compile_file(str(model), extra_args=base + ["--compile-to=executable-configurations"]).decode()
    # The conv is gone: its taps are mmt4d products in the tile, as the linear layer is.
    assert "linalg.conv_1d" not in configured
    assert not [d for d in re.findall(r"@\w+_dispatch_\d+_\w+", configured) if "_conv_" in d]
    assert re.search(r"@conv_dispatch_\d+_mmt4d_\w+x6x16x1_f32", configured)
    assert re.search(r"@main_dispatch_\d+_mmt4d_\w+x6x16x1_f32", configured)
    module = rt.load_vm_flatbuffer(ic.compile_file(str(model), extra_args=base), driver="local-sync")
    rng = np.random.default_rng(29)
    a = rng.standard_normal((1, 8, 64), dtype=np.float32)
    b = rng.standard_normal((1, 64, 32), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.main(a, b)), a @ b, rtol=1e-5, atol=1e-5)
    x = rng.standard_normal((1, 12, 16), dtype=np.float32)
    w = rng.standard_normal((5, 16, 24), dtype=np.float32)
    expected = sum(x[:, t:t + 8, :] @ w[t] for t in range(5))
    np.testing.assert_allclose(np.asarray(module.conv(x, w)), expected, rtol=1e-5, atol=1e-5)
