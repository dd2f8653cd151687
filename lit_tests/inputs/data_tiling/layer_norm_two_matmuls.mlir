// A layer norm (sum of squares, then scale) with two results, the second plus a position
// embedding, each feeding a matmul: the pattern of lerobot's ACT encoder (82 tokens x 512).
util.global private @w = dense<0.5> : tensor<512x512xf32>
util.global private @w2 = dense<0.25> : tensor<512x512xf32>
func.func @main(%x: tensor<82x512xf32>, %g: tensor<512xf32>, %pos: tensor<82x512xf32>) -> (tensor<82x512xf32>, tensor<82x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<82xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<82xf32>) -> tensor<82xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<82x512xf32>) outs(%f1 : tensor<82xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    %a = arith.addf %m, %out : f32
    linalg.yield %a : f32
  } -> tensor<82xf32>
  %e2 = tensor.empty() : tensor<82x512xf32>
  %y:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %g, %pos : tensor<82x512xf32>, tensor<82xf32>, tensor<512xf32>, tensor<82x512xf32>) outs(%e2, %e2 : tensor<82x512xf32>, tensor<82x512xf32>) {
  ^bb0(%in: f32, %s: f32, %gi: f32, %p: f32, %out: f32, %out2: f32):
    %d = arith.divf %s, %n : f32
    %de = arith.addf %d, %eps : f32
    %r = math.rsqrt %de : f32
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %gi : f32
    %v = arith.addf %u, %p : f32
    linalg.yield %u, %v : f32, f32
  } -> (tensor<82x512xf32>, tensor<82x512xf32>)
  %w = util.global.load @w : tensor<512x512xf32>
  %w2 = util.global.load @w2 : tensor<512x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<82x512xf32>) -> tensor<82x512xf32>
  %qk = linalg.matmul ins(%y#1, %w : tensor<82x512xf32>, tensor<512x512xf32>) outs(%f2 : tensor<82x512xf32>) -> tensor<82x512xf32>
  %v = linalg.matmul ins(%y#0, %w2 : tensor<82x512xf32>, tensor<512x512xf32>) outs(%f2 : tensor<82x512xf32>) -> tensor<82x512xf32>
  return %qk, %v : tensor<82x512xf32>, tensor<82x512xf32>
}
