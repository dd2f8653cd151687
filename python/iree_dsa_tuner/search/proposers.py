"""L2 proposers behind one interface: `propose(ProposalContext) -> list[config JSON]`.

- `ScheduleMoves`: built in. Neighbours of the best measured config and of the hand-written
  elite: tile moves (each of M, N, K doubled or halved), vector width, DMA stages,
  parallelism, and the DSA's schedule moves (weight streaming on or off, its K split
  doubled or halved, row bands). A target may add moves of its own beyond L1's ladders
  (`target.l2_moves(problem, start)`: the DSA re-plans a schedule with balanced row bands, K
  slices that pad a core's share least and exact N tiles, iree_dsa_plugin/replan.py) and rank
  them itself (`target.l2_estimate_s(problem, candidate)`, None when the schedule cannot run);
  otherwise the target's cost model ranks them (the funnel's estimate). Each proposal names its
  move (`kind`), and the kinds a playbook says won on this op class come first.
- `CommandProposer`: any command speaking the JSON protocol (`search/proposer.py`): the
  request on stdin, proposals on stdout. An LLM agent plugs in here without code.

Nothing a proposer returns is trusted: the task's L2 loop (`task/l2.py`) gates every proposal.
"""

from __future__ import annotations

import abc
import dataclasses
import json
from dataclasses import dataclass, field

from ..core.candidate import TilingCandidate
from ..core.config import CompilationConfig
from .proposer import ExternalProposer, ProposerError, call_proposer
from .pruned import diverse_prefix


def op_class(problem) -> str:
    """What a playbook keys its evidence by: the op kind and its element types."""
    kind = getattr(problem, "kind", "") or "op"
    types = "x".join(t for t in (getattr(problem, "lhs_type", ""), getattr(problem, "rhs_type", "")) if t)
    return f"{kind} {types}".strip()


@dataclass
class ProposalContext:
    problem: object
    target: object
    request: dict  # the JSON protocol's request (what an external proposer reads)
    history: list[dict]
    preferred_kinds: list[str] = field(default_factory=list)  # a playbook's winners on this op class
    limit: int = 8


# Proposals of one schedule (M and N tiles, K split) a round takes before other schedules' turn.
MAX_VARIANTS = 2


class TaskProposer(abc.ABC):
    """What L2 asks for proposals: the built-in schedule moves, or an external command."""

    name = "proposer"

    @abc.abstractmethod
    def propose(self, context: ProposalContext) -> list[dict]:
        """Configs (JSON form, with a "kind") to measure for `context`'s dispatch."""


def _moves(c: TilingCandidate, m: int) -> list[tuple[str, TilingCandidate]]:
    r = dataclasses.replace
    out = []
    for knob in ("tile_m", "tile_n", "tile_k"):
        v = getattr(c, knob)
        out += [("tile", r(c, **{knob: v * 2})), ("tile", r(c, **{knob: max(1, v // 2)}))]
    out += [("vector", r(c, vec_n=c.vec_n * 2)), ("vector", r(c, vec_n=max(1, c.vec_n // 2)))]
    out += [("stages", r(c, dma_stages=c.dma_stages + 1)), ("stages", r(c, dma_stages=max(1, c.dma_stages - 1)))]
    out += [("parallelism", r(c, parallelism=c.parallelism * 2)),
            ("parallelism", r(c, parallelism=max(1, c.parallelism // 2)))]
    if c.k_split:
        out += [("k-split", r(c, k_split=c.k_split * 2)), ("k-split", r(c, k_split=max(1, c.k_split // 2))),
                ("streaming", r(c, k_split=0)), ("row-band", r(c, tile_m=max(1, c.tile_m // 2)))]
        if c.tile_m < m:
            out.append(("row-band", r(c, tile_m=min(m, c.tile_m * 2))))
    else:
        out += [("streaming", r(c, k_split=1, tile_m=m)), ("streaming", r(c, k_split=2, tile_m=m))]
    return [(k, x) for k, x in out if x != c]


def neighbours(problem, target, start: TilingCandidate, m: int | None = None) -> list[tuple[str, TilingCandidate]]:
    """(kind, candidate): every move L2 proposes from `start`, the generic ones and the target's own
    (`target.l2_moves`), before any legality check. `m`: the rows a row band may grow to (default
    the problem's M, else `start`'s M tile)."""
    m = m or int(getattr(problem, "M", 0) or start.tile_m)
    target_moves = getattr(target, "l2_moves", None)
    return _moves(start, m) + (target_moves(problem, start) if target_moves else [])


class ScheduleMoves(TaskProposer):
    """Mutations of the best measured and the elite configs (the module docstring)."""

    name = "schedule-moves"

    def propose(self, context: ProposalContext) -> list[dict]:
        from ..costmodel import run_funnel
        from ..space.space import candidates_to_columns

        problem, target = context.problem, context.target
        starts = []
        measured = sorted((h for h in context.history if h["config"] is not None and h.get("time_us")),
                          key=lambda h: h["time_us"])
        for h in measured[:2]:
            try:
                starts.append(target.from_config(problem, CompilationConfig.from_json(h["config"])))
            except Exception:  # a default the target cannot read as knobs: no neighbours from it
                continue
        if not starts:
            return []
        m = int(getattr(problem, "M", 0) or starts[0].tile_m)
        moves: dict[TilingCandidate, str] = {}
        seen = set(starts)
        for h in context.history:  # what was measured already: never proposed again
            try:
                seen.add(target.from_config(problem, CompilationConfig.from_json(h["config"])))
            except Exception:
                continue
        for start in starts:
            for kind, cand in neighbours(problem, target, start, m):
                if cand not in seen and cand not in moves and not target.check_knobs(cand):
                    moves[cand] = kind
        if not moves:
            return []
        cands = list(moves)
        funnel = run_funnel(target.space(problem), target.describe(), columns=candidates_to_columns(cands),
                            estimator=target.estimator)
        rank = getattr(target, "l2_estimate_s", None)
        if rank is not None:
            # The target's own reading of each schedule; it knows what the cost model's footprint
            # does not (row bands, NoC traffic), so only the legal stage is the funnel's.
            times = {i: rank(problem, cands[i]) for i in range(len(cands)) if funnel.stage_of(i) != "legal"}
            legal = [i for i, t in times.items() if t is not None]
            estimate = {i: float(times[i]) for i in legal}
        else:
            legal = [i for i in range(len(cands)) if funnel.stage_of(i) not in ("legal", "scratchpad")]
            estimate = {i: float(funnel.estimate.total_s[i]) for i in legal}
        preferred = {k: n for n, k in enumerate(context.preferred_kinds)}
        legal.sort(key=lambda i: (preferred.get(moves[cands[i]], len(preferred)), estimate[i]))
        # At most MAX_VARIANTS of one schedule (tiles M and N, K split) first, so that the
        # proposals span schedules, not one schedule's K slices; the rest fill what is left.
        ordered = diverse_prefix(legal, len(legal), MAX_VARIANTS,
                                 key=lambda i: (cands[i].tile_m, cands[i].tile_n, cands[i].k_split))
        # Knobs a target ignores (a CPU's K tile, DMA stages, K split) make distinct moves one
        # config; a target that says so (`l2_distinct_configs`) gets each config proposed once,
        # never one already measured, so a round's slots go to configs it can measure.
        distinct = getattr(target, "l2_distinct_configs", False)
        taken = {json.dumps(h["config"], sort_keys=True) for h in context.history if h["config"] is not None}
        out = []
        for i in ordered:
            if len(out) >= context.limit:
                break
            try:
                config = target.to_config(problem, cands[i])
            except (KeyError, TypeError, ValueError):
                continue
            text = json.dumps(config.to_json(), sort_keys=True)
            if distinct and text in taken:
                continue
            taken.add(text)
            out.append({**config.to_json(), "kind": moves[cands[i]]})
        return out


class CommandProposer(TaskProposer):
    """An external command (`search/proposer.py`'s protocol)."""

    def __init__(self, command: str):
        self.external = ExternalProposer.from_command(command)
        self.name = self.external.name

    def propose(self, context: ProposalContext) -> list[dict]:
        answer = call_proposer(self.external, context.request)
        if not all(isinstance(a, dict) for a in answer):
            raise ProposerError("expected a JSON list of config objects")
        return answer


__all__ = ["CommandProposer", "ProposalContext", "ScheduleMoves", "TaskProposer", "neighbours", "op_class"]
