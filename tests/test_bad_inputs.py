"""The bad-input corpus: every mistake a user can make gives one line on stderr, exit 2, and writes nothing.

Each case builds its inputs in a fresh directory, runs one command as a user would, and
checks the three promises. `{out}` in a command is a path that must not exist afterwards.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import INPUTS, matmul_model

REPO = Path(__file__).resolve().parent.parent
MLP3 = INPUTS / "mlp3.mlir"
MANIFEST = """schema = "iree-dsa-manifest/1"
[model]
id = "m"
[task]
chunk_size = 4
n_action_steps = 4
flow_steps = 2
control_rate_hz = 10
latency_budget_ms = 100
[[stage]]
name = "s"
mlir = "stage.mlir"
repeat = 1
per = "chunk"
"""


def _target_file(tmp: Path, edit) -> Path:
    text = (REPO / "compiler/plugins/dsa/iree_dsa_plugin/targets/dsa-e1.toml").read_text()
    d = tmp / "targets"
    d.mkdir()
    (d / "mine.toml").write_text(edit(text.replace('name = "dsa-e1"', 'name = "mine"')))
    return d


def _db(tmp: Path, kind: str) -> Path:
    path = tmp / "t.sqlite"
    if kind == "corrupt":
        path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    else:  # a database written by a newer tuner
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('schema_version', '99')")
        conn.commit()
        conn.close()
    return path


def _manifest(tmp: Path, edit) -> Path:
    (tmp / "stage.mlir").write_text(matmul_model(8, 64, 64))
    path = tmp / "m.toml"
    path.write_text(edit(MANIFEST))
    return path


def _setup(tmp: Path, case: str):
    """(argv after `iree-dsa-tune`, what must not exist afterwards)."""
    out = tmp / "out.mlir"
    model = tmp / "model.mlir"
    model.write_text(matmul_model(8, 64, 64))
    if case == "missing_model":
        return ["inspect", tmp / "nope.mlir"], out
    if case == "directory_model":
        return ["tune", tmp, "--target", "dsa-e1", "-o", out], out
    if case == "binary_model":
        (tmp / "b.mlir").write_bytes(bytes(range(256)) * 8)
        return ["tune", tmp / "b.mlir", "--target", "dsa-e1", "-o", out], out
    if case == "truncated_model":
        (tmp / "t.mlir").write_text(matmul_model(8, 64, 64)[:150])
        return ["tune", tmp / "t.mlir", "--target", "dsa-e1", "-o", out], out
    if case == "empty_model":
        (tmp / "e.mlir").write_text("")
        return ["inspect", tmp / "e.mlir"], out
    if case == "not_mlir":
        return ["inspect", INPUTS / "not_mlir.txt"], out
    if case == "unknown_op":
        return ["tune", INPUTS / "unknown_op.mlir", "--target", "dsa-e1", "-o", out], out
    if case == "unicode_space_missing":
        return ["inspect", tmp / "mödel with space.mlir"], out
    if case == "symlink_loop":
        os.symlink(tmp / "loop_b.mlir", tmp / "loop_a.mlir")
        os.symlink(tmp / "loop_a.mlir", tmp / "loop_b.mlir")
        return ["inspect", tmp / "loop_a.mlir"], out
    if case == "output_parent_is_a_file":  # (a read-only directory cannot stop root, who runs CI)
        (tmp / "file.txt").write_text("x")
        return ["tune", model, "--target", "dsa-e1", "-o", tmp / "file.txt" / "spec.mlir"], out
    if case == "output_is_directory":
        (tmp / "d").mkdir()
        return ["spec", MLP3, "--plan", INPUTS / "plans/mlp3.plan.json", "-o", tmp / "d"], out
    if case in ("corrupt_db", "newer_db"):
        return ["tune", model, "--target", "dsa-e1", "-o", out, "--db", _db(tmp, case.split("_")[0])], out
    if case == "db_export_corrupt":
        return ["db", "export", "--csv", "--db", _db(tmp, "corrupt")], out
    if case == "unknown_target":
        return ["tune", model, "--target", "nosuchtarget", "-o", out], out
    if case == "negative_bandwidth":
        d = _target_file(tmp, lambda t: t.replace("dram_bandwidth_gbps = 68", "dram_bandwidth_gbps = -68"))
        return ["tune", model, "--target", "mine", "--target-path", d, "-o", out], out
    if case == "zero_mac_array":
        d = _target_file(tmp, lambda t: t.replace("mac_array = { m = 16, n = 32, k = 16 }",
                                                  "mac_array = { m = 0, n = 32, k = 16 }"))
        return ["tune", model, "--target", "mine", "--target-path", d, "-o", out], out
    if case == "target_file_not_toml":
        d = _target_file(tmp, lambda t: t + "\n[[[ broken")
        return ["tune", model, "--target", "mine", "--target-path", d, "-o", out], out
    if case == "budget_zero":
        return ["tune", model, "--target", "dsa-e1", "-o", out, "--budget", "0"], out
    if case == "repetitions_zero":
        return ["tune", model, "--target", "host", "-o", out, "--repetitions", "0"], out
    if case == "time_budget_negative":
        return ["tune", model, "--target", "dsa-e1", "-o", out, "--time-budget", "-5"], out
    if case == "rounds_zero":
        return ["tune", model, "--target", "host", "-o", out, "--rounds", "0"], out
    if case == "plan_not_json":
        (tmp / "p.json").write_text("{not json")
        return ["spec", MLP3, "--plan", tmp / "p.json", "-o", out], out
    if case == "plan_unknown_dispatch":
        return ["spec", MLP3, "--plan", INPUTS / "plans/unknown_dispatch.plan.json", "-o", out], out
    if case == "plan_wrong_tile_count":
        return ["spec", MLP3, "--plan", INPUTS / "plans/mlp3_wrong_tile_count.plan.json", "-o", out], out
    if case == "verify_malformed_spec":
        return ["verify", MLP3, INPUTS / "malformed_spec.mlir"], out
    if case == "verify_missing_spec":
        return ["verify", MLP3, tmp / "nope.mlir"], out
    if case == "link_missing_file":
        return ["link", tmp / "a.mlir", tmp / "b.mlir", "-o", out], out
    if case == "manifest_missing_key":
        return ["task", _manifest(tmp, lambda t: t.replace("flow_steps = 2\n", "")), "--no-library"], out
    if case == "manifest_ill_typed":
        return ["task", _manifest(tmp, lambda t: t.replace("repeat = 1", 'repeat = "one"')), "--no-library"], out
    if case == "manifest_missing_stage_file":
        return ["task", _manifest(tmp, lambda t: t.replace("stage.mlir", "gone.mlir")), "--no-library"], out
    if case == "manifest_not_toml":
        (tmp / "m.toml").write_text("schema = [[[")
        return ["task", tmp / "m.toml", "--no-library"], out
    if case == "task_flow_steps_zero":
        return ["task", _manifest(tmp, lambda t: t), "--no-library", "--flow-steps", "4,0"], out
    if case == "task_budget_ms_negative":
        return ["task", _manifest(tmp, lambda t: t), "--no-library", "--budget-ms", "-1"], out
    if case == "task_jobs_zero":
        return ["task", _manifest(tmp, lambda t: t), "--no-library", "--jobs", "0"], out
    if case == "recipe_missing_spec":
        recipe = tmp / "r.recipe.toml"
        recipe.write_text('schema = "iree-dsa-recipe/1"\nmodel = "m"\nmodel_sha256 = "x"\ntarget_cpu = "host"\n'
                          'flags = []\nspec = "gone.mlir"\n')
        return ["compile", model, "--recipe", recipe, "-o", tmp / "m.vmfb"], tmp / "m.vmfb"
    if case == "recipe_other_model":
        recipe = tmp / "r.recipe.toml"
        recipe.write_text('schema = "iree-dsa-recipe/1"\nmodel = "m"\nmodel_sha256 = "00"\ntarget_cpu = "host"\n'
                          'flags = []\nspec = ""\n')
        return ["compile", model, "--recipe", recipe, "-o", tmp / "m.vmfb"], tmp / "m.vmfb"
    raise AssertionError(case)


# What each message must say, as fragments (`{tmp}` is the case's directory, `{inputs}` lit's
# inputs): the file (with a line:column where there is one), the key or parameter, and the fix
# (what to give instead, or the expected value). A message that stops naming one fails here.
MESSAGES = {
    "missing_model": ["{tmp}/nope.mlir: no such file"],
    "directory_model": ["{tmp}: is a directory", "expected an MLIR file"],
    "binary_model": ["{tmp}/b.mlir: not an MLIR file (binary data)"],
    "truncated_model": ["{tmp}/t.mlir:3:36: error: expected non-function type"],
    "empty_model": ["{tmp}/e.mlir: IREE made no dispatches from this module (nothing to tune)"],
    "not_mlir": ["{inputs}/not_mlir.txt:1:1: error: custom op 'This' is unknown"],
    "unknown_op": ["{inputs}/unknown_op.mlir:5:10: error: unknown op 'foo.bar'", "no IREE dialect registers it"],
    "unicode_space_missing": ["{tmp}/mödel with space.mlir: no such file"],
    "symlink_loop": ["{tmp}/loop_a.mlir: a symbolic link that leads to no file", "a loop"],
    "output_parent_is_a_file": ["{tmp}/file.txt/spec.mlir: cannot write", "{tmp}/file.txt is a file, not a directory"],
    "output_is_directory": ["{tmp}/d: cannot write: is a directory", "give a file path"],
    "corrupt_db": ["{tmp}/t.sqlite: not a usable tuning database", "give --db another path"],
    "newer_db": ["{tmp}/t.sqlite: tuning database schema 99, this tuner reads 1",
                 "use the iree-dsa-tuner that wrote it, or give --db another path"],
    "db_export_corrupt": ["{tmp}/t.sqlite: not a usable tuning database", "give --db another path"],
    "unknown_target": ["unknown target 'nosuchtarget'", "(installed: dsa-c1, dsa-e1, host)"],
    "negative_bandwidth": ["{tmp}/targets/mine.toml: field 'memory.dram_bandwidth_gbps'",
                           "expected a positive number, got -68"],
    "zero_mac_array": ["{tmp}/targets/mine.toml: field 'compute.mac_array.m'", "expected a positive integer, got 0"],
    "target_file_not_toml": ["{tmp}/targets/mine.toml", "(at line 82, column 3)"],
    "budget_zero": ["--budget must be at least 1"],
    "repetitions_zero": ["--repetitions must be at least 1"],
    "time_budget_negative": ["--time-budget must be a positive number of seconds"],
    "rounds_zero": ["--rounds must be at least 1"],
    "plan_not_json": ["{tmp}/p.json:1:2: not valid JSON", "Expecting property name enclosed in double quotes"],
    "plan_unknown_dispatch": ["{inputs}/plans/unknown_dispatch.plan.json",
                              "dispatches the model does not have: no_such_dispatch_0_matmul_8x8x8_f32"],
    "plan_wrong_tile_count": ["{inputs}/plans/mlp3_wrong_tile_count.plan.json",
                              "mlp3_dispatch_0_matmul_8x512x256_f32: distribution has 2 entries but the op has 3 loops"],
    "verify_malformed_spec": ["{inputs}/malformed_spec.mlir:6:25: error: not a valid tuning spec: expected SSA operand"],
    "verify_missing_spec": ["{tmp}/nope.mlir: no such file"],
    "link_missing_file": ["{tmp}/a.mlir: no such file"],
    "manifest_missing_key": ["{tmp}/m.toml: key 'task.flow_steps': missing (required)"],
    "manifest_ill_typed": ["{tmp}/m.toml: key 'stage[0].repeat': expected int, got 'one'"],
    "manifest_missing_stage_file": ["{tmp}/m.toml: key 'stage[0].mlir': no such file: {tmp}/gone.mlir"],
    "manifest_not_toml": ["{tmp}/m.toml: not a TOML manifest", "(at end of document)"],
    "task_flow_steps_zero": ["--flow-steps: every count must be at least 1, got '4,0'"],
    "task_budget_ms_negative": ["--budget-ms must be a positive number of milliseconds"],
    "task_jobs_zero": ["--jobs must be at least 1"],
    "recipe_missing_spec": ["{tmp}/r.recipe.toml: key 'spec': no such file: {tmp}/gone.mlir"],
    "recipe_other_model": ["{tmp}/r.recipe.toml: the recipe was tuned for other model bytes than {tmp}/model.mlir",
                           "(model_sha256 differs); tune this model again"],
}
CASES = list(MESSAGES)


def test_the_corpus_has_at_least_30_cases():
    assert len(CASES) == len(set(CASES)) >= 30


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every path under `root` with its kind, size, modification time and (files) content."""
    out = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            out[key] = ("link", os.readlink(path))
        elif path.is_dir():
            out[key] = ("dir",)
        else:
            st = path.stat()
            out[key] = ("file", st.st_size, st.st_mtime_ns, path.read_bytes())
    return out


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_exit_2_naming_file_key_and_fix_and_nothing_written(tmp_path, case):
    argv, _ = _setup(tmp_path, case)
    before = _snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, argv)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("iree-dsa-tune: "), lines[0]
    for fragment in MESSAGES[case]:
        assert fragment.format(tmp=tmp_path, inputs=INPUTS) in lines[0], lines[0]
    # Nothing at all written where the user works (cwd is tmp_path): no output, no database,
    # no partial or temporary file, no input touched.
    after = _snapshot(tmp_path)
    assert sorted(set(after) - set(before)) == [] and sorted(set(before) - set(after)) == []
    assert [k for k in before if before[k] != after[k]] == []
