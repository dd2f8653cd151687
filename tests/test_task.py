"""Task level: the manifest, the chunk timeline, the R7.4 rule, Amdahl-order tuning, the spec library."""

from __future__ import annotations

import dataclasses
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
    return run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=16), library=library,
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
    # A binding key written only when not its default is named with its default.
    static = dataclasses.replace(manifest, quant_activations="static")
    with pytest.raises(InputError, match="stale spec set for tiny 1: activations token -> static"):
        _run(static, library, [])


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
                           "--target", "dsa-c1", "--no-library", "--json", str(out), "--flow-steps", "16,1", "--quiet",
                           "--db", str(tmp_path / "tuning.sqlite")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    for key in ("chunk_ms", "rate_hz", "rate_hz_rtc", "budget_ms", "meets_budget", "limit_ms", "p99_ms", "stages",
                "amdahl", "decisions", "variants"):
        assert key in report
    assert "verdict:" in proc.stdout


def test_a_timed_out_default_is_estimated_and_named_in_the_coverage(tmp_path):
    manifest = load_manifest(write_manifest(tmp_path, TASK, STAGES))

    class Failing(CountingRunner):
        def measure(self, problem, config):
            if problem.dispatch.startswith("head"):
                return Measurement(Status.TIMEOUT, reason="did not finish")
            return super().measure(problem, config)

    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=2), runner_factory=Failing)
    # Still in the chunk (a dropped dispatch would shorten it), costed by the streaming estimate,
    # and the coverage names it with why.
    head = [a for a in result.after.amdahl if a["dispatch"].startswith("head")]
    assert head and all(a["ms"] > 0 for a in head)
    assert all(a["how"].startswith("estimated: streaming") and "could not be timed: did not finish" in a["how"]
               for a in head)
    estimated = {e["dispatch"] for e in result.after.coverage["estimated"]}
    assert {a["dispatch"] for a in head} <= estimated
    assert result.after.coverage["modelled_share"] < 1.0
    assert not result.skipped


def _shipped_set(target, path):
    from iree_dsa_tuner.task.library import find_spec_set
    from iree_dsa_tuner.task.run import manifest_binding

    manifest = load_manifest(path)
    found = find_spec_set(REPO / "transform_specs", target, manifest, manifest_binding(manifest, get_target(target)))
    assert found is not None, f"no spec set for {path.name} on {target}: rerun `python bench/task_table.py " \
                              "--write-library transform_specs --write-docs` from the repository root"
    return manifest, found


@pytest.fixture(scope="module")
def shipped_sets():
    """`shipped_sets(target)`: each shipped manifest's (path, manifest, stored set) on `target`,
    looked up once per module (finding a set compiles every stage model to bind it)."""
    found: dict[str, list] = {}

    def sets(target: str) -> list:
        if target not in found:
            found[target] = [(path, *_shipped_set(target, path)) for path in sorted(EXAMPLES.glob("*.toml"))]
        return found[target]
    return sets


@pytest.fixture(scope="module")
def reused_runs(shipped_sets):
    """`reused_runs(target)`: `task` on each shipped manifest with the shipped library, once per
    module: {path: its TaskResult}. Reused, a set is timed config by config and nothing is searched
    (the budget is never read), so the tests of the reused chunk share one run per manifest."""
    runs: dict[str, dict] = {}

    def run(target: str) -> dict:
        if target not in runs:
            runs[target] = {path: run_task(manifest, get_target(target), TuneOptions(budget=16),
                                           library=REPO / "transform_specs")
                            for path, manifest, _ in shipped_sets(target)}
        return runs[target]
    return run


@pytest.mark.slow
@pytest.mark.parametrize("target", ["dsa-e1", "dsa-c1"])
def test_every_shipped_spec_set_reproduces_its_stored_times(target, shipped_sets, reused_runs):
    """A shipped set, reused, gives the chunk it was written with: its default chunk, its tuned
    chunk and limit, and each stored config's time, as the simulator measures them now. A change
    to the simulator, the description, the accounting or the stage models fails here until the
    sets (and the docs tables written by the same run) are made again."""
    from iree_dsa_tuner.task.library import read_times
    from iree_dsa_tuner.tuning_spec.reading import read_spec

    for path, manifest, found in shipped_sets(target):
        stored = read_times(found)
        assert stored is not None and stored["target"] == target, found.directory
        for spec in found.spec_paths():
            assert read_spec(spec), spec  # parses, has an entry point and matchers
        r = reused_runs(target)[path]
        assert r.spec_set is not None and r.spec_set.directory == found.directory
        assert not any(d["decision"] not in ("reuse",) for d in r.decisions), r.decisions
        assert r.before.chunk_ms == pytest.approx(stored["default"]["chunk_ms"], rel=1e-9), (path.name, "default")
        assert r.after.chunk_ms == pytest.approx(stored["tuned"]["chunk_ms"], rel=1e-9), (path.name, "tuned")
        assert r.after.limit_ms == pytest.approx(stored["tuned"]["limit_ms"], rel=1e-9), (path.name, "limit")
        assert r.after.coverage["modelled_share"] == pytest.approx(stored["modelled_share"], rel=1e-9)
        timed = {(a["stage"], a["dispatch"]): a["ms"] for a in r.after.amdahl}
        assert len(stored["dispatches"]) == sum(len(v) for v in found.configs.values())
        for d in stored["dispatches"]:
            assert (d["stage"], d["dispatch"]) in timed, d
            assert d["tuned_us"] < d["default_us"], d


@pytest.mark.slow
@pytest.mark.parametrize("target", ["dsa-e1", "dsa-c1"])
def test_a_reused_shipped_set_is_no_slower_than_a_fresh_tune(target, shipped_sets, reused_runs):
    for path, manifest, found in shipped_sets(target):
        reused = reused_runs(target)[path]
        assert reused.reused and reused.spec_set.directory == found.directory
        fresh = run_task(manifest, get_target(target), TuneOptions(budget=16))
        assert reused.after.chunk_ms <= 1.02 * fresh.after.chunk_ms, (path.name, reused.after.chunk_ms,
                                                                     fresh.after.chunk_ms)


def test_the_docs_task_tables_are_the_shipped_sets_figures(shipped_sets):
    """docs/PERFORMANCE.md's task tables come from the same run as transform_specs/ (bench/task_table.py
    --write-docs --write-library): every row's default, tuned and limit ms is the shipped set's."""
    from iree_dsa_tuner.task.library import read_times

    text = (REPO / "docs" / "PERFORMANCE.md").read_text()
    for target in ("dsa-e1", "dsa-c1"):
        block = text.split(f"<!-- bench/task_table.py {target} begin -->")[1].split(
            f"<!-- bench/task_table.py {target} end -->")[0]
        assert f"python bench/task_table.py --target {target}" in block
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[1:-1]]
                for line in block.splitlines() if line.startswith("| ") and not line.startswith("| manifest")}
        for _, manifest, found in shipped_sets(target):
            times, row = read_times(found), rows[manifest.model_id]
            assert row[4] == f"{times['default']['chunk_ms']:.1f}", (target, manifest.model_id, "default")
            assert row[5] == f"{times['tuned']['chunk_ms']:.1f}", (target, manifest.model_id, "tuned")
            assert row[8] == f"{times['tuned']['limit_ms']:.1f}", (target, manifest.model_id, "limit")


# ---- every call of every dispatch (issue 18) -----------------------------------------------------

def _flow_dispatch_ops(model: Path, tmp_path: Path) -> list:
    """Each `flow.dispatch` of `model` compiled to flow: (its operand types), counted independently
    of the tuner's host-program reader."""
    from iree.compiler import ir

    from iree_dsa_tuner.compiler import find_tool

    out = tmp_path / "flow.mlir"
    subprocess.run([find_tool("iree-compile"), "--iree-hal-target-device=local",
                    "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=haswell",
                    "--compile-to=flow", str(model), "-o", str(out)], check=True)
    found = []

    def walk(op):
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    if child.operation.name == "flow.dispatch":
                        found.append([ir.RankedTensorType(v.type) for v in child.operation.operands
                                      if isinstance(v.type, ir.RankedTensorType) or str(v.type).startswith("tensor<")])
                    walk(child.operation)

    with ir.Context():
        walk(ir.Module.parse(out.read_text()).operation)
    return found


def test_pi0_counts_every_prefix_gemm_call_and_its_limit_sums_every_call(tmp_path):
    """IREE makes 4 executables of the Gemma layer's 6 GEMMs (q/o and gate/up share one each); the
    chunk counts 6 calls per layer, and the weight limit is every call's weight at w4 (half a byte
    per element), times the stage's repeats, over DRAM bandwidth, as counted from --compile-to=flow."""
    import math

    manifest = load_manifest(EXAMPLES / "pi0.toml")
    target = get_target("dsa-e1")
    r = run_task(manifest, target, TuneOptions(budget=1), tune=False)
    stages = {s["name"]: s for s in r.before.stages}
    assert stages["prefix"]["dispatch_calls"] == 6
    assert sum(a["calls"] for a in r.before.amdahl if a["stage"] == "prefix") == 6
    assert {a["calls"] for a in r.before.amdahl if a["stage"] == "prefix"} == {1, 2}

    weight_bytes = 0.0
    for stage in manifest.stages:
        dispatches = _flow_dispatch_ops(stage.mlir, tmp_path)
        count = stage.repeat * stage.count(manifest.flow_steps)
        assert stages[stage.name]["dispatch_calls"] == len(dispatches), stage.name
        # Operand 1 of each GEMM dispatch is its [K, N] weight; w4a8 stores it as i4.
        weight_bytes += count * sum(math.prod(ops[1].shape) * 0.5 for ops in dispatches)
    expected_ms = weight_bytes / target.describe().dram_bytes_per_s * 1e3
    assert r.before.weight_limit_ms == pytest.approx(expected_ms, rel=1e-9)
    assert r.before.limit_ms == pytest.approx(max(expected_ms, r.before.compute_limit_ms), rel=1e-9)
    assert r.before.limit_ms > 40.0  # the full count: about 2.75 GB per chunk at 68 GB/s


def test_a_conv1d_policy_counts_every_conv_and_is_never_under_its_weight_streaming_time():
    """A Diffusion-Policy-like stage of batch-1 1-D convs: task routes the convs as tune does (one
    contraction per kernel tap), counts every one, costs the reduction it cannot tune by the
    streaming estimate, and the chunk is no shorter than streaming its weights."""
    manifest = load_manifest(REPO / "lit_tests" / "inputs" / "manifests" / "dp_conv1d.toml")
    target = get_target("dsa-e1")
    r = run_task(manifest, target, TuneOptions(budget=2), tune=False)
    assert not r.skipped, r.skipped
    taps = [a for a in r.before.amdahl if a["how"] == "measured"]
    assert len(taps) == 10  # 2 convs x 5 kernel taps, each a contraction the simulator timed
    # Weights: 5x256x256 + 5x256x512 f32 per block, 4 blocks per flow step, 10 flow steps.
    weights = (5 * 256 * 256 + 5 * 256 * 512) * 4 * 4 * 10
    streaming_ms = weights / target.describe().dram_bytes_per_s * 1e3
    assert r.before.weight_limit_ms == pytest.approx(streaming_ms, rel=1e-9)
    assert r.before.chunk_ms >= streaming_ms
    estimated = r.before.coverage["estimated"]
    assert [e["dispatch"] for e in estimated] == [a["dispatch"] for a in r.before.amdahl
                                                  if a["how"].startswith("estimated: streaming")]
    assert any("reduction" in e["dispatch"] for e in estimated)
    assert 0.9 < r.before.coverage["modelled_share"] < 1.0


def test_the_verdict_is_printed_with_its_coverage(tmp_path):
    out = tmp_path / "r.json"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "task",
                           str(REPO / "lit_tests" / "inputs" / "manifests" / "dp_conv1d.toml"), "--target", "dsa-e1",
                           "--no-library", "--budget", "2", "--quiet", "--json", str(out), "--no-db"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    verdict_line = next(line for line in proc.stdout.splitlines() if line.startswith("verdict:"))
    report = json.loads(out.read_text())
    share = report["coverage"]["modelled_share"]
    assert f"coverage: {100 * share:.1f}% of the chunk from timed root ops" in verdict_line
    assert f"1 of {report['coverage']['dispatches']} dispatches: streaming estimate" in verdict_line


def test_the_streaming_estimate_by_hand():
    """dsa-e1: 1 MiB read + 1 MiB written, 2^20 element ops. DRAM: 2 x (16384 bursts x 64 B + 512
    pages x 128 B) over 68 GB/s; ports: 2 MiB over 16 x 16 GB/s; vector: 2^20 / (128 lanes x 16
    cores) cycles at 976.5625 MHz. Launch 3 us, one descriptor latency 250 ns."""
    from iree_dsa_tuner.core.problems import DispatchTraffic

    mib = 1 << 20
    us, how = get_target("dsa-e1").estimate_untunable(DispatchTraffic(((0, mib),), ((1, mib),), mib))
    dram_s = 2 * (16384 * 64 + 512 * 128) / 68e9
    port_s = 2 * mib / (16 * 16e9)
    vector_s = (mib / (128 * 16)) / 976.5625e6
    assert dram_s > port_s > vector_s
    assert us == pytest.approx((3e-6 + 250e-9 + dram_s) * 1e6, rel=1e-12)
    assert how.startswith("estimated: streaming, dram-bound")


def test_the_host_program_counts_calls_per_public_function(tmp_path):
    from iree_dsa_tuner.ir.artifacts import compile_model

    flags = get_target("dsa-e1").compile_flags
    program = compile_model(REPO / "lit_tests" / "inputs" / "twin_projections.mlir", flags).host_program()
    assert list(program.functions) == ["layer"]
    assert program.calls("layer") == {"layer_dispatch_0_matmul_16x2048x2048_f32": 2,
                                      "layer_dispatch_1_matmul_16x512x2048_f32": 1}
    # Two public functions with the same GEMM: one executable, one call from each function.
    model = tmp_path / "two.mlir"
    model.write_text(matmul_model(16, 256, 256, name="first") + "\n" + matmul_model(16, 256, 256, name="second"))
    program = compile_model(model, flags).host_program()
    assert sorted(program.functions) == ["first", "second"]
    (symbol, total), = program.calls().items()
    assert total == 2 and program.calls("first") == {symbol: 1} and program.calls("second") == {symbol: 1}
    assert program.functions_calling(symbol) == ["first", "second"]



def test_a_wrapped_public_function_counts_once_in_the_model(tmp_path):
    # iree-turbine exports a public `f` that waits on the public `f$async`: one call of the
    # model runs the body once. Summed over both, every dispatch was counted twice (ACT's encoder
    # FFN: 8 calls for 4 layers). `main$async` keeps its own count for timing it alone.
    from iree_dsa_tuner.ir.artifacts import compile_model

    flags = get_target("dsa-e1").compile_flags
    program = compile_model(REPO / "lit_tests" / "inputs" / "torch_gemma_mlp.mlir", flags).host_program()
    assert sorted(program.functions) == ["gemma_mlp", "gemma_mlp$async"] and program.entries == ["gemma_mlp"]
    assert program.calls("gemma_mlp") == program.calls("gemma_mlp$async")
    assert program.calls() == program.calls("gemma_mlp") and sum(program.calls().values()) > 0


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


@pytest.mark.slow
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
