"""`task` on a real export whose manifest names a quantised scheme: the stage is quantised for real
(docs/QUANT.md), its quantised dispatches are what is timed and tuned, and the report carries its
accuracy against f32."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from iree_dsa_tuner.search.options import TuneOptions
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.task.manifest import load_manifest
from iree_dsa_tuner.task.run import run_task

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "lit_tests/inputs/lerobot/pi0_expert_w4a8.toml"


@pytest.fixture(scope="module")
def expert_row(tmp_path_factory):
    """docs/TASK.md's expert row as `python bench/quant_task.py` makes it (`run_row`, budget 8, a
    library of its own), and every `task` run that made it: (the row's result, [each run's result]).
    The first is `task` on the manifest as a user runs it, a fresh tune into an empty library."""
    sys.path.insert(0, str(ROOT / "bench"))
    import quant_task

    runs = []

    def recorded(*args, **kwargs):
        runs.append(run_task(*args, **kwargs))
        return runs[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(quant_task, "run_task", recorded)
        result = quant_task.run_row(load_manifest(MANIFEST), get_target("dsa-e1"), 8, 1.2, None,
                                    tmp_path_factory.mktemp("expert") / "lib")
    return result, runs


def test_task_times_the_real_quantised_expert_and_reports_its_accuracy(expert_row):
    manifest = load_manifest(MANIFEST)
    result = expert_row[1][0]  # the docs row's first run: tuned afresh and stored (budget 8)
    assert not result.reused and result.spec_set is not None
    q = result.quantization["expert"]
    assert q["quantized"] and q["forms"] == {"float": 1, "w4a8 G128 symmetric f32": 7}
    assert 0 < q["accuracy"]["rel_l2"] <= manifest.quant_max_rel_l2
    assert q["accuracy"]["cosine"] > 0.99
    timed = [a for a in result.after.amdahl if "i8xi4" in a["dispatch"]]
    # Seven linears (k and v share one dispatch, called twice), each timed on the simulator.
    assert sum(a["calls"] for a in timed) == 7 and all(a["how"] in ("measured", "tuned") for a in timed)
    # The weights as stored: 4-bit codes and their scales, not re-typed f32 tensors.
    assert q["weight_bytes"]["quantized"] < q["weight_bytes"]["float"] / 7
    # The spec set was verified on the quantised model and names its dispatches.
    spec = (result.spec_set.directory / "expert.spec.mlir").read_text()
    assert "i8xi4xi8xi32" in spec or "cast_compatible_dag_from_root" in spec


def test_weights_the_manifest_names_as_arguments_are_quantised_too():
    """torch_expert.toml's stages take their Linear weights as arguments (`weight_arguments`): they
    become seeded parameters, are quantised, and the f32 transposes of those weights leave the chunk."""
    manifest = load_manifest(ROOT / "lit_tests/inputs/manifests/torch_expert_quantized.toml")
    result = run_task(manifest, get_target("dsa-e1"), TuneOptions(budget=1), tune=False)
    assert {s: q["forms"] for s, q in result.quantization.items()} == {"attention_block": {"w8a8": 4},
                                                                       "mlp": {"w8a8": 3}}
    # The what-if spent 82% of its chunk in `transpose_1024x256_f32`-style copies of the weights.
    weight_shapes = ("1024x256", "256x1024", "128x128")
    assert not [a for a in result.after.amdahl if "transpose" in a["dispatch"]
                and any(f"transpose_{s}_" in a["dispatch"] for s in weight_shapes)]
    assert all(q["accuracy"]["rel_l2"] < 0.05 for q in result.quantization.values())


def test_a_stage_that_cannot_be_quantised_stays_a_named_what_if():
    manifest = load_manifest(ROOT / "python/iree_dsa_tuner/examples/manifests/pi0.toml")
    from iree_dsa_tuner.task.run import quantized_stage

    assert quantized_stage(manifest, manifest.stages[0]) is None  # weights are arguments, none named
    from iree_dsa_tuner.task.run import _quantization_record

    record = _quantization_record(manifest, {"vision": None})
    assert not record["vision"]["quantized"] and "what-if" in record["vision"]["reason"]


_DEPTHWISE_STAGE = """
util.global private @dw.weight = #flow.parameter.named<"model"::"dw.weight"> : tensor<64x3xf32>
func.func @main(%x: tensor<1x64x34xf32>) -> tensor<1x64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w = util.global.load @dw.weight : tensor<64x3xf32>
  %e = tensor.empty() : tensor<1x64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x32xf32>) -> tensor<1x64x32xf32>
  %y = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%x, %w : tensor<1x64x34xf32>, tensor<64x3xf32>) outs(%acc : tensor<1x64x32xf32>) -> tensor<1x64x32xf32>
  return %y : tensor<1x64x32xf32>
}
"""


def test_a_stage_that_holds_its_weights_but_nothing_to_quantise_stays_f32_not_re_typed(tmp_path):
    """A depthwise convolution has no whole output channel to quantise: its stage runs in f32 as
    exported (a what-if re-typing would describe a model nobody wrote)."""
    from iree_dsa_tuner.task.run import FLOAT_STAGE, _quantization_record, quantized_stage

    (tmp_path / "dw.mlir").write_text(_DEPTHWISE_STAGE)
    (tmp_path / "m.toml").write_text(
        'schema = "iree-dsa-manifest/1"\n[model]\nid = "dw"\nversion = "1"\n[task]\nchunk_size = 8\n'
        'n_action_steps = 8\nflow_steps = 1\ncontrol_rate_hz = 10\nlatency_budget_ms = 100\n'
        '[quant]\nscheme = "w8a8"\n'
        '[[stage]]\nname = "dw"\nmlir = "dw.mlir"\nrepeat = 1\nper = "chunk"\n')
    manifest = load_manifest(tmp_path / "m.toml")
    assert quantized_stage(manifest, manifest.stages[0]) == FLOAT_STAGE
    assert "runs in f32, as exported" in _quantization_record(manifest, {"dw": FLOAT_STAGE})["dw"]["reason"]


def _docs_row(manifest_id: str) -> list[str]:
    import re

    text = (ROOT / "docs/TASK.md").read_text()
    block = text.split("<!-- bench/quant_task.py dsa-e1 begin -->")[1].split("<!-- bench/quant_task.py dsa-e1 end -->")[0]
    line = next(line for line in block.splitlines() if line.startswith(f"{manifest_id} "))
    return re.split(r"\s{2,}", line.strip())


def test_the_quantised_expert_row_in_the_docs_reproduces(expert_row):
    """docs/TASK.md's row, as `python bench/quant_task.py` prints it (budget 8)."""
    from quant_task import row  # bench/: on the path since `expert_row`

    result, _ = expert_row
    cells, _ = row(result, 1.2, None, get_target("dsa-e1"))
    assert cells == _docs_row("lerobot_pi0_expert")
