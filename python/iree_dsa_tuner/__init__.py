"""iree-dsa-tuner: tune how IREE compiles dispatches, for a DSA and the host CPU.

Python API for build hooks:
    problems = iree_dsa_tuner.load_problems("model.mlir")
    spec_text = iree_dsa_tuner.build_spec(problems, {"dispatch_symbol": {...}})
    report = iree_dsa_tuner.verify_spec("model.mlir", "spec.mlir")
"""

from .ir import load_problems
from .spec import CompilationConfig, build_spec, link_spec_files
from .spec.verify import verify_spec

__version__ = "0.1.0"

__all__ = ["CompilationConfig", "build_spec", "link_spec_files", "load_problems", "verify_spec"]
