// Batched matmul: C[4,64,128] = A[4,64,32] @ B[4,32,128] (batch 4, M 64, N 128, K 32).
module {
  func.func @batch_matmul(%a: tensor<4x64x32xf32>, %b: tensor<4x32x128xf32>) -> tensor<4x64x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x64x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
    %c = linalg.batch_matmul ins(%a, %b : tensor<4x64x32xf32>, tensor<4x32x128xf32>)
                             outs(%acc : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
    return %c : tensor<4x64x128xf32>
  }
}
