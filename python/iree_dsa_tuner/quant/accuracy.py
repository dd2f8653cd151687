"""Accuracy of a quantised model: it and its float model compiled by iree-compile, run by
iree.runtime on the same calibration inputs, every output of every public function compared.

Figures (over all outputs of a function, flattened): max abs error, relative L2
(||q - f|| / ||f||) and cosine similarity.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..compiler import compile_to_vmfb
from ..errors import InputError
from ..flags import HOST_FLAGS


@dataclass(frozen=True)
class Accuracy:
    max_abs: float
    rel_l2: float
    cosine: float

    def to_json(self) -> dict:
        return {"max_abs": _sig(self.max_abs), "rel_l2": _sig(self.rel_l2), "cosine": _sig(self.cosine, 6)}

    def describe(self) -> str:
        return f"rel L2 {self.rel_l2:.4f}, max abs {self.max_abs:.4g}, cosine {self.cosine:.5f}"


def _sig(value: float, digits: int = 4) -> float:
    return float(f"{value:.{digits}g}")


def compare(reference: list[np.ndarray], value: list[np.ndarray]) -> Accuracy:
    f = np.concatenate([np.asarray(r, dtype=np.float64).reshape(-1) for r in reference])
    q = np.concatenate([np.asarray(v, dtype=np.float64).reshape(-1) for v in value])
    diff = q - f
    norm_f, norm_q = float(np.linalg.norm(f)), float(np.linalg.norm(q))
    cosine = float(f @ q) / (norm_f * norm_q) if norm_f and norm_q else (1.0 if norm_f == norm_q else 0.0)
    return Accuracy(float(np.max(np.abs(diff))) if diff.size else 0.0,
                    float(np.linalg.norm(diff)) / norm_f if norm_f else float(np.linalg.norm(diff)), cosine)


def whole_head_attention_spec(mlir: Path) -> str | None:
    """A tuning spec that keeps each attention op's head width whole on the host, or None when
    the model has none. IREE 3.13's CPU default steps a 256-wide head (pi0's Gemma attention,
    once the quantiser makes it one op) and then computes wrong results (docs/ATTENTION.md): a
    model compiled with its defaults would be measured against IREE's bug, not the quantiser's
    error. The config is a plain one: 16 query rows and 32 value columns a tile, and a KV step
    whose widest vector (KV step x the head) stays within 1024 elements, which llvm-cpu compiles
    on AVX2 as on AVX-512 (a 16-key step over a 256-wide head is refused on haswell)."""
    from ..core.config import CompilationConfig
    from ..core.shape import attention_shape
    from ..ir import compile_model
    from ..targets.mapping import ATTENTION_PIPELINE, attention_loop_types, attention_tile_lists
    from ..tuning_spec.builder import build_spec

    problems = [p for p in compile_model(Path(mlir), HOST_FLAGS).problems() if getattr(p, "kind", "") == "attention"]
    if not problems:
        return None
    configs = {}
    for p in problems:
        shape = attention_shape(p)
        tile_m, tile_n = min(16, shape.inner("m")), min(32, shape.inner("n"))
        kv_step = 16
        while kv_step > 1 and kv_step * max(shape.head_dim, tile_n) > 1024:
            kv_step //= 2
        config = CompilationConfig(ATTENTION_PIPELINE, *attention_tile_lists(
            shape, tile_m, tile_n, 1, tile_n, min(kv_step, shape.inner("k")), shape.head_dim))
        config.check_against(attention_loop_types(shape))
        configs[p.dispatch] = config
    return build_spec(problems, configs)


def compile_for_host(mlir: Path, directory: Path) -> Path:
    """`mlir` compiled for this machine's CPU (cached by its text), its attention ops with a whole
    head (`whole_head_attention_spec`)."""
    from ..compiler import tuning_spec_flags

    text = Path(mlir).read_bytes()
    key = hashlib.sha256(text + "\0".join(HOST_FLAGS).encode() + b"whole-head attention").hexdigest()[:16]
    vmfb = directory / f"{Path(mlir).stem}.{key}.vmfb"
    if not vmfb.exists():
        directory.mkdir(parents=True, exist_ok=True)
        staged = vmfb.with_suffix(f".{os.getpid()}.partial")  # processes sharing the cache stage apart
        spec = whole_head_attention_spec(Path(mlir))
        extra: tuple[str, ...] = ()
        if spec is not None:
            spec_path = directory / f"{Path(mlir).stem}.{key}.attention_spec.mlir"
            spec_path.write_text(spec)
            extra = tuple(tuning_spec_flags(spec_path))
        compile_to_vmfb(mlir, staged, target_flags=HOST_FLAGS, extra_flags=extra)
        staged.replace(vmfb)
    return vmfb


def run_functions(vmfb: Path, parameters, inputs: dict[str, list[list[np.ndarray]]],
                  types: dict[str, list[str]]) -> dict[str, list[list[np.ndarray]]]:
    """Each function of `inputs` run on each of its input lists: outputs as numpy arrays."""
    from ..tuning_spec.numerics import host_copy, invoke, load_module

    rt, ctx, module = load_module(vmfb, parameters)
    out = {}
    for name, samples in inputs.items():
        out[name] = []
        for args in samples:
            try:
                results = invoke(rt, ctx, module, name, args, types[name])
            except Exception as e:  # the runtime reports a bad module or input as an exception
                raise InputError(f"{vmfb.name}: @{name} failed to run: {str(e).splitlines()[0][:200]}") from None
            out[name].append([host_copy(r) for r in results])
    return out


def measure(float_vmfb: Path, float_parameters, quantized_vmfb: Path, quantized_parameters,
            inputs: dict[str, list[list[np.ndarray]]], types: dict[str, list[str]]) -> dict[str, Accuracy]:
    """Per function: the quantised model's outputs against the float model's on `inputs`."""
    want = run_functions(float_vmfb, float_parameters, inputs, types)
    got = run_functions(quantized_vmfb, quantized_parameters, inputs, types)
    return {name: compare([o for sample in want[name] for o in sample], [o for sample in got[name] for o in sample])
            for name in inputs}


__all__ = ["Accuracy", "compare", "compile_for_host", "measure", "run_functions"]
