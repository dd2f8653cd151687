// Convolutions whose filters are parameters (as iree-turbine exports them, externalized), for the
// Winograd route (host/routes/winograd.py): NCHW, from zeros.
// - @conv3x3: 64 -> 128 channels over a 14x14 image, 3x3, stride 1 -> 12x12 output = 2 x 2 blocks of
//   6x6: converted. Its transformed filter (8 x 8 x 64 x 128 f32, 2 MiB) is 1.8 MB larger than the
//   filter: above IREE's default hoisting threshold (1 MiB), so only the route's flag hoists it.
// - @strided: 8 -> 16 channels, 3x3 with stride 2: IREE's pass leaves it (im2col takes it).
// - @pointwise: a 1x1 filter: left too.
module {
  util.global private @w3 = #flow.parameter.named<"model"::"w3"> : tensor<128x64x3x3xf32>
  util.global private @w3s = #flow.parameter.named<"model"::"w3s"> : tensor<16x8x3x3xf32>
  util.global private @w1 = #flow.parameter.named<"model"::"w1"> : tensor<16x8x1x1xf32>
  func.func @conv3x3(%img: tensor<1x64x14x14xf32>) -> tensor<1x128x12x12xf32> {
    %w = util.global.load @w3 : tensor<128x64x3x3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x128x12x12xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x12x12xf32>) -> tensor<1x128x12x12xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<1x64x14x14xf32>, tensor<128x64x3x3xf32>)
           outs(%acc : tensor<1x128x12x12xf32>) -> tensor<1x128x12x12xf32>
    return %y : tensor<1x128x12x12xf32>
  }
  func.func @strided(%img: tensor<1x8x13x13xf32>) -> tensor<1x16x6x6xf32> {
    %w = util.global.load @w3s : tensor<16x8x3x3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x6x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
           ins(%img, %w : tensor<1x8x13x13xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
    return %y : tensor<1x16x6x6xf32>
  }
  func.func @pointwise(%img: tensor<1x8x12x12xf32>) -> tensor<1x16x12x12xf32> {
    %w = util.global.load @w1 : tensor<16x8x1x1xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x12x12xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<1x8x12x12xf32>, tensor<16x8x1x1xf32>)
           outs(%acc : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
    return %y : tensor<1x16x12x12xf32>
  }
}
