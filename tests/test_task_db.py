"""`task` searches through the pipeline's hooks: the tuning database `tune` uses, and its twins."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import iree_dsa_tuner
from iree_dsa_tuner.db import TuningDatabase
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

from test_task import STAGES, TASK, write_manifest

REPO = Path(__file__).resolve().parent.parent
DP_CONV1D = REPO / "lit_tests" / "inputs" / "manifests" / "dp_conv1d.toml"
UNREACHABLE_MS = 0.0001  # a budget no chunk meets: every dispatch worth a search is searched


class Runner:
    """The DSA simulator, recording every (dispatch, config) it is asked to time."""

    name = "dsa-sim"

    def __init__(self, artifacts, calls: list):
        from iree_dsa_plugin.runner import DsaSimRunner

        self.inner = DsaSimRunner(get_target("dsa-e1"), artifacts.default_configs())
        self.code_version = self.inner.code_version  # records are keyed by it, as the real runner's are
        self.calls = calls

    def measure(self, problem, config):
        self.calls.append((problem.dispatch, config))
        return self.inner.measure(problem, config)

    def close(self):
        pass


def _task(manifest, calls: list, db: Path | None = None):
    with TuningDatabase(db) if db is not None else contextlib.nullcontext() as opened:
        return run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=4), budget_ms=UNREACHABLE_MS,
                        runner_factory=lambda art: Runner(art, calls), db=opened)


def test_a_rerun_measures_nothing_already_recorded(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    db = tmp_path / "tuning.sqlite"
    first_calls: list = []
    first = _task(manifest, first_calls, db=db)
    assert any(c is None for _, c in first_calls) and any(c is not None for _, c in first_calls)
    with TuningDatabase(db) as opened:
        rows = opened.count()
    assert rows == len({(d, json.dumps(c.to_json() if c else None, sort_keys=True)) for d, c in first_calls})

    again_calls: list = []
    again = _task(manifest, again_calls, db=db)
    assert again_calls == []  # IREE's defaults and every searched candidate come from the database
    with TuningDatabase(db) as opened:
        assert opened.count() == rows
    assert again.decisions == first.decisions
    assert again.after.to_json() == first.after.to_json() and again.before.to_json() == first.before.to_json()

    # Without a database, the same run measures everything again and gives the same chunk.
    fresh_calls: list = []
    fresh = _task(manifest, fresh_calls)
    assert len(fresh_calls) >= rows and fresh.after.to_json() == first.after.to_json()


def test_task_reads_what_tune_recorded(tmp_path):
    """One database for both commands: a stage `tune` searched (f32, same budget and seed) is
    neither timed nor searched again by `task`."""
    manifest = load_manifest(write_manifest(tmp_path, TASK.replace('scheme = "w8a8"', 'scheme = "f32"'), STAGES))
    db = tmp_path / "tuning.sqlite"
    iree_dsa_tuner.tune(tmp_path / "encoder.mlir", "dsa-e1", TuneOptions(budget=4), db=db, verify=False)
    calls: list = []
    _task(manifest, calls, db=db)
    timed = {d for d, _ in calls}
    assert timed and not any(d.startswith("encoder") for d in timed), timed


def test_twins_share_one_search_and_are_marked_twin_of():
    """dp_conv1d: 5 kernel taps of each of 2 convs, each tap its own dispatch with the same root op.
    One search per root op (the first in Amdahl order); the other taps are its twins."""
    manifest = load_manifest(DP_CONV1D)
    calls: list = []
    result = _task(manifest, calls)
    searched = {d for d, c in calls if c is not None}
    assert len(searched) == 2, searched
    judged = [d for d in result.decisions if d["decision"] not in ("stop", "skip")]
    twins = [d for d in judged if "twin_of" in d]
    representatives = {d["dispatch"] for d in judged if "twin_of" not in d}
    assert representatives == searched
    assert len(twins) == 8 and {d["twin_of"] for d in twins} == searched
    # A twin runs its representative's config: the same tuned time.
    tuned = {a["dispatch"]: a["ms"] / a["calls"] for a in result.after.amdahl}
    for d in twins:
        assert tuned[d["dispatch"]] == tuned[d["twin_of"]], d


def _without_seconds(report):
    """The report less its wall-clock times (the run's and the L2 tier's): all that may differ."""
    if isinstance(report, dict):
        return {k: _without_seconds(v) for k, v in report.items() if k != "seconds"}
    if isinstance(report, list):
        return [_without_seconds(v) for v in report]
    return report


def test_the_cli_records_in_its_db_and_no_db_records_nothing(tmp_path):
    manifest = write_manifest(tmp_path, TASK, STAGES)
    cli = [sys.executable, "-m", "iree_dsa_tuner.cli", "task", str(manifest), "--target", "dsa-e1", "--no-library",
           "--budget", "2", "--budget-ms", "0.0001", "--quiet"]
    db = tmp_path / "given.sqlite"
    reports, rows = [], []
    for n in range(2):
        out = tmp_path / f"r{n}.json"
        proc = subprocess.run(cli + ["--db", str(db), "--json", str(out)], capture_output=True, text=True,
                              cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        reports.append(_without_seconds(json.loads(out.read_text())))
        with TuningDatabase(db) as opened:
            rows.append(opened.count())
    assert rows[0] > 0 and rows[1] == rows[0] and reports[0] == reports[1]
    assert not (tmp_path / "iree-dsa-tuning.sqlite").exists()  # --db was honoured, not the default

    proc = subprocess.run(cli + ["--no-db"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "iree-dsa-tuning.sqlite").exists()


def test_a_winner_verification_drops_is_said_and_leaves_the_chunk(tmp_path, monkeypatch):
    # The spec of a stage fails verification for every winner (what happened on lerobot's
    # Diffusion Policy UNet): the chunk must be IREE's default again, and every such decision
    # says 'dropped' with the verifier's reason; nothing is dropped in silence.
    import iree_dsa_tuner.pipeline as pipeline
    from iree_dsa_tuner.core.status import NumericsVerdict, Status
    from iree_dsa_tuner.tuning_spec.verify import VerifiedSpec

    def refuse_all(artifacts, problems, winners, *args, **kw):
        return VerifiedSpec("", {d: "numerics: output 0 differs from numpy (test)" for d in winners}, None)

    monkeypatch.setattr(pipeline, "build_verified", refuse_all)
    monkeypatch.setattr(pipeline, "check_config",
                        lambda *a, **kw: NumericsVerdict(Status.WRONG_NUMERICS, "numerics (test)"))
    manifest = load_manifest(DP_CONV1D)  # its conv taps tune beyond IREE's default on dsa-e1
    lines: list[str] = []
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=4), budget_ms=UNREACHABLE_MS,
                      runner_factory=lambda art: Runner(art, []), library=tmp_path / "lib", progress=lines.append)
    dropped = [d for d in result.decisions if d["decision"] == "dropped"]
    assert dropped and all("verification: numerics" in d["reason"] for d in dropped)
    assert not any(d["decision"] == "accept" for d in result.decisions)
    assert result.after.chunk_ms == result.before.chunk_ms
    assert sum("dropped " in line and "numerics" in line for line in lines) == len(dropped)


def test_a_winner_that_fails_verification_gives_way_to_its_next_best(tmp_path, monkeypatch):
    # task verifies as tune does (pipeline.verify_winners): a winner whose config fails alone is
    # replaced by the fastest next-best config of its search that passes, and the chunk holds it.
    import iree_dsa_tuner.pipeline as pipeline
    from iree_dsa_tuner.core.status import NumericsVerdict, Status

    real_build, real_check = pipeline.build_verified, pipeline.check_config
    refused: dict = {}

    def build(artifacts, problems, winners, *args, **kw):
        if not refused:  # the first spec: every winner's config is the one that will fail
            refused.update(winners)
        bad = {d: "numerics: output 0 differs from numpy (test)" for d, c in winners.items() if refused.get(d) == c}
        verified = real_build(artifacts, problems, {d: c for d, c in winners.items() if d not in bad}, *args, **kw)
        return type(verified)(verified.text, {**verified.dropped, **bad}, verified.report)

    def check(artifacts, problem, config):
        if refused.get(problem.dispatch) == config:
            return NumericsVerdict(Status.WRONG_NUMERICS, "numerics (test)")
        return real_check(artifacts, problem, config)

    monkeypatch.setattr(pipeline, "build_verified", build)
    monkeypatch.setattr(pipeline, "check_config", check)
    manifest = load_manifest(DP_CONV1D)
    lines: list[str] = []
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=4), budget_ms=UNREACHABLE_MS,
                      library=tmp_path / "lib", progress=lines.append)
    assert refused  # the first spec's winners, refused alone and in every spec
    replaced = [line for line in lines if line.lstrip().startswith("replaced ")]
    assert replaced and all("next-best verified config replaces it" in line for line in replaced)
    stored = result.spec_set.configs
    for stage, configs in stored.items():
        for dispatch, config in configs.items():
            assert config != refused.get(dispatch).to_json()  # the refused winner is not what shipped
    assert any("its next-best verified config replaces it" in d["reason"] for d in result.decisions)
    assert result.after.chunk_ms < result.before.chunk_ms
