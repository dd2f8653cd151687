"""Elite templates (R2.3): legal, derived from the description, measured, and shipped when they win."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from iree_dsa_plugin.space import dsa_space

from iree_dsa_tuner import compile_model
from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.reasons import LEGALITY_CODES
from iree_dsa_tuner.core.shape import GemmShape, simple_gemm
from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.search.driver import SearchHooks, search_problems
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.space.elite import EliteRuleError, elite_candidate, load_rules, parse_rules
from iree_dsa_tuner.targets import get_target

from conftest import INPUTS, ISAS, cpu_target

MODEL = INPUTS / "mlp3.mlir"


@pytest.fixture(scope="module")
def dsa():
    return get_target("dsa-e1")


@pytest.fixture(scope="module", params=ISAS)
def host(request):
    """An AVX2-like and an AVX-512-like host, not this machine's CPU (the rules follow the description)."""
    return cpu_target(request.param, cores=2)


def attention(batch: int, queries: int, head: int, keys: int, value: int) -> GemmShape:
    roles = ("batch", "m", "k1", "k", "n")
    return GemmShape(batch, queries, value, keys, "f32", "f32", "f32", False, roles, (True,) * 5,
                     (batch, queries, head, keys, value), kind="attention", lhs_inner_role="k1",
                     rhs_inner_role="k1", head_dim=head)


def legal_set(space, target, desc=None):
    funnel = run_funnel(space, desc or target.describe(), estimator=target.estimator)
    legal = ~np.isin(funnel.reason_code, list(LEGALITY_CODES))
    return {funnel.candidate(i) for i in np.flatnonzero(legal)}


def test_the_shipped_rules_cover_every_op_kind_of_both_target_kinds():
    assert set(load_rules()) == {"dsa.contraction", "dsa.convolution", "dsa.weight_streaming", "cpu.contraction",
                                 "cpu.convolution", "cpu.attention"}


@pytest.mark.parametrize("shape", [
    simple_gemm(256, 2048, 2048, "i8", has_consumer=True),
    simple_gemm(1, 2048, 2048, "i8", "i4"),
    simple_gemm(50, 1024, 4096, "bf16"),
    simple_gemm(8, 128, 256, "f32"),
], ids=lambda s: s.label())
def test_the_dsa_elite_is_legal_full_mac_steps_double_buffered_on_every_core(dsa, shape):
    desc = dsa.describe()
    space = dsa.space(shape)
    elite = elite_candidate(space, desc)
    c = elite.candidate
    assert c is not None, elite.reason
    assert c in legal_set(space, dsa)
    # Weight streaming without a K split takes just the cores that saturate DRAM (5 on dsa-e1).
    saturating = math.ceil(desc.dram_bytes_per_s / desc.dma_port_bytes_per_s)
    cores = desc.cores if c.k_split != 1 else min(p for p in space.choices["parallelism"] if p >= saturating)
    assert (c.parallelism, c.dma_stages, c.fusion) == (cores, 2, int(shape.has_consumer))
    mac_k = desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type))
    for tile, mac, extent in ((c.tile_m, desc.mac_m, shape.m), (c.tile_n, desc.mac_n, shape.n),
                              (c.tile_k, mac_k, shape.k)):
        assert tile % mac == 0 or tile == extent
    footprint = 2 * (c.tile_m * c.tile_k * shape.lhs_bytes + c.tile_k * c.tile_n * shape.rhs_bytes) \
        + c.tile_m * c.tile_n * (desc.accumulator_bytes + shape.out_bytes)
    assert footprint <= desc.scratchpad_bytes


@pytest.mark.parametrize("shape", [
    simple_gemm(1, 2048, 2048, "f32"),
    simple_gemm(50, 1024, 4096, "f32"),
    simple_gemm(256, 512, 256, "f32"),
    simple_gemm(2048, 1, 2048, "f32"),
    attention(24, 16, 64, 300, 64),
    attention(8, 50, 32, 64, 32),
], ids=lambda s: s.label())
def test_the_host_elite_is_legal_and_register_blocked(host, shape):
    desc = host.describe()
    space = host.space(shape)
    c = elite_candidate(space, desc).candidate
    assert c is not None and c in legal_set(space, host)
    accumulators = c.vec_m * c.vec_n // desc.mac_n
    assert c.vec_n % desc.mac_n == 0 and accumulators <= desc.cpu.vector_registers * 3 // 4
    assert shape.inner("m") % c.vec_m == 0 and shape.inner("m") % c.tile_m == 0
    if shape.kind == "attention":
        assert c.tile_k == shape.head_dim and c.vec_n >= 2 * desc.mac_n and 2 <= c.vec_k <= 2 * desc.mac_n


def test_the_dsa_elite_follows_the_mac_array(dsa):
    shape = simple_gemm(256, 2048, 2048, "i8")
    desc = dsa.describe()
    wide = desc.with_changes(mac_m=32, mac_n=64)
    before = elite_candidate(dsa_space(shape, desc), desc).candidate
    after = elite_candidate(dsa_space(shape, wide), wide).candidate
    # Memory-bound at batch 1: weight streaming, the whole M, N tiles of whole array widths.
    assert (before.tile_m, before.tile_n % desc.mac_n, before.k_split) == (256, 0, 2)
    assert (after.tile_m, after.tile_n % 64, after.vec_n) == (256, 0, 64)
    shape = simple_gemm(2048, 2048, 2048, "i8")  # compute-bound: output-stationary macro tiles
    before = elite_candidate(dsa_space(shape, desc), desc).candidate
    after = elite_candidate(dsa_space(shape, wide), wide).candidate
    assert (before.tile_m, before.tile_n) == (4 * desc.mac_m, 4 * desc.mac_n)
    assert (after.tile_m, after.tile_n) == (4 * 32, 4 * 64)
    smaller = desc.with_changes(scratchpad_bytes=desc.scratchpad_bytes // 8)
    assert elite_candidate(dsa.space(shape), smaller).candidate.tile_k < before.tile_k  # fits the smaller scratchpad


def test_the_host_elite_follows_the_register_file(host):
    desc = host.describe().with_changes(cores=1)  # 16 ymm registers of 8 f32 lanes, or 32 zmm of 16
    lanes, registers = desc.mac_n, desc.cpu.vector_registers
    more = desc.with_changes(cpu=replace(desc.cpu, vector_registers=2 * registers))
    from iree_dsa_tuner.host.target import host_space

    for shape in (simple_gemm(1, 2048, 2048, "f32"), simple_gemm(64, 256, 256, "f32")):
        few = elite_candidate(host_space(shape, desc), desc).candidate
        many = elite_candidate(host_space(shape, more), more).candidate
        # About 3/4 of the register file holds accumulators (vec_m x vec_n / lanes registers).
        assert few.vec_m * few.vec_n // lanes <= registers * 3 // 4
        assert many.vec_m * many.vec_n // lanes <= 2 * registers * 3 // 4
        assert many.vec_m * many.vec_n > few.vec_m * few.vec_n  # more registers, more accumulators
    # A matvec row takes the accumulators as lanes: 12 x 8 -> 96, offered 64 (AVX2); 24 x 16 -> 384, offered 256.
    row = elite_candidate(host_space(simple_gemm(1, 2048, 2048, "f32"), desc), desc).candidate
    assert row.vec_n == {8: 64, 16: 256}[lanes]


def test_a_rule_is_parsed_never_evaluated_and_errors_name_the_key():
    base = {"schema": "iree-dsa-elite/1"}
    for bad, needle in [("__import__('os').system('true')", "Call"), ("mac_m.real", "Attribute"),
                        ("registers * 2", "unknown name 'registers'"), ("tile_n", "reads tile_n before"),
                        ("tile_m * 2", "reads tile_m before")]:
        with pytest.raises(EliteRuleError, match="cpu.contraction") as e:
            parse_rules({**base, "cpu": {"contraction": {"tile_m": bad}}}, "rules.toml")
        assert needle in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(EliteRuleError, match="schema"):
        parse_rules({"schema": "nope"}, "rules.toml")


def test_a_rule_that_cannot_fit_says_so(dsa):
    shape = simple_gemm(256, 2048, 2048, "i8")
    tiny = dsa.describe().with_changes(scratchpad_bytes=64)
    elite = elite_candidate(dsa.space(shape), tiny)
    assert elite.candidate is None and "fit" in elite.reason and "nothing legal" in elite.reason


# ---- the search: the elite is measured like any candidate and ships when it wins -----------

def fake_hooks(target, elite_us: float, other_us: float, default_us: float, seen: list):
    """A measure hook whose times make the elite `elite_us`, everything else `other_us`."""
    def elite_config(problem):
        return target.to_config(problem, elite_candidate(target.space(problem), target.describe()).candidate)

    def measure(problem, config, estimate_us=None):
        seen.append((problem.dispatch, config))
        if config is None:
            t = default_us
        else:
            t = elite_us if config.to_json() == elite_config(problem).to_json() else other_us
        return Measurement("ok", median_us=t, min_us=t, repetitions=1, runner="fake")

    return SearchHooks(measure=measure), elite_config


@pytest.fixture(scope="module")
def problems():
    return compile_model(MODEL, get_target("dsa-e1").compile_flags).problems()


def test_an_elite_faster_than_search_and_default_is_the_chosen_config(dsa, problems):
    seen: list = []
    hooks, elite_config = fake_hooks(dsa, elite_us=10.0, other_us=50.0, default_us=100.0, seen=seen)
    outcome = search_problems(problems, dsa, hooks, TuneOptions(budget=4))
    assert len(outcome.dispatches) == 3
    for d in outcome.dispatches:
        problem = next(p for p in problems if p.dispatch == d.dispatch)
        assert d.chosen == "tuned" and d.best_source == "elite"
        assert d.best_config.to_json() == elite_config(problem).to_json()
        assert (d.elite_us, d.tuned_us, d.tuned_vs_elite) == (10.0, 50.0, 0.2)
        assert "fell back to the elite config" in d.note
        assert d.measured == 4  # the elite is one of the budget's measurements
        assert sum(1 for dispatch, c in seen if dispatch == d.dispatch and c is not None) == 4
        report = d.to_json()
        assert report["elite_us"] == 10.0 and report["tuned_vs_elite"] == 0.2 and report["config"] is not None


def test_a_search_that_beats_the_elite_keeps_its_own_best(dsa, problems):
    hooks, elite_config = fake_hooks(dsa, elite_us=60.0, other_us=30.0, default_us=100.0, seen=[])
    outcome = search_problems(problems[:1], dsa, hooks, TuneOptions(budget=3))
    d = outcome.dispatches[0]
    assert d.chosen == "tuned" and d.best_source != "elite" and d.tuned_vs_elite == 2.0
    assert d.best_config.to_json() != elite_config(problems[0]).to_json()


def test_an_elite_slower_than_the_default_never_ships(dsa, problems):
    hooks, _ = fake_hooks(dsa, elite_us=20.0, other_us=40.0, default_us=15.0, seen=[])
    d = search_problems(problems[:1], dsa, hooks, TuneOptions(budget=3)).dispatches[0]
    assert d.chosen == "default" and d.elite_us == 20.0 and d.tuned_vs_elite == 0.5


@pytest.mark.parametrize("elite_us, other_us, asked", [(10.0, 50.0, True), (60.0, 30.0, False)])
def test_l2_is_asked_only_below_95_percent_of_the_elite_with_elite_gap(dsa, problems, elite_us, other_us, asked):
    hooks, _ = fake_hooks(dsa, elite_us=elite_us, other_us=other_us, default_us=100.0, seen=[])
    requests = []
    options = TuneOptions(budget=4, proposer=lambda request: requests.append(request) or [], proposer_budget=1,
                          proposer_when="elite-gap")
    d = search_problems(problems[:1], dsa, hooks, options).dispatches[0]
    assert d.proposer.invoked is asked and bool(requests) is asked
    assert f"L1 reached {elite_us / other_us:.0%} of the elite" in d.proposer.decision


def test_tune_on_dsa_e1_reports_tuned_over_elite_per_dispatch(tmp_path, capsys):
    from iree_dsa_tuner.cli import main

    report = tmp_path / "report.json"
    assert main(["tune", str(MODEL), "--target", "dsa-e1", "--budget", "3", "--no-db", "--quiet",
                 "-o", str(tmp_path / "spec.mlir"), "--json", str(report)]) == 0
    table = capsys.readouterr().out
    header = table.splitlines()[0]
    # The columns as docs/ELITE.md names them: elite us, and elite/tuned (tuned_vs_elite in %).
    assert "elite us" in header and "elite/tuned" in header.split() and "tuned/elite" not in table
    data = json.loads(report.read_text())
    assert len(data["dispatches"]) == 3
    for d in data["dispatches"]:
        assert d["elite"]["rule"] in ("dsa.contraction", "dsa.weight_streaming") and d["elite_us"] > 0
        assert d["tuned_vs_elite"] == pytest.approx(d["elite_us"] / d["tuned_us"])
        row = next(line for line in table.splitlines() if line.startswith(d["dispatch"]))
        assert f"{d['elite_us']:.1f}" in row and f"{100 * d['tuned_vs_elite']:.0f}%" in row
        assert sum(1 for t in d["trials"] if t["source"] == "elite") == 1


def test_the_elite_doc_names_the_columns_the_tune_table_prints():
    """docs/ELITE.md's tables and its word for the ratio column are the ones `tune` prints."""
    import re
    from pathlib import Path

    from iree_dsa_tuner.commands.tune import summary_table
    from iree_dsa_tuner.search.results import DispatchResult, TuneResult

    one = DispatchResult("d", "1x1", default_us=20.0, best_us=8.0, tuned_us=8.0, elite_us=10.0, chosen="tuned")
    columns = re.split(r" {2,}", summary_table(TuneResult("m", "dsa-e1", "pruned", dispatches=[one])).splitlines()[0])
    assert "elite us" in columns
    (ratio,) = [c for c in columns if "/" in c and "elite" in c]  # elite over the search's own best
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ELITE.md").read_text()
    assert f"`elite us` and `{ratio}` columns" in doc
    tables = [line for line in doc.splitlines() if line.startswith("| dispatch |")]
    assert tables and all(line.strip(" |").split("|")[-1].strip() == ratio for line in tables)
    assert "/".join(reversed(ratio.split("/"))) not in doc  # never the other way round (tuned/elite)
