func.func @llama_prefill_layer(%x0: tensor<276x4096xf32>, %w0: tensor<4096x4096xf32>, %x1: tensor<276x4096xf32>, %w1: tensor<4096x8192xf32>, %x2: tensor<276x4096xf32>, %w2: tensor<4096x4096xf32>, %x3: tensor<276x4096xf32>, %w3: tensor<4096x11008xf32>, %x4: tensor<276x4096xf32>, %w4: tensor<4096x11008xf32>, %x5: tensor<276x11008xf32>, %w5: tensor<11008x4096xf32>) -> (tensor<276x4096xf32>, tensor<276x8192xf32>, tensor<276x4096xf32>, tensor<276x11008xf32>, tensor<276x11008xf32>, tensor<276x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<276x4096xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  // q projection
  %r0 = linalg.matmul ins(%x0, %w0 : tensor<276x4096xf32>, tensor<4096x4096xf32>) outs(%f0 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  %e1 = tensor.empty() : tensor<276x8192xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<276x8192xf32>) -> tensor<276x8192xf32>
  // k+v projection
  %r1 = linalg.matmul ins(%x1, %w1 : tensor<276x4096xf32>, tensor<4096x8192xf32>) outs(%f1 : tensor<276x8192xf32>) -> tensor<276x8192xf32>
  %e2 = tensor.empty() : tensor<276x4096xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  // o projection
  %r2 = linalg.matmul ins(%x2, %w2 : tensor<276x4096xf32>, tensor<4096x4096xf32>) outs(%f2 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  %e3 = tensor.empty() : tensor<276x11008xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<276x11008xf32>) -> tensor<276x11008xf32>
  // mlp gate
  %r3 = linalg.matmul ins(%x3, %w3 : tensor<276x4096xf32>, tensor<4096x11008xf32>) outs(%f3 : tensor<276x11008xf32>) -> tensor<276x11008xf32>
  %e4 = tensor.empty() : tensor<276x11008xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<276x11008xf32>) -> tensor<276x11008xf32>
  // mlp up
  %r4 = linalg.matmul ins(%x4, %w4 : tensor<276x4096xf32>, tensor<4096x11008xf32>) outs(%f4 : tensor<276x11008xf32>) -> tensor<276x11008xf32>
  %e5 = tensor.empty() : tensor<276x4096xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  // mlp down
  %r5 = linalg.matmul ins(%x5, %w5 : tensor<276x11008xf32>, tensor<11008x4096xf32>) outs(%f5 : tensor<276x4096xf32>) -> tensor<276x4096xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<276x4096xf32>, tensor<276x8192xf32>, tensor<276x4096xf32>, tensor<276x11008xf32>, tensor<276x11008xf32>, tensor<276x4096xf32>
}
