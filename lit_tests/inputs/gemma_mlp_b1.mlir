// Batch-1 Gemma-style MLP, written the way a PyTorch importer lowers it:
// nn.Linear weights are stored [out_features, in_features] ([N, K]), so each
// projection is a linalg.generic contraction with a transposed-B map.
//   gate = x @ Wg^T ; up = x @ Wu^T ; h = silu(gate) * up ; y = h @ Wd^T
// hidden = 256, mlp = 1024, one token.
#map_lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_rhs_t = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gemma_mlp(%x: tensor<1x256xf32>, %w_gate: tensor<1024x256xf32>,
                       %w_up: tensor<1024x256xf32>, %w_down: tensor<256x1024xf32>) -> tensor<1x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e_mlp = tensor.empty() : tensor<1x1024xf32>
    %acc_mlp = linalg.fill ins(%zero : f32) outs(%e_mlp : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %gate = linalg.generic {indexing_maps = [#map_lhs, #map_rhs_t, #map_out],
                            iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w_gate : tensor<1x256xf32>, tensor<1024x256xf32>) outs(%acc_mlp : tensor<1x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %c, %p : f32
      linalg.yield %s : f32
    } -> tensor<1x1024xf32>
    %up = linalg.generic {indexing_maps = [#map_lhs, #map_rhs_t, #map_out],
                          iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %w_up : tensor<1x256xf32>, tensor<1024x256xf32>) outs(%acc_mlp : tensor<1x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %c, %p : f32
      linalg.yield %s : f32
    } -> tensor<1x1024xf32>
    // silu(gate) * up = gate * sigmoid(gate) * up, sigmoid(v) = 1 / (1 + exp(-v)).
    %h = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%gate, %up : tensor<1x1024xf32>, tensor<1x1024xf32>) outs(%e_mlp : tensor<1x1024xf32>) {
    ^bb0(%g: f32, %u: f32, %o: f32):
      %one = arith.constant 1.0 : f32
      %neg = arith.negf %g : f32
      %ex = math.exp %neg : f32
      %den = arith.addf %one, %ex : f32
      %sig = arith.divf %one, %den : f32
      %silu = arith.mulf %g, %sig : f32
      %r = arith.mulf %silu, %u : f32
      linalg.yield %r : f32
    } -> tensor<1x1024xf32>
    %e_hid = tensor.empty() : tensor<1x256xf32>
    %acc_hid = linalg.fill ins(%zero : f32) outs(%e_hid : tensor<1x256xf32>) -> tensor<1x256xf32>
    %y = linalg.generic {indexing_maps = [#map_lhs, #map_rhs_t, #map_out],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%h, %w_down : tensor<1x1024xf32>, tensor<256x1024xf32>) outs(%acc_hid : tensor<1x256xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %c, %p : f32
      linalg.yield %s : f32
    } -> tensor<1x256xf32>
    return %y : tensor<1x256xf32>
  }
}
