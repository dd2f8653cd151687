"""The flag presets of a host recipe: which apply to a model, how their timings decide (`verdict`,
`choose_preset`), their builds, and the spec each is built with (the shared softmax configs, or a
preset's own estimated mmt4d distributions)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from textwrap import shorten

from ...core.config import CompilationConfig
from ...core.problems import RootOpProblem
from ...core.words import plural
from ...errors import CompileError, InputError
from ...flags import DECOMPOSE_ATTENTION_FLAG, GLOBAL_DATA_TILING_FLAG, IM2COL_FLAG, INNER_TILED_FLAG, uses_data_tiling
from ...ir.artifacts import compile_model, spec_problems
from ..whole_model import Variant, beats, slower_functions
from ...search.estimated import elementwise_configs, estimated_mmt4d_configs, estimated_softmax_configs
from ...tuning_spec import build_spec
from ...tuning_spec.verify import build_verified


# ---- decisions on timings ----------------------------------------------------------------

def verdict(candidate: Variant, incumbent: Variant) -> str:
    """Why `candidate` is (not) better than `incumbent`, in words, per the rule of `beats`."""
    if candidate.error:  # a compile error's full text is in the notes
        return "does not build" if candidate.vmfb is None else candidate.error
    if candidate.dropped:
        return candidate.dropped
    slower = slower_functions(candidate, incumbent)
    if slower:
        return "refused: slower beyond the noise on " + ", ".join(
            f"@{f} ({1 / ratio:.2f}x as fast)" for f, ratio in slower.items())
    functions = incumbent.functions
    mine, theirs = candidate.total_us(functions), incumbent.total_us(functions)
    if mine is None or theirs is None:
        return "not timed on every function"
    if beats(candidate, incumbent):
        return f"faster: total {theirs:.1f} -> {mine:.1f} us, no function slower"
    noise = max(candidate.total_noise(functions), incumbent.total_noise(functions))
    return f"not faster beyond the noise: total {theirs:.1f} -> {mine:.1f} us, noise {noise:.0%}"


def choose_preset(default: Variant, presets: list[Variant]) -> Variant:
    """The fastest preset (weighted total) of those that beat IREE's default, or the default."""
    contenders = [v for v in presets if beats(v, default)]
    return min(contenders, key=lambda v: v.total_us(default.functions)) if contenders else default


def settle_candidate(default: Variant, presets: list[Variant]) -> Variant | None:
    """The preset worth extra rounds against the default: the fastest-looking one that slows no function."""
    timed = [v for v in presets if v.total_us(default.functions) is not None and not v.error and not v.dropped
             and not slower_functions(v, default)]
    return min(timed, key=lambda v: v.total_us(default.functions)) if timed else None


def presets_that_apply(artifacts, presets: dict[str, tuple[str, ...]]) -> tuple[dict, list[str]]:
    """The presets worth timing on this model, and the names left out.

    Data tiling and ukernels act on contractions and convolutions only, im2col on convolutions
    only, attention decomposition on attention ops only (and makes matmuls that data tiling
    acts on): on a model without them their builds are IREE's default again (or another preset's),
    and one of several equal builds beating the default is chance, not a win worth recording
    as a flag.
    """
    problems = artifacts.problems()  # also fills batch1_convs (refused, but data tiling acts on them)
    kinds = {getattr(p, "kind", "") for p in problems}
    has_conv = bool(artifacts.batch1_convs) or "convolution" in kinds
    has_attention = "attention" in kinds
    # A decomposed attention is two matmuls: data tiling has something to act on then.
    has_contraction = has_conv or "contraction" in kinds

    def acts(flags) -> bool:
        if IM2COL_FLAG in flags and not has_conv:
            return False
        if DECOMPOSE_ATTENTION_FLAG in flags:
            return has_attention
        return not uses_data_tiling(flags) or has_contraction

    skipped = [name for name, flags in presets.items() if not acts(flags)]
    return {name: flags for name, flags in presets.items() if name not in skipped}, skipped


# After one round, a preset slower than this many times the fastest one is not timed again.
FAR_BEHIND = 1.5


def drop_far_behind(variants: list[Variant], functions: list[str]) -> list[Variant]:
    """The default (always: it is the reference) and every preset within FAR_BEHIND of the fastest
    one's total; the others are marked `dropped` with why."""
    totals = {id(v): v.total_us(functions) for v in variants if not v.error}
    timed = [t for t in totals.values() if t is not None]
    if not timed or not functions:
        return [v for v in variants if not v.error]
    fastest = min(timed)
    kept = []
    for i, v in enumerate(variants):
        total = totals.get(id(v))
        if i > 0 and total is not None and total > FAR_BEHIND * fastest:
            v.dropped = f"dropped after one round: {total / fastest:.2f}x the fastest preset's time"
        elif not v.error:
            kept.append(v)
    return kept


def compile_variants(timer, variants: list[Variant], jobs: int) -> list[Variant]:
    """Every variant built, `jobs` iree-compile processes at a time (no timing runs meanwhile)."""
    if jobs <= 1 or len(variants) <= 1:
        return [timer.compile(v) for v in variants]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(timer.compile, variants))



@dataclass
class PresetSpec:
    """A spec a flag preset is built with: the shared one (`shared_spec`, verified) or a preset's
    own (`estimated_preset_spec`: `configs` on `built`, verified only if the recipe keeps it)."""

    path: Path
    text: str
    configs: dict[str, CompilationConfig] | None = None
    built: object | None = None  # ir.ModelArtifacts the configs were written for


def shared_spec(base, target, work_dir: Path, notes: list[str], say) -> PresetSpec | None:
    """A verified spec of the estimate's config for every softmax dispatch of IREE's default build.

    No flag preset changes a softmax dispatch, and IREE's own softmax config is 20-40x slower than
    the estimate's pick (docs/SOFTMAX.md): untuned, pi0.5's took 45 ms of a 110 ms layer under
    every preset alike, and the presets' 10-25% differences in GEMM time drowned in the whole
    model's noise (the inner-tiled route was chosen in one tune of two). Its matchers match the
    softmax's ops, not a dispatch name, so they apply under every preset. None when the model has
    no softmax or no config survives verification."""
    problems = [p for p in base.problems() if isinstance(p, RootOpProblem)]
    if not any(p.kind == "softmax" for p in problems):
        return None
    configs = estimated_softmax_configs(problems, target, base.default_configs())
    if not configs:
        return None
    verified = build_verified(base, problems, configs, say)
    for dispatch, why in sorted(verified.dropped.items()):
        notes.append(f"the estimate's softmax config for {dispatch} is not shared by the presets: {shorten(why, 200)}")
    if not verified.text:
        return None
    path = work_dir / "shared.spec.mlir"
    path.write_text(verified.text)
    notes.append(f"every flag preset but IREE's default was built with the estimate's config for "
                 f"{plural(len(configs) - len(verified.dropped), 'softmax dispatch')}, which no flag changes; the recipe "
                 "keeps it unless the search's spec replaces it")
    return PresetSpec(path, verified.text)


# After the presets' first round, this many of the fastest ones on the global data-tiling path
# are rebuilt with the estimate's distributions (each costs a build to configurations and a build).
ESTIMATED_CONTENDERS = 2


def estimated_preset_spec(model: Path, target, name: str, flags: tuple[str, ...], shared: PresetSpec | None,
                           work_dir: Path) -> PresetSpec | None:
    """A preset's own spec when it is on the global data-tiling path and its build has mmt4d or
    inner_tiled dispatches: the shared softmax configs plus the estimate's distribution for each
    (search/estimated.py); None otherwise.

    IREE gives such a dispatch one row tile and one column tile per workgroup, so a weight wider
    than the L2 is streamed from memory once per row tile; the estimate keeps a column panel's row
    tiles together. Side by side on the whole model that ran ACT 1.13-1.22x, pi0.5's expert under
    inner-tiled 1.13x, the UNet 1.00x and SigLIP 1.03x faster (docs/DATA_TILING.md 10, 12); as a
    spec confirmed after the search it was lost in the noise of two or three rounds. Set in the
    preset's build, the presets that lean on it (inner-tiled, whose distribution IREE never sizes)
    are timed as they would ship."""
    if GLOBAL_DATA_TILING_FLAG not in flags:
        return None
    try:
        built = compile_model(model, target.compile_flags + tuple(flags))
        problems = spec_problems(built)
    except (InputError, CompileError):
        return None  # the preset's own build says why
    wanted = {p.dispatch for p in problems if not p.dispatch.startswith("_initializer")}
    defaults = built.default_configs()
    estimated = estimated_mmt4d_configs(problems, target, defaults, wanted)
    if not estimated:
        return None
    configs = {**(estimated_softmax_configs(problems, target, defaults, wanted) if shared else {}),
               **elementwise_configs(problems, defaults, wanted), **estimated}
    text = build_spec([p for p in problems if p.dispatch in configs], configs)
    path = work_dir / f"preset.{name.replace('+', '_')}.spec.mlir"
    path.write_text(text)
    return PresetSpec(path, text, configs, built)


def estimate_contenders(model: Path, target, contenders: list[Variant], spec_of: dict, timer, jobs: int,
                         notes: list[str], say) -> list[Variant]:
    """The ESTIMATED_CONTENDERS fastest presets after the first round that `estimated_preset_spec`
    gives a spec, and the fastest inner-tiled one if they hold none, rebuilt with it (their rounds
    start again); one that does not build with it keeps its build. Returns the rebuilt ones. Chosen
    after a round, not for every preset: ACT's five global-path presets cost 126 s of builds before
    the first round. Inner-tiled is the build its first round flatters least: IREE's distribution
    there, [1, 1, 0], streams the whole weight once per 29-row tile (pi0's prefix under its summed
    K split: 2443 ms before the estimate's distributions, 1635 after; docs/DATA_TILING.md 13)."""
    functions = contenders[0].functions if contenders else []
    ranked = sorted((v for v in contenders[1:] if v.total_us(functions) is not None),
                    key=lambda v: v.total_us(functions))
    rebuilt = []
    for v in ranked:
        full = len(rebuilt) >= ESTIMATED_CONTENDERS
        if full and (INNER_TILED_FLAG not in v.flags or any(INNER_TILED_FLAG in r.flags for r, _, _ in rebuilt)):
            continue
        own = estimated_preset_spec(model, target, v.name, tuple(v.flags), spec_of.get(v.name), timer.work_dir)
        if own is not None:
            rebuilt.append((v, own, Variant(v.name, v.flags, spec=own.path)))
    if not rebuilt:
        return []
    say(f"rebuilding {', '.join(v.name for v, _, _ in rebuilt)} with the estimate's mmt4d distributions")
    compile_variants(timer, [trial for _, _, trial in rebuilt], jobs)
    done = []
    for v, own, trial in rebuilt:
        if trial.error:  # the estimated distributions must not cost a preset
            notes.append(f"preset {v.name} with the estimate's distributions does not build "
                         f"({shorten(trial.error, 200)}): kept without them")
            continue
        v.spec, v.vmfb, v.compile_s, v.rounds_us, v.round_ids = trial.spec, trial.vmfb, trial.compile_s, {}, {}
        v.configurations = trial.configurations
        spec_of[v.name] = own
        done.append(v)
    if done:
        notes.append(f"presets {', '.join(v.name for v in done)} (the fastest on the global data-tiling path after "
                     "one round) were rebuilt with the estimate's distribution for their mmt4d or inner_tiled "
                     "dispatches and timed again (docs/DATA_TILING.md 12)")
    return done


def estimated_distributions(spec: PresetSpec | None) -> set[str]:
    """The dispatches a preset's own estimated spec gives an mmt4d / inner_tiled distribution."""
    if spec is None or spec.configs is None:
        return set()
    return {d for d, config in spec.configs.items() if config.pipeline == "Mmt4dTilingExpert"}


def verified_preset_spec(spec: PresetSpec, notes: list[str], say,
                          timed: Variant | None = None) -> tuple[str, list[dict]]:
    """The text of the spec the chosen preset was timed with, verified when it is its own (on
    `timed`'s build when that is the spec's: the same model, flags and spec), and the numerics that
    verification compared (JSON form; none for a spec that is not its own)."""
    if spec.configs is None:
        return spec.text, []
    built = None
    if timed is not None and timed.spec == spec.path and timed.vmfb and timed.configurations:
        built = (spec.text, timed.vmfb, timed.configurations)
    verified = build_verified(spec.built, spec_problems(spec.built), spec.configs, say, built=built)
    for dispatch, why in sorted(verified.dropped.items()):
        notes.append(f"the estimate's config for {dispatch} failed verification and is not in the recipe: "
                     f"{shorten(why, 200)}")
    numerics = verified.report.numerics if verified.text and verified.report is not None else []
    return verified.text, [n.to_json() for n in numerics]
