// A pi0-style action-expert block, small enough to compile in about a second.
//
// pi0's action expert is a Gemma-style transformer of width 1024 with an MLP of
// 4096 that denoises a chunk of 50 actions, conditioned on the flow-matching
// time step. This block keeps the matmul shapes that dominate it and drops the
// attention core and the norms:
//
//   cond = t_emb[1,1024] @ w_time[1024,1024]           batch-1 projection
//   h    = x[50,1024] + cond                           (broadcast over the chunk)
//   q    = h @ w_q[1024,1024]                          50x1024x1024
//   m    = silu(q @ w_gate[1024,4096]) * (q @ w_up[1024,4096])   50x1024x4096 (x2)
//   y    = m @ w_down[4096,1024] + x                   50x4096x1024
//
// Weights are stored [K, N] (as a JAX/Flax checkpoint stores them) and passed as
// function arguments, so nothing is constant-folded.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
module @pi0_action_expert_block {
  func.func @action_expert_block(%x: tensor<50x1024xf32>, %t_emb: tensor<1x1024xf32>,
                                 %w_time: tensor<1024x1024xf32>, %w_q: tensor<1024x1024xf32>,
                                 %w_gate: tensor<1024x4096xf32>, %w_up: tensor<1024x4096xf32>,
                                 %w_down: tensor<4096x1024xf32>) -> tensor<50x1024xf32> {
    %zero = arith.constant 0.0 : f32
    // Time conditioning: a batch-1 projection.
    %e_c = tensor.empty() : tensor<1x1024xf32>
    %acc_c = linalg.fill ins(%zero : f32) outs(%e_c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %cond = linalg.matmul ins(%t_emb, %w_time : tensor<1x1024xf32>, tensor<1024x1024xf32>)
                          outs(%acc_c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %e_w = tensor.empty() : tensor<50x1024xf32>
    %h = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %cond : tensor<50x1024xf32>, tensor<1x1024xf32>) outs(%e_w : tensor<50x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<50x1024xf32>
    // q-projection over the 50-action chunk.
    %acc_w = linalg.fill ins(%zero : f32) outs(%e_w : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    %q = linalg.matmul ins(%h, %w_q : tensor<50x1024xf32>, tensor<1024x1024xf32>)
                       outs(%acc_w : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    // Gated MLP.
    %e_m = tensor.empty() : tensor<50x4096xf32>
    %acc_m = linalg.fill ins(%zero : f32) outs(%e_m : tensor<50x4096xf32>) -> tensor<50x4096xf32>
    %gate = linalg.matmul ins(%q, %w_gate : tensor<50x1024xf32>, tensor<1024x4096xf32>)
                          outs(%acc_m : tensor<50x4096xf32>) -> tensor<50x4096xf32>
    %up = linalg.matmul ins(%q, %w_up : tensor<50x1024xf32>, tensor<1024x4096xf32>)
                        outs(%acc_m : tensor<50x4096xf32>) -> tensor<50x4096xf32>
    %m = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%gate, %up : tensor<50x4096xf32>, tensor<50x4096xf32>) outs(%e_m : tensor<50x4096xf32>) {
    ^bb0(%g: f32, %u: f32, %o: f32):
      %one = arith.constant 1.0 : f32
      %neg = arith.negf %g : f32
      %ex = math.exp %neg : f32
      %den = arith.addf %one, %ex : f32
      %sig = arith.divf %one, %den : f32
      %silu = arith.mulf %g, %sig : f32
      %r = arith.mulf %silu, %u : f32
      linalg.yield %r : f32
    } -> tensor<50x4096xf32>
    %down = linalg.matmul ins(%m, %w_down : tensor<50x4096xf32>, tensor<4096x1024xf32>)
                          outs(%acc_w : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    // Residual.
    %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%down, %x : tensor<50x1024xf32>, tensor<50x1024xf32>) outs(%e_w : tensor<50x1024xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<50x1024xf32>
    return %y : tensor<50x1024xf32>
  }
}
