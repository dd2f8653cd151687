// Three chained f32 matmuls of different shapes with ReLU between them:
//   h1 = relu(x[8,256] @ w1[256,512]); h2 = relu(h1 @ w2[512,256]); y = h2 @ w3[256,128]
// Three contraction dispatches, for spec + verify end to end.
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mlp3(%x: tensor<8x256xf32>, %w1: tensor<256x512xf32>, %w2: tensor<512x256xf32>,
                  %w3: tensor<256x128xf32>) -> tensor<8x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<8x512xf32>
    %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x512xf32>) -> tensor<8x512xf32>
    %m1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf32>, tensor<256x512xf32>)
                        outs(%a1 : tensor<8x512xf32>) -> tensor<8x512xf32>
    %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%m1 : tensor<8x512xf32>) outs(%e1 : tensor<8x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %in, %zero : f32
      linalg.yield %v : f32
    } -> tensor<8x512xf32>
    %e2 = tensor.empty() : tensor<8x256xf32>
    %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x256xf32>) -> tensor<8x256xf32>
    %m2 = linalg.matmul ins(%r1, %w2 : tensor<8x512xf32>, tensor<512x256xf32>)
                        outs(%a2 : tensor<8x256xf32>) -> tensor<8x256xf32>
    %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%m2 : tensor<8x256xf32>) outs(%e2 : tensor<8x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %in, %zero : f32
      linalg.yield %v : f32
    } -> tensor<8x256xf32>
    %e3 = tensor.empty() : tensor<8x128xf32>
    %a3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x128xf32>) -> tensor<8x128xf32>
    %m3 = linalg.matmul ins(%r2, %w3 : tensor<8x256xf32>, tensor<256x128xf32>)
                        outs(%a3 : tensor<8x128xf32>) -> tensor<8x128xf32>
    return %m3 : tensor<8x128xf32>
  }
}
