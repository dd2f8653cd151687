"""The benchmarks' smallest modes run end to end, so the scripts cannot rot.

Each script runs as a user runs it (`python bench/NAME.py --quick --json OUT`) on
one tiny shape; the test checks that it finishes, prints its tables and writes
the raw numbers it promises. No timing is asserted: these are smoke runs on a
shared machine.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import gen_basket  # noqa: E402


def run_script(name: str, *args: str, tmp_path: Path) -> tuple[str, dict]:
    out = tmp_path / f"{name}.json"
    proc = subprocess.run([sys.executable, str(REPO / "bench" / f"{name}.py"), "--quick", "--json", str(out), *args],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, json.loads(out.read_text())


def test_basket_has_every_shape_issue_4_names(tmp_path):
    entries = gen_basket.basket()
    names = {e.name for e in entries}
    assert len(entries) == len(names) == 11 + 5 + 3 + 2
    assert {"f32_kn_1x2048x2048", "f32_nk_1x2048x2048", "i8_kn_256x1152x1152", "f32_kn_256x1152x4304",
            "bf16_nk_1x4096x11008", "bf16_nk_1x11008x4096"} <= names
    written = gen_basket.write_basket(tmp_path, entries)
    nk = written["f32_nk_1x1024x4096"].read_text()
    assert "affine_map<(d0, d1, d2) -> (d1, d2)>" in nk and "tensor<1024x4096xf32>" in nk
    i8 = written["i8_kn_50x1024x1024"].read_text()
    assert "tensor<50x1024xi8>" in i8 and "tensor<50x1024xi32>" in i8 and "linalg.matmul" in i8


def test_basket_models_are_one_tunable_contraction_each(tmp_path):
    from iree_dsa_tuner.ir import load_problems

    entries = [gen_basket.find_entry(n) for n in ("f32_kn_1x128x256", "f32_nk_1x128x256", "i8_kn_4x128x256")]
    for entry, path in zip(entries, gen_basket.write_basket(tmp_path, entries).values()):
        problems = load_problems(path)
        assert [p.kind for p in problems] == ["contraction"], entry.name


@pytest.mark.slow
def test_search_efficiency_quick(tmp_path):
    # The dsa part on the host part's tiny shape: its exhaustive optimum (an event simulation of
    # every candidate that might beat it, thousands) is the run's largest cost, and takes about
    # twice as long on the quick default, 1x256x512. What is asserted holds on any shape, and
    # for any number of seeds: one (the quick mode's two run random and evolutionary twice).
    stdout, raw = run_script("search_efficiency", "--shape", "f32_kn_1x128x256", "--seeds", "1", tmp_path=tmp_path)
    assert "(a) dsa-e1" in stdout and "(b) host" in stdout
    (dsa,) = raw["dsa"]["shapes"]
    assert dsa["name"] == "f32_kn_1x128x256"
    assert dsa["optimum_us"] > 0 and dsa["space"] >= dsa["legal"] >= dsa["survivors"] > 0
    for by_strategy in dsa["results"].values():
        for result in by_strategy.values():
            # Nothing a strategy measures can beat the exhaustive optimum of the model.
            assert 0 < result["fraction"] <= 1.0 + 1e-9
    (host,) = raw["host"]["shapes"]
    assert host["optimum_us"] > 0


@pytest.mark.slow
def test_cost_model_fidelity_quick(tmp_path):
    stdout, raw = run_script("cost_model_fidelity", tmp_path=tmp_path)
    assert "rho before" in stdout
    (shape,) = raw["shapes"]
    assert len(shape["measurements"]) == 8
    assert set(raw["summary"]) == {"before", "after_driver", "after_held_out"}


@pytest.mark.slow
def test_task_table_prints_a_row_per_manifest(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "task_table.py"), "--manifest", "diffusion_policy",
                           "--target", "dsa-c1", "--budget", "2"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    row = next(line for line in proc.stdout.splitlines() if line.startswith("diffusion_policy"))
    # The simulator is deterministic: the row is the shipped dsa-c1 set's (transform_specs/ times.json),
    # every dispatch timed, and the verdict follows from it.
    import json

    (times,) = [json.loads(p.read_text()) for p in (REPO / "transform_specs" / "dsa-c1" / "diffusion_policy")
                .glob("*/times.json")]
    cells = row.split()
    assert cells[1] == "bf16" and cells[4] == f"{times['default']['chunk_ms']:.1f}"
    assert cells[8] == f"{times['tuned']['limit_ms']:.1f}" and cells[10] == "100.0%"
    assert "meets 100 ms / 10 Hz; < 92 ms" in row


@pytest.mark.slow
def test_host_basket_quick(tmp_path):
    stdout, document = run_script("host_basket", "--rounds", "2", "--budget", "2", tmp_path=tmp_path)
    (shape,) = document["shapes"]
    assert shape["default_us"] > 0 and shape["recipe_us"] > 0 and shape["numpy_us"] > 0
    assert shape["args_default_us"] > 0 and shape["args_recipe_us"] > 0, shape.get("args_error")
    assert {v["name"] for v in shape["variants"]} >= {"default", "dt", "dt+uk-all"}
    assert " all: recipe vs numpy" in stdout


@pytest.mark.slow
def test_host_cost_model_fidelity_quick_and_rescore(tmp_path):
    stdout, document = run_script("host_cost_model_fidelity", "--sample", "3", tmp_path=tmp_path)
    (shape,) = document["results"]
    assert shape["layout"] == "[N,K]" and shape["measured"] == 3 and shape["default_us"] > 0
    assert all(r["estimate_us"] > 0 for r in shape["rows"])
    assert "median Spearman [N,K]" in stdout
    # --rescore re-ranks the stored times with today's model: same rows, no measuring.
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "host_cost_model_fidelity.py"), "--rescore",
                           str(tmp_path / "host_cost_model_fidelity.json")], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "f32_nk_1x256x512" in proc.stdout and "3/" in proc.stdout


def test_gemm_ceiling_quick(tmp_path):
    # bench/gemm_ceiling.py: IREE's builds of a GEMM beside numpy's BLAS, one table row per GEMM.
    stdout, document = run_script("gemm_ceiling", "--presets", "default", "gdt", tmp_path=tmp_path)
    assert "BLAS / best IREE" in stdout and "quick tiny 16x128x128" in stdout
    (gemm,) = document["gemms"]
    assert set(gemm["median_us"]) == {"default", "gdt", "numpy"} and gemm["best_iree"] in {"default", "gdt"}
    assert all(t > 0 for t in gemm["median_us"].values())


def test_gemm_ceiling_quick_k_split(tmp_path):
    # --k-split builds the long-K route's chunks only where the route cuts the GEMM: the long-K
    # GEMM gets the build, the tiny one shows '-'.
    # --k-chunks builds chunks of a given width where it divides K.
    stdout, document = run_script("gemm_ceiling", "--presets", "gdt", "--k-split", "--k-chunks", "8192",
                                  tmp_path=tmp_path)
    tiny, long_k = document["gemms"]
    assert set(tiny["median_us"]) == {"gdt", "numpy"}
    assert set(long_k["median_us"]) == {"gdt", "k-split+gdt+tile-bytes-4m", "k-chunks-8192", "numpy"}
    assert "k-split+gdt+tile-bytes-4m ms (GF/s)" in stdout and "quick long K 16x32768x16" in stdout


def test_gemm_ceiling_quick_register_tiled(tmp_path):
    # --register-tiled adds the register-tiled route's packed build to every GEMM; --register-tiles
    # one build per named tile, whatever this CPU's.
    stdout, document = run_script("gemm_ceiling", "--presets", "gdt", "--register-tiled", "--register-tiles", "4x8",
                                  "2x16", tmp_path=tmp_path)
    (gemm,) = document["gemms"]
    assert set(gemm["median_us"]) == {"gdt", "register-tiled+tile-bytes-4m", "register-tiled-4x8",
                                      "register-tiled-2x16", "numpy"}
    assert "register-tiled+tile-bytes-4m ms (GF/s)" in stdout and "register-tiled-4x8 ms (GF/s)" in stdout


def test_gemm_ceiling_refuses_a_malformed_tile(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "gemm_ceiling.py"), "--quick", "--register-tiles", "14by32"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 and "'14by32' is not a tile M0xN0" in proc.stderr


def test_fma_peak_prints_each_width_beside_the_derived_peak(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "fma_peak.py"), "--rounds", "1", "--steps", "2000000"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    widths = [line.split(":")[0].strip() for line in proc.stdout.splitlines() if "GFLOP/s f32 (runs:" in line]
    assert widths in (["zmm", "ymm", "xmm"], ["ymm", "xmm"])  # AVX-512 or AVX2 machines
    assert "the host target's derived peak:" in proc.stdout and re.search(r"full-width FMA ports? at", proc.stdout)


def test_im2col_batch_fold_quick_times_every_form_under_every_build(tmp_path):
    stdout, document = run_script("im2col_batch_fold", tmp_path=tmp_path)
    records = document["results"]
    assert {r["build"] for r in records} == {"gdt+inner-tiled", "gdt"}
    for record in records:
        assert record["gemm"] == "2x256x36x2304" and set(record["us"]) == {"batched", "folded", "folded+T"}
        assert all(us > 0 for us in record["us"].values())
    assert "batched / folded+T" in stdout


def test_conv_fold_lanes_quick_times_every_script_for_every_cpu(tmp_path):
    stdout, document = run_script("conv_fold_lanes", tmp_path=tmp_path)
    records = document["results"]
    assert [r["cpu"] for r in records] == ["host", "haswell"]
    for record in records:
        assert set(record["us"]) == {"none", "16-lane", "8-lane"} and all(us > 0 for us in record["us"].values())
        # The 6x6 output folds with either lane count; the 3x3 one only with 8.
        assert record["folded_shapes"] == {"16-lane": 1, "8-lane": 2}
    assert records[1]["lanes"] == 8 and records[0]["lanes"] in (8, 16)
    assert "route writes" in stdout


def test_winograd_route_quick_times_the_route_beside_im2col_the_pass_alone_and_the_selective_preset(tmp_path):
    stdout, document = run_script("winograd_route", tmp_path=tmp_path)
    # The quick model's two convolutions have 140 and 12 blocks: one selective preset, converting
    # the first only; one image, so nothing folds.
    assert set(document["us"]) == {"im2col", "im2col+inner-tiled", "winograd, default threshold", "winograd route",
                                   "im2col+winograd-b140+gdt"}
    assert all(us > 0 for us in document["us"].values())
    # Two convolutions convert; the largest transformed filter (8 x 8 x 64 x 64 f32) is 1 MiB.
    assert document["route_flags"][1] == "--iree-opt-const-expr-max-size-increase-threshold=1048576"
    assert "this / route" in stdout


def test_fma_floor_counts_the_products_of_the_committed_exports(tmp_path):
    """The floor is the export's product FLOPs at the named peak; eager's and the recipe's times come
    from a lerobot_vs_pytorch --json run; a model with convolutions gets none."""
    rows_json = tmp_path / "bench.json"
    rows_json.write_text(json.dumps([{"name": "pi0_vision_layer", "pytorch_ms": 90.0, "recipe_ms": 80.0}]))
    out = tmp_path / "floor.json"
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "fma_floor.py"), "--only", *FLOOR_ROWS_IN_DOCS,
                           "diffusion_unet", "--peak", "100", "--bench-json", str(rows_json), "--json", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {r["name"]: r for r in json.loads(out.read_text())["rows"]}
    siglip = rows["pi0_vision_layer"]
    # SigLIP's layer: q, k, v and o (256 x 1152 -> 1152), fc1 and fc2 (1152 <-> 4304), and one attention
    # op of 16 heads, 256 x 256 positions, 72 features.
    assert siglip["gemm_f32_flops"] == 2 * 256 * 1152 * (4 * 1152 + 2 * 4304)
    assert siglip["attention_flops"] == 2 * 16 * 256 * 256 * (72 + 72)
    assert siglip["floor_ms"] == pytest.approx((siglip["gemm_f32_flops"] + siglip["attention_flops"]) / 100e9 * 1e3)
    assert (siglip["eager_ms"], siglip["recipe_ms"]) == (90.0, 80.0)
    assert "eager / floor (cap)" in proc.stdout and "1.11" in proc.stdout  # eager / floor: 90 / 81.0
    # The UNet's 1-D convolutions: the routes change their FLOPs, so no floor; eager as recorded.
    unet = rows["diffusion_unet"]
    assert unet["convolutions"] > 0 and unet["floor_ms"] is None and unet["recipe_ms"] is None
    # docs/PERFORMANCE.md 4x quotes the FLOPs of these exports: they hold on any machine.
    quoted = {}
    for line in (REPO / "docs" / "PERFORMANCE.md").read_text().split("## 4x.", 1)[1].split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in FLOOR_ROWS_IN_DOCS:
            quoted[cells[0]] = (cells[1], cells[2])
    assert quoted == {name: (f"{rows[name]['gemm_f32_flops'] / 1e9:.3f}", f"{rows[name]['attention_flops'] / 1e9:.3f}")
                      for name in FLOOR_ROWS_IN_DOCS}


# The exports section 4x of docs/PERFORMANCE.md gives a floor.
FLOOR_ROWS_IN_DOCS = ("pi05_expert_layer", "pi0_expert_layer", "pi0_prefix_layer", "pi0_vision_layer")


def test_lerobot_bench_summary_gives_each_rounds_ratio_beside_the_medians_of_all():
    """A run's rows are medians over every round; the summary also says how far one round's eager /
    recipe was from another's, the spread a neighbour's load put into that row."""
    sys.path.insert(0, str(REPO / "bench"))
    import lerobot_vs_pytorch as bench

    assert bench.round_ratio([100.0, 110.0, 120.0], [80.0, 100.0, 90.0]) == round(110.0 / 90.0, 3)
    assert bench.round_ratio([], [80.0]) is None and bench.round_ratio([100.0], []) is None
    rows = [{"name": "siglip", "pytorch_ms": 105.0, "recipe_ms": 90.0, "eager_recipe_by_round": [0.95, 1.24]},
            {"name": "prefix", "pytorch_ms": 2300.0, "recipe_ms": 2000.0, "eager_recipe_by_round": [1.1]}]
    text = bench.summary(rows)
    assert "PyTorch eager / recipe over 2 policies: geomean" in text
    # One round gives no spread, so only SigLIP's is said.
    assert text.splitlines()[-1] == "PyTorch eager / recipe round by round (each round's medians): siglip 0.95-1.24"


def test_lerobot_bench_neighbour_runs_pinned_for_the_block_and_is_gone_after():
    sys.path.insert(0, str(REPO / "bench"))
    import os

    import lerobot_vs_pytorch as bench

    with bench.memory_neighbour(0) as cpu:
        assert cpu is None  # none asked for: nothing started
    before = set(os.listdir("/proc"))
    with bench.memory_neighbour(1) as cpu:
        assert cpu == max(os.sched_getaffinity(0))
        started = [pid for pid in set(os.listdir("/proc")) - before if pid.isdigit()
                   and "np.copyto" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]
        assert len(started) == 1
        pid = started[0]
        assert os.sched_getaffinity(int(pid)) == {cpu}
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
