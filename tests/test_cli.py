"""The command line as a user meets it: exit codes, one-line errors, all-or-nothing output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

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
                                     ["tune", "--target", "dsa-e1", "--time-budget", "-5", "-o", "x.mlir"],
                                     ["tune", "--target", "dsa-e1", "--threads", "0", "-o", "x.mlir"],
                                     ["tune", "--target", "dsa-e1", "--threads", "2", "-o", "x.mlir"],
                                     ["tune", "--target", "host", "--threads", "2", "--no-recipe", "-o", "x.mlir"]])
def test_tune_mistakes_are_one_line_and_exit_2(tmp_path, command):
    model = INPUTS / "mlp3.mlir"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", command[0], str(model), *command[1:]],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.mlir").exists()


def test_every_command_defaults_to_one_database_and_says_which():
    from iree_dsa_tuner.cli import build_parser
    from iree_dsa_tuner.db import DEFAULT_DB_PATH

    parser = build_parser()
    parsed = {" ".join(argv[:2]): parser.parse_args(argv) for argv in (
        ["tune", "m.mlir", "-o", "s.mlir"], ["task", "pi0"], ["demo"], ["db", "export", "--csv"],
        ["db", "import", "x.csv"])}
    # The Python API's default too: `demo` used to write iree-dsa-demo/tuning.sqlite, which `db export` never read.
    assert {str(a.db) for a in parsed.values()} == {"iree-dsa-tuning.sqlite"} == {str(DEFAULT_DB_PATH)}
    subs = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    db_actions = next(a for a in subs["db"]._actions if a.__class__.__name__ == "_SubParsersAction").choices
    commands = {"tune": subs["tune"], "task": subs["task"], "demo": subs["demo"], "db export": db_actions["export"],
                "db import": db_actions["import"]}
    helps = {name: next(a.help for a in sub._actions if "--db" in a.option_strings) for name, sub in commands.items()}
    assert all(h.endswith("(default ./iree-dsa-tuning.sqlite, the one demo, tune, task and db share)")
               for h in helps.values()), helps
    helps = {name: " ".join(sub.format_help().split()) for name, sub in commands.items()}
    assert "where the specs go (default: ./iree-dsa-demo)" in helps["demo"]


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
    # Off a terminal a dispatch's search is summarised, not logged per measurement: at most its
    # state before the elite's line and its last.
    assert sum(line.startswith("    measured ") for line in lines) <= 2 * 3
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


# ---- issue 45: a tidy CLI -------------------------------------------------------------------------

def test_task_takes_a_shipped_manifest_by_name_from_any_directory(tmp_path):
    from iree_dsa_tuner.commands.task import resolve_manifest
    from iree_dsa_tuner.examples import MANIFESTS_DIR, shipped_manifests

    shipped = shipped_manifests()
    assert {"pi0", "gr00t_dit", "openvla", "diffusion_policy"} <= set(shipped)
    # The checkout's lit manifests too; a stem the package has is named by its folder.
    assert shipped["torch_expert"] == INPUTS / "manifests" / "torch_expert.toml"
    assert shipped["lerobot/pi0"] == INPUTS / "lerobot" / "pi0.toml"
    assert shipped["pi0_w4a8"] == INPUTS / "lerobot" / "pi0_w4a8.toml"
    for name in ("pi0", "pi0.toml"):
        assert resolve_manifest(name) == MANIFESTS_DIR / "pi0.toml"
    assert resolve_manifest("lerobot/pi0.toml") == INPUTS / "lerobot" / "pi0.toml"
    # A file of that name wins over the shipped one.
    (tmp_path / "pi0.toml").write_text("# mine\n")
    import os

    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert resolve_manifest("pi0.toml") == tmp_path.joinpath("pi0.toml").relative_to(tmp_path)
        (tmp_path / "openvla").mkdir()  # a directory of that name is not a manifest
        assert resolve_manifest("openvla") == MANIFESTS_DIR / "openvla.toml"
    finally:
        os.chdir(old)

    listed = tune("task", "--list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[0].split()[:2] == ["name", "model"]
    for name, path in shipped.items():
        row = next(line for line in listed.stdout.splitlines() if line.startswith(name + " "))
        assert str(path) in row
    assert f"{len(shipped)} shipped manifests" in listed.stdout
    as_json = tune("task", "--list", "--json", cwd=tmp_path)
    assert [r["name"] for r in json.loads(as_json.stdout)] == list(shipped)

    unknown = tune("task", "pi9", cwd=tmp_path)
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1
    assert "pi9: no such file, nor a shipped manifest of that name (they are: diffusion_policy, " in unknown.stderr
    none = tune("task", cwd=tmp_path)
    assert none.returncode == 2 and "task --list" in none.stderr and "Traceback" not in none.stderr


def test_the_task_examples_in_help_name_manifests_that_resolve_anywhere(tmp_path):
    import re

    from iree_dsa_tuner.commands.task import resolve_manifest

    top = tune("--help", cwd=tmp_path).stdout
    sub = tune("task", "--help", cwd=tmp_path).stdout
    examples = re.findall(r"iree-dsa-tune task ((?:[\w./]+ )+)--target", top + sub)
    assert examples and "pi0 " in examples
    for example in examples:
        for name in example.split():
            assert resolve_manifest(name).is_file(), name
    assert "pi0.toml --target" not in top  # the old example, which only ran inside the manifests folder


def test_help_prints_percent_signs_once():
    from iree_dsa_tuner.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, sub in action.choices.items():
        assert "%%" not in sub.format_help(), name
    r = tune("task", "--help")
    assert "below 95% of its elite's performance" in " ".join(r.stdout.split()) and "%%" not in r.stdout


def _db_with_one_measurement(path):
    from iree_dsa_tuner.core.measurement import Measurement
    from iree_dsa_tuner.db import TuningDatabase

    with TuningDatabase(path) as db:
        db.record_measurement("d" * 64, "t" * 64, Measurement("ok", 3.0, 2.0, 5, dispatch="d0"))
    return path


def test_db_export_takes_json_and_csv_files_as_every_command_takes_json(tmp_path):
    db = _db_with_one_measurement(tmp_path / "t.sqlite")
    r = tune("db", "export", "--json", tmp_path / "e.json", "--db", db)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "e.json").read_text())["measurements"][0]["median_us"] == 3.0
    assert r.stdout == "" and "wrote 1 measurements" in r.stderr
    r = tune("db", "export", "--csv", tmp_path / "e.csv", "--db", db)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "e.csv").read_text().startswith("dispatch_fp,target_fp")
    bare = tune("db", "export", "--json", "--db", db)  # no FILE: stdout, as before
    assert json.loads(bare.stdout)["measurements"][0]["dispatch"] == "d0"
    both = tune("db", "export", "--json", tmp_path / "a.json", "--db", db, "-o", tmp_path / "b.json")
    assert both.returncode == 2 and "two destinations" in both.stderr
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()
    caught = tune("db", "export", "--json", db)  # the database caught by --json
    assert caught.returncode == 2 and "give it as --db" in caught.stderr


def test_targets_reports_a_bad_description_file_with_exit_2(tmp_path):
    (tmp_path / "broken.toml").write_text("schema = \n")
    r = tune("targets", "--target-path", tmp_path)
    assert r.returncode == 2, r.stderr
    assert "broken.toml" in r.stderr and r.stderr.startswith("iree-dsa-tune: error: ")
    assert "dsa-e1" in r.stdout  # the good ones are still listed


@pytest.mark.parametrize("argv", [
    ["targets"], ["targets", "--json"], ["funnel", "--shape", "1x256x256", "--target", "dsa-e1"],
    ["tune", "absent.mlir", "-o", "s.mlir"]])
@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_target_path_that_is_not_a_directory_is_an_input_error(tmp_path, argv, kind):
    path = tmp_path / "no-such-dir"
    if kind == "a file":
        path.write_text("")
    r = tune(*argv, "--target-path", path, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    problem = "not a directory" if kind == "a file" else "no such directory"
    assert r.stderr == f"iree-dsa-tune: error: --target-path {path}: {problem}\n"
    assert r.stdout == ""  # nothing listed or tuned before the error


@pytest.mark.parametrize("argv", [
    ["inspect", "absent.mlir"], ["funnel", "absent.mlir"], ["spec", "absent.mlir", "--plan", "p.json", "-o", "s.mlir"],
    ["verify", "absent.mlir", "s.mlir"], ["link", "absent.mlir", "-o", "l.mlir"], ["tune", "absent.mlir", "-o", "s.mlir"],
    ["compile", "absent.mlir", "--recipe", "absent.toml", "-o", "m.vmfb"], ["profile", "absent.mlir"],
    ["task", "absent.toml"], ["db", "export", "--csv", "--db", "absent.sqlite"], ["db", "import", "absent.csv"],
    ["quantize", "absent.mlir", "--scheme", "w4a8", "-o", "q"], ["no-such-command"], ["tune", "--budget"]])
def test_every_command_exits_2_on_an_input_or_usage_error(tmp_path, argv):
    r = tune(*argv, cwd=tmp_path)
    assert r.returncode == 2, (argv, r.stderr)
    assert "Traceback" not in r.stderr and "error" in r.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written, no database invented


def test_the_tune_table_labels_its_elite_ratio_and_uses_one_best(capsys):
    from iree_dsa_tuner.commands.tune import summary_table
    from iree_dsa_tuner.search.results import DispatchResult, TuneResult

    # A matvec whose search best (274.4) did not beat its default (276.4) by the margin: kept.
    kept = DispatchResult("mv_dispatch_0_matvec_2048x2048_f32", "2048x2048", space_size=10, survivors=4, measured=4,
                          default_us=276.4, best_us=274.4, tuned_us=274.4, elite_us=300.0, chosen="default")
    won = DispatchResult("mm_dispatch_1_matmul_1x64x64_f32", "1x64x64", default_us=20.0, best_us=8.0, tuned_us=8.0,
                         elite_us=10.0, chosen="tuned", bound_us=4.0)
    text = summary_table(TuneResult("m.mlir", "host", "pruned", dispatches=[kept, won]))
    header, _, *rows = text.splitlines()
    assert "elite/tuned" in header.split() and "tuned/elite" not in text
    kept_row = next(r for r in rows if r.startswith(kept.dispatch))
    # The row's best is the number the search's "-> default: ... best 274.4 us" line gives; its
    # ratio is the elite over that same number; nothing shows the default twice.
    assert kept_row.count("276.4") == 1 and "274.4" in kept_row
    assert f"{100 * 300.0 / 274.4:.0f}%" in kept_row and " 1.00x" in kept_row
    won_row = next(r for r in rows if r.startswith(won.dispatch))
    assert "125%" in won_row and "2.50x" in won_row and "50%" in won_row  # elite/tuned, speedup, % bound
    assert "-%" not in text and "-x" not in text  # missing figures are "-"
    assert "elite/tuned = elite us / the search's own best us" in text


def test_plurals_come_from_one_helper():
    from iree_dsa_tuner.commands.targets import compute_text
    from iree_dsa_tuner.commands.tune import summary_table
    from iree_dsa_tuner.core.words import plural as core_plural
    from iree_dsa_tuner.report import plural
    from iree_dsa_tuner.search.results import DispatchResult, TuneResult

    assert plural is core_plural  # one helper: report re-exports core's, which every layer may import
    assert [plural(1, "call"), plural(2, "call"), plural(0, "dispatch"), plural(1, "FMA port")] == [
        "1 call", "2 calls", "0 dispatches", "1 FMA port"]
    one = DispatchResult("d", "1x1", default_us=2.0, best_us=1.0, chosen="tuned")
    assert "(1 call of 1 tuned dispatch)" in summary_table(TuneResult("m", "host", "pruned", dispatches=[one]))

    class _Cpu:
        fma_ports = 1

    class _Desc:
        is_cpu, cpu, mac_n = True, _Cpu(), 8

    assert compute_text(_Desc()) == "1 FMA port x 8 f32 lanes"


# Files whose messages still make their own plurals, and why: the two units may import neither
# `report` nor `core` (docs/layers.toml), and task/ is being reworked apart (issue 45).
HAND_MADE_PLURALS = {
    "parameters.py": "may import neither report nor core",
    "task/l2.py": "task/ reworked apart",
}


def _hand_made_plurals(path: Path):
    """(line, text) of each "(s)"/"(es)" in a string, `'s' if n != 1 else ''`, or fixed plural
    beside a `{len(...)}` count in one source file."""
    import ast
    import re

    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[A-Za-z]\((e?s|ies)\)",
                                                                                        node.value):
            yield node.lineno, node.value
        elif isinstance(node, ast.IfExp) and isinstance(node.test, ast.Compare) and all(
                isinstance(b, ast.Constant) and b.value in ("", "s", "es", "y", "ies") for b in (node.body, node.orelse)) \
                and any(isinstance(c, ast.Constant) and c.value == 1 for c in [node.test.left, *node.test.comparators]):
            yield node.lineno, ast.unparse(node)
    for line, text in enumerate(path.read_text().splitlines(), 1):
        if re.search(r"\{len\([^)]*\)\} (calls|configs|dispatches|ports|functions|specs|files|shapes)\b", text):
            yield line, text.strip()


def test_messages_make_no_plural_of_their_own():
    package = Path(__file__).resolve().parent.parent / "python" / "iree_dsa_tuner"
    found = [f"{path.relative_to(package)}:{line}: {text!r}" for path in sorted(package.rglob("*.py"))
             if path.relative_to(package).as_posix() not in HAND_MADE_PLURALS
             for line, text in _hand_made_plurals(path)]
    assert not found, "use core.words.plural (report.plural):\n" + "\n".join(found)
    for name in HAND_MADE_PLURALS:  # an exception that no longer makes its own goes from the list
        assert list(_hand_made_plurals(package / name)), name


def test_the_scan_finds_each_form_of_hand_made_plural(tmp_path):
    path = tmp_path / "m.py"
    for text in ('x = f"{n} dispatch(es)"', 'x = f"{n} call{\'s\' if n != 1 else \'\'}"',
                 'x = f"({len(w)} configs)"', 'x = "3 shape(s)"'):
        path.write_text(text + "\n")
        assert list(_hand_made_plurals(path)), text
    path.write_text('x = f"{plural(n, \'dispatch\')}: {len(w)}"\nhelp = "element type for --shape"\n')
    assert not list(_hand_made_plurals(path))


def test_the_task_tables_name_every_column(tmp_path):
    manifest = tmp_path / "m.toml"
    manifest.write_text(f"""schema = "iree-dsa-manifest/1"
[model]
id = "mlp"
version = "test"
[task]
chunk_size = 10
n_action_steps = 10
flow_steps = 2
control_rate_hz = 10
latency_budget_ms = 0.001
[[stage]]
name = "mlp"
mlir = "{INPUTS / 'mlp3.mlir'}"
repeat = 1
per = "flow_step"
""")
    other = tmp_path / "n.toml"
    other.write_text(manifest.read_text().replace('id = "mlp"', 'id = "mlp_b"'))
    one = tune("task", manifest, "--target", "dsa-e1", "--no-db", "--no-library", "--budget", "2", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    amdahl = next(line for line in one.stdout.splitlines() if line.startswith("stage ") and "Amdahl" in line)
    assert amdahl.split("  ")[-1] == "time from" and amdahl == amdahl.rstrip()
    two = tune("task", manifest, other, "--target", "dsa-e1", "--no-db", "--no-library", "--budget", "2",
               cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    header = next(line for line in two.stdout.splitlines() if line.startswith("model "))
    assert header.split() == ["model", "cores", "chunk", "ms", "budget", "ms", "verdict"]


def test_repeated_decisions_fold_into_one_line():
    from iree_dsa_tuner.commands.task import decision_lines

    reason = "spec set 15985cb9c2ad36bc matches this manifest"
    decisions = [{"dispatch": f"d{i}", "stage": stage, "decision": "reuse", "reason": reason}
                 for i, stage in enumerate(["vision"] * 4 + ["prefix"] * 4 + ["action_expert"] * 5)]
    assert decision_lines(decisions) == [f"reuse        13 dispatches (vision 4, prefix 4, action_expert 5): {reason}"]
    single = [{"dispatch": "d0", "stage": "s", "decision": "accept", "reason": "1.0 -> 0.5 us"}]
    assert decision_lines(single) == ["accept       s/d0: 1.0 -> 0.5 us"]


def test_progress_off_a_terminal_is_one_line_per_dispatch_search():
    from iree_dsa_tuner.search.progress import ProgressDisplay
    from iree_dsa_tuner.search.progress import Measured

    log = io.StringIO()
    now = [0.0]
    with ProgressDisplay(log, heartbeat_s=60, clock=lambda: now[0]) as progress:
        progress("[search 1/2] a")
        for i in range(1, 17):
            progress.measured(Measured("a", i, 16, 10.0 - i * 0.1, 12.0, 16 - i))
        progress("[search 2/2] b")
        for i in range(1, 10):  # stops early: the last state is written when the next line comes
            now[0] += 1.0
            progress.measured(Measured("b", i, 16, 5.0, 6.0, 1.0))
        progress("    b -> default")
    lines = log.getvalue().splitlines()
    assert lines == ["[search 1/2] a", "    measured 16/16, best so far 8.4 us (default 12.0 us)",
                     "[search 2/2] b", "    measured 9/16, best so far 5.0 us (default 6.0 us), about 1 s left",
                     "    b -> default"]
    heartbeat = io.StringIO()
    with ProgressDisplay(heartbeat, heartbeat_s=60, clock=lambda: now[0]) as progress:
        for i in range(1, 5):
            now[0] += 45.0  # a slow search still shows it is alive
            progress.measured(Measured("c", i, 16, 1.0, 2.0, 100.0))
    assert 1 <= len(heartbeat.getvalue().splitlines()) <= 3
