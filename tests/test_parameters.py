"""Parameter archives (issue 19 item 1): an externalised export's weights read from .irpa files.

lit_tests/inputs/params_mlp.mlir is two nn.Linear layers in the form iree-turbine writes with
`aot.externalize_module_parameters`: every weight is `#flow.parameter.named<"model"::...>`.
Archives are written here from a seed; nothing is committed but the MLIR.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from iree_dsa_tuner.errors import InputError
from iree_dsa_tuner.parameters import (ParameterGlobal, elements_from_bytes, random_value, read_model_parameters,
                                       resolve_parameters, to_archive_bytes, write_archive)

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"
MLP = INPUTS / "params_mlp.mlir"
HASWELL = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=haswell")
SHAPES = {"fc1.weight": (64, 32), "fc1.bias": (64,), "fc2.weight": (16, 64), "fc2.bias": (16,)}


def write_mlp_archive(path: Path, seed: int, **changes) -> dict[str, np.ndarray]:
    """An archive of the MLP's weights from `seed`; `changes` replace (array) or drop (None) a key."""
    rng = np.random.default_rng(seed)
    values = {key: rng.uniform(-0.5, 0.5, shape).astype(np.float32) for key, shape in SHAPES.items()}
    for key, value in changes.items():
        key = key.replace("__", ".")
        if value is None:
            values.pop(key)
        else:
            values[key] = value
    element = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}
    write_archive(path, {ParameterGlobal(k, "model", k, v.shape, element[v.dtype]): v for k, v in values.items()})
    return values


def mlp(values: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    v = {k: a.astype(np.float64) for k, a in values.items()}
    hidden = np.maximum(x @ v["fc1.weight"].T + v["fc1.bias"], 0.0)
    return hidden @ v["fc2.weight"].T + v["fc2.bias"]


def test_the_models_parameter_globals_are_read_with_scope_key_shape_and_type():
    found = read_model_parameters(MLP)
    assert [(p.name, p.scope, p.key, p.shape, p.element) for p in found] == [
        ("__auto.fc1.weight", "model", "fc1.weight", (64, 32), "f32"),
        ("__auto.fc1.bias", "model", "fc1.bias", (64,), "f32"),
        ("__auto.fc2.weight", "model", "fc2.weight", (16, 64), "f32"),
        ("__auto.fc2.bias", "model", "fc2.bias", (16,), "f32")]
    assert found[0].type_text == "tensor<64x32xf32>" and found[0].num_bytes == 64 * 32 * 4


def test_an_unscoped_parameter_and_keys_holding_the_separator_are_read(tmp_path):
    # (IREE 3.13 prints a key's quote unescaped, so a key holding `"` cannot be read back: none does.)
    model = tmp_path / "m.mlir"
    model.write_text('util.global private @a = #flow.parameter.named<"w.q"> : tensor<2xbf16>\n'
                     'util.global private @b = #flow.parameter.named<"s::t"::"k::l"> : tensor<3x1xi8>\n'
                     'util.global private @c = dense<1.0> : tensor<2xf32>\n')
    found = read_model_parameters(model)
    assert [(p.scope, p.key, p.shape, p.element) for p in found] == [
        ("", "w.q", (2,), "bf16"), ("s::t", "k::l", (3, 1), "i8")]


@pytest.mark.parametrize("element", ["f32", "f16", "bf16", "i8", "i32", "i1", "i4", "ui4"])
def test_random_values_round_trip_through_archive_bytes_and_depend_on_the_seed_only(element):
    p = ParameterGlobal("g", "model", "w", (3, 5), element)
    a, b = random_value(p, 7), random_value(p, 7)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, random_value(p, 8))
    raw = to_archive_bytes(p, a)
    assert raw.size == p.num_bytes
    np.testing.assert_array_equal(elements_from_bytes(p.element, p.shape, raw), a)


def test_without_an_archive_random_ones_are_made_once_from_the_seed_and_cached(tmp_path):
    first = resolve_parameters(MLP, seed=3, cache_dir=tmp_path)
    assert first.random and first.seed == 3 and len(first.files) == 1
    assert first.describe().startswith("parameters: none given; random from seed 3 (4 tensors, 0.01 MB;")
    assert first.runtime_flags() == (f"--parameters=model={first.files[0].path}",)
    stamp = first.files[0].path.stat().st_mtime_ns
    again = resolve_parameters(MLP, seed=3, cache_dir=tmp_path)
    assert again.files == first.files and again.files[0].path.stat().st_mtime_ns == stamp
    np.testing.assert_array_equal(again.value("model", "fc1.weight"),
                                  random_value(read_model_parameters(MLP)[0], 3))
    assert resolve_parameters(MLP, seed=4, cache_dir=tmp_path).files != first.files
    assert first.to_record() == {"random_seed": 3, "tensors": 4}


def test_a_given_archive_is_read_as_the_runtime_reads_it_and_recorded_with_its_sha256(tmp_path):
    values = write_mlp_archive(tmp_path / "w.irpa", seed=1)
    given = resolve_parameters(MLP, [f"model={tmp_path / 'w.irpa'}"])
    assert not given.random
    np.testing.assert_array_equal(given.value("model", "fc2.bias"), values["fc2.bias"])
    record = given.to_record()
    assert record["files"] == [f"model={(tmp_path / 'w.irpa').resolve()}"] and len(record["sha256"][0]) == 64


@pytest.mark.parametrize("case, expected", [
    ("missing", "{dir}/nope.irpa: no such file (--parameters=model={dir}/nope.irpa)"),
    ("scope", "{dir}/w.irpa: scope 'other' (--parameters=other={dir}/w.irpa) is not read by {mlp} "
              "(its parameters: scope 'model')"),
    ("lacks", "{dir}/w.irpa: no parameter 'fc2.bias'; {mlp} reads it (scope 'model') as "
              "@__auto.fc2.bias : tensor<16xf32>"),
    ("shape", "{dir}/w.irpa: parameter 'fc1.weight' has shape [32, 64] (float32); {mlp} reads it as "
              "@__auto.fc1.weight : tensor<64x32xf32>"),
    ("dtype", "{dir}/w.irpa: parameter 'fc1.bias' is float16; {mlp} reads it as @__auto.fc1.bias : tensor<64xf32>"),
])
def test_a_bad_archive_is_one_line_naming_the_file_and_the_parameter(tmp_path, case, expected):
    change = {"lacks": {"fc2__bias": None},
              "shape": {"fc1__weight": np.zeros((32, 64), np.float32)},
              "dtype": {"fc1__bias": np.zeros((64,), np.float16)}}.get(case, {})
    write_mlp_archive(tmp_path / "w.irpa", seed=0, **change)
    spec = {"missing": f"model={tmp_path}/nope.irpa", "scope": f"other={tmp_path}/w.irpa"}.get(
        case, f"model={tmp_path}/w.irpa")
    with pytest.raises(InputError) as error:
        resolve_parameters(MLP, [spec])
    assert str(error.value) == expected.format(dir=tmp_path, mlp=MLP)


def test_a_model_without_parameters_refuses_an_archive_and_makes_none(tmp_path):
    plain = INPUTS / "mlp3.mlir"
    assert resolve_parameters(plain, seed=0, cache_dir=tmp_path) is None
    write_mlp_archive(tmp_path / "w.irpa", seed=0)
    with pytest.raises(InputError, match="scope 'model' .* is not read by .*none: it reads no parameters"):
        resolve_parameters(plain, [f"model={tmp_path}/w.irpa"])
    assert list(tmp_path.iterdir()) == [tmp_path / "w.irpa"]


def test_the_numpy_reference_reads_the_archives_values_and_a_different_archive_is_a_mismatch(tmp_path):
    """verify's numerics: the module and numpy read one archive, and they agree; numpy fed another
    archive than the module disagrees (so the check can fail)."""
    from iree_dsa_tuner.ir import compile_model
    from iree_dsa_tuner.tuning_spec.numerics import compare_modules
    from iree_dsa_tuner.tuning_spec.verify import _function_signatures
    from iree_dsa_tuner.compiler import compile_to_vmfb

    values = write_mlp_archive(tmp_path / "a.irpa", seed=11)
    write_mlp_archive(tmp_path / "b.irpa", seed=12)
    a = resolve_parameters(MLP, [f"model={tmp_path}/a.irpa"])
    b = resolve_parameters(MLP, [f"model={tmp_path}/b.irpa"])
    artifacts = compile_model(MLP, HASWELL)
    signatures, outputs, reference = _function_signatures(artifacts, a)
    assert signatures == {"main": [((4, 32), "f32")]}
    x = np.random.default_rng(0).uniform(-1, 1, (4, 32)).astype(np.float32)
    np.testing.assert_allclose(reference("main", x)[0], mlp(values, x.astype(np.float64)), rtol=1e-5, atol=1e-6)
    vmfb = tmp_path / "m.vmfb"
    compile_to_vmfb(MLP, vmfb, target_flags=HASWELL)
    same = compare_modules(vmfb, signatures, outputs, numpy_reference=reference, parameters=a)
    assert [(r.checked, r.ok) for r in same] == [(True, True)]
    _, _, other = _function_signatures(artifacts, b)
    differ = compare_modules(vmfb, signatures, outputs, numpy_reference=other, parameters=a)
    assert [(r.checked, r.ok) for r in differ] == [(True, False)]


def test_the_recipe_records_the_parameters_it_was_timed_with(tmp_path):
    from iree_dsa_tuner.recipe import Recipe, load_recipe

    for record, words in (({"random_seed": 0, "tensors": 4}, "random parameters from seed 0"),
                          ({"files": ["model=/x/w.irpa"], "sha256": ["ab" * 32], "tensors": 4},
                           "parameters --parameters=model=/x/w.irpa")):
        path = tmp_path / "r.recipe.toml"
        path.write_text(Recipe("m.mlir", "0" * 64, "host", parameters=record).to_toml())
        loaded = load_recipe(path)
        assert loaded.parameters == record and loaded.parameters_text() == words


def test_a_recipe_moves_with_its_script_and_archive_and_verify_and_profile_read_them_there(tmp_path):
    """A recipe stores the route script and the archive beside it by file name (the shipped lerobot
    recipes are copied beside the exports), and `verify --recipe` and `profile --recipe` resolve
    them against the recipe's directory, from any working directory. Before, both passed the bare
    script name to iree-compile ("is neither a file nor a directory"), and verify the tuning
    machine's absolute archive path."""
    from iree_dsa_tuner.flags import TRANSFORM_FLAG
    from iree_dsa_tuner.parameters import resolve_parameters
    from iree_dsa_tuner.recipe import Recipe, load_recipe, model_sha256

    tuned = tmp_path / "tuned"
    tuned.mkdir()
    (tuned / "m.spec.route.mlir").write_text(  # a preprocessing script that changes nothing
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {\n"
        "    transform.yield\n  }\n}\n")
    # The archive is a link beside the recipe (the exports stay where they were written): still
    # named by its file name.
    (tmp_path / "exports").mkdir()
    write_mlp_archive(tmp_path / "exports" / "w.irpa", seed=3)
    (tuned / "w.irpa").symlink_to(tmp_path / "exports" / "w.irpa")
    timed_with = resolve_parameters(MLP, [f"model={tuned / 'w.irpa'}"])
    path = tuned / "m.spec.recipe.toml"
    path.write_text(Recipe(str(MLP), model_sha256(MLP), "haswell", (f"{TRANSFORM_FLAG}={tuned / 'm.spec.route.mlir'}",),
                           parameters=timed_with.to_record(), path=path).to_toml())
    text = path.read_text()
    assert 'files = ["model=w.irpa"]' in text and str(tuned) not in text
    moved = tmp_path / "moved"
    tuned.rename(moved)
    recipe = load_recipe(moved / "m.spec.recipe.toml")
    assert recipe.parameter_files() == [f"model={moved / 'w.irpa'}"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = lambda *args: subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", *map(str, args)],  # noqa: E731
                                       capture_output=True, text=True, timeout=600, cwd=elsewhere)
    verified = run("verify", MLP, "--recipe", moved / "m.spec.recipe.toml", "--target", "host")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"model={moved / 'w.irpa'}" in verified.stdout and "OK" in verified.stdout
    profiled = run("profile", MLP, "--recipe", moved / "m.spec.recipe.toml", "--repetitions", "1", "--json")
    assert profiled.returncode == 0, profiled.stderr
    assert json.loads(profiled.stdout)["build"]["flags"] == [f"{TRANSFORM_FLAG}={moved / 'm.spec.route.mlir'}"]
    (moved / "w.irpa").unlink()
    gone = run("verify", MLP, "--recipe", moved / "m.spec.recipe.toml", "--target", "host")
    assert gone.returncode != 0 and "Traceback" not in gone.stderr
    assert f"the archive it was timed with is not there: {moved / 'w.irpa'}; give it with --parameters=model=" \
        in gone.stderr


@pytest.mark.slow
def test_tune_host_times_the_whole_model_on_random_parameters_and_says_so(tmp_path):
    """Issue 19: whole-model timing of an externalised export crashed with "no provider registered
    that handles scopes like 'model'". Now it runs on random weights from the seed, and says so."""
    spec = tmp_path / "spec.mlir"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "tune", str(MLP), "--target", "host",
                           "-o", str(spec), "--no-db", "--budget", "2", "--rounds", "1", "--quiet",
                           "--json", str(tmp_path / "r.json")],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "no provider registered" not in proc.stdout + proc.stderr
    assert "parameters: none given; random from seed 0 (4 tensors, 0.01 MB;" in proc.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    default = report["recipe"]["variants"][0]
    assert default["name"] == "default" and not default["error"] and default["median_us"] > 0
    assert report["parameters"] == {"random_seed": 0, "tensors": 4}
    assert "[parameters]\nrandom_seed = 0" in (tmp_path / "spec.recipe.toml").read_text()


def _manifest(tmp_path: Path, parameters: str | None) -> Path:
    line = f'parameters = ["{parameters}"]\n' if parameters else ""
    path = tmp_path / "policy.toml"
    path.write_text('schema = "iree-dsa-manifest/1"\n[model]\nid = "params_mlp"\nversion = "test"\n'
                    "[task]\nchunk_size = 8\nn_action_steps = 4\nflow_steps = 2\ncontrol_rate_hz = 50\n"
                    f'latency_budget_ms = 0.0001\n[[stage]]\nname = "mlp"\nmlir = "{MLP}"\nrepeat = 2\n'
                    f'per = "flow_step"\n{line}')
    return path


@pytest.mark.parametrize("named", [True, False])
def test_task_verifies_a_stage_spec_with_the_archive_the_stage_names(tmp_path, monkeypatch, capsys, named):
    """dsa-e1: the stage's own archive (relative to the manifest) reaches the spec's numerics;
    a stage naming none gets `task --parameters`."""
    from iree_dsa_tuner import cli
    from iree_dsa_tuner.tuning_spec import verify as verify_module

    write_mlp_archive(tmp_path / "stage.irpa", seed=4)
    manifest = _manifest(tmp_path, "model=stage.irpa" if named else None)
    seen = []
    real = verify_module.compare_modules

    def recording(*args, parameters=None, **kwargs):
        seen.append(parameters)
        return real(*args, parameters=parameters, **kwargs)

    monkeypatch.setattr(verify_module, "compare_modules", recording)
    extra = [] if named else ["--parameters", f"model={tmp_path}/stage.irpa"]
    assert cli.main(["task", str(manifest), "--target", "dsa-e1", "--library", str(tmp_path / "lib"),
                     "--budget", "4", "--quiet", *extra]) == 0
    assert seen and all(p is not None and not p.random for p in seen)
    assert {a.path.resolve() for p in seen for a in p.files} == {(tmp_path / "stage.irpa").resolve()}
    assert "stage mlp: parameters: model=" in capsys.readouterr().out


def test_compile_checks_the_archive_and_prints_the_run_line(tmp_path, capsys):
    from iree_dsa_tuner import cli
    from iree_dsa_tuner.recipe import Recipe, model_sha256

    recipe = tmp_path / "r.recipe.toml"
    recipe.write_text(Recipe(str(MLP), model_sha256(MLP), "haswell", parameters={"random_seed": 0}).to_toml())
    write_mlp_archive(tmp_path / "w.irpa", seed=0)
    write_mlp_archive(tmp_path / "lacks.irpa", seed=0, fc1__bias=None)
    out = tmp_path / "m.vmfb"
    assert cli.main(["compile", str(MLP), "--recipe", str(recipe), "-o", str(out),
                     "--parameters", f"model={tmp_path}/lacks.irpa"]) == 2
    assert not out.exists() and "no parameter 'fc1.bias'" in capsys.readouterr().err
    assert cli.main(["compile", str(MLP), "--recipe", str(recipe), "-o", str(out),
                     "--parameters", f"model={tmp_path}/w.irpa"]) == 0
    assert out.is_file()
    assert (f"run with: iree-run-module --module={out} --parameters=model={tmp_path}/w.irpa ... "
            "(the recipe was timed with random parameters from seed 0)") in capsys.readouterr().out


def test_compile_of_a_two_thread_recipe_runs_on_the_task_device(tmp_path, capsys):
    """A recipe tuned with `tune --threads 2` was timed on IREE's task device with two workers:
    the run line says so, with the device flags that run it that way."""
    from iree_dsa_tuner import cli
    from iree_dsa_tuner.recipe import Recipe, model_sha256

    recipe = tmp_path / "r.recipe.toml"
    recipe.write_text(Recipe(str(MLP), model_sha256(MLP), "haswell", parameters={"random_seed": 0},
                             threads=2).to_toml())
    write_mlp_archive(tmp_path / "w.irpa", seed=0)
    out = tmp_path / "m.vmfb"
    assert cli.main(["compile", str(MLP), "--recipe", str(recipe), "-o", str(out),
                     "--parameters", f"model={tmp_path}/w.irpa"]) == 0
    assert (f"run with: iree-run-module --module={out} --device=local-task --task_topology_max_group_count=2 "
            f"--parameters=model={tmp_path}/w.irpa ... (the recipe was timed with random parameters from seed 0, "
            "on 2 threads)") in capsys.readouterr().out
