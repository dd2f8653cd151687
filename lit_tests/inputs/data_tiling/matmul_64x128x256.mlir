// A small f32 matmul for the data-tiling tests: C[64,128] = A[64,256] @ B[256,128].
// On haswell (AVX2) IREE's data tiling packs it into 8x8x1 inner tiles, so the
// matmul dispatch computes a linalg.mmt4d of 8x16x256 outer by 8x8x1 inner tiles.
module {
  func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x128xf32>) -> tensor<64x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
    %c = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x128xf32>)
                       outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %c : tensor<64x128xf32>
  }
}
