"""iree-dsa-tuner: tune how IREE compiles dispatches, for a DSA and the host CPU.

The pipeline, from Python (build hooks, notebooks, the task level):

    import iree_dsa_tuner as t
    result = t.tune("model.mlir", "dsa-e1", t.TuneOptions(budget=16), db="tuning.sqlite")
    print(result.to_json()["speedup"]); open("spec.mlir", "w").write(result.spec_text)

and its parts:

    problems = t.load_problems("model.mlir")            # discover (ir)
    text = t.build_spec(problems, {"dispatch_symbol": config})   # a spec from your configs
    report = t.verify_spec("model.mlir", "spec.mlir")   # applied? numerics?

Names are imported on first use: `import iree_dsa_tuner.space` or `.costmodel`
needs neither IREE nor anything else of the package that needs it.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# Public name -> module that defines it (imported when the name is first used).
_EXPORTS = {
    "tune": ".pipeline",
    "TuneOptions": ".search.options",
    "TuneResult": ".search.results",
    "compile_model": ".ir.artifacts",
    "ModelArtifacts": ".ir.artifacts",
    "load_problems": ".ir.artifacts",
    "CompilationConfig": ".core.config",
    "build_spec": ".tuning_spec.builder",
    "link_spec_files": ".tuning_spec.link",
    "verify_spec": ".tuning_spec.verify",
    "get_target": ".targets.registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
