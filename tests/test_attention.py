"""Attention: the host's space for online_attention, its spec, its numpy reference, and tune."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import iree_dsa_tuner
from iree_dsa_tuner.core.problems import AttentionProblem, is_tunable
from iree_dsa_tuner.core.shape import attention_shape
from iree_dsa_tuner.ir import compile_model
from iree_dsa_tuner.search.cost_view import CostView
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.tuning_spec.reference import NumpyModel

from conftest import ISAS, cpu_target

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
ATTENTION = INPUTS / "attention.mlir"  # 8 heads, 50 queries, 64 keys, head and value width 32


# IREE's vector-size limit on each pinned CPU (m*n*k f32 elements): the space must stay under it.
VECTOR_LIMIT = {"avx2": 4096, "avx512": 8192}


@pytest.fixture(scope="module")
def host():
    """An AVX2 part's host target: its code (haswell) runs on every x86-64 runner here."""
    return cpu_target("avx2")


@pytest.fixture(scope="module")
def problem(host):
    (p,) = compile_model(ATTENTION, host.compile_flags).problems()
    return p


def test_numpy_reference_is_softmax_attention():
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s).astype(np.float32) for s in ((8, 50, 32), (8, 64, 32), (8, 64, 32)))
    (out,) = NumpyModel(ATTENTION.read_text())("attention", q, k, v)
    scores = np.einsum("bqd,bkd->bqk", q.astype(np.float64), k) * 0.1767767
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    expected = (weights / weights.sum(-1, keepdims=True)) @ v
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


def test_attention_is_tunable_with_its_own_shape(problem):
    assert isinstance(problem, AttentionProblem) and is_tunable(problem)
    shape = attention_shape(problem)
    assert (shape.batch, shape.m, shape.k, shape.n, shape.head_dim) == (8, 50, 64, 32, 32)
    # Q K^T and P V: 2 x 8 x 50 x 64 x (32 + 32) flops, the problem's own count.
    assert 2 * shape.macs == problem.flops


@pytest.mark.parametrize("isa", ISAS)
def test_space_keeps_the_head_whole_and_configs_round_trip(problem, isa):
    host = cpu_target(isa)
    space = host.space(problem)
    assert space.choices["tile_k"] == (32,)  # k1 stepping miscomputes in IREE 3.13
    view = CostView(problem, host)
    assert view.ranked, "the funnel left nothing"
    limit = host.describe().max_vector_elements
    assert limit == VECTOR_LIMIT[isa]
    for c in view.legal:
        # The widest vector: the score block (query rows x KV block) times the head width.
        assert c.vec_m * c.vec_k * max(32, min(c.vec_n, c.tile_n)) < limit
    for c in view.ranked[:5]:
        config = host.to_config(problem, c)
        assert config.pipeline == "LinalgExtTileAndVectorize"
        assert config.vector_reduction[2] == 0 and config.vector_reduction[3] == c.vec_k  # (b, m, k1, k2, n)
        assert host.from_config(problem, config) == c


def test_a_target_without_an_attention_space_skips_it_with_the_reason(monkeypatch):
    # The DSA has an attention space now (docs/ATTENTION.md, DSA): it tunes the dispatch.
    result = iree_dsa_tuner.tune(ATTENTION, "dsa-e1", TuneOptions(budget=2), verify=False)
    assert [d.dispatch for d in result.dispatches] == ["attention_dispatch_0_attention_8x50x32x64x32"]
    assert not result.skipped
    # Simulated, so pinned (the fast tier's check; the slow test below verifies the spec too).
    (d,) = result.dispatches
    assert (d.chosen, round(d.default_us, 3), round(d.best_us, 3)) == ("tuned", 10.349, 7.853)
    # A target whose space refuses attention (gemm_shape's refusal) skips it, with the reason.
    from iree_dsa_plugin.target import DsaTarget
    from iree_dsa_tuner.core.shape import gemm_shape

    monkeypatch.setattr(DsaTarget, "space", lambda self, problem: gemm_shape(problem))
    result = iree_dsa_tuner.tune(ATTENTION, "dsa-e1", TuneOptions(budget=2), verify=False)
    assert not result.dispatches
    (skipped,) = result.skipped
    assert skipped["kind"] == "attention" and "no attention space" in skipped["reason"]


class FixedTimes:
    """IREE's default at 100 us, every candidate at 50 us: the tuned branch, on any machine."""

    name = "fixed"

    def measure(self, problem, config):
        from iree_dsa_tuner.core.measurement import Measurement

        us = 100.0 if config is None else 50.0
        return Measurement("ok", us, us, 1, runner=self.name, dispatch=problem.dispatch)

    def close(self):
        pass


@pytest.mark.slow
def test_tune_host_attention_writes_a_verified_online_attention_spec(host):
    # Host timings differ per machine, so whether a config beats IREE's default is not this
    # test's business: fixed times make one win, and the spec it writes must apply and match numpy.
    result = iree_dsa_tuner.tune(ATTENTION, host, TuneOptions(budget=4), runner=FixedTimes())
    (dispatch,) = result.dispatches
    assert (dispatch.chosen, dispatch.default_us, dispatch.best_us, dispatch.measured) == ("tuned", 100.0, 50.0, 4)
    config = dispatch.best_config
    assert config.pipeline == "LinalgExtTileAndVectorize" and config.vector_reduction[2] == 0  # head width whole
    assert "transform.iree.match.online_attention" in result.spec_text
    assert f"vector_reduction = [{', '.join(map(str, config.vector_reduction))}]" in result.spec_text
    assert result.verified and result.verification() == "every config applied, numerics match"
    assert [(n["checked"], n["ok"], n["reference"]) for n in result.numerics] == [(True, True, "numpy")]


@pytest.mark.slow
def test_tune_dsa_attention_picks_the_pinned_config_and_verifies():
    """dsa-e1 is simulated (deterministic): the chosen flash-attention schedule and its times are pinned.

    A change to the simulator, the attention space or dsa-e1.toml that moves them fails here.
    """
    result = iree_dsa_tuner.tune(ATTENTION, "dsa-e1", TuneOptions(budget=4))
    (d,) = result.dispatches
    assert (d.chosen, round(d.default_us, 3), round(d.best_us, 3), d.measured) == ("tuned", 10.349, 7.853, 4)
    assert d.best_config.to_json() == {
        "pipeline": "LinalgExtTileAndVectorize", "distribution": [1, 50, 0, 0, 32],
        "vector_common_parallel": [1, 1, 0, 0, 32], "vector_reduction": [0, 0, 0, 64, 0],
        "extra": {"iree_dsa.dma_stages": 1, "iree_dsa.fusion": 0, "iree_dsa.parallelism": 16,
                  "iree_dsa.tile_k": 64, "iree_dsa.vector_width": 32}}
    assert "transform.iree.match.online_attention" in result.spec_text
    assert result.verified and result.verification() == "every config applied, numerics match"
    assert [(n["checked"], n["ok"], n["reference"]) for n in result.numerics] == [(True, True, "numpy")]
