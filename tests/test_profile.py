"""`iree-dsa-tune profile`: every dispatch of a host build timed alone, weighted by its calls."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from iree_dsa_tuner.flags import HOST_FLAGS, with_target_cpu
from iree_dsa_tuner.runners.dispatch_profile import profile_build

REPO = Path(__file__).resolve().parent.parent
MLP3 = REPO / "lit_tests" / "inputs" / "mlp3.mlir"
# The same code on every machine: the test compares dispatches, not ISAs.
PINNED = with_target_cpu(HOST_FLAGS, "haswell")


def cli(*args):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=600)


def test_every_dispatch_is_timed_and_weighted_by_its_calls():
    names = ["mlp3_dispatch_0_matmul_8x512x256_f32", "mlp3_dispatch_1_matmul_8x256x512_f32",
             "mlp3_dispatch_2_matmul_8x128x256_f32"]
    # names[2] left out of the host program's calls: it would run at load only (an initializer).
    times = profile_build(MLP3, PINNED, calls={names[0]: 3, names[1]: 1}, repetitions=3)
    by_name = {t.dispatch: t for t in times}
    assert set(by_name) == set(names)
    assert all(t.us is not None and t.us > 0 and not t.error for t in times)
    assert by_name[names[0]].calls == 3 and by_name[names[0]].total_us == 3 * by_name[names[0]].us
    assert by_name[names[2]].calls == 0 and by_name[names[2]].total_us == 0
    # Sorted by time in the model, largest first: the Amdahl order.
    assert [t.total_us for t in times] == sorted((t.total_us for t in times), reverse=True)


def test_the_profile_of_a_data_tiled_build_times_its_own_dispatches(tmp_path):
    # Data tiling changes the dispatches (encodings, mmt4d): the profile is of that build, not the default's.
    out = cli("profile", MLP3, "--iree-flag=--iree-opt-data-tiling", "--iree-flag=--iree-llvmcpu-target-cpu=haswell",
              "--repetitions", "2", "--json", tmp_path / "p.json")
    assert out.returncode == 0, out.stderr
    document = json.loads((tmp_path / "p.json").read_text())
    names = [d["dispatch"] for d in document["dispatches"]]
    # mlp3's weights are arguments: data tiling packs them on every call, and those encoding
    # dispatches are part of the model's time (with constant weights they run once, at load).
    encodings = [d for d in document["dispatches"] if d["dispatch"].startswith("_encoding_")]
    assert encodings and all(d["calls"] == 1 and d["total_us"] > 0 for d in encodings), encodings
    assert sum(1 for d in document["dispatches"] if "matmul" in d["dispatch"]) == 3
    assert document["total_us"] > 0
    assert abs(document["total_us"] - sum(d["total_us"] for d in document["dispatches"])) < 0.01
    assert "--iree-opt-data-tiling" in document["build"]["flags"]
    assert "sum of" in out.stdout and "_encoding_" in out.stdout


def test_a_build_that_does_not_compile_is_one_line_and_exit_2():
    out = cli("profile", MLP3, "--iree-flag=--iree-no-such-flag")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "--iree-no-such-flag" in out.stderr, out.stderr
