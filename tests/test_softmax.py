"""Softmax as a tunable root op on the host (docs/SOFTMAX.md): discovery, space, mapping, spec.

IREE 3.13 decomposes `linalg.softmax` before configuring it; its root is the sum of
exp(x - max) over the softmax dimension, whose loops are the softmax operand's.
"""

from __future__ import annotations

import subprocess

import pytest

from iree_dsa_tuner.compiler import find_tool
from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.core.problems import SoftmaxProblem, is_tunable, with_types
from iree_dsa_tuner.core.shape import UnsupportedProblem
from iree_dsa_tuner.costmodel.funnel import run_funnel
from iree_dsa_tuner.ir import load_problems
from iree_dsa_tuner.ir.configured import default_configs_from_text, read_configured_dispatches
from iree_dsa_tuner.host.target import softmax_shape
from iree_dsa_tuner.targets.mapping import softmax_group_tiles, softmax_tile_lists
from iree_dsa_tuner.tuning_spec.builder import build_spec
from iree_dsa_tuner.tuning_spec.reading import read_spec

from conftest import cpu_target, write_model

SOFTMAX = """\
func.func @sm(%x: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %e = tensor.empty() : tensor<{shape}xf32>
  %s = linalg.softmax dimension({dim}) ins(%x : tensor<{shape}xf32>) outs(%e : tensor<{shape}xf32>) -> tensor<{shape}xf32>
  return %s : tensor<{shape}xf32>
}}
"""

# A layer norm's variance: a two-input reduction of the same shapes as the softmax's root
# (x and a row statistic in, one value per row out). The softmax matcher must not take it.
# (Alone in a dispatch IREE collapses its rows to 408, so this checks that other reductions keep
# their default, not the DAG's max producer; `test_spec_matcher_pins_...` checks that part.)
VARIANCE = """\
func.func @var(%x: tensor<8x51x867xf32>, %mean: tensor<8x51xf32>) -> tensor<8x51xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x51xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x51xf32>) -> tensor<8x51xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean : tensor<8x51x867xf32>, tensor<8x51xf32>) outs(%f : tensor<8x51xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %o : f32
    linalg.yield %r : f32
  } -> tensor<8x51xf32>
  return %v : tensor<8x51xf32>
}
"""

ISAS = ("avx2", "avx512")
HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")


def softmax_problem(tmp_path, shape="8x51x867", dim=2) -> SoftmaxProblem:
    model = write_model(tmp_path, "sm.mlir", SOFTMAX.format(shape=shape, dim=dim))
    (p,) = load_problems(model)
    assert isinstance(p, SoftmaxProblem), p
    return p


# ---- discovery ----------------------------------------------------------------------------

def test_softmax_dispatch_is_a_tunable_softmax_problem(inputs):
    problems = load_problems(inputs / "masked_softmax.mlir")
    softmax = [p for p in problems if p.kind == "softmax"]
    assert len(softmax) == 1, [p.to_json() for p in problems]
    p = softmax[0]
    assert is_tunable(p)
    assert p.loop_sizes == (8, 51, 867)
    assert p.loop_types == ("parallel", "parallel", "reduction")
    assert p.sizes() == {"parallel": [8, 51], "reduction": [867]}
    assert p.dimension == 2 and p.rows == 8 * 51
    assert (p.lhs_type, p.rhs_type, p.out_type) == ("f32", "f32", "f32")
    assert [o.shape for o in p.inputs] == [(8, 51, 867)] and p.output.shape == (8, 51, 867)
    # The root generic's maps: x, the row max, the row sum.
    assert p.indexing_maps == ("affine_map<(d0, d1, d2) -> (d0, d1, d2)>", "affine_map<(d0, d1, d2) -> (d0, d1)>",
                               "affine_map<(d0, d1, d2) -> (d0, d1)>")
    assert p.bytes == 2 * 4 * 8 * 51 * 867
    # The mask add is its own dispatch, still untunable.
    assert [q.kind for q in problems if q is not p] == ["none"]


def test_softmax_over_an_inner_dimension_keeps_its_loop_order(tmp_path):
    p = softmax_problem(tmp_path, "4x96x8", dim=1)
    assert p.loop_types == ("parallel", "reduction", "parallel")
    assert p.dim_groups == {"parallel": (0, 2), "reduction": (1,)}
    assert p.indexing_maps[1] == "affine_map<(d0, d1, d2) -> (d0, d2)>"


def test_with_types_keeps_one_operand(tmp_path):
    p = softmax_problem(tmp_path, "16x64", dim=1)
    q = with_types(p, "f16", "f16", "f16")
    assert len(q.inputs) == 1 and q.lhs_type == "f16" and q.out_type == "f16"


def test_configured_ir_reads_the_decomposed_root(tmp_path):
    """IREE's default config is on the sum-of-exp generic, and reads back as the baseline."""
    model = write_model(tmp_path, "sm.mlir", SOFTMAX.format(shape="8x51x867", dim=2))
    text = subprocess.run([find_tool("iree-compile"), *HASWELL, str(model), "--compile-to=executable-configurations", "-o", "-"],
                          check=True, capture_output=True, text=True).stdout
    (configured,) = read_configured_dispatches(text)
    assert configured.root_op == "linalg.generic" and configured.num_loops == 3
    assert "distribution" in configured.lowering_config  # the root's, not the max's or the normalisation's
    (config,) = default_configs_from_text(text).values()
    assert config.pipeline == "DoubleTilingExpert"
    assert config.vector_reduction[:2] == (0, 0) and config.vector_reduction[2] > 0
    assert config.distribution[2] == 0


# ---- space and mapping --------------------------------------------------------------------

@pytest.mark.parametrize("isa", ISAS)
def test_space_steps_are_native_vectors_within_the_vector_limit(tmp_path, isa):
    p = softmax_problem(tmp_path)
    target = cpu_target(isa)
    desc = target.describe()
    space = target.space(p)
    lanes = desc.mac_n  # f32 lanes of one vector register (8 with AVX2, 16 with AVX-512)
    assert lanes == (16 if isa == "avx512" else 8)
    assert space.choices["vec_k"] == tuple(lanes * r for r in (1, 2, 4, 8))
    assert space.choices["vec_m"] == (1, 2, 4, 8)
    assert space.choices["vec_n"] == (1,)
    # Row tiles divide the innermost parallel loop (51) or cover whole inner rows.
    for t in space.choices["tile_m"]:
        assert 51 % t == 0 or (t % 51 == 0 and 8 % (t // 51) == 0), t
    funnel = run_funnel(space, desc, estimator=target.estimator)
    survivors = funnel.survivors()
    assert survivors
    for s in survivors:
        c = s.candidate
        assert c.vec_m * c.vec_k < desc.max_vector_elements
        assert c.tile_k == c.vec_k  # the row is never split; tile_k carries the step
        config = target.to_config(p, c)
        config.check_against(p.loop_types)
        assert target.from_config(p, config) == c


@pytest.mark.parametrize("isa", ISAS)
def test_estimate_prefers_one_contiguous_row_over_the_default(tmp_path, isa):
    """The default vectorises 8 rows (867 floats apart) x 16; one row x several vectors is contiguous."""
    p = softmax_problem(tmp_path)
    target = cpu_target(isa)
    ranked = [s.candidate for s in run_funnel(target.space(p), target.describe(), estimator=target.estimator).survivors()]
    assert ranked[0].vec_m == 1
    default = target.from_config(p, CompilationConfig("DoubleTilingExpert", (1, 17, 0), (1, 8, 0), (0, 0, 16)))
    import numpy as np

    cols = {k: np.array([getattr(c, k) for c in (ranked[0], default)]) for k in ("tile_m", "vec_m", "vec_k", "tile_n",
                                                                               "vec_n", "tile_k")}
    est = target.estimator(softmax_shape(p), target.describe(), cols)
    assert est.total_s[0] < est.total_s[1]


def test_tile_lists_and_their_inverse(tmp_path):
    shape = softmax_shape(softmax_problem(tmp_path))
    # Within the innermost parallel loop; vector rows never exceed the distribution tile.
    assert softmax_tile_lists(shape, 17, 8, 64) == ((1, 17, 0), (1, 8, 0), (0, 0, 64))
    assert softmax_tile_lists(shape, 3, 8, 64) == ((1, 3, 0), (1, 3, 0), (0, 0, 64))
    # Covering whole inner rows: two of the outer loop.
    assert softmax_tile_lists(shape, 102, 1, 32) == ((2, 51, 0), (1, 1, 0), (0, 0, 32))
    back = softmax_group_tiles(shape, CompilationConfig("DoubleTilingExpert", (2, 51, 0), (1, 1, 0), (0, 0, 32)))
    assert back == {"tile_m": 102, "vec_m": 1, "vec_k": 32}
    # IREE's zeros: distribution 0 = the whole loop, vector 0 = the distribution tile.
    back = softmax_group_tiles(shape, CompilationConfig("DoubleTilingExpert", (0, 0, 0), (1, 0, 0), (0, 0, 0)))
    assert back == {"tile_m": 8 * 51, "vec_m": 51, "vec_k": 867}


def test_default_config_reads_as_a_candidate_and_back(tmp_path):
    p = softmax_problem(tmp_path)
    target = cpu_target("avx2")
    default = CompilationConfig("DoubleTilingExpert", (1, 17, 0), (1, 8, 0), (0, 0, 16))
    c = target.from_config(p, default)
    assert (c.tile_m, c.vec_m, c.vec_k, c.tile_k) == (17, 8, 16, 16)
    assert target.to_config(p, c) == default
    with pytest.raises(ConfigError):
        target.from_config(p, CompilationConfig("DoubleTilingExpert", (1, 17), (1, 8), (0, 16)))
    with pytest.raises(ConfigError):
        target.from_config(p, CompilationConfig("Mmt4dTilingExpert", (1, 17, 0), (1, 8, 0), (0, 0, 16)))


def test_dsa_targets_refuse_softmax_by_name(tmp_path):
    from iree_dsa_tuner.targets import get_target

    p = softmax_problem(tmp_path)
    with pytest.raises(UnsupportedProblem, match="softmax"):
        get_target("dsa-e1").space(p)


# ---- the spec -----------------------------------------------------------------------------

def _spec(p, tmp_path, config=("DoubleTilingExpert", (1, 51, 0), (1, 1, 0), (0, 0, 64))):
    text = build_spec([p], {p.dispatch: CompilationConfig(*config)})
    path = tmp_path / "spec.mlir"
    path.write_text(text)
    return text, path


def test_spec_matcher_pins_the_softmax_dag_and_reads_back(tmp_path):
    p = softmax_problem(tmp_path)
    text, path = _spec(p, tmp_path)
    assert "transform.iree.match.cast_compatible_dag_from_root" in text
    assert "arith.maxnumf" in text and "math.exp" in text
    # The root's second input is the max generic's result, not a free argument of the DAG.
    assert "ins(%arg1, %1 : tensor<8x51x867xf32>, tensor<8x51xf32>)" in text
    assert "tensor<8x51x867xf32>" in text and "tensor<8x51xf32>" in text
    (m,) = read_spec(path)
    assert m.kind == "softmax"
    assert m.element_types == ("f32", "f32", "f32")
    assert m.indexing_maps == p.indexing_maps
    assert m.dims == ((8, 51), (867,))
    assert "vector_reduction = [0, 0, 64]" in m.lowering_config


def _configured(model, spec) -> list[str]:
    out = subprocess.run([find_tool("iree-compile"), *HASWELL, str(model), "--compile-to=executable-configurations",
                          f"--iree-codegen-tuning-spec-path={spec}", "-o", "-"],
                         check=True, capture_output=True, text=True).stdout
    return [d.lowering_config or "" for d in read_configured_dispatches(out)]


@pytest.mark.slow
def test_spec_applies_to_its_softmax_only(tmp_path):
    p = softmax_problem(tmp_path)
    _, spec = _spec(p, tmp_path)
    wanted = "distribution = [1, 51, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 64]"
    assert any(wanted in c for c in _configured(tmp_path / "sm.mlir", spec))
    # Another shape, and a layer-norm-like reduction of the root's exact shapes, keep IREE's default.
    other = write_model(tmp_path, "other.mlir", SOFTMAX.format(shape="8x51x868", dim=2))
    assert not any(wanted in c for c in _configured(other, spec))
    variance = write_model(tmp_path, "var.mlir", VARIANCE)
    assert not any(wanted in c for c in _configured(variance, spec))


@pytest.mark.slow
def test_softmax_dispatch_is_checked_alone_against_numpy(tmp_path, inputs):
    """Where the whole function is not evaluable (an op the numpy reference does not know), the softmax
    dispatch is rebuilt alone from its executable source (linalg.softmax), compiled with the
    spec, its config confirmed on the decomposed root, and compared with numpy's softmax."""
    from iree_dsa_tuner.ir import compile_model
    from iree_dsa_tuner.tuning_spec.dispatch_alone import DispatchCheck, check_dispatches_alone
    from iree_dsa_tuner.tuning_spec.reading import canonical_attr

    artifacts = compile_model(inputs / "masked_softmax.mlir", HASWELL)
    (p,) = [q for q in artifacts.problems() if q.kind == "softmax"]
    config = CompilationConfig("DoubleTilingExpert", (1, 51, 0), (1, 1, 0), (0, 0, 32))
    _, spec = _spec(p, tmp_path, ("DoubleTilingExpert", (1, 51, 0), (1, 1, 0), (0, 0, 32)))
    check = DispatchCheck(p.dispatch, artifacts.source_files[p.dispatch], canonical_attr(config.lowering_config_text()),
                          canonical_attr(config.translation_info_text()))
    (result,) = check_dispatches_alone([check], str(spec), artifacts.target_flags)
    assert (result.dispatch, result.checked, result.ok, result.reference) == (p.dispatch, True, True, "numpy-root-op")
    assert result.max_error < 1e-5
