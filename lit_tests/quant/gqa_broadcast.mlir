// Grouped-query attention as torch exports it (lerobot's pi0 expert, repeat_kv): one KV head
// repeated for 8 query heads by a broadcast, then transposed and reshaped into the batch_matmul
// of Q K^T. The quantiser folds that broadcast into the contraction's map: Q K^T reads the one
// K head (its unit dims dropped) and its 8 heads x 4 rows become one M of 32, so no dispatch
// writes the 8 copies. V's broadcast is followed by reshapes only (IREE fuses that one itself):
// it stays. The Linear after attention is what is quantised.
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --min-weight-elements 1 -o %t > %t.txt
// RUN: FileCheck %s --input-file %t/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.txt

#bcast_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#bcast_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
util.global private @o_proj.weight = #flow.parameter.named<"model"::"o_proj.weight"> : tensor<16x16xf32>
func.func @main(%q: tensor<1x8x4x16xf32>, %k: tensor<1x1x6x16xf32>, %v: tensor<1x1x6x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1x1x8x6x16xf32>
  %kb = linalg.generic {indexing_maps = [#bcast_in, #bcast_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x1x6x16xf32>) outs(%e5 : tensor<1x1x8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x1x8x6x16xf32>
  %kc = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x1x8x6x16xf32> into tensor<1x8x6x16xf32>
  %et = tensor.empty() : tensor<1x8x16x6xf32>
  %kt = linalg.transpose ins(%kc : tensor<1x8x6x16xf32>) outs(%et : tensor<1x8x16x6xf32>) permutation = [0, 1, 3, 2]
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x8x16x6xf32> into tensor<8x16x6xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x8x4x16xf32> into tensor<8x4x16xf32>
  %es = tensor.empty() : tensor<8x4x6xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x4x6xf32>) -> tensor<8x4x6xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x4x16xf32>, tensor<8x16x6xf32>) outs(%fs : tensor<8x4x6xf32>) -> tensor<8x4x6xf32>
  %vb = linalg.generic {indexing_maps = [#bcast_in, #bcast_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x1x6x16xf32>) outs(%e5 : tensor<1x1x8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x1x8x6x16xf32>
  %v3 = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x1x8x6x16xf32> into tensor<8x6x16xf32>
  %eo = tensor.empty() : tensor<8x4x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  %o = linalg.batch_matmul ins(%s, %v3 : tensor<8x4x6xf32>, tensor<8x6x16xf32>) outs(%fo : tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  // The heads summed into one row per token (a stand-in for the head concat), then o_proj.
  %er = tensor.empty() : tensor<4x16xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%o : tensor<8x4x16xf32>) outs(%fr : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  %w = util.global.load @o_proj.weight : tensor<16x16xf32>
  %ew = tensor.empty() : tensor<16x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x16xf32>) outs(%ew : tensor<16x16xf32>) permutation = [1, 0]
  %fy = linalg.fill ins(%zero : f32) outs(%er : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%r, %wt : tensor<4x16xf32>, tensor<16x16xf32>) outs(%fy : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// Q K^T: Q's 8 heads x 4 rows as one M of 32, K read as its one 6x16 head.
// CHECK: %[[K:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<1x1x6x16xf32> into tensor<6x16xf32>
// CHECK: %[[Q:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<8x4x16xf32> into tensor<32x16xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[Q]], %[[K]] : tensor<32x16xf32>, tensor<6x16xf32>) outs(%{{.+}} : tensor<32x6xf32>)
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2]] output_shape [8, 4, 6] : tensor<32x6xf32> into tensor<8x4x6xf32>
// V's broadcast is left to IREE, and P V stays a batch_matmul.
// CHECK: tensor<1x1x8x6x16xf32>
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.transpose

// REPORT: o_proj.weight  16x16  w8a8
// REPORT: folded: linalg.batch_matmul 8x4x16*8x16x6: operand 1 read as 1x1x6x16 through its map, not as a 8x16x6 copy
