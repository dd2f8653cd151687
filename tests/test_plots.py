"""`tune --plot`: roofline.png and funnel.png from a DSA tune of mlp3."""

from __future__ import annotations

import subprocess
import sys

import matplotlib  # noqa: F401  (in the test extra: a broken install fails here, it is not skipped)
import pytest

from iree_dsa_tuner.report import plots
from iree_dsa_tuner import TuneOptions, tune

from conftest import INPUTS

MODEL = INPUTS / "mlp3.mlir"
REPO_MANIFESTS = INPUTS.parent.parent / "python" / "iree_dsa_tuner" / "examples" / "manifests"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report():
    return tune(MODEL, "dsa-e1", TuneOptions(budget=6), verify=False).to_json()


def test_report_keeps_what_the_plots_need(report):
    assert report["target_description"]["peak_tops"]["f32"] > 0
    assert report["target_description"]["dram_bandwidth_gbps"] > 0
    for d in report["dispatches"]:
        assert d["flops"] > 0 and d["intensity"] > 0 and d["compute_type"] == "f32"
        assert [s["stage"] for s in d["funnel"]] == ["legal", "roofline", "scratchpad", "latency"]
        counts = plots.funnel_counts(d)
        assert counts[0] == d["space_size"] and counts[4] == d["survivors"] and counts[5] == d["measured"]
        assert counts[:5] == sorted(counts[:5], reverse=True)  # each stage only removes


@pytest.mark.slow
def test_pngs_are_written_and_not_empty(report, tmp_path):
    out = tmp_path / "plots" / "nested"  # created when missing
    paths = plots.write_plots(report, out)
    assert [p.name for p in paths] == [plots.ROOFLINE_PNG, plots.FUNNEL_PNG]
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 10_000


@pytest.mark.slow
def test_cli_plot_writes_both_charts(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "iree_dsa_tuner.cli", "tune", str(MODEL), "--target", "dsa-e1", "-o",
         str(tmp_path / "spec.mlir"), "--no-db", "--budget", "4", "--plot", str(tmp_path / "plots"), "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    for name in (plots.ROOFLINE_PNG, plots.FUNNEL_PNG):
        assert (tmp_path / "plots" / name).stat().st_size > 0
        assert f"plot: {tmp_path / 'plots' / name}" in proc.stdout


def test_missing_matplotlib_is_one_line_before_any_work(tmp_path):
    # A None entry in sys.modules makes `import matplotlib` raise ImportError.
    script = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from iree_dsa_tuner.cli import main\n"
        f"sys.exit(main(['tune', {str(MODEL)!r}, '--target', 'dsa-e1', '-o', {str(tmp_path / 's.mlir')!r}, "
        f"'--no-db', '--plot', {str(tmp_path / 'p')!r}]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--plot needs matplotlib" in lines[0]
    assert not (tmp_path / "s.mlir").exists() and not (tmp_path / "p").exists()


@pytest.mark.slow
def test_task_plot_is_a_png(tmp_path):
    manifest = REPO_MANIFESTS / "diffusion_policy.toml"
    proc = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "task", str(manifest), "--target", "dsa-c1",
                           "--no-library", "--flow-steps", "16,1", "--plot", str(tmp_path / "plots"), "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "plots" / "chunk.png").read_bytes().startswith(PNG_MAGIC)
