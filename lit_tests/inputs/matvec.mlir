// Batch-1 shapes: a 1x2048x2048 linalg.matmul ([K, N] weights) and a
// 2048x2048 linalg.matvec (y = W x), two separate dispatches.
module {
  func.func @matmul_m1(%a: tensor<1x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<1x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x2048xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2048xf32>) -> tensor<1x2048xf32>
    %c = linalg.matmul ins(%a, %b : tensor<1x2048xf32>, tensor<2048x2048xf32>)
                       outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
    return %c : tensor<1x2048xf32>
  }
  func.func @matvec(%w: tensor<2048x2048xf32>, %x: tensor<2048xf32>) -> tensor<2048xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2048xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2048xf32>) -> tensor<2048xf32>
    %y = linalg.matvec ins(%w, %x : tensor<2048x2048xf32>, tensor<2048xf32>)
                       outs(%acc : tensor<2048xf32>) -> tensor<2048xf32>
    return %y : tensor<2048xf32>
  }
}
