"""The quantiser (docs/QUANT.md) on lerobot's exported pi0 expert layer, its parameters made from a
seed: the weights and scales it stores against numpy, its accuracy figures recomputed here from
the two models' outputs, and no per-call dispatch reading a float weight."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.parameters import resolve_parameters
from iree_dsa_tuner.quant import QuantOptions, quantize_model
from iree_dsa_tuner.quant.accuracy import compile_for_host, run_functions
from iree_dsa_tuner.quant.weights import LayerForm, quantize_activation, quantize_weight, simulate

ROOT = Path(__file__).resolve().parents[1]
EXPERT = ROOT / "lit_tests/inputs/lerobot/pi0_expert_layer.mlir"
LINEARS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


# ---- the arithmetic -------------------------------------------------------------------------

def test_int8_per_channel_codes_and_scales():
    rng = np.random.default_rng(1)
    w = rng.normal(size=(16, 64)).astype(np.float32)
    q = quantize_weight(w, LayerForm("w8a8"))
    np.testing.assert_allclose(q.channel_scale, np.abs(w).max(axis=1) / 127, rtol=1e-6)
    assert q.codes.dtype == np.int8 and np.abs(q.codes).max() == 127
    assert np.max(np.abs(q.dequantized() - w)) <= np.max(q.channel_scale) / 2 + 1e-6


@pytest.mark.parametrize("zero_point", [False, True])
def test_int4_two_level_codes_stay_in_range_and_reconstruct(zero_point):
    rng = np.random.default_rng(2)
    w = rng.normal(size=(8, 256)).astype(np.float32)
    q = quantize_weight(w, LayerForm("w4a8", 64, zero_point, "f16"))
    lo, hi = (0, 15) if zero_point else (-8, 7)
    assert q.codes.min() >= lo and q.codes.max() <= hi
    assert q.group_scale.shape == (8, 4) and q.group_scale.min() >= 1 and q.group_scale.max() <= 255
    assert q.channel_scale.dtype == np.float32 and np.array_equal(q.channel_scale,
                                                                  q.channel_scale.astype(np.float16))
    # The integer level (c - z) * u stays within INT8's range: one i8 x i8 product per MAC.
    assert np.abs(q.integer_weight()).max() <= 127 + 15 * 17
    err = np.linalg.norm(q.dequantized() - w) / np.linalg.norm(w)
    assert 0 < err < 0.2


def test_int4_bad_shapes_are_one_line_errors():
    with pytest.raises(InputError, match="does not divide K"):
        quantize_weight(np.ones((4, 96), np.float32), LayerForm("w4a8", 64))
    with pytest.raises(InputError, match="odd element count"):
        quantize_weight(np.ones((3, 33), np.float32), LayerForm("w4a8", 33))


def test_simulated_layer_matches_its_definition():
    rng = np.random.default_rng(3)
    w, x = rng.normal(size=(32, 128)), rng.normal(size=(5, 128)).astype(np.float32)
    q = quantize_weight(w, LayerForm("w8a8"))
    codes, t = quantize_activation(x)
    want = (codes * t[:, None].astype(np.float64)) @ (q.codes.astype(np.float64) * q.channel_scale[:, None]).T
    np.testing.assert_allclose(simulate(x, q), want, rtol=1e-9)


def test_static_activation_scale_is_the_calibration_max_and_saturates_beyond_it():
    rng = np.random.default_rng(4)
    w, x = rng.normal(size=(32, 128)), rng.normal(size=(40, 128)).astype(np.float32)
    q = quantize_weight(w, LayerForm("w8a8", activations="static"), calibration=x)
    assert q.activation_amax == np.float32(np.abs(x).max())
    # Every row shares the one scale; a row twice the calibration range saturates at +-127.
    codes, t = quantize_activation(2 * x[:3], static_amax=q.activation_amax)
    assert np.all(t == np.float32(q.activation_amax) / np.float32(127)) and np.abs(codes).max() == 127
    want = (codes * t[:, None].astype(np.float64)) @ (q.codes.astype(np.float64) * q.channel_scale[:, None]).T
    np.testing.assert_allclose(simulate(2 * x[:3], q), want, rtol=1e-9)
    with pytest.raises(ValueError, match="needs calibration activations"):
        quantize_weight(w, LayerForm("w8a8", activations="static"))


# ---- a real export ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def host_builds(tmp_path_factory) -> Path:
    """One directory of host builds for the expert's models: `compile_for_host` names each build by
    the model's text, so the float model both schemes measure against, and each quantised model
    the accuracy test runs again, is compiled once."""
    return tmp_path_factory.mktemp("host-builds")


@pytest.fixture(scope="module")
def quantized(tmp_path_factory, host_builds):
    import iree_dsa_tuner.quant.model as quant_model

    base = tmp_path_factory.mktemp("quant")
    out = {}
    with pytest.MonkeyPatch.context() as patch:
        # The quantiser builds into a directory of its own and removes it; here into `host_builds`.
        patch.setattr(quant_model, "compile_for_host", lambda mlir, directory: compile_for_host(mlir, host_builds))
        for name, options in {"w8a8": QuantOptions("w8a8"),
                              "w4a8": QuantOptions("w4a8", group=64, zero_point=True, scale_type="f16")}.items():
            out[name] = quantize_model(EXPERT, options, output=base / name)
    return out


def _weight(parameters, key: str) -> np.ndarray:
    return np.asarray(parameters.value("model", key), dtype=np.float32)


def test_stored_weights_and_scales_are_numpy_quantised_torch_weights(quantized):
    float_params = resolve_parameters(EXPERT, (), seed=0)  # what the quantiser read: the same seed
    for scheme, result in quantized.items():
        params = result.parameters()
        for linear in LINEARS:
            key = next(k for k in (f"layer.self_attn.{linear}.weight", f"layer.mlp.{linear}.weight")
                       if any(p.key == k for p in float_params.globals))
            w = _weight(float_params, key)  # torch's Linear weight is [out, in]: the layout stored
            form = LayerForm("w8a8") if scheme == "w8a8" else LayerForm("w4a8", 64, True, "f16")
            want = quantize_weight(w, form)
            codes = np.asarray(params.value("model", f"{key}.{scheme}.weight"))
            np.testing.assert_array_equal(codes.astype(np.int64) & 0xF if scheme == "w4a8" else codes, want.codes)
            scale = np.asarray(params.value("model", f"{key}.{scheme}.scale"), dtype=np.float32)
            np.testing.assert_array_equal(scale, want.channel_scale)
            if scheme == "w4a8":
                u = np.asarray(params.value("model", f"{key}.w4a8.group_scale")).astype(np.int64) & 0xFF
                z = np.asarray(params.value("model", f"{key}.w4a8.zero_point")).astype(np.int64) & 0xFF
                np.testing.assert_array_equal(u, want.group_scale)
                np.testing.assert_array_equal(z, want.zero_point)
        # The float weights left the model: none of them is in the new archive.
        assert not any(p.key.endswith("_proj.weight") for p in params.globals)


def test_accuracy_figures_recomputed_from_both_models(quantized, host_builds, tmp_path):
    float_params = resolve_parameters(EXPERT, (), seed=0)
    from iree_dsa_tuner.quant.model import calibration_inputs, input_form
    from iree_dsa_tuner.tuning_spec.reference import NumpyModel
    from iree_dsa_tuner.tuning_spec.verify import public_signatures

    text, generic = input_form(EXPERT)
    signatures, _ = public_signatures(NumpyModel(generic, float_params))
    inputs = calibration_inputs(signatures, 0, 1)
    types = {k: [e for _, e in v] for k, v in signatures.items()}
    float_mlir = tmp_path / "float.mlir"
    float_mlir.write_text(text)
    # The builds the quantiser measured (the same text is the same build): run here on the same
    # seeded inputs, compared here.
    want = run_functions(compile_for_host(float_mlir, host_builds), float_params, inputs, types)["main"][0][0]
    for result in quantized.values():
        got = run_functions(compile_for_host(result.mlir, host_builds), result.parameters(), inputs,
                            types)["main"][0][0]
        f, q = want.astype(np.float64).ravel(), got.astype(np.float64).ravel()
        rel = np.sqrt(np.sum((q - f) ** 2) / np.sum(f ** 2))
        cos = np.dot(f, q) / np.sqrt(np.dot(f, f) * np.dot(q, q))
        acc = result.accuracy["main"]
        assert acc.rel_l2 == pytest.approx(rel, rel=1e-3)
        assert acc.max_abs == pytest.approx(np.max(np.abs(q - f)), rel=1e-3)
        assert acc.cosine == pytest.approx(cos, abs=1e-6)
        assert 0 < rel < 0.1  # quantised: not exact, and not broken


def test_no_per_call_dispatch_reads_a_float_weight(quantized):
    for scheme, result in quantized.items():
        art = compile_model(result.mlir)
        params = result.parameters()
        per_call = sum(art.constant_read_bytes(d) * n for d, n in art.calls().items() if n)
        stored = sum(p.num_bytes for p in params.globals)
        float_weights = result.weight_bytes["float"]
        # Every per-call read of a constant is of what the archive stores (codes, scales, norms):
        # reading a float weight copy would exceed it by 4x (w8a8) or 8x (w4a8).
        assert 0 < per_call <= stored * 1.01, (scheme, per_call, stored)
        assert stored < float_weights / 3
        # And the contractions IREE forms read integer weights.
        kinds = {(p.lhs_type, p.rhs_type) for p in art.problems()
                 if getattr(p, "kind", "") == "contraction" and p.rhs_type != "f32"}
        assert kinds == ({("i8", "i8")} if scheme == "w8a8" else {("i8", "i4")})


def test_quantising_twice_or_without_weights_is_a_clear_error(quantized, tmp_path):
    w8 = quantized["w8a8"]
    with pytest.raises(InputError, match="already quantised"):
        quantize_model(w8.mlir, QuantOptions("w8a8"), parameters=w8.parameters(), output=tmp_path / "again",
                       measure_accuracy=False)
    with pytest.raises(InputError, match="nothing to quantise"):
        quantize_model(ROOT / "lit_tests/inputs/torch_gemma_mlp.mlir", QuantOptions("w8a8"), output=tmp_path / "args")
    assert not (tmp_path / "again").exists() and not (tmp_path / "args").exists()  # nothing half-written


def test_a_budget_no_scheme_meets_names_the_best_reached(tmp_path):
    with pytest.raises(InputError, match=r"no scheme meets the accuracy budget rel L2 <= 1e-09: the best reached"):
        quantize_model(ROOT / "lit_tests/quant/linear_transpose.mlir",
                       QuantOptions("w8a8", max_rel_l2=1e-9, min_weight_elements=1), output=tmp_path / "q")
    assert not (tmp_path / "q").exists()


def test_layer_budget_falls_back_and_awq_is_chosen_on_calibration(tmp_path):
    result = quantize_model(ROOT / "lit_tests/quant/linear_transpose.mlir",
                            QuantOptions("w4a8", method="awq", layer_error=0.02, min_weight_elements=1),
                            output=tmp_path / "q")
    site = result.sites[0]
    assert [t["form"] for t in site.tried][:3] == ["w4a8 G128 symmetric f32", "w4a8 G64 symmetric f32",
                                                   "w4a8 G32 symmetric f32"]
    assert site.form == "w8a8" and site.reason.startswith("fell back")
    assert site.alpha is not None and site.error <= 0.02


def test_the_expert_w8a8_figures_in_the_docs_reproduce(quantized):
    """docs/QUANT.md's row for the expert layer at w8a8 (`iree-dsa-tune quantize ... --scheme w8a8`)."""
    line = next(l for l in (ROOT / "docs/QUANT.md").read_text().splitlines() if l.startswith("| pi0 expert layer | w8a8 |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    acc = quantized["w8a8"].accuracy["main"]
    assert float(cells[3]) == pytest.approx(acc.rel_l2, rel=0.02)
    assert float(cells[4]) == pytest.approx(acc.max_abs, rel=0.05)
    assert float(cells[5]) == pytest.approx(acc.cosine, abs=2e-5)
    wb = quantized["w8a8"].weight_bytes
    assert cells[2] == f"{wb['float'] / 1e6:.1f} -> {wb['quantized'] / 1e6:.1f} MB"


@pytest.mark.slow
@pytest.mark.parametrize("row, model", [("| ACT (the whole policy: the action chunk) | w8a8", "act"),
                                        ("| Diffusion Policy encoder | w8a8", "diffusion_encoder"),
                                        ("| Diffusion Policy UNet | w8a8", "diffusion_unet")])
def test_whole_policy_rows_in_the_docs_reproduce(row, model, tmp_path):
    """docs/QUANT.md's ACT and Diffusion Policy rows (`iree-dsa-tune quantize ... --scheme w8a8`),
    their convolutions quantised."""
    line = next(l for l in (ROOT / "docs/QUANT.md").read_text().splitlines() if l.startswith(row))
    cells = [c.strip() for c in line.strip("|").split("|")]
    result = quantize_model(ROOT / f"lit_tests/inputs/lerobot/{model}.mlir", QuantOptions("w8a8"), output=tmp_path / "q")
    acc = result.accuracy["main"]
    assert float(cells[3]) == pytest.approx(acc.rel_l2, rel=0.1, abs=5e-5)
    assert float(cells[4]) == pytest.approx(acc.max_abs, rel=0.1)
    wb = result.weight_bytes
    assert cells[2] == f"{wb['float'] / 1e6:.1f} -> {wb['quantized'] / 1e6:.1f} MB"
    assert float(cells[5]) == pytest.approx(acc.cosine, abs=5e-5)
    assert any(s.form.startswith("w8a8") for s in result.sites if ".conv1." in s.name)


def _f32_constants(mlir: Path) -> set:
    """Every scalar f32 `arith.constant` of a model, read back by the MLIR bindings."""
    from iree.compiler import ir

    found = set()
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(mlir.read_text())

        def walk(op):
            if op.name == "arith.constant" and str(op.results[0].type) == "f32":
                found.add(np.float32(ir.FloatAttr(op.attributes["value"]).value))
            for region in op.regions:
                for block in region.blocks:
                    for child in block.operations:
                        walk(child.operation)

        walk(module.operation)
    return found


def test_static_activation_scales_leave_no_per_token_reduction(tmp_path):
    """With `activations = "static"` each layer's activation scale is the max |x| its calibration
    rows reached, written into the model as a constant: the per-token max |x| reductions leave
    the model (fewer dispatches per call), and the accuracy is measured on held-out inputs too."""
    from iree_dsa_tuner.quant.model import HELD_OUT_SEED, calibration_inputs

    mlp = ROOT / "lit_tests/inputs/torch_gemma_mlp.mlir"
    runs = {a: quantize_model(mlp, QuantOptions("w8a8", activations=a), weight_arguments=(1, 2, 3),
                              output=tmp_path / a) for a in ("token", "static")}
    static = runs["static"]
    assert [s.form for s in static.sites] == ["w8a8 static"] * 3
    # gate and up read the model's input: their constant is max |x| of the seeded calibration input,
    # recomputed here; down's reads silu(gate) * up, whatever its value, it is in the model's text.
    x = calibration_inputs({"gemma_mlp": [((1, 1, 256), "f32")]}, 0, 1)["gemma_mlp"][0][0]
    gate, up, down = static.sites
    assert gate.activation_amax == up.activation_amax == float(np.float32(np.abs(x).max()))
    assert {np.float32(s.activation_amax) for s in static.sites} <= _f32_constants(static.mlir)
    assert down.activation_amax > 0 and runs["token"].sites[0].activation_amax is None
    dispatches = {a: [d for d, n in compile_model(r.mlir).calls().items() if n] for a, r in runs.items()}
    per_token = [d for d in dispatches["token"] if "reduction" in d and d.endswith("_f32")]
    assert len(per_token) == 2  # one per distinct activation: the input (gate and up share it), down's
    assert not [d for d in dispatches["static"] if "reduction" in d]
    assert len(dispatches["static"]) < len(dispatches["token"])
    # Held out: the seeded calibration input and one seeded HELD_OUT_SEED apart, both run by IREE.
    assert HELD_OUT_SEED != 0 and 0 < static.accuracy["gemma_mlp"].rel_l2 < 0.05


def test_a_repeated_kv_head_is_read_through_the_map_with_the_same_numbers(tmp_path):
    """lit_tests/quant/gqa_broadcast.mlir (repeat_kv as torch exports it): the K broadcast that
    a transpose follows is folded into Q K^T (one K head read, 8 heads x 4 rows as one M), the V
    broadcast that only reshapes follow is left to IREE; both models, run by IREE on the same
    seeded inputs and parameters, give the same outputs, and no dispatch writes the 8 copies."""
    from iree.compiler import ir

    from iree_dsa_tuner.quant.layout_fold import fold_activation_broadcasts
    from iree_dsa_tuner.quant.model import calibration_inputs, input_form

    fixture = ROOT / "lit_tests/quant/gqa_broadcast.mlir"
    text, _ = input_form(fixture)
    with ir.Context():
        module = ir.Module.parse(text)
        folded = fold_activation_broadcasts(module)
        module.operation.verify()
        folded_text = module.operation.get_asm()
    assert [(f.operand, f.source_shape, f.operand_shape) for f in folded] == [(1, (1, 1, 6, 16), (8, 16, 6))]
    paths = {"exported": tmp_path / "exported.mlir", "folded": tmp_path / "folded.mlir"}
    paths["exported"].write_text(text)
    paths["folded"].write_text(folded_text)
    params = resolve_parameters(fixture, (), seed=0)
    types = {"main": ["f32"] * 3}
    inputs = calibration_inputs({"main": [((1, 8, 4, 16), "f32"), ((1, 1, 6, 16), "f32"), ((1, 1, 6, 16), "f32")]},
                                0, 2)
    outs = {k: run_functions(compile_for_host(p, tmp_path / "build"), params, inputs, types)["main"]
            for k, p in paths.items()}
    for want, got in zip(outs["exported"], outs["folded"]):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
    names = {k: [d for d, n in compile_model(p).calls().items() if n] for k, p in paths.items()}
    assert [d for d in names["exported"] if "broadcast" in d]
    assert not [d for d in names["folded"] if "broadcast" in d]
    assert any("32x6x16" in d for d in names["folded"])  # Q K^T: M = 8 heads x 4 rows


def test_eager_attention_raised_to_one_op_computes_the_same_numbers(tmp_path):
    """lit_tests/quant/eager_attention.mlir (pi0's Gemma attention as torch exports it: matmul,
    scale, mask, softmax, matmul, one KV head repeated): raised in f32 to one attention op whose
    K, V and mask are read through its maps, both models run by IREE on the same seeded inputs and
    parameters agree; no dispatch writes the scores, the softmax or the repeated heads."""
    from iree.compiler import ir

    from iree_dsa_tuner.quant.attention_fuse import fuse_attention_text
    from iree_dsa_tuner.quant.layout_fold import fold_attention_broadcasts
    from iree_dsa_tuner.quant.model import calibration_inputs, input_form

    fixture = ROOT / "lit_tests/quant/eager_attention.mlir"
    fused_torch, fused, converted = fuse_attention_text(fixture.read_text(), "f32")
    assert converted == 0 and [(f.query_shape, f.key_shape, f.masked, f.scale) for f in fused] == \
        [((1, 2, 8, 16), (1, 2, 8, 16), True, 0.25)]
    (tmp_path / "fused_torch.mlir").write_text(fused_torch)
    text, _ = input_form(tmp_path / "fused_torch.mlir")
    with ir.Context():
        module = ir.Module.parse(text)
        folded = fold_attention_broadcasts(module)
        module.operation.verify()
        folded_text = module.operation.get_asm()
    assert [(f.operand, f.source_shape) for f in folded] == [(1, (1, 8, 16)), (2, (1, 8, 16)), (4, (1, 1, 8, 8))]
    paths = {"exported": tmp_path / "exported.mlir", "fused": tmp_path / "fused.mlir"}
    paths["exported"].write_text(input_form(fixture)[0])
    paths["fused"].write_text(folded_text)
    params = resolve_parameters(fixture, (), seed=0)
    rng = np.random.default_rng(3)
    inputs = calibration_inputs({"main": [((1, 8, 32), "f32")]}, 0, 2)
    # A causal mask as lerobot builds it: 0 where a query may attend, a large negative elsewhere.
    mask = np.where(np.tril(np.ones((8, 8), bool)), 0.0, -2.3819763e38).astype(np.float32).reshape(1, 1, 8, 8)
    inputs = {"main": [[x[0], mask] for x in inputs["main"]] + [[rng.standard_normal((1, 8, 32)).astype(np.float32),
                                                                 np.zeros((1, 1, 8, 8), np.float32)]]}
    outs = {k: run_functions(compile_for_host(p, tmp_path / "build"), params, inputs, {"main": ["f32", "f32"]})["main"]
            for k, p in paths.items()}
    for want, got in zip(outs["exported"], outs["fused"]):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)
    names = {k: [d for d, n in compile_model(p).calls().items() if n] for k, p in paths.items()}
    assert [d for d in names["exported"] if "softmax" in d]
    assert not [d for d in names["fused"] if "softmax" in d or "broadcast" in d]
    assert [d for d in names["fused"] if "attention" in d] and len(names["fused"]) < len(names["exported"])


def test_an_eager_attention_whose_scores_are_used_elsewhere_is_left_alone():
    """Raising the chain would drop a value the model still reads (here: the scores returned)."""
    from iree_dsa_tuner.quant.attention_fuse import fuse_attention_text

    text = (ROOT / "lit_tests/quant/eager_attention.mlir").read_text()
    text = text.replace("-> !torch.vtensor<[1,8,32],f32> {", "-> (!torch.vtensor<[1,8,32],f32>, "
                        "!torch.vtensor<[1,2,8,8],f32>) {", 1)
    text = text.replace("return %y : !torch.vtensor<[1,8,32],f32>",
                        "return %y, %s_scaled : !torch.vtensor<[1,8,32],f32>, !torch.vtensor<[1,2,8,8],f32>")
    out, fused, converted = fuse_attention_text(text, "f32")
    assert fused == [] and converted == 0 and out == text


def test_attention_in_bf16_converts_before_the_repeat():
    """K and V are converted on their one head, before repeat_kv copies them: the converted
    tensors are 1x1x8x16, and the attention's output goes back to f32 for what follows."""
    from iree.compiler import ir

    from iree_dsa_tuner.quant.attention_fuse import fuse_attention_text

    out, fused, converted = fuse_attention_text((ROOT / "lit_tests/quant/eager_attention.mlir").read_text(), "bf16")
    assert len(fused) == 1 and converted == 1
    with ir.Context():
        module = ir.Module.parse(out)
        ops = [o.operation for f in module.body.operations if f.operation.name == "func.func"
               for o in f.operation.regions[0].blocks[0].operations]
    converts = [str(o.results[0].type) for o in ops if o.name == "torch.prims.convert_element_type"]
    assert converts.count("!torch.vtensor<[1,8,16],bf16>") == 2  # K and V, before view/transpose/expand
    assert "!torch.vtensor<[1,1,8,8],bf16>" in converts and "!torch.vtensor<[1,2,8,16],f32>" in converts
    sdpa = next(o for o in ops if o.name == "torch.aten.scaled_dot_product_attention")
    assert str(sdpa.results[0].type) == "!torch.vtensor<[1,2,8,16],bf16>"


def test_cpu_builds_keep_a_256_wide_attention_head_whole(tmp_path):
    """IREE 3.13's own CPU config steps a 256-wide head (pi0's Gemma attention) and computes wrong
    results; the quantiser's host builds (accuracy) and the `attention_spec.mlir` it writes keep
    the head whole, and then match a float64 numpy attention."""
    from iree_dsa_tuner.compiler import compile_to_vmfb, tuning_spec_flags
    from iree_dsa_tuner.quant.accuracy import whole_head_attention_spec

    b, m, keys, head = 2, 8, 24, 256
    model = tmp_path / "attention_h256.mlir"
    model.write_text(f"""
func.func @main(%q: tensor<{b}x{m}x{head}xf32>, %k: tensor<{keys}x{head}xf32>, %v: tensor<{keys}x{head}xf32>,
                %mask: tensor<{m}x{keys}xf32>) -> tensor<{b}x{m}x{head}xf32> {{
  %scale = arith.constant 0.0625 : f32
  %e = tensor.empty() : tensor<{b}x{m}x{head}xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>, affine_map<(b, m, n, k1, k2) -> (k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (k2, n)>, affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (m, k2)>, affine_map<(b, m, n, k1, k2) -> (b, m, n)>]>
      ins(%q, %k, %v, %scale, %mask : tensor<{b}x{m}x{head}xf32>, tensor<{keys}x{head}xf32>,
          tensor<{keys}x{head}xf32>, f32, tensor<{m}x{keys}xf32>)
      outs(%e : tensor<{b}x{m}x{head}xf32>) {{ ^bb0(%s: f32): iree_linalg_ext.yield %s : f32 }} -> tensor<{b}x{m}x{head}xf32>
  return %r : tensor<{b}x{m}x{head}xf32>
}}
""")
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s).astype(np.float32) for s in ((b, m, head), (keys, head), (keys, head)))
    mask = np.where(np.tril(np.ones((m, keys), bool), keys - m), 0.0, -1e30).astype(np.float32)
    s = np.einsum("bmk,nk->bmn", q.astype(np.float64), k.astype(np.float64)) * 0.0625 + mask
    p = np.exp(s - s.max(-1, keepdims=True))
    want = (p / p.sum(-1, keepdims=True)) @ v.astype(np.float64)
    inputs = {"main": [[q, k, v, mask]]}
    types = {"main": ["f32"] * 4}

    def rel(vmfb: Path) -> float:
        got = run_functions(vmfb, None, inputs, types)["main"][0][0]
        return float(np.linalg.norm(got - want) / np.linalg.norm(want))

    spec = whole_head_attention_spec(model)
    assert "vector_reduction = [0, 0, 0, 0, 4]" in spec  # k1 (the head): 0, whole; a 4-key step
    assert rel(compile_for_host(model, tmp_path / "build")) < 1e-5  # the quantiser's build, this CPU
    # The same on a pinned x86-64 part, with and without the spec: IREE's own config is why it exists.
    haswell = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
               "--iree-llvmcpu-target-cpu=haswell")
    (tmp_path / "spec.mlir").write_text(spec)
    compile_to_vmfb(model, tmp_path / "spec.vmfb", target_flags=haswell,
                    extra_flags=tuning_spec_flags(tmp_path / "spec.mlir"))
    assert rel(tmp_path / "spec.vmfb") < 1e-5
    compile_to_vmfb(model, tmp_path / "default.vmfb", target_flags=haswell)
    assert rel(tmp_path / "default.vmfb") > 0.01


# ---- the rewrites' memory safety ------------------------------------------------------------

_REWRITES = """
import sys
from pathlib import Path
from iree.compiler import ir
from iree_dsa_tuner.quant.attention_fuse import fuse_attention_text
from iree_dsa_tuner.quant.layout_fold import fold_activation_broadcasts, fold_attention_broadcasts
from iree_dsa_tuner.quant.model import input_form

root, out = Path(sys.argv[1]), Path(sys.argv[2])
for element in ("f32", "bf16"):
    fused, _, _ = fuse_attention_text((root / "lit_tests/inputs/lerobot/pi0_expert_layer.mlir").read_text(), element)
fused, _, _ = fuse_attention_text((root / "lit_tests/quant/eager_attention.mlir").read_text(), "f32")
(out / "fused.mlir").write_text(fused)
for source, fold in ((out / "fused.mlir", fold_attention_broadcasts),
                     (root / "lit_tests/quant/gqa_broadcast.mlir", fold_activation_broadcasts)):
    with ir.Context():
        module = ir.Module.parse(input_form(source)[0])
        fold(module)
        module.operation.verify()
print("done")
"""


@pytest.mark.slow
def test_the_ir_rewrites_never_read_an_erased_op(tmp_path):
    """The bindings give each lookup of an op a new handle, and erasing an op through one leaves
    the others dangling: reading one is a use-after-free that CI saw as a segfault in the
    quantiser. Under valgrind's memcheck, raising eager attention (pi0's expert layer in f32 and
    bf16, the eager-attention fixture) and folding broadcasts read no freed memory in MLIR."""
    import os
    import shutil
    import subprocess
    import sys

    valgrind = shutil.which("valgrind")
    assert valgrind, "valgrind is needed (Debian's valgrind package); .ci/run installs it"
    script = tmp_path / "rewrites.py"
    script.write_text(_REWRITES)
    run = subprocess.run([valgrind, "--num-callers=30", sys.executable, str(script), str(ROOT), str(tmp_path)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONMALLOC": "malloc"},
                         timeout=600)
    assert run.returncode == 0 and run.stdout.strip() == "done", run.stderr[-3000:]
    # One error report: a header line ("Invalid read of size 8") and its stack, up to a bare "==pid==" line.
    reports, current = [], None
    for line in run.stderr.splitlines():
        body = line.split("== ", 1)[1] if line.startswith("==") and "== " in line else ""
        if body.startswith(("Invalid read", "Invalid write", "Invalid free")):
            current = [body]
            reports.append(current)
        elif current is not None and body.strip():
            current.append(body)
        else:
            current = None
    in_mlir = [r for r in reports if any("libIREECompiler" in f or "mlir" in f.lower() for f in r)]
    assert not in_mlir, "\n".join(in_mlir[0])
