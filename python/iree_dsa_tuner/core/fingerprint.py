"""Keys of the tuning database: what a dispatch, a target and a candidate are.

A record is only reusable when all three match: the same root op (in any
model), the same target on the same compiler and CPU, the same config; and
when the code that measured it is the code measuring now (the database keeps
`Runner.code_version`, a hash of the runner's and simulator's sources, beside
each record and re-measures a record of other code).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, is_dataclass
from pathlib import Path

from .config import CompilationConfig, ConfigError


def iree_version() -> str:
    """The compiler's own version string (part of every tuning-record key)."""
    try:
        from iree.compiler import version as v

        return getattr(v, "VERSION", "") or getattr(v, "REVISIONS", {}).get("IREE", "unknown")
    except Exception:
        return "unknown"


# The key of "no spec entry": IREE's own default config for the dispatch.
DEFAULT_CANDIDATE_KEY = "default"


def _canonical_json(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dispatch_fingerprint(problem) -> str:
    """sha256 of the canonical root-op problem without its dispatch symbol.

    The symbol names the model and the dispatch's position in it; dropping it
    means the same root op (kind, types, maps, sizes, fused ops) in another
    model, or at another position, hits the same records.
    """
    record = dict(problem if isinstance(problem, dict) else problem.to_json())
    record.pop("dispatch", None)
    return _sha256(_canonical_json(record))


def host_cpu_model(cpuinfo: str | Path = "/proc/cpuinfo") -> str:
    """The CPU's marketing name: host timings are only comparable on the same part."""
    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine() or "unknown-cpu"


_CPUINFO = "/proc/cpuinfo"


def host_cpu_id(cpuinfo: str | Path = _CPUINFO) -> str:
    """Which microarchitecture, where the marketing name does not say: x86's "family F model M"
    (a cloud's "AMD EPYC" was a Zen 4, family 25 model 17, one day and a Zen 5, family 26 model 2,
    the next, with other fastest presets), an Arm core's "implementer I part P"; "" when unknown."""
    fields = {}
    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("cpu family", "model", "CPU implementer", "CPU part") and key not in fields:
                fields[key] = value.strip()
            elif not line.strip() and fields:
                break  # the first processor's block is enough
    except OSError:
        return ""
    if "cpu family" in fields and "model" in fields:
        return f"family {fields['cpu family']} model {fields['model']}"
    if "CPU implementer" in fields and "CPU part" in fields:
        return f"implementer {fields['CPU implementer']} part {fields['CPU part']}"
    return ""


def host_isa_flags(cpuinfo: str | Path = _CPUINFO) -> str:
    """The CPU's feature flags, sorted (same model name, other microcode or VM: other flags). This
    machine's (the default file) are capped at $IREE_DSA_HOST_ISA's level (core/host_isa.py)."""
    from .host_isa import capped_flags

    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("flags", "Features"):
                flags = set(value.split())
                return " ".join(sorted(capped_flags(flags) if str(cpuinfo) == _CPUINFO else flags))
    except OSError:
        pass
    return ""


# Widest vector extension first: what a recipe's timings (and a spec's vector sizes) were made with.
_VECTOR_ISA_FLAGS = ("avx512f", "avx2", "avx", "sse2", "sve2", "sve", "asimd")


def host_vector_isa(cpuinfo: str | Path = "/proc/cpuinfo") -> str:
    """The widest vector extension the CPU reports ('avx512f', 'avx2', ..., 'asimd'), or 'unknown'."""
    flags = set(host_isa_flags(cpuinfo).split())
    return next((isa for isa in _VECTOR_ISA_FLAGS if isa in flags), "unknown")


def _compiles_for_this_cpu(description: dict) -> bool:
    """`--iree-llvmcpu-target-cpu=host` (or the level $IREE_DSA_HOST_ISA caps this machine at):
    the code (and its timings) depend on the machine."""
    from .host_isa import is_this_cpu

    return is_this_cpu(str(description.get("iree_target_cpu")))


def target_fingerprint(description, extra: str = "") -> str:
    """sha256 of the target description + IREE version (+ the CPU model when it compiles for this CPU).

    `description` is a dict (a TargetDescription dataclass is accepted too);
    `extra` is anything else that changes timings, e.g. runner flags.
    """
    if is_dataclass(description) and not isinstance(description, type):
        description = asdict(description)
    if not isinstance(description, dict):
        raise TypeError(f"a target description must be a dict, got {type(description).__name__}")
    parts = {"description": description, "iree": iree_version(), "extra": extra}
    if _compiles_for_this_cpu(description):
        parts["cpu"] = host_cpu_model()
    return _sha256(_canonical_json(parts))


def default_key(applied_config_json: dict | None) -> str:
    """The key of "IREE's default" on one dispatch: the config IREE actually applies.

    Two models with the same root op can carry different defaults (an op that arrives
    pre-configured, other compile flags), so the default is keyed by what it is.
    """
    if applied_config_json is None:
        return DEFAULT_CANDIDATE_KEY
    return f"{DEFAULT_CANDIDATE_KEY}:{_canonical_json(applied_config_json)}"


def candidate_key(config_json: dict | None) -> str:
    """Canonical JSON of a candidate config; `default` for IREE's own config."""
    if config_json is None:
        return DEFAULT_CANDIDATE_KEY
    if hasattr(config_json, "to_json"):
        config_json = config_json.to_json()
    else:
        # The same config written with or without its defaults (pipeline,
        # empty extra) must be one record, so configs are normalised first.
        try:
            config_json = CompilationConfig.from_json(config_json).to_json()
        except ConfigError:
            pass  # not an llvm-cpu config (another target's knobs): keyed as given
    return _canonical_json(config_json)
