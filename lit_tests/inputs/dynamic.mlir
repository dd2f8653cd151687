// A matmul with a dynamic M: C[?,128] = A[?,256] @ B[256,128].
module {
  func.func @dynamic_matmul(%a: tensor<?x256xf32>, %b: tensor<256x128xf32>) -> tensor<?x128xf32> {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %a, %c0 : tensor<?x256xf32>
    %e = tensor.empty(%m) : tensor<?x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
    %c = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x128xf32>)
                       outs(%acc : tensor<?x128xf32>) -> tensor<?x128xf32>
    return %c : tensor<?x128xf32>
  }
}
