// A Diffusion-Policy-style temporal convolution at batch 1 (kernel 5, 128 -> 128 channels,
// 16 steps, input pre-padded): IREE 3.13 drops a tuning spec's config on it unless it is
// compiled through the batch-1 conv route (docs/CONV.md).
func.func @temporal(%x: tensor<1x20x128xf32>, %w: tensor<5x128x128xf32>) -> tensor<1x16x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x128xf32>) -> tensor<1x16x128xf32>
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
         ins(%x, %w : tensor<1x20x128xf32>, tensor<5x128x128xf32>) outs(%f : tensor<1x16x128xf32>) -> tensor<1x16x128xf32>
  return %r : tensor<1x16x128xf32>
}
