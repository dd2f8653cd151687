"""The numpy reference's scalar ops against hand-computed values.

Each test evaluates a one-op `linalg.generic` body the way a torch export writes it
(through `NumpyModel`, no compile) and compares with values worked out by hand or
with Python's `math` module, so a wrong table entry in `elementwise.py` fails here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from iree_dsa_tuner.tuning_spec.reference import NotEvaluable, NumpyModel


def one_op(body: str, in_types: list[str], out_type: str, n: int, hoisted: str = "") -> NumpyModel:
    """@f(%a, %b, ...) -> tensor<n x out_type>: one generic, `body` maps %x, %y, %z to %r."""
    names = ["x", "y", "z"][: len(in_types)]
    args = ", ".join(f"%{c}: tensor<{n}x{t}>" for c, t in zip("abc", in_types))
    ins = ", ".join(f"%{c}" for c in "abc"[: len(in_types)])
    in_tensors = ", ".join(f"tensor<{n}x{t}>" for t in in_types)
    block = ", ".join(f"%{v}: {t}" for v, t in zip(names, in_types))
    maps = ", ".join(["affine_map<(d0) -> (d0)>"] * (len(in_types) + 1))
    return NumpyModel(f"""
func.func @f({args}) -> tensor<{n}x{out_type}> {{
  {hoisted}
  %e = tensor.empty() : tensor<{n}x{out_type}>
  %out = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins({ins} : {in_tensors}) outs(%e : tensor<{n}x{out_type}>) {{
  ^bb0({block}, %o: {out_type}):
    {body}
    linalg.yield %r : {out_type}
  }} -> tensor<{n}x{out_type}>
  return %out : tensor<{n}x{out_type}>
}}""")


def run(model: NumpyModel, *args) -> np.ndarray:
    (out,) = model("f", *[np.asarray(a) for a in args])
    return out


def test_fpowi_with_the_exponent_hoisted_out_of_the_body_as_torch_exports_it():
    model = one_op("%r = math.fpowi %x, %c2_i64 : f32, i64", ["f32"], "f32", 4,
                   hoisted="%c2_i64 = arith.constant 2 : i64")
    assert run(model, [-1.5, 0.5, 2.0, 3.0]).tolist() == [2.25, 0.25, 4.0, 9.0]
    negative = one_op("%r = math.fpowi %x, %y : f32, i32", ["f32", "i32"], "f32", 3)
    assert run(negative, [2.0, 4.0, -2.0], [-1, -2, 3]).tolist() == [0.5, 0.0625, -8.0]


def test_powf_rsqrt_exp2_log1p():
    assert run(one_op("%r = math.powf %x, %y : f32", ["f32", "f32"], "f32", 3),
               [4.0, 9.0, 2.0], [0.5, 0.5, 3.0]).tolist() == [2.0, 3.0, 8.0]
    assert run(one_op("%r = math.rsqrt %x : f32", ["f32"], "f32", 2), [4.0, 0.25]).tolist() == [0.5, 2.0]
    assert run(one_op("%r = math.exp2 %x : f32", ["f32"], "f32", 2), [3.0, -1.0]).tolist() == [8.0, 0.5]
    out = run(one_op("%r = math.log1p %x : f32", ["f32"], "f32", 2), [0.0, math.e - 1])
    np.testing.assert_allclose(out, [0.0, 1.0], atol=1e-7)


def test_erf_and_erfc_match_pythons_math_module():
    x = [0.0, 0.5, 1.0, -2.0, 3.5]
    out = run(one_op("%r = math.erf %x : f32", ["f32"], "f32", 5), x)
    # erf(0.5) = 0.5204998778..., erf(1) = 0.8427007929..., erf(-2) = -0.9953222650...
    np.testing.assert_allclose(out, [0.0, 0.5204998778130465, 0.8427007929497149, -0.9953222650189527,
                                     0.9999992569016276], rtol=1e-7)
    erfc = run(one_op("%r = math.erfc %x : f64", ["f64"], "f64", 2), [1.0, 0.0])
    assert erfc.tolist() == [math.erfc(1.0), 1.0]


def test_gelu_with_erf_as_torch_writes_it():
    """x * 0.5 * (1 + erf(x / sqrt(2))): torch's exact GELU."""
    body = """%h = arith.mulf %x, %half : f32
    %s = arith.mulf %x, %rsqrt2 : f32
    %e1 = math.erf %s : f32
    %p = arith.addf %e1, %one : f32
    %r = arith.mulf %h, %p : f32"""
    hoisted = """%half = arith.constant 0.5 : f32
  %rsqrt2 = arith.constant 0.70710678118654757 : f32
  %one = arith.constant 1.0 : f32"""
    x = np.array([-1.0, 0.0, 1.0, 2.0])
    out = run(one_op(body, ["f32"], "f32", 4, hoisted=hoisted), x)
    expected = [v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x]  # -0.1587, 0, 0.8413, 1.9545
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_sin_cos_fma_and_rounding():
    np.testing.assert_allclose(run(one_op("%r = math.sin %x : f32", ["f32"], "f32", 2), [0.0, math.pi / 2]),
                               [0.0, 1.0], atol=1e-7)
    np.testing.assert_allclose(run(one_op("%r = math.cos %x : f32", ["f32"], "f32", 2), [0.0, math.pi]),
                               [1.0, -1.0], atol=1e-7)
    assert run(one_op("%r = math.fma %x, %y, %z : f32", ["f32"] * 3, "f32", 2),
               [2.0, -1.0], [3.0, 4.0], [1.0, 0.5]).tolist() == [7.0, -3.5]
    # math.round goes away from zero at halves, math.roundeven to the even neighbour.
    assert run(one_op("%r = math.round %x : f32", ["f32"], "f32", 3), [2.5, -2.5, 1.4]).tolist() == [3.0, -3.0, 1.0]
    assert run(one_op("%r = math.roundeven %x : f32", ["f32"], "f32", 3), [2.5, 3.5, -2.5]).tolist() == [2.0, 4.0, -2.0]


def test_nan_propagation_of_maximumf_minimumf_against_maxnumf_minnumf():
    a, b = [np.nan, 1.0, -3.0], [2.0, np.nan, 4.0]
    maximum = run(one_op("%r = arith.maximumf %x, %y : f32", ["f32", "f32"], "f32", 3), a, b)
    assert np.isnan(maximum[:2]).all() and maximum[2] == 4.0
    assert run(one_op("%r = arith.maxnumf %x, %y : f32", ["f32", "f32"], "f32", 3), a, b).tolist() == [2.0, 1.0, 4.0]
    minimum = run(one_op("%r = arith.minimumf %x, %y : f32", ["f32", "f32"], "f32", 3), a, b)
    assert np.isnan(minimum[:2]).all() and minimum[2] == -3.0
    assert run(one_op("%r = arith.minnumf %x, %y : f32", ["f32", "f32"], "f32", 3), a, b).tolist() == [2.0, 1.0, -3.0]


@pytest.mark.parametrize("predicate,expected", [
    ("ogt", [False, True, False]), ("one", [False, True, False]), ("une", [True, True, False]),
    ("uno", [True, False, False]), ("ord", [False, True, True]), ("ueq", [True, False, True]),
    ("oge", [False, True, True]),
])
def test_cmpf_ordered_and_unordered_predicates(predicate, expected):
    body = f"%c = arith.cmpf {predicate}, %x, %y : f32\n    %r = arith.select %c, %one, %zero : f32"
    hoisted = "%one = arith.constant 1.0 : f32\n  %zero = arith.constant 0.0 : f32"
    out = run(one_op(body, ["f32", "f32"], "f32", 3, hoisted=hoisted), [np.nan, 2.0, 1.0], [1.0, 1.0, 1.0])
    assert out.tolist() == [float(e) for e in expected]


def test_cmpi_unsigned_predicates_read_the_bits_as_unsigned():
    body = "%c = arith.cmpi {p}, %x, %y : i8\n    %r = arith.extui %c : i1 to i32"
    lhs, rhs = [-1, 1, -128], [1, -1, 127]
    assert run(one_op(body.format(p="ult"), ["i8", "i8"], "i32", 3), lhs, rhs).tolist() == [0, 1, 0]
    assert run(one_op(body.format(p="slt"), ["i8", "i8"], "i32", 3), lhs, rhs).tolist() == [1, 0, 1]
    assert run(one_op(body.format(p="uge"), ["i8", "i8"], "i32", 3), lhs, rhs).tolist() == [1, 0, 1]


def test_i1_arithmetic_wraps_at_one_bit_and_compares_signed():
    """i1 `true` is 1 unsigned and -1 signed: addi is xor, maxsi(true, false) is false."""
    as_i32 = "\n    %r = arith.extui %s : i1 to i32"
    add = one_op("%s = arith.addi %x, %y : i1" + as_i32, ["i1", "i1"], "i32", 3)
    assert run(add, [True, True, False], [True, False, False]).tolist() == [0, 1, 0]
    maxsi = one_op("%s = arith.maxsi %x, %y : i1" + as_i32, ["i1", "i1"], "i32", 1)
    assert run(maxsi, [True], [False]).tolist() == [0]
    slt = one_op("%s = arith.cmpi slt, %x, %y : i1" + as_i32, ["i1", "i1"], "i32", 2)
    assert run(slt, [True, False], [False, True]).tolist() == [1, 0]


def test_integer_division_shifts_and_powers():
    div = {"divsi": [-3, 3, -3], "remsi": [-1, 1, 1], "floordivsi": [-4, 3, -4], "ceildivsi": [-3, 4, -3]}
    for name, expected in div.items():
        model = one_op(f"%r = arith.{name} %x, %y : i32", ["i32", "i32"], "i32", 3)
        assert run(model, [-7, 7, 7], [2, 2, -2]).tolist() == expected, name
    # i8 -2 is 254 unsigned, -8 is 248.
    assert run(one_op("%r = arith.divui %x, %y : i8", ["i8", "i8"], "i8", 1), [-2], [2]).tolist() == [127]
    assert run(one_op("%r = arith.shrsi %x, %y : i8", ["i8", "i8"], "i8", 1), [-8], [1]).tolist() == [-4]
    assert run(one_op("%r = arith.shrui %x, %y : i8", ["i8", "i8"], "i8", 1), [-8], [1]).tolist() == [124]
    assert run(one_op("%r = arith.shli %x, %y : i8", ["i8", "i8"], "i8", 1), [100], [1]).tolist() == [-56]
    assert run(one_op("%r = arith.andi %x, %y : i32", ["i32", "i32"], "i32", 1), [12], [10]).tolist() == [8]
    assert run(one_op("%r = arith.xori %x, %y : i32", ["i32", "i32"], "i32", 1), [12], [10]).tolist() == [6]
    assert run(one_op("%r = math.ipowi %x, %y : i32", ["i32", "i32"], "i32", 5),
               [2, -3, 1, -1, 5], [3, 3, -2, -3, -1]).tolist() == [8, -27, 1, -1, 0]
    assert run(one_op("%r = arith.muli %x, %y : i8", ["i8", "i8"], "i8", 1), [100], [3]).tolist() == [44]
    assert run(one_op("%r = math.ctpop %x : i8", ["i8"], "i8", 2), [-1, 6]).tolist() == [8, 2]
    assert run(one_op("%r = math.ctlz %x : i8", ["i8"], "i8", 2), [1, 0]).tolist() == [7, 8]


def test_casts_round_and_wrap_like_the_target_type():
    # bf16 keeps 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7, to even: 1.
    assert run(one_op("%r = arith.truncf %x : f32 to bf16", ["f32"], "bf16", 2),
               [1.00390625, 1.01171875]).tolist() == [1.0, 1.015625]
    assert run(one_op("%r = arith.truncf %x : f32 to f16", ["f32"], "f16", 1), [65520.0]).tolist() == [math.inf]
    assert run(one_op("%r = arith.sitofp %x : i32 to f32", ["i32"], "f32", 1), [16777217]).tolist() == [16777216.0]
    assert run(one_op("%r = arith.uitofp %x : i8 to f32", ["i8"], "f32", 1), [-1]).tolist() == [255.0]
    assert run(one_op("%r = arith.fptosi %x : f32 to i32", ["f32"], "i32", 2), [-2.7, 2.7]).tolist() == [-2, 2]
    assert run(one_op("%r = arith.extui %x : i8 to i32", ["i8"], "i32", 1), [-1]).tolist() == [255]
    assert run(one_op("%r = arith.extsi %x : i8 to i32", ["i8"], "i32", 1), [-1]).tolist() == [-1]
    assert run(one_op("%r = arith.trunci %x : i32 to i8", ["i32"], "i8", 1), [300]).tolist() == [44]
    assert run(one_op("%r = arith.bitcast %x : f32 to i32", ["f32"], "i32", 2),
               [1.0, -2.0]).tolist() == [0x3F800000, -0x40000000]
    assert run(one_op("%r = arith.bitcast %x : i32 to f32", ["i32"], "f32", 1), [0x40490FDB]).tolist() == \
        [float(np.float32(math.pi))]
    assert run(one_op("%r = arith.bitcast %x : bf16 to i16", ["bf16"], "i16", 1), [1.0]).tolist() == [0x3F80]


def test_linalg_index_is_the_loop_position():
    body = "%i = linalg.index 0 : index\n    %c = arith.index_cast %i : index to i32\n    %r = arith.addi %c, %x : i32"
    assert run(one_op(body, ["i32"], "i32", 4), [10, 10, 10, 10]).tolist() == [10, 11, 12, 13]


def test_an_op_the_reference_does_not_know_names_itself():
    model = one_op("%r, %high = arith.mului_extended %x, %y : i32", ["i32", "i32"], "i32", 1)
    with pytest.raises(NotEvaluable, match="arith.mului_extended"):
        run(model, [3], [4])


RMS_NORM = """
func.func @rms_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  %c2_i64 = arith.constant 2 : i64
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %width = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.fpowi %in, %c2_i64 : f32, i64
    linalg.yield %p : f32
  } -> tensor<2x8xf32>
  %e1 = tensor.empty() : tensor<2x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x1xf32>) -> tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
      iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<2x8xf32>) outs(%acc : tensor<2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x1xf32>
  %inv = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x1xf32>) outs(%e1 : tensor<2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %width : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<2x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv, %w : tensor<2x8xf32>, tensor<2x1xf32>, tensor<8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %s: f32, %g: f32, %out: f32):
    %n = arith.mulf %in, %s : f32
    %r = arith.mulf %n, %g : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
"""


def test_torch_style_rms_norm_matches_the_formula():
    rng = np.random.default_rng(7)
    x, w = rng.uniform(-1, 1, (2, 8)).astype(np.float32), rng.uniform(-1, 1, 8).astype(np.float32)
    (out,) = NumpyModel(RMS_NORM)("rms_norm", x, w)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt(np.mean(x64 * x64, axis=-1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_static_slices_concat_and_pad():
    text = """
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<4x11xf32>, tensor<6x10xf32>,
                                                           tensor<4x8xf32>) {
  %0 = tensor.extract_slice %x[1, 2] [2, 3] [2, 1] : tensor<4x8xf32> to tensor<2x3xf32>
  %1 = tensor.concat dim(1) %x, %y : (tensor<4x8xf32>, tensor<4x3xf32>) -> tensor<4x11xf32>
  %c = arith.constant 0.5 : f32
  %2 = tensor.pad %x low[1, 0] high[1, 2] { ^bb0(%i: index, %j: index):
     tensor.yield %c : f32 } : tensor<4x8xf32> to tensor<6x10xf32>
  %3 = tensor.insert_slice %0 into %x[0, 1] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4x11xf32>, tensor<6x10xf32>, tensor<4x8xf32>
}"""
    x, y = np.arange(32.0).reshape(4, 8), -np.arange(12.0).reshape(4, 3)
    sliced, joined, padded, inserted = NumpyModel(text)("f", x, y)
    assert sliced.tolist() == [[10.0, 11.0, 12.0], [26.0, 27.0, 28.0]]
    assert np.array_equal(joined, np.concatenate([x, y], axis=1))
    assert padded.shape == (6, 10) and padded[0, 0] == 0.5 and padded[1, 0] == 0.0 and padded[4, 9] == 0.5
    expected = x.copy()
    expected[0:2, 1:4] = sliced
    assert np.array_equal(inserted, expected)


def test_weights_held_as_util_globals_and_scalar_arithmetic_between_tensor_ops():
    """A deployed model's form: weights are `util.global` constants, loaded in the function."""
    text = """
util.global private @w = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
util.global private @p = #flow.parameter.named<"model"::"p"> : tensor<2xf32>
util.func public @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = util.global.load @w : tensor<2x2xf32>
  %c = tensor.cast %w : tensor<2x2xf32> to tensor<2x2xf32>
  %two = arith.constant 2.0 : f32
  %half = arith.divf %two, %two : f32
  %s = tensor.splat %half : tensor<2x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<2x2xf32>, tensor<2x2xf32>) outs(%s : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  util.return %out : tensor<2x2xf32>
}
util.func public @g() -> tensor<2xf32> {
  %p = util.global.load @p : tensor<2xf32>
  util.return %p : tensor<2xf32>
}"""
    model = NumpyModel(text)
    (out,) = model("f", np.array([[1.0, 1.0], [2.0, 0.5]]))
    assert out.tolist() == [[2.0, 3.0], [7.0, 3.0]]
    with pytest.raises(NotEvaluable, match="flow.parameter.named"):
        model("g")


def test_a_torch_dialect_module_lowers_to_ops_the_reference_evaluates():
    """RMSNorm, exact and tanh GELU and SiLU as torch writes them, through IREE's input form."""
    from iree_dsa_tuner.ir import compile_model
    from iree_dsa_tuner.tuning_spec.verify import _function_signatures

    from conftest import INPUTS

    signatures, _, model = _function_signatures(compile_model(INPUTS / "torch_norm_activations.mlir"))
    assert signatures == {"norm_activations": [((2, 8), "f32"), ((8,), "f32")]}
    rng = np.random.default_rng(5)
    x, w = rng.uniform(-2, 2, (2, 8)).astype(np.float32), rng.uniform(-1, 1, 8).astype(np.float32)
    rms, gelu, gelu_tanh, silu = model("norm_activations", x, w)
    x = x.astype(np.float64)
    np.testing.assert_allclose(rms, x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6) * w, rtol=1e-6)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(gelu, 0.5 * x * (1 + erf(x / math.sqrt(2))), rtol=1e-6, atol=1e-7)
    # torch-mlir writes sqrt(2 / pi) as 0.797724 (0.7978846 in torch); the reference computes the model.
    inner = 0.797724 * (x + 0.044715 * x ** 3)
    np.testing.assert_allclose(gelu_tanh, 0.5 * x * (1 + np.tanh(inner)), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(silu, x / (1 + np.exp(-x)), rtol=1e-6, atol=1e-7)


def _c_round(x: float) -> float:
    return math.copysign(math.floor(abs(x) + 0.5), x)


# IREE's e2e math corpus (tests/e2e/math/math_ops_llvm-cpu.json): op -> (Python's value, points in its domain).
E2E_UNARY = {
    "acos": (math.acos, [-0.9, 0.0, 0.5]), "acosh": (math.acosh, [1.0, 2.5, 10.0]),
    "asin": (math.asin, [-0.9, 0.0, 0.5]), "asinh": (math.asinh, [-3.0, 0.0, 2.0]),
    "atan": (math.atan, [-3.0, 0.0, 2.0]), "atanh": (math.atanh, [-0.9, 0.0, 0.5]),
    "cbrt": (lambda x: math.copysign(abs(x) ** (1 / 3), x), [-27.0, 0.0, 8.0]),
    "ceil": (math.ceil, [-1.5, 0.2, 2.0]), "cos": (math.cos, [-3.0, 0.0, 1.0]),
    "cosh": (math.cosh, [-3.0, 0.0, 1.0]), "erf": (math.erf, [-3.0, 0.1, 1.5]),
    "erfc": (math.erfc, [-3.0, 0.1, 1.5]), "exp": (math.exp, [-3.0, 0.0, 1.5]),
    "exp2": (lambda x: 2.0 ** x, [-3.0, 0.0, 1.5]), "expm1": (math.expm1, [-3.0, 1e-4, 1.5]),
    "floor": (math.floor, [-1.5, 0.2, 2.0]), "log": (math.log, [0.1, 1.0, 7.0]),
    "log10": (math.log10, [0.1, 1.0, 7.0]), "log1p": (math.log1p, [-0.5, 1e-4, 7.0]),
    "log2": (math.log2, [0.1, 1.0, 7.0]), "round": (_c_round, [-2.5, 0.5, 1.4]),
    "roundeven": (round, [-2.5, 0.5, 1.5]), "rsqrt": (lambda x: 1 / math.sqrt(x), [0.25, 1.0, 7.0]),
    "sin": (math.sin, [-3.0, 0.0, 1.0]), "sinh": (math.sinh, [-3.0, 0.0, 1.0]),
    "sqrt": (math.sqrt, [0.0, 2.0, 9.0]), "tan": (math.tan, [-1.0, 0.0, 1.2]),
    "tanh": (math.tanh, [-3.0, 0.0, 1.0]), "trunc": (math.trunc, [-1.5, 0.2, 2.7]),
}


@pytest.mark.parametrize("op", sorted(E2E_UNARY))
def test_every_unary_op_of_irees_e2e_math_corpus(op):
    expected_fn, points = E2E_UNARY[op]
    out = run(one_op(f"%r = math.{op} %x : f64", ["f64"], "f64", len(points)), points)
    np.testing.assert_allclose(out, [float(expected_fn(x)) for x in points], rtol=1e-12, atol=1e-15)


def test_the_binary_ops_of_irees_e2e_math_corpus():
    assert run(one_op("%r = math.atan2 %x, %y : f64", ["f64", "f64"], "f64", 2), [1.0, -1.0], [-1.0, -1.0]).tolist() \
        == [math.atan2(1.0, -1.0), math.atan2(-1.0, -1.0)]
    assert run(one_op("%r = math.powf %x, %y : f64", ["f64", "f64"], "f64", 2), [2.0, 9.0], [-1.0, 1.5]).tolist() \
        == [0.5, 27.0]


def test_an_embedding_lookup_reads_the_table_with_tensor_extract_in_the_body():
    """torch's `nn.Embedding` in linalg: the index comes in as i64, the column from linalg.index."""
    text = """
func.func @embed(%ids: tensor<2xi64>, %table: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<2xi64>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<5x3xf32>
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %out : tensor<2x3xf32>
}"""
    table = np.arange(15.0).reshape(5, 3)
    (out,) = NumpyModel(text)("embed", np.array([4, 0]), table)
    assert out.tolist() == [[12.0, 13.0, 14.0], [0.0, 1.0, 2.0]]


def int4_contraction(factored: bool) -> NumpyModel:
    """An INT4 layer as the quantiser writes it (docs/QUANT.md): i32 += extsi(x) * (extsi(c) * u)
    with the integer scale `u` read per group of 16 along K. `factored=False` multiplies x by c
    first, so the left factor reads every loop."""
    body = ("%p = arith.muli %ce, %ue : i32\n    %q = arith.muli %xe, %p : i32" if factored else
            "%p = arith.muli %xe, %ce : i32\n    %q = arith.muli %p, %ue : i32")
    return NumpyModel(f"""
func.func @f(%x: tensor<3x64xi8>, %c: tensor<5x64xi4>, %u: tensor<5x4xi8>) -> tensor<3x5xi32> {{
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x5xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<3x5xi32>) -> tensor<3x5xi32>
  %out = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                          affine_map<(m, n, k) -> (n, k floordiv 16)>, affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%x, %c, %u : tensor<3x64xi8>, tensor<5x64xi4>, tensor<5x4xi8>) outs(%acc : tensor<3x5xi32>) {{
  ^bb0(%xi: i8, %ci: i4, %ui: i8, %o: i32):
    %xe = arith.extsi %xi : i8 to i32
    %ce = arith.extsi %ci : i4 to i32
    %ue = arith.extui %ui : i8 to i32
    {body}
    %r = arith.addi %o, %q : i32
    linalg.yield %r : i32
  }} -> tensor<3x5xi32>
  return %out : tensor<3x5xi32>
}}""")


@pytest.mark.parametrize("factored", [True, False])
def test_an_int4_layer_too_large_to_evaluate_densely_is_summed_factor_by_factor(monkeypatch, factored):
    rng = np.random.default_rng(0)
    x = rng.integers(-127, 128, (3, 64)).astype(np.int8)
    c = rng.integers(-8, 8, (5, 64)).astype(np.int8)
    u = rng.integers(1, 256, (5, 4)).astype(np.uint8).view(np.int8)
    weight = c.astype(np.int64) * np.repeat(u.view(np.uint8).astype(np.int64), 16, axis=1)
    want = x.astype(np.int64) @ weight.T
    (dense,) = int4_contraction(factored)("f", x, c, u)
    np.testing.assert_array_equal(dense, want)
    # A real layer (51 x 1024 x 4096: 214 M points) is over the dense limit; here 960 points are.
    import iree_dsa_tuner.tuning_spec.reference as reference

    monkeypatch.setattr(reference, "MAX_DENSE_ELEMENTS", 500)
    if factored:  # x over (m, k) times the weight over (n, k): 192 and 320 elements, each under it
        (summed,) = int4_contraction(True)("f", x, c, u)
        np.testing.assert_array_equal(summed, want)
    else:  # x * c reads (m, n, k): no factor fits, so it is refused rather than made densely
        with pytest.raises(NotEvaluable, match="iteration space of 960"):
            int4_contraction(False)("f", x, c, u)
