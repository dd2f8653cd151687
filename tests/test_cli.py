"""The command line as a user meets it: exit codes, one-line errors, all-or-nothing output."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from conftest import INPUTS


def tune(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_inspect_json_lists_every_dispatch():
    r = tune("inspect", INPUTS / "mlp3.mlir", "--json")
    assert r.returncode == 0, r.stderr
    records = json.loads(r.stdout)
    assert [x["dispatch"] for x in records] == [
        "mlp3_dispatch_0_matmul_8x512x256_f32", "mlp3_dispatch_1_matmul_8x256x512_f32", "mlp3_dispatch_2_matmul_8x128x256_f32"]
    for key in ("kind", "sizes", "lhs_type", "rhs_type", "out_type", "flops", "bytes", "intensity"):
        assert key in records[0]


def test_inspect_table_is_aligned_and_summarised():
    r = tune("inspect", INPUTS / "gemma_mlp_b1.mlir")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("dispatch") and set(lines[1]) <= {"-", " "}
    assert "3 dispatches, 3 tunable" in r.stdout


@pytest.mark.parametrize("name", ["not_mlir.txt", "malformed.mlir", "unknown_op.mlir", "absent.mlir"])
def test_bad_input_is_one_line_exit_2(name):
    r = tune("inspect", INPUTS / name)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0]
    assert "Traceback" not in r.stderr


def test_debug_shows_the_traceback():
    r = tune("--debug", "inspect", INPUTS / "malformed.mlir")
    assert r.returncode != 0 and "Traceback" in r.stderr


@pytest.mark.slow
def test_spec_then_verify_round_trip(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"mlp3_dispatch_2_matmul_8x128x256_f32": {
        "distribution": [8, 32, 0], "vector_common_parallel": [8, 16, 0], "vector_reduction": [0, 0, 8]}}))
    spec = tmp_path / "spec.mlir"
    r = tune("spec", INPUTS / "mlp3.mlir", "--plan", plan, "-o", spec)
    assert r.returncode == 0, r.stderr
    r = tune("verify", INPUTS / "mlp3.mlir", spec, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["ok"] and report["ops"][0]["status"] == "applied"


def test_unwritable_output_writes_nothing(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"mlp3_dispatch_2_matmul_8x128x256_f32": {
        "distribution": [8, 32, 0], "vector_common_parallel": [8, 16, 0], "vector_reduction": [0, 0, 8]}}))
    r = tune("spec", INPUTS / "mlp3.mlir", "--plan", plan, "-o", tmp_path / "no" / "dir" / "spec.mlir")
    assert r.returncode == 2 and "cannot write" in r.stderr
    assert not (tmp_path / "no").exists()


def test_bad_plan_leaves_no_partial_spec(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"mlp3_dispatch_2_matmul_8x128x256_f32": {"distribution": [8, 32]')
    spec = tmp_path / "spec.mlir"
    r = tune("spec", INPUTS / "mlp3.mlir", "--plan", plan, "-o", spec)
    assert r.returncode == 2 and "plan.json:1:" in r.stderr
    assert not spec.exists()


def test_malformed_spec_is_a_clear_error(tmp_path):
    spec = tmp_path / "broken.mlir"
    spec.write_text("module attributes {transform.with_named_sequence} {\n  transform.named_sequence @x(\n}\n")
    r = tune("verify", INPUTS / "mlp3.mlir", spec)
    assert r.returncode == 2
    assert "broken.mlir" in r.stderr and "not a valid tuning spec" in r.stderr


def test_written_files_follow_the_umask(tmp_path):
    import os
    import stat

    from iree_dsa_tuner.report import write_output

    old = os.umask(0o022)
    try:
        write_output(tmp_path / "spec.mlir", "// spec\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "spec.mlir").stat().st_mode) == 0o644


@pytest.mark.parametrize("command", [["tune", "--target", "nosuchtarget", "-o", "x.mlir"],
                                     ["tune", "--target", "dsa-e1", "--repetitions", "0", "-o", "x.mlir"],
                                     ["tune", "--target", "dsa-e1", "--time-budget", "-5", "-o", "x.mlir"]])
def test_tune_mistakes_are_one_line_and_exit_2(tmp_path, command):
    model = INPUTS / "mlp3.mlir"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", command[0], str(model), *command[1:]],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.mlir").exists()


def test_tune_and_db_export_default_to_one_database():
    from iree_dsa_tuner.cli import build_parser

    parser = build_parser()
    tune = parser.parse_args(["tune", "m.mlir", "-o", "s.mlir"])
    export = parser.parse_args(["db", "export", "--csv"])
    assert str(tune.db) == str(export.db) == "iree-dsa-tuning.sqlite"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:  # stderr as an interactive shell has it
        return True


@pytest.mark.slow
def test_tune_progress_is_a_bar_on_a_terminal_and_lines_in_a_log(tmp_path, monkeypatch):
    args = [INPUTS / "mlp3.mlir", "--target", "dsa-e1", "--budget", "2", "--no-db"]
    logged = tune("tune", *args, "-o", tmp_path / "a.mlir")  # stderr is a pipe here
    assert logged.returncode == 0, logged.stderr
    lines = logged.stderr.splitlines()
    assert sum(line.startswith("    measured 2/2, best so far") for line in lines) == 3  # one per dispatch
    assert "\r" not in logged.stderr

    from iree_dsa_tuner.cli import main

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["tune", *map(str, args), "-o", str(tmp_path / "b.mlir")]) == 0
    shown = terminal.getvalue()
    assert "    measured " not in shown and "[1/3] mlp3_dispatch_0" in shown  # other lines stay lines
    bars = [frame for frame in shown.split("\r") if "2/2 measured" in frame]
    assert len(bars) >= 3 and all("best so far" in frame for frame in bars)  # one finished bar per dispatch
    assert (tmp_path / "a.mlir").read_text() == (tmp_path / "b.mlir").read_text()  # only the display differs
