// Three convolutions over two images (NCHW), as torch-mlir writes them, for the batch-fold route
// (host/routes/conv_fold.py): 8 -> 16 channels, 3x3.
// - @small: 8x8 images, stride 1 -> 6x6 = 36 pixels per image, from zeros. 36 pads to 48 with 16
//   lanes (40 with 8); two images' 72 pad to 80 (72): the route folds it on AVX-512 and on AVX2.
// - @strided and @dilated: the same 6x6 output from a 13x13 image with stride 2 (tensor-typed
//   attributes, as some producers write them) and from a 10x10 one with dilation 2: folded too.
// - @large: 14x14 images, stride 1 -> 12x12 = 144 pixels, a multiple of both lane counts: kept.
// - @bias: as @small but accumulating into a broadcast bias: kept (not from zeros).
module {
  func.func @small(%img: tensor<2x8x8x8xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x6x6xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x16x6x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<2x8x8x8xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    return %y : tensor<2x16x6x6xf32>
  }
  func.func @strided(%img: tensor<2x8x13x13xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x6x6xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x16x6x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%img, %w : tensor<2x8x13x13xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    return %y : tensor<2x16x6x6xf32>
  }
  func.func @dilated(%img: tensor<2x8x10x10xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x6x6xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x16x6x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<2x8x10x10xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    return %y : tensor<2x16x6x6xf32>
  }
  func.func @large(%img: tensor<2x8x14x14xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x12x12xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x16x12x12xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x12x12xf32>) -> tensor<2x16x12x12xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<2x8x14x14xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<2x16x12x12xf32>) -> tensor<2x16x12x12xf32>
    return %y : tensor<2x16x12x12xf32>
  }
  func.func @bias(%img: tensor<2x8x8x8xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<2x16x6x6xf32> {
    %e = tensor.empty() : tensor<2x16x6x6xf32>
    %acc = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%b : tensor<16xf32>) outs(%e : tensor<2x16x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x16x6x6xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%img, %w : tensor<2x8x8x8xf32>, tensor<16x8x3x3xf32>)
           outs(%acc : tensor<2x16x6x6xf32>) -> tensor<2x16x6x6xf32>
    return %y : tensor<2x16x6x6xf32>
  }
}
