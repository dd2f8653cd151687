func.func @unet_block(%x0: tensor<16x1280xf32>, %w0: tensor<1280x256xf32>, %x1: tensor<8x1280xf32>, %w1: tensor<1280x512xf32>, %x2: tensor<8x2560xf32>, %w2: tensor<2560x512xf32>, %x3: tensor<4x2560xf32>, %w3: tensor<2560x1024xf32>, %x4: tensor<4x5120xf32>, %w4: tensor<5120x1024xf32>, %x5: tensor<8x5120xf32>, %w5: tensor<5120x512xf32>, %x6: tensor<16x2560xf32>, %w6: tensor<2560x256xf32>) -> (tensor<16x256xf32>, tensor<8x512xf32>, tensor<8x512xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<8x512xf32>, tensor<16x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x256xf32>) -> tensor<16x256xf32>
  // temporal conv k5 256->256 @T=16
  %r0 = linalg.matmul ins(%x0, %w0 : tensor<16x1280xf32>, tensor<1280x256xf32>) outs(%f0 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %e1 = tensor.empty() : tensor<8x512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  // temporal conv k5 256->512 @T=8
  %r1 = linalg.matmul ins(%x1, %w1 : tensor<8x1280xf32>, tensor<1280x512xf32>) outs(%f1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %e2 = tensor.empty() : tensor<8x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  // temporal conv k5 512->512 @T=8
  %r2 = linalg.matmul ins(%x2, %w2 : tensor<8x2560xf32>, tensor<2560x512xf32>) outs(%f2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %e3 = tensor.empty() : tensor<4x1024xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  // temporal conv k5 512->1024 @T=4
  %r3 = linalg.matmul ins(%x3, %w3 : tensor<4x2560xf32>, tensor<2560x1024xf32>) outs(%f3 : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %e4 = tensor.empty() : tensor<4x1024xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  // temporal conv k5 1024->1024 @T=4
  %r4 = linalg.matmul ins(%x4, %w4 : tensor<4x5120xf32>, tensor<5120x1024xf32>) outs(%f4 : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %e5 = tensor.empty() : tensor<8x512xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<8x512xf32>) -> tensor<8x512xf32>
  // temporal conv k5 1024->512 @T=8
  %r5 = linalg.matmul ins(%x5, %w5 : tensor<8x5120xf32>, tensor<5120x512xf32>) outs(%f5 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %e6 = tensor.empty() : tensor<16x256xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<16x256xf32>) -> tensor<16x256xf32>
  // temporal conv k5 512->256 @T=16
  %r6 = linalg.matmul ins(%x6, %w6 : tensor<16x2560xf32>, tensor<2560x256xf32>) outs(%f6 : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<16x256xf32>, tensor<8x512xf32>, tensor<8x512xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<8x512xf32>, tensor<16x256xf32>
}
