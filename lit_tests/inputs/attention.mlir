// Scaled dot-product attention as iree_linalg_ext.attention, the form
// F.scaled_dot_product_attention takes after import: 8 (batch x heads),
// 50 queries, 64 keys/values, head dim 32. Loops: d0 batch, d1 m (query),
// d2 k1 (head dim), d3 k2 (key), d4 n (value dim). IREE 3.13 prints and
// parses the maps as `<indexing_maps = [...]>`, not as an attribute dictionary.
#map_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#map_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>
#map_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>
#map_s = affine_map<(d0, d1, d2, d3, d4) -> ()>
#map_o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
module {
  func.func @attention(%q: tensor<8x50x32xf32>, %k: tensor<8x64x32xf32>,
                       %v: tensor<8x64x32xf32>) -> tensor<8x50x32xf32> {
    %scale = arith.constant 0.1767767 : f32
    %e = tensor.empty() : tensor<8x50x32xf32>
    %o = iree_linalg_ext.attention <indexing_maps = [#map_q, #map_k, #map_v, #map_s, #map_o]>
           ins(%q, %k, %v, %scale : tensor<8x50x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf32>, f32)
           outs(%e : tensor<8x50x32xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<8x50x32xf32>
    return %o : tensor<8x50x32xf32>
  }
}
