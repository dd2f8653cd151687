"""`iree_dsa_tuner.tune`: the one pipeline, and the model compiled once for all its stages."""

from __future__ import annotations

import subprocess

import pytest

import iree_dsa_tuner
from iree_dsa_tuner import compiler
from iree_dsa_tuner.errors import CompileError
from iree_dsa_tuner.ir import artifacts as artifacts_module

from conftest import INPUTS, cpu_target, matmul_model, write_model

MODEL = INPUTS / "mlp3.mlir"  # three dispatches
# Builds for an AVX2 part (haswell), not this machine's CPU.
HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")
DUMP_FLAGS = ("--iree-hal-dump-executable-sources-to", "--iree-hal-dump-executable-benchmarks-to",
              "--compile-to=executable-sources", "--compile-to=executable-configurations")


@pytest.fixture
def iree_compiles(monkeypatch, tmp_path):
    """Every iree-compile command line the tuner runs, with a fresh artifact cache."""
    monkeypatch.setenv(artifacts_module.CACHE_ENV, str(tmp_path / "cache"))
    calls: list[list[str]] = []
    real_run = subprocess.run

    def recording_run(argv, *args, **kwargs):
        if argv and str(argv[0]).endswith("iree-compile"):
            calls.append([str(a) for a in argv])
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(compiler.subprocess, "run", recording_run)
    return calls


def _dispatch_dumps(calls) -> list[list[str]]:
    return [argv for argv in calls if any(a.startswith(DUMP_FLAGS) for a in argv)]


def test_a_dsa_tune_dumps_the_model_once(iree_compiles):
    result = iree_dsa_tuner.tune(MODEL, "dsa-e1", iree_dsa_tuner.TuneOptions(budget=4))
    assert len(result.dispatches) == 3 and result.verified and result.spec_text
    dumps = _dispatch_dumps(iree_compiles)
    assert len(dumps) == 1, dumps
    # The same model again (inspect, verify, another tune) reuses the artifacts on disk.
    iree_dsa_tuner.load_problems(MODEL, iree_dsa_tuner.get_target("dsa-e1").compile_flags)
    assert len(_dispatch_dumps(iree_compiles)) == 1


@pytest.mark.slow
def test_a_host_tune_dumps_the_model_once(iree_compiles, tmp_path):
    model = write_model(tmp_path, "three.mlir", "\n".join(
        matmul_model(m, 64, 64, name=f"mm{m}") for m in (2, 4, 8)))
    # An AVX2 part (haswell code, its description), whatever this machine is.
    result = iree_dsa_tuner.tune(model, cpu_target("avx2"), iree_dsa_tuner.TuneOptions(budget=2, repetitions=1))
    assert len(result.dispatches) == 3
    assert all(d.default_us for d in result.dispatches)  # every default measured from the shared benchmarks
    assert len(_dispatch_dumps(iree_compiles)) == 1


def test_an_edited_model_is_compiled_again(iree_compiles, tmp_path):
    model = write_model(tmp_path, "mm.mlir", matmul_model(4, 64, 64))
    first = iree_dsa_tuner.compile_model(model, HASWELL)
    model.write_text(matmul_model(8, 64, 64))
    second = iree_dsa_tuner.compile_model(model, HASWELL)
    assert first.directory != second.directory
    assert [p.dispatch for p in second.problems()] != [p.dispatch for p in first.problems()]
    assert len(_dispatch_dumps(iree_compiles)) == 2


def test_a_model_iree_rejects_leaves_nothing_in_the_cache(iree_compiles, tmp_path):
    model = write_model(tmp_path, "bad.mlir", "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                                              "  return %a : tensor<8xf32>\n}\n")
    with pytest.raises(CompileError, match="bad.mlir"):
        iree_dsa_tuner.compile_model(model, HASWELL)
    cache = artifacts_module.cache_root() / "models"
    assert list(cache.iterdir()) == []  # no staging directory, no half-made artifacts


def test_a_winner_that_fails_verification_is_replaced_by_the_next_best(monkeypatch):
    """Verification works one dispatch at a time: the failing winner is found by checking it alone,
    the next-best config that passes takes its place, and the other dispatches keep theirs."""
    from iree_dsa_tuner import pipeline
    from iree_dsa_tuner.core.status import NumericsVerdict, Status
    from iree_dsa_tuner.tuning_spec.verify import VerifiedSpec

    first = iree_dsa_tuner.tune(MODEL, "dsa-e1", iree_dsa_tuner.TuneOptions(budget=6), verify=False)
    victim = next(d for d in first.dispatches if d.chosen == "tuned")
    bad = victim.best_config
    real_build = pipeline.build_verified

    def build(artifacts, problems, winners, progress=None):
        if any(config == bad for config in winners.values()):  # a whole-function mismatch drops them all
            return VerifiedSpec("", {symbol: "numerics mismatch" for symbol in winners}, None)
        return real_build(artifacts, problems, winners, progress)

    def check(artifacts, problem, config):
        return NumericsVerdict(Status.WRONG_NUMERICS, "simulated") if config == bad else NumericsVerdict(Status.VERIFIED)

    monkeypatch.setattr(pipeline, "build_verified", build)
    monkeypatch.setattr(pipeline, "check_config", check)
    result = iree_dsa_tuner.tune(MODEL, "dsa-e1", iree_dsa_tuner.TuneOptions(budget=6))
    replaced = next(d for d in result.dispatches if d.dispatch == victim.dispatch)
    assert result.spec_text and replaced.best_config != bad
    assert replaced.chosen == "tuned" and "next-best verified config replaces it" in replaced.note
    assert replaced.best_us >= victim.best_us  # the next best, not a faster one
    others = [d for d in result.dispatches if d.dispatch != victim.dispatch and d.chosen == "tuned"]
    assert others  # the innocent winners were checked alone and kept


def test_the_model_cache_key_of_a_host_build_names_the_cpu(tmp_path, monkeypatch):
    """`target-cpu=host` compiles for this CPU: another CPU sharing the cache gets its own entry;
    a build pinned to a named CPU is the same everywhere and shares one."""
    from iree_dsa_tuner.ir import artifacts

    model = tmp_path / "m.mlir"
    model.write_text("func.func @f() { return }\n")
    host = ("--iree-llvmcpu-target-cpu=host",)
    pinned = ("--iree-llvmcpu-target-cpu=haswell",)
    here = artifacts.model_key(model, host), artifacts.model_key(model, pinned)
    monkeypatch.setattr(artifacts, "host_isa_flags", lambda: "sse2 avx2 fma")
    monkeypatch.setattr(artifacts, "host_cpu_model", lambda: "Another CPU")
    assert artifacts.model_key(model, host) != here[0]
    assert artifacts.model_key(model, pinned) == here[1]


def test_the_model_cache_key_names_the_content_of_a_file_a_flag_names(tmp_path):
    """A preprocessing script (or spec) edited in place is another build, not the cached one."""
    from iree_dsa_tuner.flags import TRANSFORM_FLAG
    from iree_dsa_tuner.ir import artifacts

    model = tmp_path / "m.mlir"
    model.write_text("func.func @f() { return }\n")
    script = tmp_path / "script.mlir"
    script.write_text("// one\n")
    flags = ("--iree-llvmcpu-target-cpu=haswell", f"{TRANSFORM_FLAG}={script}")
    before = artifacts.model_key(model, flags)
    assert artifacts.model_key(model, flags) == before
    script.write_text("// two\n")
    assert artifacts.model_key(model, flags) != before
    # A flag whose value is no file (a pass pipeline) keys by its text alone, as before.
    assert artifacts.model_key(model, ("--iree-preprocessing-pass-pipeline=builtin.module()",)) == \
        artifacts.model_key(model, ("--iree-preprocessing-pass-pipeline=builtin.module()",))
