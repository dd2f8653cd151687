func.func @siglip_layer(%x0: tensor<256x1152xf32>, %w0: tensor<1152x3456xf32>, %x1: tensor<256x1152xf32>, %w1: tensor<1152x1152xf32>, %x2: tensor<256x1152xf32>, %w2: tensor<1152x4304xf32>, %x3: tensor<256x4304xf32>, %w3: tensor<4304x1152xf32>) -> (tensor<256x3456xf32>, tensor<256x1152xf32>, tensor<256x4304xf32>, tensor<256x1152xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x3456xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x3456xf32>) -> tensor<256x3456xf32>
  // qkv projection
  %r0 = linalg.matmul ins(%x0, %w0 : tensor<256x1152xf32>, tensor<1152x3456xf32>) outs(%f0 : tensor<256x3456xf32>) -> tensor<256x3456xf32>
  %e1 = tensor.empty() : tensor<256x1152xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x1152xf32>) -> tensor<256x1152xf32>
  // o projection
  %r1 = linalg.matmul ins(%x1, %w1 : tensor<256x1152xf32>, tensor<1152x1152xf32>) outs(%f1 : tensor<256x1152xf32>) -> tensor<256x1152xf32>
  %e2 = tensor.empty() : tensor<256x4304xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x4304xf32>) -> tensor<256x4304xf32>
  // mlp fc1
  %r2 = linalg.matmul ins(%x2, %w2 : tensor<256x1152xf32>, tensor<1152x4304xf32>) outs(%f2 : tensor<256x4304xf32>) -> tensor<256x4304xf32>
  %e3 = tensor.empty() : tensor<256x1152xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x1152xf32>) -> tensor<256x1152xf32>
  // mlp fc2
  %r3 = linalg.matmul ins(%x3, %w3 : tensor<256x4304xf32>, tensor<4304x1152xf32>) outs(%f3 : tensor<256x1152xf32>) -> tensor<256x1152xf32>
  return %r0, %r1, %r2, %r3 : tensor<256x3456xf32>, tensor<256x1152xf32>, tensor<256x4304xf32>, tensor<256x1152xf32>
}
