"""The long-K route (ir/k_split.py): which reductions are split, into what chunks, and the script
and presets it adds. (lit_tests/presets/k_split_route.test shows the script's effect on IR.)"""

from __future__ import annotations

import subprocess

import pytest
from types import SimpleNamespace

from iree_dsa_tuner.compiler import find_tool
from iree_dsa_tuner.core.problems import ContractionProblem, OperandInfo
from iree_dsa_tuner.flags import DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.ir.conv_route import user_flags
from iree_dsa_tuner.ir.k_split import KSplit, k_split_script_text, plan_k_split_route, plan_splits
from iree_dsa_tuner.recipe import FLAG_PRESETS, k_split_presets

MIB = 1 << 20
# The two kinds of machine these tests run on: an AVX-512 core with a 2 MiB L2, an AVX2 one with 1 MiB.
AVX512 = SimpleNamespace(vector_register_bytes=64, l2_bytes=2 * MIB)
AVX2 = SimpleNamespace(vector_register_bytes=32, l2_bytes=1 * MIB)


def gemm(m: int, n: int, k: int, t: str = "f32", op: str = "linalg.matmul") -> ContractionProblem:
    operand = OperandInfo((1,), t)
    return ContractionProblem(f"d_{m}x{n}x{k}_{t}", op, (m, n, k), ("parallel", "parallel", "reduction"),
                              {"batch": (), "m": (0,), "n": (1,), "k": (2,)}, (),
                              (operand, operand), OperandInfo((1,), "f32"))


def test_only_reductions_whose_panels_crowd_the_l2_are_split():
    # pi0's prefix layer: the FFN down projection (K = 16384) is split, its K = 2048 GEMMs are not.
    # Its panel pair is 32 x 16384 x 4 = 2 MiB: the whole L2 of the AVX-512 machine it ran on.
    prefix = [gemm(816, 2048, 16384), gemm(816, 16384, 2048), gemm(816, 2048, 2048)]
    assert plan_splits(prefix, AVX512) == [KSplit(16384, 2048)]
    # The SigLIP fc2 and the expert's down projection (K = 4304, 4096: 0.5 MiB) are not: cut into
    # chunks, they ran no faster (2026-12-01).
    assert plan_splits([gemm(256, 1152, 4304), gemm(51, 1024, 4096)], AVX512) == []
    # On AVX2 the panels are 8 wide and the L2 smaller: the down projection is still split, in
    # chunks whose pair takes an eighth of the L2.
    assert plan_splits(prefix, AVX2) == [KSplit(16384, 2048)]
    assert plan_splits([gemm(64, 64, 12288)], AVX2) == [KSplit(12288, 2048)]
    assert plan_splits([gemm(64, 64, 8192)], AVX2) == []  # exactly half the L2: kept whole


def test_the_chunk_divides_k_and_bytes_count_by_element_type():
    # 15 x 1024: the widest divisor that is a multiple of the lanes and fits (2048) is 1920.
    assert plan_splits([gemm(64, 64, 15 * 1024)], AVX512) == [KSplit(15360, 1920)]
    # A K with no divisor that is a multiple of the vector lanes is left alone.
    assert plan_splits([gemm(64, 64, 16411)], AVX512) == []
    # i8 panels are a quarter of f32's: K = 16384 fits, K = 65536 is split into 8192-wide chunks.
    assert plan_splits([gemm(64, 64, 16384, "i8")], AVX512) == []
    assert plan_splits([gemm(64, 64, 65536, "i8")], AVX512) == [KSplit(65536, 8192)]
    # One split per reduction length, however many GEMMs share it; mmt4d ops (already data-tiled)
    # are not matched.
    assert plan_splits([gemm(8, 64, 16384), gemm(816, 2048, 16384)], AVX512) == [KSplit(16384, 2048)]
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.mmt4d")], AVX512) == []
    # Nor are generic contractions: the script matches the named ops only.
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.generic")], AVX512) == []
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.batch_matmul")], AVX512) == [KSplit(16384, 2048)]


def test_the_script_is_valid_transform_ir(tmp_path):
    path = tmp_path / "k-split.mlir"
    path.write_text(k_split_script_text([KSplit(16384, 2048), KSplit(8192, 2048)]))
    text = path.read_text()
    assert "tile_sizes [0, 0, 2048]" in text and "tile_sizes [0, 0, 0, 2048]" in text  # matmul, batch_matmul
    assert text.count("factor = 8") == 2 and text.count("factor = 4") == 2  # each op, each length
    run = subprocess.run([find_tool("iree-opt"), str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_the_route_is_content_addressed_and_moves_beside_the_spec(tmp_path):
    problems = [gemm(816, 2048, 16384)]
    route = plan_k_split_route(problems, AVX512, tmp_path / "cache")
    assert route.key == "k_split_route" and route.dispatches == ("d_816x2048x16384_f32",)
    assert route.notes == ["K 16384 in 8 chunks of 2048"]
    (flag,) = route.flags
    assert flag.startswith(TRANSFORM_FLAG + "=") and "tile_sizes [0, 0, 2048]" in open(flag.split("=", 1)[1]).read()
    assert plan_k_split_route(problems, AVX512, tmp_path / "cache").flags == route.flags
    assert plan_k_split_route([gemm(816, 2048, 8192)], AVX2, tmp_path / "cache").flags != route.flags
    # Nothing long, no CPU model (a DSA), or a transform script already given: no flags.
    assert not plan_k_split_route([gemm(816, 2048, 2048)], AVX512, tmp_path)
    assert not plan_k_split_route(problems, None, tmp_path)
    blocked = plan_k_split_route(problems, AVX512, tmp_path, (f"{TRANSFORM_FLAG}=mine.mlir",))
    assert not blocked and TRANSFORM_FLAG in blocked.notes[0]
    # A recipe that uses the route names the script beside its spec, as for the conv taps.
    spec = tmp_path / "out" / "prefix.spec.mlir"
    spec.parent.mkdir()
    moved = user_flags((flag, DATA_TILING_FLAG), spec)
    beside = (spec.parent / "prefix.spec.k-split.mlir").resolve()
    assert moved == (f"{TRANSFORM_FLAG}={beside}", DATA_TILING_FLAG)
    assert beside.read_text() == open(flag.split("=", 1)[1]).read()
    assert user_flags(moved, spec) == moved  # already there: named as it is


def test_the_route_adds_its_preset_on_the_global_data_tiling_path():
    presets = k_split_presets(("--script",))
    # The script in front of the flags the prefix layer won with (dt does not build it).
    assert presets == {"k-split+gdt+tile-bytes-4m": ("--script", *FLAG_PRESETS["gdt+tile-bytes-4m"])}
    assert GLOBAL_DATA_TILING_FLAG in presets["k-split+gdt+tile-bytes-4m"]


LONG_K = """
func.func @main(%a: tensor<4x65536xf32>, %b: tensor<65536x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x65536xf32>, tensor<65536x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
"""


def test_a_host_tune_offers_the_route_as_a_preset(tmp_path, monkeypatch):
    # The wiring of `tune --target host`: the plain build's long reduction (K = 65536: its panels
    # crowd any L2 up to 8 MiB) gets the route, and its preset competes with IREE's own.
    import iree_dsa_tuner.model_level as model_level
    from iree_dsa_tuner.model_tuning import tune_model
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets.registry import get_target

    seen = {}

    class Stop(Exception):
        pass

    def capture(model, target, options, *, presets=None, **_):
        seen.update(presets or {})
        raise Stop

    monkeypatch.setattr(model_level, "tune_recipe", capture)
    model = tmp_path / "long_k.mlir"
    model.write_text(LONG_K)
    said = []
    with pytest.raises(Stop):
        tune_model(model, get_target("host"), TuneOptions(), progress=said.append)
    (flag,) = [f for f in seen["k-split+gdt+tile-bytes-4m"] if f.startswith(TRANSFORM_FLAG)]
    assert "[0, 0, " in open(flag.split("=", 1)[1]).read()
    assert set(FLAG_PRESETS) < set(seen)
    assert any(line.startswith("long-K split route") and "K 65536 in" in line for line in said)
    # Without routes, IREE's presets only.
    seen.clear()
    with pytest.raises(Stop):
        tune_model(model, get_target("host"), TuneOptions(), routes=False)
    assert seen == {}  # tune_recipe's own FLAG_PRESETS
