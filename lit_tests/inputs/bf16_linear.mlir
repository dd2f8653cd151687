// A bf16 linear layer at M=1 accumulating in f32, then truncated back to bf16
// (what a bf16 nn.Linear becomes): 1x1024 @ 1024x512.
module {
  func.func @bf16_linear(%a: tensor<1x1024xbf16>, %b: tensor<1024x512xbf16>) -> tensor<1x512xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x512xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512xf32>) -> tensor<1x512xf32>
    %c = linalg.matmul ins(%a, %b : tensor<1x1024xbf16>, tensor<1024x512xbf16>)
                       outs(%acc : tensor<1x512xf32>) -> tensor<1x512xf32>
    %e16 = tensor.empty() : tensor<1x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%c : tensor<1x512xf32>) outs(%e16 : tensor<1x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.truncf %in : f32 to bf16
      linalg.yield %r : bf16
    } -> tensor<1x512xbf16>
    return %t : tensor<1x512xbf16>
  }
}
