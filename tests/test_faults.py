"""Fault injection: a candidate whose compile crashes or hangs, a benchmark that crashes.

Each fault is recorded as such on the candidate, the run goes on, and the final spec leaves
the candidate out. The faults come from wrappers around IREE's own tools that misbehave only
for candidates (a compile given a tuning spec, a timing of a candidate's module).
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

import iree_dsa_tuner
from iree_dsa_tuner import compiler
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.runners import host as host_runner

from conftest import matmul_model, write_model

WRAPPER = """#!{python}
import os, signal, sys, time
real = {real!r}
candidate = any(a.startswith({trigger!r}) for a in sys.argv[1:])
if candidate and {fault!r} == "crash":
    os.kill(os.getpid(), signal.SIGSEGV)
if candidate and {fault!r} == "hang":
    time.sleep(120)
os.execv(real, [real] + sys.argv[1:])
"""


def wrap_tool(monkeypatch, tmp_path: Path, module, tool: str, fault: str, trigger: str) -> None:
    real = compiler.find_tool(tool)
    script = tmp_path / f"{tool}-{fault}"
    script.write_text(WRAPPER.format(python=sys.executable, real=real, trigger=trigger, fault=fault))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    original = module.find_tool
    monkeypatch.setattr(module, "find_tool", lambda name: str(script) if name == tool else original(name))


def tune_host(model, timeout_s: float = 20, **kwargs):
    """`timeout_s` bounds each compile and timing run of the runner (a hung one costs that much)."""
    options = iree_dsa_tuner.TuneOptions(budget=2, repetitions=1, **kwargs)
    target = iree_dsa_tuner.get_target("host")
    from iree_dsa_tuner.runners.host import HostBenchRunner

    artifacts = iree_dsa_tuner.compile_model(model, target.compile_flags)
    runner = HostBenchRunner(artifacts, target.describe(), repetitions=1, warmup=0, timeout_s=timeout_s)
    try:
        return iree_dsa_tuner.tune(artifacts, target, options, runner=runner)
    finally:
        runner.close()


@pytest.fixture
def model(tmp_path):
    return write_model(tmp_path, "mm.mlir", matmul_model(4, 64, 64))


@pytest.mark.slow
@pytest.mark.parametrize("fault, status", [("crash", Status.COMPILE_ERROR), ("hang", Status.TIMEOUT)])
def test_a_candidate_compile_that_crashes_or_hangs_is_recorded_and_left_out(monkeypatch, tmp_path, model, fault,
                                                                            status):
    iree_dsa_tuner.compile_model(model, iree_dsa_tuner.get_target("host").compile_flags)  # artifacts: real tools
    wrap_tool(monkeypatch, tmp_path, compiler, "iree-compile", fault, "--iree-codegen-tuning-spec-path")
    # Each hung candidate compile is given up after the timeout. 5 s: the default's compile and
    # timing of this 4x64x64 matmul take well under a second (a slower default would fail the
    # test, not pass it), and the wrapper sleeps 120 s.
    result = tune_host(model, timeout_s=5 if fault == "hang" else 20)
    (d,) = result.dispatches
    assert d.default_us is not None  # the default compiles without a spec: measured as usual
    failed = [t for t in d.trials if t.time_us is None]
    assert failed and all(t.reason.startswith(str(status)) for t in failed), [t.reason for t in d.trials]
    assert d.chosen == "default" and result.spec_text == ""


@pytest.mark.slow
def test_a_benchmark_that_crashes_is_recorded_and_the_run_goes_on(monkeypatch, tmp_path, model):
    iree_dsa_tuner.compile_model(model, iree_dsa_tuner.get_target("host").compile_flags)
    # Every timing run crashes (the default's too): each measurement is recorded as a run error.
    wrap_tool(monkeypatch, tmp_path, host_runner, "iree-benchmark-module", "crash", "--module=")
    result = tune_host(model)
    (d,) = result.dispatches
    assert d.default_us is None and d.trials
    assert all(t.time_us is None and t.reason.startswith(str(Status.RUN_ERROR)) for t in d.trials)
    assert d.chosen == "default" and result.spec_text == "" and "no candidate measured" in d.note
