// A 1-D temporal convolution as in Diffusion Policy's conditional U-Net:
// batch 2 (batch 1 is not tunable in IREE 3.13), 64 -> 64 channels, 16 time
// steps, kernel 5, "valid" padding: out[2,12,64] (NWC input, WCF filter).
module {
  func.func @temporal_conv1d(%x: tensor<2x16x64xf32>, %w: tensor<5x64x64xf32>) -> tensor<2x12x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x12x64xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x12x64xf32>) -> tensor<2x12x64xf32>
    %y = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
           ins(%x, %w : tensor<2x16x64xf32>, tensor<5x64x64xf32>)
           outs(%acc : tensor<2x12x64xf32>) -> tensor<2x12x64xf32>
    return %y : tensor<2x12x64xf32>
  }
}
