// Batched GEMMs as iree-turbine exports them (lit_tests/presets/unbatch_route.test): a linear layer
// on a [1, tokens, features] activation (a batch-1 batch_matmul against a weight), attention
// scores over 4 heads (a batch of 4 products, each from zeros), and a batch of one-row products
// against one broadcast weight (ACT's linear layers on [tokens, 1, features]), which the route
// leaves to IREE: it folds them into one GEMM over the tokens.
util.global private @w = dense<0.5> : tensor<1x64x32xf32>
func.func @proj(%a: tensor<1x8x64xf32>) -> tensor<1x8x32xf32> {
  %w = util.global.load @w : tensor<1x64x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<1x8x64xf32>, tensor<1x64x32xf32>) outs(%f : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  return %r : tensor<1x8x32xf32>
}
func.func @heads(%q: tensor<4x8x16xf32>, %k: tensor<4x16x8xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %r = linalg.batch_matmul ins(%q, %k : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%f : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}
func.func @rows(%a: tensor<6x1x32xf32>, %w: tensor<32x16xf32>) -> tensor<6x1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %be = tensor.empty() : tensor<6x32x16xf32>
  %b = linalg.broadcast ins(%w : tensor<32x16xf32>) outs(%be : tensor<6x32x16xf32>) dimensions = [0]
  %e = tensor.empty() : tensor<6x1x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x1x16xf32>) -> tensor<6x1x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<6x1x32xf32>, tensor<6x32x16xf32>) outs(%f : tensor<6x1x16xf32>) -> tensor<6x1x16xf32>
  return %r : tensor<6x1x16xf32>
}
