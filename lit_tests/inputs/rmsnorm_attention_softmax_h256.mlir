// The model of rmsnorm_attention_h256.mlir with an `iree_linalg_ext.scan` (a running sum) after
// the attention: an op the numpy reference does not evaluate, so verify cannot compare the
// function as a whole and checks the attention dispatch alone against a numpy model of its root
// op (never against IREE's default build, whose head-stepping config is wrong here). (It held a
// `linalg.softmax`, hence its name, until the reference learned softmax: docs/SOFTMAX.md.)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#weight = affine_map<(d0, d1, d2) -> (d2)>
#map_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#map_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>
#map_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>
#map_s = affine_map<(d0, d1, d2, d3, d4) -> ()>
#map_o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
module {
  func.func @rmsnorm_attention_softmax(%x: tensor<8x50x256xf32>, %w: tensor<256xf32>, %k: tensor<8x64x256xf32>,
                               %v: tensor<8x64x256xf32>) -> tensor<8x50x256xf32> {
    %c2_i64 = arith.constant 2 : i64
    %zero = arith.constant 0.000000e+00 : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %width = arith.constant 2.560000e+02 : f32
    %scale = arith.constant 6.250000e-02 : f32
    %e = tensor.empty() : tensor<8x50x256xf32>
    %sq = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x : tensor<8x50x256xf32>) outs(%e : tensor<8x50x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %p = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %p : f32
    } -> tensor<8x50x256xf32>
    %e1 = tensor.empty() : tensor<8x50x1xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x50x1xf32>) -> tensor<8x50x1xf32>
    %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%sq : tensor<8x50x256xf32>) outs(%acc : tensor<8x50x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<8x50x1xf32>
    %inv = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%sum : tensor<8x50x1xf32>) outs(%e1 : tensor<8x50x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %mean = arith.divf %in, %width : f32
      %a = arith.addf %mean, %eps : f32
      %r = math.rsqrt %a : f32
      linalg.yield %r : f32
    } -> tensor<8x50x1xf32>
    %q = linalg.generic {indexing_maps = [#id3, #row, #weight, #id3],
                         iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x, %inv, %w : tensor<8x50x256xf32>, tensor<8x50x1xf32>, tensor<256xf32>)
        outs(%e : tensor<8x50x256xf32>) {
    ^bb0(%in: f32, %s: f32, %g: f32, %out: f32):
      %n = arith.mulf %in, %s : f32
      %r = arith.mulf %n, %g : f32
      linalg.yield %r : f32
    } -> tensor<8x50x256xf32>
    %o = iree_linalg_ext.attention <indexing_maps = [#map_q, #map_k, #map_v, #map_s, #map_o]>
           ins(%q, %k, %v, %scale : tensor<8x50x256xf32>, tensor<8x64x256xf32>, tensor<8x64x256xf32>, f32)
           outs(%e : tensor<8x50x256xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<8x50x256xf32>
    %scan_zero = arith.constant 0.0 : f32
    %scan_acc0 = tensor.empty() : tensor<8x50xf32>
    %scan_acc = linalg.fill ins(%scan_zero : f32) outs(%scan_acc0 : tensor<8x50xf32>) -> tensor<8x50xf32>
    %sm:2 = iree_linalg_ext.scan dimension(2) inclusive(true) ins(%o : tensor<8x50x256xf32>)
        outs(%e, %scan_acc : tensor<8x50x256xf32>, tensor<8x50xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      iree_linalg_ext.yield %s : f32
    } -> tensor<8x50x256xf32>, tensor<8x50xf32>
    return %sm#0 : tensor<8x50x256xf32>
  }
}
