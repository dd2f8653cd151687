// Hand-written in the form iree-turbine emits for aot.externalize_module_parameters(module,
// external_scope="model") + aot.export: two nn.Linear layers (32 -> 64, ReLU, 64 -> 16) on a
// batch of 4, their weights and biases read from a parameter archive (scope "model"), not held
// in the module. Running it needs --parameters=model=FILE.irpa; tests generate the archive
// from a seed (python/iree_dsa_tuner/parameters.py).
module @module {
  util.global private @__auto.fc1.weight = #flow.parameter.named<"model"::"fc1.weight"> : tensor<64x32xf32>
  util.global private @__auto.fc1.bias = #flow.parameter.named<"model"::"fc1.bias"> : tensor<64xf32>
  util.global private @__auto.fc2.weight = #flow.parameter.named<"model"::"fc2.weight"> : tensor<16x64xf32>
  util.global private @__auto.fc2.bias = #flow.parameter.named<"model"::"fc2.bias"> : tensor<16xf32>
  func.func @main(%arg0: !torch.vtensor<[4,32],f32>) -> !torch.vtensor<[4,16],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %__auto.fc1.weight = util.global.load @__auto.fc1.weight : tensor<64x32xf32>
    %0 = torch_c.from_builtin_tensor %__auto.fc1.weight : tensor<64x32xf32> -> !torch.vtensor<[64,32],f32>
    %__auto.fc1.bias = util.global.load @__auto.fc1.bias : tensor<64xf32>
    %1 = torch_c.from_builtin_tensor %__auto.fc1.bias : tensor<64xf32> -> !torch.vtensor<[64],f32>
    %2 = torch.aten.linear %arg0, %0, %1 : !torch.vtensor<[4,32],f32>, !torch.vtensor<[64,32],f32>, !torch.vtensor<[64],f32> -> !torch.vtensor<[4,64],f32>
    %3 = torch.aten.relu %2 : !torch.vtensor<[4,64],f32> -> !torch.vtensor<[4,64],f32>
    %__auto.fc2.weight = util.global.load @__auto.fc2.weight : tensor<16x64xf32>
    %4 = torch_c.from_builtin_tensor %__auto.fc2.weight : tensor<16x64xf32> -> !torch.vtensor<[16,64],f32>
    %__auto.fc2.bias = util.global.load @__auto.fc2.bias : tensor<16xf32>
    %5 = torch_c.from_builtin_tensor %__auto.fc2.bias : tensor<16xf32> -> !torch.vtensor<[16],f32>
    %6 = torch.aten.linear %3, %4, %5 : !torch.vtensor<[4,64],f32>, !torch.vtensor<[16,64],f32>, !torch.vtensor<[16],f32> -> !torch.vtensor<[4,16],f32>
    return %6 : !torch.vtensor<[4,16],f32>
  }
}
