"""The funnel's result seen as candidates: the legal set, ranked survivors, estimates."""

from __future__ import annotations

import numpy as np

from ..costmodel import run_funnel


class CostView:
    """The funnel's result seen as candidates: legal set, ranked survivors, estimates."""

    def __init__(self, problem, target, calibration: dict | None = None):
        space = target.space(problem)
        self.funnel = run_funnel(space, target.describe(), dispatch=problem.dispatch, estimator=target.estimator)
        f = self.funnel
        total = f.estimate.total_s
        if calibration:
            e = f.estimate
            total = (calibration.get("compute", 1.0) * e.compute_s + calibration.get("memory", 1.0) * e.memory_s
                     + calibration.get("latency", 1.0) * e.latency_s + calibration.get("launch", 1.0) * e.launch_s
                     + calibration.get("offset_s", 0.0))
        self.total_s = total
        legal_mask = f.runnable
        self.legal_idx = np.flatnonzero(legal_mask)
        self.legal = [f.candidate(i) for i in self.legal_idx]
        self.index = {c: int(i) for c, i in zip(self.legal, self.legal_idx)}
        order = f.order[np.argsort(total[f.order], kind="stable")] if len(f.order) else f.order
        self.ranked = [f.candidate(i) for i in order]
        self.space_size = f.size
        self.bound_us = f.roofline.bound_seconds * 1e6

    @property
    def spread(self) -> float:
        """The slowest legal candidate's estimate over the fastest's (1.0: the model sees no choice)."""
        legal = self.total_s[self.legal_idx]
        return float(legal.max() / legal.min()) if len(legal) and legal.min() > 0 else float("inf")

    def estimate_us(self, c) -> float:
        i = self.index.get(c)
        return float(self.total_s[i] * 1e6) if i is not None else float("inf")

    def terms(self, c) -> list[float]:
        e, i = self.funnel.estimate, self.index[c]
        return [float(e.compute_s[i]), float(e.memory_s[i]), float(e.latency_s[i]), float(e.launch_s[i])]
