"""The unbatch route (host/routes/unbatch.py): which batched GEMMs it rewrites, the script, and the presets
it adds in place of the plain inner-tiled ones. (lit_tests/presets/unbatch_route.test shows the
script's effect on IR and that real iree-compile then builds inner-tiled data tiling.)"""

from __future__ import annotations

from pathlib import Path

from iree_dsa_tuner.flags import (DECOMPOSE_ATTENTION_FLAG, GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, IM2COL_INNER_TILED_PIPELINE,
                                  INNER_TILED_FLAG, TRANSFORM_FLAG)
from iree_dsa_tuner.ir.conv_route import user_flags, verified_script
from iree_dsa_tuner.host.routes.k_split import InputGemm, KSplit
from iree_dsa_tuner.host.routes.unbatch import (DATA_TILING_HINT, needs_unbatch, plan_unbatch_route, unbatch_presets,
                                               unbatch_script_text, unbatched_batches)
from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS, INNER_TILED_PRESETS


def bmm(batch: int, m: int, n: int, k: int) -> InputGemm:
    return InputGemm("linalg.batch_matmul", batch, m, n, k, 4)


# pi0's action expert as iree-turbine exports it: its linear layers are batch-1 batch_matmuls,
# attention a batch over 8 heads. ACT's linear layers: 82 one-row products (a broadcast weight).
EXPERT = [bmm(1, 51, 2048, 1024), bmm(1, 51, 1024, 4096), bmm(8, 51, 867, 256), bmm(8, 51, 256, 867)]
ACT = [bmm(82, 1, 512, 512), bmm(8, 82, 82, 64), bmm(8, 100, 64, 100), bmm(100, 1, 512, 512),
       InputGemm("linalg.matmul", 1, 82, 512, 512, 4)]


def test_batches_of_many_row_products_are_unrolled_and_one_row_products_left_to_iree():
    assert unbatched_batches(EXPERT) == [8]
    # ACT's 82- and 100-token batches of one-row products are IREE's to fold into one GEMM.
    assert unbatched_batches(ACT) == [8]
    assert needs_unbatch(EXPERT) and needs_unbatch(ACT)
    # Plain matmuls and one-row batches only: nothing for the route to do.
    assert not needs_unbatch([InputGemm("linalg.matmul", 1, 64, 64, 64, 4), bmm(82, 1, 512, 512)])


def test_the_script_verifies_and_unrolls_each_batch_from_its_own_zeros():
    text = unbatch_script_text([4, 8])
    printed = verified_script(text, "unbatch")  # parses and verifies with the MLIR bindings
    for b in (4, 8):
        assert f"@match_batch{b} -> @unroll_batch{b}" in printed
        assert f"transform.loop.unroll %loop factor = {b}" in text
    # The batch is cut with the fill fused (`fuse`), never by a tile of the shared output.
    assert "transform.structured.fuse" in text and "tile_using_for" not in text
    assert "transform.structured.specialize" in text
    # Without batches to unroll, only the batch-1 flattening remains.
    assert "unroll" not in unbatch_script_text([])


def test_the_route_is_deterministic_and_yields_to_another_script(tmp_path):
    route = plan_unbatch_route(EXPERT, tmp_path / "cache")
    assert len(route.flags) == 1 and route.flags[0].startswith(TRANSFORM_FLAG)
    assert "unrolled" in route.notes[0] and "2 batch-1" in route.notes[0]
    assert plan_unbatch_route(EXPERT, tmp_path / "cache").flags == route.flags  # content-addressed
    assert plan_unbatch_route(ACT, tmp_path / "cache").flags == route.flags  # same batch sizes, same script
    assert not plan_unbatch_route([bmm(82, 1, 512, 512)], tmp_path)
    blocked = plan_unbatch_route(EXPERT, tmp_path, (f"{TRANSFORM_FLAG}=mine.mlir",))
    assert not blocked and "not taken" in blocked.notes[0]
    # A recipe names the script beside its spec (`.unbatch.mlir`), not in the cache.
    (tmp_path / "out").mkdir()
    flags = user_flags(route.flags + (GLOBAL_DATA_TILING_FLAG,), tmp_path / "out" / "model.spec.mlir")
    assert flags[0] == f"{TRANSFORM_FLAG}={tmp_path / 'out' / 'model.spec.unbatch.mlir'}"
    assert (tmp_path / "out" / "model.spec.unbatch.mlir").read_text() == \
        (tmp_path / "cache" / route.flags[0].split("/cache/")[1]).read_text()


def test_the_hinted_script_marks_only_gemms_inner_tiled_can_build():
    plain, hinted = unbatch_script_text([8]), unbatch_script_text([8], hinted=True)
    verified_script(hinted, "unbatch")
    assert DATA_TILING_HINT not in plain
    assert f'transform.annotate %op "{DATA_TILING_HINT}"' in hinted
    # 2-D contractions and one-row batches, each only when it starts from zeros (a fill).
    assert "@match_tileable -> @hint, @match_rows -> @hint" in hinted
    tileable = hinted.split("@match_tileable(")[1].split("transform.named_sequence")[0]
    assert "cmpi eq %r, %three" in tileable and '["linalg.fill"]' in tileable
    # The hint comes after the rewrite, so the matmuls it made are marked.
    assert hinted.index("@match_gemm -> @specialize") < hinted.index("@match_tileable -> @hint")


def test_the_summed_split_cuts_long_k_matmuls_after_the_rewrite_and_before_the_hint():
    text = unbatch_script_text([8], hinted=True, splits=[KSplit(16384, 2048), KSplit(4096, 512, 1024)])
    verified_script(text, "unbatch")
    # Each split: a matmul with that K (and N when named) into chunks from zeros, summed after.
    assert "@match_summed_k16384 -> @sum_k16384, @match_summed_k4096_n1024 -> @sum_k4096_n1024" in text
    assert "split_factor = 8 : i64" in text and "tile_sizes [1, 0, 0, 0]" in text
    assert "tile_using_for" not in text  # the in-order chunks, which inner-tiled cannot build
    order = [text.index(s) for s in ("@match_gemm -> @specialize", "@match_summed_k16384 ->",
                                     "%named_cut = transform.foreach_match", "@match_tileable -> @hint")]
    assert order == sorted(order)
    assert "%named_cut" not in unbatch_script_text([8], hinted=True)


def test_the_route_presets_stand_in_for_the_plain_inner_tiled_ones():
    presets = unbatch_presets(("--script",), ("--hinted",))
    for name, flags in presets.items():
        assert flags[-2:] == (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG), name
    assert IM2COL_FLAG in presets["unbatch+im2col+gdt+inner-tiled"]
    # im2col's GEMMs appear after the script, unmarked: that preset keeps the plain script, and
    # detaches the convolutions' bias first (docs/DATA_TILING.md 16).
    assert presets["unbatch+im2col+gdt+inner-tiled"][1:3] == (IM2COL_INNER_TILED_PIPELINE, "--script")
    assert presets["unbatch+gdt+inner-tiled"][0] == "--hinted"
    assert presets["attn-decomposed+unbatch+gdt+inner-tiled"][:2] == (DECOMPOSE_ATTENTION_FLAG, "--hinted")
    # With long reductions, one more: the hinted script that also sums K chunks (host/routes/k_split.py).
    assert "unbatch+k-split+gdt+inner-tiled" not in presets
    split = unbatch_presets(("--script",), ("--hinted",), ("--summed",))["unbatch+k-split+gdt+inner-tiled"]
    assert split == ("--summed", GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
    # Without a hinted script, every preset takes the plain one.
    assert all("--script" in flags for flags in unbatch_presets(("--script",)).values())
    for name in INNER_TILED_PRESETS:
        assert INNER_TILED_FLAG in FLAG_PRESETS[name] and GLOBAL_DATA_TILING_FLAG in FLAG_PRESETS[name]


def test_tune_offers_the_unbatch_presets_in_place_of_the_plain_inner_tiled_ones(tmp_path, monkeypatch):
    from conftest import BATCH1_LINEAR, cpu_target, matmul_model, presets_a_host_tune_times, write_model

    presets, said = presets_a_host_tune_times(write_model(tmp_path, "linear.mlir", BATCH1_LINEAR), monkeypatch,
                                              cpu_target("avx2"))
    assert "unbatch+gdt+inner-tiled" in presets and presets["unbatch+gdt+inner-tiled"][0].startswith(TRANSFORM_FLAG)
    # The hinted script there and under attention decomposition; the plain one where im2col
    # follows it (`tune_recipe` then drops the presets whose op this model lacks).

    def script(name: str) -> str:
        flag = next(f for f in presets[name] if f.startswith(TRANSFORM_FLAG))
        return Path(flag.split("=", 1)[1]).read_text()

    assert DATA_TILING_HINT in script("unbatch+gdt+inner-tiled")
    assert DATA_TILING_HINT in script("attn-decomposed+unbatch+gdt+inner-tiled")
    assert DATA_TILING_HINT not in script("unbatch+im2col+gdt+inner-tiled")
    assert not set(INNER_TILED_PRESETS) & set(presets)  # they cannot build on a batch
    assert any(line.startswith("unbatch route") and "1 batch-1 batch_matmul" in line for line in said)
    # A plain matmul: no unbatch route, so the plain inner-tiled presets are timed (beside the
    # register-tiled route's).
    plain, _ = presets_a_host_tune_times(write_model(tmp_path, "plain.mlir", matmul_model(8, 32, 64)), monkeypatch,
                                         cpu_target("avx2"))
    assert set(INNER_TILED_PRESETS) <= set(plain) and not any(name.startswith("unbatch") for name in plain)


LONG_K_LINEAR = """
func.func @main(%a: tensor<1x4x65536xf32>, %b: tensor<1x65536x16xf32>) -> tensor<1x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x4x65536xf32>, tensor<1x65536x16xf32>)
      outs(%f : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %r : tensor<1x4x16xf32>
}
"""


def test_tune_offers_the_summed_k_split_where_both_routes_apply(tmp_path, monkeypatch):
    # A linear layer as iree-turbine writes it (a batch-1 batch_matmul) with a reduction whose
    # panels crowd any L2 up to 8 MiB: the unbatch route and the long-K route both apply, and one
    # script does both for inner-tiled (iree-compile takes one), its chunks summed after.
    from conftest import presets_a_host_tune_times, write_model

    presets, _ = presets_a_host_tune_times(write_model(tmp_path, "long_k_linear.mlir", LONG_K_LINEAR), monkeypatch)
    flags = presets["unbatch+k-split+gdt+inner-tiled"]
    assert flags[1:] == (GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
    script = Path(flags[0].split("=", 1)[1]).read_text()
    assert "split_reduction" in script and DATA_TILING_HINT in script
    # The ukernel path keeps the in-order chunks.
    assert "k-split+gdt+tile-bytes-4m" in presets


def test_tune_cuts_an_inner_tiled_row_block_above_the_l2_in_the_hinted_script(tmp_path, monkeypatch):
    # k_split rule 3 (docs/DATA_TILING.md 15): on the AVX2-like CPU (13-row tiles, 1 MiB L2) a
    # batch-1 linear layer of 16 rows (26 padded) and K = 16384 has a 1.7 MB row block and a small
    # output: the hinted script of every inner-tiled preset cuts it in 2 chunks, summed after.
    from conftest import cpu_target, presets_a_host_tune_times, write_model

    from conftest import BATCH1_LINEAR_TEMPLATE

    text = BATCH1_LINEAR_TEMPLATE.format(m=16, k=16384, n=64)
    presets, said = presets_a_host_tune_times(write_model(tmp_path, "long.mlir", text), monkeypatch, cpu_target("avx2"))

    def script(name: str) -> str:
        flag = next(f for f in presets[name] if f.startswith(TRANSFORM_FLAG))
        return Path(flag.split("=", 1)[1]).read_text()

    for name in ("unbatch+gdt+inner-tiled", "attn-decomposed+unbatch+gdt+inner-tiled"):
        assert "@sum_k16384_n64" in script(name) and "split_factor = 2" in script(name), name
    assert "@sum_k16384" not in script("unbatch+im2col+gdt+inner-tiled")  # the plain script
    assert any("row blocks above the L2" in line and "K 16384 (N 64) in 2 chunks of 8192" in line for line in said)
    # The same layer with K = 1024 (a 104 KB block): nothing is cut, nothing said.
    presets, said = presets_a_host_tune_times(write_model(tmp_path, "short.mlir", BATCH1_LINEAR_TEMPLATE.format(
        m=16, k=1024, n=64)), monkeypatch, cpu_target("avx2"))
    assert "@sum_" not in script("unbatch+gdt+inner-tiled")
    assert not any("row blocks" in line for line in said)

