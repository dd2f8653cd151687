// Quantiser form 3: W[N, K/G, G] i4 unsigned with a constant zero point 8 (symmetric data stored
// offset), bf16 scales per (row, group), a batch of 50 tokens (the action expert's chunk): M=50,
// N=1024, K=4096, G=128.
func.func @nk_zp8(%x: tensor<50x32x128xf32>, %w: tensor<1024x32x128xi4>, %s: tensor<1024x32xbf16>) -> tensor<50x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<1024x32x128xf32>
  %deq = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (n, g, k)>, affine_map<(n, g, k) -> (n, g)>, affine_map<(n, g, k) -> (n, g, k)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<1024x32x128xi4>, tensor<1024x32xbf16>) outs(%e : tensor<1024x32x128xf32>) {
  ^bb0(%q: i4, %sc: bf16, %o: f32):
    %f = arith.uitofp %q : i4 to f32
    %c = arith.subf %f, %eight : f32
    %s32 = arith.extf %sc : bf16 to f32
    %v = arith.mulf %c, %s32 : f32
    linalg.yield %v : f32
  } -> tensor<1024x32x128xf32>
  %eo = tensor.empty() : tensor<50x1024xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<50x1024xf32>) -> tensor<50x1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, g, k) -> (m, g, k)>, affine_map<(m, n, g, k) -> (n, g, k)>, affine_map<(m, n, g, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %deq : tensor<50x32x128xf32>, tensor<1024x32x128xf32>) outs(%fo : tensor<50x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<50x1024xf32>
  return %y : tensor<50x1024xf32>
}
