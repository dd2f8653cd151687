"""The README's Python example runs as written (it is the pipeline's documented face)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_tune_example_runs_and_writes_a_verified_spec(tmp_path):
    example = next(b for b in python_blocks() if "t.tune(" in b)
    proc = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", example], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "tuned" in proc.stdout and float(proc.stdout.split()[-1]) >= 1.0
    assert "compilation_info" in (tmp_path / "spec.mlir").read_text()
    assert (tmp_path / "iree-dsa-tuning.sqlite").exists()
