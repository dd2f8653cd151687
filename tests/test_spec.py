"""Spec building, linking and verification against real iree-compile."""

from __future__ import annotations


import numpy as np
import pytest

from iree_dsa_tuner import build_spec, load_problems, verify_spec
from iree_dsa_tuner.tuning_spec import CompilationConfig, ConfigError, SpecError, link_spec_texts
from iree_dsa_tuner.tuning_spec.numerics import _compare
from iree_dsa_tuner.tuning_spec.reading import read_spec

from conftest import cpu_target, matmul_model, write_model

# Every build here is for an AVX2 part (haswell: every x86-64 runner executes it), not this machine's CPU.
HASWELL = cpu_target("avx2").compile_flags

MLP3_PLAN = {
    "mlp3_dispatch_0_matmul_8x512x256_f32": {"distribution": [8, 64, 0], "vector_common_parallel": [8, 32, 0], "vector_reduction": [0, 0, 4]},
    "mlp3_dispatch_1_matmul_8x256x512_f32": {"distribution": [8, 32, 0], "vector_common_parallel": [4, 32, 0], "vector_reduction": [0, 0, 8]},
    "mlp3_dispatch_2_matmul_8x128x256_f32": {"distribution": [4, 64, 0], "vector_common_parallel": [4, 16, 0], "vector_reduction": [0, 0, 16],
                                             "extra": {"iree_dsa.dma_stages": 2}},
}


@pytest.fixture(scope="module")
def mlp3(tmp_path_factory):
    from conftest import INPUTS

    model = INPUTS / "mlp3.mlir"
    problems = load_problems(model, HASWELL)
    spec = tmp_path_factory.mktemp("spec") / "spec.mlir"
    spec.write_text(build_spec(problems, MLP3_PLAN))
    return model, problems, spec


def test_spec_is_deterministic_and_has_one_matcher_per_dispatch(mlp3):
    model, problems, spec = mlp3
    again = build_spec(problems, dict(reversed(list(MLP3_PLAN.items()))))
    assert again == spec.read_text()
    matchers = read_spec(spec)
    assert [m.name for m in matchers] == ["match_" + d for d in MLP3_PLAN]
    assert spec.read_text().count("transform.foreach_match") == 1


def test_every_op_applied_and_numerics_match(mlp3):
    model, _, spec = mlp3
    report = verify_spec(model, spec, target_flags=HASWELL)
    assert [v.status for v in report.ops] == ["applied"] * 3
    assert report.numerics and all(n.ok for n in report.numerics)
    assert report.ok


def test_hand_edited_dim_is_exactly_one_not_applied(mlp3, tmp_path):
    model, _, spec = mlp3
    text = spec.read_text()
    marker = "match_mlp3_dispatch_1_matmul_8x256x512_f32"
    head, tail = text.split(marker, 1)
    edited = head + marker + tail.replace("%n_dims, [256]", "%n_dims, [255]", 1)
    bad = tmp_path / "bad.mlir"
    bad.write_text(edited)
    report = verify_spec(model, bad, check_numerics=False, target_flags=HASWELL)
    statuses = {v.dispatch: v.status for v in report.ops}
    assert list(statuses.values()).count("not-applied") == 1
    assert statuses["mlp3_dispatch_1_matmul_8x256x512_f32"] == "not-applied"
    assert not report.ok


def test_dsa_knobs_survive_in_translation_info(mlp3):
    model, _, spec = mlp3
    report = verify_spec(model, spec, check_numerics=False, target_flags=HASWELL)
    last = report.ops[2]
    assert last.status == "applied"  # translation_info compared too, knobs included


def test_link_two_specs_keeps_both_matchers(tmp_path):
    a = write_model(tmp_path, "a.mlir", matmul_model(4, 64, 32, name="a"))
    b = write_model(tmp_path, "b.mlir", matmul_model(8, 32, 64, name="b"))
    pa, pb = load_problems(a, HASWELL), load_problems(b, HASWELL)
    cfg = lambda m, n: {"distribution": [m, n, 0], "vector_common_parallel": [m, 16, 0], "vector_reduction": [0, 0, 8]}
    sa = build_spec(pa, {pa[0].dispatch: cfg(4, 32)})
    sb = build_spec(pb, {pb[0].dispatch: cfg(8, 16)})
    linked = link_spec_texts([("a", sa), ("b", sb)])
    path = tmp_path / "linked.mlir"
    path.write_text(linked)
    assert len(read_spec(path)) == 2
    assert verify_spec(a, path, check_numerics=False, target_flags=HASWELL).ops[0].status == "applied"
    assert any(v.status == "applied" and v.dispatch == pb[0].dispatch for v in verify_spec(b, path, check_numerics=False, target_flags=HASWELL).ops)


def test_config_legality_is_checked_before_iree(mlp3):
    _, problems, _ = mlp3
    short = {problems[0].dispatch: {"distribution": [8, 64], "vector_common_parallel": [8, 32, 0], "vector_reduction": [0, 0, 4]}}
    with pytest.raises(SpecError, match="2 entries but the op has 3 loops"):
        build_spec(problems, short)
    reduction_in_parallel = {problems[0].dispatch: {"distribution": [8, 64, 0], "vector_common_parallel": [8, 32, 4], "vector_reduction": [0, 0, 4]}}
    with pytest.raises(SpecError, match="tiles reduction loop"):
        build_spec(problems, reduction_in_parallel)
    with pytest.raises(SpecError, match="does not have"):
        build_spec(problems, {"no_such_dispatch": MLP3_PLAN[problems[0].dispatch]})
    with pytest.raises(ConfigError, match="unknown pipeline"):
        CompilationConfig.from_json({"pipeline": "CPUDoubleTilingExpert", **{k: [0] for k in ("distribution", "vector_common_parallel", "vector_reduction")}})


def test_compile_failure_is_reported_as_failed(tmp_path):
    model = write_model(tmp_path, "mm.mlir", matmul_model(64, 256, 256))
    (p,) = load_problems(model, HASWELL)
    # Vector tiles this large are rejected by llvm-cpu ("large vector sizes").
    spec = tmp_path / "huge.mlir"
    spec.write_text(build_spec([p], {p.dispatch: {"distribution": [64, 256, 0], "vector_common_parallel": [64, 256, 0], "vector_reduction": [0, 0, 256]}}))
    report = verify_spec(model, spec, check_numerics=False, target_flags=HASWELL)
    assert report.ops[0].status == "failed"
    assert report.compile_error and not report.ok


def test_numerics_comparison_can_fail():
    ref = np.linspace(-1, 1, 64, dtype=np.float32)
    assert _compare("f", 0, "f32", ref + 1e-6, ref).ok
    assert not _compare("f", 0, "f32", ref + 1e-2, ref).ok
    ints = np.arange(16, dtype=np.int32)
    assert _compare("f", 0, "i32", ints.copy(), ints).ok
    off = ints.copy()
    off[3] += 1
    assert not _compare("f", 0, "i32", off, ints).ok


def test_int8_model_numerics_exact(inputs, tmp_path):
    (p,) = load_problems(inputs / "int8_gemm.mlir", HASWELL)
    spec = tmp_path / "s.mlir"
    spec.write_text(build_spec([p], {p.dispatch: {"distribution": [16, 64, 0], "vector_common_parallel": [8, 32, 0], "vector_reduction": [0, 0, 8]}}))
    report = verify_spec(inputs / "int8_gemm.mlir", spec, target_flags=HASWELL)
    assert report.ok
    assert all(n.element_type == "i32" and n.max_error == 0 for n in report.numerics)


def test_a_build_timed_with_the_spec_is_verified_without_building_again(mlp3, tmp_path, monkeypatch):
    # The recipe's spec was built into the variant the tune timed: its dumped configurations and
    # vmfb are what verification reads (ACT's tune spent 39 s of its 300 s building it again).
    from iree_dsa_tuner.ir import compile_model
    from iree_dsa_tuner.host.whole_model import Variant, WholeModelTimer
    from iree_dsa_tuner.tuning_spec import verify as verify_module

    model, _, spec = mlp3
    flags = HASWELL
    timer = WholeModelTimer(model, flags, {"mlp3": []}, work_dir=tmp_path)  # built, not timed
    timed = timer.compile(Variant("with-spec", spec=spec))
    assert timed.vmfb.exists() and any(timed.configurations.glob("*.mlir"))

    def no_compile(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(verify_module, "compile_to_vmfb", no_compile)
    report = verify_spec(model, spec, target_flags=flags, artifacts=compile_model(model, flags), built=(timed.vmfb, timed.configurations))
    assert [v.status for v in report.ops] == ["applied"] * 3
    assert report.numerics and all(n.ok for n in report.numerics)
