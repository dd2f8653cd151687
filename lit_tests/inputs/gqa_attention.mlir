// Attention over 4 query heads sharing 1 K/V head, written as iree-turbine exports it (pi0's Gemma
// layers, 8 over 1, at small sizes): K and V broadcast to every head, reshaped, transposed, then
// batched products over the heads (docs/DATA_TILING.md 14).
func.func @gqa(%q: tensor<1x4x8x16xf32>, %k: tensor<1x1x24x16xf32>, %v: tensor<1x1x24x16xf32>) -> tensor<4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<1x1x4x24x16xf32>
  %kb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x1x24x16xf32>) outs(%eb : tensor<1x1x4x24x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x4x24x16xf32>
  %kc = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x1x4x24x16xf32> into tensor<1x4x24x16xf32>
  %et = tensor.empty() : tensor<1x4x16x24xf32>
  %kt = linalg.transpose ins(%kc : tensor<1x4x24x16xf32>) outs(%et : tensor<1x4x16x24xf32>) permutation = [0, 1, 3, 2]
  %qs = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %ks = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x4x16x24xf32> into tensor<4x16x24xf32>
  %e0 = tensor.empty() : tensor<4x8x24xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x8x24xf32>) -> tensor<4x8x24xf32>
  %s = linalg.batch_matmul ins(%qs, %ks : tensor<4x8x16xf32>, tensor<4x16x24xf32>) outs(%f0 : tensor<4x8x24xf32>) -> tensor<4x8x24xf32>
  %vb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x1x24x16xf32>) outs(%eb : tensor<1x1x4x24x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x4x24x16xf32>
  %vs = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x1x4x24x16xf32> into tensor<4x24x16xf32>
  %e1 = tensor.empty() : tensor<4x8x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%s, %vs : tensor<4x8x24xf32>, tensor<4x24x16xf32>) outs(%f1 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}
