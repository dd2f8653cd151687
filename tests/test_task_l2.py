"""The L2 tier at task level (task/l2.py): the real loop on a small two-stage manifest on dsa-e1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from iree_dsa_tuner.core.status import NumericsVerdict, Status
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.search.proposers import CommandProposer, ScheduleMoves, TaskProposer
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.l2 import Playbook
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

from conftest import matmul_model
from test_task import TASK, write_manifest

# An encoder GEMM large enough that two L1 measurements (the elite and one search pick) leave
# its schedule short of the best, and a launch-bound head.
STAGES = {"encoder.mlir": matmul_model(64, 1024, 512, name="encoder"), "head.mlir": matmul_model(8, 64, 64, name="head")}


class Fixed(TaskProposer):
    """A proposer that says the same things every time (what a broken or lying agent would)."""

    def __init__(self, name, answer):
        self.name, self.answer = name, answer

    def propose(self, context):
        return self.answer


def _task(tmp_path, proposers, budget=2, **options):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    lines: list[str] = []
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=budget, **options), budget_ms=0.001,
                      library=tmp_path / "library", l2="on", proposers=proposers, progress=lines.append)
    return result, lines


@pytest.mark.slow
def test_a_faster_config_with_wrong_numerics_is_reverted(tmp_path):
    wrong = NumericsVerdict(Status.WRONG_NUMERICS, "simulated mismatch")
    result, _ = _task(tmp_path, [ScheduleMoves()], proposal_check=lambda problem, config: wrong)
    proposals = [p for r in result.l2["rounds"] for p in r["proposals"]]
    assert not [p for p in proposals if p["status"] == "kept"]
    faster = [p for p in proposals if "simulated mismatch" in p["reason"]]
    assert faster and all(p["status"] == "reverted" and p["us"] is not None for p in faster)
    assert result.l2["chunk_after_ms"] == result.l2["chunk_before_ms"]


# The encoder off the powers of two (100 tokens, K = 1376 = 32 x 43): L1's ladders pad its K
# slices and its 100 rows; the DSA's re-planned schedules (iree_dsa_plugin/replan.py) do not.
ODD = {"encoder.mlir": matmul_model(100, 512, 1376, name="encoder"), "head.mlir": STAGES["head.mlir"]}


@pytest.mark.slow
def test_l2_keeps_a_verified_move_on_a_retyped_stage_and_the_spec_set_holds_it(tmp_path):
    """TASK's scheme (w8a8) re-types these f32 stages for the target (a what-if): L2 measures the
    re-typed op, but its numerics gate must build the spec for the model's own op, or IREE never
    applies it and nothing is ever kept. A kept proposal is faster, applied and numerically
    checked, the chunk shortens, the spec set written after L2 holds the kept config, and no
    dispatch ends below the target's floor."""
    manifest = load_manifest(write_manifest(tmp_path, TASK, ODD))
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), budget_ms=0.001,
                      library=tmp_path / "library", l2="on")
    rounds = {r["dispatch"]: r for r in result.l2["rounds"]}
    encoder = next(r for d, r in rounds.items() if d.startswith("encoder"))
    kept = [p for p in encoder["proposals"] if p["status"] == "kept"]
    assert kept and all(p["reason"] == "faster, applied and numerically checked" for p in kept)
    assert encoder["after_us"] < encoder["before_us"] and encoder["after_us"] == kept[-1]["us"]
    assert result.l2["chunk_after_ms"] < result.l2["chunk_before_ms"]
    assert all(r["floor_us"] is not None and r["after_us"] >= r["floor_us"] for r in rounds.values())
    stored = json.loads(next((tmp_path / "library").rglob("configs.json")).read_text())
    config = {k: v for k, v in kept[-1]["config"].items() if k != "kind"}
    assert stored["encoder"][encoder["dispatch"]] == config


@pytest.mark.slow
def test_a_round_checks_numerics_of_its_fastest_proposal_only(tmp_path):
    """Gate (c) compiles and runs the stage (seconds): a round checks its fastest faster proposal,
    and only on failure the next; the faster ones it did not check are reverted, saying why."""
    checked = []

    def check(problem, config):
        checked.append(config)
        return NumericsVerdict(Status.VERIFIED)

    manifest = load_manifest(write_manifest(tmp_path, TASK, ODD))
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2, proposal_check=check),
                      budget_ms=0.001, library=tmp_path / "library", l2="on")
    proposals = [p for r in result.l2["rounds"] for p in r["proposals"]]
    kept = [p for p in proposals if p["status"] == "kept"]
    assert kept and len(checked) == len(kept)  # every check passed, so one per round that kept
    beaten = [p for p in proposals if p["reason"].startswith("faster, but the round kept a faster one")]
    assert all(p["status"] == "reverted" and p["us"] is not None for p in beaten)


def test_a_garbage_external_proposer_is_recorded_and_the_run_goes_on(tmp_path):
    garbage = CommandProposer(f"{sys.executable} -c \"print('this is not json')\"")
    result, _ = _task(tmp_path, [garbage], budget=4)
    assert result.l2["rounds"] and all("stdout is not JSON" in r["error"] for r in result.l2["rounds"])
    assert result.spec_set is not None and result.spec_set.spec_paths()  # L1's winners still stored


def test_the_task_cli_runs_l2_and_reports_it(tmp_path):
    path = write_manifest(tmp_path, TASK, STAGES)
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "task", str(path), "--target", "dsa-e1",
                           "--budget", "2", "--budget-ms", "0.001", "--no-db", "--quiet", "--l2", "on",
                           "--library", str(tmp_path / "lib")], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stdout.splitlines() if x.startswith("L2 (")]
    assert "the chunk is over budget" in line and "kept" in line and "reverted" in line
    assert (tmp_path / "lib" / "dsa-e1" / "playbook.json").is_file()


def test_the_l2_gain_rows_in_the_docs_reproduce():
    """docs/TASK.md's torch_expert rows, as `python bench/l2_gain.py` prints them (all but L2's wall
    seconds): the dispatches L2 visited, what it kept, and the gap it closed."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "bench"))
    from l2_gain import SUMMARY, build_rows, manifest_rows, run

    text = (root / "docs/TASK.md").read_text()
    block = text.split("<!-- bench/l2_gain.py dsa-e1 begin -->")[1].split("<!-- bench/l2_gain.py dsa-e1 end -->")[0]
    docs = [re.split(r"\s{2,}", line.strip()) for line in block.splitlines() if line.startswith("torch_expert ")]
    result = run(load_manifest(root / "lit_tests/inputs/manifests/torch_expert_quantized.toml"), get_target("dsa-e1"), 4)
    summary, rows, _ = manifest_rows(result)
    seconds = SUMMARY.index("L2 s")  # wall-clock time
    assert [c for i, c in enumerate(summary) if i != seconds] == [c for i, c in enumerate(docs[0]) if i != seconds]
    assert rows == docs[1:1 + len(rows)]
    # The stage builds L2 proposed: the MLP's fused build kept, with its chunk.
    assert build_rows(result) == docs[1 + len(rows):]


@pytest.mark.parametrize("times_us, kept", [
    ([97.0, 99.0, 96.0, 104.0, 99.0], False),  # 1% faster at the median, 4% spread (2 x MAD): noise
    ([98.9, 99.0, 99.1, 99.0, 98.9], True),  # 1% faster, 0.2% spread: a real win
    (None, True),  # the simulator's one deterministic time: any gain is real
])
def test_a_host_proposal_is_faster_only_beyond_its_noise(times_us, kept):
    """Gate (b) on a dispatch that runs 100 us: the proposal's median is 99 us either way."""
    from types import SimpleNamespace

    from iree_dsa_tuner.core.measurement import Measurement
    from iree_dsa_tuner.task.l2 import L2Proposal, L2Report, _measure

    m = Measurement(status="ok", median_us=99.0, repetitions=len(times_us or [1]),
                    details={"times_us": times_us} if times_us else {})
    hooks = SimpleNamespace(measure=lambda computed, config: m)
    op = SimpleNamespace(computed=None, us=100.0)
    p = L2Proposal("schedule-moves", "register-tile", {}, "reverted")
    assert _measure(p, object(), op, hooks, L2Report([], chunk_before_ms=1.0)) is kept
    assert p.us == 99.0
    if not kept:
        assert p.reason == "not faster: 99.0 us against the 100.0 us it runs, within its 4% noise"
