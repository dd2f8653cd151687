"""tools/gen_vla_basket.py: the reference models' dispatches at real sizes, as IREE sees them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import gen_vla_basket  # noqa: E402


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
