"""L2's compile-flag proposals (task/stage_flags.py) on a real torch export, quantised: a stage
rebuilt under IREE's aggressive fusion has fewer dispatches, a shorter chunk on dsa-e1, and is
kept, stored with its spec and rebuilt on reuse; a variant that does not compile, or changes
nothing, is reverted with why; a build that computes other numbers fails the gate."""

from __future__ import annotations

from pathlib import Path

import pytest

import iree_dsa_tuner.task.stage_flags as stage_flags
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task
from iree_dsa_tuner.tuning_spec.verify import check_build, verify_spec

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "lit_tests/inputs/manifests/torch_expert_quantized.toml"
FUSION = "--iree-dispatch-creation-enable-aggressive-fusion=true"


def flag_round(result, stage: str) -> dict:
    assert all(r["op_class"] != stage_flags.OP_CLASS for r in result.l2["rounds"])  # dispatches only
    (rnd,) = [r for r in result.l2["builds"] if r["stage"] == stage]
    return rnd


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """`task --l2 on` on torch_expert (w8a8) into an empty library, then again on that library.
    The first variant is not an iree-compile flag; the second is IREE's aggressive fusion."""
    library = tmp_path_factory.mktemp("library")
    manifest = load_manifest(MANIFEST)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stage_flags, "FLAG_VARIANTS", (("--iree-not-a-flag=1",), (FUSION,), (FUSION,)))
        first = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), budget_ms=0.0, library=library,
                         l2="on")
        again = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), budget_ms=0.0, library=library,
                         l2="on")
    return first, again


def test_fusion_that_shortens_the_chunk_is_kept_and_stored_with_the_stage_spec(runs):
    first, _ = runs
    assert first.build_flags == {"mlp": [FUSION]}
    rnd = flag_round(first, "mlp")
    bad, fused, same = rnd["proposals"]
    assert bad["status"] == "reverted" and bad["reason"].startswith("compile: ")
    assert fused["status"] == "kept" and fused["reason"].endswith("numerics checked")
    assert same["status"] == "reverted" and same["reason"] == "changes no dispatch of the stage"
    assert rnd["chunk_after_ms"] < rnd["chunk_before_ms"]
    # The chunk holds the fused build: the MLP's quantised matvecs, fewer dispatch calls.
    mlp = [a for a in first.after.amdahl if a["stage"] == "mlp"]
    assert sum(a["calls"] for a in mlp) < 7
    spec_set = first.spec_set
    assert spec_set.flags == {"mlp": [FUSION]}
    spec = spec_set.directory / "mlp.spec.mlir"
    assert f"// compile this stage with: {FUSION}" in spec.read_text()


def test_the_stored_spec_applies_to_the_fused_build_in_real_iree_compile(runs):
    first, _ = runs
    mlir = Path(first.quantization["mlp"]["mlir"])
    flags = get_target("dsa-e1").compile_flags + (FUSION,)
    report = verify_spec(mlir, first.spec_set.directory / "mlp.spec.mlir", target_flags=flags, check_numerics=False)
    assert report.ops and all(v.status == Status.APPLIED for v in report.ops)


def test_a_re_run_rebuilds_the_stage_with_its_flags_and_reuses_the_set(runs):
    first, again = runs
    assert again.reused and again.build_flags == first.build_flags
    assert again.after.chunk_ms == pytest.approx(first.after.chunk_ms)


def test_a_build_that_computes_other_numbers_fails_the_gate():
    """Every f32 demoted to f16 is a real flag that changes what the model computes (its
    arguments too: the build no longer takes the model's f32 inputs)."""
    target = get_target("dsa-e1")
    model = ROOT / "lit_tests/inputs/gemma_mlp_b1.mlir"
    base = compile_model(model, target.compile_flags)
    same = check_build(compile_model(model, target.compile_flags + (FUSION,)), base)
    assert same.status == Status.VERIFIED
    demoted = check_build(compile_model(model, target.compile_flags + ("--iree-input-demote-f32-to-f16",)), base)
    assert demoted.status == Status.WRONG_NUMERICS and "expected f16" in demoted.reason
