"""The host recipe on a module with several entry functions (issue 18, item 4).

A preset or spec is kept only if no function gets slower beyond its noise and the weighted
total gets faster beyond the noise; a spec is confirmed on the functions that run its
dispatches. Pure logic on scripted per-function timings first, then one real run of
`tune --target host` (an AVX2 part, whatever this machine is) on lit_tests/inputs/two_functions.mlir,
which asserts what it built, timed and recorded, not which build was faster (bench/'s business).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from iree_dsa_tuner.host import recipe as host_recipe
from iree_dsa_tuner.host.recipe import (choose_preset, functions_holding, parse_function_weights, settle_candidate,
                                        tune_recipe, verdict)
from iree_dsa_tuner.recipe import Recipe, load_recipe
from iree_dsa_tuner.host.whole_model import Variant, beats, slower_functions
from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.search.results import DispatchResult, TuneResult

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
TWO_FUNCTIONS = INPUTS / "two_functions.mlir"
HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")


def timed(name, weights=None, **rounds):
    """A variant with three rounds per function: timed("dt", proj=[...], attn_scores=[...])."""
    return Variant(name, rounds_us={f: list(t) for f, t in rounds.items()}, weights=dict(weights or {}))


def around(us):
    return [us * 0.99, us, us * 1.01]


# ---- the decision rule -----------------------------------------------------------------------

def test_a_preset_that_speeds_one_function_but_slows_another_is_refused():
    # Issue 18: dt+uk-all sped the projection up and made attn_scores 0.55x as fast. The total
    # (the one function timed before) says "faster"; the function it slowed says no.
    default = timed("default", proj=around(1000), attn_scores=around(100))
    dt_uk = timed("dt+uk-all", proj=around(400), attn_scores=around(182))
    assert dt_uk.median_us < default.median_us * 0.6  # what a total alone would have kept
    assert set(slower_functions(dt_uk, default)) == {"attn_scores"}
    assert not beats(dt_uk, default)
    assert "@attn_scores (0.55x as fast)" in verdict(dt_uk, default)
    # Another preset speeds the projection less but leaves attn_scores within its noise: it is chosen.
    dt = timed("dt", proj=around(600), attn_scores=around(101))
    assert beats(dt, default) and choose_preset(default, [dt_uk, dt]) is dt
    assert choose_preset(default, [dt_uk]) is default
    # Extra rounds go to the fastest-looking preset that slows nothing, never to one already refused.
    assert settle_candidate(default, [dt_uk, dt]) is dt and settle_candidate(default, [dt_uk]) is None


def test_a_function_slower_only_within_its_noise_does_not_veto():
    default = timed("default", proj=around(1000), attn_scores=around(100))
    one_percent = timed("dt", proj=around(500), attn_scores=around(101))  # under the 2% floor
    noisy = timed("default", proj=around(1000), attn_scores=[70, 100, 130])  # its rounds 30% apart
    three_percent = timed("dt", proj=around(500), attn_scores=around(103))
    assert beats(one_percent, default)
    assert not beats(three_percent, default)  # beyond 2%: refused
    assert beats(three_percent, noisy)  # within that function's own noise: not a slowdown


def test_the_weighted_total_must_get_faster_beyond_the_noise():
    # attn_scores 20% faster, but it is 1% of the model: the total moves 0.2%, inside the noise.
    default = timed("default", proj=around(10000), attn_scores=around(100))
    small_win = timed("p", proj=around(10000), attn_scores=around(80))
    assert not slower_functions(small_win, default) and not beats(small_win, default)
    # Counted 100 times per model call (weight 100), the same win is half the total.
    weights = {"attn_scores": 100.0}
    heavy = timed("default", weights, proj=around(10000), attn_scores=around(100))
    assert beats(timed("p", weights, proj=around(10000), attn_scores=around(80)), heavy)
    assert heavy.median_us == pytest.approx(10000 + 100 * 100)


def paired(name, **rounds):
    """A variant timed in the timer's rounds 1, 2, 3, ...: paired("dt", proj=[...])."""
    return Variant(name, rounds_us={f: list(t) for f, t in rounds.items()},
                   round_ids={f: list(range(1, len(t) + 1)) for f, t in rounds.items()})


def test_rounds_shared_with_the_incumbent_are_compared_round_by_round():
    # A neighbour's load drifts both builds from 100 to 200 us across the rounds; the candidate is
    # 2x faster in every round. Median against median, the drift is the noise and hides the win.
    drift = [100.0, 150.0, 200.0]
    default, faster = timed("default", proj=drift), timed("dt", proj=[t / 2 for t in drift])
    assert not beats(faster, default)
    default, faster = paired("default", proj=drift), paired("dt", proj=[t / 2 for t in drift])
    assert beats(faster, default)
    # The same drift hides a function 1.3x slower in every round: paired, it vetoes.
    slower = paired("dt", proj=[t / 2 for t in drift], attn=[1.3 * t for t in drift])
    default = paired("default", proj=drift, attn=drift)
    assert set(slower_functions(slower, default)) == {"attn"} and not beats(slower, default)
    assert not slower_functions(timed("dt", attn=[1.3 * t for t in drift]), timed("default", attn=drift))
    # Ratios that disagree from round to round are noise, however far apart the medians.
    unsteady = paired("dt", proj=[60.0, 180.0, 180.0])  # 0.6x, 1.2x, 0.9x
    assert not beats(unsteady, paired("default", proj=drift))
    # Rounds the two do not share are not paired: each variant's own spread decides.
    elsewhere = Variant("dt", rounds_us={"proj": [t / 2 for t in drift]}, round_ids={"proj": [7, 8, 9]})
    assert not beats(elsewhere, paired("default", proj=drift))


def test_a_variant_not_timed_on_every_function_of_the_incumbent_does_not_beat_it():
    default = timed("default", proj=around(1000), attn_scores=around(100))
    assert not beats(timed("half", proj=around(100)), default)
    assert not beats(timed("broken", proj=around(100), attn_scores=around(50)), Variant("nothing"))


def test_a_spec_is_confirmed_where_its_dispatches_run():
    calls = {"proj": {"proj_dispatch_0": 1}, "attn_scores": {"attn_dispatch_0": 1},
             "both": {"proj_dispatch_0": 2, "attn_dispatch_0": 1}}
    assert functions_holding({"proj_dispatch_0"}, calls, ["proj", "attn_scores", "both"]) == ["proj", "both"]
    assert functions_holding({"proj_dispatch_0"}, calls, ["attn_scores"]) == []
    # The old mistake: confirming on a function that does not run the spec's dispatch finds
    # the same code and drops a real win; confirmed on the function holding it, it is kept.
    without, with_spec = timed("dt", attn_scores=around(100)), timed("dt+spec", attn_scores=around(100))
    assert not beats(with_spec, without)
    assert beats(timed("dt+spec", proj=around(92)), timed("dt", proj=around(1000)))


def test_function_weights_from_the_command_line():
    assert parse_function_weights(["proj", "@attn_scores=10", "proj"]) == (["proj", "attn_scores"],
                                                                            {"attn_scores": 10.0})
    for bad in ("=2", "proj=x", "proj=0", "proj=-1", "proj=inf"):
        with pytest.raises(host_recipe.InputError):
            parse_function_weights([bad])


def test_a_recipe_records_every_function_and_its_times(tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text(TWO_FUNCTIONS.read_text())
    recipe = Recipe(str(model), "0" * 64, "haswell", (), "", {"default": 1100.0, "dt+spec": 92.0},
                    ("proj", "attn$async"), {"attn$async": 2.0},
                    {"default": {"proj": 1000.0, "attn$async": 50.0}, "dt+spec": {"proj": 92.0}})
    path = tmp_path / "r.recipe.toml"
    path.write_text(recipe.to_toml())
    back = load_recipe(path)
    assert back.functions == ("proj", "attn$async") and back.weights == {"attn$async": 2.0}
    assert back.function_us == recipe.function_us and back.whole_model_us == recipe.whole_model_us
    # A recipe written before per-function timing still loads.
    old = "\n".join(line for line in recipe.to_toml().splitlines() if not line.startswith("functions"))
    old = old.split("\n[weights]")[0] + "\n[whole_model_us]\ndefault = 5.0\n"
    path.write_text(old)
    assert load_recipe(path).functions == () and load_recipe(path).whole_model_us == {"default": 5.0}
    path.write_text(recipe.to_toml().replace('functions = ["proj", "attn$async"]', 'functions = "proj"'))
    with pytest.raises(host_recipe.InputError, match="key 'functions'"):
        load_recipe(path)


# ---- tune_recipe's wiring, on scripted timings -------------------------------------------------

class _ScriptedTimer:
    """WholeModelTimer with times from a script: {(flags, has a spec): {function: median}}."""

    settle = host_recipe.WholeModelTimer.settle

    def __init__(self, script, entries, tmp_path, clock=None):
        self.script, self.functions, self.weights, self.work_dir = script, list(entries), {}, tmp_path
        self.timed_on: dict[str, list[str]] = {}  # variant name -> the functions it was timed on
        self.clock = clock  # a _FakeClock: each variant timed on a function for one round costs CALL_S

    def compile(self, v):
        v.vmfb = self.work_dir / f"{v.name}.vmfb"
        if v.spec is not None:  # as WholeModelTimer: a build with a spec dumps its configurations
            v.configurations = self.work_dir / f"{v.name}.configurations"
        return v

    def time(self, variants, rounds=3, functions=None):
        functions = self.functions if functions is None else functions
        for v in variants:
            self.timed_on.setdefault(v.name, [])
            for f in functions:
                # By name where the script names the variant (two specs on the same flags).
                us = self.script[v.name if v.name in self.script else (tuple(v.flags), v.spec is not None)][f]
                v.rounds_us.setdefault(f, []).extend(around(us)[:rounds] if rounds == 3 else [us] * rounds)
                if self.clock is not None:
                    self.clock.now += CALL_S * rounds
                if f not in self.timed_on[v.name]:
                    self.timed_on[v.name].append(f)
        return variants

    def close(self):
        pass


DT_UK = ("--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all")
CALL_S = 10.0  # seconds a scripted round of one variant on one function takes on the fake clock
VERIFY_S = 5.0


class _FakeClock:
    """`time` for host_recipe: it moves only when the scripted timer or search says so."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def scripted(monkeypatch, tmp_path):
    """tune_recipe on a two-function module: compiling, tuning and timing replaced by a script."""
    calls = {"proj": {"proj_dispatch_0_matmul": 1}, "attn_scores": {"attn_scores_dispatch_0_batch_matmul": 1}}
    artifacts = SimpleNamespace(configured_text="", batch1_convs=[],
                                problems=lambda: [SimpleNamespace(kind="contraction")], model=TWO_FUNCTIONS,
                                elementwise_problems=lambda: [])
    monkeypatch.setattr(host_recipe, "compile_model", lambda model, flags: artifacts)
    monkeypatch.setattr(host_recipe, "_dispatch_calls", lambda text: calls)
    monkeypatch.setattr(host_recipe, "_entries", lambda a, functions, c: (
        {f: [] for f in (functions or ["proj", "attn_scores"])}, []))
    # A spec rebuilt from the search's winners (the spec less a slowed function's dispatches).
    monkeypatch.setattr(host_recipe.search_spec, "spec_problems", lambda artifacts: [])
    monkeypatch.setattr(host_recipe.search_spec, "build_verified",
                        lambda artifacts, problems, winners, progress=None: SimpleNamespace(text="// spec-less",
                                                                                           dropped={}))
    state = SimpleNamespace(timer=None, tuned=[])

    def run(script, spec_dispatches, functions=None, time_budget_s=None, threads=1):
        # Under a time budget the clock is fake: timing costs CALL_S per variant, function and
        # round, the search takes the whole share it is given, and its verification VERIFY_S.
        clock = _FakeClock() if time_budget_s else None
        if clock is not None:
            monkeypatch.setattr(host_recipe, "time", clock)
        state.clock = clock

        def make_timer(model, flags, entries, weights=None, **options):
            state.timer = _ScriptedTimer(script, entries, tmp_path, clock)
            state.timer_options = options
            return state.timer

        def fake_tune(artifacts, target, options, db=None, progress=None):
            state.tuned.append(options.dispatches)
            state.search_budget_s = options.time_budget_s
            dispatches = [DispatchResult(d, "", chosen="tuned") for d in spec_dispatches
                          if not options.dispatches or d in options.dispatches]
            result = TuneResult("m", "host", "pruned", dispatches, spec_text="// spec" if dispatches else "")
            if clock is not None:
                clock.now += options.time_budget_s + VERIFY_S
                result.verify_seconds = VERIFY_S
            return result

        monkeypatch.setattr(host_recipe, "WholeModelTimer", make_timer)
        monkeypatch.setattr(host_recipe, "tune", fake_tune)
        target = SimpleNamespace(compile_flags=HASWELL, name="host")
        result = tune_recipe(TWO_FUNCTIONS, target, TuneOptions(time_budget_s=time_budget_s, threads=threads),
                             functions=functions,
                             presets={"default": (), "dt+uk-all": DT_UK})
        return result, state

    return run


def test_tune_recipe_refuses_the_preset_that_slows_a_function_and_keeps_the_spec_where_it_runs(scripted):
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 400.0, "attn_scores": 182.0},  # faster total, attn_scores 0.55x
              ((), True): {"proj": 92.0, "attn_scores": 100.0}}  # the spec holds proj's dispatch only
    result, state = scripted(script, ["proj_dispatch_0_matmul"])
    assert result.recipe.flags == () and "refused" in result.verdicts["dt+uk-all"]
    assert result.functions == ["proj", "attn_scores"]
    assert state.timer.timed_on["default"] == state.timer.timed_on["dt+uk-all"] == ["proj", "attn_scores"]
    # Confirmed on @proj, where its dispatch runs; attn_scores runs the same code with or without it.
    assert result.spec_functions == ["proj"] and state.timer.timed_on["default+spec"] == ["proj"]
    assert result.spec_text == "// spec"
    assert result.recipe.function_us["default"] == {"proj": 1000.0, "attn_scores": 100.0}
    assert result.recipe.function_us["default+spec"] == {"proj": 92.0}
    assert result.to_json()["functions"] == ["proj", "attn_scores"]


def test_a_tune_on_two_threads_times_the_whole_model_on_two_and_its_recipe_says_so(scripted, tmp_path):
    """`tune --threads 2`: the whole-model timer runs on IREE's task device with two workers, and
    the recipe records the count (written only when it is not 1, so one-thread recipes read as
    before)."""
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 400.0, "attn_scores": 182.0},
              ((), True): {"proj": 92.0, "attn_scores": 100.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul"], threads=2)
    assert state.timer_options == {"threads": 2} and result.recipe.threads == 2
    from iree_dsa_tuner.commands.tune import recipe_table

    assert "(2 threads, IREE's task device, median of interleaved rounds" in recipe_table(result)
    path = tmp_path / "r.recipe.toml"
    path.write_text(result.recipe.to_toml())
    assert "\nthreads = 2\n" in path.read_text() and load_recipe(path).threads == 2
    result, state = scripted(script, ["proj_dispatch_0_matmul"])
    assert state.timer_options == {} and result.recipe.threads == 1 and "threads" not in result.recipe.to_toml()


@pytest.mark.parametrize("line", ["threads = 0", "threads = \"2\"", "threads = true"])
def test_a_recipe_with_a_bad_thread_count_is_one_line(tmp_path, line):
    recipe = Recipe("m.mlir", "0" * 64, "haswell", (), "", {"default": 5.0})
    path = tmp_path / "r.recipe.toml"
    path.write_text(recipe.to_toml().replace("\n[weights]", f"\n{line}\n[weights]", 1))
    with pytest.raises(host_recipe.InputError, match="key 'threads'"):
        load_recipe(path)


def test_the_whole_model_timer_runs_on_the_device_for_its_thread_count(tmp_path):
    """One thread: local-sync, the calling thread. Two: the task device with two workers, and a
    real two-function model runs on it (haswell code)."""
    from iree_dsa_tuner.host.whole_model import WholeModelTimer, device_flags

    assert device_flags(1) == ("--device=local-sync",)
    assert device_flags(2) == ("--device=local-task", "--task_topology_max_group_count=2")
    with pytest.raises(ValueError, match="at least 1"):
        device_flags(0)
    timer = WholeModelTimer(TWO_FUNCTIONS, HASWELL, {"proj": [((1, 1024), "f32"), ((1024, 1024), "f32")]},
                            work_dir=tmp_path, threads=2)
    assert timer.device_flags == device_flags(2)
    variant = timer.compile(Variant("default", ()))
    assert not variant.error, variant.error
    timer.time([variant], rounds=1, seconds_per_call=0.001)
    assert not variant.error and len(variant.rounds_us["proj"]) == 1 and variant.rounds_us["proj"][0] > 0


@pytest.mark.parametrize("estimates_proj, kept", [(60.0, "// spec + estimates"), (90.0, "// spec")])
def test_the_estimated_spec_is_confirmed_beside_the_searchs_and_kept_only_when_faster(scripted, monkeypatch,
                                                                                      estimates_proj, kept):
    # search/estimated.py: the search's winners plus the estimate's mmt4d distributions, a second
    # candidate; both are timed beside the chosen build on every function, and the estimated one
    # replaces the search's only when it beats it beyond the noise.
    monkeypatch.setattr(host_recipe, "estimated_spec", lambda *a: ("spec+estimates", "// spec + estimates",
                                                                    {"proj_dispatch_0_matmul"}))
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1400.0, "attn_scores": 182.0},
              "default+spec": {"proj": 92.0, "attn_scores": 100.0},
              "default+spec+estimates": {"proj": estimates_proj, "attn_scores": 100.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul"])
    assert result.spec_text == kept
    assert state.timer.timed_on["default+spec"] == state.timer.timed_on["default+spec+estimates"] \
        == ["proj", "attn_scores"]
    assert "faster" in result.verdicts["default+spec+estimates"]
    # The summary table marks one build as the recipe: the kept spec's, though both share its flags.
    from iree_dsa_tuner.commands.tune import _is_recipe

    marked = [v.name for v in result.variants if _is_recipe(result, v)]
    assert marked == [{"// spec": "default+spec", "// spec + estimates": "default+spec+estimates"}.get(kept, "default")]


def test_the_estimated_spec_is_settled_when_the_searchs_is_no_faster_than_the_chosen_build(scripted, monkeypatch):
    # ACT: the search's spec no faster than the chosen build, the estimated one a little faster but
    # within the noise of both: the estimated one gets the settling rounds (before, the search's
    # did, or nothing did).
    monkeypatch.setattr(host_recipe, "estimated_spec", lambda *a: ("spec+estimates", "// spec + estimates",
                                                                    {"proj_dispatch_0_matmul"}))
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1400.0, "attn_scores": 182.0},
              "default+spec": {"proj": 1000.0, "attn_scores": 100.0},
              "default+spec+estimates": {"proj": 985.0, "attn_scores": 100.0}}
    result, _ = scripted(script, ["proj_dispatch_0_matmul"])
    rounds = {v.name: len(v.rounds_us["proj"]) for v in result.variants if v.name.startswith("default+")}
    assert rounds["default+spec+estimates"] > rounds["default+spec"] == 3
    assert result.spec_text == ""  # 1.5% is inside the noise however many rounds


def test_an_estimated_spec_alone_is_kept_when_the_search_found_nothing(scripted, monkeypatch):
    monkeypatch.setattr(host_recipe, "estimated_spec", lambda *a: ("estimates", "// estimates",
                                                                    {"proj_dispatch_0_matmul"}))
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1400.0, "attn_scores": 182.0},
              "default+estimates": {"proj": 700.0, "attn_scores": 100.0}}
    result, state = scripted(script, [])
    assert result.spec_text == "// estimates" and result.spec_functions == ["proj"]


def test_every_preset_but_the_default_is_timed_with_the_shared_spec_and_the_recipe_keeps_it(
        scripted, monkeypatch, tmp_path):
    # host_recipe.shared_spec: the estimate's softmax configs, which no flag changes, so the presets
    # are compared on what they do change. IREE's default stays the reference, without it. When
    # the search's spec does not beat the chosen build, the recipe is that build: its flags and the
    # shared spec it was timed with.
    shared = host_recipe.presets.PresetSpec(tmp_path / "shared.spec.mlir", "// shared")
    monkeypatch.setattr(host_recipe, "shared_spec", lambda *a: shared)
    monkeypatch.setattr(host_recipe, "shared_configs", lambda *a: {})
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, True): {"proj": 400.0, "attn_scores": 90.0},
              "dt+uk-all+spec": {"proj": 400.0, "attn_scores": 90.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul"])
    default, dt_uk = result.variants[:2]
    assert default.spec is None and dt_uk.spec == shared.path
    assert result.recipe.flags == DT_UK and result.spec_text == "// shared"
    assert "not kept" in " ".join(result.notes)


def test_a_spec_the_search_found_gets_the_shared_configs_it_leaves_out(scripted, monkeypatch, tmp_path):
    from iree_dsa_tuner.core.config import CompilationConfig

    shared = host_recipe.presets.PresetSpec(tmp_path / "shared.spec.mlir", "// shared")
    monkeypatch.setattr(host_recipe, "shared_spec", lambda *a: shared)
    softmax = CompilationConfig("CPUDoubleTilingExpert", (1, 1, 0), (1, 1, 0), (0, 0, 16))
    monkeypatch.setattr(host_recipe, "shared_configs", lambda *a: {"attn_scores_dispatch_1_softmax": softmax})
    verified = []

    def build_verified(artifacts, problems, winners, progress=None):
        verified.append(dict(winners))
        return SimpleNamespace(text="// spec + shared", dropped={})

    monkeypatch.setattr(host_recipe.presets, "build_verified", build_verified)
    monkeypatch.setattr(host_recipe.search_spec, "build_verified", build_verified)
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, True): {"proj": 400.0, "attn_scores": 90.0},
              "dt+uk-all+spec": {"proj": 200.0, "attn_scores": 90.0}}
    result, _ = scripted(script, ["proj_dispatch_0_matmul"])
    assert result.spec_text == "// spec + shared"
    assert verified[-1]["attn_scores_dispatch_1_softmax"] == softmax and "proj_dispatch_0_matmul" in verified[-1]


def test_the_shared_spec_holds_a_verified_softmax_config(tmp_path):
    from iree_dsa_tuner.ir.artifacts import compile_model

    from conftest import cpu_target

    base = compile_model(INPUTS / "masked_softmax.mlir", HASWELL)
    notes: list[str] = []
    shared = host_recipe.shared_spec(base, cpu_target("avx2"), tmp_path, notes, None)
    assert shared is not None and shared.path.read_text() == shared.text
    assert "transform.iree.match.cast_compatible_dag_from_root" in shared.text and "math.exp" in shared.text
    assert "estimate's config for 1 softmax dispatch," in notes[-1]
    # A model without a softmax has nothing to share.
    assert host_recipe.shared_spec(compile_model(TWO_FUNCTIONS, HASWELL), cpu_target("avx2"), tmp_path, [],
                                    None) is None


def _own_spec(tmp_path, monkeypatch, name="dt+uk-all"):
    """A preset's own estimated spec (`_estimated_preset_specs`), and what verifying it was asked."""
    from iree_dsa_tuner.core.config import CompilationConfig

    distribution = CompilationConfig("Mmt4dTilingExpert", (4, 1, 0, 0, 0, 0), (1, 1, 0, 16, 16, 0), (0, 0, 1, 0, 0, 1))
    own = host_recipe.presets.PresetSpec(tmp_path / "own.spec.mlir", "// own", {"proj_dispatch_0_mmt4d": distribution},
                                 SimpleNamespace(problems=lambda: [], elementwise_problems=lambda: []))
    monkeypatch.setattr(host_recipe.presets, "estimated_preset_spec", lambda model, target, preset, *a: own
                        if preset == name else None)
    monkeypatch.setattr(host_recipe, "shared_configs", lambda *a: {})
    verified = []  # (the configs, the build verified on: None = built again)

    def build_verified(artifacts, problems, winners, progress=None, built=None):
        verified.append((dict(winners), built))
        match = SimpleNamespace(to_json=lambda: {"function": "proj", "checked": True, "max_abs_err": 1e-6})
        return SimpleNamespace(text="// own, verified", dropped={}, report=SimpleNamespace(numerics=[match]))

    monkeypatch.setattr(host_recipe.presets, "build_verified", build_verified)
    monkeypatch.setattr(host_recipe.search_spec, "build_verified", build_verified)
    return own, verified


def test_a_preset_with_the_estimates_distributions_ships_them_verified(scripted, monkeypatch, tmp_path):
    # After the first round the fastest preset was rebuilt with its own spec (the estimate's mmt4d
    # distributions) and timed again: when no searched spec beats that build, the recipe is that
    # build, its spec verified before it is written. The estimated candidate is not built again:
    # the chosen build already has it.
    own, verified = _own_spec(tmp_path, monkeypatch)
    monkeypatch.setattr(host_recipe, "estimated_spec", lambda *a: pytest.fail("the chosen build had the estimates"))
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 500.0, "attn_scores": 90.0},  # its first round, before the estimates
              (DT_UK, True): {"proj": 400.0, "attn_scores": 90.0},
              "dt+uk-all+spec": {"proj": 400.0, "attn_scores": 90.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul"])
    rebuilt = result.variants[1]
    assert rebuilt.spec == own.path and len(rebuilt.rounds_us["proj"]) == 3 and max(rebuilt.rounds_us["proj"]) < 500
    assert result.recipe.flags == DT_UK and result.spec_text == "// own, verified"
    # Verified on the build that was timed with it (its vmfb and dumped configurations), not built again.
    assert verified[-1] == (own.configs, (own.text, rebuilt.vmfb, rebuilt.configurations))
    # And what that verification compared is the report's (the summary said "numerics not checked").
    assert result.spec_numerics == [{"function": "proj", "checked": True, "max_abs_err": 1e-6}]


def test_gemms_the_chosen_build_runs_with_the_estimates_distribution_are_not_searched(scripted, monkeypatch,
                                                                                       tmp_path):
    # Timed alone, a GEMM's weight stays warm: the search's distributions lost to the estimate's in
    # the model each time (pi0's expert 0.92x). The chosen build has them: the search gets the rest.
    own, _ = _own_spec(tmp_path, monkeypatch)
    own.configs["proj_dispatch_0_matmul"] = own.configs.pop("proj_dispatch_0_mmt4d")
    monkeypatch.setattr(host_recipe, "estimated_spec", lambda *a: None)
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 500.0, "attn_scores": 90.0},
              (DT_UK, True): {"proj": 400.0, "attn_scores": 90.0},
              "dt+uk-all+spec": {"proj": 400.0, "attn_scores": 60.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul", "attn_scores_dispatch_0_batch_matmul"])
    assert state.tuned[-1] == ("attn_scores_dispatch_0_batch_matmul",)
    assert any("1 mmt4d or inner_tiled dispatch kept the estimate's distribution" in n for n in result.notes)


def test_a_preset_that_does_not_build_with_the_estimates_keeps_its_build(scripted, monkeypatch, tmp_path):
    own, _ = _own_spec(tmp_path, monkeypatch)
    built = []

    def compile(self, v):
        built.append((v.name, v.spec))
        if v.spec == own.path:
            v.error = "error: a distribution IREE cannot build"
        else:
            v.vmfb = self.work_dir / f"{v.name}.vmfb"
        return v

    monkeypatch.setattr(_ScriptedTimer, "compile", compile)
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 400.0, "attn_scores": 90.0}}
    result, _ = scripted(script, [])
    assert built.count(("dt+uk-all", None)) == 1 and ("dt+uk-all", own.path) in built
    assert not result.variants[1].error and result.variants[1].spec is None
    assert result.recipe.flags == DT_UK and result.spec_text == ""
    assert any("does not build" in n and "kept without them" in n for n in result.notes)


@pytest.mark.parametrize("inner_first, rebuilt", [(False, ["gdt", "gdt+tile-bytes-4m", "unbatch+gdt+inner-tiled"]),
                                                   (True, ["unbatch+gdt+inner-tiled", "gdt"])])
def test_the_fastest_inner_tiled_preset_is_rebuilt_with_the_estimates_even_behind_the_two_fastest(
        monkeypatch, tmp_path, inner_first, rebuilt):
    # Inner-tiled's first round runs IREE's [1, 1, 0] distribution, which re-reads the weight per
    # 29-row tile (pi0's prefix: 2443 ms before the estimate's distributions, 1635 after), so it is
    # rebuilt with them even when two presets were faster; once one is among the two, no third.
    from iree_dsa_tuner.flags import GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG

    inner = Variant("unbatch+gdt+inner-tiled", ("--script", GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG),
                    rounds_us={"main": [900.0 if inner_first else 1300.0]})
    presets = [Variant("default", (), rounds_us={"main": [5000.0]}),
               Variant("gdt", (GLOBAL_DATA_TILING_FLAG,), rounds_us={"main": [1000.0]}),
               Variant("gdt+tile-bytes-4m", (GLOBAL_DATA_TILING_FLAG, "--tiles"), rounds_us={"main": [1100.0]}),
               Variant("dt+inner-tiled-twin", (GLOBAL_DATA_TILING_FLAG, "--other"), rounds_us={"main": [1200.0]}),
               inner]
    monkeypatch.setattr(host_recipe.presets, "estimated_preset_spec", lambda model, target, name, *a: host_recipe.presets.PresetSpec(
        tmp_path / f"{name}.spec.mlir", "// own", {}, None))
    monkeypatch.setattr(host_recipe.presets, "compile_variants", lambda timer, variants, jobs: variants)
    done = host_recipe.presets.estimate_contenders(Path("m.mlir"), None, presets, {}, SimpleNamespace(work_dir=tmp_path), 1,
                                            [], lambda line: None)
    assert [v.name for v in done] == rebuilt
    assert all(v.spec == tmp_path / f"{v.name}.spec.mlir" and v.rounds_us == {} for v in done)


def test_a_preset_on_the_global_path_gets_the_estimates_distributions(tmp_path):
    from iree_dsa_tuner.flags import DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG

    from conftest import cpu_target, matmul_model, write_model

    # ACT's FFN down projection's shape: IREE's one row tile per workgroup streams the weight per row tile.
    model = write_model(tmp_path, "ffn.mlir", matmul_model(96, 512, 3200))
    target = cpu_target("avx2")
    own = host_recipe.presets.estimated_preset_spec(model, target, "gdt", (GLOBAL_DATA_TILING_FLAG,), None, tmp_path)
    (entry, config), = own.configs.items()
    assert "mmt4d" in entry and config.pipeline == "Mmt4dTilingExpert" and config.distribution[0] > 1
    assert own.path.read_text() == own.text and "Mmt4dTilingExpert" in own.text
    # The default path's spec runs before the mmt4d exists; without data tiling there is none.
    assert host_recipe.presets.estimated_preset_spec(model, target, "dt", (DATA_TILING_FLAG,), None, tmp_path) is None
    assert host_recipe.presets.estimated_preset_spec(model, target, "default", (), None, tmp_path) is None


def test_a_spec_for_a_dispatch_of_the_second_function_is_confirmed_there(scripted):
    # Issue 18's conv: a verified 10.9x spec dropped because the one function timed (the first)
    # does not run the dispatch. Here the spec holds attn_scores' dispatch; @proj is unchanged.
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1000.0, "attn_scores": 100.0},
              ((), True): {"proj": 1000.0, "attn_scores": 9.2}}
    result, state = scripted(script, ["attn_scores_dispatch_0_batch_matmul"])
    assert result.spec_functions == ["attn_scores"] and state.timer.timed_on["default+spec"] == ["attn_scores"]
    assert result.spec_text == "// spec"


def test_tune_recipe_drops_a_spec_that_slows_a_function_running_its_dispatch(scripted):
    # One dispatch shared by both functions (IREE deduplicates executables): the spec is
    # confirmed on both, and a slowdown on either one drops it, whatever the total says.
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1000.0, "attn_scores": 100.0},
              ((), True): {"proj": 500.0, "attn_scores": 150.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul", "attn_scores_dispatch_0_batch_matmul"])
    assert result.spec_functions == ["proj", "attn_scores"]
    assert not result.spec_text and any("@attn_scores" in n and "not kept" in n for n in result.notes)


def test_named_functions_are_the_only_ones_timed_and_tuned(scripted):
    script = {((), False): {"proj": 1000.0}, (DT_UK, False): {"proj": 400.0}, ((), True): {"proj": 100.0},
              (DT_UK, True): {"proj": 300.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul", "attn_scores_dispatch_0_batch_matmul"],
                             functions=["proj"])
    assert result.functions == ["proj"] and result.recipe.flags == DT_UK
    assert state.tuned == [("proj_dispatch_0_matmul",)]  # attn_scores' dispatch: not this recipe's business
    assert result.spec_functions == ["proj"] and result.spec_text


# ---- --time-budget covers the whole tune --------------------------------------------------------

FASTER_DT = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
             (DT_UK, False): {"proj": 400.0, "attn_scores": 90.0},
             (DT_UK, True): {"proj": 200.0, "attn_scores": 90.0}}


def test_the_spec_reserve_counts_the_chosen_builds_and_at_most_one_build_for_numpy():
    from iree_dsa_tuner.host.recipe import RESERVE_MARGIN, spec_reserve_s

    def variant(name, call_s, compile_s):
        return Variant(name, rounds_us={"main": [call_s * 1e6] * 3}, compile_s=compile_s)

    # The UNet: a 1.86 s default call, its chosen build (0.25 s a call) took 27 s to build.
    default, chosen = variant("default", 1.86, 12.0), variant("conv-route+gdt", 0.25, 27.0)
    reserve = spec_reserve_s(chosen, default, [default, chosen], compile_s=13.0, rounds=3, round_s=0.0)
    assert reserve == pytest.approx(RESERVE_MARGIN * (2 * 27.0 + 5 * 1.86))
    # pi0's prefix: a 12.7 s default call, a 7.1 s build: numpy counts one build, not 63 s.
    default, chosen = variant("default", 12.7, 5.2), variant("dt+tile-bytes-4m", 3.0, 7.1)
    reserve = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=0.0)
    assert reserve == pytest.approx(RESERVE_MARGIN * 3 * 7.1)
    # Two specs (the search's and the estimated one, where the build has mmt4d dispatches): each
    # its two builds and its numerics, and a third variant in every confirmation round.
    two = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=0.0, specs=2)
    assert two == pytest.approx(RESERVE_MARGIN * 6 * 7.1)
    one_round = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=1.0)
    two_rounds = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=1.0, specs=2)
    assert two_rounds - two == pytest.approx(1.5 * (one_round - reserve))
    # The chosen preset's own estimated spec, verified for the recipe when no searched spec wins.
    own = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=0.0, specs=2,
                         verifications=1)
    assert own - two == pytest.approx(RESERVE_MARGIN * 2 * 7.1)
    # A verification measured slower than a build and numpy's calls (the encoder: its numerics
    # checked dispatch by dispatch) counts at what it took; a faster one changes nothing.
    measured = spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=0.0, specs=2,
                              verifications=1, verify_s=20.0)
    assert measured == pytest.approx(RESERVE_MARGIN * (2 * 7.1 + 3 * 20.0))
    assert spec_reserve_s(chosen, default, [default, chosen], compile_s=6.0, rounds=3, round_s=0.0, specs=2,
                          verifications=1, verify_s=1.0) == pytest.approx(own)


def test_the_presets_the_search_and_the_confirmation_share_one_budget(scripted):
    # A preset round (2 variants x 2 functions) costs 40 s on the fake clock; 400 s in all.
    result, state = scripted(FASTER_DT, ["proj_dispatch_0_matmul"], time_budget_s=400.0)
    assert result.spec_text == "// spec"
    assert list(result.phases) == list(host_recipe.PHASES) == ["start", "presets", "search", "verification",
                                                              "confirmation"]
    assert result.phases["presets"] <= 0.5 * 400.0  # host_recipe.PRESET_SHARE
    assert result.phases["verification"] == VERIFY_S
    assert state.search_budget_s > 0
    assert result.seconds == pytest.approx(sum(result.phases.values()))
    assert result.seconds <= 400.0
    assert "of the 400 s budget" in result.phases_text(400.0)


def test_a_budget_spent_by_the_first_preset_round_gets_no_more_preset_rounds(scripted):
    # On a loaded machine the UNet's presets alone took 483 s of a 300 s budget: after the first
    # round, more rounds only while they end within the presets' share of the budget.
    result, state = scripted(FASTER_DT, ["proj_dispatch_0_matmul"], time_budget_s=60.0)
    default, dt = result.variants[0], result.variants[1]
    assert [len(default.rounds_us[f]) for f in ("proj", "attn_scores")] == [1, 1]
    assert [len(dt.rounds_us[f]) for f in ("proj", "attn_scores")] == [1, 1]
    assert result.recipe.flags == DT_UK
    assert not result.spec_text and any("budget" in n for n in result.notes)
    assert result.seconds <= 60.0


# ---- the host program ----------------------------------------------------------------------------

def test_the_host_program_says_which_function_runs_which_dispatch():
    from iree_dsa_tuner.ir.artifacts import compile_model

    calls = host_recipe._dispatch_calls(compile_model(TWO_FUNCTIONS, HASWELL).configured_text)
    assert set(calls) == {"proj", "attn_scores"}
    assert [s.split("_dispatch_")[0] for s in calls["proj"]] == ["proj"]
    assert [s.split("_dispatch_")[0] for s in calls["attn_scores"]] == ["attn_scores"]
    # A torch export: @sdpa_block reaches its dispatches through util.call @sdpa_block$async;
    # the weight transpose runs once per projection (4), one executable.
    calls = host_recipe._dispatch_calls(compile_model(INPUTS / "torch_sdpa_block.mlir", HASWELL).configured_text)
    assert calls["sdpa_block"] == calls["sdpa_block$async"]
    assert max(calls["sdpa_block"].values()) == 4


# ---- end to end on this CPU -------------------------------------------------------------------

def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=1800, cwd=cwd)


def _variant(document) -> Variant:
    return Variant(document["name"], tuple(document["flags"]), Path(document["spec"]) if document["spec"] else None,
                   error=document["error"], rounds_us={f: t["rounds_us"] for f, t in document["functions"].items()},
                   weights={f: t["weight"] for f, t in document["functions"].items()})


class FixedDispatchTimes:
    """A dispatch runner: IREE's default at 100 us, every candidate at 50 us, so the dispatch search
    always ends in a spec (its winners are real configs, built and verified for real)."""

    name = "fixed"

    def measure(self, problem, config):
        from iree_dsa_tuner.core.measurement import Measurement

        us = 100.0 if config is None else 50.0
        return Measurement("ok", us, us, 1, runner=self.name, dispatch=problem.dispatch)

    def prepare(self, problem, configs):
        pass

    def close(self):
        pass


# What the pinned whole-model timer reports per call, by function: IREE's default; the search's
# spec half of it; every other preset half as fast again (so each is refused and the default kept).
PINNED_US = {"proj": 1000.0, "attn_scores": 100.0}
SPEC_FACTOR, PRESET_FACTOR = 0.5, 1.5


def _pinned_us(variant: str, function: str, index: int) -> float:
    variant = variant.removesuffix(" (again)")  # the chosen build timed again beside the spec: the same build
    factor = 1.0 if variant == "default" else SPEC_FACTOR if "+spec" in variant else PRESET_FACTOR
    return PINNED_US[function] * factor * (0.99, 1.0, 1.01)[index % 3]  # rounds 2% apart


class PinnedWholeModelTimer(host_recipe.WholeModelTimer):
    """The real timer: every build is compiled and each function run, in rounds, as in a tune. The
    rounds it records are `_pinned_us`'s, so every choice made from them is pinned; what the runs
    really took is kept in `real_us` (variant -> function -> per-call us). That they ran is what
    counts, not how precisely they were timed: each repetition is about 5 ms of calls (a tune's
    is 50 ms)."""

    real_us: dict[str, dict[str, list[float]]] = {}

    def time(self, variants, rounds=3, seconds_per_call=0.05, functions=None):
        before = {v.name: {f: len(t) for f, t in v.rounds_us.items()} for v in variants}
        super().time(variants, rounds, min(seconds_per_call, 0.005), functions)
        for v in variants:
            for f, times in v.rounds_us.items():
                for i in range(before[v.name].get(f, 0), len(times)):
                    PinnedWholeModelTimer.real_us.setdefault(v.name, {}).setdefault(f, []).append(times[i])
                    times[i] = _pinned_us(v.name, f, i)
        return variants


@pytest.mark.slow
def test_tune_host_on_two_functions_times_both_keeps_the_default_and_its_spec(tmp_path, monkeypatch, capsys):
    """One real `tune --target host` of the whole model on an AVX2 part (haswell code, its
    description), whatever this machine is. Every build is compiled and both functions run for
    real; the times the choices are made from are pinned (dispatches: IREE's default 100 us, a
    candidate 50 us; whole model: `_pinned_us`), so there is one outcome: every preset but the one
    IREE refuses timed on both functions and refused, the default kept, its dispatches tuned into
    a verified spec, confirmed on both functions, kept, and written with the recipe that applies
    it. How fast the builds really are is this machine's (bench/ measures it), not asserted."""
    from iree_dsa_tuner.ir.artifacts import compile_model
    from conftest import cli_on, cpu_target

    target = cpu_target("avx2")
    monkeypatch.setattr(target, "make_runner", lambda artifacts, options: FixedDispatchTimes())
    monkeypatch.setattr(host_recipe, "WholeModelTimer", PinnedWholeModelTimer)
    monkeypatch.setattr(PinnedWholeModelTimer, "real_us", {})
    spec, report = tmp_path / "spec.mlir", tmp_path / "report.json"
    monkeypatch.chdir(tmp_path)
    status, out, err = cli_on(target, monkeypatch, capsys, "tune", TWO_FUNCTIONS, "--target", "host", "-o", spec,
                              "--no-db", "--budget", "2", "--repetitions", "1", "--rounds", "2", "--quiet",
                              "--json", report)
    assert status == 0, err
    assert "whole model @proj:" in out and "whole model @attn_scores:" in out
    document = json.loads(report.read_text())["recipe"]
    assert document["functions"] == ["proj", "attn_scores"]
    variants = {v["name"]: _variant(v) for v in document["variants"]}
    default = variants["default"]
    assert default.flags == () and default.spec is None
    # Two presets do not build for haswell, each recorded with IREE's error, never run, and left
    # out: IREE 3.13's inner-tiled lowering cannot legalize attn_scores' batch_matmul under plain
    # data tiling (the unbatch route's preset can), nor @proj's one-row product once the
    # register-tiled script's unit-dimension folding has made it a vector-matrix product (alone in
    # its function, nothing there carries the script's data-tiling hint, so IREE tiles it itself).
    failed = {name: v.error for name, v in variants.items() if v.error}
    assert list(failed) == ["dt+inner-tiled", "register-tiled+unbatch+gdt+inner-tiled"]
    assert "error: failed to legalize operation 'linalg.batch_matmul'" in failed["dt+inner-tiled"]
    assert ("'iree_codegen.inner_tiled' op shape does not match iteration bounds"
            in failed["register-tiled+unbatch+gdt+inner-tiled"])
    assert not set(failed) & set(PinnedWholeModelTimer.real_us)
    # Every build that compiled really ran both functions (IREE's default in every round, --rounds 2),
    # and was judged on both.
    built = [name for name, v in variants.items() if not v.error]
    assert set(PinnedWholeModelTimer.real_us) == set(built) | {"default (again)"}  # and the spec's baseline
    for name in built:
        assert variants[name].functions == ["proj", "attn_scores"], name
        assert all(t > 0 for f in ("proj", "attn_scores") for t in PinnedWholeModelTimer.real_us[name][f]), name
    assert all(len(default.rounds_us[f]) >= 2 for f in ("proj", "attn_scores"))
    # Every preset is 1.5x slower on both functions: each refused, IREE's default build kept.
    presets = [name for name in built if name != "default" and name not in document["spec_candidates"]]
    assert presets and all(slower_functions(variants[name], default) for name in presets)
    # The dispatch search on the default build: both functions' dispatches tuned (a candidate at
    # 50 us beats 100), the spec verified.
    dispatches = document["dispatches"]
    assert dispatches["verified"]
    tuned = [d["dispatch"] for d in dispatches["dispatches"]]
    assert sorted(s.split("_dispatch_")[0] for s in tuned) == ["attn_scores", "proj"]
    assert all(d["chosen"] == "tuned" for d in dispatches["dispatches"])
    # The spec, confirmed exactly on the functions running a dispatch it configures (both), is
    # twice as fast there: kept.
    assert document["spec_candidates"] == ["default+spec"]
    with_spec = variants["default+spec"]
    calls = host_recipe._dispatch_calls(compile_model(TWO_FUNCTIONS, target.compile_flags).configured_text)
    assert with_spec.functions == document["spec_functions"] == functions_holding(
        set(tuned), calls, ["proj", "attn_scores"]) == ["proj", "attn_scores"]
    baseline = _variant(document["spec_baseline"])
    assert baseline.name == "default (again)" and baseline.flags == () and baseline.spec is None
    assert beats(with_spec, baseline) and document["recipe_variant"] == "default+spec"
    # Written: the spec (-o) with a matcher per tuned dispatch, and the recipe beside it, for
    # haswell, IREE's default flags and that spec, every function's times recorded.
    text = spec.read_text()
    assert all(f"match_{d}" in text for d in tuned)
    recipe = load_recipe(tmp_path / "spec.recipe.toml")
    assert (recipe.target_cpu, recipe.flags, recipe.variant) == ("haswell", (), "default+spec")
    assert recipe.functions == ("proj", "attn_scores")
    assert recipe.spec_path().read_text() == text
    import statistics

    assert recipe.function_us["default"] == {f: statistics.median(default.rounds_us[f]) for f in PINNED_US}
    assert recipe.function_us["default"]["proj"] == pytest.approx(PINNED_US["proj"], rel=0.01)


@pytest.mark.parametrize("less_proj, kept", [(92.0, "// spec-less"), (1000.0, "")])
def test_a_spec_that_slows_one_function_is_kept_without_that_functions_dispatches(scripted, monkeypatch,
                                                                                  less_proj, kept):
    # policy_functions.mlir on a Zen 4: the search's spec made @chunk_proj 1.7x faster and @gemma_mlp
    # 11% slower (its own tuned dispatch), and was refused whole. The spec without the slowed
    # function's dispatches is confirmed the same way, and kept only when it beats the build.
    built = []

    def build_verified(artifacts, problems, winners, progress=None):
        built.append(set(winners))
        return SimpleNamespace(text="// spec-less", dropped={})

    monkeypatch.setattr(host_recipe.search_spec, "build_verified", build_verified)
    script = {((), False): {"proj": 1000.0, "attn_scores": 100.0},
              (DT_UK, False): {"proj": 1400.0, "attn_scores": 182.0},
              "default+spec": {"proj": 92.0, "attn_scores": 130.0},
              "default+spec-less": {"proj": less_proj, "attn_scores": 100.0}}
    result, state = scripted(script, ["proj_dispatch_0_matmul", "attn_scores_dispatch_0_batch_matmul"])
    assert built == [{"proj_dispatch_0_matmul"}]  # attn_scores' own dispatch left out
    assert state.timer.timed_on["default+spec-less"] == ["proj", "attn_scores"]
    assert result.spec_text == kept
    notes = " ".join(result.notes)
    if kept:
        assert result.recipe.variant == "default+spec-less"
        assert "the spec made @attn_scores slower: kept without the dispatches they run" in notes
    else:
        assert "not kept" in notes and result.recipe.variant == "default"


def test_the_spec_loses_one_slowed_functions_dispatches_at_a_time_until_it_is_kept(scripted, monkeypatch):
    # Three functions: with the whole spec @attn_scores is slower; without its dispatch @mlp turns
    # out slower (on a shared machine, noise can do that); without both, @proj keeps its win.
    calls = {"proj": {"proj_dispatch_0_matmul": 1}, "attn_scores": {"attn_scores_dispatch_0_batch_matmul": 1},
             "mlp": {"mlp_dispatch_0_matmul": 1}}
    monkeypatch.setattr(host_recipe, "_dispatch_calls", lambda text: calls)
    monkeypatch.setattr(host_recipe, "_entries", lambda a, functions, c: ({f: [] for f in calls}, []))
    built = []

    def build_verified(artifacts, problems, winners, progress=None):
        built.append(set(winners))
        return SimpleNamespace(text=f"// {len(built)}", dropped={})

    monkeypatch.setattr(host_recipe.search_spec, "build_verified", build_verified)
    plain = {"proj": 1000.0, "attn_scores": 100.0, "mlp": 100.0}
    script = {((), False): plain, (DT_UK, False): {**plain, "proj": 1400.0},
              "default+spec": {"proj": 92.0, "attn_scores": 130.0, "mlp": 100.0},
              "default+spec-less": {"proj": 92.0, "attn_scores": 100.0, "mlp": 130.0},
              "default+spec-less2": {"proj": 92.0, "attn_scores": 100.0, "mlp": 100.0}}
    result, state = scripted(script, [d for f in calls.values() for d in f])
    assert built == [{"proj_dispatch_0_matmul", "mlp_dispatch_0_matmul"}, {"proj_dispatch_0_matmul"}]
    assert result.spec_text == "// 2" and result.recipe.variant == "default+spec-less2"
    assert "the spec made @attn_scores, @mlp slower: kept without the dispatches they run" in " ".join(result.notes)
