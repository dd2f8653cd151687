"""Fault injection: a candidate whose compile crashes or hangs, a benchmark that crashes.

Each fault is recorded as such on the candidate, the run goes on, and the final spec leaves
the candidate out. The faults come from wrappers around IREE's own tools that misbehave only
for candidates (a compile given a tuning spec, a timing of a candidate's module).
"""

from __future__ import annotations

import dataclasses
import stat
import sys
from pathlib import Path

import pytest

import iree_dsa_tuner
from iree_dsa_tuner import compiler
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.runners import host as host_runner

from conftest import cpu_target, matmul_model, write_model

WRAPPER = """#!{python}
import os, signal, sys, time
real = {real!r}
candidate = any(a.startswith({trigger!r}) for a in sys.argv[1:])
if candidate and {fault!r} == "crash":
    os.kill(os.getpid(), signal.SIGSEGV)
if candidate and {fault!r} == "hang":
    time.sleep(600)
os.execv(real, [real] + sys.argv[1:])
"""


def wrap_tool(monkeypatch, tmp_path: Path, module, tool: str, fault: str, trigger: str) -> None:
    real = compiler.find_tool(tool)
    script = tmp_path / f"{tool}-{fault}"
    script.write_text(WRAPPER.format(python=sys.executable, real=real, trigger=trigger, fault=fault))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    original = module.find_tool
    monkeypatch.setattr(module, "find_tool", lambda name: str(script) if name == tool else original(name))


# The host is an AVX2 part (haswell code, its description), whatever this machine is.
HOST = cpu_target("avx2")
# A hung candidate compile is given up after this; IREE's own compiles and timings get TIMEOUT_S.
HANG_TIMEOUT_S = 1.0
TIMEOUT_S = 120.0


def tune_host(model, timeout_s: float = TIMEOUT_S, **kwargs):
    """`timeout_s` bounds each compile and timing run of the runner (a hung one costs that much)."""
    options = iree_dsa_tuner.TuneOptions(budget=2, repetitions=1, **kwargs)
    from iree_dsa_tuner.runners.host import HostBenchRunner

    artifacts = iree_dsa_tuner.compile_model(model, HOST.compile_flags)
    runner = HostBenchRunner(artifacts, HOST.describe(), repetitions=1, warmup=0, timeout_s=timeout_s)
    try:
        return iree_dsa_tuner.tune(artifacts, HOST, options, runner=runner)
    finally:
        runner.close()


@pytest.fixture
def model(tmp_path):
    return write_model(tmp_path, "mm.mlir", matmul_model(4, 64, 64))


@pytest.mark.slow
@pytest.mark.parametrize("fault, status, reason", [
    ("crash", Status.COMPILE_ERROR, "iree-compile crashed"),
    ("hang", Status.TIMEOUT, f"iree-compile did not finish in {HANG_TIMEOUT_S:g} s"),
])
def test_a_candidate_compile_that_crashes_or_hangs_is_recorded_and_left_out(monkeypatch, tmp_path, model, fault,
                                                                            status, reason):
    iree_dsa_tuner.compile_model(model, HOST.compile_flags)  # artifacts: real tools
    wrap_tool(monkeypatch, tmp_path, compiler, "iree-compile", fault, "--iree-codegen-tuning-spec-path")
    # A candidate's compile (the one given a spec) gets a short timeout; IREE's default's compile
    # and every timing run keep a long one. The hung wrapper sleeps far past the short one, so it
    # times out however slow or loaded the machine, and nothing the test needs can.
    real_job = host_runner.HostBenchRunner._job

    def job(self, problem, config, source):
        made = real_job(self, problem, config, source)
        return dataclasses.replace(made, timeout_s=HANG_TIMEOUT_S) if config is not None else made

    monkeypatch.setattr(host_runner.HostBenchRunner, "_job", job)
    result = tune_host(model)
    (d,) = result.dispatches
    assert d.default_us is not None  # the default compiles without a spec: measured as usual
    # Both candidates of the budget were compiled, failed the same way, and are left out.
    assert len(d.trials) == 2 and all(t.time_us is None for t in d.trials)
    assert all(t.reason.startswith(str(status)) and reason in t.reason for t in d.trials), [t.reason for t in d.trials]
    assert d.chosen == "default" and result.spec_text == ""


@pytest.mark.slow
def test_a_benchmark_that_crashes_is_recorded_and_the_run_goes_on(monkeypatch, tmp_path, model):
    iree_dsa_tuner.compile_model(model, HOST.compile_flags)
    # Every timing run crashes (the default's too): each measurement is recorded as a run error.
    wrap_tool(monkeypatch, tmp_path, host_runner, "iree-benchmark-module", "crash", "--module=")
    result = tune_host(model)
    (d,) = result.dispatches
    assert d.default_us is None and d.trials
    assert all(t.time_us is None and t.reason.startswith(str(Status.RUN_ERROR)) for t in d.trials)
    assert d.chosen == "default" and result.spec_text == "" and "no candidate measured" in d.note
