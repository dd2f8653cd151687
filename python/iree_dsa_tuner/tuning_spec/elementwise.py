"""The scalar ops of a linalg body (MLIR's `arith` and `math` dialects), in numpy.

Values are arrays held wide: floats as float64 rounded to their element type after
every op (`as_type`), integers as int64 holding the signed reading of their bits,
`i1` as bool, `index` as int64. Ops whose meaning depends on signedness (`divui`,
`cmpi ult`, `extui`, ...) read the operand's bits as unsigned first (`unsigned`).
What MLIR leaves undefined (poison: division by zero, shifts past the width,
out-of-range float-to-int casts) gets some value; a model relying on it is wrong
whatever the reference says.
"""

from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir


class NotEvaluable(Exception):
    """The model uses an op or a shape the numpy evaluator does not cover."""


FLOAT_ELEMENTS = {"f16", "bf16", "f32", "f64"}
INT_DTYPES = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
              "index": np.int64}
# Smallest normal number per float type (math.isnormal).
_SMALLEST_NORMAL = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126, "f64": 2.0 ** -1022}


def sub_byte_bits(element: str) -> int | None:
    """Bits of a sub-byte integer type (i2, i4, si4, ui4), None for anything else."""
    digits = element.lstrip("su")
    if digits.startswith("i") and digits[1:].isdigit() and 1 < int(digits[1:]) < 8:
        return int(digits[1:])
    return None


def is_integer(element: str) -> bool:
    return element in INT_DTYPES or sub_byte_bits(element) is not None


def integer_bits(element: str) -> int:
    """Width of an integer type; `index` is 64 bits on the targets IREE compiles for here."""
    if element == "index":
        return 64
    digits = element.lstrip("su")
    if digits.startswith("i") and digits[1:].isdigit():
        return int(digits[1:])
    raise NotEvaluable(f"integer width of {element}")


def element_of(type_text: str) -> str:
    """The element type of `tensor<4x8xf32>` (or the type itself for a scalar)."""
    return type_text.split("x")[-1].rstrip(">") if type_text.startswith("tensor<") else type_text


def as_type(value, element: str):
    """Round a float64/int64 array to what `element` can hold, kept wide for the next op."""
    if element in FLOAT_ELEMENTS:
        if element == "f16":
            return np.asarray(value, dtype=np.float64).astype(np.float16).astype(np.float64)
        if element == "f32":
            return np.asarray(value, dtype=np.float64).astype(np.float32).astype(np.float64)
        if element == "bf16":
            f = np.asarray(value, dtype=np.float32)
            bits = f.view(np.uint32)
            rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
            return rounded.view(np.float32).astype(np.float64)
        return np.asarray(value, dtype=np.float64)
    bits = sub_byte_bits(element)
    if bits is not None:
        # Two's complement wrap to `bits` (signless and signed); ui types keep [0, 2^bits).
        value = np.mod(np.asarray(value).astype(np.int64), 1 << bits)
        return value if element.startswith("ui") else np.where(value >= 1 << (bits - 1), value - (1 << bits), value)
    if element in INT_DTYPES:
        if element == "i1":
            # i1 keeps its low bit (`trunci` of an even number is false).
            array = np.asarray(value)
            return array if array.dtype == np.bool_ else (array.astype(np.int64) & 1).astype(np.bool_)
        return np.asarray(value).astype(INT_DTYPES[element]).astype(np.int64)
    raise NotEvaluable(f"element type {element}")


def unsigned(value, element: str) -> np.ndarray:
    """An integer's bits read as unsigned (uint64 for 64-bit types, int64 below)."""
    bits = integer_bits(element)
    array = np.asarray(value)
    if array.dtype == np.bool_:
        return array.astype(np.int64)
    if bits == 64:
        return array.astype(np.int64).astype(np.uint64)
    return np.mod(array.astype(np.int64), np.int64(1) << bits)


def signed(value) -> np.ndarray:
    """An integer's signed reading; an i1 `true` is -1 (its one bit is the sign bit)."""
    array = np.asarray(value)
    return np.where(array, -1, 0).astype(np.int64) if array.dtype == np.bool_ else array


# ---- the op tables -------------------------------------------------------------------------

def _trunc_div(a, b):
    """Division rounding toward zero (divsi); a zero divisor is poison, here 0."""
    a, b = np.asarray(a), np.asarray(b)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe)
    return np.where(b == 0, 0, np.where((a < 0) != (safe < 0), -q, q))


def _safe(b):
    return np.where(np.asarray(b) == 0, 1, b)


def _round_half_away(x):
    """math.round: halfway cases away from zero (C's round, not numpy's round-half-even)."""
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _vectorised(fn):
    """A float64 array from a scalar Python function of the `math` module (exact to double)."""
    return lambda x: np.asarray(fn(np.asarray(x, dtype=np.float64)), dtype=np.float64)


FLOAT_UNARY = {
    "arith.negf": np.negative, "math.absf": np.abs, "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x), "math.cbrt": np.cbrt,
    "math.exp": np.exp, "math.exp2": np.exp2, "math.expm1": np.expm1,
    "math.log": np.log, "math.log2": np.log2, "math.log10": np.log10, "math.log1p": np.log1p,
    "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan,
    "math.asin": np.arcsin, "math.acos": np.arccos, "math.atan": np.arctan,
    "math.sinh": np.sinh, "math.cosh": np.cosh, "math.tanh": np.tanh,
    "math.asinh": np.arcsinh, "math.acosh": np.arccosh, "math.atanh": np.arctanh,
    "math.erf": _vectorised(_erf), "math.erfc": _vectorised(_erfc),
    "math.ceil": np.ceil, "math.floor": np.floor, "math.trunc": np.trunc,
    "math.round": _round_half_away, "math.roundeven": np.rint,
}
FLOAT_BINARY = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.remf": np.fmod, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin, "math.powf": np.power,
    "math.atan2": np.arctan2, "math.copysign": np.copysign,
}
# Integer ops on the signed reading (the result wraps to the width in `as_type`).
SIGNED_BINARY = {
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
    "arith.maxsi": np.maximum, "arith.minsi": np.minimum,
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.divsi": _trunc_div, "arith.remsi": lambda a, b: np.where(np.asarray(b) == 0, 0, a - _trunc_div(a, b) * b),
    "arith.floordivsi": lambda a, b: np.where(np.asarray(b) == 0, 0, np.floor_divide(a, _safe(b))),
    "arith.ceildivsi": lambda a, b: np.where(np.asarray(b) == 0, 0, -np.floor_divide(np.negative(a), _safe(b))),
    "arith.shrsi": np.right_shift,
}
# Integer ops on the unsigned reading.
UNSIGNED_BINARY = {
    "arith.maxui": np.maximum, "arith.minui": np.minimum,
    "arith.divui": lambda a, b: np.where(b == 0, 0, a // _safe(b)),
    "arith.remui": lambda a, b: np.where(b == 0, 0, a % _safe(b)),
    "arith.ceildivui": lambda a, b: np.where(b == 0, 0, a // _safe(b) + (a % _safe(b) != 0)),
    "arith.shrui": np.right_shift,
}
CASTS = ("arith.extf", "arith.truncf", "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
         "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.bitcast", "arith.index_cast",
         "arith.index_castui")
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
         "uno", "true"]
_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_ORDER = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal}
# Reductions a body may fold its output with (`out = out <op> f(inputs)`).
COMBINERS = {"arith.addf": np.add, "arith.addi": np.add, "arith.mulf": np.multiply, "arith.muli": np.multiply,
             "arith.maximumf": np.maximum, "arith.minimumf": np.minimum, "arith.maxnumf": np.fmax,
             "arith.minnumf": np.fmin, "arith.maxsi": np.maximum, "arith.minsi": np.minimum,
             "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor}


def compare_float(predicate: str, a, b) -> np.ndarray:
    """arith.cmpf: `o*` false when either side is NaN, `u*` true then."""
    if predicate in ("false", "true"):
        return np.full(np.broadcast(a, b).shape, predicate == "true")
    nan = np.isnan(a) | np.isnan(b)
    if predicate == "ord":
        return ~nan
    if predicate == "uno":
        return nan
    with np.errstate(invalid="ignore"):
        ordered = _ORDER[predicate[1:]](a, b)
    if predicate == "one":  # NaN compares "not equal" in numpy; ordered-not-equal must not
        return ordered & ~nan
    return ordered & ~nan if predicate[0] == "o" else ordered | nan


def compare_integer(predicate: str, a, b, element: str) -> np.ndarray:
    """arith.cmpi; `u*` predicates compare the bits read as unsigned."""
    if predicate[0] == "u":
        return _ORDER[predicate[1:]](unsigned(a, element), unsigned(b, element))
    return _ORDER[predicate.lstrip("s")](signed(a), signed(b))


def predicate_name(op: ir.Operation) -> str:
    """The predicate of a cmpf/cmpi, by name, however the attribute prints."""
    text = str(op.attributes["predicate"]).split(":")[0].strip()
    if not text.lstrip("-").isdigit():
        return text
    names = _CMPF if op.name == "arith.cmpf" else _CMPI
    return names[int(text)]


_BIT_VIEWS = {"f16": (np.float16, np.int16), "f32": (np.float32, np.int32), "f64": (np.float64, np.int64)}


def bitcast(value, source: str, element: str):
    """arith.bitcast between a float and an integer type of one width (or a no-op)."""
    value = np.asarray(value)
    if source == element or (is_integer(source) and is_integer(element)):
        return as_type(value, element)
    if source in FLOAT_ELEMENTS and is_integer(element):
        if source == "bf16":
            bits = (np.asarray(value, dtype=np.float32).view(np.uint32) >> 16).astype(np.int64)
            return as_type(bits, element)
        float_type, int_type = _BIT_VIEWS[source]
        return as_type(value.astype(float_type).view(int_type).astype(np.int64), element)
    if is_integer(source) and element in FLOAT_ELEMENTS:
        if element == "bf16":
            bits = (unsigned(value, source).astype(np.uint32) << 16).astype(np.uint32)
            return bits.view(np.float32).astype(np.float64)
        float_type, int_type = _BIT_VIEWS[element]
        return value.astype(int_type).view(float_type).astype(np.float64)
    raise NotEvaluable(f"arith.bitcast {source} -> {element}")


def cast(name: str, value, source: str, element: str):
    """One arith cast from `source` to `element`."""
    if name == "arith.bitcast":
        return bitcast(value, source, element)
    if name in ("arith.extui", "arith.uitofp", "arith.index_castui") and is_integer(source):
        value = unsigned(value, source)
        if element in FLOAT_ELEMENTS:
            value = np.asarray(value, dtype=np.float64)
    if name in ("arith.fptosi", "arith.fptoui"):
        value = np.trunc(value)
    return as_type(value, element)


def _ipowi(base, exponent):
    """math.ipowi: integer power; a negative exponent gives 0 unless the base is 1 or -1
    (and 1/0 for a zero base, which is poison: 0 here)."""
    base, exponent = np.asarray(base, dtype=np.int64), np.asarray(exponent, dtype=np.int64)
    positive = np.power(base, np.maximum(exponent, 0))
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(exponent >= 0, positive, negative)


def _bit_count(value, element: str, which: str):
    """math.ctpop / ctlz / cttz over the type's width."""
    bits = integer_bits(element)
    u = unsigned(value, element).astype(np.uint64)
    out = np.zeros(u.shape, dtype=np.int64)
    if which == "ctpop":
        for i in range(bits):
            out += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
        return out
    found = np.zeros(u.shape, dtype=bool)
    order = range(bits - 1, -1, -1) if which == "ctlz" else range(bits)
    for i in order:
        bit = ((u >> np.uint64(i)) & np.uint64(1)).astype(bool)
        out += (~found & ~bit).astype(np.int64)
        found |= bit
    return out


def evaluate(op: ir.Operation, operands: list) -> list:
    """The result values of one scalar `arith`/`math` op on operand arrays.

    `arith.constant`, `linalg.index` and `tensor.extract` need more than their
    operands and are evaluated by the caller.
    """
    name = op.name
    result = element_of(str(op.results[0].type)) if op.results else ""
    source = element_of(str(op.operands[0].type)) if len(op.operands) else ""
    if name in FLOAT_UNARY:
        with np.errstate(invalid="ignore", divide="ignore"):
            return [as_type(FLOAT_UNARY[name](operands[0]), result)]
    if name in FLOAT_BINARY:
        with np.errstate(invalid="ignore", divide="ignore"):
            return [as_type(FLOAT_BINARY[name](operands[0], operands[1]), result)]
    if name in SIGNED_BINARY:
        a, b = (signed(v) for v in operands)
        if name == "arith.shrsi":
            b = np.clip(b, 0, 63)
        return [as_type(SIGNED_BINARY[name](a, b), result)]
    if name in UNSIGNED_BINARY:
        a, b = (unsigned(v, source) for v in operands)
        if name == "arith.shrui":
            b = np.clip(b, 0, 63).astype(a.dtype)
        return [as_type(UNSIGNED_BINARY[name](a, b), result)]
    if name == "arith.shli":
        shift = np.clip(np.asarray(operands[1]), 0, 63).astype(np.uint64)
        return [as_type(unsigned(operands[0], source).astype(np.uint64) << shift, result)]
    if name in CASTS:
        return [cast(name, operands[0], source, result)]
    if name == "arith.cmpf":
        return [compare_float(predicate_name(op), operands[0], operands[1])]
    if name == "arith.cmpi":
        return [compare_integer(predicate_name(op), operands[0], operands[1], source)]
    if name == "arith.select":
        return [np.where(operands[0], operands[1], operands[2])]
    if name == "math.fma":
        return [as_type(np.asarray(operands[0], dtype=np.float64) * operands[1] + operands[2], result)]
    if name == "math.fpowi":  # float base, integer exponent (torch's x.pow(2))
        with np.errstate(divide="ignore", invalid="ignore"):
            return [as_type(np.power(np.asarray(operands[0], dtype=np.float64),
                                     np.asarray(operands[1], dtype=np.float64)), result)]
    if name == "math.ipowi":
        return [as_type(_ipowi(operands[0], operands[1]), result)]
    if name == "math.absi":
        return [as_type(np.abs(np.asarray(operands[0])), result)]
    if name in ("math.ctpop", "math.ctlz", "math.cttz"):
        return [as_type(_bit_count(operands[0], source, name.split(".")[1]), result)]
    if name == "math.clampf":
        return [as_type(np.minimum(np.maximum(operands[0], operands[1]), operands[2]), result)]
    if name == "math.sincos":
        return [as_type(np.sin(operands[0]), result), as_type(np.cos(operands[0]), result)]
    if name in ("math.isnan", "math.isinf", "math.isfinite", "math.isnormal"):
        x = np.asarray(operands[0], dtype=np.float64)
        if name == "math.isnormal":
            return [np.isfinite(x) & (np.abs(x) >= _SMALLEST_NORMAL.get(source, 2.0 ** -126))]
        return [getattr(np, name.split(".")[1])(x)]
    raise NotEvaluable(f"{name} in a linalg.generic body")
