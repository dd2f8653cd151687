// --activations static: the activation's INT8 scale is one constant per layer (the max |x| of the
// calibration activations the layer met, recorded in quantization.json), so the per-token max |x|
// reduction leaves the model and the quantising op reads only x; the epilogue reads the same
// constant. The report says how the accuracy was measured.
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --activations static --min-weight-elements 1 -o %t > %t.txt
// RUN: FileCheck %s --input-file %t/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.txt
// RUN: FileCheck %s --check-prefix=RECORD --input-file %t/quantization.json

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

// No reduction over K in f32 and no per-token row tensor: the codes come from x alone.
// CHECK-NOT: math.absf
// CHECK-NOT: tensor<1x8xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<1x8x128xf32>) outs(%{{.*}} : tensor<1x8x128xi8>)
// CHECK: math.roundeven
// CHECK: arith.fptosi {{.*}} : f32 to i8
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: -> tensor<1x8x64xi32>
// The epilogue: the i32 sums and the channel scales only.
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x64xi32>, tensor<64xf32>)
// CHECK: arith.sitofp {{.*}} : i32 to f32
// CHECK-NOT: math.absf

// REPORT: fc.weight  64x128  w8a8 static
// REPORT: @main against the float model (IREE, host, calibration and held-out inputs): rel L2

// RECORD-DAG: "activation_amax":
// RECORD-DAG: "activations": "static"
