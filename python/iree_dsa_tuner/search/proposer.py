"""L2 proposers (R3.3): outside code that suggests configs, and the gate they must pass.

A proposer is anything that maps one JSON request to a list of configs:

- a Python callable `proposer(request: dict) -> list[dict]` (`TuneOptions.proposer`), or
- an external command (`iree-dsa-tune tune --proposer CMD`): the request as ONE JSON
  object on stdin, a JSON list of proposals on stdout (`ExternalProposer`).

The request (`proposer_request`):
    {"problem": problem.to_json() + "dim_groups" (loop indices per group),
     "target": the target description (TargetDescription.to_json() + the ISA limits),
     "history": [{"config", "time_us", "status", "reason", "source"}...] (the default first),
     "budget": measurements the proposals may spend,
     "amdahl_share": this dispatch's share of the model's default time}
A proposal is a CompilationConfig JSON object (pipeline, distribution,
vector_common_parallel, vector_reduction[, extra]); an optional "rationale" string is
kept in the report and dropped before parsing.

Nothing a proposer says is trusted. THE GATE, in order:
  (a) legality (`check_proposal`): it parses, fits the op's loops, survives the target's
      round trip config -> candidate -> config unchanged (so what is measured is what was
      proposed), and passes the target's own legality (the funnel's legal stage: vector
      size limit, vector step inside the tile, ...). Illegal -> recorded, never measured.
  (b) measurement by the runner like any candidate, counted against the budget.
  (c) before a proposal may become the dispatch's winner, a single-dispatch spec with it
      is compiled and checked (`tuning_spec.verify.check_config`, handed in by the
      pipeline: applied + numerics against the model's reference). Failing -> recorded as wrong-numerics / not-applied and never chosen.
A proposer that fails (non-zero exit, bad JSON, timeout, an exception) is recorded and
the run goes on with what the search found.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable

from ..core.candidate import TilingCandidate
from ..core.config import CompilationConfig, ConfigError
from ..core.status import NumericsVerdict, Status  # noqa: F401  (NumericsVerdict: part of the gate's API)

# An external proposer that has not answered by then is given up on (R3.3: the run goes on).
PROPOSER_TIMEOUT_S = 60.0

# When L2 is asked (R3.4). "below-target": only when L1's best reaches less than
# TARGET_FRACTION of the cost model's roofline bound (bound / best < 0.95). "elite-gap":
# only when the search's own best reaches less than TARGET_FRACTION of the hand-written
# elite template's performance (elite / best < 0.95; space/elite.py).
TRIGGERS = ("always", "below-target", "elite-gap")
TARGET_FRACTION = 0.95

class ProposerError(RuntimeError):
    """A proposer that did not give a usable answer; the message says why, in one line."""


@dataclass
class ExternalProposer:
    """An executable speaking the stdin/stdout JSON protocol."""

    argv: tuple[str, ...]
    timeout_s: float = PROPOSER_TIMEOUT_S

    @staticmethod
    def from_command(command: str, timeout_s: float = PROPOSER_TIMEOUT_S) -> "ExternalProposer":
        argv = tuple(shlex.split(command))
        if not argv:
            raise ValueError("empty proposer command")
        return ExternalProposer(argv, timeout_s)

    @property
    def name(self) -> str:
        return " ".join(self.argv)

    def __call__(self, request: dict) -> list[dict]:
        try:
            proc = subprocess.run(list(self.argv), input=json.dumps(request), capture_output=True, text=True,
                                  timeout=self.timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise ProposerError(f"no answer in {self.timeout_s:g} s") from None
        except OSError as e:
            raise ProposerError(f"cannot run {self.argv[0]}: {e.strerror or e}") from None
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or [""])[-1]
            raise ProposerError(f"exited with status {proc.returncode}" + (f": {last}" if last else ""))
        try:
            return json.loads(proc.stdout)
        except json.JSONDecodeError as e:
            raise ProposerError(f"stdout is not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None


def proposer_name(proposer) -> str:
    return getattr(proposer, "name", None) or getattr(proposer, "__name__", None) or type(proposer).__name__


def call_proposer(proposer: Callable[[dict], list], request: dict) -> list[dict]:
    """The proposals, or ProposerError for anything that is not a list of JSON objects."""
    try:
        answer = proposer(request)
    except ProposerError:
        raise
    except Exception as e:  # a Python proposer's bug must not stop the run either
        raise ProposerError(f"{type(e).__name__}: {e}") from None
    if not isinstance(answer, list):
        raise ProposerError(f"expected a JSON list of configs, got {type(answer).__name__}")
    return answer


# ---- the request ----------------------------------------------------------------------

def target_request_description(target) -> dict:
    """The description a proposer needs: the report's numbers plus the ISA limits."""
    desc = target.describe()
    out = desc.to_json()
    out.update({
        "max_vector_elements": desc.max_vector_elements,
        "vector_widths": list(desc.vector_widths),
        "stage_depths": list(desc.stage_depths),
        "accumulator_bytes": desc.accumulator_bytes,
        "extras": desc.extras,
    })
    return out


def proposer_request(problem, target, history: list[dict], budget: int, amdahl_share: float | None) -> dict:
    problem_json = problem.to_json()
    # Which loop is which group: sizes alone cannot say it when two groups have equal extents.
    problem_json["dim_groups"] = {g: list(loops) for g, loops in problem.dim_groups.items()}
    return {
        "problem": problem_json,
        "target": target_request_description(target),
        "history": history,
        "budget": budget,
        "amdahl_share": amdahl_share,
    }


# ---- gate (a): legality ---------------------------------------------------------------

def target_legality(problem, target, candidate: TilingCandidate) -> str | None:
    """The target's own legality for one candidate (None = legal), from the funnel's legal stage.

    The same rules prune the search space (llvm-cpu's vector-size limit m*n*k <
    max_vector_elements, vector step inside the tile, INT4 blocks dividing the K tile),
    so a proposal is held to exactly what a searched candidate is held to.
    """
    from ..costmodel import run_funnel
    from ..space.space import candidates_to_columns

    why = target.check_knobs(candidate)
    if why:
        return why
    funnel = run_funnel(target.space(problem), target.describe(), columns=candidates_to_columns([candidate]),
                        estimator=target.estimator)
    if funnel.stage_of(0) == "legal":
        return funnel.reason_of(0)
    return None


def check_proposal(raw, problem, target) -> tuple[CompilationConfig, TilingCandidate]:
    """Gate (a): the config and the candidate it is, or ConfigError saying why not."""
    if isinstance(raw, dict):
        raw = {k: v for k, v in raw.items() if k != "rationale"}
    config = CompilationConfig.from_json(raw)
    config.check_against(tuple(problem.loop_types))
    try:
        candidate = target.from_config(problem, config)
        again = target.to_config(problem, candidate)
    except (KeyError, TypeError) as e:
        raise ConfigError(f"not a {target.name} config: {e}") from None
    if again != config:
        raise ConfigError(f"{target.name} would compile a different config: {json.dumps(again.to_json())}")
    why = target_legality(problem, target, candidate)
    if why:
        raise ConfigError(why)
    return config, candidate


# ---- what the report keeps ---------------------------------------------------------------

@dataclass
class Proposal:
    config: object  # as received
    status: str
    reason: str = ""
    rationale: str = ""
    time_us: float | None = None

    def to_json(self) -> dict:
        return {"config": self.config, "status": self.status, "reason": self.reason,
                "rationale": self.rationale, "time_us": self.time_us}


@dataclass
class ProposerRun:
    """What L2 did for one dispatch: whether it was asked, what it said, what became of it."""

    proposer: str
    amdahl_share: float | None = None
    invoked: bool = False
    decision: str = ""  # why it was (not) asked
    budget: int = 0
    error: str = ""
    seconds: float = 0.0
    proposals: list[Proposal] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for p in self.proposals if p.status == status)

    def to_json(self) -> dict:
        return {
            "proposer": self.proposer, "amdahl_share": self.amdahl_share, "invoked": self.invoked,
            "decision": self.decision, "budget": self.budget, "error": self.error,
            "seconds": round(self.seconds, 3), "proposals": [p.to_json() for p in self.proposals],
        }


def should_invoke(when: str, share: float | None, min_share: float, l1_best_us: float | None,
                  bound_us: float | None, elite_us: float | None = None) -> tuple[bool, str]:
    """(ask the proposer?, why) under the trigger and the Amdahl threshold.

    For "elite-gap", `l1_best_us` is the search's own best (the elite's trial aside).
    """
    if when not in TRIGGERS:
        raise ValueError(f"unknown proposer trigger {when!r}; choose from {', '.join(TRIGGERS)}")
    if share is not None and share < min_share:
        return False, f"Amdahl share {share:.1%} below the threshold {min_share:.1%}"
    if when == "below-target" and l1_best_us and bound_us:
        reached = bound_us / l1_best_us
        if reached >= TARGET_FRACTION:
            return False, f"L1 reached {reached:.0%} of the roofline bound (>= {TARGET_FRACTION:.0%})"
        return True, f"L1 reached {reached:.0%} of the roofline bound (< {TARGET_FRACTION:.0%})"
    if when == "elite-gap" and l1_best_us and elite_us:
        reached = elite_us / l1_best_us
        if reached >= TARGET_FRACTION:
            return False, f"L1 reached {reached:.0%} of the elite (>= {TARGET_FRACTION:.0%})"
        return True, f"L1 reached {reached:.0%} of the elite (< {TARGET_FRACTION:.0%})"
    if when == "elite-gap":
        return True, "no L1 result or measured elite to compare"
    return True, "always" if when == "always" else "no L1 result to compare with the bound"


def run_timer() -> Callable[[], float]:
    start = time.perf_counter()
    return lambda: time.perf_counter() - start
