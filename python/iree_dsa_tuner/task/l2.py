"""L2 at task level (R3.3, R3.4): proposals for what L1 left short, kept only when the chunk shortens.

After the Amdahl-ordered L1 pass (`run._tune_in_amdahl_order`), `run_l2` takes the dispatches
R7.4 marked escalate or tune-further, and while the chunk is over its budget every other
tunable dispatch with at least `MIN_SHARE` of it, largest share first. Up to `ROUNDS` rounds per
dispatch (a next one only when the last kept a proposal): every proposer (`search.proposers`:
the built-in moves, and any external command speaking the JSON protocol) is asked with the
dispatch's problem, its cost-model view and the history of what was measured (this dispatch's
earlier rounds included), and each proposal goes through the gate:

  (a) legality (`search.proposer.check_proposal`); illegal -> reverted, never measured;
  (b) measured by the stage's runner (through the tuning DB: a re-run measures nothing twice);
      a round's legal proposals are handed to the runner together first (`hooks.prepare`: a
      host runner compiles them `TuneOptions.jobs` at a time, with its executor), then timed;
  (c) faster than what the dispatch runs now (a host time beyond the spread of its
      repetitions, `Measurement.noise`), then its one-dispatch spec compiled, applied
      and its numerics checked against the model's reference (`hooks.check`), the round's
      fastest first: the first that passes is kept, the slower ones are not checked;
  kept only when all three hold: the chunk is then shorter. Anything else is reverted with
  its reason, and the run goes on.

The playbook (`Playbook`) counts which kind of proposal won on which op class; a later
manifest's L2 asks the built-in proposer for those kinds first. L2's output is the spec set
`run_task` writes from the kept configs (verified again there, with everything else).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core.config import ConfigError
from ..search.proposer import ProposerError, check_proposal, proposer_request
from ..search.proposers import ProposalContext, TaskProposer, op_class
from .decision import ESCALATE, TUNE_FURTHER

L2_MODES = ("auto", "on", "off")
# Dispatches L2 visits in one task, proposals it measures per round, and rounds per dispatch
# (another round, from the new best, only after one kept a proposal): a bounded cost, at most
# ROUNDS x PER_ROUND measurements a dispatch.
MAX_ROUNDS = 8
PER_ROUND = 8
ROUNDS = 2
PLAYBOOK_VERSION = 1


@dataclass
class L2Proposal:
    proposer: str
    kind: str  # the built-in move's name, or what an external proposer's rationale says
    config: object
    status: str  # "kept" | "reverted"
    reason: str = ""
    us: float | None = None

    def to_json(self) -> dict:
        return {"proposer": self.proposer, "kind": self.kind, "config": self.config, "status": self.status,
                "reason": self.reason, "us": self.us}


@dataclass
class L2Round:
    stage: str
    dispatch: str
    op_class: str
    share: float
    before_us: float
    after_us: float
    chunk_before_ms: float
    chunk_after_ms: float
    proposals: list[L2Proposal] = field(default_factory=list)
    error: str = ""
    floor_us: float | None = None  # what no schedule beats on the target (`target.l2_floor_s`), if it says

    def count(self, status: str) -> int:
        return sum(1 for p in self.proposals if p.status == status)

    def line(self) -> str:
        kept = self.count("kept")
        text = (f"L2 {self.stage}/{self.dispatch}: {len(self.proposals)} proposals, {kept} kept, "
                f"{len(self.proposals) - kept} reverted; {self.before_us:.1f} -> {self.after_us:.1f} us, "
                f"chunk {self.chunk_before_ms:.2f} -> {self.chunk_after_ms:.2f} ms")
        return text + (f" ({self.error})" if self.error else "")

    def to_json(self) -> dict:
        return {"stage": self.stage, "dispatch": self.dispatch, "op_class": self.op_class, "share": self.share,
                "before_us": self.before_us, "after_us": self.after_us, "chunk_before_ms": self.chunk_before_ms,
                "chunk_after_ms": self.chunk_after_ms, "error": self.error, "floor_us": self.floor_us,
                "proposals": [p.to_json() for p in self.proposals]}


@dataclass
class L2Report:
    triggers: list[str]
    rounds: list[L2Round] = field(default_factory=list)
    chunk_before_ms: float = 0.0
    chunk_after_ms: float = 0.0
    measurements: int = 0
    seconds: float = 0.0
    builds: list[L2Round] = field(default_factory=list)  # compile-flag proposals, a stage each (stage_flags.py)

    def to_json(self) -> dict:
        return {"triggers": self.triggers, "chunk_before_ms": self.chunk_before_ms,
                "chunk_after_ms": self.chunk_after_ms, "measurements": self.measurements,
                "seconds": round(self.seconds, 2), "rounds": [r.to_json() for r in self.rounds],
                "builds": [r.to_json() for r in self.builds]}


@dataclass
class Playbook:
    """Which kinds of proposal won on which op classes, with the evidence (tried, kept, us saved)."""

    classes: dict = field(default_factory=dict)  # op class -> kind -> {"tried", "kept", "saved_us"}

    @staticmethod
    def load(path: Path | None) -> "Playbook":
        if path is None or not path.is_file():
            return Playbook()
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: not a playbook ({e})") from None
        if data.get("version") != PLAYBOOK_VERSION:
            return Playbook()  # another format's evidence: start afresh rather than misread it
        return Playbook(dict(data.get("classes", {})))

    def record(self, rounds: list[L2Round]) -> None:
        for r in rounds:
            for p in r.proposals:
                entry = self.classes.setdefault(r.op_class, {}).setdefault(p.kind, {"tried": 0, "kept": 0,
                                                                                     "saved_us": 0.0})
                entry["tried"] += 1
            kept = [p for p in r.proposals if p.status == "kept"]
            if kept:  # the us a round saved go to the kind that won last (the one the dispatch runs)
                entry = self.classes[r.op_class][kept[-1].kind]
                entry["kept"] += len(kept)
                entry["saved_us"] = round(entry["saved_us"] + (r.before_us - r.after_us), 3)

    def ranking(self, cls: str) -> list[str]:
        """The kinds that won on `cls`, most us saved first."""
        kinds = self.classes.get(cls, {})
        return sorted((k for k, v in kinds.items() if v["kept"]), key=lambda k: (-kinds[k]["saved_us"], k))

    def to_json(self) -> dict:
        return {"version": PLAYBOOK_VERSION,
                "classes": {c: dict(sorted(k.items())) for c, k in sorted(self.classes.items())}}

    def summary(self) -> list[str]:
        lines = []
        for cls, kinds in sorted(self.classes.items()):
            won = [f"{k} {v['kept']}/{v['tried']} kept, {v['saved_us']:.1f} us saved"
                   for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]["saved_us"]) if v["kept"]]
            tried = sum(v["tried"] for v in kinds.values())
            lines.append(f"{cls}: " + ("; ".join(won) if won else f"nothing kept of {tried} proposals"))
        return lines

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2, sort_keys=True) + "\n")


def l2_triggers(decisions: list[dict], meets_budget: bool) -> list[str]:
    """R3.4's reasons to run L2 that hold for this task (empty: none)."""
    out = []
    short = [d for d in decisions if d.get("decision") in (ESCALATE, TUNE_FURTHER)]
    if short:
        out.append(f"{len(short)} dispatch{'es' if len(short) != 1 else ''} below 95% of elite")
    if not meets_budget:
        out.append("the chunk is over budget")
    return out


def _history(op, hooks) -> list[dict]:
    default = hooks.default_config(op.computed) if hooks.default_config else None
    history = [{"config": default.to_json() if default is not None else None, "time_us": op.default_us,
                "status": "ok", "reason": "", "source": "default"}]
    for t in (op.result.trials if op.result is not None else []):
        if t.config is not None:
            history.append({"config": t.config.to_json(), "time_us": t.time_us, "status": str(t.status),
                            "reason": t.reason, "source": t.source})
    return history


def _targets(ops, decisions: list[dict], make_timeline, min_share: float) -> list:
    """Escalated and tune-further dispatches first, then (over budget) the rest by share."""
    marked = {(d["stage"], d["dispatch"]) for d in decisions if d.get("decision") in (ESCALATE, TUNE_FURTHER)}
    current = make_timeline()
    by_key = {(o.stage, o.problem.dispatch): o for o in ops if o.tunable and o.us is not None}
    first, rest = [], []
    for a in current.amdahl:
        key = (a["stage"], a["dispatch"])
        if key not in by_key:
            continue
        if key in marked:
            first.append(by_key[key])
        elif not current.meets_budget and a["share"] >= min_share:
            rest.append(by_key[key])
    return first + rest


def run_l2(ops, hooks: dict, target, decisions: list[dict], make_timeline, proposers: list[TaskProposer],
           say: Callable[[str], None], playbook: Playbook | None = None, min_share: float = 0.01,
           max_rounds: int = MAX_ROUNDS, per_round: int = PER_ROUND, rounds: int = ROUNDS) -> L2Report:
    """One L2 pass over `ops` (run_task's): the module docstring says what it does."""
    t0 = time.perf_counter()
    start = make_timeline()
    report = L2Report(l2_triggers(decisions, start.meets_budget), chunk_before_ms=start.chunk_ms)
    playbook = playbook or Playbook()
    seen: set = set()
    for op in _targets(ops, decisions, make_timeline, min_share)[:max_rounds]:
        stage_hooks = hooks[op.stage]
        key = stage_hooks.twin_key(op.computed)
        if (op.stage, key) in seen:  # a twin of a visited dispatch: it runs the same config
            continue
        seen.add((op.stage, key))
        before = make_timeline()
        share = next((a["share"] for a in before.amdahl
                      if a["stage"] == op.stage and a["dispatch"] == op.problem.dispatch), 0.0)
        cls = op_class(op.computed)
        rnd = L2Round(op.stage, op.problem.dispatch, cls, share, op.us, op.us, before.chunk_ms, before.chunk_ms)
        floor = getattr(target, "l2_floor_s", None)
        if floor is not None:
            try:
                rnd.floor_us = floor(op.computed) * 1e6
            except (ValueError, KeyError, TypeError):  # a problem the target's floor cannot read
                pass
        history = _history(op, stage_hooks)
        request = proposer_request(op.computed, target, history, per_round, share)
        context = ProposalContext(op.computed, target, request, history, playbook.ranking(cls), per_round)
        measured: set = {json.dumps(h["config"], sort_keys=True) for h in history if h["config"] is not None}
        for _ in range(max(1, rounds)):
            legal: list[tuple[L2Proposal, object, dict]] = []
            for proposer in proposers:
                try:
                    answer = proposer.propose(context)
                except ProposerError as e:
                    rnd.error = f"{proposer.name}: {e}"
                    continue
                for raw in answer[:per_round]:
                    p, config = _legal(raw, proposer, op, target, measured)
                    rnd.proposals.append(p)
                    if config is not None:
                        legal.append((p, config, raw))
            if legal and stage_hooks.prepare is not None:  # the runner compiles the round at once (jobs)
                stage_hooks.prepare(op.computed, [config for _, config, _ in legal])
            faster: list[tuple[L2Proposal, object]] = []
            for p, config, raw in legal:
                if _measure(p, config, op, stage_hooks, report):
                    faster.append((p, config))
                if p.us is not None:  # the next round's proposers see it (and start from a kept one)
                    history.append({"config": {k: v for k, v in raw.items() if k != "kind"}, "time_us": p.us,
                                    "status": "ok", "reason": p.reason, "source": f"l2 {p.kind}"})
            if not _keep_fastest(faster, op, stage_hooks):
                break  # nothing new won: another round would start from the same best
        twins = [o for o in ops if o.stage == op.stage and o is not op and o.tunable
                 and stage_hooks.twin_key(o.computed) == key]
        for twin in twins:  # one matcher cannot tell twins apart: they take the same config
            twin.us, twin.config, twin.how = op.us, op.config, op.how
        rnd.after_us, rnd.chunk_after_ms = op.us, make_timeline().chunk_ms
        report.rounds.append(rnd)
        say("  " + rnd.line())
    report.chunk_after_ms = make_timeline().chunk_ms
    playbook.record(report.rounds)
    report.seconds = time.perf_counter() - t0
    return report


def _legal(raw, proposer: TaskProposer, op, target, measured: set):
    """Gate (a): the proposal (reverted, with why) and None, or its config when it is legal and
    new (its status and reason still pending)."""
    kind = str(raw.get("kind") or raw.get("rationale") or "external") if isinstance(raw, dict) else "external"
    p = L2Proposal(proposer.name, kind, raw, "reverted")
    try:
        config, _ = check_proposal({k: v for k, v in raw.items() if k != "kind"} if isinstance(raw, dict) else raw,
                                   op.computed, target)
    except (ConfigError, ValueError, TypeError, AttributeError) as e:
        p.reason = f"illegal: {e}"
        return p, None
    text = json.dumps(config.to_json(), sort_keys=True)
    if text in measured:
        p.reason = "already measured"
        return p, None
    measured.add(text)
    return p, config


def _measure(p: L2Proposal, config, op, hooks, report: L2Report) -> bool:
    """Gate (b): measured by the stage's runner (through the tuning DB); True when faster than
    what the dispatch runs (its status and reason then wait for gate (c))."""
    m = hooks.measure(op.computed, config)
    report.measurements += 1
    if not m.ok:
        p.reason = f"failed: {m.reason or m.status}"
        return False
    p.us = m.median_us
    # A measured (host) time is faster only beyond its repetitions' spread: on a shared machine a
    # proposal 1% faster at the median is as likely noise. The simulator's times have none.
    noise = m.noise
    if m.median_us >= (1.0 - noise) * op.us:
        beyond = f", within its {noise:.0%} noise" if noise and m.median_us < op.us else ""
        p.reason = f"not faster: {m.median_us:.1f} us against the {op.us:.1f} us it runs{beyond}"
        return False
    return True


def _keep_fastest(faster: list, op, hooks) -> bool:
    """Gate (c) on a round's proposals that measured faster, fastest first: the first whose
    one-dispatch spec compiles, applies and computes the model's numbers is kept (the chunk is
    shorter); one that fails is reverted with why, and the next is checked. Those slower than the
    kept one are reverted unchecked (a numerics check compiles and runs the stage: seconds)."""
    winner = None
    for p, config in sorted(faster, key=lambda pc: pc[0].us):
        if winner is not None:
            p.reason = f"faster, but the round kept a faster one ({winner.us:.1f} us)"
            continue
        # The spec matches the model's own op: a stage re-typed to the scheme (a what-if) is
        # measured as `computed`, but its model is the one exported, as in the spec set's verify.
        verdict = hooks.check(op.problem, config) if hooks.check else None
        if verdict is not None and not verdict.ok:
            p.reason = f"{verdict.status}: {verdict.reason}"
            continue
        op.us, op.config, op.how = p.us, config, "tuned"
        p.status, p.reason = "kept", "faster, applied and numerically checked"
        winner = p
    return winner is not None


__all__ = ["L2Report", "L2Round", "L2_MODES", "Playbook", "l2_triggers", "run_l2"]
