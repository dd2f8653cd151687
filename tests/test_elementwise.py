"""Elementwise roots (docs/ELEMENTWISE.md): found in IREE's dispatch IR, their non-dividing
workgroup tiles repaired by a rule, written as a spec IREE applies."""

from __future__ import annotations

import pytest

from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.core.problems import ElementwiseProblem, is_tunable
from iree_dsa_tuner.flags import HOST_FLAGS
from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.ir.discovery import elementwise_problems_from_sources
from iree_dsa_tuner.search.estimated import divisible_distribution, divisible_elementwise_configs

from conftest import write_model

HASWELL = tuple(f for f in HOST_FLAGS if not f.startswith("--iree-llvmcpu-target-cpu")) + (
    "--iree-llvmcpu-target-cpu=haswell",)


@pytest.mark.parametrize("size, tile, vector, expected", [
    (80, 32, 16, 16),      # ACT's gather: 32 leaves 80 - 64 = 16 in a dynamic last tile
    (80, 16, 16, 16),      # divides: kept
    (82, 96, 16, 96),      # at least the loop: one static tile, kept
    (41984, 4096, 16, 2624),  # 2^10 * 41: the largest divisor below 4096 that holds whole vectors
    (300, 64, 16, 64),     # no multiple of 16 divides 300: left to IREE
    (300, 64, 1, 60),      # no vector on the loop: any divisor
    (7, 0, 1, 0),          # not tiled
])
def test_divisible_distribution(size, tile, vector, expected):
    assert divisible_distribution(size, tile, vector) == expected


def _problem(sizes, dispatch="d0"):
    from iree_dsa_tuner.core.problems import OperandInfo

    out = OperandInfo(tuple(sizes), "f32")
    return ElementwiseProblem(dispatch=dispatch, op_name="linalg.generic", loop_sizes=tuple(sizes),
                              loop_types=("parallel",) * len(sizes), dim_groups={"parallel": tuple(range(len(sizes)))},
                              indexing_maps=(), inputs=(out,), output=out, dag_text=f"op of {dispatch}")


def test_only_configs_with_a_non_dividing_tile_change():
    bad, good = _problem((64, 3, 3, 60, 80), "bad"), _problem((64, 80), "good")
    defaults = {
        "bad": CompilationConfig("DoubleTilingExpert", (32, 3, 3, 30, 32), (1, 1, 1, 1, 16), (0,) * 5),
        "good": CompilationConfig("DoubleTilingExpert", (16, 16), (1, 16), (0, 0)),
    }
    configs = divisible_elementwise_configs([bad, good], defaults)
    assert set(configs) == {"bad"}
    # Only the distribution moves; vectors and pipeline stay IREE's.
    assert configs["bad"] == CompilationConfig("DoubleTilingExpert", (32, 3, 3, 30, 16), (1, 1, 1, 1, 16), (0,) * 5)
    assert divisible_elementwise_configs([bad, good], defaults, wanted={"good"}) == {}
    # A dispatch IREE gave no config (or another loop count) is left alone.
    assert divisible_elementwise_configs([bad], {}) == {}


def test_elementwise_roots_are_found_but_not_searched(tmp_path, inputs):
    built = compile_model(inputs / "im2col_gather_pack.mlir", HASWELL)
    found = {p.dispatch: p for p in built.elementwise_problems()}
    gather = found["gather_dispatch_0_generic_64x3x3x60x80_f32_pack"]
    assert gather.loop_sizes == (64, 3, 3, 60, 80)
    assert gather.fused_ops == ("linalg.pack",)
    assert "tensor<64x62x82xf32>" in gather.dag_text and "d1 + d3" in gather.dag_text
    assert not is_tunable(gather)
    # The search's problems are unchanged: these dispatches stay "no root op" there.
    assert all(p.kind == "none" for p in built.problems())
    configs = divisible_elementwise_configs(list(found.values()), built.default_configs())
    assert {d: c.distribution for d, c in configs.items()} == {gather.dispatch: (32, 3, 3, 30, 16)}


REDUCING = """
func.func @norm(%x: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
       iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x80xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %o = tensor.empty() : tensor<64x80xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
       affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
       ins(%x, %s : tensor<64x80xf32>, tensor<64xf32>) outs(%o : tensor<64x80xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %d = arith.divf %in, %sum : f32
    linalg.yield %d : f32
  } -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
"""


def test_a_dispatch_that_reduces_has_no_elementwise_root(tmp_path):
    # IREE's root there is the reduction; a config on the elementwise consumer would not be its.
    built = compile_model(write_model(tmp_path, "norm.mlir", REDUCING), HASWELL)
    assert built.elementwise_problems() == []


def test_unparsable_sources_are_one_line_errors():
    from iree_dsa_tuner.errors import InputError

    with pytest.raises(InputError, match="cannot parse"):
        elementwise_problems_from_sources("func.func @broken(", "broken.mlir")


def test_the_searchs_spec_is_verified_with_the_builds_elementwise_roots(monkeypatch):
    # The chosen build's own spec holds an elementwise config; the search's winners join it, and
    # the spec of both is built and verified against the problems that include the elementwise root
    # (it once raised a KeyError after a 5-minute tune of ACT).
    from types import SimpleNamespace

    from iree_dsa_tuner.host import recipe as host_recipe

    gemm = SimpleNamespace(dispatch="d_gemm", kind="contraction")
    gather = _problem((64, 3, 3, 60, 80), "d_gather")
    flagged = SimpleNamespace(problems=lambda: [gemm], elementwise_problems=lambda: [gather])
    from iree_dsa_tuner.ir import artifacts

    monkeypatch.setattr(artifacts, "RootOpProblem", SimpleNamespace)  # the fake GEMM counts as a root op
    seen = {}

    def build_verified(built, problems, configs, progress):
        seen["problems"] = {p.dispatch for p in problems}
        seen["configs"] = set(configs)
        return SimpleNamespace(text="// spec", dropped={})

    monkeypatch.setattr(host_recipe.search_spec, "build_verified", build_verified)
    config = CompilationConfig("DoubleTilingExpert", (32, 3, 3, 30, 16), (1, 1, 1, 1, 16), (0,) * 5)
    result = SimpleNamespace(dispatches=[SimpleNamespace(dispatch="d_gemm", best_config="winner")])
    out = host_recipe.search_spec.with_shared(flagged, result, {"d_gemm"}, {"d_gather": config}, None)
    assert seen == {"problems": {"d_gemm", "d_gather"}, "configs": {"d_gemm", "d_gather"}}
    assert out == ("spec", "// spec", {"d_gemm", "d_gather"})


def test_an_op_iree_configures_two_ways_is_left_alone():
    # Two dispatches hold the same op (one matcher would fire on both) with different IREE configs:
    # one config cannot be right for both.
    one, two = _problem((64, 3, 3, 60, 80), "one"), _problem((64, 3, 3, 60, 80), "two")
    one, two = (ElementwiseProblem(**{**p.__dict__, "dag_text": "same op"}) for p in (one, two))
    defaults = {
        "one": CompilationConfig("DoubleTilingExpert", (32, 3, 3, 30, 32), (1, 1, 1, 1, 16), (0,) * 5),
        "two": CompilationConfig("DoubleTilingExpert", (16, 3, 3, 30, 32), (1, 1, 1, 1, 16), (0,) * 5),
    }
    assert divisible_elementwise_configs([one, two], defaults) == {}
    # The same config in both: repaired once per dispatch, one matcher in the spec.
    defaults["two"] = defaults["one"]
    assert set(divisible_elementwise_configs([one, two], defaults)) == {"one", "two"}


GELU_MLP = """
func.func @mlp(%x: tensor<1x13x12xf32>, %w1: tensor<1x12x24xf32>, %b1: tensor<24xf32>, %w2: tensor<1x24x12xf32>) -> tensor<1x13x12xf32> {
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3 : i64
  %c = arith.constant 4.471500e-02 : f32
  %k = arith.constant 7.978846e-01 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %e1 = tensor.empty() : tensor<1x13x24xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x13x24xf32>) -> tensor<1x13x24xf32>
  %h = linalg.batch_matmul ins(%x, %w1 : tensor<1x13x12xf32>, tensor<1x12x24xf32>) outs(%f1 : tensor<1x13x24xf32>) -> tensor<1x13x24xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>,
       affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
       ins(%h, %b1 : tensor<1x13x24xf32>, tensor<24xf32>) outs(%e1 : tensor<1x13x24xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %a = arith.addf %in, %bias : f32
    %cube = math.fpowi %a, %three : f32, i64
    %t0 = arith.mulf %cube, %c : f32
    %t1 = arith.addf %a, %t0 : f32
    %t2 = arith.mulf %t1, %k : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %y = arith.mulf %a, %t5 : f32
    linalg.yield %y : f32
  } -> tensor<1x13x24xf32>
  %e2 = tensor.empty() : tensor<1x13x12xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x13x12xf32>) -> tensor<1x13x12xf32>
  %r = linalg.batch_matmul ins(%g, %w2 : tensor<1x13x24xf32>, tensor<1x24x12xf32>) outs(%f2 : tensor<1x13x12xf32>) -> tensor<1x13x12xf32>
  return %r : tensor<1x13x12xf32>
}
"""


def test_an_unpack_gelu_pack_dispatch_vectorises_in_the_unpacks_tiles_and_computes_the_mlp(tmp_path):
    """fc1 -> bias and tanh GELU -> fc2, as SigLIP's MLP, under the register-tiled route for haswell
    (6 x 16 x 1 tiles): IREE makes fc1's unpack, the GELU and fc2's 6 x 1 pack one dispatch and
    vectorises it in the pack's 6 x 1. The GELU's body captures its `fpowi` exponent, so the spec
    matches it by operand types; the rule gives it the unpack's 6 x 16 vectors, IREE applies them,
    and the build still computes the MLP (seeded data against NumPy)."""
    import math

    import iree.compiler as ic
    import iree.runtime as rt
    import numpy as np

    from iree_dsa_tuner.host.routes.register_tiled import register_tiled_flags
    from iree_dsa_tuner.search.estimated import elementwise_configs, unpacked_vector_configs
    from iree_dsa_tuner.tuning_spec.builder import build_spec

    model = write_model(tmp_path, "mlp.mlir", GELU_MLP)
    flags = HASWELL + register_tiled_flags((6, 16, 1), tmp_path)
    built = compile_model(model, flags)
    [gelu] = [p for p in built.elementwise_problems() if p.unpacked_tiles]
    assert gelu.unpacked_tiles == (6, 16) and gelu.captures_constants and "linalg.pack" in gelu.fused_ops
    assert gelu.match_key == "tensor<13x24xf32>, tensor<24xf32>, tensor<13x24xf32>"
    defaults = built.default_configs()
    assert defaults[gelu.dispatch].vector_common_parallel[1] == 1  # IREE's: the pack's 6 x 1
    configs = elementwise_configs(built.elementwise_problems(), defaults)
    assert configs == unpacked_vector_configs(built.elementwise_problems(), defaults)
    assert configs[gelu.dispatch].vector_common_parallel == (6, 16)
    spec = tmp_path / "spec.mlir"
    spec.write_text(build_spec([gelu], configs))
    tuned = [*flags, f"--iree-codegen-tuning-spec-path={spec}"]
    configured = ic.compile_file(str(model), extra_args=tuned + ["--compile-to=executable-configurations"]).decode()
    assert "vector_common_parallel = [6, 16]" in configured
    module = rt.load_vm_flatbuffer(ic.compile_file(str(model), extra_args=tuned), driver="local-sync")
    rng = np.random.default_rng(31)
    x = rng.standard_normal((1, 13, 12), dtype=np.float32)
    w1 = rng.standard_normal((1, 12, 24), dtype=np.float32)
    b1 = rng.standard_normal((24,), dtype=np.float32)
    w2 = rng.standard_normal((1, 24, 12), dtype=np.float32)
    a = x @ w1 + b1
    gelu_ref = a * 0.5 * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3)))
    np.testing.assert_allclose(np.asarray(module.mlp(x, w1, b1, w2)), gelu_ref @ w2, rtol=1e-4, atol=1e-4)
