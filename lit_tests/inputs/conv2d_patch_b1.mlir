// ViT-style patch embedding at batch 1: a 14x14 conv with stride 14 over a 1x56x56x3 image
// (NHWC), 3 -> 128 channels, giving a 4x4 grid of patch embeddings.
module {
  func.func @patch_embed(%img: tensor<1x56x56x3xf32>, %w: tensor<14x14x3x128xf32>) -> tensor<1x4x4x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x4x4x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
    %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<14> : tensor<2xi64>}
           ins(%img, %w : tensor<1x56x56x3xf32>, tensor<14x14x3x128xf32>)
           outs(%acc : tensor<1x4x4x128xf32>) -> tensor<1x4x4x128xf32>
    return %y : tensor<1x4x4x128xf32>
  }
}
