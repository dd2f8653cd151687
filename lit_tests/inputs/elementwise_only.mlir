// Only an elementwise add: the dispatch has no contraction, convolution or
// attention root op. (linalg.add is gone from IREE 3.13's linalg; a generic
// with arith.addf is what importers produce anyway.)
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %e = tensor.empty() : tensor<64x128xf32>
    %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<64x128xf32>
    return %c : tensor<64x128xf32>
  }
}
