"""One CLI grammar (issue 21): --json [FILE], --target (default host), --dispatch SYM mean the same
in every subcommand that has them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from iree_dsa_tuner.cli import build_parser
from iree_dsa_tuner.core.selection import NoDispatchMatches, select_dispatches

REPO = Path(__file__).resolve().parent.parent
MLP3 = REPO / "lit_tests" / "inputs" / "mlp3.mlir"


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return action.choices


def _option(sub, flag):
    return next((a for a in sub._actions if flag in a.option_strings), None)


def test_every_json_option_takes_an_optional_file_and_means_the_same():
    helps = {}
    subs = dict(_subparsers())
    db = next(a for a in subs["db"]._actions if a.__class__.__name__ == "_SubParsersAction")
    subs["db export"] = db.choices["export"]  # `--json [FILE]` there too (it also chooses the format)
    for name, sub in subs.items():
        opt = _option(sub, "--json")
        if opt is None:
            continue
        assert opt.nargs == "?" and opt.const == "-" and opt.default is None, name
        helps[name] = opt.help.split(" as JSON:", 1)[1]
    assert {"inspect", "funnel", "targets", "verify", "tune", "task", "db export"} <= set(helps)
    assert len(set(helps.values())) == 1, helps


def test_every_target_option_defaults_to_the_host():
    defaults = {name: _option(sub, "--target").default for name, sub in _subparsers().items()
                if _option(sub, "--target") is not None}
    assert {"inspect", "funnel", "verify", "tune", "task", "spec"} <= set(defaults)
    assert set(defaults.values()) == {"host"}, defaults


def test_every_dispatch_option_matches_the_same_way():
    helps = {name: _option(sub, "--dispatch").help.split(" only ", 1)[1] for name, sub in _subparsers().items()
             if _option(sub, "--dispatch") is not None}
    assert {"inspect", "funnel", "tune"} <= set(helps)
    assert len(set(helps.values())) == 1, helps
    assert all(type(_option(sub, "--dispatch")).__name__ == "_AppendAction" for sub in _subparsers().values()
               if _option(sub, "--dispatch") is not None)


def test_dispatch_selection_exact_first_then_substring():
    symbols = ["m_dispatch_1_matmul", "m_dispatch_10_matmul", "m_dispatch_2_softmax"]
    assert select_dispatches(symbols, ["m_dispatch_1_matmul"]) == ["m_dispatch_1_matmul"]
    assert select_dispatches(symbols, ["dispatch_1"]) == ["m_dispatch_1_matmul", "m_dispatch_10_matmul"]
    assert select_dispatches(symbols, ["softmax", "m_dispatch_1_matmul"]) == ["m_dispatch_1_matmul",
                                                                             "m_dispatch_2_softmax"]
    assert select_dispatches(symbols, []) == symbols
    with pytest.raises(NoDispatchMatches, match="'gemm' matches no dispatch"):
        select_dispatches(symbols, ["gemm"])
    assert select_dispatches(symbols, ["gemm"], strict=False) == []


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def test_json_without_a_file_is_the_only_thing_on_stdout_and_with_a_file_the_table_stays(tmp_path):
    bare = _cli("inspect", MLP3, "--json")
    assert bare.returncode == 0, bare.stderr
    records = json.loads(bare.stdout)
    assert [r["calls"] for r in records] == [1, 1, 1]
    out = tmp_path / "r.json"
    to_file = _cli("inspect", MLP3, "--json", out)
    assert to_file.returncode == 0, to_file.stderr
    assert json.loads(out.read_text()) == records
    assert "3 dispatches, 3 tunable" in to_file.stdout


def test_a_model_caught_by_json_is_a_one_line_error(tmp_path):
    proc = _cli("inspect", "--json", MLP3, cwd=tmp_path)
    assert proc.returncode == 2
    # argparse reads the model as --json's FILE and then misses the model: it says which is missing.
    assert "MODEL.mlir" in proc.stderr
    proc = _cli("funnel", "--json", MLP3, cwd=tmp_path)
    assert proc.returncode == 2
    assert f"--json {MLP3}: that looks like an input, not a report" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_dispatch_pattern_that_selects_nothing_is_an_error_naming_the_choices():
    proc = _cli("inspect", MLP3, "--dispatch", "softmax")
    assert proc.returncode == 2
    assert "--dispatch 'softmax' matches no dispatch (they are: mlp3_dispatch_0_matmul_8x512x256_f32" in proc.stderr
    proc = _cli("inspect", MLP3, "--dispatch", "dispatch_1", "--json")
    assert [r["dispatch"] for r in json.loads(proc.stdout)] == ["mlp3_dispatch_1_matmul_8x256x512_f32"]
