"""Write the real-programs corpus: small models of the kinds IREE's own e2e suites hold.

    python tools/gen_corpus.py OUT_DIR

Each program is written here, in the style of IREE's tests/e2e (linalg, linalg_ext,
regression, tosa-like integer GEMMs, check-module tests), to exercise what a user's
program no one on this team wrote can throw at the tuner: pre-configured ops with
IREE's short tile-list forms, a 1-D dot, unit-batch convolutions, functions without
results, `check.expect_*` tests, i32 contractions, external declarations. The corpus
test (tests/test_corpus.py) runs every one through inspect, tune and verify.
"""

from __future__ import annotations

import sys
from pathlib import Path

PROGRAMS: dict[str, str] = {}


def program(name: str):
    def register(fn):
        PROGRAMS[name] = fn()
        return fn
    return register


@program("preconfigured_matmul")
def _preconfigured() -> str:
    # IREE accepts a distribution list shorter than the op's loops (the rest untiled),
    # and a missing vector_common_parallel level.
    return """\
#short = #iree_codegen.compilation_info<
    lowering_config = #iree_cpu.lowering_config<distribution = [32, 32], vector_common_parallel = [1, 8, 0], vector_reduction = [0, 0, 8]>,
    translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
func.func @preconfigured(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>) -> tensor<128x512xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %r = linalg.matmul {compilation_info = #short}
      ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>) outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}
"""


@program("plain_matmul_same_shape")
def _plain() -> str:
    # The same root op as preconfigured_matmul, with IREE's own default config.
    return """\
func.func @plain(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>) -> tensor<128x512xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>) outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}
"""


@program("dot_1d")
def _dot() -> str:
    # IREE's default for linalg.dot has distribution and vector_reduction only.
    return """\
func.func @dot(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<f32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%f : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
"""


@program("conv_unit_batch")
def _conv1() -> str:
    # A unit batch is folded away before configuration and restored after (IREE 3.13).
    return """\
func.func @conv(%x: tensor<1x114x114x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x112x112x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x112x112x16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x112x112x16xf32>) -> tensor<1x112x112x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x114x114x3xf32>, tensor<3x3x3x16xf32>) outs(%f : tensor<1x112x112x16xf32>) -> tensor<1x112x112x16xf32>
  return %r : tensor<1x112x112x16xf32>
}
"""


@program("conv_batch2")
def _conv2() -> str:
    return """\
func.func @conv(%x: tensor<2x30x30x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<2x28x28x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x28x28x16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<2x28x28x16xf32>) -> tensor<2x28x28x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x30x30x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<2x28x28x16xf32>) -> tensor<2x28x28x16xf32>
  return %r : tensor<2x28x28x16xf32>
}
"""


@program("check_expect_test")
def _check() -> str:
    # The e2e style: no results, the check module asserts. Nothing is returned to compare.
    return """\
func.func @check_matmul() {
  %a = util.unfoldable_constant dense<1.0> : tensor<32x64xf32>
  %b = util.unfoldable_constant dense<2.0> : tensor<64x16xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  check.expect_almost_eq_const(%r, dense<128.0> : tensor<32x16xf32>) : tensor<32x16xf32>
  return
}
"""


@program("i32_matmul")
def _i32() -> str:
    # tosa.matmul on i8 lowers to an i32 contraction after extension.
    return """\
func.func @i32mm(%a: tensor<16x64xi32>, %b: tensor<64x32xi32>) -> tensor<16x32xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi32>, tensor<64x32xi32>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}
"""


@program("int8_matmul")
def _i8() -> str:
    return """\
func.func @i8mm(%a: tensor<16x64xi8>, %b: tensor<64x32xi8>) -> tensor<16x32xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x32xi8>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}
"""


@program("i4_weight_matmul")
def _i4() -> str:
    # INT4 weights as a function argument: the runtime needs packed sub-byte buffers.
    return """\
func.func @i4mm(%a: tensor<16x64xi8>, %w: tensor<64x32xi4>) -> tensor<16x32xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %w : tensor<16x64xi8>, tensor<64x32xi4>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}
"""


@program("external_declaration")
def _external() -> str:
    return """\
func.func private @plugin_op(tensor<8xf32>) -> tensor<8xf32>
func.func @with_extern(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
"""


@program("elementwise_only")
def _elementwise() -> str:
    return """\
func.func @add(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %r = arith.addf %a, %b : tensor<64xf32>
  return %r : tensor<64xf32>
}
"""


@program("batch_matmul_mixed")
def _bmm() -> str:
    return """\
func.func @bmm(%a: tensor<4x32x64xf32>, %b: tensor<4x64x16xf32>, %c: tensor<8x8xf32>) -> (tensor<4x32x16xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x32x64xf32>, tensor<4x64x16xf32>) outs(%f : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %s = arith.addf %c, %c : tensor<8x8xf32>
  return %r, %s : tensor<4x32x16xf32>, tensor<8x8xf32>
}
"""


def write_corpus(out_dir: Path) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, text in PROGRAMS.items():
        path = out_dir / f"{name}.mlir"
        path.write_text(text)
        paths[name] = path
    return paths


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_corpus.py OUT_DIR")
    for name, path in write_corpus(Path(sys.argv[1])).items():
        print(path)
