"""Numerical check: run a compiled module on seeded inputs and compare with numpy.

The reference is always independent of IREE: the model's linalg form evaluated
in float64 by `reference.NumpyModel` (or, where that cannot evaluate a function,
each tuned dispatch's root op alone: `dispatch_alone.py`). IREE's own default
build is never the reference: its default configs can be the thing under test
(IREE 3.13's default attention config for a 256-wide head computes wrong
results, docs/ATTENTION.md). Integers must match exactly; floats within a
normwise tolerance that depends on the element type (reduction order
legitimately differs between tilings).
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
    reference: str = ""
    checked: bool = True  # False: nothing was compared (never counted as a match)
    dispatch: str = ""  # set when one dispatch was checked alone (its root op against numpy)
    unevaluable: str = ""  # why the numpy reference could not evaluate the function ("" if it could)

    def to_json(self) -> dict:
        return {
            "function": self.function, "output": self.output, "element_type": self.element_type,
            "ok": self.ok, "checked": self.checked, "max_error": self.max_error, "tolerance": self.tolerance,
            "detail": self.detail, "reference": self.reference, "dispatch": self.dispatch,
        }

    def describe(self) -> str:
        """What failed, in one line that is never empty: which output, the error and the tolerance."""
        where = f"dispatch {self.dispatch} alone" if self.dispatch else f"@{self.function}"
        if not self.checked:
            return f"{where}: not checked ({self.detail or 'no reason given'})"
        if self.output < 0:
            return f"{where}: {self.detail or 'could not be compared'}"
        head = f"{where} output {self.output} ({self.element_type or '?'})"
        versus = f" vs {self.reference}" if self.reference else ""
        if self.element_type.startswith("i"):
            numbers = f"max difference {self.max_error:.3g} (integers must match exactly){versus}"
        else:
            numbers = f"normwise error {self.max_error:.3g} above tolerance {self.tolerance:.3g}{versus}"
        if self.ok:
            return f"{head}: matches{versus}"
        if self.detail and self.detail != "outside tolerance":
            return f"{head}: {self.detail}; {numbers}"
        return f"{head}: {numbers}"

    @staticmethod
    def not_checked(function: str, why: str) -> "NumericsResult":
        return NumericsResult(function, -1, "", False, float("nan"), 0.0, why, checked=False)


def _parse_tensor(text: str) -> tuple[tuple[int, ...], str]:
    parts = text.split("x")
    dims = tuple(int(p) for p in parts[:-1]) if len(parts) > 1 else ()
    return dims, parts[-1]


# Sub-byte integers the runtime takes packed (bits, HAL element type name, signed values).
# IREE has no HAL type for i2, so only 4-bit types are generated.
SUB_BYTE_TYPES = {"i4": (4, "INT_4", True), "si4": (4, "SINT_4", True), "ui4": (4, "UINT_4", False)}


def pack_sub_byte(values: np.ndarray, bits: int) -> np.ndarray:
    """Row-major elements packed `8 // bits` to a byte, the first in the low bits.

    The layout IREE's runtime reads for an i4 buffer view (checked by running an
    `arith.extsi` of an i4 argument); a trailing partial byte is zero-filled.
    """
    per_byte = 8 // bits
    flat = (np.asarray(values).reshape(-1).astype(np.int64) & ((1 << bits) - 1)).astype(np.uint8)
    flat = np.concatenate([flat, np.zeros(-flat.size % per_byte, dtype=np.uint8)])
    packed = np.zeros(flat.size // per_byte, dtype=np.uint8)
    for i in range(per_byte):
        packed |= flat[i::per_byte] << (i * bits)
    return packed


def random_input(shape: tuple[int, ...], element_type: str, rng: np.random.Generator):
    """Seeded data: small integers (no overflow in i32 accumulators), floats in [-1, 1).

    Sub-byte integers cover their whole range ([-8, 7] for i4, [0, 15] for ui4),
    held unpacked (int8 / uint8); `_to_device` packs them for the runtime.
    """
    if element_type in SUB_BYTE_TYPES:
        bits, _, signed = SUB_BYTE_TYPES[element_type]
        low, high = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
        return rng.integers(low, high, size=shape, dtype=np.int64).astype(np.int8 if signed else np.uint8)
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


def _load(vmfb: Path, parameters=None):
    """The module in a local-sync context; with `parameters` (`parameters.Parameters`) an
    io_parameters module serves its archives first, as `--parameters` does for iree-run-module."""
    import iree.runtime as rt

    config = rt.Config("local-sync")
    ctx = rt.SystemContext(config=config)
    if parameters is not None:
        ctx.add_vm_module(parameters.runtime_module(ctx.instance))
    module = rt.VmModule.copy_buffer(ctx.instance, vmfb.read_bytes())
    ctx.add_vm_module(module)
    return rt, ctx, module


def _to_device(rt, ctx, value: np.ndarray, element_type: str):
    if element_type in SUB_BYTE_TYPES:
        bits, hal_name, _ = SUB_BYTE_TYPES[element_type]
        device = ctx.config.device
        buffer = device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL, allowed_usage=rt.BufferUsage.DEFAULT,
            device=device, buffer=pack_sub_byte(value, bits))
        return rt.HalBufferView(buffer, list(value.shape), getattr(rt.HalElementType, hal_name))
    if element_type == "bf16":
        # numpy has no bf16: hand the runtime the bit pattern in a bf16-typed buffer view.
        device = ctx.config.device
        return device.allocator.allocate_buffer_copy(
            memory_type=rt.MemoryType.DEVICE_LOCAL, allowed_usage=rt.BufferUsage.DEFAULT,
            device=device, buffer=_bf16_bits(value), element_type=rt.HalElementType.BFLOAT_16)
    return value


def _to_numpy(result, element_type: str) -> np.ndarray:
    array = host_copy(result)
    if element_type == "bf16":
        return (array.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return array


def host_copy(result) -> np.ndarray:
    """A runtime result as a numpy array of its own: `to_host()` maps the device buffer, and a
    view of that mapping must not outlive the context that owns the buffer."""
    return np.array(result.to_host() if hasattr(result, "to_host") else result, copy=True)


def _invoke(rt, ctx, module, name: str, args, types) -> list:
    device_args = [_to_device(rt, ctx, a, et) for a, et in zip(args, types)]
    out = ctx.modules[module.name][name](*device_args)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def load_module(vmfb: Path, parameters=None):
    """(iree.runtime, context, module) of `vmfb`, its parameter archives served (see `_load`)."""
    return _load(vmfb, parameters)


def invoke(rt, ctx, module, name: str, args, types) -> list:
    """Call `name` with numpy `args` of element `types` (sub-byte and bf16 handed over packed)."""
    return _invoke(rt, ctx, module, name, args, types)


def compare_modules(
    tuned_vmfb: Path,
    signatures: dict[str, list[tuple[tuple[int, ...], str]]],
    output_types: dict[str, list[str]],
    *,
    numpy_reference,
    seed: int = 0,
    asserting: frozenset[str] = frozenset(),
    parameters=None,
) -> list[NumericsResult]:
    """Run each function of `signatures` on seeded inputs and compare with `numpy_reference(name, *args)`.

    A function numpy cannot evaluate is reported as not checked, with the reason in
    `unevaluable` (verify then checks its tuned dispatches alone). A function that
    returns nothing is reported as not checked (`asserting` names those whose
    check.expect_* assertions could not run). `parameters` are the archives the module's
    parameter globals are read from (the numpy reference reads the same).
    """
    rt, tuned_ctx, tuned_module = _load(tuned_vmfb, parameters)
    results: list[NumericsResult] = []
    for name, inputs in signatures.items():
        unsupported = sorted({et for _, et in inputs
                              if et not in _NUMPY_TYPES and et != "bf16" and et not in SUB_BYTE_TYPES})
        if unsupported:  # e.g. i2: IREE's runtime has no element type to hand it over in
            results.append(NumericsResult.not_checked(
                name, f"argument types {', '.join(unsupported)} cannot be generated as numpy inputs"))
            continue
        rng = np.random.default_rng(seed)
        args = [random_input(shape, et, rng) for shape, et in inputs]
        types = [et for _, et in inputs]
        outs = output_types.get(name, [])
        try:
            got = _invoke(rt, tuned_ctx, tuned_module, name, args, types)
        except Exception as e:  # the runtime reports bad modules as exceptions
            results.append(NumericsResult(name, -1, "", False, float("nan"), 0.0, f"tuned module failed to run: {e}"))
            continue
        if not outs and all(g is None for g in got):
            why = ("returns nothing; its check.expect_* assertions need IREE's check module, which "
                   "iree.runtime does not provide" if name in asserting else "returns nothing to compare")
            results.append(NumericsResult.not_checked(name, why))
            continue
        try:
            want = numpy_reference(name, *[_bf16_round(a) if et == "bf16" else a for a, et in zip(args, types)])
        except Exception as e:  # NotEvaluable and friends: the caller checks the dispatches alone
            reason = (str(e).splitlines() or [type(e).__name__])[0][:160] or type(e).__name__
            result = NumericsResult.not_checked(name, f"the numpy reference cannot evaluate it ({reason})")
            result.unevaluable = reason
            results.append(result)
            continue
        if len(got) != len(want):
            results.append(NumericsResult(name, -1, "", False, float("inf"), 0.0,
                                          f"{len(got)} outputs, the reference has {len(want)}", "numpy"))
            continue
        for i, (g, w) in enumerate(zip(got, want)):
            if i >= len(outs):
                results.append(NumericsResult.not_checked(name, f"output {i}: element type unknown"))
                continue
            et = outs[i]
            result = _compare(name, i, et, _to_numpy(g, et), np.asarray(w))
            result.reference = "numpy"
            results.append(result)
    return results


def _bf16_round(values: np.ndarray) -> np.ndarray:
    """What the device sees of a float32 array handed over as bf16 (truncated bits)."""
    return (_bf16_bits(values).astype(np.uint32) << 16).view(np.float32)


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
