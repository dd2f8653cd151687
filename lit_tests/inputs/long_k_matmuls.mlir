// GEMMs for the long-K route (lit_tests/presets/k_split_route.test): a matmul and a unit-batch
// batch_matmul (how iree-turbine exports torch's linear) with K = 256, one with K = 128 that the
// route must leave alone, a batch-4 batch_matmul with K = 256 (never cut: a batch may be a
// broadcast weight IREE folds away) and a K = 256 matmul with 16 columns (cut only by a script
// that names no N).
func.func @proj(%a: tensor<8x256xf32>, %b: tensor<256x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
func.func @batch_proj(%a: tensor<1x8x256xf32>, %b: tensor<1x256x32xf32>) -> tensor<1x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x8x256xf32>, tensor<1x256x32xf32>) outs(%f : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  return %r : tensor<1x8x32xf32>
}
func.func @short(%a: tensor<8x128xf32>, %b: tensor<128x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x128xf32>, tensor<128x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
func.func @batch_many(%a: tensor<4x8x256xf32>, %b: tensor<4x256x32xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x8x256xf32>, tensor<4x256x32xf32>) outs(%f : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}
func.func @narrow(%a: tensor<8x256xf32>, %b: tensor<256x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
