"""What a tune run found, per dispatch and for the model (the report's data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.config import CompilationConfig
from .context import Trial

if TYPE_CHECKING:
    from .proposer import ProposerRun


@dataclass
class DispatchResult:
    dispatch: str
    shape: str
    space_size: int = 0
    survivors: int = 0
    measured: int = 0
    cached: int = 0
    failed: int = 0
    default_us: float | None = None
    default_end_us: float | None = None
    best_us: float | None = None
    bound_us: float | None = None
    best_config: CompilationConfig | None = None
    chosen: str = "default"  # "tuned" | "default"
    note: str = ""
    fidelity: dict = field(default_factory=dict)
    seconds: float = 0.0
    trials: list[Trial] = field(default_factory=list)
    # For the roofline and funnel plots and the Amdahl ranking (R8.3).
    flops: int = 0
    bytes: int = 0
    intensity: float = 0.0
    compute_type: str = ""
    funnel: list[dict] = field(default_factory=list)  # per funnel stage: entered, left
    amdahl_share: float | None = None  # default time over the model's tuned dispatches' default time
    best_source: str = ""  # "search" | "refine" | "proposer" | "elite" (the best trial's origin)
    proposer: ProposerRun | None = None
    # R2.3: the hand-written elite template (space/elite.py), measured like any candidate.
    elite_us: float | None = None
    tuned_us: float | None = None  # the search's own best, the elite excluded
    elite: dict | None = None  # rule, candidate, and why there is none when there is none
    calls: int = 1  # calls per call of the model's functions (IREE runs one executable for identical ops)
    # Another dispatch with the same root op, whose search and config this one shares (a
    # matcher cannot tell them apart); None for a dispatch searched in its own right.
    twin_of: str | None = None
    knobs: tuple[str, ...] | None = None  # the target's candidate knobs, what the report shows (None: all)
    # Why the search's winner failed verification (applied? numerics?), "" when it did not.
    verify_failure: str = ""

    @property
    def tuned_vs_elite(self) -> float | None:
        """The search's best as a fraction of the elite's performance (elite time / tuned time)."""
        return self.elite_us / self.tuned_us if self.elite_us and self.tuned_us else None

    @property
    def speedup(self) -> float | None:
        if self.default_us and self.best_us and self.chosen == "tuned":
            return self.default_us / self.best_us
        return 1.0 if self.default_us else None

    @property
    def roofline_fraction(self) -> float | None:
        """The cost model's bound over the time this dispatch will run at (None: never measured)."""
        chosen_us = self.best_us if self.chosen == "tuned" else self.default_us
        return self.bound_us / chosen_us if self.bound_us and chosen_us else None

    @property
    def drift(self) -> float | None:
        if self.default_us and self.default_end_us:
            return abs(self.default_end_us - self.default_us) / self.default_us
        return None

    def to_json(self) -> dict:
        return {
            "dispatch": self.dispatch, "shape": self.shape, "space_size": self.space_size,
            "survivors": self.survivors, "measured": self.measured, "cached": self.cached,
            "failed": self.failed, "default_us": self.default_us, "default_end_us": self.default_end_us,
            "drift": self.drift, "best_us": self.best_us if self.chosen == "tuned" else self.default_us,
            "speedup": self.speedup, "bound_us": self.bound_us,
            "roofline_fraction": self.roofline_fraction,
            "chosen": self.chosen, "config": self.best_config.to_json() if self.best_config and self.chosen == "tuned" else None,
            "note": self.note, "fidelity": self.fidelity, "seconds": round(self.seconds, 2),
            "flops": self.flops, "bytes": self.bytes, "intensity": self.intensity,
            "compute_type": self.compute_type, "funnel": self.funnel, "amdahl_share": self.amdahl_share,
            "best_source": self.best_source if self.chosen == "tuned" else "default",
            "proposer": self.proposer.to_json() if self.proposer else None,
            "elite_us": self.elite_us, "tuned_us": self.tuned_us, "tuned_vs_elite": self.tuned_vs_elite,
            "elite": self.elite, "calls": self.calls, "twin_of": self.twin_of,
            "verify_failure": self.verify_failure or None,
            "trials": [
                {"candidate": t.candidate.to_json(self.knobs), "time_us": t.time_us, "estimate_us": t.estimate_us,
                 "source": t.source, "reason": t.reason} for t in self.trials
            ],
        }


@dataclass
class TuneResult:
    model: str
    target: str
    strategy: str
    dispatches: list[DispatchResult] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    spec_text: str = ""
    verified: bool = False
    verify_notes: list[str] = field(default_factory=list)
    numerics: list[dict] = field(default_factory=list)  # the final spec's numerics, per function output
    seconds: float = 0.0
    verify_seconds: float = 0.0  # of `seconds`, what building and checking the spec took
    target_description: dict = field(default_factory=dict)
    proposer: str = ""

    def to_json(self) -> dict:
        tuned = [d for d in self.dispatches if d.default_us]
        # Every call of every dispatch: the searched ones as measured, the others by the target's
        # estimate where it has one (`skipped[i]["estimated_us"]`), the rest named as not counted.
        estimated = [s for s in self.skipped if s.get("estimated_us") is not None]
        rest_us = sum(s["estimated_us"] * s.get("calls", 1) for s in estimated)
        total_default = sum(d.calls * d.default_us for d in tuned) + rest_us
        total_best = sum(d.calls * (d.best_us if d.chosen == "tuned" else d.default_us) for d in tuned) + rest_us
        return {
            "model": self.model, "target": self.target, "strategy": self.strategy,
            "verified": self.verified, "verify_notes": self.verify_notes, "seconds": round(self.seconds, 2),
            "verify_seconds": round(self.verify_seconds, 2),
            "total_default_us": total_default, "total_best_us": total_best,
            "speedup": (total_default / total_best) if total_best else None,
            "coverage": {
                "measured_share": 1.0 - rest_us / total_best if total_best else 0.0,
                "estimated": [{"dispatch": s["dispatch"], "calls": s.get("calls", 1), "us": s["estimated_us"],
                               "how": s["estimated_how"]} for s in estimated],
                "not_counted": [s["dispatch"] for s in self.skipped if s.get("estimated_us") is None],
            },
            "dispatches": [d.to_json() for d in self.dispatches], "skipped": self.skipped,
            "proposer": self.proposer or None, "target_description": self.target_description,
            "numerics": self.numerics,
        }

    def verification(self) -> str:
        """What was proven about `spec_text`, in words (never "numerics match" for what was not compared)."""
        unchecked = sorted({n["function"] for n in self.numerics if not n.get("checked", True)})
        if not self.numerics:
            return "every config applied; numerics not checked"
        if unchecked:
            return (f"every config applied; numerics not checked for @{', @'.join(unchecked)} "
                    f"({next(n['detail'] for n in self.numerics if not n.get('checked', True))})"
                    + ("; the rest match" if len(unchecked) < len({n['function'] for n in self.numerics}) else ""))
        return "every config applied, numerics match"
