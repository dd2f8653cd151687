"""The DSA functional model against IREE running the same DSA schedule.

The candidate becomes a tuning spec; iree-compile applies it (checked by
verify, DSA knobs included) and the module runs on iree.runtime; the
functional model executes the same candidate tile by tile. Integers must be
bit-identical.
"""

from __future__ import annotations

import numpy as np

from iree_dsa_tuner import build_spec, load_problems
from iree_dsa_tuner.compiler import compile_to_vmfb, tuning_spec_flags
from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.tuning_spec.verify import verify_spec
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.functional import random_operands, run_contraction

from conftest import matmul_model, write_model


def test_functional_model_equals_iree_under_the_dsa_spec(tmp_path):
    m, n, k = 16, 128, 256
    model = write_model(tmp_path, "mm.mlir", matmul_model(m, n, k, t="i8", acc="i32", name="mm"))
    (problem,) = load_problems(model)
    target = get_target("dsa-e1")
    best = run_funnel(target.space(problem), target.describe()).survivors(1)[0].candidate
    spec = tmp_path / "spec.mlir"
    spec.write_text(build_spec([problem], {problem.dispatch: target.to_config(problem, best)}))
    report = verify_spec(model, spec, check_numerics=False)
    assert [v.status for v in report.ops] == ["applied"]

    vmfb = tmp_path / "mm.vmfb"
    compile_to_vmfb(model, vmfb, extra_flags=tuning_spec_flags(spec))
    import iree.runtime as rt

    module = rt.load_vm_flatbuffer(vmfb.read_bytes(), driver="local-sync")
    shape = simple_gemm(m, n, k, "i8")
    a, b, _ = random_operands(shape, seed=7)
    iree_out = np.asarray(module.mm(a, b))
    ours, _ = run_contraction(target.describe(), shape, best, a, b)
    assert np.array_equal(iree_out, ours)
