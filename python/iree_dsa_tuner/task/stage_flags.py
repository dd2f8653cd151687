"""L2's compile-flag proposals (R3.3): a stage rebuilt with other dispatch-formation flags.

A spec changes how one dispatch is compiled; these flags change which dispatches there are.
IREE fuses more under `--iree-dispatch-creation-enable-aggressive-fusion` (a per-sample scale
reduction joins its convolution's quantisation, an epilogue its elementwise consumer): on
lerobot's pi0 expert layer 30 dispatch calls become 24, on the Diffusion Policy UNet step 212
become 154. Each call costs a launch and moves its operands, so a stage whose share of the
chunk is worth it (MIN_STAGE_SHARE) is rebuilt under each variant in turn:

1. compiled with the target's flags plus the variant's (a variant that fails to compile, or
   that changes no dispatch, is reverted with why);
2. its dispatches timed at IREE's defaults and tuned in Amdahl order, as L1 tunes any stage
   (the tuning database keeps what was measured before);
3. kept only when the chunk is shorter and the build computes the model's numbers
   (`tuning_spec.verify.check_build`: its outputs against the numpy reference, IREE's build
   without the variant as the witness where numpy cannot judge a function); else the stage
   goes back to the build it had.

A kept variant is the stage's build from then on: the spec set stores it (`flags.json`, and a
line in the stage's spec) and a re-run rebuilds the stage with it before reusing the set. The
proposals are recorded as L2 rounds of op class "stage build", kind "flags".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.words import plural
from ..errors import CompileError, InputError
from .l2 import L2Proposal, L2Round

# What this proposer offers, in order. Each is a whole set of extra iree-compile flags.
FLAG_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("--iree-dispatch-creation-enable-aggressive-fusion=true",),
    ("--iree-dispatch-creation-enable-aggressive-fusion=true",
     "--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops=true"),
)
# A stage under this share of the chunk is not rebuilt: a compile and a search for little.
MIN_STAGE_SHARE = 0.05
OP_CLASS = "stage build"
KIND = "flags"


@dataclass
class StageBuild:
    """One stage as one set of flags compiles it: its artifacts, ops, runner and search hooks."""

    stage: str
    flags: tuple[str, ...]
    artifacts: object
    ops: list
    runner: object
    hooks: object
    skipped: list[dict] = field(default_factory=list)

    def dispatch_calls(self) -> list[tuple[str, int]]:
        return sorted((o.problem.dispatch, o.calls) for o in self.ops)


def stage_shares(timeline) -> dict[str, float]:
    shares: dict[str, float] = {}
    for a in timeline.amdahl:
        shares[a["stage"]] = shares.get(a["stage"], 0.0) + a["share"]
    return shares


def try_flag_variants(stages: list[str], rebuild: Callable, install: Callable, retune: Callable,
                      make_timeline: Callable, check: Callable, say: Callable[[str], None],
                      variants: tuple[tuple[str, ...], ...] | None = None,
                      min_share: float = MIN_STAGE_SHARE) -> tuple[list[L2Round], dict[str, list[dict]]]:
    """Each variant on each stage worth it, largest share first (see the module docstring).

    `rebuild(stage, flags) -> StageBuild`; `install(build) -> StageBuild` makes the stage run
    `build` and returns the one it replaced; `retune(stage) -> [decision]` tunes the stage's
    new ops; `check(new_artifacts, old_artifacts) -> NumericsVerdict`. Returns the rounds and,
    per stage that kept a variant, its new decisions.
    """
    variants = FLAG_VARIANTS if variants is None else variants
    rounds: list[L2Round] = []
    kept_decisions: dict[str, list[dict]] = {}
    shares = stage_shares(make_timeline())
    for stage in sorted(stages, key=lambda s: (-shares.get(s, 0.0), s)):
        share = shares.get(stage, 0.0)
        if share < min_share:
            continue
        start = make_timeline()
        rnd = L2Round(stage, "(build flags)", OP_CLASS, share, start.chunk_ms * 1e3, start.chunk_ms * 1e3,
                      start.chunk_ms, start.chunk_ms)
        for flags in variants:
            p = L2Proposal("flags", KIND, {"flags": list(flags)}, "reverted")
            rnd.proposals.append(p)
            try:
                build = rebuild(stage, flags)
            except (CompileError, InputError) as e:
                p.reason = f"compile: {(str(e).splitlines() or [type(e).__name__])[0][:200]}"
                continue
            current = install(build)
            if build.dispatch_calls() == current.dispatch_calls():
                install(current)
                build.runner.close()
                p.reason = "changes no dispatch of the stage"
                continue
            before_ms = rnd.chunk_after_ms  # the chunk with the build the stage has now
            say(f"  L2 {stage}: rebuilt with {' '.join(flags)}: {len(current.ops)} -> "
                f"{plural(len(build.ops), 'dispatch')}; tuning them")
            decisions = retune(stage)
            after = make_timeline()
            p.us = after.chunk_ms * 1e3
            if after.chunk_ms >= before_ms:
                install(current)
                build.runner.close()
                p.reason = f"not faster: chunk {after.chunk_ms:.2f} ms against {before_ms:.2f} ms"
                continue
            verdict = check(build.artifacts, current.artifacts)
            if not verdict.ok:
                install(current)
                build.runner.close()
                p.reason = f"{verdict.status}: {verdict.reason}"
                continue
            current.runner.close()
            p.status = "kept"
            p.reason = (f"chunk {before_ms:.2f} -> {after.chunk_ms:.2f} ms with {plural(len(build.ops), 'dispatch')} "
                        f"(was {len(current.ops)}), numerics checked")
            rnd.after_us, rnd.chunk_after_ms = after.chunk_ms * 1e3, after.chunk_ms
            kept_decisions[stage] = decisions
            for other in rnd.proposals[:-1]:  # an earlier kept variant is replaced by this one
                if other.status == "kept":
                    other.status, other.reason = "reverted", f"a later variant is faster ({other.reason})"
        rounds.append(rnd)
        say("  " + rnd.line())
    return rounds, kept_decisions


__all__ = ["FLAG_VARIANTS", "KIND", "MIN_STAGE_SHARE", "OP_CLASS", "StageBuild", "try_flag_variants"]
