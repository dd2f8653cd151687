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
