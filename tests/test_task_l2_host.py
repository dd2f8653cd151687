"""The L2 tier at task level on the host CPU (task/l2.py): the real loop, the real runner
(iree-benchmark-module) and the real numerics gate, on a small model and an explicit CPU
description (an AVX2-like part, compiled for haswell: nothing depends on this machine's ISA).

No timing is asserted (the machine is shared): what is asserted is what a user relies on
whatever the times are: a kept proposal passed the numerics gate, a reverted one says why, the
spec set holds what L2 kept, and the bench's row (bench/l2_gain.py --host) reads the record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.search.proposers import ProposalContext, ScheduleMoves, TaskProposer
from iree_dsa_tuner.search.proposer import proposer_request
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

from conftest import cpu_target, matmul_model
from test_task import TASK, write_manifest

REPO = Path(__file__).resolve().parent.parent
# One f32 stage (the host computes what the model says): a GEMM small enough to compile in a
# second, large enough for its schedule to matter.
HOST_TASK = TASK.split("[quant]")[0] + '''[quant]
scheme = "f32"
[[stage]]
name = "encoder"
mlir = "encoder.mlir"
repeat = 2
per = "chunk"
'''
STAGES = {"encoder.mlir": matmul_model(64, 512, 256, name="encoder")}


class Illegal(TaskProposer):
    """An agent that proposes a config the host cannot take (a pipeline it does not use)."""

    name = "illegal"

    def propose(self, context):
        return [{"pipeline": "NoSuchPipeline", "distribution": [8, 8, 0], "vector_common_parallel": [1, 8, 0],
                 "vector_reduction": [0, 0, 1], "kind": "bogus"}]


def _problem(tmp_path):
    """The encoder GEMM on the pinned CPU, and the config IREE gives it by default."""
    from iree_dsa_tuner.ir.artifacts import compile_model

    target = cpu_target("avx2", cores=2)
    path = tmp_path / "mm.mlir"
    path.write_text(STAGES["encoder.mlir"])
    art = compile_model(path, target.compile_flags)
    problem = art.problems()[0]
    return target, problem, target.untuned_config(problem, art.default_configs()[problem.dispatch])


def test_host_schedule_moves_propose_register_tiles_and_no_config_twice(tmp_path):
    """On a CPU the generic moves of its K tile, DMA stages or K split change no config: L2's
    proposals are each a config not yet measured, and the host's own moves (the register tile's
    rows and reduction step) are among them."""
    target, problem, default = _problem(tmp_path)
    start = target.from_config(problem, default)
    history = [{"config": default.to_json(), "time_us": 100.0, "status": "ok", "reason": "", "source": "default"}]
    context = ProposalContext(problem, target, proposer_request(problem, target, history, 64, 0.5), history, [], 64)
    proposals = ScheduleMoves().propose(context)
    texts = [json.dumps({k: v for k, v in p.items() if k != "kind"}, sort_keys=True) for p in proposals]
    assert proposals and len(set(texts)) == len(texts)
    assert json.dumps(default.to_json(), sort_keys=True) not in texts
    assert "register-tile" in {p["kind"] for p in proposals}
    moved = {k for p in proposals if p["kind"] == "register-tile" for k in ("vec_m", "vec_k")
             if getattr(target.from_config(problem, CompilationConfig.from_json(
                 {k2: v for k2, v in p.items() if k2 != "kind"})), k) != getattr(start, k)}
    assert moved == {"vec_m", "vec_k"}


@pytest.mark.slow
def test_the_host_l2_loop_keeps_only_numerically_checked_configs(tmp_path, monkeypatch):
    import iree_dsa_tuner.pipeline as pipeline

    checked: list[tuple[str, object]] = []
    real = pipeline.check_config

    def spy(artifacts, problem, config):
        verdict = real(artifacts, problem, config)
        checked.append((json.dumps(config.to_json(), sort_keys=True), verdict))
        return verdict

    monkeypatch.setattr(pipeline, "check_config", spy)
    manifest = load_manifest(write_manifest(tmp_path, HOST_TASK, STAGES))
    lines: list[str] = []
    result = run_task(manifest, cpu_target("avx2", cores=2), TuneOptions(budget=1, jobs=2, repetitions=3),
                      budget_ms=0.001,
                      library=tmp_path / "library", l2="on", proposers=[ScheduleMoves(), Illegal()],
                      progress=lines.append)
    l2 = result.l2
    assert l2["rounds"] and l2["measurements"] > 0
    proposals = [p for r in l2["rounds"] for p in r["proposals"]]
    assert all(p["status"] in ("kept", "reverted") for p in proposals)
    assert all(p["reason"] for p in proposals)
    bogus = [p for p in proposals if p["proposer"] == "illegal"]
    assert bogus and all(p["status"] == "reverted" and p["reason"].startswith("illegal: ") and p["us"] is None
                         for p in bogus)
    # No built-in proposal repeats a measured config (the host's moves are distinct configs); only
    # one that failed to measure (never in the history the proposer reads) may come again.
    for r in l2["rounds"]:
        reasons: dict[str, str] = {}
        for p in r["proposals"]:
            text = json.dumps({k: v for k, v in p["config"].items() if k != "kind"}, sort_keys=True)
            if p["proposer"] == "schedule-moves" and p["reason"] == "already measured":
                assert reasons.get(text, "").startswith("failed"), p
            reasons.setdefault(text, p["reason"])
    verdicts = dict(checked)
    for p in proposals:
        text = json.dumps({k: v for k, v in p["config"].items() if k != "kind"}, sort_keys=True)
        if p["status"] == "kept":
            assert p["reason"] == "faster, applied and numerically checked" and verdicts[text].ok
        elif text in verdicts and not verdicts[text].ok:
            assert p["reason"] == f"{verdicts[text].status}: {verdicts[text].reason}"
    for r in l2["rounds"]:
        kept = [p for p in r["proposals"] if p["status"] == "kept"]
        assert r["after_us"] == (kept[-1]["us"] if kept else r["before_us"])
    # What L2 kept is in the spec set task wrote (verified again there).
    stored = json.loads(next((tmp_path / "library").rglob("configs.json")).read_text())
    for r in l2["rounds"]:
        kept = [p for p in r["proposals"] if p["status"] == "kept"]
        if kept:
            assert stored[r["stage"]][r["dispatch"]] == {k: v for k, v in kept[-1]["config"].items() if k != "kind"}
    # The bench's host row reads the record: L1 us, L2 us, the bound and what was measured.
    sys.path.insert(0, str(REPO / "bench"))
    from l2_gain import manifest_rows

    summary, rows, record = manifest_rows(result)
    assert len(rows) == len(l2["rounds"]) and record["measurements"] == l2["measurements"]
    for v in record["visited"]:
        assert {"l1_us", "l2_us", "bound_us", "bound", "gap_us", "closed", "kept", "tried"} <= set(v)
        assert v["l2_us"] <= v["l1_us"] and v["bound"] in ("template", "roofline bound", "roofline (L1 beat template)")
    assert any(line.startswith("  L2 encoder/") for line in lines)
    # Measured on this machine: the report claims no deterministic p99.
    from iree_dsa_tuner.commands.task import summary as task_summary

    report = task_summary(result)
    assert "no p99 is measured" in report and "deterministic model" not in report
