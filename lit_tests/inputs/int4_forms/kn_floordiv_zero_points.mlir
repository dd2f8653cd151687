// Quantiser form 2: 2-D W[K, N] i4 (unsigned), f16 scales and i4 zero points per (group, column) read
// through `k floordiv G`, dequantised as (w - zp) * s, then a plain matmul: M=1, N=1024, K=2048, G=64.
func.func @kn_zp(%x: tensor<1x2048xf32>, %w: tensor<2048x1024xi4>, %s: tensor<32x1024xf16>, %zp: tensor<32x1024xi4>)
    -> tensor<1x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x1024xf32>
  %deq = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>, affine_map<(k, n) -> (k floordiv 64, n)>,
                                          affine_map<(k, n) -> (k floordiv 64, n)>, affine_map<(k, n) -> (k, n)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<2048x1024xi4>, tensor<32x1024xf16>, tensor<32x1024xi4>) outs(%e : tensor<2048x1024xf32>) {
  ^bb0(%q: i4, %sc: f16, %z: i4, %o: f32):
    %qi = arith.extui %q : i4 to i32
    %zi = arith.extui %z : i4 to i32
    %d = arith.subi %qi, %zi : i32
    %f = arith.sitofp %d : i32 to f32
    %s32 = arith.extf %sc : f16 to f32
    %v = arith.mulf %f, %s32 : f32
    linalg.yield %v : f32
  } -> tensor<2048x1024xf32>
  %eo = tensor.empty() : tensor<1x1024xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %y = linalg.matmul ins(%x, %deq : tensor<1x2048xf32>, tensor<2048x1024xf32>) outs(%fo : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %y : tensor<1x1024xf32>
}
