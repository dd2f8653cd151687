"""bench/host_vla_basket.py: its models, and the never-slower rule its summary states (no timing asserted)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench" / "host_vla_basket.py"


@pytest.fixture(scope="module")
def bench():
    for folder in (REPO / "bench", REPO / "tools"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("host_vla_basket", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def op(bench, name):
    return next(o for o in bench.gen.basket_ops() if o.name == name)


def test_gemm_and_conv_weights_become_a_constant_and_leave_the_signature(bench):
    for name, weights in (("matmul_50x1024x4096", "tensor<4096x1024xf32>"),
                          ("conv1d_t8_512x1024_k5", "tensor<5x512x1024xf32>"),
                          ("conv2d_224x224x3_p14_1152", "tensor<14x14x3x1152xf32>")):
        text = bench.deployed_text(op(bench, name))
        assert text.startswith(f"util.global private @weights = #util.byte_pattern<1> : {weights}\n"), name
        signature_line = next(line for line in text.splitlines() if line.startswith("func.func @main("))
        assert weights not in signature_line, name
        assert f"util.global.load @weights : {weights}" in text, name
        # The timer's signature is exactly the function's remaining arguments.
        (shape, element), = bench.activation_signature(op(bench, name))
        assert f"tensor<{'x'.join(map(str, shape))}x{element}>" in signature_line, name


def test_attention_keeps_its_activations_as_arguments(bench):
    attention = op(bench, "attention_8x50x354x256")
    assert bench.deployed_text(attention) == bench.gen.op_mlir(attention)
    assert bench.activation_signature(attention) == [((8, 50, 256), "f32"), ((8, 354, 256), "f32"),
                                                     ((8, 354, 256), "f32")]


def test_weights_as_arguments_signature_adds_the_weights_last(bench):
    gemm = op(bench, "matmul_1x2048x256")
    assert bench.activation_signature(gemm, weights_as_arguments=True) == [((1, 256), "f32"), ((256, 2048), "f32")]


def test_select_ops_by_name_and_kind(bench):
    assert [o.name for o in bench.select_ops(["attention_24x16x16x64", "matmul_2x256x512"], [], False)] == [
        "attention_24x16x16x64", "matmul_2x256x512"]
    assert {o.kind for o in bench.select_ops([], ["conv1d"], False)} == {"conv1d"}
    assert [o.name for o in bench.select_ops([], [], True)] == list(bench.QUICK)
    with pytest.raises(SystemExit, match="not in the VLA basket: matmul_nope"):
        bench.select_ops(["matmul_nope"], [], False)


def test_slower_is_judged_beyond_the_larger_of_the_floor_and_the_noise(bench):
    assert not bench.slower_beyond_noise(100.0, 102.9)            # within the 3% floor
    assert bench.slower_beyond_noise(100.0, 103.5)
    assert not bench.slower_beyond_noise(100.0, 109.0, noise=0.10)  # noisy rounds widen it
    assert bench.slower_beyond_noise(100.0, 111.0, noise=0.10)
    assert not bench.slower_beyond_noise(100.0, 20.0)


def test_summary_counts_timed_rows_and_lists_refused_and_failed(bench):
    rows = [
        {"name": "fast", "default_us": 100.0, "tuned_us": 25.0, "noise": 0.02},
        {"name": "same", "default_us": 50.0, "tuned_us": 50.0, "noise": 0.02, "same_build": True},
        {"name": "slow", "default_us": 10.0, "tuned_us": 12.0, "noise": 0.05},
        {"name": "conv", "refused": "unit dim folded"},
        {"name": "broken", "error": "CompileError: boom"},
    ]
    s = bench.summarize(rows)
    assert (s["timed"], s["held"]) == (3, 2)
    assert [x["name"] for x in s["slower"]] == ["slow"] and s["slower"][0]["ratio"] == pytest.approx(1.2)
    assert s["geomean_tuned_over_default"] == pytest.approx(math.exp((math.log(0.25) + math.log(1.2)) / 3))
    assert s["worst"] == ("slow", pytest.approx(1.2)) and s["best"] == ("fast", 0.25)
    assert s["faster_beyond_noise"] == 1
    assert s["refused"] == [{"name": "conv", "reason": "unit dim folded"}]
    assert s["failed"] == [{"name": "broken", "error": "CompileError: boom"}]
    lines = bench.summary_lines(s)
    assert "held on 2/3 timed dispatches; slower: slow (1.20x, noise 5%)" in lines[0]
    assert "worst: slow 1.200" in lines[1]
    assert "refused conv: unit dim folded" in lines and "FAILED broken: CompileError: boom" in lines


def test_a_refused_dispatch_the_recipe_still_timed_counts_as_timed(bench):
    s = bench.summarize([{"name": "conv", "refused": "why", "default_us": 10.0, "tuned_us": 9.0}])
    assert (s["timed"], s["held"], s["refused"]) == (1, 1, [])


def test_nothing_timed_says_so(bench):
    s = bench.summarize([{"name": "conv", "refused": "why"}])
    assert s["timed"] == 0 and s["geomean_tuned_over_default"] is None
    assert bench.summary_lines(s)[0] == "no dispatch timed"


@pytest.mark.slow
def test_quick_run_prints_the_table_and_the_verdict(bench, tmp_path):
    out = tmp_path / "vla.json"
    proc = subprocess.run([sys.executable, str(BENCH), "--quick", "--confirm-rounds", "1", "--rounds", "1",
                           "--json", str(out)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    raw = json.loads(out.read_text())
    (row,) = raw["rows"]
    assert row["name"] == "matmul_2x256x512" and row["default_us"] > 0 and row["tuned_us"] > 0
    # The verdict printed is the one its own rows give (not just the words "never slower",
    # which are also a column header): held or slower, with the ratio, for this one dispatch.
    summary = bench.summarize(raw["rows"])
    printed = proc.stdout.splitlines()
    assert summary["timed"] == 1 and raw["summary"]["held"] == summary["held"]
    for line in bench.summary_lines(summary):
        assert line in printed, line
    held = "NO" if bench.slower_beyond_noise(row["default_us"], row["tuned_us"], row.get("noise") or 0.0) else "yes"
    table_row = next(line for line in printed if line.startswith("matmul_2x256x512 "))
    assert table_row.split()[-1] == held and f"{row['tuned_us'] / row['default_us']:.3f}" in table_row
