// An M=50 projection, as an action chunk of 50 tokens through a 1024x1024
// linear layer with [K, N] weights: C[50,1024] = A[50,1024] @ B[1024,1024].
module {
  func.func @proj_m50(%a: tensor<50x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<50x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<50x1024xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    %c = linalg.matmul ins(%a, %b : tensor<50x1024xf32>, tensor<1024x1024xf32>)
                       outs(%acc : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    return %c : tensor<50x1024xf32>
  }
}
