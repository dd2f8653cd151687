"""The long-K route (host/routes/k_split.py): which reductions are split, into what chunks, and the script
and presets it adds. (lit_tests/presets/k_split_route.test shows the script's effect on IR.)"""

from __future__ import annotations

import subprocess

import pytest
from types import SimpleNamespace

from iree_dsa_tuner.compiler import find_tool
from iree_dsa_tuner.core.problems import ContractionProblem, OperandInfo
from iree_dsa_tuner.flags import DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.ir.conv_route import user_flags
from iree_dsa_tuner.host.routes.k_split import (InputGemm, KSplit, inner_tiled_rows, input_gemms, k_split_presets,
                                               k_split_script_text, plan_k_split_route, plan_splits, plan_summed_splits)
from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS

MIB = 1 << 20
# The two kinds of machine these tests run on: an AVX-512 core with a 2 MiB L2, an AVX2 one with 1 MiB.
AVX512 = SimpleNamespace(vector_register_bytes=64, vector_registers=32, l2_bytes=2 * MIB)
AVX2 = SimpleNamespace(vector_register_bytes=32, vector_registers=16, l2_bytes=1 * MIB)


def gemm(m: int, n: int, k: int, t: str = "f32", op: str = "linalg.matmul", batch: int = 1) -> InputGemm:
    return InputGemm(op, batch, m, n, k, {"f32": 4, "bf16": 2, "i8": 1}[t])


def dispatch(m: int, n: int, k: int) -> ContractionProblem:
    operand = OperandInfo((1,), "f32")
    return ContractionProblem(f"d_{m}x{n}x{k}_f32", "linalg.matmul", (m, n, k), ("parallel", "parallel", "reduction"),
                              {"batch": (), "m": (0,), "n": (1,), "k": (2,)}, (),
                              (operand, operand), OperandInfo((1,), "f32"))


def test_only_reductions_whose_panels_crowd_the_l2_are_split():
    # pi0's prefix layer: the FFN down projection (K = 16384) is split, its K = 2048 GEMMs are not.
    # Its panel pair is 32 x 16384 x 4 = 2 MiB: the whole L2 of the AVX-512 machine it ran on.
    prefix = [gemm(816, 2048, 16384), gemm(816, 16384, 2048), gemm(816, 2048, 2048), gemm(816, 256, 2048)]
    assert plan_splits(prefix, AVX512) == [KSplit(16384, 2048)]
    # SigLIP (256 tokens): its outputs are too large for the few-rows rule, its K too short for the other.
    assert plan_splits([gemm(256, 1152, 4304), gemm(256, 4304, 1152)], AVX512) == []
    # On AVX2 the panels are 8 wide and the L2 smaller: the down projection is still split, in
    # chunks whose pair takes an eighth of the L2.
    assert plan_splits(prefix, AVX2) == [KSplit(16384, 2048)]
    assert plan_splits([gemm(816, 2048, 12288)], AVX2) == [KSplit(12288, 2048)]
    assert plan_splits([gemm(816, 2048, 8192)], AVX2) == []  # exactly half the L2: kept whole


def test_few_rows_with_a_long_k_are_split_so_their_row_block_stays_in_the_l2():
    # pi0's action expert (51 tokens, 64 rows padded): the row block 64 x K x 4 must fit L2 / 16 =
    # 128 KiB, so K = 4096 (1 MiB) and K = 1024 (256 KiB) go in 512-wide chunks. Such a split
    # names its N: the script cuts that GEMM, not another with the same K and many columns.
    expert = [gemm(51, 1024, 4096), gemm(51, 4096, 1024), gemm(51, 256, 1024)]
    assert plan_splits(expert, AVX512) == [KSplit(1024, 512, 256), KSplit(1024, 512, 4096), KSplit(4096, 512, 1024)]
    # AVX2 (8 rows a tile, 56 padded; 1 MiB L2: 64 KiB for the block): 256-wide chunks, the
    # narrowest the rule takes there; the 4096 columns of gate/up make an output above half the L2.
    assert plan_splits(expert, AVX2) == [KSplit(1024, 256, 256), KSplit(4096, 256, 1024)]
    # A row block that fits (16 rows x 1024) or a chunk that would have to be narrower than 32
    # lanes (pi0's prefix k/v projection, 816 rows: 32 wide) is left whole.
    assert plan_splits([gemm(16, 1024, 1024), gemm(816, 256, 2048)], AVX512) == []
    # The long-K rule wins where both apply: one split for the length, whatever its columns.
    assert plan_splits([gemm(51, 1024, 16384), gemm(51, 64, 16384)], AVX512) == [KSplit(16384, 2048)]


def test_inner_tiled_row_blocks_above_the_l2_are_cut_into_the_fewest_chunks_that_fit():
    # The inner-tiled register tile has every vector register but three as rows.
    assert (inner_tiled_rows(AVX512), inner_tiled_rows(AVX2)) == (29, 13)
    # SigLIP (256 tokens, 261 rows padded to 29): fc2's row block 261 x 4304 x 4 = 4.5 MB is above
    # the 2 MiB L2 and its output (1.2 MB) fits: 2 chunks (2.2 MB) do not fit, 3 do not divide
    # 4304, 4 of 1076 do (1076 is no whole number of vectors: the f32 intrinsic steps one K at a
    # time). fc1 (K = 1152: a 1.2 MB block) and the q/k/v/o projections are kept whole.
    siglip = [gemm(256, 1152, 4304), gemm(256, 4304, 1152), gemm(256, 1152, 1152)]
    assert plan_summed_splits(siglip, AVX512, long_k=False) == [KSplit(4304, 1076, 1152)]
    # The other rules leave SigLIP whole; with them the row-block split is still the only one.
    assert plan_summed_splits(siglip, AVX512) == [KSplit(4304, 1076, 1152)]
    # On AVX2 (1 MiB L2) fc2's output (260 x 1152 x 4) no longer fits: kept whole.
    assert plan_summed_splits(siglip, AVX2, long_k=False) == []
    # Many rows (pi0's prefix: outputs of 6.9 MB and more) or few (pi0's expert: 58 x 4096 x 4 = 950
    # KB fits) are kept whole by this rule; so are other element types and batches above one.
    prefix = [gemm(816, 2048, 16384), gemm(816, 16384, 2048), gemm(816, 2048, 2048)]
    expert = [gemm(51, 1024, 4096), gemm(51, 4096, 1024)]
    assert plan_summed_splits(prefix + expert, AVX512, long_k=False) == []
    assert plan_summed_splits([gemm(256, 4304, 1152, "bf16"), gemm(256, 4304, 1152, op="linalg.batch_matmul", batch=2)],
                              AVX512, long_k=False) == []
    # No chunk count up to 8 that divides K makes the block fit: kept whole (K = 4327 is prime).
    assert plan_summed_splits([gemm(256, 1152, 4327)], AVX512, long_k=False) == []
    # With the long-K rule: its whole-length split wins over the row block's for that length.
    assert plan_summed_splits(prefix + siglip, AVX512) == [KSplit(4304, 1076, 1152), KSplit(16384, 2048)]


def test_a_batch_other_than_one_is_never_split():
    # ACT's transformer: linear layers as batch_matmuls of 82 one-row GEMMs against a broadcast
    # weight, which IREE folds into one GEMM; cut, the broadcast was materialised (12x slower).
    act = [gemm(1, 3200, 512, op="linalg.batch_matmul", batch=82), gemm(1, 512, 3200, op="linalg.batch_matmul", batch=82)]
    assert plan_splits(act, AVX512) == []
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.batch_matmul", batch=8)], AVX512) == []
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.batch_matmul")], AVX512) == [KSplit(16384, 2048)]


def test_the_chunk_divides_k_and_bytes_count_by_element_type():
    # 15 x 1024: the widest divisor that is a multiple of the lanes and fits (2048) is 1920.
    assert plan_splits([gemm(816, 2048, 15 * 1024)], AVX512) == [KSplit(15360, 1920)]
    # A K with no divisor that is a multiple of the vector lanes is left alone.
    assert plan_splits([gemm(816, 2048, 16411)], AVX512) == []
    # i8 panels are a quarter of f32's: K = 16384 fits, K = 65536 is split into 8192-wide chunks.
    assert plan_splits([gemm(816, 2048, 16384, "i8")], AVX512) == []
    assert plan_splits([gemm(816, 2048, 65536, "i8")], AVX512) == [KSplit(65536, 8192)]
    # One split per reduction length, however many GEMMs share it; other ops (mmt4d: already
    # data-tiled; generic contractions) are not matched by the script, so not planned.
    assert plan_splits([gemm(8, 64, 16384), gemm(816, 2048, 16384)], AVX512) == [KSplit(16384, 2048)]
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.mmt4d")], AVX512) == []
    assert plan_splits([gemm(816, 2048, 16384, op="linalg.generic")], AVX512) == []


INPUT_FORM = """
func.func @f(%x: tensor<1x51x4096xf32>, %w: tensor<1x4096x1024xf32>, %a: tensor<82x1x512xf32>,
             %b: tensor<82x512x3200xf32>, %p: tensor<64x128xbf16>, %q: tensor<128x32xbf16>,
             %d: tensor<?x64xf32>, %e: tensor<64x8xf32>) -> () {
  %z = arith.constant 0.0 : f32
  %o1 = tensor.empty() : tensor<1x51x1024xf32>
  %r1 = linalg.batch_matmul ins(%x, %w : tensor<1x51x4096xf32>, tensor<1x4096x1024xf32>) outs(%o1 : tensor<1x51x1024xf32>) -> tensor<1x51x1024xf32>
  %o2 = tensor.empty() : tensor<82x1x3200xf32>
  %r2 = linalg.batch_matmul ins(%a, %b : tensor<82x1x512xf32>, tensor<82x512x3200xf32>) outs(%o2 : tensor<82x1x3200xf32>) -> tensor<82x1x3200xf32>
  %o3 = tensor.empty() : tensor<64x32xf32>
  %r3 = linalg.matmul ins(%p, %q : tensor<64x128xbf16>, tensor<128x32xbf16>) outs(%o3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x64xf32>
  %o4 = tensor.empty(%n) : tensor<?x8xf32>
  %r4 = linalg.matmul ins(%d, %e : tensor<?x64xf32>, tensor<64x8xf32>) outs(%o4 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}
"""


def test_the_input_form_gives_each_gemm_its_batch_rows_columns_and_depth():
    assert input_gemms(INPUT_FORM) == [
        InputGemm("linalg.batch_matmul", 1, 51, 1024, 4096, 4),
        InputGemm("linalg.batch_matmul", 82, 1, 3200, 512, 4),
        InputGemm("linalg.matmul", 1, 64, 32, 128, 2),
        # the dynamic one is skipped: the script matches static extents
    ]


def test_the_script_is_valid_transform_ir(tmp_path):
    path = tmp_path / "k-split.mlir"
    path.write_text(k_split_script_text([KSplit(16384, 2048), KSplit(8192, 2048), KSplit(4096, 512, 1024)]))
    text = path.read_text()
    assert "tile_sizes [0, 0, 2048]" in text and "tile_sizes [0, 0, 0, 2048]" in text  # matmul, batch_matmul
    assert text.count("factor = 8") == 4 and text.count("factor = 4") == 2  # each op, each length
    # A split that names N matches it too; a batch_matmul is matched with a batch of 1 only.
    assert "@match_matmul_k4096_n1024" in text and "@match_batch_matmul_k4096_n1024" in text
    assert text.count("transform.param.constant 1024 : i64") == 2
    assert text.count("transform.param.constant 1 : i64") == 3
    run = subprocess.run([find_tool("iree-opt"), str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_the_route_is_content_addressed_and_moves_beside_the_spec(tmp_path):
    gemms, problems = [gemm(816, 2048, 16384)], [dispatch(816, 2048, 16384), dispatch(816, 2048, 2048)]
    route = plan_k_split_route(gemms, problems, AVX512, tmp_path / "cache")
    assert route.key == "k_split_route" and route.dispatches == ("d_816x2048x16384_f32",)
    assert route.notes == ["K 16384 in 8 chunks of 2048"]
    (flag,) = route.flags
    assert flag.startswith(TRANSFORM_FLAG + "=") and "tile_sizes [0, 0, 2048]" in open(flag.split("=", 1)[1]).read()
    assert plan_k_split_route(gemms, problems, AVX512, tmp_path / "cache").flags == route.flags
    assert plan_k_split_route([gemm(816, 2048, 8192)], problems, AVX2, tmp_path / "cache").flags != route.flags
    few_rows = plan_k_split_route([gemm(51, 1024, 4096)], [dispatch(51, 1024, 4096), dispatch(51, 64, 4096)],
                                  AVX512, tmp_path / "cache")
    assert few_rows.notes == ["K 4096 (N 1024) in 8 chunks of 512"] and few_rows.dispatches == ("d_51x1024x4096_f32",)
    # Nothing long, no CPU model (a DSA), or a transform script already given: no flags.
    assert not plan_k_split_route([gemm(816, 2048, 2048)], problems, AVX512, tmp_path)
    assert not plan_k_split_route(gemms, problems, None, tmp_path)
    blocked = plan_k_split_route(gemms, problems, AVX512, tmp_path, (f"{TRANSFORM_FLAG}=mine.mlir",))
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
    from conftest import presets_a_host_tune_times

    model = tmp_path / "long_k.mlir"
    model.write_text(LONG_K)
    seen, said = presets_a_host_tune_times(model, monkeypatch)
    (flag,) = [f for f in seen["k-split+gdt+tile-bytes-4m"] if f.startswith(TRANSFORM_FLAG)]
    assert "[0, 0, " in open(flag.split("=", 1)[1]).read()
    assert set(FLAG_PRESETS) < set(seen)
    assert any(line.startswith("long-K split route") and "K 65536 in" in line for line in said)
    # Without routes, IREE's presets only.
    assert presets_a_host_tune_times(model, monkeypatch, routes=False)[0] == {}  # tune_recipe's own FLAG_PRESETS
