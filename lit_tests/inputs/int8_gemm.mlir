// int8 x int8 -> int32 GEMM: C[16,256] = A[16,256] @ B[256,256], operands
// sign-extended to i32 inside the contraction (linalg.matmul's default cast).
module {
  func.func @int8_gemm(%a: tensor<16x256xi8>, %b: tensor<256x256xi8>) -> tensor<16x256xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<16x256xi32>
    %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<16x256xi32>) -> tensor<16x256xi32>
    %c = linalg.matmul ins(%a, %b : tensor<16x256xi8>, tensor<256x256xi8>)
                       outs(%acc : tensor<16x256xi32>) -> tensor<16x256xi32>
    return %c : tensor<16x256xi32>
  }
}
