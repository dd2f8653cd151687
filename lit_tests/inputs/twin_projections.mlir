// Two projections of one shape and one of another, as an attention layer's q and o (2048 -> 2048)
// and its fused kv (2048 -> 512) are: IREE makes one executable for the two identical ops and
// calls it twice, so counting executables would undercount time and weights.
func.func @layer(%x: tensor<16x2048xf32>, %wq: tensor<2048x2048xf32>, %wkv: tensor<2048x512xf32>,
                 %wo: tensor<2048x2048xf32>) -> (tensor<16x2048xf32>, tensor<16x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%f : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %ekv = tensor.empty() : tensor<16x512xf32>
  %fkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<16x512xf32>) -> tensor<16x512xf32>
  %kv = linalg.matmul ins(%x, %wkv : tensor<16x2048xf32>, tensor<2048x512xf32>) outs(%fkv : tensor<16x512xf32>) -> tensor<16x512xf32>
  %o = linalg.matmul ins(%q, %wo : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%f : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  return %o, %kv : tensor<16x2048xf32>, tensor<16x512xf32>
}
