// Quantiser form 4: two i4 weights packed per i8 byte (W[N, K/2] i8, low nibble first), unpacked
// with shifts, f32 scale per (row, group of 128): N=1024, K=2048 (a matvec).
func.func @packed(%x: tensor<2048xf32>, %w: tensor<1024x1024xi8>, %s: tensor<1024x16xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %c4 = arith.constant 4 : i8
  %e = tensor.empty() : tensor<1024x2048xf32>
  %deq = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k floordiv 2)>, affine_map<(n, k) -> (n, k floordiv 128)>,
                                          affine_map<(n, k) -> (n, k)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<1024x1024xi8>, tensor<1024x16xf32>) outs(%e : tensor<1024x2048xf32>) {
  ^bb0(%byte: i8, %sc: f32, %o: f32):
    %k = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %odd = arith.remui %k, %c2 : index
    %c0 = arith.constant 0 : index
    %is_hi = arith.cmpi ne, %odd, %c0 : index
    %lo = arith.shli %byte, %c4 : i8
    %lo_s = arith.shrsi %lo, %c4 : i8
    %hi_s = arith.shrsi %byte, %c4 : i8
    %q = arith.select %is_hi, %hi_s, %lo_s : i8
    %f = arith.sitofp %q : i8 to f32
    %v = arith.mulf %f, %sc : f32
    linalg.yield %v : f32
  } -> tensor<1024x2048xf32>
  %eo = tensor.empty() : tensor<1024xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1024xf32>) -> tensor<1024xf32>
  %y = linalg.matvec ins(%deq, %x : tensor<1024x2048xf32>, tensor<2048xf32>) outs(%fo : tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
