// Uses an op of a dialect no one registered (`foo.bar`, line 5): IREE refuses it.
module {
  func.func @unknown(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %r = "foo.bar"(%a, %e) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
}
