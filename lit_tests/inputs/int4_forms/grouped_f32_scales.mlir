// Quantiser form 1: W[N, K/G, G] i4 (signed), one f32 scale per (row, group), dequantised in its own
// generic, then contracted over (group, element): N=2048, K=4096, G=128.
func.func @qmatvec(%x: tensor<32x128xf32>, %w: tensor<2048x32x128xi4>, %s: tensor<2048x32xf32>) -> tensor<2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x32x128xf32>
  %deq = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (n, g, k)>, affine_map<(n, g, k) -> (n, g)>, affine_map<(n, g, k) -> (n, g, k)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<2048x32x128xi4>, tensor<2048x32xf32>) outs(%e : tensor<2048x32x128xf32>) {
  ^bb0(%q: i4, %sc: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %sc : f32
    linalg.yield %v : f32
  } -> tensor<2048x32x128xf32>
  %eo = tensor.empty() : tensor<2048xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2048xf32>) -> tensor<2048xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (g, k)>, affine_map<(n, g, k) -> (n, g, k)>, affine_map<(n, g, k) -> (n)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %deq : tensor<32x128xf32>, tensor<2048x32x128xf32>) outs(%fo : tensor<2048xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2048xf32>
  return %y : tensor<2048xf32>
}
