"""Host model level: recipes (whole-model flags + spec), whole-model timing, compile and verify with a recipe."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from iree_dsa_tuner.core.host_isa import host_target_cpu
from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.recipe import Recipe, load_recipe, model_sha256, recipe_path
from iree_dsa_tuner.host.whole_model import MIN_NOISE, Variant, beats, entry_inputs


def constant_weight_model(path, m=1, n=64, k=64, seed=0):
    """A batch-m GEMM whose weights are a util.global constant, the way an importer writes a deployed model."""
    w = np.random.default_rng(seed).standard_normal((k, n)).astype(np.float32)
    values = ", ".join("[" + ", ".join(f"{v:.4f}" for v in row) + "]" for row in w)
    path.write_text(f"""util.global private @w = dense<[{values}]> : tensor<{k}x{n}xf32>
func.func @main(%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{
  %w = util.global.load @w : tensor<{k}x{n}xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%x, %w : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
""")
    return path


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=900, cwd=cwd)


# ---- pure logic ----------------------------------------------------------------------------

def timed(name, times_us=(), **kw):
    """A variant timed on one entry function, @main, one median per round."""
    return Variant(name, rounds_us={"main": list(times_us)} if times_us else {}, **kw)


def test_a_decision_is_kept_only_beyond_the_noise():
    base = timed("default", [100.0, 101.0, 99.0])
    assert beats(timed("a", [90.0, 91.0, 89.0]), base)
    assert not beats(timed("b", [99.0, 99.5, 98.5]), base)  # 1%: under the 2% floor
    noisy = timed("c", [60.0, 90.0, 120.0])  # median 90, rounds 33% apart throughout
    assert noisy.noise == pytest.approx(2 * 30 / 90) and not beats(noisy, base)
    # One round slowed by a neighbour does not hide a 2.5x win.
    outlier = timed("d", [40.0, 41.0, 95.0])
    assert outlier.noise == pytest.approx(2 * 1 / 41) and beats(outlier, base)
    assert timed("one", [5.0]).noise == MIN_NOISE
    assert not beats(timed("failed", error="does not build"), base)


class _ScriptedTimer:
    """WholeModelTimer's settle with timings from a script: {variant name: [time of round 1, 2, ...]}."""

    settle = __import__("iree_dsa_tuner.host.whole_model", fromlist=["WholeModelTimer"]).WholeModelTimer.settle

    def __init__(self, script):
        self.script, self.rounds_run = script, 0

    def time(self, variants, rounds=1, functions=("main",)):
        for _ in range(rounds):
            self.rounds_run += 1
            for f in functions:
                for v in variants:
                    times = v.rounds_us.setdefault(f, [])
                    times.append(self.script[v.name][len(times)])
        return variants


def test_a_preset_far_behind_after_one_round_gets_no_more_rounds_and_is_never_chosen():
    from iree_dsa_tuner.host.recipe.presets import FAR_BEHIND, choose_preset, drop_far_behind, verdict

    default, near, far = timed("default", [100.0]), timed("dt", [60.0]), timed("slow", [60.0 * FAR_BEHIND + 1])
    broken = Variant("broken", error="does not build")
    kept = drop_far_behind([default, near, far, broken], ["main"])
    # The default stays as the reference even when it is the slowest; a broken build is not timed.
    assert kept == [default, near]
    assert far.dropped and "x the fastest" in verdict(far, default)
    # Even faster than the default and with no noise on record, a dropped preset is never kept.
    far.rounds_us["main"] = [50.0]
    near.rounds_us["main"] = [99.0]
    assert choose_preset(default, [near, far]) is not far


def test_settle_adds_rounds_until_a_real_lead_shows_and_stops_on_a_fluke():
    # A 2x win hidden by rounds a neighbour disturbed (measured on a loaded 2-core box:
    # default 110/77/21 ms, data tiling 64/35/27 ms): extra rounds make it show.
    timer = _ScriptedTimer({"default": [110, 77, 21, 76, 78, 77, 77, 76, 78],
                            "dt": [64, 35, 27, 34, 35, 35, 34, 35, 35]})
    default, dt = timed("default", [110, 77, 21]), timed("dt", [64, 35, 27])
    assert not beats(dt, default)
    assert timer.settle(dt, default, most_rounds=9) and timer.rounds_run < 6
    # A lead that is noise: rounds are added up to the cap, and it is still not kept.
    timer = _ScriptedTimer({"default": [100, 60, 140, 100, 60, 140, 100, 60, 140],
                            "fluke": [95, 140, 60, 95, 140, 60, 95, 140, 60]})
    default, fluke = timed("default", [100, 60, 140]), timed("fluke", [95, 140, 60])
    assert not timer.settle(fluke, default, most_rounds=9) and len(fluke.times_us) == 9
    # A candidate that looks slower gets no extra rounds.
    timer = _ScriptedTimer({})
    assert not timer.settle(timed("slow", [120, 121, 119]), timed("default", [100, 101, 99]), 9)
    assert timer.rounds_run == 0


def test_entry_inputs_are_zero_splats_of_the_signature():
    assert entry_inputs([((1, 256), "f32"), ((), "i32")]) == ["--input=1x256xf32=0", "--input=i32=0"]


def test_entry_inputs_of_a_sub_byte_weight_are_packed_zero_bytes(tmp_path):
    # iree-benchmark-module rejects `--input=512x8x128xi4=0`; a file of packed zeros works.
    (activation, weight) = entry_inputs([((1, 1024), "f32"), ((512, 8, 128), "i4")], tmp_path)
    assert activation == "--input=1x1024xf32=0"
    assert weight.startswith("--input=512x8x128xi4=@")
    assert (tmp_path / "input1.i4.bin").read_bytes() == bytes(512 * 8 * 128 // 2)


def test_a_recipe_round_trips_and_names_its_spec(tmp_path):
    model = constant_weight_model(tmp_path / "m.mlir")
    (tmp_path / "spec.mlir").write_text("// a spec\n")
    recipe = Recipe(str(model), model_sha256(model), "haswell", ("--iree-opt-data-tiling",), "spec.mlir",
                    {"default": 10.0, "dt": 4.5}, variant="dt")
    path = recipe_path(tmp_path / "spec.mlir")
    assert path.name == "spec.recipe.toml"
    path.write_text(recipe.to_toml())
    back = load_recipe(path)
    assert back.flags == recipe.flags and back.whole_model_us == {"default": 10.0, "dt": 4.5}
    assert back.variant == "dt"  # the build timed as the recipe: here a preset, with its spec
    assert back.spec_path() == tmp_path / "spec.mlir" and back.uses_data_tiling
    assert back.compile_flags()[0] == "--iree-opt-data-tiling"
    back.check_model(model)
    other = constant_weight_model(tmp_path / "other.mlir", seed=1)
    with pytest.raises(InputError, match="other model bytes"):
        back.check_model(other)


XEON = {"cpu": "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz", "vector_isa": "avx512f"}


def test_a_recipe_names_the_machine_it_was_tuned_on_and_says_when_this_is_another(tmp_path):
    model = constant_weight_model(tmp_path / "m.mlir")
    path = tmp_path / "r.recipe.toml"
    path.write_text(Recipe(str(model), model_sha256(model), "host", tuned_on=dict(XEON)).to_toml())
    back = load_recipe(path)
    assert back.tuned_on == XEON
    assert back.machine_note(**XEON) == ""  # the same machine: nothing to say
    note = back.machine_note(cpu="AMD EPYC", vector_isa="avx512f")
    assert note.startswith(f"note: {path} was tuned on '{XEON['cpu']}' (avx512f), this machine is 'AMD EPYC'")
    assert "iree-dsa-tune tune" in note and "\n" not in note and "may not build" not in note
    # A spec's AVX-512 vector sizes on an AVX2 machine: the one case that can fail to build.
    assert "may not build for avx2" in back.machine_note(cpu=XEON["cpu"], vector_isa="avx2")
    # Compiled for a named CPU, or written before the machine was recorded: nothing to compare.
    assert Recipe(str(model), model_sha256(model), "haswell", tuned_on=dict(XEON)).machine_note(cpu="x") == ""
    assert Recipe(str(model), model_sha256(model), "host").machine_note(cpu="x") == ""


def test_compile_with_a_recipe_tuned_elsewhere_says_so_on_stderr(tmp_path):
    model = constant_weight_model(tmp_path / "m.mlir")
    elsewhere = {"cpu": "a CPU this test is never run on", "vector_isa": "avx512f"}
    path = tmp_path / "r.recipe.toml"
    path.write_text(Recipe(str(model), model_sha256(model), "host", tuned_on=elsewhere).to_toml())
    shown = cli("compile", model, "--recipe", path, "--print")
    assert shown.returncode == 0 and shown.stdout.startswith("iree-compile "), shown.stderr
    assert f"was tuned on '{elsewhere['cpu']}'" in shown.stderr and "this machine is" in shown.stderr
    assert "tuned on" not in shown.stdout  # the command line stays clean for a build system to take


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('iree-dsa-recipe/1', 'v0'), "key 'schema'"),
    (lambda t: t.replace('spec = ""', 'spec = "missing.mlir"'), "key 'spec': no such file"),
    (lambda t: t.replace('flags = []', 'flags = ["data-tiling"]'), "key 'flags'"),
    (lambda t: t.replace('functions = []', 'functions = []\nvariant = 3'), "key 'variant'"),
    (lambda t: t + '\n[tuned_on]\ncpu = 3\n', "key 'tuned_on'"),
])
def test_a_broken_recipe_is_one_line(tmp_path, edit, message):
    model = constant_weight_model(tmp_path / "m.mlir")
    text = Recipe(str(model), model_sha256(model), "host").to_toml()
    path = tmp_path / "r.recipe.toml"
    path.write_text(edit(text))
    with pytest.raises(InputError, match=message) as e:
        load_recipe(path)
    assert "\n" not in str(e.value)


# ---- end to end on this CPU ------------------------------------------------------------------

@pytest.mark.slow
def test_tune_host_writes_a_recipe_that_compile_and_verify_take(tmp_path):
    model = constant_weight_model(tmp_path / "deployed.mlir", m=1, n=128, k=128)
    spec = tmp_path / "spec.mlir"
    spec.write_text("// stale: from an earlier run\n")
    tuned = cli("tune", model, "--target", "host", "-o", spec, "--no-db", "--budget", "2", "--repetitions", "1",
                "--rounds", "2", "--quiet", cwd=tmp_path)
    assert tuned.returncode == 0, tuned.stderr
    assert "whole model @main" in tuned.stdout and "default" in tuned.stdout
    recipe = load_recipe(tmp_path / "spec.recipe.toml")
    assert "default" in recipe.whole_model_us and recipe.target_cpu == host_target_cpu()  # `host`, or a cap's level
    assert recipe.tuned_on["cpu"] and recipe.machine_note() == ""  # this machine's timings, recorded as such
    from iree_dsa_tuner.core.fingerprint import host_cpu_id

    assert recipe.tuned_on.get("cpu_id", "") == host_cpu_id()  # and its microarchitecture where /proc says it
    if recipe.spec:
        assert "compilation_info" in spec.read_text()
    else:
        assert not spec.exists()  # no stale spec is left for a build to pick up
    built = cli("compile", model, "--recipe", tmp_path / "spec.recipe.toml", "-o", tmp_path / "m.vmfb")
    assert built.returncode == 0 and (tmp_path / "m.vmfb").stat().st_size > 0, built.stderr
    shown = cli("compile", model, "--recipe", tmp_path / "spec.recipe.toml", "--print")
    assert shown.stdout.startswith("iree-compile ") and all(f in shown.stdout for f in recipe.flags)
    verified = cli("verify", model, "--recipe", tmp_path / "spec.recipe.toml")
    assert verified.returncode == 0 and "match" in verified.stdout, verified.stdout + verified.stderr


def test_data_tiling_presets_are_left_out_of_a_model_without_contractions():
    # A model of elementwise work only: data tiling, im2col and attention decomposition have
    # nothing to act on, so their presets are IREE's default build again and are not timed (one
    # of several equal builds winning is chance). Each acts only on what it names.
    from types import SimpleNamespace

    from iree_dsa_tuner.flags import DECOMPOSE_ATTENTION_FLAG, IM2COL_FLAG, uses_data_tiling
    from iree_dsa_tuner.host.recipe.presets import presets_that_apply
    from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS

    def model(*kinds, batch1_convs=()):
        return SimpleNamespace(problems=lambda: [SimpleNamespace(kind=k) for k in kinds],
                               batch1_convs=list(batch1_convs))

    kept, skipped = presets_that_apply(model("none"), FLAG_PRESETS)
    assert "default" in kept and "aggressive-fusion" in kept
    assert skipped and all(uses_data_tiling(FLAG_PRESETS[name]) or IM2COL_FLAG in FLAG_PRESETS[name]
                           or DECOMPOSE_ATTENTION_FLAG in FLAG_PRESETS[name] for name in skipped)
    assert not any(uses_data_tiling(flags) or IM2COL_FLAG in flags or DECOMPOSE_ATTENTION_FLAG in flags
                   for flags in kept.values())
    assert {"gdt", "im2col+gdt", "attn-decomposed+gdt"} <= set(skipped)
    # An attention op alone: decomposed, it is two matmuls, so data tiling comes with it; alone, not.
    kept, skipped = presets_that_apply(model("attention"), FLAG_PRESETS)
    assert {"attn-decomposed", "attn-decomposed+dt"} <= set(kept) and "dt" in skipped and "im2col" in skipped
    kept, skipped = presets_that_apply(model("contraction"), FLAG_PRESETS)
    assert {"dt", "gdt"} <= set(kept) and "im2col" in skipped and "attn-decomposed+dt" in skipped
    kept, skipped = presets_that_apply(model("convolution"), FLAG_PRESETS)
    assert "im2col+dt" in kept and skipped == [n for n, f in FLAG_PRESETS.items() if DECOMPOSE_ATTENTION_FLAG in f]
    # A refused batch-1 conv still counts: the conv route + data tiling acts on it.
    skipped = presets_that_apply(model("none", batch1_convs=["conv"]), FLAG_PRESETS)[1]
    assert skipped == [n for n, f in FLAG_PRESETS.items() if DECOMPOSE_ATTENTION_FLAG in f]


def test_data_tiling_is_on_with_exactly_one_of_its_two_flags():
    # IREE 3.13 turns data tiling off, silently, when both paths' flags are given
    # (docs/DATA_TILING.md): no preset may carry both, and a recipe with both does not use it.
    from iree_dsa_tuner.flags import DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG, uses_data_tiling
    from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS
    from iree_dsa_tuner.host.routes.batch1_conv import route_presets

    assert uses_data_tiling((GLOBAL_DATA_TILING_FLAG,)) and uses_data_tiling(("--x", DATA_TILING_FLAG))
    assert not uses_data_tiling((DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG)) and not uses_data_tiling(())
    route = route_presets(("--iree-preprocessing-transform-spec-filename=taps.mlir",))
    for name, flags in {**FLAG_PRESETS, **route}.items():
        assert not (DATA_TILING_FLAG in flags and GLOBAL_DATA_TILING_FLAG in flags), name
    assert uses_data_tiling(route["conv-route+gdt"]) and not uses_data_tiling(route["conv-route"])
    assert Recipe("m.mlir", "0" * 64, "host", flags=(GLOBAL_DATA_TILING_FLAG,)).uses_data_tiling


def _mmt4d_spec_and_recipe(tmp_path, recipe_flags=("--iree-global-opt-data-tiling",), header: str | None = None):
    """A spec for the global path's mmt4d dispatch of a small matmul (its flags header replaced by
    `header` when given) and a recipe with `recipe_flags` beside it: (model, spec)."""
    from conftest import INPUTS

    from iree_dsa_tuner.flags import FLAGS_HEADER

    model = INPUTS / "data_tiling" / "matmul_64x128x256.mlir"
    spec = tmp_path / "spec.mlir"
    made = cli("spec", model, "--plan", INPUTS / "plans" / "mmt4d_whole_rows.plan.json", "--target", "dsa-e1",
               "--iree-flag=--iree-global-opt-data-tiling", "-o", spec)
    assert made.returncode == 0, made.stderr
    if header is not None:
        lines = spec.read_text().splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if line.startswith(FLAGS_HEADER))
        lines[at] = f"{FLAGS_HEADER}{header}\n"
        spec.write_text("".join(lines))
    recipe = Recipe(str(model), model_sha256(model), "host", flags=tuple(recipe_flags), spec=spec.name,
                    functions=("matmul",))
    (tmp_path / "spec.recipe.toml").write_text(recipe.to_toml())
    return model, spec


def test_verify_with_a_recipe_finds_the_dispatches_its_flags_make(tmp_path):
    # A recipe on the global data-tiling path with a spec for its mmt4d dispatch: `verify --recipe`
    # must look for the spec's dispatch in the recipe's build, not in the plain model (which has a
    # plain matmul there, so every matcher was "not applied").
    model, _ = _mmt4d_spec_and_recipe(tmp_path)
    verified = cli("verify", model, "--recipe", tmp_path / "spec.recipe.toml", "--target", "dsa-e1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "matmul_dispatch_2_mmt4d_8x16x256x8x8x1_f32" in verified.stdout and "1/1 applied; OK" in verified.stdout


def test_verify_with_a_recipe_takes_its_flags_over_the_spec_headers_for_the_same_option(tmp_path):
    # A shipped recipe names its copy of a route's script; its spec's header still names the path
    # the spec was tuned with, gone on another machine. The recipe's wins (before, both reached
    # iree-compile and the header's, given last, failed the build).
    from iree_dsa_tuner.flags import TRANSFORM_FLAG

    script = tmp_path / "route.mlir"  # a preprocessing script that changes nothing
    script.write_text("module attributes {transform.with_named_sequence} {\n"
                      "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {\n"
                      "    transform.yield\n  }\n}\n")
    gone = tmp_path / "tune-dir" / "route.mlir"
    model, spec = _mmt4d_spec_and_recipe(tmp_path, (f"{TRANSFORM_FLAG}={script}", "--iree-global-opt-data-tiling"),
                                         header=f"{TRANSFORM_FLAG}={gone} --iree-global-opt-data-tiling")
    verified = cli("verify", model, "--recipe", tmp_path / "spec.recipe.toml", "--target", "dsa-e1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "1/1 applied; OK" in verified.stdout and str(gone) not in verified.stdout
    # Without the recipe, the header is all there is: its missing script is an error naming it.
    alone = cli("verify", model, spec, "--target", "dsa-e1")
    assert alone.returncode != 0 and str(gone) in alone.stdout + alone.stderr


def test_a_recipe_names_the_script_beside_it_by_name_and_moves_with_it(tmp_path):
    """`tune` writes a route's transform script beside the recipe with an absolute path in its
    flags; the recipe stores the name, so a copy of the directory (the shipped lerobot recipes)
    builds where it lands, and a script that is gone is a one-line error naming it."""
    from iree_dsa_tuner.flags import TRANSFORM_FLAG

    tuned = tmp_path / "tuned"
    tuned.mkdir()
    (tuned / "m.spec.unbatch.mlir").write_text("// script")
    model = tmp_path / "m.mlir"
    model.write_text("// model")
    path = tuned / "m.spec.recipe.toml"
    recipe = Recipe(str(model), model_sha256(model), "host",
                    (f"{TRANSFORM_FLAG}={tuned / 'm.spec.unbatch.mlir'}", "--iree-global-opt-data-tiling"), path=path)
    path.write_text(recipe.to_toml())
    assert f'"{TRANSFORM_FLAG}=m.spec.unbatch.mlir"' in path.read_text()
    moved = tmp_path / "moved"
    tuned.rename(moved)
    flags = load_recipe(moved / "m.spec.recipe.toml").compile_flags()
    assert flags == (f"{TRANSFORM_FLAG}={moved / 'm.spec.unbatch.mlir'}", "--iree-global-opt-data-tiling")
    (moved / "m.spec.unbatch.mlir").unlink()
    with pytest.raises(InputError, match=r"key 'flags': no such file: .*m\.spec\.unbatch\.mlir"):
        load_recipe(moved / "m.spec.recipe.toml")


def test_every_route_module_of_the_host_package_is_planned_and_timed_in_its_ranks():
    """A new route is only its own module: the host's routes are found by listing host/routes/,
    planned in PLAN_RANK order (a route after the ones whose plan it reads) and their presets timed
    in PRESET_RANK order."""
    import pkgutil

    from iree_dsa_tuner.host import routes

    names = lambda modules: [m.__name__.rpartition(".")[2] for m in modules]  # noqa: E731
    found = {info.name for info in pkgutil.iter_modules(routes.__path__)} - {"planning"}
    assert set(names(routes.ROUTES)) == found
    assert names(routes.ROUTES) == ["batch1_conv", "packed_taps", "k_split", "unbatch", "conv_fold", "winograd",
                                    "register_tiled"]
    assert names(routes.PRESET_ORDER) == ["batch1_conv", "packed_taps", "conv_fold", "winograd", "k_split", "unbatch",
                                          "register_tiled"]
    plan_order = names(routes.ROUTES)
    assert plan_order.index("k_split") < plan_order.index("unbatch") < plan_order.index("conv_fold")


def test_one_model_name_over_two_microarchitectures_is_told_apart_by_the_cpu_id(tmp_path):
    """A cloud's "AMD EPYC" was a Zen 4 one day and a Zen 5 the next: a recipe that records its
    family and model says when it meets the other; one written before it did compares name and ISA."""
    zen5 = {"cpu": "AMD EPYC", "vector_isa": "avx512f", "cpu_id": "family 26 model 2"}
    model = constant_weight_model(tmp_path / "m.mlir")
    path = tmp_path / "r.recipe.toml"
    path.write_text(Recipe(str(model), model_sha256(model), "host", tuned_on=dict(zen5)).to_toml())
    back = load_recipe(path)
    assert back.tuned_on == zen5
    assert back.machine_note(cpu="AMD EPYC", vector_isa="avx512f", cpu_id="family 26 model 2") == ""
    note = back.machine_note(cpu="AMD EPYC", vector_isa="avx512f", cpu_id="family 25 model 17")
    assert ("was tuned on 'AMD EPYC' (family 26 model 2) (avx512f), this machine is 'AMD EPYC' "
            "(family 25 model 17) (avx512f)") in note
    older = Recipe(str(model), model_sha256(model), "host", tuned_on={"cpu": "AMD EPYC", "vector_isa": "avx512f"})
    assert older.machine_note(cpu="AMD EPYC", vector_isa="avx512f", cpu_id="family 25 model 17") == ""


def test_the_cpu_id_reads_x86_family_and_model_and_an_arm_core_part(tmp_path):
    from iree_dsa_tuner.core.fingerprint import host_cpu_id

    x86 = tmp_path / "x86"
    x86.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                   "model name\t: AMD EPYC\n\nprocessor\t: 1\ncpu family\t: 99\nmodel\t\t: 9\n")
    assert host_cpu_id(x86) == "family 26 model 2"
    arm = tmp_path / "arm"
    arm.write_text("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n")
    assert host_cpu_id(arm) == "implementer 0x41 part 0xd0c"
    assert host_cpu_id(tmp_path / "missing") == ""
