"""How well the L0 model ranks what was measured, and refitting it (R8.2)."""

from __future__ import annotations

import numpy as np


def _spearman(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None
    rx = np.argsort(np.argsort(xs)).astype(float)
    ry = np.argsort(np.argsort(ys)).astype(float)
    if rx.std() == 0 or ry.std() == 0:
        return None
    return float(np.corrcoef(rx, ry)[0, 1])


def fidelity(trials) -> dict:
    """How well the estimate ranked what was measured (R8.2): Spearman rho and top-5 recall."""
    ok = [t for t in trials if t.time_us is not None and t.estimate_us not in (None, float("inf"))]
    if not ok:
        return {}
    rho = _spearman([t.estimate_us for t in ok], [t.time_us for t in ok])
    best = min(ok, key=lambda t: t.time_us)
    top5 = sorted(ok, key=lambda t: t.estimate_us)[:5]
    return {"spearman": None if rho is None else round(rho, 3), "best_in_top5": best in top5, "n": len(ok)}


def fit_calibration(points: list[tuple[list[float], float]]) -> dict | None:
    """Non-negative weights of the estimate's terms that best explain measured times.

    Least squares in relative error (each row scaled by 1/measured), weights
    clipped at a small positive floor so no term is switched off entirely.
    """
    if len(points) < 6:
        return None
    a = np.array([p[0] + [1e-6] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    a_rel = a / y[:, None]
    w, *_ = np.linalg.lstsq(a_rel, np.ones(len(y)), rcond=None)
    w = np.maximum(w, 1e-3)
    return {"compute": float(w[0]), "memory": float(w[1]), "latency": float(w[2]), "launch": float(w[3]),
            "offset_s": float(w[4] * 1e-6), "points": len(points)}
