// A Diffusion-Policy-style residual block of the 1-D temporal U-Net at batch 1, as an export
// writes it: kernel-5 convolutions over 16 steps (256 -> 256 -> 512 channels), a Mish between
// them, and a per-channel mean over time subtracted (a group-norm-like reduction). The convs
// are batch-1, so a DSA tunes them only through the batch-1 conv route (docs/CONV.md); the
// Mish, the pad and the reduction have no root op and are costed by the streaming estimate.
func.func @dp_block(%x: tensor<1x20x256xf32>, %w1: tensor<5x256x256xf32>, %w2: tensor<5x256x512xf32>)
    -> tensor<1x16x512xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inv_t = arith.constant 0.0625 : f32
  %e1 = tensor.empty() : tensor<1x16x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  %c1 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
          ins(%x, %w1 : tensor<1x20x256xf32>, tensor<5x256x256xf32>) outs(%f1 : tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  // Mish: x * tanh(log(1 + exp(x)))
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%c1 : tensor<1x16x256xf32>) outs(%e1 : tensor<1x16x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %ex = math.exp %v : f32
    %sp = arith.addf %ex, %one : f32
    %lg = math.log %sp : f32
    %th = math.tanh %lg : f32
    %r = arith.mulf %v, %th : f32
    linalg.yield %r : f32
  } -> tensor<1x16x256xf32>
  %p = tensor.pad %m low[0, 2, 0] high[0, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x16x256xf32> to tensor<1x20x256xf32>
  %e2 = tensor.empty() : tensor<1x16x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x512xf32>) -> tensor<1x16x512xf32>
  %c2 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
          ins(%p, %w2 : tensor<1x20x256xf32>, tensor<5x256x512xf32>) outs(%f2 : tensor<1x16x512xf32>) -> tensor<1x16x512xf32>
  // Per-channel mean over time, subtracted.
  %es = tensor.empty() : tensor<1x512xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x512xf32>) -> tensor<1x512xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%c2 : tensor<1x16x512xf32>) outs(%fs : tensor<1x512xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x512xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%c2, %sum : tensor<1x16x512xf32>, tensor<1x512xf32>) outs(%e2 : tensor<1x16x512xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %mean = arith.mulf %s, %inv_t : f32
    %d = arith.subf %v, %mean : f32
    linalg.yield %d : f32
  } -> tensor<1x16x512xf32>
  return %out : tensor<1x16x512xf32>
}
