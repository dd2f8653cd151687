// pi0's masked attention softmax (lerobot 0.6.1 gemma_300m expert layer, 816-token prefix +
// 51 suffix tokens): scores + mask, then softmax over the keys. IREE 3.13's default config for
// the softmax's root (the sum of exp over a row) vectorises 8 rows x 16 keys and runs ~35x
// slower than one row x 64 keys (docs/SOFTMAX.md).
func.func @masked_softmax(%s: tensor<8x51x867xf32>, %mask: tensor<51x867xf32>) -> tensor<8x51x867xf32> {
  %e = tensor.empty() : tensor<8x51x867xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<8x51x867xf32>, tensor<51x867xf32>) outs(%e : tensor<8x51x867xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x51x867xf32>
  %sm = linalg.softmax dimension(2) ins(%m : tensor<8x51x867xf32>) outs(%e : tensor<8x51x867xf32>) -> tensor<8x51x867xf32>
  return %sm : tensor<8x51x867xf32>
}
