// Batch-1 1-D convolutions as torch's Conv1d lowers them (NCW, the bias broadcast into the
// accumulator, the input padded first): the packed kernel-tap route's input (host/routes/packed_taps.py).
// @conv: 16 -> 12 channels, kernel 5 over 8 steps; @conv_twice: two of the same shape and one of
// another; @strided: stride 2 (the route leaves it to the tap split); @f16: another element type.
func.func @conv(%x: tensor<1x16x8xf32>, %w: tensor<12x16x5xf32>, %b: tensor<12xf32>) -> tensor<1x12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x16x8xf32> to tensor<1x16x12xf32>
  %e = tensor.empty() : tensor<1x12x8xf32>
  %acc = linalg.broadcast ins(%b : tensor<12xf32>) outs(%e : tensor<1x12x8xf32>) dimensions = [0, 2]
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%p, %w : tensor<1x16x12xf32>, tensor<12x16x5xf32>) outs(%acc : tensor<1x12x8xf32>) -> tensor<1x12x8xf32>
  return %r : tensor<1x12x8xf32>
}

func.func @conv_twice(%x: tensor<1x16x12xf32>, %w1: tensor<12x16x5xf32>, %w2: tensor<12x16x5xf32>,
                      %w3: tensor<16x12x3xf32>) -> tensor<1x16x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x8xf32>) -> tensor<1x12x8xf32>
  %a = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%x, %w1 : tensor<1x16x12xf32>, tensor<12x16x5xf32>) outs(%f : tensor<1x12x8xf32>) -> tensor<1x12x8xf32>
  %b = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%x, %w2 : tensor<1x16x12xf32>, tensor<12x16x5xf32>) outs(%a : tensor<1x12x8xf32>) -> tensor<1x12x8xf32>
  %e2 = tensor.empty() : tensor<1x16x6xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x6xf32>) -> tensor<1x16x6xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%b, %w3 : tensor<1x12x8xf32>, tensor<16x12x3xf32>) outs(%f2 : tensor<1x16x6xf32>) -> tensor<1x16x6xf32>
  return %c : tensor<1x16x6xf32>
}

func.func @strided(%x: tensor<1x16x17xf32>, %w: tensor<16x16x3xf32>) -> tensor<1x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>}
         ins(%x, %w : tensor<1x16x17xf32>, tensor<16x16x3xf32>) outs(%f : tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  return %r : tensor<1x16x8xf32>
}

func.func @f16(%x: tensor<1x16x12xf16>, %w: tensor<12x16x5xf16>) -> tensor<1x12x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x12x8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x12x8xf16>) -> tensor<1x12x8xf16>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%x, %w : tensor<1x16x12xf16>, tensor<12x16x5xf16>) outs(%f : tensor<1x12x8xf16>) -> tensor<1x12x8xf16>
  return %r : tensor<1x12x8xf16>
}
