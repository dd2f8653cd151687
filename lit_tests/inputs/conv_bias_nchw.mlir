// A convolution as torch-mlir writes PyTorch's conv2d with a bias (NCHW): the output starts as the
// bias broadcast over the pixels and the convolution accumulates into it. 8 -> 32 channels, 3x3,
// over a 1x8x6x6 image: 16 pixels out.
module {
  func.func @conv_bias(%img: tensor<1x8x6x6xf32>, %w: tensor<32x8x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x4x4xf32> {
    %e = tensor.empty() : tensor<1x32x4x4xf32>
    %acc = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%b : tensor<32xf32>) outs(%e : tensor<1x32x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x32x4x4xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%img, %w : tensor<1x8x6x6xf32>, tensor<32x8x3x3xf32>)
           outs(%acc : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
    return %y : tensor<1x32x4x4xf32>
  }
}
