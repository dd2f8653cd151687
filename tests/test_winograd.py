"""The Winograd convolution route (host/routes/winograd.py): which convolutions it converts, its flags and
presets (every 3x3 convolution, and the selective ones), and that a converted model computes the
convolution with its filters hoisted (real iree-compile and iree.runtime, parameters from a seed).
What the flags and scripts do to IR: lit_tests/presets/winograd_route.test, winograd_selective.test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.host.routes.conv_fold import ConvPadding, InputConv, conv_script_text, input_convs
from iree_dsa_tuner.host.routes.register_tiled import NO_UKERNELS_FLAG
from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.host.routes.winograd import (HOIST_THRESHOLD_FLAG, WINOGRAD_ATTRIBUTE, WINOGRAD_PASS,
                                                WINOGRAD_PIPELINE, converts,
                                                output_blocks, planes_per_set, plan_winograd_route,
                                                selective_presets, selective_thresholds, transform_channels, transform_filters,
                                                transform_padding,
                                                transformed_filter_bytes, winograd_flags, winograd_presets)

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
MODEL = INPUTS / "conv_winograd_params.mlir"
# Two images: @large's 3x3 convolution has 8 output blocks, @small's 2 (lit_tests/presets/winograd_selective.test).
TWO_IMAGES = INPUTS / "conv_batch2_nchw.mlir"


def conv(c: int, f: int, image: tuple[int, int], *, kernel: int = 3, stride: int = 1, dilation: int = 1,
         batch: int = 1, element: str = "f32") -> InputConv:
    """A conv whose stride-1 output would be `image` (the input is padded already, as in linalg)."""
    h, w = image
    return InputConv((batch, c, h + kernel - 1, w + kernel - 1), (f, c, kernel, kernel), (stride, stride),
                     (dilation, dilation), element, True)


def test_only_3x3_stride_1_undilated_f32_convolutions_convert():
    assert converts(conv(64, 64, (60, 80)))
    assert not converts(conv(64, 64, (60, 80), stride=2))
    assert not converts(conv(64, 64, (60, 80), dilation=2))
    assert not converts(conv(64, 64, (60, 80), kernel=1))
    assert not converts(conv(3, 64, (120, 160), kernel=7))
    assert not converts(conv(64, 64, (60, 80), element="f16"))


def test_blocks_and_transformed_filters_are_acts_shapes():
    # ACT's backbone on a 240x320 camera: layer 1 at 60x80 down to layer 4 at 8x10.
    assert output_blocks(conv(64, 64, (60, 80))) == 10 * 14
    assert output_blocks(conv(128, 128, (30, 40))) == 5 * 7
    assert output_blocks(conv(512, 512, (8, 10))) == 2 * 2
    assert output_blocks(conv(64, 64, (24, 24), batch=2)) == 2 * 4 * 4  # the encoder's two images
    assert transformed_filter_bytes(conv(512, 512, (8, 10))) == 8 * 8 * 512 * 512 * 4


def test_a_transform_whose_planes_would_crowd_one_l1_set_gets_the_fewest_padded_channels_that_spread_them():
    # The input transform writes each block's 64 values blocks x C x 4 bytes apart. A multiple of
    # 4 KiB puts all 64 in one set; 60 channels of the encoder's 32 blocks (7680 bytes) put 8 in one.
    assert planes_per_set(8192) == 64 and planes_per_set(4096) == 64
    assert planes_per_set(32 * 60 * 4) == 8 and planes_per_set(32 * 72 * 4) == 16 and planes_per_set(32 * 65 * 4) == 2
    # The Diffusion Policy encoder's layers 1-4 (two 96x96 images): each padded by one or two channels.
    assert transform_channels(conv(64, 64, (24, 24), batch=2)) == 65  # 32 blocks
    assert transform_channels(conv(128, 128, (12, 12), batch=2)) == 129  # 8 blocks: 4 KiB
    assert transform_channels(conv(256, 256, (6, 6), batch=2)) == 257
    assert transform_channels(conv(512, 512, (3, 3), batch=2)) == 514
    # Planes already spread: kept. ACT's layer 1 (140 blocks x 64: 16 planes a set) is padded.
    assert transform_channels(conv(8, 16, (12, 12), batch=2)) == 8
    assert transform_channels(conv(60, 60, (24, 24), batch=2)) == 60 + 1  # 8 a set: above the 4 allowed
    assert transform_channels(conv(64, 64, (60, 80))) > 64
    # The output transform reads [8, 8, blocks, F]: the same rule on the output channels.
    assert transform_filters(conv(64, 64, (24, 24), batch=2)) == 65
    assert transform_filters(conv(128, 128, (12, 12), batch=2)) == 129
    assert transform_filters(conv(8, 16, (12, 12), batch=2)) == 17  # 8 blocks x 16: 512 bytes, 8 planes a set
    assert transform_filters(conv(8, 24, (12, 12), batch=2)) == 24  # 768 bytes: 4 a set
    assert transform_padding([conv(8, 24, (12, 12), batch=2), conv(64, 64, (24, 24), batch=2),
                              conv(60, 16, (12, 12), batch=2)]) == {
        conv(64, 64, (24, 24), batch=2): ConvPadding(65, 65), conv(60, 16, (12, 12), batch=2): ConvPadding(60, 17)}
    # The transformed filter the hoisting threshold is sized to has the padded channels.
    assert transformed_filter_bytes(conv(128, 128, (12, 12), batch=2), ConvPadding(129, 130)) == 8 * 8 * 129 * 130 * 4


# Two images of 14x14 (8 output blocks) and 128 channels: a transform stride of 4 KiB.
CROWDED = """
func.func @crowded(%x: tensor<2x128x14x14xf32>, %w: tensor<16x128x3x3xf32>) -> tensor<2x16x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x12x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x12x12xf32>) -> tensor<2x16x12x12xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x128x14x14xf32>, tensor<16x128x3x3xf32>) outs(%f : tensor<2x16x12x12xf32>) -> tensor<2x16x12x12xf32>
  return %r : tensor<2x16x12x12xf32>
}
"""


def direct_conv(x, w, bias=None):
    """The stride-1 NCHW convolution of `x` by `w` (plus `bias`), summed in float64."""
    f, _, kh, kw = w.shape
    oh, ow = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    out = np.zeros((x.shape[0], f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("bchw,fc->bfhw", x[:, :, i:i + oh, j:j + ow].astype(np.float64), w[:, :, i, j])
    return out if bias is None else out + bias[None, :, None, None]


def haswell_build(model: Path, flags) -> tuple[str, object]:
    """`model` built for haswell (which every x86-64 runner executes) under `flags`: (its executable
    configurations' text, the loaded module)."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    args = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", *flags]
    configured = ic.compile_file(str(model), extra_args=args + ["--compile-to=executable-configurations"]).decode()
    return configured, rt.load_vm_flatbuffer(ic.compile_file(str(model), extra_args=args), driver="local-sync")


def assert_computes_the_convolution(function, x, w):
    """`function(x, w)` is the convolution of `x` by `w`, to F(6x6, 3x3)'s f32 rounding (relative to
    the output's largest magnitude)."""
    ref = direct_conv(x, w)
    assert np.abs(np.asarray(function(x, w)) - ref).max() / np.abs(ref).max() < 1e-4


def test_a_crowded_convolution_is_converted_on_padded_channels_and_still_computes_the_convolution(tmp_path):
    """Built for haswell under the selective preset: the script pads the input to 129 channels and
    the filter to 17 x 129 before marking the convolution, IREE's transforms work on 129 input and
    17 output channels, and the output, sliced back to 16 channels, matches a direct NumPy
    convolution of the unpadded operands."""
    model = tmp_path / "crowded.mlir"
    model.write_text(CROWDED)
    (chosen,) = input_convs(CROWDED)
    assert transform_padding([chosen]) == {chosen: ConvPadding(129, 17)}
    # Its one tier is the lowest, the all-convolutions preset's (no script): the selective script built directly.
    text = verified_script(conv_script_text([], [chosen], WINOGRAD_ATTRIBUTE, (WINOGRAD_PASS,),
                                            padding=transform_padding([chosen])), "test")
    assert text.count("tensor.pad") == 2 and "tensor<2x129x14x14xf32>" in text and "tensor<17x129x3x3xf32>" in text
    assert "tensor<2x17x12x12xf32> to tensor<2x16x12x12xf32>" in text
    script = tmp_path / "script.mlir"
    script.write_text(text)
    configured, module = haswell_build(model, [f"{TRANSFORM_FLAG}={script}"])
    assert "winograd_input_transform_8x8x2x2x2x129xf32" in configured
    assert "winograd_output_transform_8x8x2x2x2x17xf32" in configured
    rng = np.random.default_rng(31)
    assert_computes_the_convolution(module.crowded, rng.standard_normal((2, 128, 14, 14), dtype=np.float32),
                                    rng.standard_normal((16, 128, 3, 3), dtype=np.float32))


def test_a_selective_presets_register_tiled_twin_packs_the_models_linear_layers_too(tmp_path):
    """conv_batch2_nchw beside torch-form linear layers (token_linears.mlir), as ACT has them: with
    AVX2's 8 lanes no convolution packs, yet the `+register-tiled` twin of the selective preset
    exists, its one script marking @large (on 17 output channels), folding the small ones and
    packing the linears in the 6 x 16 x 1 register tile; built for haswell, the convolution and the
    layers match NumPy."""
    from conftest import cpu_description

    from iree_dsa_tuner.host.flag_presets import TILE_BYTES_4M
    from iree_dsa_tuner.host.routes.register_tiled import broadcast_linears

    linears_text = (INPUTS / "token_linears.mlir").read_text()
    aliases = "".join(line + "\n" for line in linears_text.splitlines() if line.startswith("#"))
    functions = linears_text[linears_text.index("module {") + len("module {"):linears_text.rindex("}")]
    convs_text = TWO_IMAGES.read_text()
    model = tmp_path / "convs_and_linears.mlir"
    model.write_text(aliases + convs_text[:convs_text.rindex("}")] + functions + "}\n")
    text = model.read_text()
    convs, linears = input_convs(text), broadcast_linears(text)
    cpu = cpu_description("avx2").cpu
    assert list(selective_presets(convs, cpu, tmp_path)) == ["im2col+winograd-b8+conv-fold+gdt"]
    presets = selective_presets(convs, cpu, tmp_path, linears)
    plain = presets["im2col+winograd-b8+conv-fold+gdt"]
    im2col, script, no_ukernels, hoist, tile_bytes, gdt = presets["im2col+winograd-b8+conv-fold+register-tiled+gdt"]
    assert (im2col, no_ukernels, tile_bytes, gdt) == (IM2COL_FLAG, NO_UKERNELS_FLAG, TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)
    assert hoist == plain[2]
    written = Path(script.split("=", 1)[1]).read_text()
    assert "tensor<17x8x3x3xf32>" in written and written.count("{__winograd_conv, ") == 1
    assert written.count("linalg.mmt4d ins(") == 2 and "inner_tiles = [5, 1]" in written  # 13 tokens in 5-row tiles
    assert written.count("linalg.matmul ins(") == 3  # @small, @strided and @dilated folded

    configured, module = haswell_build(model, presets["im2col+winograd-b8+conv-fold+register-tiled+gdt"])
    assert "winograd_output_transform_8x8x2x2x2x17xf32" in configured and "_mmt4d_3x2x12x5x16x1_f32" in configured
    rng = np.random.default_rng(37)
    assert_computes_the_convolution(module.large, rng.standard_normal((2, 8, 14, 14), dtype=np.float32),
                                    rng.standard_normal((16, 8, 3, 3), dtype=np.float32))
    tokens = rng.standard_normal((13, 1, 12), dtype=np.float32)
    w1 = rng.standard_normal((24, 12), dtype=np.float32)
    np.testing.assert_allclose(np.asarray(module.linear(tokens, w1)), tokens @ w1.T, rtol=1e-4, atol=1e-4)


def test_the_threshold_is_the_largest_transformed_filter_in_whole_mib_and_never_below_irees_default():
    mib = 1 << 20
    layers = [conv(64, 64, (60, 80)), conv(512, 512, (8, 10)), conv(64, 64, (60, 80), stride=2)]
    assert winograd_flags(layers) == (WINOGRAD_PIPELINE, f"{HOIST_THRESHOLD_FLAG}={64 * mib}")
    # 8 x 8 x 96 x 96 x 4 bytes = 2.25 MiB: rounded up.
    assert winograd_flags([conv(96, 96, (12, 12))])[1] == f"{HOIST_THRESHOLD_FLAG}={3 * mib}"
    # A small filter: IREE's default (1 MiB) already hoists it; the flag never lowers it.
    assert winograd_flags([conv(8, 16, (12, 12))])[1] == f"{HOIST_THRESHOLD_FLAG}={mib}"
    assert winograd_flags([conv(64, 64, (60, 80), kernel=1)]) == ()


def test_the_route_plans_from_the_models_convolutions():
    convs = input_convs(MODEL.read_text())
    assert len(convs) == 3
    route = plan_winograd_route(convs)
    assert route.key == "winograd_route" and route.flags == (WINOGRAD_PIPELINE, f"{HOIST_THRESHOLD_FLAG}=2097152")
    assert route.notes == ["1 3x3 convolution shape as Winograd F(6x6,3x3) (in -> out channels, 6x6 output "
                           "blocks): 64->128 ch, 4 blocks; filters transformed once at load, the largest 2.1 MB"]
    assert not plan_winograd_route([c for c in convs if not converts(c)])


def test_the_preset_is_the_route_with_im2col_on_the_global_data_tiling_path():
    assert winograd_presets(("--a", "--b")) == {
        "im2col+winograd+gdt": (IM2COL_FLAG, "--a", "--b", GLOBAL_DATA_TILING_FLAG)}


class Lanes:
    """A CPU description with only what the batch-fold route reads: the vector width, and the vector
    registers of the packed form's tile (16 with AVX2's 8 f32 lanes, 32 with AVX-512's 16)."""

    def __init__(self, lanes: int):
        self.vector_register_bytes = 4 * lanes
        self.vector_registers = 2 * lanes


def test_selective_thresholds_leave_out_the_tiers_with_fewest_blocks():
    # The Diffusion Policy encoder's 3x3 stride-1 convolutions (two 96x96 images): 32, 8, 2 and 2 blocks.
    encoder = [conv(64, 64, (24, 24), batch=2), conv(128, 128, (12, 12), batch=2), conv(256, 256, (6, 6), batch=2),
               conv(512, 512, (3, 3), batch=2), conv(64, 128, (12, 12), batch=2, stride=2)]
    assert selective_thresholds(encoder) == [8, 32]
    assert plan_winograd_route(encoder).notes[0].endswith("; also only those of at least 8 or 32 blocks (selective presets)")
    # ACT's (one 240x320 camera): 140, 35, 12 and 4 blocks; at most two selective presets.
    act = [conv(64, 64, (60, 80)), conv(128, 128, (30, 40)), conv(256, 256, (15, 20)), conv(512, 512, (8, 10))]
    assert selective_thresholds(act) == [12, 35]
    assert selective_thresholds(act, most=1) == [12]
    # One tier: the all-convolutions preset is the only choice.
    assert selective_thresholds([conv(64, 64, (60, 80)), conv(32, 32, (60, 80))]) == []
    # A convolution the script cannot match (its accumulator is not zeros) is no tier.
    biased = InputConv((1, 64, 62, 82), (64, 64, 3, 3), (1, 1), (1, 1), "f32", False)
    assert selective_thresholds([biased, conv(512, 512, (8, 10))]) == []


def test_a_selective_preset_marks_the_chosen_convolutions_and_folds_the_rest(tmp_path):
    convs = input_convs(TWO_IMAGES.read_text())
    presets = selective_presets(convs, Lanes(8), tmp_path)
    assert list(presets) == ["im2col+winograd-b8+conv-fold+gdt"]
    im2col, script, hoist, gdt = presets["im2col+winograd-b8+conv-fold+gdt"]
    assert (im2col, gdt) == (IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG)
    assert hoist == f"{HOIST_THRESHOLD_FLAG}={1 << 20}"  # 8 x 8 x 8 x 16 f32: IREE's default already hoists it
    name, _, path = script.partition("=")
    text = Path(path).read_text()
    assert name == TRANSFORM_FLAG and Path(path).parent == tmp_path
    # @large (14x14 inputs) is marked, computed on 17 output channels (its 16 crowd the output
    # transform's planes, `transform_filters`); @small, @strided and @dilated are folded; @bias is neither.
    assert text.count(WINOGRAD_ATTRIBUTE) == 1 and "{__winograd_conv, " in text and "tensor<2x17x12x12xf32>" in text
    assert sorted(line.split("@fold_")[1].split("(")[0] for line in text.splitlines()
                  if "util.func private @fold_" in line) == [
        "0_b2_c8_8x8_f16_3x3_s1x1_d1x1_f32", "1_b2_c8_10x10_f16_3x3_s1x1_d2x2_f32", "2_b2_c8_13x13_f16_3x3_s2x2_d1x1_f32",
        "3_b2_c8_14x14_f16_3x3_s1x1_d1x1_f32"]
    # A marked convolution that nothing pads is only annotated, in place.
    (large,) = [c for c in convs if c.input_shape == (2, 8, 14, 14)]
    plain = conv_script_text([], [large], WINOGRAD_ATTRIBUTE, (WINOGRAD_PASS,))
    assert plain.count(f'"{WINOGRAD_ATTRIBUTE}"') == 1 and "@tag_0_b2_c8_14x14_f16_3x3_s1x1_d1x1_f32_here" in plain
    assert "util.func private" not in plain
    # The same plan gives the same file (content-addressed), so a recipe's flags name its script.
    assert selective_presets(convs, Lanes(8), tmp_path) == presets
    # Without a CPU description nothing folds, and the preset says so in its name.
    assert list(selective_presets(convs, None, tmp_path)) == ["im2col+winograd-b8+gdt"]


def test_a_selective_preset_has_a_packed_twin_where_a_convolution_packs(tmp_path):
    convs = input_convs(TWO_IMAGES.read_text())
    # With 16 lanes @small, @strided and @dilated (2 x 36 pixels) pad to 80 as one GEMM, and fit 12-row tiles exactly.
    presets = selective_presets(convs, Lanes(16), tmp_path)
    assert list(presets) == ["im2col+winograd-b8+conv-fold+gdt", "im2col+winograd-b8+conv-fold+register-tiled+gdt"]
    im2col, script, no_ukernels, hoist, gdt = presets["im2col+winograd-b8+conv-fold+register-tiled+gdt"]
    assert (im2col, no_ukernels, gdt) == (IM2COL_FLAG, NO_UKERNELS_FLAG, GLOBAL_DATA_TILING_FLAG)
    assert hoist == presets["im2col+winograd-b8+conv-fold+gdt"][2]
    text = Path(script.partition("=")[2]).read_text()
    assert text.count(WINOGRAD_ATTRIBUTE) == 1  # @large still marked
    assert text.count("linalg.mmt4d ins(") == 3 and "inner_tiles = [12, 1]" in text and "inner_tiles = [32, 1]" in text
    assert selective_presets(convs, Lanes(16), tmp_path) == presets


@pytest.mark.parametrize("lanes, preset", ((8, "im2col+winograd-b8+conv-fold+gdt"),
                                           (16, "im2col+winograd-b8+conv-fold+register-tiled+gdt")))
def test_the_selective_build_computes_every_convolution(tmp_path, lanes, preset):
    """conv_batch2_nchw built under the selective preset and its packed twin (for haswell, which every
    x86-64 runner executes): the Winograd-converted @large, the folded (or packed) @small and the
    untouched @bias match a direct NumPy convolution."""
    import iree.compiler as ic
    import iree.runtime as rt

    from conftest import TARGET_CPU

    flags = selective_presets(input_convs(TWO_IMAGES.read_text()), Lanes(lanes), tmp_path)[preset]
    vmfb = ic.compile_file(str(TWO_IMAGES), extra_args=[
        "--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
        f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", *flags])
    module = rt.load_vm_flatbuffer(vmfb, driver="local-task")
    rng = np.random.default_rng(23)

    for name, size in (("large", 14), ("small", 8), ("bias", 8)):
        x = rng.standard_normal((2, 8, size, size), dtype=np.float32)
        w = rng.standard_normal((16, 8, 3, 3), dtype=np.float32)
        args = (x, w) if name != "bias" else (x, w, rng.standard_normal(16, dtype=np.float32))
        got = np.asarray(module[name](*args))
        ref = direct_conv(*args)
        # F(6x6, 3x3) in f32 rounds more than a direct sum: relative to the output's largest magnitude.
        assert np.abs(got - ref).max() / np.abs(ref).max() < 1e-4, name


_B8_PACKED = "im2col+winograd-b8+conv-fold+register-tiled+gdt"
# What each shipped script holds: (the channels each marked convolution is computed on, (input,
# output); convolutions matched; {register-tile rows: packed convolutions}).
# - AVX-512: layers 1-2's 3x3 convolutions (32 and 8 blocks) marked, on 65 and 129 channels in and
#   out (their transforms' planes 8 and 4 KiB apart); layers 3-4's six shapes packed, in 12-row tiles
#   for layer 3's 72 pixels and 9-row ones for layer 4's 18.
# - AVX2: the same two marked; layer 3's 72 pixels fill AVX2's 8 lanes and are folded, layer 4's
#   three packed in 6-row tiles.
_AVX512_SCRIPT = ([(65, 65), (129, 129)], 2 + 6, {12: 3, 9: 3})
_AVX2_SCRIPT = ([(65, 65), (129, 129)], 2 + 6, {6: 3})


@pytest.mark.parametrize("isa, directory, preset, script, expected", [
    ("avx512", "", _B8_PACKED, "diffusion_encoder.spec.conv-fold.mlir", _AVX512_SCRIPT),
    ("avx2", "avx2", _B8_PACKED, "diffusion_encoder.spec.conv-fold.mlir", _AVX2_SCRIPT),
    ("avx2", "avx2/threads2", _B8_PACKED, "diffusion_encoder.spec.conv-fold.mlir", _AVX2_SCRIPT)])
def test_the_shipped_encoder_recipes_script_is_what_the_route_writes_for_the_committed_export(
        isa, directory, preset, script, expected, tmp_path):
    """The encoder's shipped recipes (docs/PERFORMANCE.md 4b, 4t, 4u) name a selective Winograd script
    beside them (the packed twin's); it is the one the route writes today for the committed export
    on that ISA's lanes and register tile, so a change to the route that would change a shipped
    build fails here."""
    import iree.compiler as ic

    from conftest import cpu_description

    from iree_dsa_tuner.recipe import load_recipe

    lerobot = INPUTS / "lerobot"
    recipes = lerobot / "recipes" / directory
    recipe = load_recipe(recipes / "diffusion_encoder.spec.recipe.toml")
    assert recipe.variant.startswith(preset)
    shipped = [f for f in recipe.flags if f.startswith(TRANSFORM_FLAG + "=")]
    # Named beside the recipe, so the recipe builds wherever the repository is.
    assert shipped == [f"{TRANSFORM_FLAG}={script}"]
    assert f"{TRANSFORM_FLAG}={recipes / script}" in recipe.compile_flags()
    text = ic.compile_file(str(lerobot / "diffusion_encoder.mlir"), target_backends=["llvm-cpu"],
                           extra_args=["--compile-to=input"]).decode()
    presets = selective_presets(input_convs(text), cpu_description(isa).cpu, tmp_path)
    flags = presets[preset]
    assert [f for f in recipe.flags if f != shipped[0]] == [f for f in flags if not f.startswith(TRANSFORM_FLAG)]
    written = Path(next(f for f in flags if f.startswith(TRANSFORM_FLAG)).split("=", 1)[1]).read_text()
    assert written == (recipes / script).read_text()
    channels, matched, packed = expected
    assert written.count(WINOGRAD_ATTRIBUTE) == len(channels) and written.count("tensor.pad") == 2 * len(channels)
    assert all(f"{f}x{c}x3x3xf32>" in written for c, f in channels)
    assert written.count("tensor.extract_slice") == len(channels)  # each result sliced back to its own channels
    assert written.count("cast_compatible_dag_from_root") == matched
    assert written.count("linalg.mmt4d ins(") == sum(packed.values())
    assert {rows: written.count(f"inner_tiles = [{rows}, 1]") for rows in packed} == packed


@pytest.mark.parametrize("isa", ("avx2", "avx512"))
def test_tune_offers_the_selective_preset_with_the_fold_of_its_isas_lanes(tmp_path, monkeypatch, isa):
    from conftest import cpu_target, presets_a_host_tune_times, write_model

    model = write_model(tmp_path, "two_images.mlir", TWO_IMAGES.read_text())
    presets, _ = presets_a_host_tune_times(model, monkeypatch, cpu_target(isa))
    # Both lane counts fold @small, @strided and @dilated (docs/CONV.md), so both ISAs get the same
    # preset; its packed twin only on AVX-512, where 72 pixels pad to 80 lanes but fit 12-row tiles.
    selective = {name: flags for name, flags in presets.items() if "winograd-b" in name}
    assert list(selective) == ["im2col+winograd-b8+conv-fold+gdt"] + (
        ["im2col+winograd-b8+conv-fold+register-tiled+gdt"] if isa == "avx512" else [])
    assert "im2col+winograd+gdt" in presets


@pytest.mark.parametrize("isa", ("avx2", "avx512"))
def test_tune_offers_the_winograd_preset_on_a_model_with_a_3x3_convolution(tmp_path, monkeypatch, isa):
    from conftest import cpu_target, presets_a_host_tune_times, write_model

    model = write_model(tmp_path, "convs.mlir", MODEL.read_text())
    presets, said = presets_a_host_tune_times(model, monkeypatch, cpu_target(isa))
    assert presets["im2col+winograd+gdt"] == winograd_presets(plan_winograd_route(input_convs(MODEL.read_text())).flags)[
        "im2col+winograd+gdt"]
    assert any(line.startswith("Winograd convolution route") for line in said)


def test_the_converted_model_computes_the_convolution_with_its_filter_transformed_at_load(tmp_path):
    """@conv3x3 built under the preset's flags (for haswell, which every x86-64 runner executes) and
    run with seeded parameters matches a direct NumPy convolution and the plain im2col build; the
    filter transform is in the module's initializer, not in the function."""
    import iree.compiler as ic

    from conftest import TARGET_CPU

    from iree_dsa_tuner.parameters import read_model_parameters, resolve_parameters
    from iree_dsa_tuner.tuning_spec.numerics import _load

    base = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            f"--iree-llvmcpu-target-cpu={TARGET_CPU['avx2']}", IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG]
    route = list(plan_winograd_route(input_convs(MODEL.read_text())).flags)
    hoisted = ic.compile_file(str(MODEL), extra_args=base + route + ["--compile-to=global-optimization"]).decode()
    function = hoisted[hoisted.index("util.func public @conv3x3"):]
    assert "winograd.filter_transform" in hoisted.split("util.func public @conv3x3")[0]
    assert "winograd.filter_transform" not in function.split("util.func public @strided")[0]
    assert "winograd.input_transform" in function

    parameters = resolve_parameters(MODEL, seed=19, cache_dir=tmp_path)
    assert len(read_model_parameters(MODEL)) == 3
    x = np.random.default_rng(19).standard_normal((1, 64, 14, 14), dtype=np.float32)
    outputs = {}
    for name, flags in (("plain", base), ("winograd", base + route)):
        vmfb = tmp_path / f"{name}.vmfb"
        vmfb.write_bytes(ic.compile_file(str(MODEL), extra_args=flags))
        rt, ctx, module = _load(vmfb, parameters)
        outputs[name] = np.asarray(ctx.modules.module.conv3x3(x).to_host())
    w = parameters.value("model", "w3")
    ref = np.zeros((1, 128, 12, 12), np.float64)
    for kh in range(3):
        for kw in range(3):
            ref += np.einsum("bchw,fc->bfhw", x[:, :, kh:kh + 12, kw:kw + 12].astype(np.float64), w[:, :, kh, kw])
    scale = np.abs(ref).max()
    # F(6x6, 3x3) in f32 rounds more than a direct sum: relative to the output's largest magnitude.
    assert np.abs(outputs["winograd"] - ref).max() / scale < 1e-4
    assert np.abs(outputs["plain"] - ref).max() / scale < 1e-5
    assert not np.allclose(outputs["winograd"], 0.0)
