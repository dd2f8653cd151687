"""bench/iree_knobs.py keeps working (its smallest mode; its figures are not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "iree_knobs.py"


@pytest.mark.slow
def test_iree_knobs_quick_prints_every_variant(tmp_path):
    out = tmp_path / "knobs.json"
    proc = subprocess.run([sys.executable, str(BENCH), "--quick", "--json", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for column in ("default us", "data-tiling us", "dt+ukernels us", "tuned us"):
        assert column in proc.stdout
    assert out.exists()
