"""The spec library (R2.5, R4.4, R6.2): spec sets stored against the manifest they were tuned for.

    transform_specs/<target>/<model_id>/<binding-hash>/
        binding.json          what the set is bound to (stage shapes, scheme, block, flow/action steps)
        <stage>.spec.mlir     one verified tuning spec per stage, with a header naming the binding
        configs.json          the configs in the specs, per stage and dispatch (read back on reuse)
        flags.json            stage -> the iree-compile flags L2 kept for it (task/stage_flags.py),
                              only when there are any: its spec matches that build's dispatches
        times.json            the chunk (default, tuned, limit, coverage) and each tuned dispatch's
                              time when the set was written, to check that it still reproduces

A set whose binding hash matches the manifest is reused without tuning. A set of the same
model and version whose binding differs is stale: `task` refuses it with one line saying
what changed (--retune tunes a new set beside it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..report.table import write_output
from .manifest import Manifest, binding_hash

BINDING = "binding.json"
CONFIGS = "configs.json"
FLAGS = "flags.json"
# What the target measured when the set was written: the chunk and every tuned dispatch, so a
# test can tell when a shipped set stops reproducing its figures.
TIMES = "times.json"


@dataclass
class SpecSet:
    directory: Path
    binding: dict
    configs: dict  # stage -> dispatch -> config JSON
    flags: dict = field(default_factory=dict)  # stage -> extra iree-compile flags its spec was tuned with

    def spec_paths(self) -> list[Path]:
        return sorted(self.directory.glob("*.spec.mlir"))


def set_directory(library: Path, target: str, manifest: Manifest, binding: dict) -> Path:
    return Path(library) / target / manifest.model_id / binding_hash(binding)


# Binding keys written only when not their default (so older sets stay bound): named with it.
_DEFAULTS = {"activations": "token"}


def _changes(old: dict, new: dict) -> str:
    changed = []
    for key in sorted(set(old) | set(new)):
        if key == "stages":
            stages = sorted(s for s in set(old.get("stages", {})) | set(new.get("stages", {}))
                            if old.get("stages", {}).get(s) != new.get("stages", {}).get(s))
            if stages:
                changed.append(f"stage shapes of {', '.join(stages)}")
        elif old.get(key) != new.get(key):
            changed.append(f"{key} {old.get(key, _DEFAULTS.get(key))} -> {new.get(key, _DEFAULTS.get(key))}")
    return "; ".join(changed) or "nothing visible"


def find_spec_set(library: Path, target: str, manifest: Manifest, binding: dict, *, retune: bool = False):
    """The stored set for this binding, None when there is none; a stale one is refused."""
    directory = set_directory(library, target, manifest, binding)
    if (directory / BINDING).is_file() and not retune:
        return SpecSet(directory, json.loads((directory / BINDING).read_text()),
                       json.loads((directory / CONFIGS).read_text()) if (directory / CONFIGS).is_file() else {},
                       json.loads((directory / FLAGS).read_text()) if (directory / FLAGS).is_file() else {})
    if retune:
        return None
    for other in sorted(directory.parent.glob(f"*/{BINDING}")) if directory.parent.is_dir() else []:
        old = json.loads(other.read_text())
        if old.get("version") == binding.get("version") and other.parent != directory:
            raise InputError(f"{other.parent}: stale spec set for {manifest.model_id} {manifest.version}: "
                             f"{_changes(old, binding)}; re-run with --retune to tune a new set")
    return None


def write_spec_set(library: Path, target: str, manifest: Manifest, binding: dict, specs: dict[str, str],
                   configs: dict, flags: dict | None = None) -> SpecSet:
    directory = set_directory(library, target, manifest, binding)
    directory.mkdir(parents=True, exist_ok=True)
    digest = directory.name
    flags = {stage: list(f) for stage, f in sorted((flags or {}).items()) if f}
    for stage, text in sorted(specs.items()):
        header = (f"// iree-dsa-tune task: {manifest.model_id} {manifest.version}, stage {stage}, target {target}\n"
                  f"// bound to manifest binding {digest} ({manifest.scheme}"
                  + (f", block {manifest.quant_block}" if manifest.quant_block else "")
                  + f", flow_steps {manifest.flow_steps}, n_action_steps {manifest.n_action_steps});"
                  f" see {BINDING}\n"
                  + (f"// compile this stage with: {' '.join(flags[stage])} (see {FLAGS})\n" if stage in flags else ""))
        write_output(directory / f"{stage}.spec.mlir", header + text)
    write_output(directory / CONFIGS, json.dumps(configs, indent=1, sort_keys=True) + "\n")
    write_output(directory / BINDING, json.dumps(binding, indent=1, sort_keys=True) + "\n")
    if flags:
        write_output(directory / FLAGS, json.dumps(flags, indent=1, sort_keys=True) + "\n")
    elif (directory / FLAGS).is_file():  # a set written again without them (--retune)
        (directory / FLAGS).unlink()
    return SpecSet(directory, binding, configs, flags)


def write_times(spec_set: SpecSet, target: str, before: dict, after: dict, dispatches: list[dict]) -> None:
    """Record what the set's chunk and tuned dispatches measured (read by the reproduction test)."""
    keep = ("chunk_ms", "limit_ms", "weight_limit_ms", "compute_limit_ms")
    record = {"target": target, "default": {k: before[k] for k in keep}, "tuned": {k: after[k] for k in keep},
              "modelled_share": after["coverage"]["modelled_share"], "dispatches": dispatches}
    write_output(spec_set.directory / TIMES, json.dumps(record, indent=1, sort_keys=True) + "\n")


def read_times(spec_set: SpecSet) -> dict | None:
    path = spec_set.directory / TIMES
    return json.loads(path.read_text()) if path.is_file() else None
