"""The README's Python example runs as written (it is the pipeline's documented face)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


# What the example prints on dsa-e1 (deterministic simulator, fresh database): dispatch, choice,
# default us, best us (rounded to 3 decimals). A change that moves one fails here.
EXPECTED = [
    ("action_expert_block_dispatch_0_matmul_1x1024x1024_f32", "tuned", 105.525, 70.060),
    ("action_expert_block_dispatch_1_matmul_50x1024x1024_f32", "tuned", 185.311, 81.431),
    ("action_expert_block_dispatch_2_matmul_50x4096x1024_f32", "tuned", 655.944, 290.895),
    ("action_expert_block_dispatch_3_matmul_50x4096x1024_f32", "tuned", 655.944, 290.895),
    ("action_expert_block_dispatch_4_matmul_50x1024x4096_f32", "tuned", 642.391, 289.857),
]


@pytest.mark.slow
def test_the_tune_example_runs_and_writes_a_verified_spec(tmp_path):
    example = next(b for b in python_blocks() if "t.tune(" in b)
    proc = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", example], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    *rows, speedup = proc.stdout.splitlines()
    printed = [(name, chosen, float(default), float(best)) for name, chosen, default, best in map(str.split, rows)]
    assert [(n, c, round(d, 3), round(b, 3)) for n, c, d, b in printed] == EXPECTED
    # The model's speedup is the total default time over the total time of what runs (recomputed
    # here from the per-dispatch lines, not read from the code that computes it).
    runs = sum(b if c == "tuned" else d for _, c, d, b in printed)
    assert float(speedup) == pytest.approx(sum(d for _, _, d, _ in printed) / runs, rel=1e-12)
    assert round(float(speedup), 4) == 2.1943
    assert "compilation_info" in (tmp_path / "spec.mlir").read_text()
    assert (tmp_path / "iree-dsa-tuning.sqlite").exists()
