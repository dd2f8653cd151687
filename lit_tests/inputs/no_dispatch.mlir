// A module with no dispatch: the function only returns its argument, so IREE
// forms no executable and there is nothing to inspect or tune.
module {
  func.func @identity(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
