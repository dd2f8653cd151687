// The VLA op kinds in one module (issue 10's 'done when'): attention (8x50x64x32),
// a batch-2 14x14/14 patch-embedding convolution, and an INT4-weight matvec with per-group f16
// scales as a quantiser writes it (tools/gen_int4_models.py --m 1 --n 256 --k 512 --group 128).
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

  func.func @patch_embed(%img: tensor<2x56x56x3xf32>, %w: tensor<14x14x3x128xf32>) -> tensor<2x4x4x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4x4x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x128xf32>) -> tensor<2x4x4x128xf32>
    %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<14> : tensor<2xi64>}
           ins(%img, %w : tensor<2x56x56x3xf32>, tensor<14x14x3x128xf32>)
           outs(%acc : tensor<2x4x4x128xf32>) -> tensor<2x4x4x128xf32>
    return %y : tensor<2x4x4x128xf32>
  }

func.func @int4_matmul(%x: tensor<1x4x128xf32>, %w: tensor<256x4x128xi4>, %scale: tensor<256x4xf16>) -> tensor<1x256xf32> {
  %empty = tensor.empty() : tensor<256x4x128xf32>
  %deq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %scale : tensor<256x4x128xi4>, tensor<256x4xf16>) outs(%empty : tensor<256x4x128xf32>) {
  ^bb0(%q: i4, %s: f16, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %s32 = arith.extf %s : f16 to f32
    %d = arith.mulf %f, %s32 : f32
    linalg.yield %d : f32
  } -> tensor<256x4x128xf32>
  %zero_f = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x256xf32>
  %acc = linalg.fill ins(%zero_f : f32) outs(%init : tensor<1x256xf32>) -> tensor<1x256xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %deq : tensor<1x4x128xf32>, tensor<256x4x128xf32>) outs(%acc : tensor<1x256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x256xf32>
  return %y : tensor<1x256xf32>
}
}
