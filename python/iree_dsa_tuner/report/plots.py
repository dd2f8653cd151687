"""`tune --plot DIR`: the roofline and the funnel of a tuning run as PNGs.

Both charts are drawn from the JSON report (`TuneResult.to_json()`), so a saved
`--json` report can be plotted again later. matplotlib is optional (the `plot`
extra); `check_plotting` says so in one line before any tuning starts.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.reasons import FUNNEL_STAGES

ROOFLINE_PNG = "roofline.png"
FUNNEL_PNG = "funnel.png"

# Funnel stages in the order candidates pass them, in a DSA's words (core.reasons.FUNNEL_STAGES);
# a report names its target's own stages (a CPU's third is "cache"), and the bars follow it.
_FUNNEL_BARS = ("space", *FUNNEL_STAGES, "measured")
# How the title calls a stage where its name alone says too little.
_STAGE_TITLES = {"scratchpad": "scratchpad/DMA"}


class PlotError(RuntimeError):
    """Plots cannot be written; the message is one line for the user."""


def check_plotting(directory: str | os.PathLike) -> Path:
    """matplotlib importable and DIR writable (created if missing), else PlotError."""
    try:
        import matplotlib  # noqa: F401  (only probing that it is installed)
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install 'iree-dsa-tuner[plot]' (or matplotlib>=3.8)") from None
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise PlotError(f"{path}: --plot needs a directory, this is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{path}: cannot create the plot directory: {e.strerror}") from None
    if not os.access(path, os.W_OK):
        raise PlotError(f"{path}: cannot write: permission denied")
    return path


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on build machines and CI
    import matplotlib.pyplot as plt

    return plt


def _gops(flops: float, time_us: float | None) -> float | None:
    return flops / time_us / 1e3 if flops and time_us else None


def plot_roofline(report: dict, path: str | os.PathLike) -> Path:
    """Log-log attainable GOP/s vs arithmetic intensity: the target's roofs, each dispatch's
    default point (hollow) and tuned point (filled), labelled by its index in the report."""
    plt = _pyplot()
    desc = report.get("target_description") or {}
    peaks = desc.get("peak_tops") or {}
    bandwidth_gbps = desc.get("dram_bandwidth_gbps")
    dispatches = report.get("dispatches", [])
    fig, ax = plt.subplots(figsize=(8, 5.5))
    points = []
    for i, d in enumerate(dispatches):
        default = _gops(d.get("flops"), d.get("default_us"))
        tuned = _gops(d.get("flops"), d.get("best_us"))
        if d.get("intensity") and (default or tuned):
            points.append((i, d, default, tuned))
    intensities = [d["intensity"] for _, d, _, _ in points] or [1.0]
    types = sorted({d.get("compute_type") for _, d, _, _ in points if d.get("compute_type") in peaks}) \
        or sorted(peaks)[:1]
    ridges = [peaks[t] * 1e3 / bandwidth_gbps for t in types if bandwidth_gbps]
    lo = min(intensities + ridges) / 4
    hi = max(intensities + ridges) * 4
    xs = [lo * (hi / lo) ** (j / 200) for j in range(201)]
    for t in types:
        peak_gops = peaks[t] * 1e3
        ys = [min(peak_gops, bandwidth_gbps * x) if bandwidth_gbps else peak_gops for x in xs]
        ax.plot(xs, ys, linewidth=1.5, label=f"roof {t}: {peak_gops:,.0f} GOP/s"
                + (f", {bandwidth_gbps:g} GB/s" if bandwidth_gbps else ""))
    for i, d, default, tuned in points:
        x = d["intensity"]
        if default:
            ax.scatter([x], [default], facecolors="none", edgecolors="tab:red", s=50, zorder=3)
        if tuned:
            ax.scatter([x], [tuned], color="tab:green", s=40, zorder=4)
        if default and tuned and tuned != default:
            ax.annotate("", xy=(x, tuned), xytext=(x, default),
                        arrowprops={"arrowstyle": "->", "color": "grey", "linewidth": 0.8})
        ax.annotate(str(i), (x, tuned or default), textcoords="offset points",
                    xytext=(6 + 10 * (i % 4), 4 - 9 * (i % 4)), fontsize=8)  # staggered: close dispatches stay readable
    ax.scatter([], [], facecolors="none", edgecolors="tab:red", label="IREE default")
    ax.scatter([], [], color="tab:green", label="tuned (chosen)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (op/byte, compulsory traffic)")
    ax.set_ylabel("attained GOP/s (flops / time)")
    ax.set_title(f"{Path(report.get('model', '')).name} on {report.get('target', '?')}: roofline")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def funnel_bars(report: dict) -> tuple[str, ...]:
    """"space", the funnel's stages as the report's target names them, "measured"."""
    for d in report.get("dispatches", []):
        names = tuple(s["stage"] for s in d.get("funnel") or ())
        if len(names) == len(FUNNEL_STAGES):
            return ("space", *names, "measured")
    return _FUNNEL_BARS


def funnel_counts(dispatch: dict) -> list[int]:
    """Candidates entering the funnel, left after each stage, then measured (incl. cached)."""
    funnel = dispatch.get("funnel") or []
    stages = {s["stage"]: s for s in funnel}
    space = dispatch.get("space_size") or (stages["legal"]["entered"] if "legal" in stages else 0)
    counts = [space]
    # Stage by position: the names are the target's (a CPU's third stage is "cache").
    names = [s["stage"] for s in funnel] if len(funnel) == len(FUNNEL_STAGES) else list(FUNNEL_STAGES)
    for name in names:
        counts.append(stages[name]["left"] if name in stages else 0)
    counts.append((dispatch.get("measured") or 0) + (dispatch.get("cached") or 0))
    return counts


def plot_funnel(report: dict, path: str | os.PathLike) -> Path:
    """Per dispatch, grouped bars: the space, what is left after each funnel stage, what was measured."""
    plt = _pyplot()
    # Indices as in the report (and the roofline chart's labels).
    indexed = [(i, d) for i, d in enumerate(report.get("dispatches", [])) if d.get("funnel")]
    dispatches = [d for _, d in indexed]
    bars_of = funnel_bars(report)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(dispatches) + 3), 5))
    width = 0.8 / len(bars_of)
    for j, stage in enumerate(bars_of):
        heights = [max(funnel_counts(d)[j], 0) for d in dispatches]
        xs = [i + (j - (len(bars_of) - 1) / 2) * width for i in range(len(dispatches))]
        label = {"space": "space", "measured": "measured"}.get(stage, f"after {stage}")
        bars = ax.bar(xs, [h if h > 0 else 0.8 for h in heights], width, label=label)
        for bar, h in zip(bars, heights):
            ax.annotate(str(h), (bar.get_x() + bar.get_width() / 2, max(h, 1)), ha="center", va="bottom",
                        fontsize=6, rotation=90, textcoords="offset points", xytext=(0, 2))
    ax.set_yscale("log")
    ax.set_xticks(range(len(dispatches)))
    ax.set_xticklabels([f"{i}\n{d.get('shape', '').split(' ')[1] if ' ' in d.get('shape', '') else ''}"
                        for i, d in indexed], fontsize=8)
    ax.set_ylabel("candidates")
    path_text = " -> ".join(_STAGE_TITLES.get(s, s) for s in bars_of[1:-1])
    ax.set_title(f"{Path(report.get('model', '')).name} on {report.get('target', '?')}: funnel\n"
                 f"({path_text}) and measurements", fontsize=10)
    top = max((max(funnel_counts(d)) for d in dispatches), default=1)
    ax.set_ylim(0.7, top * 40)  # head room for the legend above the tallest bars
    ax.legend(fontsize=8, ncol=3)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def write_plots(report: dict, directory: str | os.PathLike) -> list[Path]:
    """Both charts into DIR; returns their paths."""
    out = check_plotting(directory)
    return [plot_roofline(report, out / ROOFLINE_PNG), plot_funnel(report, out / FUNNEL_PNG)]


TASK_PNG = "chunk.png"


def plot_task(report: dict, path: str | os.PathLike) -> Path:
    """One action chunk: each stage's ms with IREE's defaults and tuned, the budget and the physical
    limit as lines, and (right) the chunk per flow-step variant when the report has them."""
    plt = _pyplot()
    variants = report.get("variants") or []
    fig, axes = plt.subplots(1, 2 if variants else 1, figsize=(11 if variants else 7, 4.2), squeeze=False)
    ax = axes[0][0]
    stages = report["stages"]
    before = {s["name"]: s["ms"] for s in report["before"]["stages"]}
    bottom_default = bottom_tuned = 0.0
    for i, s in enumerate(stages):  # one colour per stage in both bars
        ax.bar(0, before[s["name"]], bottom=bottom_default, width=0.6, edgecolor="black", color=f"C{i}",
               label=f"{s['name']} (x{s['repeat']} per {s['per']})")
        bottom_default += before[s["name"]]
        ax.bar(1, s["ms"], bottom=bottom_tuned, width=0.6, edgecolor="black", color=f"C{i}")
        bottom_tuned += s["ms"]
    ax.axhline(report["budget_ms"], color="red", linestyle="--", label=f"budget {report['budget_ms']:g} ms")
    ax.axhline(report["limit_ms"], color="gray", linestyle=":", label=f"physical limit {report['limit_ms']:.1f} ms")
    ax.set_xticks([0, 1], ["IREE defaults", "tuned"])
    ax.set_ylabel("ms per action chunk")
    ax.set_title(f"{report.get('model', '')} on {report.get('target', '')}: one action chunk", fontsize=9)
    ax.legend(fontsize=8)
    if variants:
        vx = axes[0][1]
        steps = [str(v["flow_steps"]) for v in variants]
        vx.bar(steps, [v["chunk_ms"] for v in variants], edgecolor="black")
        vx.axhline(report["budget_ms"], color="red", linestyle="--")
        vx.set_xlabel("flow steps")
        vx.set_ylabel("ms per chunk (tuned dispatches)")
        vx.set_title("flow-step variants", fontsize=9)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
