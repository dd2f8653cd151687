"""Numerical check: run two compiled modules on the same seeded inputs and compare.

The reference is the same function compiled with IREE's default configs: a
spec may change only how a dispatch is scheduled, never what it computes.
Integers must match exactly; floats within a normwise tolerance that depends
on the element type (reduction order legitimately differs between tilings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Relative normwise tolerance: max|a-b| / max(1, max|ref|) <= tol.
FLOAT_TOLERANCE = {"f64": 1e-10, "f32": 1e-4, "f16": 1e-2, "bf16": 3e-2}

_NUMPY_TYPES = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_,
}
_TENSOR_RE = re.compile(r"tensor<([^>]*)>")


@dataclass
class NumericsResult:
    function: str
    output: int
    element_type: str
    ok: bool
    max_error: float  # exact difference for integers, normwise relative for floats
    tolerance: float
    detail: str = ""

    def to_json(self) -> dict:
        return {
            "function": self.function, "output": self.output, "element_type": self.element_type,
            "ok": self.ok, "max_error": self.max_error, "tolerance": self.tolerance,
            "detail": self.detail,
        }


def _parse_tensor(text: str) -> tuple[tuple[int, ...], str]:
    parts = text.split("x")
    dims = tuple(int(p) for p in parts[:-1]) if len(parts) > 1 else ()
    return dims, parts[-1]


def function_inputs(declaration: str) -> list[tuple[tuple[int, ...], str]] | None:
    """Input tensor types from `iree.abi.declaration`; None when one is not a static tensor."""
    args = declaration.split("->")[0]
    inputs = []
    for arg in re.findall(r"%\w+: ([^,)]+(?:<[^>]*>)?)", args):
        m = _TENSOR_RE.fullmatch(arg.strip())
        if not m or "?" in m.group(1):
            return None
        inputs.append(_parse_tensor(m.group(1)))
    return inputs


def random_input(shape: tuple[int, ...], element_type: str, rng: np.random.Generator):
    """Seeded data: small integers (no overflow in i32 accumulators), floats in [-1, 1)."""
    if element_type.startswith("i"):
        dtype = _NUMPY_TYPES[element_type]
        if dtype is np.bool_:
            return rng.integers(0, 2, size=shape).astype(np.bool_)
        return rng.integers(-8, 8, size=shape, dtype=np.int64).astype(dtype)
    values = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    if element_type == "bf16":
        return values  # converted to bf16 bits when handed to the runtime
    return values.astype(_NUMPY_TYPES[element_type])


def _bf16_bits(values: np.ndarray) -> np.ndarray:
    return (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _load(vmfb: Path):
    import iree.runtime as rt

    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    module = rt.VmModule.copy_buffer(ctx.instance, vmfb.read_bytes())
    ctx.add_vm_module(module)
    return rt, ctx, module


def _to_device(rt, ctx, value: np.ndarray, element_type: str):
    if element_type == "bf16":
        return rt.asdevicearray(ctx.config.device, _bf16_bits(value), element_type=rt.HalElementType.BFLOAT_16)
    return value


def _to_numpy(result, element_type: str) -> np.ndarray:
    array = result.to_host() if hasattr(result, "to_host") else np.asarray(result)
    if element_type == "bf16":
        return (array.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return np.asarray(array)


def compare_modules(tuned_vmfb: Path, reference_vmfb: Path, *, seed: int = 0) -> list[NumericsResult]:
    rt, tuned_ctx, tuned_module = _load(tuned_vmfb)
    _, ref_ctx, ref_module = _load(reference_vmfb)
    results: list[NumericsResult] = []
    for name in tuned_module.function_names:
        if name.startswith("__"):
            continue
        fn = tuned_module.lookup_function(name)
        declaration = fn.reflection.get("iree.abi.declaration", "")
        inputs = function_inputs(declaration)
        if inputs is None:
            results.append(NumericsResult(name, -1, "", False, float("nan"), 0.0,
                                          "cannot make inputs: an argument is not a static tensor"))
            continue
        outputs_decl = declaration.split("->", 1)[1] if "->" in declaration else ""
        output_types = [_parse_tensor(m)[1] for m in _TENSOR_RE.findall(outputs_decl)]
        rng = np.random.default_rng(seed)
        args = [random_input(shape, et, rng) for shape, et in inputs]
        tuned_args = [_to_device(rt, tuned_ctx, a, et) for a, (_, et) in zip(args, inputs)]
        ref_args = [_to_device(rt, ref_ctx, a, et) for a, (_, et) in zip(args, inputs)]
        got = tuned_ctx.modules[tuned_module.name][name](*tuned_args)
        want = ref_ctx.modules[ref_module.name][name](*ref_args)
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        want = list(want) if isinstance(want, (tuple, list)) else [want]
        for i, (g, w) in enumerate(zip(got, want)):
            et = output_types[i] if i < len(output_types) else "f32"
            g, w = _to_numpy(g, et), _to_numpy(w, et)
            results.append(_compare(name, i, et, g, w))
    return results


def _compare(name: str, index: int, element_type: str, got: np.ndarray, want: np.ndarray) -> NumericsResult:
    if got.shape != want.shape:
        return NumericsResult(name, index, element_type, False, float("inf"), 0.0,
                              f"shape {got.shape} != reference {want.shape}")
    if element_type.startswith("i"):
        diff = int(np.max(np.abs(got.astype(np.int64) - want.astype(np.int64)))) if got.size else 0
        return NumericsResult(name, index, element_type, diff == 0, float(diff), 0.0,
                              "" if diff == 0 else "integer results differ")
    g, w = got.astype(np.float64), want.astype(np.float64)
    if not np.all(np.isfinite(g) == np.isfinite(w)):
        return NumericsResult(name, index, element_type, False, float("inf"), 0.0, "non-finite values differ")
    finite = np.isfinite(w)
    err = float(np.max(np.abs(g[finite] - w[finite]))) if finite.any() else 0.0
    scale = max(1.0, float(np.max(np.abs(w[finite]))) if finite.any() else 1.0)
    tol = FLOAT_TOLERANCE.get(element_type, 1e-4)
    rel = err / scale
    return NumericsResult(name, index, element_type, rel <= tol, rel, tol,
                          "" if rel <= tol else "outside tolerance")
