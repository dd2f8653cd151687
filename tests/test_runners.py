"""Runners: the host benchmark runner on tiny shapes, replay, the executor seam."""

from __future__ import annotations

import json
import stat
import threading
import time

import pytest

from conftest import cpu_description, cpu_target, matmul_model, write_model
from iree_dsa_tuner import compiler
from iree_dsa_tuner.db import DEFAULT_CANDIDATE_KEY, TuningDatabase, candidate_key, dispatch_fingerprint
from iree_dsa_tuner.core.problems import tunable
from iree_dsa_tuner.ir import load_problems
from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.runners import LocalProcessPool, LocalThreadPool, ReplayRunner, RunnerOptions, SerialExecutor
from iree_dsa_tuner.runners import host as host_module
from iree_dsa_tuner.runners.host import HostBenchRunner, exclusive_timing, parse_benchmark_json
from iree_dsa_tuner.targets import get_target

COMPILE_ERROR, OK, RUN_ERROR, TIMEOUT = Status.COMPILE_ERROR, Status.OK, Status.RUN_ERROR, Status.TIMEOUT
# Code that runs must run the same on every x86-64 runner: an AVX2 part's description, haswell code.
AVX2 = cpu_target("avx2")
HASWELL_FLAGS = AVX2.compile_flags


def host_runner(model, **kwargs) -> HostBenchRunner:
    """The host runner on `model` compiled for haswell (every x86-64 runner here executes it), its
    repeat counts sized from an AVX2 part's description (not this machine's)."""
    return HostBenchRunner(compile_model(model, HASWELL_FLAGS), cpu_description("avx2"), **kwargs)

SMALL_CONFIG = {"distribution": [4, 64, 0], "vector_common_parallel": [4, 16, 0], "vector_reduction": [0, 0, 8]}
# m x n x k = 64 x 256 x 64 vector elements: far past llvm-cpu's vector size limit.
OVERSIZED = {"distribution": [64, 256, 0], "vector_common_parallel": [64, 256, 0], "vector_reduction": [0, 0, 64]}
GOOD_64 = {"distribution": [32, 64, 0], "vector_common_parallel": [8, 32, 0], "vector_reduction": [0, 0, 8]}


def _problem(model):
    return tunable(load_problems(model, HASWELL_FLAGS))[0]


# ---- pure logic ------------------------------------------------------------------------

def test_parse_benchmark_json_divides_by_the_compiled_repeat_and_drops_warmup():
    entries = [{"run_type": "iteration", "real_time": t, "time_unit": "us"} for t in (9000.0, 2600.0, 2500.0, 2700.0)]
    entries.append({"run_type": "aggregate", "aggregate_name": "median", "real_time": 2650.0, "time_unit": "us"})
    times = parse_benchmark_json(json.dumps({"benchmarks": entries}), dispatch_repeat=10, warmup=1)
    assert times == [260.0, 250.0, 270.0]
    ns = [{"run_type": "iteration", "real_time": 5000.0, "time_unit": "ns"}]
    assert parse_benchmark_json(json.dumps({"benchmarks": ns}), dispatch_repeat=1, warmup=0) == [5.0]


def test_measurement_status_is_checked_and_failures_are_one_line():
    with pytest.raises(ValueError):
        Measurement("fine")
    m = Measurement.failure(COMPILE_ERROR, "a.mlir:1:1: error: boom\nnote: more")
    assert m.reason == "a.mlir:1:1: error: boom" and m.median_us is None and not m.ok


def test_replay_runner_answers_from_records_and_counts_calls(tmp_path, inputs):
    problem = _problem(inputs / "mlp3.mlir")
    records = [
        Measurement(OK, 40.0, 39.0, 5, candidate=None, dispatch=problem.dispatch),
        Measurement(OK, 20.0, 19.0, 5, candidate=GOOD_64, dispatch=dispatch_fingerprint(problem)),
        Measurement(COMPILE_ERROR, reason="large vector sizes", candidate=OVERSIZED).to_json(),
    ]
    runner = ReplayRunner(records)
    assert runner.measure(problem, None).median_us == 40.0
    assert runner.measure(problem, GOOD_64).median_us == 20.0  # by fingerprint
    assert runner.measure(problem, OVERSIZED).status == COMPILE_ERROR  # any dispatch
    missing = runner.measure(problem, SMALL_CONFIG)
    assert missing.status == RUN_ERROR and "no recorded measurement" in missing.reason
    assert runner.calls == 4


def test_replay_from_database(tmp_path, inputs):
    problem = _problem(inputs / "mlp3.mlir")
    with TuningDatabase(tmp_path / "t.sqlite") as db:
        db.record_measurement(dispatch_fingerprint(problem), "tfp", Measurement(OK, 7.0, 6.0, 3, candidate=GOOD_64))
        runner = ReplayRunner.from_database(db, "tfp", [problem])
    assert runner.measure(problem, GOOD_64).median_us == 7.0


def _square(x):
    return x * x


def test_executors_keep_order():
    items = list(range(7))
    assert SerialExecutor().map(_square, items) == [x * x for x in items]
    with LocalThreadPool(3) as pool:
        assert pool.map(_square, items) == [x * x for x in items]


@pytest.mark.slow
def test_local_process_pool_keeps_order():
    with LocalProcessPool(2) as pool:
        assert pool.map(_square, list(range(5))) == [0, 1, 4, 9, 16]


def test_each_target_makes_its_own_runner(inputs):
    artifacts = compile_model(inputs / "mlp3.mlir", HASWELL_FLAGS)
    options = RunnerOptions(repetitions=2)
    assert get_target("dsa-e1").make_runner(artifacts, options).name == "dsa-sim"
    host = AVX2.make_runner(artifacts, options)
    assert isinstance(host, HostBenchRunner) and host.repetitions == 2 and host.measures_drift
    host.close()


def test_timings_never_overlap(tmp_path):
    active, overlaps = [0], [0]

    def timed():
        with exclusive_timing(tmp_path / "lock"):
            active[0] += 1
            overlaps[0] = max(overlaps[0], active[0])
            time.sleep(0.02)
            active[0] -= 1

    threads = [threading.Thread(target=timed) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps[0] == 1


# ---- the host runner, for real --------------------------------------------------------

@pytest.mark.slow
def test_host_runner_measures_default_and_a_config(tmp_path):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    problem = _problem(model)
    with host_runner(model, repetitions=3, warmup=1, timeout_s=120) as runner:
        default = runner.measure(problem, None)
        tuned = runner.measure(problem, SMALL_CONFIG)
        iree_default = runner.artifacts.default_configs()[problem.dispatch]
    for m in (default, tuned):
        assert m.status == OK, m.reason
        # How fast is this machine's business, not the test's (bench/ measures speed): a time was read.
        assert 0 < m.min_us <= m.median_us and len(m.details["times_us"]) == 3, m
        assert m.repetitions == 3 and m.runner == "host-bench" and m.dispatch == problem.dispatch
    assert default.candidate is None and tuned.candidate["vector_reduction"] == [0, 0, 8]
    # The configured dump proves which config each measurement ran.
    assert "vector_reduction = [0, 0, 8]" in tuned.details["lowering_config"]
    # IREE's own choice for this CPU, read from its configured IR (never assumed).
    reduction = ", ".join(str(t) for t in iree_default.vector_reduction)
    assert f"vector_reduction = [{reduction}]" in default.details["lowering_config"]


@pytest.mark.slow
def test_host_runner_records_a_compile_error_and_goes_on(tmp_path):
    model = write_model(tmp_path, "mm64.mlir", matmul_model(64, 256, 256))
    problem = _problem(model)
    db = TuningDatabase(tmp_path / "t.sqlite")
    dfp = dispatch_fingerprint(problem)
    with host_runner(model, repetitions=2, warmup=0, timeout_s=120, jobs=2) as runner:
        configs = [OVERSIZED, GOOD_64, {**GOOD_64, "distribution": [32, 64]}]
        runner.prepare(problem, configs)  # compiled in parallel
        results = [runner.measure(problem, c) for c in configs]
        for config, m in zip(configs, results):
            db.record_measurement(dfp, "tfp", m)
    failed, measured, illegal = results
    assert failed.status == COMPILE_ERROR
    assert "error:" in failed.reason and "large vector sizes" in failed.reason  # IREE's own first error line
    assert measured.status == OK and measured.median_us > 0, measured.reason
    assert illegal.status == COMPILE_ERROR and "distribution has 2 entries" in illegal.reason
    stored = db.lookup(dfp, "tfp", candidate_key(OVERSIZED))
    assert stored.status == COMPILE_ERROR and "large vector sizes" in stored.reason
    assert db.lookup(dfp, "tfp", candidate_key(GOOD_64)).status == OK
    db.close()


HANG_TIMEOUT_S = 0.5  # what the runner waits for a tool that never answers


@pytest.mark.slow
def test_host_runner_times_out_as_a_result(tmp_path, monkeypatch):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    problem = _problem(model)
    # Tools that never finish (they sleep far past any timeout), whatever the machine's speed: the
    # runner gives each up after its timeout and records a TIMEOUT naming the tool.
    hung = tmp_path / "hung-tool"
    hung.write_text("#!/bin/sh\nexec sleep 600\n")
    hung.chmod(hung.stat().st_mode | stat.S_IEXEC)
    with host_runner(model, repetitions=2, timeout_s=120) as runner:
        runner.prepare(problem, [None])  # the default compiled by the real iree-compile
        for module in (host_module, compiler):  # iree-benchmark-module's, and compile_to_vmfb's iree-compile
            monkeypatch.setattr(module, "find_tool", lambda name: str(hung))
        runner.timeout_s = HANG_TIMEOUT_S
        timed_out_run = runner.measure(problem, None)
        timed_out_compile = runner.measure(problem, SMALL_CONFIG)  # not prepared: compiles now, and hangs
    assert timed_out_run.status == TIMEOUT
    assert timed_out_run.reason == f"iree-benchmark-module did not finish in {HANG_TIMEOUT_S:g} s"
    assert timed_out_compile.status == TIMEOUT
    assert timed_out_compile.reason == f"iree-compile did not finish in {HANG_TIMEOUT_S:g} s"


@pytest.mark.slow
def test_host_runner_reports_a_dispatch_the_model_lacks(tmp_path, inputs):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    other = _problem(inputs / "mlp3.mlir")
    with host_runner(model, timeout_s=120) as runner:
        m = runner.measure(other, None)
    assert m.status == COMPILE_ERROR and "no benchmark" in m.reason
    assert DEFAULT_CANDIDATE_KEY == candidate_key(m.candidate)
