"""Tuning through a Ray cluster (runners/ray_executor.py) gives the local executor's results.

One local Ray instance serves the module (2 CPUs), started as `RayExecutor` starts one: bound
to 127.0.0.1, so the cluster is this machine alone and listens on no network interface. Ray
is in the test extra: without it this module fails to import; it is never skipped.

What "the same results" can honestly mean: iree-benchmark-module times differ between
any two runs, local or not, and the pruned search follows the times it sees. So the
comparison runs the timing half through `fixed_timer`, a stand-in whose time depends on
the candidate alone. Everything else is real (candidates compiled on the Ray pool from
shipped sources, modules shipped back and on to the benchmark actor, results recorded
in the driver's database), and then everything must be equal: the candidates measured,
their order, statuses and times, the configs IREE applied, the winners, the spec text
and the database keys. One run with the real iree-benchmark-module on the cluster
(through the CLI) checks that real timings come back from the worker, never the driver.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import ray  # the test extra installs Ray: a missing Ray must fail this module, not skip it

import iree_dsa_tuner
from conftest import cpu_target, matmul_model, write_model
from iree_dsa_tuner.cli import main as cli_main
from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.db import TuningDatabase
from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.runners.executor import ExecutorError
from iree_dsa_tuner.runners.host import HostBenchRunner
from iree_dsa_tuner.runners.ray_executor import (
    RayExecutor,
    WorkerInfo,
    admit_workers,
    hardware_fingerprint,
    hardware_identity,
    _starts_a_local_instance,
    import_ray,
    keeping_crash_handlers,
    start_local_ray,
)

TESTS = Path(__file__).resolve().parent
# Code that runs must run the same on every x86-64 runner: an AVX2 description whose compile
# flags pin haswell. (The machine's description with haswell flags disagrees on an AVX-512
# host: it offers vector tiles up to AVX-512's limit, which fail to compile for haswell.)
AVX2 = cpu_target("avx2", cores=2)
HASWELL_FLAGS = AVX2.compile_flags


@pytest.fixture(scope="module")
def cluster():
    # Workers import this module to run `fixed_timer`, hence the tests directory on their path.
    start_local_ray(ray, num_cpus=2, log_to_driver=False,
                    runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(
                        filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))}})
    yield ray.get_runtime_context().gcs_address
    with keeping_crash_handlers():  # a later crash in this process must still print its traceback
        ray.shutdown()


def fixed_timer(job) -> Measurement:
    """iree-benchmark-module's stand-in: a time from the candidate's key alone, and where it ran."""
    us = 5.0 + int(hashlib.sha256(job.candidate.encode()).hexdigest()[:6], 16) % 1000 / 100
    return Measurement(Status.OK, median_us=us, min_us=us, repetitions=1,
                       details={"pid": os.getpid(), "cpus": sorted(os.sched_getaffinity(0)),
                                "shipped_bytes": len(job.vmfb_bytes or b"")})


def _tune(artifacts, db_path, executor):
    target = AVX2
    runner = HostBenchRunner(artifacts, target.describe(), repetitions=1, warmup=0, executor=executor,
                             timer=fixed_timer)
    options = iree_dsa_tuner.TuneOptions(budget=3, repetitions=1, jobs=2, executor=executor)
    try:
        return iree_dsa_tuner.tune(artifacts, target, options, runner=runner, db=str(db_path))
    finally:
        runner.close()


WALL_CLOCK_KEYS = {"seconds", "verify_seconds", "compile_s", "phases"}  # how long things took, not what they found


def _without_wall_clock(value):
    if isinstance(value, dict):
        return {k: _without_wall_clock(v) for k, v in value.items() if k not in WALL_CLOCK_KEYS}
    if isinstance(value, list):
        return [_without_wall_clock(v) for v in value]
    return value


def _records(db_path) -> list[tuple]:
    with TuningDatabase(db_path) as db:
        rows = db._execute("SELECT dispatch_fp, target_fp FROM measurements ORDER BY rowid").fetchall()
        out = []
        for dispatch_fp, target_fp in dict.fromkeys((r[0], r[1]) for r in rows):
            for m in db.measurements(dispatch_fp, target_fp):
                out.append(((dispatch_fp, target_fp, str(m.candidate), m.status, m.median_us,
                             m.details.get("lowering_config")), m.details))
    return out


def test_the_local_instance_listens_on_loopback_only(cluster):
    assert cluster.startswith("127.0.0.1:")
    assert [node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"]] == ["127.0.0.1"]


def test_only_a_new_instance_is_bound_to_loopback_never_a_cluster_joined(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "192.0.2.7:6379")
    assert not _starts_a_local_instance(None) and not _starts_a_local_instance("")
    assert not _starts_a_local_instance("auto") and not _starts_a_local_instance("192.0.2.7:6379")
    assert _starts_a_local_instance("local")


CRASH_AFTER_RAY = """
import ctypes, faulthandler, sys
faulthandler.enable()
from iree_dsa_tuner.runners.ray_executor import RayExecutor
with RayExecutor(init_options={"num_cpus": 1}):
    print("started", flush=True)
print("stopped", flush=True)
ctypes.string_at(0)  # a crash after the executor is gone
"""


def test_a_crash_after_the_executor_still_prints_its_traceback():
    # Ray's driver handlers log a fault to Ray's session files, and its shutdown resets them to
    # the default: a segfault later in a user's process (or in pytest) would print nothing at all.
    run = subprocess.run([sys.executable, "-c", CRASH_AFTER_RAY], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode != 0 and "started\nstopped\n" in run.stdout
    assert "Fatal Python error: Segmentation fault" in run.stderr
    assert "ctypes" in run.stderr.split("Fatal Python error")[1]  # the faulting frame is named


@pytest.mark.slow
def test_a_ray_tune_equals_the_local_tune(cluster, tmp_path):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    artifacts = iree_dsa_tuner.compile_model(model, HASWELL_FLAGS)
    local = _tune(artifacts, tmp_path / "local.sqlite", None)
    with RayExecutor(reference_fingerprint=hardware_fingerprint()) as executor:
        (worker,) = executor.start()
        remote = _tune(artifacts, tmp_path / "ray.sqlite", executor)

    assert remote.spec_text and remote.spec_text == local.spec_text  # a winner, the same one
    assert _without_wall_clock(remote.to_json()) == _without_wall_clock(local.to_json())
    local_records, remote_records = _records(tmp_path / "local.sqlite"), _records(tmp_path / "ray.sqlite")
    # Same candidates, statuses, times, applied configs, and database keys: a Ray run reuses local records.
    assert [key for key, _ in remote_records] == [key for key, _ in local_records]
    assert all(key[5] for key, _ in remote_records)  # the configured dump of each compile came back
    # Locally the driver times; on Ray never: the benchmark actor did, pinned to its one CPU,
    # from the module shipped to it.
    assert all(details["pid"] == os.getpid() for _, details in local_records)
    for _, details in remote_records:
        assert details["pid"] != os.getpid() and details["cpus"] == [worker.cpu]
        assert details["timed_on"] == worker.address and details["shipped_bytes"] > 1000


def test_a_worker_with_other_hardware_is_refused_and_never_times(cluster):
    # fake_identity: the one worker of this one-machine cluster reports another CPU.
    other = {**hardware_identity(), "cpu": "Some Other CPU 9000"}
    executor = RayExecutor(reference_fingerprint=hardware_fingerprint(), fake_identity=other)
    try:
        with pytest.raises(InputError, match="no benchmark worker to time on") as error:
            executor.run_timing(fixed_timer, None)
        assert "\n" not in str(error.value)
        (line,) = executor.refused
        assert "refused the benchmark worker" in line and "'Some Other CPU 9000' vs" in line
        assert "driver" in line
    finally:
        executor.close()


def test_a_lost_benchmark_worker_stops_the_run_and_nothing_is_recorded(cluster, tmp_path):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    artifacts = iree_dsa_tuner.compile_model(model, HASWELL_FLAGS)
    (problem,) = artifacts.problems()
    executor = RayExecutor(reference_fingerprint=hardware_fingerprint())
    runner = HostBenchRunner(artifacts, AVX2.describe(), executor=executor, timer=fixed_timer)
    try:
        executor.start()
        ray.kill(executor._workers[0][0])  # the machine that times goes away
        # Not a result of the candidate: the run stops (one line) instead of recording a failure.
        with pytest.raises(ExecutorError, match="no benchmark worker left to time on: lost the benchmark worker"):
            runner.measure(problem, None)
        assert len(executor.refused) == 1
    finally:
        runner.close()
        executor.close()


def test_workers_must_match_the_first_one_unless_a_reference_is_given():
    def worker(address, cpu_name):
        identity = {"cpu": cpu_name, "iree": "3.13.0"}
        fingerprint = hashlib.sha256(cpu_name.encode()).hexdigest()[:16]
        return WorkerInfo(address, address, identity, fingerprint, 3)

    a, b, c = worker("10.0.0.1", "Xeon A"), worker("10.0.0.2", "Epyc B"), worker("10.0.0.3", "Xeon A")
    admitted, refused = admit_workers([a, b, c])
    assert admitted == [a, c]
    assert refused == ["ray: refused the benchmark worker on 10.0.0.2: its hardware differs from the first "
                       "benchmark worker (10.0.0.1)'s (cpu 'Epyc B' vs 'Xeon A'); its timings would not be comparable"]
    # The driver's fingerprint, when given, is the reference: here only b matches it.
    admitted, refused = admit_workers([a, b, c], reference=b.fingerprint, reference_identity=b.identity)
    assert admitted == [b] and len(refused) == 2


@pytest.mark.slow
def test_tune_executor_ray_times_on_the_cluster(cluster, tmp_path, capsys):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    db_path = tmp_path / "t.sqlite"
    code = cli_main(["tune", str(model), "--target", "host", "-o", str(tmp_path / "spec.mlir"), "--no-recipe",
                     "--executor", f"ray:{cluster}", "--budget", "1", "--repetitions", "1", "--db", str(db_path),
                     "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    records = _records(db_path)
    assert records and any(key[3] == Status.OK for key, _ in records)
    # Real iree-benchmark-module timings, each from the worker (the driver never times).
    node = ray.nodes()[0]["NodeManagerAddress"]
    assert all(details.get("timed_on") == node for key, details in records if key[3] == Status.OK)
    assert ray.is_initialized()  # the CLI joined this cluster, so it left it running


@pytest.mark.parametrize("argv, message", [
    (["--executor", "spark"], "--executor: expected local, ray or ray:ADDRESS, got 'spark'"),
    (["--executor", "ray", "--target", "dsa-e1"], "--executor ray: dsa-e1 is measured in this process"),
    (["--executor", "ray", "--target", "host"], "add --no-recipe"),
    # Ray would retry a dead address for minutes.
    (["--executor", "ray:127.0.0.1:1", "--target", "host", "--no-recipe"], "ray: nothing answers at 127.0.0.1:1"),
])
def test_tune_executor_mistakes_are_one_line(tmp_path, capsys, argv, message):
    model = write_model(tmp_path, "mm4.mlir", matmul_model(4, 64, 64))
    code = cli_main(["tune", str(model), "-o", str(tmp_path / "spec.mlir"), *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "spec.mlir").exists()


def test_without_ray_the_executor_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when Ray is not installed
    with pytest.raises(InputError, match=r"pip install 'iree-dsa-tuner\[ray\]'"):
        import_ray()
    with pytest.raises(InputError, match="needs Ray"):
        RayExecutor()
