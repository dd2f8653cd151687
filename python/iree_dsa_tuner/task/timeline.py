"""One action chunk on a target: stage by stage, dispatch by dispatch, and what it means in Hz.

Chunk time = sum over stages of repeat x count x (sum over the stage's dispatches of calls x
time), where count is 1 per chunk, flow_steps per flow step, or tokens per token, and calls is
how often one run of the stage calls that dispatch (IREE deduplicates identical dispatches, so
one executable often runs several times: `ir.host_program`). A dispatch time from the
target's runner already holds its launch and its operand traffic: the DSA's event simulator
streams every operand from DRAM each dispatch (no weight stays on chip between layers,
8 MiB of scratchpad against hundreds of MiB of weights), so weight traffic is in it.

Rates (docs/TASK.md says why these definitions):
- rate_hz: 1000 / chunk_ms, chunks one after another with nothing overlapped -- the
  convention of the published figures (GR00T N1 on Thor: 92 ms, 10.9 Hz).
- rate_hz_rtc: actions per second the robot executes without stalling under real-time
  chunking: the next chunk is inferred while the current one executes, so it is
  min(control_rate_hz, n_action_steps x 1000 / chunk_ms); control_hz_blocking is the same
  without RTC, when the robot waits out every inference.
- limit_ms: the physical floor, max(weight bytes per chunk / DRAM bandwidth, ops / peak), every
  call of every dispatch counted.

Coverage: every dispatch is in the chunk, each costed one way (`how`): "measured" or "tuned"
(a root op timed by the target's runner), or "estimated: ..." (no tunable root op, or a
default that could not be timed: the target's streaming estimate). `coverage.modelled_share`
is the share of the chunk from root ops the runner timed; a verdict is printed with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .manifest import Manifest


@dataclass
class DispatchTime:
    stage: str
    dispatch: str
    us: float
    weight_bytes: int
    ops: int
    how: str = "measured"  # measured | tuned | "estimated: <how>" (no runner time)
    calls: int = 1  # calls per run of the stage (one executable can run several times)

    @property
    def modelled(self) -> bool:
        return self.how in ("measured", "tuned")


@dataclass
class Timeline:
    chunk_ms: float
    rate_hz: float
    rate_hz_rtc: float
    control_hz_blocking: float
    limit_ms: float
    weight_limit_ms: float
    compute_limit_ms: float
    budget_ms: float
    stages: list[dict] = field(default_factory=list)
    amdahl: list[dict] = field(default_factory=list)
    coverage: dict = field(default_factory=dict)

    @property
    def meets_budget(self) -> bool:
        return self.chunk_ms <= self.budget_ms

    def to_json(self) -> dict:
        return {
            "chunk_ms": self.chunk_ms, "rate_hz": self.rate_hz, "rate_hz_rtc": self.rate_hz_rtc,
            "control_hz_blocking": self.control_hz_blocking, "budget_ms": self.budget_ms,
            "meets_budget": self.meets_budget, "limit_ms": self.limit_ms,
            "weight_limit_ms": self.weight_limit_ms, "compute_limit_ms": self.compute_limit_ms,
            # The simulator is deterministic: no spread, so the p99 is the chunk time itself.
            "p99_ms": self.chunk_ms, "stages": self.stages, "amdahl": self.amdahl, "coverage": self.coverage,
        }


def timeline(manifest: Manifest, times: list[DispatchTime], *, dram_bytes_per_s: float, peak_ops_per_s: float,
             budget_ms: float | None = None) -> Timeline:
    by_stage: dict[str, list[DispatchTime]] = {}
    for t in times:
        by_stage.setdefault(t.stage, []).append(t)
    chunk_us, weight_bytes, ops = 0.0, 0.0, 0.0
    stages, per_dispatch = [], []
    for stage in manifest.stages:
        count = stage.repeat * stage.count(manifest.flow_steps)
        layer_us = sum(t.calls * t.us for t in by_stage.get(stage.name, []))
        stages.append({"name": stage.name, "repeat": stage.repeat, "per": stage.per,
                       "count": stage.count(manifest.flow_steps), "ms": count * layer_us / 1e3,
                       "dispatch_calls": sum(t.calls for t in by_stage.get(stage.name, []))})
        chunk_us += count * layer_us
        for t in by_stage.get(stage.name, []):
            weight_bytes += count * t.calls * t.weight_bytes
            ops += count * t.calls * t.ops
            per_dispatch.append((t, count * t.calls * t.us))
    chunk_ms = chunk_us / 1e3
    amdahl = [{"stage": t.stage, "dispatch": t.dispatch, "calls": t.calls, "ms": us / 1e3,
               "share": us / chunk_us if chunk_us else 0.0, "how": t.how}
              for t, us in sorted(per_dispatch, key=lambda item: (-item[1], item[0].stage, item[0].dispatch))]
    estimated = [a for a in amdahl if a["how"] not in ("measured", "tuned")]
    coverage = {
        "modelled_share": 1.0 - sum(a["share"] for a in estimated) if chunk_us else 0.0,
        "dispatches": len(amdahl), "estimated_dispatches": len(estimated),
        "estimated": [{"stage": a["stage"], "dispatch": a["dispatch"], "share": a["share"], "how": a["how"]}
                      for a in estimated],
    }
    chunk_s = chunk_ms / 1e3
    execute_s = manifest.n_action_steps / manifest.control_rate_hz
    weight_limit_ms = weight_bytes / dram_bytes_per_s * 1e3
    compute_limit_ms = ops / peak_ops_per_s * 1e3
    return Timeline(
        chunk_ms=chunk_ms,
        rate_hz=1.0 / chunk_s if chunk_s else float("inf"),
        rate_hz_rtc=min(manifest.control_rate_hz, manifest.n_action_steps / chunk_s) if chunk_s
        else manifest.control_rate_hz,
        control_hz_blocking=manifest.n_action_steps / (execute_s + chunk_s),
        limit_ms=max(weight_limit_ms, compute_limit_ms),
        weight_limit_ms=weight_limit_ms, compute_limit_ms=compute_limit_ms,
        budget_ms=budget_ms if budget_ms is not None else manifest.latency_budget_ms,
        stages=stages, amdahl=amdahl, coverage=coverage,
    )
