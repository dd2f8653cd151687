// Masked grouped-query attention as the quantiser leaves pi0's Gemma attention
// (lit_tests/quant/eager_attention.mlir): 8 query heads of 16 rows read one K head
// and one V head (24 keys, head dim 32) and one 16 x 24 additive mask through
// their maps, no head dimension in them. IREE's attention op detail then counts
// the heads as queries (m = 8 x 16), and the op is masked: IREE 3.13's
// online_attention matcher takes unmasked ops only, so a spec matches it as a DAG.
func.func @main(%q: tensor<8x16x32xf32>, %k: tensor<24x32xf32>, %v: tensor<24x32xf32>, %mask: tensor<16x24xf32>) -> tensor<8x16x32xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<8x16x32xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>,
      affine_map<(b, m, n, k1, k2) -> (k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (k2, n)>,
      affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, m, n, k1, k2) -> (b, m, n)>]>
      ins(%q, %k, %v, %scale, %mask : tensor<8x16x32xf32>, tensor<24x32xf32>, tensor<24x32xf32>, f32, tensor<16x24xf32>)
      outs(%e : tensor<8x16x32xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<8x16x32xf32>
  return %r : tensor<8x16x32xf32>
}
