// Five public functions of one module, each a dispatch shape a robot policy runs on the host
// (issue 46: a recipe for the whole module, every function timed against IREE's default).
//   @attn_scores   q @ k^T of one attention layer: 8 heads, 256 tokens, head width 64
//                  (two_functions.mlir's), a batch matmul 8x256x256x64.
//   @chunk_proj    an action chunk through a linear layer: pi0's action expert predicts a chunk
//                  of 50 actions and runs its 50 tokens through Linear layers of width 1024
//                  (BRIEF: action expert width 1024, chunk 50), so 50x1024 @ 1024x1024 with the
//                  weight stored [K, N] (proj_m50.mlir's shape): M=50 is not a multiple of any
//                  vector width, the case IREE's default tiles worst (IREE_NOTES.md).
//   @int8_gemm     a quantised Linear (W8A8): 16 tokens x 256 features, int8 x int8 -> int32
//                  accumulation before the rescale (int8_gemm.mlir's).
//   @temporal_conv Diffusion Policy's 1-D temporal conv at batch 1: kernel 5, 128 -> 128
//                  channels, 16 steps, input pre-padded (temporal_conv1d_b1.mlir's).
//   @gemma_mlp     a batch-1 Gemma-style MLP with PyTorch-layout [N, K] weights:
//                  gate/up 256 -> 1024, silu(gate) * up, down 1024 -> 256 (gemma_mlp_b1.mlir's).
// Weights are function arguments, so a function's time includes any packing a build does per call.
#map_lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_rhs_t = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @attn_scores(%q: tensor<8x256x64xf32>, %k: tensor<8x64x256xf32>) -> tensor<8x256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x256x256xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    %s = linalg.batch_matmul ins(%q, %k : tensor<8x256x64xf32>, tensor<8x64x256xf32>)
                             outs(%acc : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
    return %s : tensor<8x256x256xf32>
  }

  func.func @chunk_proj(%a: tensor<50x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<50x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<50x1024xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    %c = linalg.matmul ins(%a, %w : tensor<50x1024xf32>, tensor<1024x1024xf32>)
                       outs(%acc : tensor<50x1024xf32>) -> tensor<50x1024xf32>
    return %c : tensor<50x1024xf32>
  }

  func.func @int8_gemm(%a: tensor<16x256xi8>, %b: tensor<256x256xi8>) -> tensor<16x256xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<16x256xi32>
    %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<16x256xi32>) -> tensor<16x256xi32>
    %c = linalg.matmul ins(%a, %b : tensor<16x256xi8>, tensor<256x256xi8>)
                       outs(%acc : tensor<16x256xi32>) -> tensor<16x256xi32>
    return %c : tensor<16x256xi32>
  }

  func.func @temporal_conv(%x: tensor<1x20x128xf32>, %w: tensor<5x128x128xf32>) -> tensor<1x16x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x128xf32>) -> tensor<1x16x128xf32>
    %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
           ins(%x, %w : tensor<1x20x128xf32>, tensor<5x128x128xf32>) outs(%f : tensor<1x16x128xf32>) -> tensor<1x16x128xf32>
    return %r : tensor<1x16x128xf32>
  }

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
