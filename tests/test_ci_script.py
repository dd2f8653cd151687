""".ci/run fails when the README's test command fails.

`set -e` does not stop on the left side of `&&`: with `python -m pytest -q && lit -v lit_tests`
alone, a failing pytest skipped lit and the run still ended with "== ci: all passed". These tests
run the script's own test-command block, with `python` and `lit` replaced by stubs.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

CI_RUN = Path(__file__).resolve().parent.parent / ".ci" / "run"
TEST_COMMAND = "python -m pytest -q && lit -v lit_tests"


def ci_test_command_block() -> str:
    """The lines of .ci/run that run the README's test command, through the end of its check."""
    lines = CI_RUN.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(TEST_COMMAND))
    end = start
    if lines[start].rstrip().endswith("{"):
        end = next(i for i in range(start, len(lines)) if lines[i].strip() == "}")
    return "\n".join(lines[start:end + 1])


@pytest.mark.parametrize("pytest_rc, lit_rc, passes", [(0, 0, True), (1, 0, False), (0, 1, False)])
def test_ci_stops_when_the_test_command_fails(tmp_path, pytest_rc, lit_rc, passes):
    script = tmp_path / "block.sh"
    script.write_text("set -euo pipefail\n"
                      f"python() {{ echo pytest-ran; return {pytest_rc}; }}\n"
                      f"lit() {{ echo lit-ran; return {lit_rc}; }}\n"
                      + ci_test_command_block() + "\necho '== ci: all passed'\n")
    proc = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=30)
    assert ("== ci: all passed" in proc.stdout) == passes
    assert (proc.returncode == 0) == passes
    assert ("lit-ran" in proc.stdout) == (pytest_rc == 0)  # lit runs only after pytest passed
