"""The batch-fold convolution route (host/routes/conv_fold.py): which convolutions it folds, its presets, and
that a folded model computes what the plain one does (real iree-compile and iree.runtime).
The script's text and what it does to IR: lit_tests/presets/conv_fold_route.test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.host.routes.conv_fold import (InputConv, conv_fold_flags, conv_fold_presets, folds, input_convs,
                                                 lane_fill, plan_conv_fold_route)

MODEL = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs" / "conv_batch2_nchw.mlir"


def conv(batch: int, image: int, *, from_zeros: bool = True) -> InputConv:
    """A 3x3 stride-1 conv, 8 -> 16 channels, over `batch` images whose output is image x image."""
    return InputConv((batch, 8, image + 2, image + 2), (16, 8, 3, 3), (1, 1), (1, 1), "f32", from_zeros)


def test_input_convs_reads_shapes_attributes_and_the_zero_accumulator():
    convs = input_convs(MODEL.read_text())
    assert len(convs) == 5
    found = {c.input_shape: c for c in convs if c.from_zeros}
    small, strided, large = found[(2, 8, 8, 8)], found[(2, 8, 13, 13)], found[(2, 8, 14, 14)]
    assert small.output_shape == (2, 16, 6, 6) and small.pixels == 36 and small.reduction == 72 and small.from_zeros
    assert strided.strides == (2, 2) and strided.output_image == (6, 6)
    # The attributes as written, which the script's matcher repeats: vector- or tensor-typed.
    assert dict(strided.attributes)["strides"] == "dense<2> : tensor<2xi64>"
    assert dict(small.attributes)["dilations"] == "dense<1> : vector<2xi64>"
    assert large.pixels == 144
    dilated = found[(2, 8, 10, 10)]
    assert dilated.dilations == (2, 2) and dilated.output_image == (6, 6)
    # @bias shares @small's shapes but accumulates into the broadcast bias.
    assert {c.from_zeros for c in convs if c.input_shape == (2, 8, 8, 8)} == {True, False}


@pytest.mark.parametrize("lanes", (8, 16))
def test_a_conv_folds_when_its_images_fill_the_lanes_better(lanes):
    assert lane_fill(36, 16) == 36 / 48 and lane_fill(72, 16) == 72 / 80 and lane_fill(144, lanes) == 1.0
    assert folds(conv(2, 6), lanes)  # 36 -> 72 pixels: 48 -> 80 padded (16 lanes), 40 -> 72 (8)
    assert not folds(conv(2, 12), lanes)  # 144 pixels fill the tiles already
    assert not folds(conv(1, 6), lanes)  # one image: nothing to fold
    assert not folds(conv(2, 6, from_zeros=False), lanes)  # a bias accumulator: kept
    # 9 pixels: 16 -> 32 for two images with 16 lanes (no better); 16 -> 24 with 8.
    assert folds(conv(2, 3), lanes) == (lanes == 8)


def test_the_route_plans_from_the_cpu_lanes_and_is_deterministic(tmp_path):
    from conftest import cpu_description

    convs = input_convs(MODEL.read_text())
    route = plan_conv_fold_route(convs, cpu_description("avx512").cpu, tmp_path)
    assert route.key == "conv_fold_route" and len(route.flags) == 1 and route.flags[0].startswith(TRANSFORM_FLAG + "=")
    # @small, @strided and @dilated: three convolutions, the same GEMM.
    assert route.notes == ["3 convolution shapes as one GEMM each over all images' pixels, images x M x N x K: "
                           "2x16x36x72 (3 shapes)"]
    # Content-addressed: the same convolutions give the same file, byte for byte.
    again = plan_conv_fold_route(list(reversed(convs)), cpu_description("avx512").cpu, tmp_path)
    assert again.flags == route.flags
    assert conv_fold_flags([], tmp_path) == ()
    assert not plan_conv_fold_route([c for c in convs if c.pixels == 144], cpu_description("avx2").cpu, tmp_path)
    assert not plan_conv_fold_route(convs, None, tmp_path)  # no CPU description: no lanes to fill


def test_the_presets_put_the_script_between_im2col_and_data_tiling():
    presets = conv_fold_presets(("--script",))
    assert presets == {"im2col+conv-fold+gdt": (IM2COL_FLAG, "--script", GLOBAL_DATA_TILING_FLAG),
                       "im2col+conv-fold+gdt+inner-tiled": (IM2COL_FLAG, "--script", GLOBAL_DATA_TILING_FLAG,
                                                            INNER_TILED_FLAG)}
    assert list(conv_fold_presets(("--script",), inner_tiled=False)) == ["im2col+conv-fold+gdt"]


@pytest.mark.parametrize("isa", ("avx2", "avx512"))
def test_tune_offers_the_fold_presets_on_batched_convolutions(tmp_path, monkeypatch, isa):
    from conftest import cpu_target, presets_a_host_tune_times, write_model

    model = write_model(tmp_path, "convs.mlir", MODEL.read_text())

    presets, said = presets_a_host_tune_times(model, monkeypatch, cpu_target(isa))
    assert set(conv_fold_presets(("x",))) <= set(presets)
    script = Path(presets["im2col+conv-fold+gdt"][1].split("=", 1)[1]).read_text()
    assert script.count("cast_compatible_dag_from_root") == 3  # @small, @strided and @dilated
    assert any(line.startswith("batch-fold convolution route") for line in said)


def test_the_folded_model_computes_what_the_plain_one_does(tmp_path):
    """The three convolutions the route folds (plain, strided, dilated), built with and without its
    script under the presets' flags (for haswell, which every x86-64 runner executes), on seeded data."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    script = conv_fold_flags([c for c in input_convs(MODEL.read_text()) if folds(c, 8)], tmp_path)
    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG]
    plain = rt.load_vm_flatbuffer(ic.compile_file(str(MODEL), extra_args=base), driver="local-sync")
    folded = rt.load_vm_flatbuffer(ic.compile_file(str(MODEL), extra_args=base + list(script)), driver="local-sync")
    rng = np.random.default_rng(19)
    for name, image, stride, dilation in (("small", (2, 8, 8, 8), 1, 1), ("strided", (2, 8, 13, 13), 2, 1),
                                          ("dilated", (2, 8, 10, 10), 1, 2)):
        x = rng.standard_normal(image, dtype=np.float32)
        w = rng.standard_normal((16, 8, 3, 3), dtype=np.float32)
        want = np.asarray(getattr(plain, name)(x, w))
        got = np.asarray(getattr(folded, name)(x, w))
        assert got.shape == (2, 16, 6, 6)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        # And both are the convolution (a direct NumPy one), so neither build hides an error.
        ref = np.zeros((2, 16, 6, 6), np.float32)
        for kh in range(3):
            for kw in range(3):
                h, w_ = kh * dilation, kw * dilation
                patch = x[:, :, h:h + 6 * stride:stride, w_:w_ + 6 * stride:stride]
                ref += np.einsum("bchw,fc->bfhw", patch, w[:, :, kh, kw])
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)
