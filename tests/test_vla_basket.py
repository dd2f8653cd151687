"""tools/gen_vla_basket.py: the reference models' dispatches at real sizes, as IREE sees them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import gen_vla_basket  # noqa: E402
from conftest import load_tool


def test_basket_covers_every_reference_model_and_op_kind_with_60_distinct_dispatches():
    ops = gen_vla_basket.basket_ops()
    assert len(ops) >= 60
    assert len({op.name for op in ops}) == len(ops)
    assert {op.model for op in ops} == {"pi0", "openvla", "gr00t_dit", "diffusion_policy"}
    assert {op.kind for op in ops} == {"matmul", "attention", "conv2d", "conv1d"}
    names = {op.name for op in ops}
    # OpenVLA's decode GEMMs (M = 1, 4096 <-> 11008) and its KV-cache attention are in.
    assert {"matmul_1x11008x4096", "matmul_1x4096x11008", "attention_32x1x283x128"} <= names
    # SigLIP's 14x14 stride-14 patch embedding to 1152 channels.
    assert "conv2d_224x224x3_p14_1152" in names


def test_written_files_are_deterministic_and_indexed(tmp_path):
    first = gen_vla_basket.write_basket(tmp_path / "a")
    second = gen_vla_basket.write_basket(tmp_path / "b")
    assert [p.read_bytes() for p in first.values()] == [p.read_bytes() for p in second.values()]
    index = json.loads((tmp_path / "a" / "basket.json").read_text())
    assert len(index["ops"]) == len(first)
    decode = next(op for op in index["ops"] if op["name"] == "matmul_1x4096x11008")
    assert decode["flops"] == 2 * 4096 * 11008 and decode["model"] == "openvla"


def test_unknown_op_is_one_line_and_exit_2(capsys, tmp_path):
    assert gen_vla_basket.main([str(tmp_path), "--only", "matmul_nope"]) == 2
    assert "unknown op 'matmul_nope'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_iree_sees_each_kind_as_its_root_op(tmp_path):
    """One of each kind through real iree-compile: what discovery reports for it."""
    from iree_dsa_tuner.ir import load_problems

    wanted = ["matmul_50x1024x32", "attention_24x16x16x64", "conv1d_t4_1024x1024_k5"]
    written = gen_vla_basket.write_basket(tmp_path, [o for o in gen_vla_basket.basket_ops() if o.name in wanted])
    (matmul,) = load_problems(written["matmul_50x1024x32"])
    assert matmul.kind == "contraction" and matmul.sizes()["m"] == [50] and matmul.sizes()["k"] == [32]
    (attention,) = load_problems(written["attention_24x16x16x64"])
    assert attention.kind == "attention" and attention.sizes()["batch"] == [24]
    (conv,) = load_problems(written["conv1d_t4_1024x1024_k5"])
    # IREE 3.13 re-adds a batch-1 convolution's unit dimension while configuring it, so a spec
    # cannot set its config: discovery says so instead of offering a space.
    assert conv.kind == "none" and "unit dim" in conv.reason


# ---- the four types of issue 10: f32, bf16, i8 (w8a8), w4 (weight-only INT4) ----------------

def _op(name: str):
    return next(op for op in gen_vla_basket.basket_ops() if op.name == name)


def test_i8_gemms_and_convolutions_are_int8_into_i32_attention_stays_bf16():
    mm = gen_vla_basket.op_mlir(_op("matmul_1x4096x11008"), "i8")
    assert ("linalg.matmul ins(%a, %b : tensor<1x11008xi8>, tensor<11008x4096xi8>) "
            "outs(%f : tensor<1x4096xi32>) -> tensor<1x4096xi32>") in mm
    assert "%zero = arith.constant 0 : i32" in mm and "f32" not in mm and "bf16" not in mm
    conv = gen_vla_basket.op_mlir(_op("conv1d_t4_1024x1024_k5"), "i8")
    assert "ins(%x, %w : tensor<1x8x1024xi8>, tensor<5x1024x1024xi8>) outs(%f : tensor<1x4x1024xi32>)" in conv
    patch = gen_vla_basket.op_mlir(_op("conv2d_224x224x3_p14_1152"), "i8")
    assert "tensor<14x14x3x1152xi8>" in patch and "-> tensor<1x16x16x1152xi32>" in patch
    attention = _op("attention_32x1x283x128")
    assert gen_vla_basket.op_mlir(attention, "i8") == gen_vla_basket.op_mlir(attention, "bf16")
    assert gen_vla_basket.op_types(attention, "i8")["query"] == "bf16"


def test_w4_gemms_are_gen_int4_models_dequantise_then_contract_with_group_128():
    gen_int4_models = load_tool("gen_int4_models")
    op = _op("matmul_1x4096x11008")
    text = gen_vla_basket.op_mlir(op, "w4")
    # The same pattern tools/gen_int4_models.py writes (its function, not a copy), under the basket's comment.
    expected = gen_int4_models.model(1, 4096, 11008, 128, scale_type="f16", zero_point=False, layout="grouped",
                                     name="main")
    assert text.startswith("// openvla: Llama-2 decode mlp down (matmul,") and text.endswith(expected)
    assert "%w: tensor<4096x86x128xi4>, %scale: tensor<4096x86xf16>" in text
    assert "arith.extsi %q : i4 to i32" in text and "arith.sitofp %i : i32 to f32" in text
    assert "arith.mulf %f, %s32 : f32" in text and "%x: tensor<1x86x128xf32>" in text


def test_w4_group_is_128_else_the_largest_power_of_two_dividing_k():
    groups = {op.sizes["k"]: gen_vla_basket.w4_group(op.sizes["k"])
              for op in gen_vla_basket.basket_ops() if op.kind == "matmul"}
    assert groups[4096] == groups[11008] == groups[1152] == 128
    assert groups[32] == 32  # pi0's action in-projection: 32-dim actions
    assert groups[4304] == 16  # SigLIP's MLP down: 4304 = 16 x 269
    assert all(k % g == 0 for k, g in groups.items())
    with pytest.raises(ValueError, match="no INT4 group"):
        gen_vla_basket.w4_group(4100)


def test_w4_attention_and_convolutions_stay_bf16():
    for name in ("attention_16x256x256x72", "conv2d_224x224x3_p14_1152", "conv1d_t16_256x512_k5"):
        op = _op(name)
        assert gen_vla_basket.op_mlir(op, "w4") == gen_vla_basket.op_mlir(op, "bf16")
        assert "i4" not in gen_vla_basket.op_mlir(op, "w4")


def test_basket_json_records_each_ops_element_types(tmp_path):
    for element in gen_vla_basket.TYPES:
        gen_vla_basket.write_basket(tmp_path / element, element=element)
    index = {t: {op["name"]: op for op in json.loads((tmp_path / t / "basket.json").read_text())["ops"]}
             for t in gen_vla_basket.TYPES}
    assert json.loads((tmp_path / "i8" / "basket.json").read_text())["element_type"] == "i8"
    mm, conv, att = "matmul_50x1024x2048", "conv1d_t8_512x1024_k5", "attention_8x50x354x256"
    assert index["f32"][mm]["types"] == {"lhs": "f32", "rhs": "f32", "result": "f32"}
    assert index["bf16"][mm]["types"] == {"lhs": "bf16", "rhs": "bf16", "result": "f32"}
    assert index["i8"][mm]["types"] == {"lhs": "i8", "rhs": "i8", "result": "i32"}
    assert index["i8"][conv]["types"] == {"input": "i8", "filter": "i8", "result": "i32"}
    assert set(index["i8"][att]["types"].values()) == {"bf16"}
    assert index["w4"][mm]["types"] == {"lhs": "f32", "rhs": "i4", "rhs_scale": "f16", "rhs_dequantised": "f32",
                                       "result": "f32"}
    assert index["w4"][mm]["quantisation"] == {"weight": "i4", "signed": True, "group_size": 128,
                                               "scale_type": "f16", "zero_point": False, "layout": "grouped"}
    assert index["w4"][conv]["types"] == index["bf16"][conv]["types"]
    assert set(index["w4"][att]["types"].values()) == {"bf16"}
    assert all("quantisation" not in op for t in ("f32", "bf16", "i8") for op in index[t].values())
    # Every type names the same 61 ops, with the same files.
    assert len({tuple(ops) for ops in index.values()}) == 1


@pytest.mark.parametrize("element", ["i8", "w4"])
def test_new_types_are_deterministic_through_the_command_line(tmp_path, element):
    for run in ("a", "b"):
        assert gen_vla_basket.main([str(tmp_path / run), "--type", element]) == 0
    first = sorted((tmp_path / "a").iterdir())
    assert len(first) == len(gen_vla_basket.basket_ops()) + 1
    assert all(p.read_bytes() == (tmp_path / "b" / p.name).read_bytes() for p in first)


def test_unknown_type_is_refused():
    with pytest.raises(ValueError, match="unknown basket type 'fp8'"):
        gen_vla_basket.op_mlir(_op("matmul_50x1024x32"), "fp8")
    with pytest.raises(SystemExit):
        gen_vla_basket.main(["/nonexistent", "--type", "fp8"])


@pytest.mark.slow
def test_iree_sees_a_w4_gemm_as_an_i4_weight_contraction(tmp_path):
    """One small compile: the w4 action in-projection (K = 32, one group) is a contraction whose
    weight discovery traces to the i4 dequantisation (split form under the default flags)."""
    from iree_dsa_tuner.ir import load_problems

    written = gen_vla_basket.write_basket(tmp_path, [_op("matmul_50x1024x32")], "w4")
    (gemm,) = [p for p in load_problems(written["matmul_50x1024x32"]) if p.kind == "contraction"]
    assert gemm.sizes()["m"] == [50] and gemm.sizes()["k"] == [32]
    assert gemm.weight_quant.element_type == "i4" and gemm.weight_quant.group_size == 32
    assert gemm.weight_quant.form == "split"
