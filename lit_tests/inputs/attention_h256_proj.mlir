// A 256-wide attention head (the width of pi0's Gemma heads) followed by an output projection.
// IREE 3.13's own CPU config for the attention steps the head and computes wrong results
// (docs/ATTENTION.md), so IREE's build of this function is off against numpy with or without
// a spec that configures only the projection: verify judges such a spec by its dispatch alone.
func.func @attention_proj(%q: tensor<8x16x256xf32>, %k: tensor<8x24x256xf32>, %v: tensor<8x24x256xf32>,
                          %w: tensor<256x64xf32>) -> tensor<128x64xf32> {
  %scale = arith.constant 0.0625 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x256xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, n)>,
      affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (b, m, n)>]>
      ins(%q, %k, %v, %scale : tensor<8x16x256xf32>, tensor<8x24x256xf32>, tensor<8x24x256xf32>, f32)
      outs(%e : tensor<8x16x256xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<8x16x256xf32>
  %flat = tensor.collapse_shape %a [[0, 1], [2]] : tensor<8x16x256xf32> into tensor<128x256xf32>
  %eo = tensor.empty() : tensor<128x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<128x64xf32>) -> tensor<128x64xf32>
  %out = linalg.matmul ins(%flat, %w : tensor<128x256xf32>, tensor<256x64xf32>) outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %out : tensor<128x64xf32>
}
