"""The iree.build action: an iree.build module tunes a model and compiles it with the spec."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iree_dsa_tuner.examples import DEFAULT_MODEL
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.tuning_spec.verify import verify_spec

REPO = Path(__file__).resolve().parent.parent
# The shipped pi0 set's action-expert spec (its directory is named by the binding's hash).
REPO_SPEC = str(next((Path(__file__).resolve().parent.parent / "transform_specs" / "dsa-e1" / "pi0")
                     .glob("*/action_expert.spec.mlir")).relative_to(Path(__file__).resolve().parent.parent))


def build(module: str, out, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, "--output-dir", str(out), *args], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
def test_the_example_build_module_tunes_and_compiles_with_the_spec(tmp_path):
    proc = build("iree_dsa_tuner.examples.iree_build_example", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    vmfb = tmp_path / "bin" / "pi0_expert" / "pi0_expert.vmfb"
    spec = tmp_path / "genfiles" / "pi0_expert" / "pi0_expert.spec.mlir"
    assert vmfb.stat().st_size > 0 and "compilation_info" in spec.read_text()
    # The spec the module was built with is one IREE applies to this model.
    report = verify_spec(DEFAULT_MODEL, spec, target_flags=get_target("dsa-e1").compile_flags, check_numerics=False)
    assert report.ops and all(v.status == "applied" for v in report.ops)
    # A rebuild reads the measurements back from the build tree's tuning database.
    assert (tmp_path / "genfiles" / "iree-dsa-tuning.sqlite").stat().st_size > 0


def test_a_stored_spec_is_used_as_given(tmp_path):
    module = tmp_path / "build_with_library.py"
    module.write_text(f'''
from iree.build import entrypoint, iree_build_main
from iree_dsa_tuner.build_actions import tuned_compile

@entrypoint
def expert():
    return tuned_compile(name="expert", source={str(DEFAULT_MODEL)!r}, target="dsa-e1", spec={REPO_SPEC!r})

if __name__ == "__main__":
    iree_build_main()
''')
    proc = subprocess.run([sys.executable, str(module), "--output-dir", str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    copied = (tmp_path / "out" / "genfiles" / "expert" / "expert.spec.mlir").read_text()
    assert copied.startswith("// iree-dsa-tune task: pi0") and (tmp_path / "out" / "bin" / "expert" / "expert.vmfb").exists()
