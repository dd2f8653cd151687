// ACT's first 3x3 im2col gather (ResNet-18 layer 1 at 60x80), written out: the gather of every
// 3x3 window of a padded 64x62x82 activation, packed for a 16-row mmt4d LHS, as IREE's
// `--iree-global-opt-use-im2col-for-convs` with data tiling makes it (docs/ELEMENTWISE.md).
// @relu's elementwise generic has tiles that divide its loops: no config is written for it.
func.func @gather(%x: tensor<64x62x82xf32>) -> tensor<60x5x64x3x3x16x1xf32> {
  %e = tensor.empty() : tensor<64x3x3x60x80xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<64x62x82xf32>) outs(%e : tensor<64x3x3x60x80xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x3x3x60x80xf32>
  %p0 = tensor.empty() : tensor<60x5x64x3x3x16x1xf32>
  %p = linalg.pack %g outer_dims_perm = [3, 4, 0, 1, 2] inner_dims_pos = [4, 2] inner_tiles = [16, 1] into %p0 : tensor<64x3x3x60x80xf32> -> tensor<60x5x64x3x3x16x1xf32>
  return %p : tensor<60x5x64x3x3x16x1xf32>
}

func.func @relu(%x: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %e = tensor.empty() : tensor<64x80xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x80xf32>) outs(%e : tensor<64x80xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
