"""The packed kernel-tap route (host/routes/packed_taps.py): the tile it picks per CPU, which
convolutions it takes, its presets, and that its build computes the convolutions (real iree-compile
for haswell, which every x86-64 runner executes, and iree.runtime on seeded data).
(lit_tests/presets/packed_taps_route.test shows the script's effect on IR and what IREE configures.)"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.host.flag_presets import TILE_BYTES_4M
from iree_dsa_tuner.host.routes.packed_taps import (Conv1dLayer, batch1_conv1d_layers, packed_taps_flags,
                                                    packed_taps_presets, plan_packed_taps_route, tap_tile)
from iree_dsa_tuner.host.routes.register_tiled import NO_UKERNELS_FLAG

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
CONV1D_LAYERS = INPUTS / "conv1d_ncw_layers.mlir"

AVX512 = SimpleNamespace(vector_register_bytes=64, vector_registers=32)
AVX2 = SimpleNamespace(vector_register_bytes=32, vector_registers=16)


def test_the_tile_is_one_vector_of_time_steps_across_and_leaves_four_registers():
    # AVX2: 8 f32 lanes, 12 of the 16 ymm registers accumulate; AVX-512: 16 lanes, 28 of 32.
    assert tap_tile(AVX2) == (12, 8)
    assert tap_tile(AVX512) == (28, 16)


def test_the_route_takes_batch1_ncw_f32_convs_of_stride_one_and_leaves_the_rest_to_the_tap_split():
    # @conv and @conv_twice's first two share a shape; the third is another; @strided (stride 2)
    # and @f16 are left, by their kernel widths.
    layers, others = batch1_conv1d_layers(CONV1D_LAYERS.read_text())
    assert layers == [Conv1dLayer(12, 16, 6, 3), Conv1dLayer(16, 12, 8, 5)]
    assert others == [3, 5]
    assert Conv1dLayer(2048, 2048, 16, 5).name == "conv1d_2048x2048x16x5" and Conv1dLayer(2048, 2048, 16, 5).input_width == 20


def test_the_convs_of_diffusion_policys_unet_export_are_found_in_its_input_form():
    """Diffusion Policy's UNet as iree-turbine exported it (lerobot 0.6.1; parameters external): 20
    conv shapes of stride 1 (kernels 5, 4 for the upsampling, 1 for the residual projections) the
    route takes, and its two stride-2 downsampling convs (kernel 3) it leaves."""
    import iree.compiler as ic

    text = ic.compile_file(str(INPUTS / "lerobot" / "diffusion_unet.mlir"), extra_args=["--compile-to=input"]).decode()
    layers, others = batch1_conv1d_layers(text)
    assert len(layers) == 18 and others == [3]
    assert Conv1dLayer(2048, 2048, 16, 5) in layers and Conv1dLayer(512, 512, 64, 4) in layers
    assert Conv1dLayer(2, 512, 64, 5) in layers and Conv1dLayer(2048, 512, 32, 1) in layers


def test_the_route_is_planned_for_a_cpu_and_notes_what_it_takes(tmp_path):
    layers, others = batch1_conv1d_layers(CONV1D_LAYERS.read_text())
    route = plan_packed_taps_route(layers, others, AVX2, tmp_path)
    assert route and route.key == "packed_taps_route"
    assert route.flags == packed_taps_flags(layers, (12, 8), tmp_path, others)
    assert route.flags[0].startswith(f"{TRANSFORM_FLAG}={tmp_path}/packed-taps-") and route.flags[1] == NO_UKERNELS_FLAG
    script = Path(route.flags[0].split("=", 1)[1]).read_text()
    assert "inner_tiles = [12, 1]" in script and "inner_tiles = [8, 1]" in script
    assert route.notes == ["2 batch-1 1-D convolution shapes as packed kernel taps in 12 x 8 x 1 tiles (output channels "
                           "x time steps); kernel widths 3, 5 of the others split into taps"]
    # Another CPU, another tile and another script; nothing to take, or no CPU model: no route.
    assert plan_packed_taps_route(layers, others, AVX512, tmp_path).flags != route.flags
    assert not plan_packed_taps_route([], others, AVX2, tmp_path)
    assert not plan_packed_taps_route(layers, others, None, tmp_path)


def test_the_preset_takes_4m_tiles_on_the_global_data_tiling_path():
    presets = packed_taps_presets(("--script", NO_UKERNELS_FLAG))
    assert presets == {"packed-taps+gdt": ("--script", NO_UKERNELS_FLAG, TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)}


@pytest.mark.parametrize("preset", ["packed-taps+gdt"])
def test_the_packed_build_computes_the_convolutions(tmp_path, preset):
    """Every function of the lit input, built under the route's presets for haswell with AVX2's tile
    and run on seeded data against numpy: the packed convs (channels and steps padded to the tile,
    the bias accumulated, two in a row), the strided one and the f16 one the tap split takes."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    layers, others = batch1_conv1d_layers(CONV1D_LAYERS.read_text())
    flags = packed_taps_presets(packed_taps_flags(layers, tap_tile(AVX2), tmp_path, others))[preset]
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}"]
    configured = ic.compile_file(str(CONV1D_LAYERS), extra_args=base + list(flags)
                                 + ["--compile-to=executable-configurations"]).decode()
    # 12 channels in one 12-row tile, 8 steps in one column; @conv_twice's last: 16 channels in two.
    assert re.search(r"@conv_dispatch_\d+_mmt4d_1x1x16x12x8x1_f32", configured)
    assert re.search(r"@conv_twice_dispatch_\d+_mmt4d_2x1x12x12x8x1_f32", configured)
    module = rt.load_vm_flatbuffer(ic.compile_file(str(CONV1D_LAYERS), extra_args=base + list(flags)),
                                   driver="local-sync")
    rng = np.random.default_rng(29)

    def conv(x, w, stride=1):  # NCW, batch 1, no padding
        taps, width = w.shape[2], (x.shape[2] - w.shape[2]) // stride + 1
        x64, w64 = x.astype(np.float64), w.astype(np.float64)
        return sum(np.einsum("fc,cw->fw", w64[:, :, t], x64[0, :, t:t + stride * width:stride]) for t in range(taps))[None]

    x, w, b = (rng.standard_normal(s, dtype=np.float32) for s in ((1, 16, 8), (12, 16, 5), (12,)))
    padded = np.pad(x, ((0, 0), (0, 0), (2, 2)))
    np.testing.assert_allclose(np.asarray(module.conv(x, w, b)), conv(padded, w) + b[None, :, None], rtol=1e-4, atol=1e-4)
    x, w1, w2, w3 = (rng.standard_normal(s, dtype=np.float32) for s in ((1, 16, 12), (12, 16, 5), (12, 16, 5), (16, 12, 3)))
    np.testing.assert_allclose(np.asarray(module.conv_twice(x, w1, w2, w3)), conv(conv(x, w1) + conv(x, w2), w3),
                               rtol=1e-4, atol=1e-4)
    x, w = rng.standard_normal((1, 16, 17), dtype=np.float32), rng.standard_normal((16, 16, 3), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.strided(x, w)), conv(x, w, stride=2), rtol=1e-4, atol=1e-4)
    x, w = (rng.standard_normal(s).astype(np.float16) for s in ((1, 16, 12), (12, 16, 5)))
    np.testing.assert_allclose(np.asarray(module.f16(x, w)).astype(np.float64), conv(x, w), rtol=2e-2, atol=5e-2)


def test_tune_offers_the_route_beside_the_batch1_conv_route(tmp_path, monkeypatch):
    from conftest import BATCH1_LINEAR, cpu_target, presets_a_host_tune_times, write_model

    # The convs and a linear layer (which the register-tiled route would pack).
    model = write_model(tmp_path, "convs_and_linear.mlir", CONV1D_LAYERS.read_text() + BATCH1_LINEAR)
    presets, said = presets_a_host_tune_times(model, monkeypatch, cpu_target("avx2"))
    assert {"conv-route+gdt", "packed-taps+gdt"} <= set(presets)
    script = Path(presets["packed-taps+gdt"][0].split("=", 1)[1]).read_text()
    assert "inner_tiles = [12, 1]" in script and "@taps_conv_1d_ncw_fcw_k3" in script
    assert any(line.startswith("packed kernel-tap route") and "12 x 8 x 1 tiles" in line for line in said)
    # Its script holds the 1-D convs: the register-tiled route, which needs a script of its own, is
    # not taken beside it (its build of a tap product failed on the UNet).
    assert not any(name.startswith("register-tiled") for name in presets)
    assert any(line.startswith("register-tiled GEMM route") and "not taken" in line for line in said)
