"""The batch-1 convolution route (ir/conv_route.py): flags planned, recorded and read back."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from iree_dsa_tuner.compiler import find_tool
from iree_dsa_tuner.core.problems import ConvolutionProblem, OperandInfo
from iree_dsa_tuner.flags import IM2COL_FLAG, TRANSFORM_FLAG, flags_header, read_flags_header
from iree_dsa_tuner.ir.conv_route import manual_hint, plan_route, taps_transform_text, user_flags

CONV1D_B1 = """
func.func @main(%x: tensor<1x10x16xf32>, %w: tensor<3x16x32xf32>) -> tensor<1x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
         ins(%x, %w : tensor<1x10x16xf32>, tensor<3x16x32xf32>) outs(%f : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  return %r : tensor<1x8x32xf32>
}
"""

def conv(rank: int, window: int = 5, depthwise: bool = False) -> ConvolutionProblem:
    groups = {"batch": (), "output_image": tuple(range(rank)), "output_channel": (rank,),
              "filter_loop": tuple(range(rank + 1, 2 * rank + 1)), "input_channel": (2 * rank + 1,),
              "depth": ()}
    sizes = (16,) * rank + (64,) + (window,) * rank + (32,)
    if depthwise:
        groups = dict(groups, input_channel=(), output_channel=(), depth=(rank,))
    operand = OperandInfo((1,), "f32")
    return ConvolutionProblem(f"d{rank}", "linalg.generic", sizes, ("parallel",) * len(sizes), groups, (),
                              (operand, operand), operand)

def test_route_flags_per_conv_rank(tmp_path):
    assert not plan_route([], tmp_path)
    assert plan_route([conv(2)], tmp_path).flags == (IM2COL_FLAG,)
    route = plan_route([conv(1, 5), conv(1, 3), conv(2)], tmp_path)
    assert route.flags[0] == IM2COL_FLAG and route.flags[1].startswith(TRANSFORM_FLAG + "=")
    script = route.flags[1].split("=", 1)[1]
    text = open(script).read()
    assert "factor = 5" in text and "factor = 3" in text and "linalg.conv_1d_ncw_fcw" in text
    # Content-addressed: the same widths name the same file, others another one.
    assert plan_route([conv(1, 3), conv(1, 5)], tmp_path).flags[0] == route.flags[1]
    assert plan_route([conv(1, 7)], tmp_path).flags[0] != route.flags[1]
    # A flag the user already gave is not repeated; a transform script of theirs blocks the 1-D route.
    assert plan_route([conv(2)], tmp_path, (IM2COL_FLAG,)).flags == ()
    blocked = plan_route([conv(1)], tmp_path, (f"{TRANSFORM_FLAG}=mine.mlir",))
    assert blocked.flags == () and TRANSFORM_FLAG in blocked.notes[0]

def test_refusal_hints_say_what_to_pass():
    assert f"--iree-flag={IM2COL_FLAG}" in manual_hint(conv(2))
    assert f"--iree-flag={TRANSFORM_FLAG}=FILE" in manual_hint(conv(1))
    assert "no route" in manual_hint(conv(2, depthwise=True))

def test_taps_script_is_valid_transform_ir(tmp_path):
    path = tmp_path / "taps.mlir"
    path.write_text(taps_transform_text([5, 3]))
    run = subprocess.run([find_tool("iree-opt"), str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr

def test_flags_header_round_trips_and_the_script_moves_beside_the_spec(tmp_path):
    script = plan_route([conv(1)], tmp_path / "cache").flags[0].split("=", 1)[1]
    spec = tmp_path / "out dir" / "spec.mlir"
    spec.parent.mkdir()
    flags = user_flags((IM2COL_FLAG, f"{TRANSFORM_FLAG}={script}", "--other=a b"), spec)
    beside = spec.parent / "spec.conv1d-taps.mlir"
    assert flags == (IM2COL_FLAG, f"{TRANSFORM_FLAG}={beside.resolve()}", "--other=a b")
    assert beside.read_text() == open(script).read()
    text = flags_header(flags) + "module {}\n"
    assert read_flags_header(text) == flags
    # Written beside the spec, the script is named by its file name (the same header wherever the
    # tune ran), and read back against the spec's directory; a script elsewhere keeps its path.
    beside_text = flags_header(flags, spec.parent)
    assert f"{TRANSFORM_FLAG}=spec.conv1d-taps.mlir " in beside_text and str(tmp_path) not in beside_text
    assert read_flags_header(beside_text, spec.parent) == flags
    elsewhere = (f"{TRANSFORM_FLAG}={script}",)
    assert read_flags_header(flags_header(elsewhere, spec.parent), spec.parent) == elsewhere
    assert flags_header(()) == "" and read_flags_header("module {}\n// iree-dsa-tune: flags: --x\n") == ()

@pytest.mark.slow
def test_tune_routes_a_batch1_conv1d_and_verify_reads_the_flags_back(tmp_path):
    model = tmp_path / "conv1d_b1.mlir"
    model.write_text(CONV1D_B1)
    spec, report = tmp_path / "spec.mlir", tmp_path / "report.json"
    cli = [sys.executable, "-m", "iree_dsa_tuner.cli"]
    run = subprocess.run(cli + ["tune", str(model), "--target", "dsa-e1", "-o", str(spec), "--no-db", "--quiet",
                                "--budget", "4", "--json", str(report)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    document = json.loads(report.read_text())
    assert document["conv_route"]["for_dispatches"] and document["conv_route"]["flags"][0].startswith(TRANSFORM_FLAG)
    # The route splits the 3-tap conv into three 8x32x16 matmuls, one root op: dsa-e1 (simulated,
    # deterministic) tunes it to the pinned config and times, and the spec is kept.
    rows = [(d["dispatch"], d["chosen"], round(d["default_us"], 3), round(d["best_us"], 3))
            for d in document["dispatches"]]
    assert rows == [(f"main_dispatch_{i}_matmul_like_8x32x16_f32", "tuned", 3.816, 3.766) for i in range(3)]
    assert document["dispatches"][0]["config"] == {
        "pipeline": "DoubleTilingExpert", "distribution": [8, 32, 0], "vector_common_parallel": [8, 32, 0],
        "vector_reduction": [0, 0, 1], "extra": {"iree_dsa.dma_stages": 2, "iree_dsa.fusion": 0,
                                                 "iree_dsa.k_split": 1, "iree_dsa.parallelism": 8,
                                                 "iree_dsa.tile_k": 16, "iree_dsa.vector_width": 32}}
    # The spec names the flags, and the script lies beside it.
    assert spec.exists()
    beside = (tmp_path / "spec.conv1d-taps.mlir").resolve()
    assert document["compile_flags"] == [f"{TRANSFORM_FLAG}={beside}"]
    # The header names the script by its file name; read against the spec's directory, it is the script.
    assert read_flags_header(spec.read_text()) == (f"{TRANSFORM_FLAG}=spec.conv1d-taps.mlir",)
    assert read_flags_header(spec.read_text(), spec.parent) == (f"{TRANSFORM_FLAG}={tmp_path / 'spec.conv1d-taps.mlir'}",)
    run = subprocess.run(cli + ["verify", str(model), str(spec), "--target", "dsa-e1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "compile flags from the spec's header" in run.stdout and "; OK" in run.stdout
    # Without the route the conv stays refused, and the refusal says what to pass.
    run = subprocess.run(cli + ["tune", str(model), "--target", "dsa-e1", "-o", str(spec), "--no-db", "--quiet",
                                "--no-conv-route"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"--iree-flag={TRANSFORM_FLAG}=FILE" in run.stdout and not spec.exists()
