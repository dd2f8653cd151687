// Convolutions with a weight, as torch exports them (channel-first, the bias broadcast into the
// accumulator, the padding a tensor.pad): each stays the same named convolution, now on INT8
// codes into i32, with its filter in its own shape. The activation's scale is one max |x| per batch
// element (an output sums a window that overlaps its neighbours', so only a scale shared by the
// sample factors out), and the epilogue rescales by the sample's and the output channel's scales,
// then adds the bias. w4a8 has no INT4 form for a named convolution: the filter is INT8.
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --min-weight-elements 1 -o %t.w8 > %t.w8.txt
// RUN: FileCheck %s --input-file %t.w8/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.w8.txt
// RUN: iree-dsa-tune quantize %s --scheme w4a8 --activations static --min-weight-elements 1 -o %t.w4 > %t.w4.txt
// RUN: FileCheck %s --check-prefix=STATIC --input-file %t.w4/model.mlir
// RUN: FileCheck %s --check-prefix=W4 --input-file %t.w4.txt

util.global private @conv1d.weight = #flow.parameter.named<"model"::"conv1d.weight"> : tensor<16x8x3xf32>
util.global private @conv1d.bias = #flow.parameter.named<"model"::"conv1d.bias"> : tensor<16xf32>
util.global private @conv2d.weight = #flow.parameter.named<"model"::"conv2d.weight"> : tensor<8x4x3x3xf32>
func.func @main(%x: tensor<2x8x20xf32>, %img: tensor<1x4x9x9xf32>) -> (tensor<2x16x20xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = util.global.load @conv1d.weight : tensor<16x8x3xf32>
  %b = util.global.load @conv1d.bias : tensor<16xf32>
  %padded = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<2x8x20xf32> to tensor<2x8x22xf32>
  %e0 = tensor.empty() : tensor<2x16x20xf32>
  %bias = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e0 : tensor<2x16x20xf32>) dimensions = [0, 2]
  %y = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
         ins(%padded, %w : tensor<2x8x22xf32>, tensor<16x8x3xf32>) outs(%bias : tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %w2 = util.global.load @conv2d.weight : tensor<8x4x3x3xf32>
  %e1 = tensor.empty() : tensor<1x8x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %z = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%img, %w2 : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %y, %z : tensor<2x16x20xf32>, tensor<1x8x4x4xf32>
}

// The filters are stored as INT8 in their own shapes, one scale per output channel.
// CHECK-DAG: util.global private @__quant.conv1d.weight.w8a8.weight = #flow.parameter.named<"model"::"conv1d.weight.w8a8.weight"> : tensor<16x8x3xi8>
// CHECK-DAG: util.global private @__quant.conv1d.weight.w8a8.scale = #flow.parameter.named<"model"::"conv1d.weight.w8a8.scale"> : tensor<16xf32>
// CHECK-DAG: util.global private @__quant.conv2d.weight.w8a8.weight = #flow.parameter.named<"model"::"conv2d.weight.w8a8.weight"> : tensor<8x4x3x3xi8>
// CHECK-NOT: util.global private @conv1d.weight
// Per batch element, max |x| over the whole (padded) sample: 2 values.
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<2x8x22xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: math.absf
// CHECK: arith.fptosi {{.*}} : f32 to i8
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<2x8x22xi8>, tensor<16x8x3xi8>) outs(%{{.*}} : tensor<2x16x20xi32>)
// The epilogue: the sample's scale (d0), the channel's (d1), and the bias the export broadcast.
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}], {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16x20xi32>, tensor<2xf32>, tensor<16xf32>, tensor<2x16x20xf32>)
// CHECK: arith.sitofp {{.*}} : i32 to f32
// CHECK: arith.addf
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x9x9xi8>, tensor<8x4x3x3xi8>) outs(%{{.*}} : tensor<1x8x4x4xi32>)
// A zero accumulator adds nothing: the epilogue reads the sums and the two scales only.
// CHECK: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x4xi32>, tensor<1xf32>, tensor<8xf32>)

// REPORT: conv1d.weight  16x24  w8a8
// REPORT: conv2d.weight  8x36   w8a8
// REPORT: @main against the float model (IREE, host): rel L2

// With a static scale the reduction leaves the model: the codes come from x and a constant.
// STATIC-NOT: math.absf
// STATIC: linalg.conv_1d_ncw_fcw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x8x22xi8>, tensor<16x8x3xi8>)
// STATIC-NOT: math.absf

// W4: conv1d.weight  16x24  w8a8 static {{.*}} a convolution: INT8 per output channel (IREE's named convolutions take no INT4 groups)
