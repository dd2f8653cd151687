"""verify's reference is numpy, never IREE's default build, and a failure always says what failed.

IREE 3.13's own attention config for a 256-wide head steps the head and computes wrong
results (docs/ATTENTION.md); with IREE's default build as the reference, a correct config
was rejected ("outside tolerance", max error 1.23) and the wrong one would have passed. The
models here put a torch-style RMSNorm (`math.fpowi`) in front of such an attention. Code that
runs is compiled for haswell (dsa-e1's llvm-cpu path), the same on every x86-64 host.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.ir.artifacts import ModelArtifacts
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.tuning_spec.builder import build_spec
from iree_dsa_tuner.tuning_spec.dispatch_alone import DispatchCheck, check_dispatches_alone, standalone_module
from iree_dsa_tuner.tuning_spec.numerics import NumericsResult
from iree_dsa_tuner.tuning_spec.reading import canonical_attr
from iree_dsa_tuner.tuning_spec.reference import NumpyModel
from iree_dsa_tuner.tuning_spec.verify import (
    OpVerdict,
    VerifyReport,
    build_verified,
    check_config,
    failure_reasons,
    verify_spec,
)

from conftest import INPUTS

FLAGS = get_target("dsa-e1").compile_flags  # llvm-cpu pinned to haswell
ATTENTION = "rmsnorm_attention_dispatch_1_attention_8x50x256x64x256"
ATTENTION_SOFTMAX = "rmsnorm_attention_softmax_dispatch_1_attention_8x50x256x64x256"
WHOLE_HEAD = CompilationConfig.from_json({
    "pipeline": "LinalgExtTileAndVectorize", "distribution": [1, 25, 0, 0, 32],
    "vector_common_parallel": [1, 1, 0, 0, 16], "vector_reduction": [0, 0, 0, 4, 0]})


# ---- reasons (no compile) -------------------------------------------------------------------

def test_a_float_mismatch_describes_the_output_the_error_and_the_tolerance():
    n = NumericsResult("rmsnorm_attention", 0, "f32", False, 0.1234, 1e-4, "outside tolerance", "numpy")
    assert n.describe() == ("@rmsnorm_attention output 0 (f32): normwise error 0.123 above tolerance 0.0001 "
                            "vs numpy")
    alone = NumericsResult(ATTENTION, 0, "f32", False, 0.12, 1e-4, "outside tolerance", "numpy-root-op",
                           dispatch=ATTENTION)
    assert alone.describe().startswith(f"dispatch {ATTENTION} alone output 0 (f32): normwise error 0.12")
    ints = NumericsResult("int8_gemm", 1, "i32", False, 3.0, 0.0, "integer results differ", "numpy")
    assert "max difference 3" in ints.describe() and "integer results differ" in ints.describe()
    crashed = NumericsResult("f", -1, "", False, math.nan, 0.0, "tuned module failed to run: boom")
    assert crashed.describe() == "@f: tuned module failed to run: boom"


def _report(numerics, verdicts=None) -> VerifyReport:
    verdicts = verdicts or [OpVerdict("d0", "match_d0", Status.APPLIED), OpVerdict("d1", "match_d1", Status.APPLIED)]
    return VerifyReport("model.mlir", "spec.mlir", ops=verdicts, numerics=numerics)


def test_failure_reasons_are_never_empty_for_an_applied_config_whose_function_differs():
    """The old note "failed verification ()": the op applied (its verdict has no reason) and the
    whole function differed."""
    mismatch = NumericsResult("f", 0, "f32", False, 1.23, 1e-4, "outside tolerance", "numpy")
    reasons = failure_reasons(_report([mismatch]), {"d0", "d1"})
    assert set(reasons) == {"d0", "d1"}  # a whole-function mismatch cannot be pinned on one op
    assert reasons["d0"] == "numerics: @f output 0 (f32): normwise error 1.23 above tolerance 0.0001 vs numpy"


def test_a_dispatch_checked_alone_blames_itself_and_its_twins_only():
    verdicts = [OpVerdict("d0", "match_a", Status.APPLIED), OpVerdict("d1", "match_b", Status.APPLIED),
                OpVerdict("d2", "match_a", Status.APPLIED)]
    bad = NumericsResult("d0", 0, "f32", False, 0.5, 1e-4, "outside tolerance", "numpy-root-op", dispatch="d0")
    good = NumericsResult("d1", 0, "f32", True, 1e-7, 1e-4, "", "numpy-root-op", dispatch="d1")
    reasons = failure_reasons(_report([bad, good], verdicts), {"d0", "d1", "d2"})
    assert set(reasons) == {"d0", "d2"}
    assert "dispatch d0 alone output 0 (f32): normwise error 0.5" in reasons["d2"]


def test_a_config_not_applied_keeps_its_reason_or_gets_one():
    verdicts = [OpVerdict("d0", "m0", Status.NOT_APPLIED, "IREE kept its default config"),
                OpVerdict("d1", "m1", Status.FAILED, "")]
    reasons = failure_reasons(_report([], verdicts), {"d0", "d1"})
    assert reasons["d0"] == "IREE kept its default config"
    assert reasons["d1"].startswith("failed") and reasons["d1"].strip()


def test_no_output_compared_is_a_failure_that_says_why():
    report = _report([NumericsResult.not_checked("f", "the numpy reference cannot evaluate it (x)")])
    assert not report.ok


# ---- the standalone root op (one compile of the model, cached) ----------------------------------

def test_the_attention_alone_takes_its_loaded_operands_as_arguments_and_copies_its_scale():
    artifacts = compile_model(INPUTS / "rmsnorm_attention_h256.mlir", FLAGS)
    check = DispatchCheck(ATTENTION, artifacts.source_files[ATTENTION], "", "")
    text, functions, refused = standalone_module([check])
    assert refused == {} and functions == {"check_0": [ATTENTION]}
    header = next(line for line in text.splitlines() if "func.func" in line)
    # q (the RMSNorm's output, loaded from a binding), k, v: arguments; the scale and the
    # output's tensor.empty are copied; nothing of the dispatch's bindings is left.
    assert header.count("tensor<8x50x256xf32>") == 2 and header.count("tensor<8x64x256xf32>") == 2
    assert "arith.constant 6.250000e-02 : f32" in text and "tensor.empty()" in text
    assert "iree_linalg_ext.attention" in text and "dispatch.tensor" not in text and "hal." not in text


# A dequantising contraction as IREE configures it (the int4 weight's dequantisation folded into
# the matmul's body), its zero point an `arith.constant` hoisted out of the body.
HOISTED_CONSTANT_SOURCE = """
hal.executable public @ex {
  hal.executable.variant public @v target(<"llvm-cpu", "embedded-elf-x86_64">) {
    builtin.module {
      func.func @ex_dispatch_0_matmul_4x4x8_f32(%a: tensor<4x8xf32>, %w: tensor<8x4xi4>, %s: tensor<4xf32>) -> tensor<4x4xf32> {
        %zero = arith.constant 0.0 : f32
        %c8 = arith.constant 8.0 : f32
        %e = tensor.empty() : tensor<4x4xf32>
        %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>,
                                              affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel", "reduction"]}
            ins(%a, %w, %s : tensor<4x8xf32>, tensor<8x4xi4>, tensor<4xf32>) outs(%acc : tensor<4x4xf32>) {
        ^bb0(%x: f32, %q: i4, %sc: f32, %o: f32):
          %qi = arith.extui %q : i4 to i32
          %qf = arith.uitofp %qi : i32 to f32
          %d = arith.subf %qf, %c8 : f32
          %wf = arith.mulf %d, %sc : f32
          %m = arith.mulf %x, %wf : f32
          %n = arith.addf %o, %m : f32
          linalg.yield %n : f32
        } -> tensor<4x4xf32>
        return %r : tensor<4x4xf32>
      }
    }
  }
}
"""


def test_a_body_constant_hoisted_out_of_the_root_op_is_copied_with_it(tmp_path):
    source = tmp_path / "dispatch.mlir"
    source.write_text(HOISTED_CONSTANT_SOURCE)
    text, functions, refused = standalone_module([DispatchCheck("ex_dispatch_0_matmul_4x4x8_f32", str(source), "", "")])
    assert refused == {} and functions == {"check_0": ["ex_dispatch_0_matmul_4x4x8_f32"]}
    assert "arith.constant 8.000000e+00 : f32" in text
    rng = np.random.default_rng(6)
    a, w, s = rng.uniform(-1, 1, (4, 8)), rng.integers(-8, 8, (8, 4)), rng.uniform(0, 1, 4)
    (out,) = NumpyModel(text)("check_0", a, w, s)
    # extui reads the signless i4 as unsigned: -8..-1 are 8..15.
    np.testing.assert_allclose(out, a @ ((np.mod(w, 16) - 8) * s), rtol=1e-5, atol=1e-5)


# ---- end to end (iree-compile, iree.runtime) -------------------------------------------------

def _problem(artifacts, symbol):
    return next(p for p in artifacts.problems() if p.dispatch == symbol)


@pytest.fixture
def no_default_build(monkeypatch):
    """IREE's default build is never made, let alone compared with."""
    def refuse(self, timeout_s=300.0):
        raise AssertionError("verify asked for IREE's default build")

    monkeypatch.setattr(ModelArtifacts, "default_vmfb", refuse)


@pytest.mark.slow
def test_iree_default_head_step_is_dropped_with_a_reason_and_a_whole_head_is_verified(no_default_build):
    artifacts = compile_model(INPUTS / "rmsnorm_attention_h256.mlir", FLAGS)
    problem = _problem(artifacts, ATTENTION)
    iree_default = artifacts.default_configs()[ATTENTION]
    assert iree_default.vector_reduction[2] not in (0, 256)  # IREE steps the 256-wide head

    stepped = build_verified(artifacts, [problem], {ATTENTION: iree_default})
    assert stepped.text == ""
    why = stepped.dropped[ATTENTION]
    # IREE's own build (no spec) is as wrong on the function, so numpy cannot judge the spec on
    # it as a whole; the spec's attention, checked alone against numpy, is what fails.
    assert why.startswith(f"numerics: dispatch {ATTENTION} alone output 0 (f32): normwise error ")
    assert "above tolerance 0.0001 vs numpy-root-op" in why
    (whole,) = [n for n in stepped.report.numerics if not n.dispatch]
    assert not whole.checked and "IREE's build without the spec is off by " in whole.detail
    verdict = check_config(artifacts, problem, iree_default)
    assert verdict.status == Status.WRONG_NUMERICS and "above tolerance" in verdict.reason

    whole = build_verified(artifacts, [problem], {ATTENTION: WHOLE_HEAD})
    assert whole.text and whole.dropped == {}
    assert [(n.function, n.checked, n.ok, n.reference) for n in whole.report.numerics] == \
        [("rmsnorm_attention", True, True, "numpy")]


@pytest.mark.slow
def test_a_function_numpy_cannot_evaluate_has_its_tuned_dispatch_checked_alone(no_default_build):
    artifacts = compile_model(INPUTS / "rmsnorm_attention_softmax_h256.mlir", FLAGS)
    problem = _problem(artifacts, ATTENTION_SOFTMAX)
    stepped = build_verified(artifacts, [problem], {ATTENTION_SOFTMAX: artifacts.default_configs()[ATTENTION_SOFTMAX]})
    assert stepped.text == ""
    assert stepped.dropped[ATTENTION_SOFTMAX].startswith(
        f"numerics: dispatch {ATTENTION_SOFTMAX} alone output 0 (f32): normwise error ")

    whole = build_verified(artifacts, [problem], {ATTENTION_SOFTMAX: WHOLE_HEAD})
    assert whole.text and whole.dropped == {}
    function, alone = whole.report.numerics
    assert not function.checked and "iree_linalg_ext.scan" in function.detail
    assert (alone.dispatch, alone.checked, alone.ok, alone.reference) == \
        (ATTENTION_SOFTMAX, True, True, "numpy-root-op")
    assert alone.max_error < 1e-5


def _conv_and_matmul_checks(tmp_path) -> tuple[list[DispatchCheck], str]:
    """IREE's own configs for a windowed conv's and a fill+matmul's dispatches, and their spec."""
    checks, problems, configs = [], [], {}
    for model in ("temporal_conv1d.mlir", "mlp3.mlir"):
        artifacts = compile_model(INPUTS / model, FLAGS)
        defaults = artifacts.default_configs()
        problem = next(p for p in artifacts.problems() if p.dispatch in defaults and getattr(p, "kind", "") in
                       ("convolution", "contraction"))
        config = defaults[problem.dispatch]
        problems.append(problem)
        configs[problem.dispatch] = config
        checks.append(DispatchCheck(problem.dispatch, artifacts.source_files[problem.dispatch],
                                    canonical_attr(config.lowering_config_text()),
                                    canonical_attr(config.translation_info_text())))
    spec = tmp_path / "spec.mlir"
    spec.write_text(build_spec(problems, configs))
    return checks, str(spec)


@pytest.mark.slow
def test_convolution_and_contraction_root_ops_alone_match_their_numpy_models(tmp_path):
    """IREE's own configs run alone: the numpy models of a windowed conv and a fill+matmul agree."""
    checks, spec = _conv_and_matmul_checks(tmp_path)
    results = check_dispatches_alone(checks, spec, FLAGS)
    assert [(r.dispatch, r.checked, r.ok, r.reference) for r in results] == \
        [(c.dispatch, True, True, "numpy-root-op") for c in checks]


@pytest.mark.slow
def test_a_root_op_that_does_not_build_alone_costs_only_its_own_check(tmp_path, monkeypatch):
    """ACT's inner_tiled GEMMs do not build alone under their recipe's flags; built in one module
    with its elementwise roots, they took those checks down too. Here the conv's root op fails."""
    import iree_dsa_tuner.tuning_spec.dispatch_alone as dispatch_alone
    from iree_dsa_tuner.errors import CompileError

    real = dispatch_alone.compile_to_vmfb

    def failing_on_check_0(source, *args, **kwargs):
        if "@check_0(" in source.read_text():
            raise CompileError("write affecting operations on global resources (simulated)")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(dispatch_alone, "compile_to_vmfb", failing_on_check_0)
    checks, spec = _conv_and_matmul_checks(tmp_path)
    failed, checked = check_dispatches_alone(checks, spec, FLAGS)
    assert (failed.dispatch, failed.checked) == (checks[0].dispatch, False)
    assert failed.detail.startswith("compiling its root op alone failed: write affecting")
    assert (checked.dispatch, checked.checked, checked.ok, checked.reference) == \
        (checks[1].dispatch, True, True, "numpy-root-op")


@pytest.mark.slow
def test_verify_on_a_model_numpy_evaluates_never_checks_alone(tmp_path, no_default_build):
    artifacts = compile_model(INPUTS / "rmsnorm_attention_h256.mlir", FLAGS)
    spec = tmp_path / "spec.mlir"
    spec.write_text(build_spec([_problem(artifacts, ATTENTION)], {ATTENTION: WHOLE_HEAD}))
    report = verify_spec(artifacts.model, spec, artifacts=artifacts)
    assert report.ok and all(not n.dispatch for n in report.numerics)


@pytest.mark.slow
def test_tunes_note_for_a_winner_that_fails_names_what_failed(no_default_build):
    """The note that used to read "failed verification ()"."""
    from iree_dsa_tuner.pipeline import TuneResult, _verify
    from iree_dsa_tuner.search.results import DispatchResult

    artifacts = compile_model(INPUTS / "rmsnorm_attention_h256.mlir", FLAGS)
    problem = _problem(artifacts, ATTENTION)
    result = TuneResult(str(artifacts.model), "dsa-e1", "pruned")
    result.dispatches = [DispatchResult(ATTENTION, "attention", default_us=100.0, best_us=36.0, chosen="tuned",
                                        best_config=artifacts.default_configs()[ATTENTION])]
    _verify(artifacts, [problem], result, get_target("dsa-e1"), None)
    (d,) = result.dispatches
    assert d.chosen == "default"
    assert d.note.startswith(f"tuned config failed verification (numerics: dispatch {ATTENTION} alone output 0 "
                             "(f32): normwise error ")
    assert "above tolerance 0.0001 vs numpy-root-op)" in d.note and "()" not in d.note
    assert result.verify_notes == [f"{ATTENTION}: {d.note}"]


@pytest.mark.slow
def test_a_winner_that_really_miscomputes_gives_way_to_the_next_best_verified_config(no_default_build):
    """The real fallback path, no fakes: the search's winner is a config that computes wrong results
    (IREE's own head-stepping attention config, made to look fastest), its runner-up trials are the
    real search's whole-head configs. Verification drops the winner with the reason, checks the
    next-best trial alone with real iree-compile and numpy, and keeps it."""
    from iree_dsa_tuner.pipeline import _verify, tune
    from iree_dsa_tuner.search.options import TuneOptions

    target = get_target("dsa-e1")
    artifacts = compile_model(INPUTS / "rmsnorm_attention_h256.mlir", FLAGS)
    searched = tune(artifacts, target, TuneOptions(budget=4), verify=False)
    (d,) = [r for r in searched.dispatches if r.dispatch == ATTENTION]
    runner_up = sorted((t for t in d.trials if t.time_us is not None), key=lambda t: t.time_us)[0]
    assert runner_up.config is not None and runner_up.time_us < d.default_us
    bad = artifacts.default_configs()[ATTENTION]  # steps the 256-wide head: wrong numbers
    d.best_config, d.best_us, d.chosen = bad, runner_up.time_us / 2, "tuned"

    _verify(artifacts, artifacts.problems(), searched, target, None)
    assert d.chosen == "tuned" and d.best_config == runner_up.config and d.best_us == runner_up.time_us
    assert d.verify_failure.startswith(f"numerics: dispatch {ATTENTION} alone output 0 (f32): normwise error ")
    assert d.note.startswith("winner failed verification (numerics: ") and \
        d.note.endswith("the next-best verified config replaces it")
    assert searched.spec_text and searched.verify_notes == [f"{ATTENTION}: {d.note}"]


def test_a_spec_on_another_dispatch_is_judged_alone_where_iree_itself_is_off():
    """IREE's own attention on a 256-wide head is off against numpy, spec or not: the function
    says nothing of a spec that configures only the projection after it. The function is
    reported not judged, with both errors; the projection, checked alone, is what verifies."""
    artifacts = compile_model(INPUTS / "attention_h256_proj.mlir", FLAGS)
    proj = _problem(artifacts, "attention_proj_dispatch_1_matmul_128x64x256_f32")
    config = artifacts.default_configs()[proj.dispatch]
    verified = build_verified(artifacts, [proj], {proj.dispatch: config})
    assert verified.text and verified.dropped == {}
    whole, alone = verified.report.numerics
    assert (whole.function, whole.checked) == ("attention_proj", False)
    assert "IREE's build without the spec is off by " in whole.detail
    assert "its tuned dispatches were checked alone against numpy" in whole.detail
    assert (alone.dispatch, alone.checked, alone.ok, alone.reference) == (proj.dispatch, True, True, "numpy-root-op")
    assert check_config(artifacts, proj, config).ok
