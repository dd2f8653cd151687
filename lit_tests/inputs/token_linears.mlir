// Linear layers as torch exports them over [tokens, 1, features] (ACT's transformer, sequence
// first): each token's row times the weight, transposed and broadcast to every token, one
// linalg.batch_matmul from zeros (host/routes/register_tiled.py, `broadcast_linears`).
// - @linear: 13 tokens, 12 -> 24 features; the weight as torch stores it, [out, in].
// - @two_layers: 13 tokens through 12 -> 24 and 24 -> 12 (two shapes, one of them @linear's).
// - @batched: 13 products with their own right-hand sides: not a linear layer, left to IREE.
// - @biased: a linear layer accumulating into its bias, not from zeros: left to IREE.
#bcast = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @linear(%x: tensor<13x1x12xf32>, %w: tensor<24x12xf32>) -> tensor<13x1x24xf32> {
    %zero = arith.constant 0.0 : f32
    %t_init = tensor.empty() : tensor<12x24xf32>
    %t = linalg.transpose ins(%w : tensor<24x12xf32>) outs(%t_init : tensor<12x24xf32>) permutation = [1, 0]
    %b_init = tensor.empty() : tensor<13x12x24xf32>
    %b = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
           ins(%t : tensor<12x24xf32>) outs(%b_init : tensor<13x12x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<13x12x24xf32>
    %e = tensor.empty() : tensor<13x1x24xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    %y = linalg.batch_matmul ins(%x, %b : tensor<13x1x12xf32>, tensor<13x12x24xf32>)
           outs(%acc : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    return %y : tensor<13x1x24xf32>
  }
  func.func @two_layers(%x: tensor<13x1x12xf32>, %w1: tensor<24x12xf32>, %w2: tensor<12x24xf32>) -> tensor<13x1x12xf32> {
    %zero = arith.constant 0.0 : f32
    %t1_init = tensor.empty() : tensor<12x24xf32>
    %t1 = linalg.transpose ins(%w1 : tensor<24x12xf32>) outs(%t1_init : tensor<12x24xf32>) permutation = [1, 0]
    %b1_init = tensor.empty() : tensor<13x12x24xf32>
    %b1 = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
            ins(%t1 : tensor<12x24xf32>) outs(%b1_init : tensor<13x12x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<13x12x24xf32>
    %e1 = tensor.empty() : tensor<13x1x24xf32>
    %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    %h = linalg.batch_matmul ins(%x, %b1 : tensor<13x1x12xf32>, tensor<13x12x24xf32>)
           outs(%acc1 : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    %t2_init = tensor.empty() : tensor<24x12xf32>
    %t2 = linalg.transpose ins(%w2 : tensor<12x24xf32>) outs(%t2_init : tensor<24x12xf32>) permutation = [1, 0]
    %b2_init = tensor.empty() : tensor<13x24x12xf32>
    %b2 = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
            ins(%t2 : tensor<24x12xf32>) outs(%b2_init : tensor<13x24x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<13x24x12xf32>
    %e2 = tensor.empty() : tensor<13x1x12xf32>
    %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<13x1x12xf32>) -> tensor<13x1x12xf32>
    %y = linalg.batch_matmul ins(%h, %b2 : tensor<13x1x24xf32>, tensor<13x24x12xf32>)
           outs(%acc2 : tensor<13x1x12xf32>) -> tensor<13x1x12xf32>
    return %y : tensor<13x1x12xf32>
  }
  func.func @batched(%x: tensor<13x1x12xf32>, %w: tensor<13x12x24xf32>) -> tensor<13x1x24xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<13x1x24xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    %y = linalg.batch_matmul ins(%x, %w : tensor<13x1x12xf32>, tensor<13x12x24xf32>)
           outs(%acc : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    return %y : tensor<13x1x24xf32>
  }
  func.func @biased(%x: tensor<13x1x12xf32>, %w: tensor<24x12xf32>, %bias: tensor<13x1x24xf32>) -> tensor<13x1x24xf32> {
    %t_init = tensor.empty() : tensor<12x24xf32>
    %t = linalg.transpose ins(%w : tensor<24x12xf32>) outs(%t_init : tensor<12x24xf32>) permutation = [1, 0]
    %b_init = tensor.empty() : tensor<13x12x24xf32>
    %b = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
           ins(%t : tensor<12x24xf32>) outs(%b_init : tensor<13x12x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<13x12x24xf32>
    %y = linalg.batch_matmul ins(%x, %b : tensor<13x1x12xf32>, tensor<13x12x24xf32>)
           outs(%bias : tensor<13x1x24xf32>) -> tensor<13x1x24xf32>
    return %y : tensor<13x1x24xf32>
  }
}
