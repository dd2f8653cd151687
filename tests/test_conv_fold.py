"""The batch-fold convolution route (host/routes/conv_fold.py): which convolutions it folds, its presets, and
that a folded model computes what the plain one does (real iree-compile and iree.runtime).
The script's text and what it does to IR: lit_tests/presets/conv_fold_route.test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.host.routes.conv_fold import (InputConv, conv_fold_flags, conv_fold_presets, folds, input_convs,
                                                 lane_fill, packed_rows, packed_script_flags, packed_tiles, packs,
                                                 plan_conv_fold_route)
from iree_dsa_tuner.host.routes.register_tiled import NO_UKERNELS_FLAG

MODEL = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs" / "conv_batch2_nchw.mlir"
# MODEL's functions the route folds: name, input image, stride, dilation (3x3, 8 -> 16 channels, 6x6 out).
FOLDED = (("small", (2, 8, 8, 8), 1, 1), ("strided", (2, 8, 13, 13), 2, 1), ("dilated", (2, 8, 10, 10), 1, 2))


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
    packed = conv_fold_presets(("--script",), packed_flags=("--packed-script", NO_UKERNELS_FLAG))
    assert packed["im2col+conv-fold+register-tiled+gdt"] == (IM2COL_FLAG, "--packed-script", NO_UKERNELS_FLAG,
                                                             GLOBAL_DATA_TILING_FLAG)


def test_the_packed_tile_fits_its_rows_to_the_images_pixels():
    # The encoder's layer 4 (2 images x 3 x 3 pixels): 9 rows on AVX-512 (at most 14), 6 on AVX2 (at most 6).
    assert packed_rows(18, 14) == 9 and packed_rows(18, 6) == 6
    assert packed_rows(72, 14) == 12 and packed_rows(7, 14) == 7 and packed_rows(5, 1) == 1
    # 17 pixels: 2 x 9 = 18 rows, not 17 tiles of 1 (at least half the rows: 7 of 14, 3 of 6).
    assert packed_rows(17, 14) == 9 and packed_rows(17, 6) == 6 and packed_rows(4, 14) == 7


@pytest.mark.parametrize("lanes, tile", ((16, (14, 32, 1)), (8, (6, 16, 1))))
def test_a_conv_packs_where_the_fitted_rows_pad_its_pixels_less_than_the_lanes(lanes, tile):
    # 2 x 9 pixels: 32 (16 lanes) or 24 (8) padded, folded or not; 18 rows exactly.
    assert packs(conv(2, 3), lanes, tile)
    # 2 x 36 = 72: 80 with 16 lanes, 72 rows in 12 or 6; 8 lanes fill 72 already.
    assert packs(conv(2, 6), lanes, tile) == (lanes == 16)
    assert not packs(conv(2, 12), lanes, tile)  # 288 pixels fill the lanes
    # One image of 15 x 20 (ACT's layer 3): 300 rows fill 12-row tiles, against 304 lanes (16) or
    # 304 (8): too little more for a build without the ukernel.
    assert not packs(InputConv((1, 8, 17, 22), (16, 8, 3, 3), (1, 1), (1, 1), "f32", True), lanes, tile)
    assert not packs(conv(2, 3, from_zeros=False), lanes, tile)  # a bias accumulator: the script cannot match it
    f16 = InputConv((2, 8, 5, 5), (16, 8, 3, 3), (1, 1), (1, 1), "f16", True)
    assert not packs(f16, lanes, tile)  # the tile is an f32 one


def test_packed_tiles_come_from_the_cpus_register_tile(tmp_path):
    from conftest import cpu_description

    convs = [conv(2, 3), conv(2, 6), conv(2, 12)]
    assert packed_tiles(convs, cpu_description("avx512").cpu) == {conv(2, 3): (9, 32), conv(2, 6): (12, 32)}
    assert packed_tiles(convs, cpu_description("avx2").cpu) == {conv(2, 3): (6, 16)}
    assert packed_tiles(convs, cpu_description("avx512").cpu, leave=[conv(2, 6)]) == {conv(2, 3): (9, 32)}
    assert packed_tiles(convs, None) == {}
    flags = packed_script_flags([], {conv(2, 3): (9, 32)}, tmp_path)
    assert flags[0].startswith(f"{TRANSFORM_FLAG}={tmp_path}") and flags[1] == NO_UKERNELS_FLAG
    assert packed_script_flags([], {conv(2, 3): (9, 32)}, tmp_path) == flags  # content-addressed


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
    script = conv_fold_flags([c for c in input_convs(MODEL.read_text()) if folds(c, 8)], tmp_path)
    plain = haswell_build([INNER_TILED_FLAG])
    folded = haswell_build([INNER_TILED_FLAG, *script])
    for name, x, w, stride, dilation in seeded_cases(19):
        want = np.asarray(getattr(plain, name)(x, w))
        got = np.asarray(getattr(folded, name)(x, w))
        assert got.shape == (2, 16, 6, 6)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        # And both are the convolution (a direct NumPy one), so neither build hides an error.
        np.testing.assert_allclose(got, direct_conv(x, w, stride, dilation), rtol=1e-4, atol=1e-4)


def haswell_build(flags):
    """MODEL built for haswell (which every x86-64 runner executes) with im2col, global data tiling
    and `flags`, loaded on IREE's local-sync device."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG]
    return rt.load_vm_flatbuffer(ic.compile_file(str(MODEL), extra_args=base + list(flags)), driver="local-sync")


def seeded_cases(seed: int):
    """(name, input, filter, stride, dilation) for each of FOLDED, with seeded data."""
    rng = np.random.default_rng(seed)
    for name, image, stride, dilation in FOLDED:
        yield (name, rng.standard_normal(image, dtype=np.float32),
               rng.standard_normal((16, 8, 3, 3), dtype=np.float32), stride, dilation)


def direct_conv(x: np.ndarray, w: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    """The 3x3 convolution of the model's functions, 6 x 6 outputs, summed directly in float64."""
    ref = np.zeros((x.shape[0], w.shape[0], 6, 6), np.float64)
    for kh in range(3):
        for kw in range(3):
            h, w_ = kh * dilation, kw * dilation
            patch = x[:, :, h:h + 6 * stride:stride, w_:w_ + 6 * stride:stride]
            ref += np.einsum("bchw,fc->bfhw", patch.astype(np.float64), w[:, :, kh, kw])
    return ref


def test_the_packed_model_computes_the_convolutions(tmp_path):
    """The three convolutions the route folds (plain, strided, dilated), packed into 5 x 16 tiles (72
    pixels padded to 75 rows: the padding path), built as the packed preset builds them for haswell,
    against a direct NumPy convolution on seeded data."""
    tiles = {c: (5, 16) for c in input_convs(MODEL.read_text()) if folds(c, 8)}
    assert len(tiles) == 3
    packed = haswell_build(packed_script_flags([], tiles, tmp_path))
    for name, x, w, stride, dilation in seeded_cases(29):
        got = np.asarray(getattr(packed, name)(x, w))
        assert got.shape == (2, 16, 6, 6)
        np.testing.assert_allclose(got, direct_conv(x, w, stride, dilation), rtol=1e-4, atol=1e-4, err_msg=name)
