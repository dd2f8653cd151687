// Linear layers as iree-turbine writes them (a batch-1 batch_matmul against the weight, rows and
// columns that are not multiples of a register tile), and one batched product over 4 heads.
util.global private @weight = #util.byte_pattern<1> : tensor<1x40x24xf32>
func.func @linear(%a: tensor<1x13x40xf32>) -> tensor<1x13x24xf32> {
  %w = util.global.load @weight : tensor<1x40x24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x13x24xf32>) -> tensor<1x13x24xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<1x13x40xf32>, tensor<1x40x24xf32>) outs(%f : tensor<1x13x24xf32>) -> tensor<1x13x24xf32>
  return %r : tensor<1x13x24xf32>
}
func.func @heads(%q: tensor<4x12x16xf32>, %k: tensor<4x16x12xf32>) -> tensor<4x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x12x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  %r = linalg.batch_matmul ins(%q, %k : tensor<4x12x16xf32>, tensor<4x16x12xf32>) outs(%f : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  return %r : tensor<4x12x12xf32>
}
