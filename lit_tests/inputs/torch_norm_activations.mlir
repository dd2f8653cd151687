// The torch ops of a transformer block that lower to math ops, in the torch dialect an
// iree-turbine export holds: RMSNorm (`x.pow(2)` becomes math.fpowi, torch.rsqrt math.rsqrt),
// exact GELU (math.erf), tanh GELU (math.tanh) and SiLU (math.exp). Hand-written in the form
// torch-mlir prints, so the suite needs no torch.
func.func @norm_activations(%x: !torch.vtensor<[2,8],f32>, %w: !torch.vtensor<[8],f32>) -> (!torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>) {
  %int2 = torch.constant.int 2
  %0 = torch.aten.pow.Tensor_Scalar %x, %int2 : !torch.vtensor<[2,8],f32>, !torch.int -> !torch.vtensor<[2,8],f32>
  %int-1 = torch.constant.int -1
  %l = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %none = torch.constant.none
  %1 = torch.aten.mean.dim %0, %l, %true, %none : !torch.vtensor<[2,8],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,1],f32>
  %eps = torch.constant.float 1.000000e-06
  %int1 = torch.constant.int 1
  %2 = torch.aten.add.Scalar %1, %eps, %int1 : !torch.vtensor<[2,1],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,1],f32>
  %3 = torch.aten.rsqrt %2 : !torch.vtensor<[2,1],f32> -> !torch.vtensor<[2,1],f32>
  %4 = torch.aten.mul.Tensor %x, %3 : !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,1],f32> -> !torch.vtensor<[2,8],f32>
  %5 = torch.aten.mul.Tensor %4, %w : !torch.vtensor<[2,8],f32>, !torch.vtensor<[8],f32> -> !torch.vtensor<[2,8],f32>
  %str = torch.constant.str "none"
  %6 = torch.aten.gelu %x, %str : !torch.vtensor<[2,8],f32>, !torch.str -> !torch.vtensor<[2,8],f32>
  %tanh = torch.constant.str "tanh"
  %7 = torch.aten.gelu %x, %tanh : !torch.vtensor<[2,8],f32>, !torch.str -> !torch.vtensor<[2,8],f32>
  %8 = torch.aten.silu %x : !torch.vtensor<[2,8],f32> -> !torch.vtensor<[2,8],f32>
  return %5, %6, %7, %8 : !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>, !torch.vtensor<[2,8],f32>
}
