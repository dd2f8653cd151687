// A torch-style Linear: the weight stored [N, K], transposed and broadcast before a batch_matmul,
// as iree-turbine exports it. The quantiser applies the transpose to the stored weight offline:
// the quantised contraction reads the stored [N, K] codes directly.
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --min-weight-elements 1 -o %t.w8 > %t.w8.txt
// RUN: FileCheck %s --check-prefix=W8 --input-file %t.w8/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.w8.txt
// RUN: iree-dsa-tune quantize %s --scheme w4a8 --group 32 --zero-point --scale-type f16 --min-weight-elements 1 -o %t.w4 > /dev/null
// RUN: FileCheck %s --check-prefix=W4 --input-file %t.w4/model.mlir
// RUN: not iree-dsa-tune quantize %t.w8/model.mlir --scheme w8a8 --min-weight-elements 1 --parameters model=%t.w8/model.irpa -o %t.again 2>&1 | FileCheck %s --check-prefix=AGAIN

util.global private @fc.weight = #flow.parameter.named<"model"::"fc.weight"> : tensor<64x128xf32>
func.func @main(%x: tensor<1x8x128xf32>) -> tensor<1x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %w = util.global.load @fc.weight : tensor<64x128xf32>
  %e0 = tensor.empty() : tensor<128x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x128xf32>) outs(%e0 : tensor<128x64xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<1x128x64xf32>
  %wb = linalg.broadcast ins(%wt : tensor<128x64xf32>) outs(%e1 : tensor<1x128x64xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<1x8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<1x8x128xf32>, tensor<1x128x64xf32>) outs(%acc : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// The float weight and its transpose are gone; the codes are stored [N, K] and read by (n, k).
// W8-DAG: util.global private @__quant.fc.weight.w8a8.weight = #flow.parameter.named<"model"::"fc.weight.w8a8.weight"> : tensor<64x128xi8>
// W8-DAG: util.global private @__quant.fc.weight.w8a8.scale = #flow.parameter.named<"model"::"fc.weight.w8a8.scale"> : tensor<64xf32>
// W8-NOT: linalg.transpose
// Per token: max |x| over K, then the INT8 codes.
// W8: math.absf
// W8: arith.maximumf
// W8: math.roundeven
// W8: arith.fptosi {{.*}} : f32 to i8
// The i32 contraction reads the codes as stored: (d0, d1, d2, d3) -> (d2, d3).
// W8: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// W8-SAME: tensor<1x8x128xi8>, tensor<64x128xi8>
// W8: arith.extsi {{.*}} : i8 to i32
// W8: arith.muli
// W8: arith.addi
// W8: -> tensor<1x8x64xi32>
// The epilogue rescales by the token's and the channel's scales, to f32.
// W8: arith.sitofp {{.*}} : i32 to f32
// W8: arith.mulf
// W8: -> tensor<1x8x64xf32>

// REPORT: fc.weight  64x128  w8a8
// REPORT: weights: 0.03 MB float -> 0.01 MB stored
// REPORT: @main against the float model (IREE, host): rel L2

// w4a8: 4-bit codes, an integer scale and zero point per group of 32 along K, f16 channel scales.
// W4-DAG: tensor<64x128xi4>
// W4-DAG: "fc.weight.w4a8.group_scale"> : tensor<64x4xi8>
// W4-DAG: "fc.weight.w4a8.zero_point"> : tensor<64x4xi8>
// W4-DAG: "fc.weight.w4a8.scale"> : tensor<64xf16>
// W4-DAG: affine_map<(d0, d1, d2, d3) -> (d2, d3 floordiv 32)>
// W4: arith.extui {{.*}} : i4 to i32
// W4: arith.subi
// W4: arith.muli
// W4: arith.extf {{.*}} : f16 to f32

// AGAIN: error: {{.*}}already quantised
