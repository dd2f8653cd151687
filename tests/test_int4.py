"""INT4 weights as a quantiser writes them: inputs, reference, discovery, tune (docs/INT4.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import iree_dsa_tuner
from iree_dsa_tuner.compiler import compile_to_vmfb
from iree_dsa_tuner.core.shape import gemm_shape
from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.search.options import TuneOptions
from conftest import load_tool
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.tuning_spec.numerics import compare_modules, pack_sub_byte, random_input
from iree_dsa_tuner.tuning_spec.reference import NumpyModel

AGGRESSIVE_FUSION = "--iree-dispatch-creation-enable-aggressive-fusion"


def _gen_int4():
    return load_tool("gen_int4_models")


gen_int4 = _gen_int4()


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ---- inputs: generated in range, packed as IREE's runtime reads them ---------------------------

def test_sub_byte_values_are_packed_first_element_in_the_low_nibble():
    assert pack_sub_byte(np.array([1, -2, 3]), 4).tolist() == [0xE1, 0x03]  # odd count: zero-filled
    assert pack_sub_byte(np.array([[15, 0], [7, 8]], dtype=np.uint8), 4).tolist() == [0x0F, 0x87]


def test_random_sub_byte_inputs_cover_their_range_and_repeat_with_the_seed():
    i4 = random_input((32, 32), "i4", np.random.default_rng(5))
    ui4 = random_input((32, 32), "ui4", np.random.default_rng(5))
    assert sorted(set(i4.ravel().tolist())) == list(range(-8, 8))
    assert sorted(set(ui4.ravel().tolist())) == list(range(16))
    assert np.array_equal(i4, random_input((32, 32), "i4", np.random.default_rng(5)))


EXTEND = """\
func.func @extend(%w: tensor<8x3xi4>, %u: tensor<8x3xi4>) -> (tensor<8x3xi32>, tensor<8x3xi32>) {
  %e = tensor.empty() : tensor<8x3xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x3xi4>) outs(%e : tensor<8x3xi32>) {
  ^bb0(%a: i4, %o: i32):
    %x = arith.extsi %a : i4 to i32
    linalg.yield %x : i32
  } -> tensor<8x3xi32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%u : tensor<8x3xi4>) outs(%e : tensor<8x3xi32>) {
  ^bb0(%b: i4, %p: i32):
    %y = arith.extui %b : i4 to i32
    linalg.yield %y : i32
  } -> tensor<8x3xi32>
  return %s, %z : tensor<8x3xi32>, tensor<8x3xi32>
}
"""


def test_iree_reads_the_packed_i4_arguments_as_numpy_does(e1, tmp_path):
    """Rows that end mid-byte (3 nibbles) and both extensions: IREE's run equals numpy's.
    (IREE 3.13 refuses an i4 tensor of an odd element count, not a whole number of bytes,
    and fails to vectorise one whose count is not a multiple of its vector width.)"""
    model = write(tmp_path, "extend.mlir", EXTEND)
    vmfb = tmp_path / "extend.vmfb"
    compile_to_vmfb(model, vmfb, target_flags=e1.compile_flags)
    reference = NumpyModel(compile_model(model, e1.compile_flags).generic_input_text())
    signatures = {"extend": [((8, 3), "i4"), ((8, 3), "i4")]}
    results = compare_modules(vmfb, signatures, {"extend": ["i32", "i32"]}, numpy_reference=reference)
    assert [(r.output, r.checked, r.ok, r.reference) for r in results] == [(0, True, True, "numpy"),
                                                                           (1, True, True, "numpy")]
    # The reference reads signless i4 as signed for extsi, unsigned for extui.
    w = np.array([[-8, -1, 7], [3, -5, 0]] * 4, dtype=np.int8)
    signed, unsigned = reference("extend", w, w)
    assert signed[:2].tolist() == [[-8, -1, 7], [3, -5, 0]] and unsigned[:2].tolist() == [[8, 15, 7], [3, 11, 0]]


# ---- the numpy reference evaluates both layouts a quantiser writes -----------------------------

@pytest.mark.parametrize("layout,zero_point", [("grouped", True), ("kn", False)])
def test_the_numpy_reference_dequantises_group_scaled_int4(e1, tmp_path, layout, zero_point):
    m, n, k, group = 2, 16, 64, 32
    model = write(tmp_path, f"{layout}.mlir", gen_int4.model(m, n, k, group, "f32", zero_point, layout))
    reference = NumpyModel(compile_model(model, e1.compile_flags).generic_input_text())
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (m, k))
    q = rng.integers(0, 16, (k, n)) if zero_point else rng.integers(-8, 8, (k, n))
    scales = rng.uniform(0.5, 2, (k // group, n)).astype(np.float32)
    zeros = rng.integers(0, 16, (k // group, n)).astype(np.float32)
    w = (q - (np.repeat(zeros, group, axis=0) if zero_point else 0)) * np.repeat(scales, group, axis=0)
    if layout == "grouped":  # x [M, K/G, G], W [N, K/G, G], scales [N, K/G]
        args = [x.reshape(m, k // group, group), q.T.reshape(n, k // group, group), scales.T] + \
               ([zeros.T] if zero_point else [])
    else:  # x [M, K], W [K, N], scales [K/G, N] read at k floordiv G
        args = [x, q, scales]
    (got,) = reference("int4_matmul", *args)
    np.testing.assert_allclose(got, x @ w, rtol=1e-5, atol=1e-5)


# ---- discovery: both IREE forms are an i4-weight problem with its group --------------------------

def test_both_iree_forms_are_one_i4_weight_problem_and_only_the_fused_one_searches_the_quant_block(e1, tmp_path):
    model = write(tmp_path, "decode.mlir", gen_int4.model(1, 256, 1024, 128, "f16", False))
    split = compile_model(model, e1.compile_flags).problems()
    (fused,) = compile_model(model, tuple(e1.compile_flags) + (AGGRESSIVE_FUSION,)).problems()
    producer, matvec = split
    assert producer.kind == "none" and producer.dequantises.group_size == 128
    for p in (matvec, fused):
        q = p.weight_quant
        assert (q.element_type, q.group_size, q.scale_type, q.operand) == ("i4", 128, "f16", 1)
    assert (matvec.weight_quant.form, matvec.weight_quant.producer) == ("split", producer.dispatch)
    # Split: the packed read and f32 write of the dequantise dispatch are counted on the matvec.
    assert matvec.weight_quant.dequantise_bytes == 256 * 1024 // 2 + 256 * 8 * 2 + 256 * 1024 * 4
    assert gemm_shape(matvec).external_bytes == matvec.weight_quant.dequantise_bytes
    assert matvec.bytes == 1024 * 4 + 256 * 1024 * 4 + 256 * 4 + matvec.weight_quant.dequantise_bytes
    # Fused: the dispatch reads the weight packed, with its f16 scales.
    assert fused.bytes == 1024 * 4 + 256 * 1024 // 2 + 256 * 8 * 2 + 256 * 4
    assert e1.space(matvec).choices["quant_block"] == (0,)  # it reads f32: nothing to block
    assert e1.space(fused).choices["quant_block"] == (32, 64, 128)
    # The untuned baseline of the fused form reads its scales per group too: the largest
    # block of the description that divides the group, not an unblocked whole-K stream.
    default = compile_model(model, tuple(e1.compile_flags) + (AGGRESSIVE_FUSION,)).default_configs()[fused.dispatch]
    assert e1.from_config(fused, e1.untuned_config(fused, default)).quant_block == 128
    default_split = compile_model(model, e1.compile_flags).default_configs()[matvec.dispatch]
    assert e1.from_config(matvec, e1.untuned_config(matvec, default_split)).quant_block == 0


MASK = """\
func.func @masked(%m: tensor<64x64xi1>, %x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %x : tensor<64x64xi1>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: i1, %b: f32, %o: f32):
    %i = arith.extui %a : i1 to i32
    %f = arith.uitofp %i : i32 to f32
    %y = arith.mulf %f, %b : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
"""


def test_a_mask_times_a_tensor_is_not_a_dequantisation(e1, tmp_path):
    (p,) = compile_model(write(tmp_path, "mask.mlir", MASK), e1.compile_flags).problems()
    assert p.kind == "none" and p.dequantises is None and "dequantises" not in p.reason


# ---- tune, end to end ---------------------------------------------------------------------------

def test_tune_searches_the_quant_block_with_the_tile_and_verifies_the_fused_form(e1, tmp_path):
    model = write(tmp_path, "decode.mlir", gen_int4.model(1, 256, 1024, 128, "f16", False))
    artifacts = compile_model(model, tuple(e1.compile_flags) + (AGGRESSIVE_FUSION,))
    result = iree_dsa_tuner.tune(artifacts, e1, TuneOptions(budget=8))
    (dispatch,) = result.dispatches
    blocks = {t["candidate"]["quant_block"] for t in dispatch.to_json()["trials"]}
    assert len(blocks) > 1 and 0 not in blocks  # searched jointly with the tiles
    assert dispatch.to_json()["chosen"] == "tuned"
    assert "iree_dsa.quant_block" in result.spec_text
    assert result.verified and result.verification() == "every config applied, numerics match"
    assert [(n["checked"], n["ok"], n["reference"]) for n in result.numerics] == [(True, True, "numpy")]


def test_tune_cli_on_the_default_split_form_writes_a_verified_spec(tmp_path):
    model = write(tmp_path, "w4.mlir", gen_int4.model(50, 256, 512, 64, "f32", True))
    spec = tmp_path / "spec.mlir"
    run = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "tune", str(model), "--target", "dsa-e1",
                          "-o", str(spec), "--no-db", "--budget", "8", "--quiet"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    assert "dequantises ui4 weights (group 64) for" in run.stdout
    assert "verified: every config applied, numerics match" in run.stdout
    assert spec.exists() and "transform.iree.match.contraction" in spec.read_text()


@pytest.mark.slow
def test_tune_cli_iree_flag_reaches_the_fused_form_and_is_checked(tmp_path):
    model = write(tmp_path, "decode.mlir", gen_int4.model(1, 256, 1024, 128, "f16", False))
    spec = tmp_path / "spec.mlir"
    base = [sys.executable, "-m", "iree_dsa_tuner.cli", "tune", str(model), "-o", str(spec), "--no-db", "--quiet"]
    run = subprocess.run(base + ["--target", "dsa-e1", "--budget", "6", f"--iree-flag={AGGRESSIVE_FUSION}"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    assert "verified: every config applied, numerics match" in run.stdout
    assert "iree_dsa.quant_block" in spec.read_text()  # only the fused form has a quant-block knob
    spec.unlink()
    for extra, message in ((["--target", "dsa-e1", "--iree-flag=aggressive"], "not an iree-compile flag"),
                           (["--target", "host", f"--iree-flag={AGGRESSIVE_FUSION}"], "add --no-recipe")):
        run = subprocess.run(base + extra, capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1
        assert not spec.exists()
