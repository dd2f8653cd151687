"""Task level: the manifest, the chunk timeline, the R7.4 rule, Amdahl-order tuning, the spec library."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from iree_dsa_tuner.core.measurement import Measurement
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.decision import ACCEPT, ESCALATE, decide
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task
from iree_dsa_tuner.task.timeline import DispatchTime, timeline

from conftest import matmul_model

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "python" / "iree_dsa_tuner" / "examples" / "manifests"


def write_manifest(tmp_path: Path, body: str, stages: dict[str, str] | None = None) -> Path:
    for name, text in (stages or {}).items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "policy.toml"
    path.write_text('schema = "iree-dsa-manifest/1"\n' + body)
    return path


TASK = """
[model]
id = "tiny"
version = "1"
[task]
chunk_size = 10
n_action_steps = 8
flow_steps = 4
control_rate_hz = 50
latency_budget_ms = 1
rtc = true
[quant]
scheme = "w8a8"
[[stage]]
name = "encoder"
mlir = "encoder.mlir"
repeat = 2
per = "chunk"
[[stage]]
name = "head"
mlir = "head.mlir"
repeat = 3
per = "flow_step"
"""
STAGES = {"encoder.mlir": matmul_model(32, 64, 128, name="encoder"), "head.mlir": matmul_model(8, 64, 64, name="head")}


# ---- the manifest -------------------------------------------------------------------------

@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('id = "tiny"\n', ""), "key 'model.id': missing"),
    (lambda t: t.replace('per = "chunk"', 'per = "step"'), "key 'stage[0].per': expected one of chunk"),
    (lambda t: t.replace("repeat = 2", 'repeat = "2"'), "key 'stage[0].repeat': expected int"),
    (lambda t: t.replace('scheme = "w8a8"', 'scheme = "int3"'), "key 'quant.scheme'"),
    (lambda t: t.replace('mlir = "head.mlir"', 'mlir = "nope.mlir"'), "key 'stage[1].mlir': no such file"),
    (lambda t: t.replace("repeat = 3\n", "repeat = 3\ntokens = 7\n"), "key 'stage[1].tokens': only a per"),
    (lambda t: t.replace("n_action_steps = 8", "n_action_steps = 80"), "key 'task.n_action_steps'"),
])
def test_manifest_errors_name_the_file_and_the_key(tmp_path, edit, message):
    path = write_manifest(tmp_path, edit(TASK), STAGES)
    with pytest.raises(InputError, match=re.escape(message)) as e:
        load_manifest(path)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_the_shipped_manifests_load():
    names = sorted(p.stem for p in EXAMPLES.glob("*.toml"))
    assert names == ["diffusion_policy", "gr00t_dit", "openvla", "pi0"]
    pi0 = load_manifest(EXAMPLES / "pi0.toml")
    assert pi0.flow_steps == 10 and pi0.chunk_size == 50 and pi0.types == ("i8", "i4", "i32")
    assert [s.per for s in load_manifest(EXAMPLES / "openvla.toml").stages][-1] == "token"


# ---- the timeline, exactly ------------------------------------------------------------------

def test_chunk_time_rates_and_amdahl_order_from_known_dispatch_times(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    times = [DispatchTime("encoder", "enc0", 100.0, 8192, 10**6), DispatchTime("encoder", "enc1", 50.0, 4096, 10**6),
             DispatchTime("head", "head0", 20.0, 1024, 10**5)]
    t = timeline(manifest, times, dram_bytes_per_s=1e9, peak_ops_per_s=1e12)
    # encoder: 2 layers x 1 per chunk x 150 us; head: 3 layers x 4 flow steps x 20 us
    assert t.chunk_ms == pytest.approx(0.3 + 0.24)
    assert [s["ms"] for s in t.stages] == [pytest.approx(0.3), pytest.approx(0.24)]
    assert t.rate_hz == pytest.approx(1000 / 0.54)
    # RTC: 8 actions per 0.54 ms chunk is far above 50 Hz, so the robot runs at its own rate ...
    assert t.rate_hz_rtc == pytest.approx(50.0)
    # ... without it, it waits out each inference: 8 actions per (8 / 50 s + 0.54 ms).
    assert t.control_hz_blocking == pytest.approx(8 / (8 / 50 + 0.54e-3))
    assert [a["dispatch"] for a in t.amdahl] == ["head0", "enc0", "enc1"]  # 0.24 > 0.2 > 0.1 ms
    assert sum(a["share"] for a in t.amdahl) == pytest.approx(1.0)
    weight_bytes = 2 * (8192 + 4096) + 12 * 1024
    assert t.weight_limit_ms == pytest.approx(weight_bytes / 1e9 * 1e3)
    assert t.meets_budget is True and t.budget_ms == 1


def test_rtc_is_bounded_by_the_inference_when_it_is_slow(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    t = timeline(manifest, [DispatchTime("encoder", "e", 100_000.0, 0, 0)], dram_bytes_per_s=1e9,
                 peak_ops_per_s=1e12)
    assert t.chunk_ms == pytest.approx(200.0)
    assert t.rate_hz_rtc == pytest.approx(8 / 0.2)  # 40 actions/s: inference-bound, still above 1/chunk
    assert t.rate_hz_rtc > t.rate_hz and t.control_hz_blocking < t.rate_hz_rtc


# ---- the R7.4 rule, its four cases -------------------------------------------------------------

def test_r74_accepts_92_percent_off_the_critical_path():
    assert decide(share=0.03, fraction_of_elite=0.92, meets_budget=False).decision == ACCEPT


def test_r74_accepts_92_percent_when_the_task_meets_its_budget():
    assert decide(share=0.40, fraction_of_elite=0.92, meets_budget=True).decision == ACCEPT


def test_r74_escalates_a_bottleneck_below_95_percent_when_over_budget():
    d = decide(share=0.40, fraction_of_elite=0.92, meets_budget=False)
    assert d.decision == ESCALATE and "bottleneck" in d.reason


def test_r74_does_not_escalate_a_bottleneck_at_95_percent():
    assert decide(share=0.40, fraction_of_elite=0.96, meets_budget=False).decision == ACCEPT


# ---- Amdahl-order tuning and the spec library ----------------------------------------------------

class CountingRunner:
    """The DSA simulator, counting what it is asked."""

    name = "dsa-sim"

    def __init__(self, artifacts):
        from iree_dsa_plugin.runner import DsaSimRunner

        self.inner = DsaSimRunner(get_target("dsa-e1"), artifacts.default_configs())
        self.searched = 0

    def measure(self, problem, config):
        if config is not None:
            self.searched += 1
        return self.inner.measure(problem, config)

    def close(self):
        pass


def _run(manifest, library, runners, **kwargs):
    def factory(artifacts):
        runners.append(CountingRunner(artifacts))
        return runners[-1]
    return run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=6), library=library,
                    runner_factory=factory, **kwargs)


@pytest.mark.slow
def test_tunes_in_amdahl_order_stores_the_set_and_reuses_it(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    library = tmp_path / "library"
    runners: list = []
    first = _run(manifest, library, runners, budget_ms=0.001)  # unreachable: tune every dispatch worth it
    tuned = [d for d in first.decisions if d["decision"] not in ("stop", "skip")]
    order = [d["dispatch"] for d in tuned]
    shares = {a["dispatch"]: a["share"] for a in first.before.amdahl}
    assert order == sorted(order, key=lambda d: -shares[d])  # largest share of the chunk first
    assert first.after.chunk_ms < first.before.chunk_ms
    assert first.spec_set is not None and first.spec_set.spec_paths()
    header = first.spec_set.spec_paths()[0].read_text().splitlines()[:2]
    assert "tiny 1" in header[0] and first.spec_set.directory.name in header[1]
    binding = json.loads((first.spec_set.directory / "binding.json").read_text())
    assert binding["flow_steps"] == 4 and binding["scheme"] == "w8a8"

    runners.clear()
    again = _run(manifest, library, runners, budget_ms=0.001)
    assert again.reused and {d["decision"] for d in again.decisions} == {"reuse"}
    assert again.after.chunk_ms == pytest.approx(first.after.chunk_ms)
    assert sum(r.searched for r in runners) <= len(again.decisions)  # each stored config timed once, no search

    stale = manifest.with_flow_steps(2)
    with pytest.raises(InputError, match="stale spec set for tiny 1: flow_steps 4 -> 2"):
        _run(stale, library, [])
    assert _run(stale, library, [], retune=True).spec_set.directory != first.spec_set.directory


def test_flow_step_variants_are_reported_side_by_side(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    result = _run(manifest, None, [], flow_steps=(4, 1))
    by_steps = {v["flow_steps"]: v for v in result.variants}
    assert set(by_steps) == {4, 1}
    assert by_steps[1]["chunk_ms"] < by_steps[4]["chunk_ms"]
    head = next(s for s in result.after.stages if s["name"] == "head")
    assert by_steps[4]["chunk_ms"] - by_steps[1]["chunk_ms"] == pytest.approx(head["ms"] * 3 / 4)


@pytest.mark.slow
def test_the_cli_runs_a_shipped_manifest(tmp_path):
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "task", str(EXAMPLES / "diffusion_policy.toml"),
                           "--target", "dsa-c1", "--no-library", "--json", str(out), "--flow-steps", "16,1", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    for key in ("chunk_ms", "rate_hz", "rate_hz_rtc", "budget_ms", "meets_budget", "limit_ms", "p99_ms", "stages",
                "amdahl", "decisions", "variants"):
        assert key in report
    assert "verdict:" in proc.stdout


def test_a_timed_out_default_is_reported_not_counted(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))

    class Failing(CountingRunner):
        def measure(self, problem, config):
            if problem.dispatch.startswith("head"):
                return Measurement(Status.TIMEOUT, reason="did not finish")
            return super().measure(problem, config)

    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), runner_factory=Failing)
    assert any("head" in s["dispatch"] and "could not be timed" in s["reason"] for s in result.skipped)


@pytest.mark.parametrize("target", ["dsa-e1", "dsa-c1"])
def test_the_repo_ships_a_current_spec_set_for_every_reference_manifest(target):
    from iree_dsa_tuner.task.library import find_spec_set
    from iree_dsa_tuner.task.run import manifest_binding
    from iree_dsa_tuner.tuning_spec.reading import read_spec

    for path in sorted(EXAMPLES.glob("*.toml")):
        manifest = load_manifest(path)
        found = find_spec_set(REPO / "transform_specs", target, manifest, manifest_binding(manifest, get_target(target)))
        assert found is not None, f"no spec set for {path.name} on {target}: rerun `iree-dsa-tune task {path} " \
                                  f"--target {target}` from the repository root"
        for spec in found.spec_paths():
            assert read_spec(spec), spec  # parses, has an entry point and matchers


# ---- several models on one part ----------------------------------------------------------------

def test_partitions_cover_the_cores_exactly():
    from iree_dsa_tuner.task.partition import partitions

    splits = partitions(16, 2, 2)
    assert all(sum(s) == 16 and min(s) >= 1 for s in splits)
    assert (2, 14) in splits and (14, 2) in splits and len(splits) == 7
    assert all(sum(s) == 8 for s in partitions(8, 3, 1))


def test_a_share_of_the_part_has_its_cores_and_bandwidth():
    from iree_dsa_tuner.task.partition import share_of

    e1 = get_target("dsa-e1")
    quarter = share_of(e1, 4)
    assert quarter.describe().cores == 4 and quarter.name == "dsa-e1-4c"
    assert quarter.describe().dram_bytes_per_s == pytest.approx(e1.describe().dram_bytes_per_s / 4)
    assert quarter.compile_flags == e1.compile_flags


def test_two_models_share_the_part_and_each_gets_a_verdict(tmp_path):
    from iree_dsa_tuner.task.partition import partition_task

    a = load_manifest(write_manifest(tmp_path, TASK, STAGES))
    (tmp_path / "b").mkdir()
    b = load_manifest(write_manifest(tmp_path / "b", TASK.replace('id = "tiny"', 'id = "other"'), STAGES))
    shared = partition_task([a, b], get_target("dsa-e1"), TuneOptions(budget=2), budget_ms=1000)
    assert sum(shared.cores) == get_target("dsa-e1").describe().cores
    assert [r.target for r in shared.results] == [f"dsa-e1-{c}c" for c in shared.cores]
    assert shared.meets_all and len(shared.considered) == 7
    worst = [c["worst_over_budget"] for c in shared.considered]
    chosen = next(c for c in shared.considered if tuple(c["partition"]) == shared.cores)
    assert chosen["worst_over_budget"] == min(worst)
