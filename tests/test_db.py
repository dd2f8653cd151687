"""The tuning database: keys, roundtrip, durability under SIGKILL, export, the CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest


from iree_dsa_tuner.db import (
    DEFAULT_CANDIDATE_KEY,
    TuningDatabase,
    candidate_key,
    dispatch_fingerprint,
    target_fingerprint,
)
from iree_dsa_tuner.core.problems import ContractionProblem, OperandInfo
from iree_dsa_tuner.core.measurement import Measurement

TFP = "t" * 64
CONFIG = {"pipeline": "DoubleTilingExpert", "distribution": [0, 256, 0],
          "vector_common_parallel": [1, 64, 0], "vector_reduction": [0, 0, 16]}


def matvec(symbol: str, n: int = 2048) -> ContractionProblem:
    return ContractionProblem(
        dispatch=symbol, op_name="linalg.matmul", loop_sizes=(1, n, 2048),
        loop_types=("parallel", "parallel", "reduction"), dim_groups={"batch": (), "m": (0,), "n": (1,), "k": (2,)},
        indexing_maps=("affine_map<(d0, d1, d2) -> (d0, d2)>", "affine_map<(d0, d1, d2) -> (d2, d1)>",
                       "affine_map<(d0, d1, d2) -> (d0, d1)>"),
        inputs=(OperandInfo((1, 2048), "f32"), OperandInfo((2048, n), "f32")), output=OperandInfo((1, n), "f32"))


def test_dispatch_fingerprint_ignores_the_symbol_but_not_the_op():
    a = dispatch_fingerprint(matvec("model_a_dispatch_0_matmul_1x2048x2048_f32"))
    b = dispatch_fingerprint(matvec("other$async_dispatch_7_matmul_1x2048x2048_f32"))
    c = dispatch_fingerprint(matvec("model_a_dispatch_0_matmul_1x1024x2048_f32", n=1024))
    assert a == b
    assert a != c
    assert len(a) == 64


def test_target_fingerprint_covers_description_iree_and_cpu(monkeypatch):
    from iree_dsa_tuner.core import fingerprint

    host = {"name": "host", "kind": "cpu", "clock_hz": 2.6e9, "iree_target_cpu": "host"}
    base = target_fingerprint(host)
    assert base == target_fingerprint(dict(reversed(list(host.items()))))  # key order does not matter
    assert base != target_fingerprint({**host, "clock_hz": 3.0e9})
    assert base != target_fingerprint(host, extra="--repetitions=9")
    monkeypatch.setattr(fingerprint, "host_cpu_model", lambda: "Some Other CPU")
    assert base != target_fingerprint(host)
    dsa = {"name": "dsa-e1", "kind": "dsa", "iree_target_cpu": "haswell"}
    dsa_fp = target_fingerprint(dsa)
    monkeypatch.setattr(fingerprint, "host_cpu_model", lambda: "Yet Another CPU")
    assert dsa_fp == target_fingerprint(dsa)  # pinned to haswell: the same code on every machine
    monkeypatch.setattr(fingerprint, "iree_version", lambda: "9.9.9")
    assert dsa_fp != target_fingerprint(dsa)


def test_candidate_key_is_canonical():
    reordered = dict(reversed(list(CONFIG.items())))
    assert candidate_key(CONFIG) == candidate_key(reordered)
    assert candidate_key(None) == DEFAULT_CANDIDATE_KEY
    assert json.loads(candidate_key(CONFIG)) == CONFIG


def test_roundtrip_lookup_and_listing(tmp_path):
    dfp = dispatch_fingerprint(matvec("d0"))
    with TuningDatabase(tmp_path / "t.sqlite") as db:
        key = db.record_measurement(dfp, TFP, Measurement("ok", 270.5, 260.0, 5, runner="host-bench",
                                                          candidate=CONFIG, dispatch="d0",
                                                          details={"dispatch_repeat": 3}), estimate_us=250.0)
        db.record_measurement(dfp, TFP, Measurement("ok", 1380.0, 1300.0, 5, runner="host-bench", dispatch="d0"))
        db.record_measurement(dfp, TFP, Measurement("compile-error", reason="x.mlir:1:2: error: large vector sizes",
                                                    candidate={**CONFIG, "vector_reduction": [0, 0, 512]}))
        assert key == candidate_key(CONFIG)
    with TuningDatabase(tmp_path / "t.sqlite") as db:
        found = db.lookup(dfp, TFP, candidate_key(CONFIG))
        assert (found.status, found.median_us, found.min_us, found.repetitions) == ("ok", 270.5, 260.0, 5)
        assert found.candidate == CONFIG and found.estimate_us == 250.0 and found.runner == "host-bench"
        assert found.details == {"dispatch_repeat": 3} and found.dispatch == "d0"
        assert db.lookup(dfp, TFP, DEFAULT_CANDIDATE_KEY).median_us == 1380.0
        assert db.lookup(dfp, "other-target", candidate_key(CONFIG)) is None
        listed = db.measurements(dfp, TFP)
        assert [m.status for m in listed] == ["ok", "ok", "compile-error"]
        assert "large vector sizes" in listed[2].reason
        # Measuring a candidate again replaces its record.
        db.record_measurement(dfp, TFP, Measurement("ok", 250.0, 240.0, 5, candidate=CONFIG))
        assert db.lookup(dfp, TFP, candidate_key(CONFIG)).median_us == 250.0
        assert db.count() == 3


def test_calibration_round_trip(tmp_path):
    with TuningDatabase(tmp_path / "t.sqlite") as db:
        assert db.load_calibration(TFP) is None
        db.save_calibration(TFP, {"efficiency": {"f32": 0.42}, "launch_us": 3.0})
        assert db.load_calibration(TFP) == {"efficiency": {"f32": 0.42}, "launch_us": 3.0}


def test_export_csv_and_json(tmp_path):
    with TuningDatabase(tmp_path / "t.sqlite") as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 1.5, 1.25, 3, candidate=CONFIG, dispatch="d0"))
        db.record_measurement("dfp", TFP, Measurement("timeout", reason="did not finish in 60 s", dispatch="d0"))
        db.save_calibration(TFP, {"a": 1})
        buffer = io.StringIO()
        assert db.export_csv(buffer) == 2
        rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
        assert [r["status"] for r in rows] == ["ok", "timeout"]
        assert json.loads(rows[0]["candidate"]) == CONFIG and float(rows[0]["median_us"]) == 1.5
        assert rows[1]["reason"] == "did not finish in 60 s" and rows[1]["median_us"] == ""
        db.export_json(tmp_path / "out.json")
    document = json.loads((tmp_path / "out.json").read_text())
    assert document["measurements"][0]["candidate"] == CONFIG
    assert document["calibration"] == [{"target_fp": TFP, "params": {"a": 1},
                                        "updated_at": document["calibration"][0]["updated_at"]}]


_WRITER = textwrap.dedent("""\
    import sys, time
    from iree_dsa_tuner.db import TuningDatabase
    from iree_dsa_tuner.core.measurement import Measurement
    db = TuningDatabase(sys.argv[1])
    for i in range(100000):
        db.record_measurement("dfp", "tfp", Measurement("ok", float(i), float(i), 1),
                              candidate={"pipeline": "DoubleTilingExpert", "distribution": [i],
                                         "vector_common_parallel": [0], "vector_reduction": [0]})
        # Report only after the commit returned: everything printed must survive.
        print(i, flush=True)
""")


def test_records_survive_sigkill_and_the_database_reopens(tmp_path):
    path = tmp_path / "killed.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    acknowledged = -1
    deadline = time.monotonic() + 60
    while acknowledged < 30 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acknowledged = int(line)
    os.kill(proc.pid, signal.SIGKILL)  # mid-way: the writer is in its loop
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert acknowledged >= 30, "the writer did not get going"
    with TuningDatabase(path) as db:
        stored = {m.median_us for m in db.measurements("dfp", "tfp")}
        assert set(map(float, range(acknowledged + 1))) <= stored
        # The reopened database takes new records.
        db.record_measurement("dfp", "tfp", Measurement("run-error", reason="after the kill"))
        assert db.lookup("dfp", "tfp", DEFAULT_CANDIDATE_KEY).reason == "after the kill"


def test_one_connection_per_process_after_fork(tmp_path):
    db = TuningDatabase(tmp_path / "f.sqlite")
    db.record_measurement("dfp", "tfp", Measurement("ok", 1.0, 1.0, 1))
    pid = os.fork()
    if pid == 0:  # the child must not reuse the parent's connection
        try:
            db.record_measurement("dfp", "tfp", Measurement("ok", 2.0, 2.0, 1, candidate=CONFIG))
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    assert db.lookup("dfp", "tfp", candidate_key(CONFIG)).median_us == 2.0
    db.close()


def test_a_record_of_other_code_is_stale_and_replaced(tmp_path):
    """`lookup` with a code version answers only from a record that code measured."""
    with TuningDatabase(tmp_path / "db.sqlite") as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 3.0, 3.0, 1, candidate=CONFIG), code_version="sim-a")
        key = candidate_key(CONFIG)
        assert db.lookup("dfp", TFP, key, code_version="sim-a").median_us == 3.0
        assert db.lookup("dfp", TFP, key, code_version="sim-b") is None  # stale: the caller re-measures
        db.record_measurement("dfp", TFP, Measurement("ok", 4.0, 4.0, 1, candidate=CONFIG), code_version="sim-b")
        assert db.lookup("dfp", TFP, key, code_version="sim-b").median_us == 4.0
        assert db.lookup("dfp", TFP, key, code_version="sim-a") is None
        assert db.count() == 1 and db.code_version_of("dfp", TFP, key) == "sim-b"
        # The code version travels through export and import.
        db.export_json(tmp_path / "e.json")
        db.export_csv(tmp_path / "e.csv")
    from iree_dsa_tuner.db.importing import import_export

    for name in ("e.json", "e.csv"):
        with TuningDatabase(tmp_path / f"{name}.sqlite") as other:
            import_export(other, tmp_path / name)
            assert other.lookup("dfp", TFP, candidate_key(CONFIG), code_version="sim-b").median_us == 4.0
    # A CSV exported before records carried a code version imports as unknown code: not reused.
    rows = list(csv.DictReader((tmp_path / "e.csv").read_text().splitlines()))
    with open(tmp_path / "old.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[c for c in rows[0] if c != "code_version"], lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: v for k, v in r.items() if k != "code_version"} for r in rows)
    with TuningDatabase(tmp_path / "old.sqlite") as other:
        import_export(other, tmp_path / "old.csv")
        assert other.lookup("dfp", TFP, candidate_key(CONFIG)).median_us == 4.0
        assert other.lookup("dfp", TFP, candidate_key(CONFIG), code_version="sim-b") is None


def test_a_database_from_before_code_versions_is_opened_and_not_reused(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite"
    with TuningDatabase(path) as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 3.0, 3.0, 1, candidate=CONFIG))
    conn = sqlite3.connect(path)  # the table as schema 1 wrote it, before the column existed
    conn.execute("ALTER TABLE measurements DROP COLUMN code_version")
    conn.commit()
    conn.close()
    with TuningDatabase(path) as db:
        assert db.lookup("dfp", TFP, candidate_key(CONFIG)).median_us == 3.0
        assert db.lookup("dfp", TFP, candidate_key(CONFIG), code_version="sim-a") is None
        db.record_measurement("dfp", TFP, Measurement("ok", 5.0, 5.0, 1, candidate=CONFIG), code_version="sim-a")
        assert db.lookup("dfp", TFP, candidate_key(CONFIG), code_version="sim-a").median_us == 5.0


def test_runner_code_version_hashes_the_simulator_source(tmp_path, monkeypatch):
    """The DSA runner's code version covers the simulator (eventsim) and the shared shape code."""
    import iree_dsa_plugin.eventsim as eventsim
    import iree_dsa_tuner.core.shape as shape
    from iree_dsa_plugin.runner import DsaSimRunner

    runner = DsaSimRunner(target=None, default_configs={})
    base = runner.code_version
    assert base == DsaSimRunner(target=None, default_configs={}).code_version
    for module in (eventsim, shape):
        edited = tmp_path / Path(module.__file__).name
        edited.write_text(Path(module.__file__).read_text() + "\n# one more line\n")
        with monkeypatch.context() as m:
            m.setattr(module, "__file__", str(edited))
            assert runner.code_version != base, module.__name__
    assert runner.code_version == base


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_cli_db_export(tmp_path):
    path = tmp_path / "t.sqlite"
    with TuningDatabase(path) as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 3.0, 2.0, 5, candidate=CONFIG, dispatch="d0"))
    r = run_cli("db", "export", "--csv", "--db", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("dispatch_fp,target_fp,candidate_key")
    assert len(r.stdout.splitlines()) == 2
    out = tmp_path / "export.json"
    r = run_cli("db", "export", "--json", "--db", path, "-o", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["measurements"][0]["median_us"] == 3.0
    assert not (tmp_path / "export.json.partial").exists()


def test_cli_db_export_errors_are_one_line(tmp_path):
    r = run_cli("db", "export", "--csv", "--db", tmp_path / "missing.sqlite")
    assert r.returncode == 2 and "no tuning database" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "missing.sqlite").exists()
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not sqlite at all " * 100)
    r = run_cli("db", "export", "--json", "--db", junk)
    assert r.returncode == 2 and "not a usable tuning database" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli("db", "export", "--db", junk)  # no format
    assert r.returncode == 2


# ---- db import (telemetry from another rung or machine) -----------------------------------------

OTHER_TFP = "s" * 64  # e.g. silicon's fingerprint: never mixed with this machine's records


def _exported(tmp_path, records, fmt="json"):
    """An export file, as `db export` writes it, of a database holding `records`."""
    out = tmp_path / f"export.{fmt}"
    with TuningDatabase(tmp_path / f"other-{fmt}.sqlite") as db:
        for dfp, tfp, m in records:
            db.record_measurement(dfp, tfp, m)
        db.save_calibration(OTHER_TFP, {"compute": 1.5})
        (db.export_json if fmt == "json" else db.export_csv)(out)
    return out


def cli(capsys, *args):
    """The CLI in this process (as fast as a function call): exit status, stdout, stderr."""
    from iree_dsa_tuner.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_cli_db_import_merges_and_names_the_dispatches_whose_best_changed(tmp_path, capsys, fmt):
    faster = {**CONFIG, "distribution": [0, 128, 0]}
    local = tmp_path / "local.sqlite"
    with TuningDatabase(local) as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 10.0, 9.0, 5, candidate=CONFIG, dispatch="d0",
                                                      runner="dsa-sim", created_at="2026-01-01T00:00:00+00:00"))
        db.record_measurement("dfp2", TFP, Measurement("ok", 4.0, 4.0, 1, candidate=CONFIG, dispatch="d2",
                                                       runner="dsa-sim", created_at="2026-01-01T00:00:00+00:00"))
    export = _exported(tmp_path, [
        # d0: another rung found a better config -> its best changes.
        ("dfp", TFP, Measurement("ok", 7.5, 7.0, 3, candidate=faster, dispatch="d0", runner="cycle-approx",
                                 details={"cycles": 7300}, created_at="2026-02-01T00:00:00+00:00")),
        # d2: a slower config -> the best stays.
        ("dfp2", TFP, Measurement("ok", 6.0, 6.0, 1, candidate=faster, dispatch="d2", runner="cycle-approx",
                                  created_at="2026-02-01T00:00:00+00:00")),
        # Another target's record keeps its own fingerprint.
        ("dfp", OTHER_TFP, Measurement("timeout", reason="did not finish", candidate=CONFIG, dispatch="d0",
                                       runner="silicon", created_at="2026-02-01T00:00:00+00:00")),
    ], fmt)
    r = cli(capsys, "db", "import", export, "--db", local)
    assert r.returncode == 0, r.stderr
    assert "imported 3 measurements" in r.stdout and "3 new" in r.stdout
    changed = [line for line in r.stdout.splitlines() if line.startswith("  ")]
    assert len(changed) == 1 and "d0" in changed[0] and "10.000 us -> 7.500 us" in changed[0]
    assert "cycle-approx" in changed[0]
    assert f"iree-dsa-tune tune MODEL.mlir --target NAME --db {local}" in r.stdout
    with TuningDatabase(local) as db:
        got = db.lookup("dfp", TFP, candidate_key(faster))
        assert (got.median_us, got.runner, got.repetitions) == (7.5, "cycle-approx", 3)
        assert got.created_at == "2026-02-01T00:00:00+00:00"
        if fmt == "json":
            assert got.details == {"cycles": 7300}
            assert db.load_calibration(OTHER_TFP) == {"compute": 1.5}
        assert db.lookup("dfp", OTHER_TFP, candidate_key(CONFIG)).status == "timeout"
        assert db.lookup("dfp", TFP, candidate_key(CONFIG)).median_us == 10.0
    # Importing the same file again changes nothing.
    again = cli(capsys, "db", "import", export, "--db", local)
    assert again.returncode == 0 and "no dispatch's best changed" in again.stdout


def test_db_import_keeps_the_newer_record(tmp_path):
    from iree_dsa_tuner.db.importing import import_export

    export = _exported(tmp_path, [("dfp", TFP, Measurement("ok", 3.0, 3.0, 1, candidate=CONFIG, dispatch="d0",
                                                            created_at="2026-01-01T00:00:00+00:00"))])
    with TuningDatabase(tmp_path / "local.sqlite") as db:
        db.record_measurement("dfp", TFP, Measurement("ok", 5.0, 5.0, 1, candidate=CONFIG, dispatch="d0",
                                                      created_at="2026-06-01T00:00:00+00:00"))
        summary = import_export(db, export)
        assert (summary.added, summary.replaced, summary.kept) == (0, 0, 1)
        assert db.lookup("dfp", TFP, candidate_key(CONFIG)).median_us == 5.0


def test_cli_db_import_refuses_a_malformed_file_with_one_line(tmp_path, capsys):
    local = tmp_path / "local.sqlite"
    good = _exported(tmp_path, [("dfp", TFP, Measurement("ok", 3.0, 3.0, 1, candidate=CONFIG, dispatch="d0"))])
    document = json.loads(good.read_text())
    bad_cases = {
        "not_json.json": "{ not json",
        "no_measurements.json": json.dumps({"schema_version": 1}),
        "bad_status.json": json.dumps({**document, "measurements": [{**document["measurements"][0],
                                                                     "status": "fast"}]}),
        "ok_without_time.json": json.dumps({**document, "measurements": [{**document["measurements"][0],
                                                                          "median_us": None}]}),
        "bad_header.csv": "a,b,c\n1,2,3\n",
        "binary.csv": "",
    }
    for name, text in bad_cases.items():
        path = tmp_path / name
        if name == "binary.csv":
            path.write_bytes(b"\xff\xfe\x00garbage")
        else:
            path.write_text(text)
        r = cli(capsys, "db", "import", path, "--db", local)
        assert r.returncode == 2, (name, r.stdout, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, name
        assert str(path) in r.stderr, name
    assert "measurement 1: status" in cli(capsys, "db", "import", tmp_path / "bad_status.json", "--db", local).stderr
    assert not local.exists()  # nothing was written, not even an empty database
    r = run_cli("db", "import", tmp_path / "missing.json", "--db", local)  # the real command's exit status
    assert r.returncode == 2 and "no such file" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_two_tune_processes_share_one_database_and_lose_nothing(tmp_path):
    """Two `tune` runs write one database at the same time: every measurement of each is in it."""
    inputs = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
    db_path = tmp_path / "shared.sqlite"
    runs = []
    for name in ("mlp3", "int8_gemm"):
        report = tmp_path / f"{name}.json"
        argv = [sys.executable, "-m", "iree_dsa_tuner.cli", "tune", str(inputs / f"{name}.mlir"), "--target", "dsa-e1",
                "--budget", "12", "--db", str(db_path), "-o", str(tmp_path / f"{name}.spec.mlir"),
                "--json", str(report), "--quiet"]
        runs.append((report, subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)))
    expected = {}
    for report, proc in runs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]
        for d in json.loads(report.read_text())["dispatches"]:
            expected[d["dispatch"]] = d["measured"] + d["cached"]
    with TuningDatabase(db_path) as db:
        buffer = io.StringIO()
        db.export_csv(buffer)
    stored: dict[str, int] = {}
    for row in csv.DictReader(io.StringIO(buffer.getvalue())):
        stored[row["dispatch"]] = stored.get(row["dispatch"], 0) + 1
    assert len(expected) >= 4  # three mlp3 dispatches and the int8 GEMM
    for dispatch, measured in expected.items():
        assert stored.get(dispatch, 0) >= measured, (dispatch, stored.get(dispatch), measured)


def test_no_lit_test_writes_the_default_database_into_the_source_tree():
    """lit runs a test in its source directory: a `tune` or `db import` without --db there
    writes ./iree-dsa-tuning.sqlite into the checkout (and reuses it next run)."""
    import re

    lit = Path(__file__).resolve().parent.parent / "lit_tests"
    offenders, seen = [], 0
    for path in sorted(lit.rglob("*")):
        if path.suffix not in (".test", ".mlir", ".py") or "Output" in path.parts or "inputs" in path.parts:
            continue
        # RUN lines joined over their `\` continuations, then split into the commands of a pipeline.
        text = re.sub(r"\\\n\s*(#|//)\s*RUN:", " ", path.read_text(errors="replace"))
        for line in re.findall(r"RUN:(.*)", text):
            for command in re.split(r"\|\||&&|\||;", line):
                if re.search(r"dsa-tune\S*\s+(tune|db\s+import)\b", command):
                    seen += 1
                    if not re.search(r"--(no-)?db\b", command):
                        offenders.append(f"{path.relative_to(lit)}: {command.strip()}")
    assert seen > 0  # the scan finds the tests it guards
    assert offenders == [], "pass --db %t.sqlite (or --no-db):\n" + "\n".join(offenders)
