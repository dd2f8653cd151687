// Malformed on purpose: line 7 has an operand list with a missing operand.
// The error IREE reports names line 7; keep that line where it is.
module {
  func.func @broken(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %c = linalg.copy ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = arith.addf %c, : tensor<4x4xf32>
    return %s : tensor<4x4xf32>
  }
}
