// Batch-1 1-D convolutions -> their kernel taps' mmt4d products in 12 x 8 x 1 register tiles, accumulated packed (iree-dsa-tune, docs/CONV.md); the other batch-1 1-D convolutions (kernel widths 3) split into taps.
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE --iree-llvmcpu-enable-ukernels=none ...
module attributes {transform.with_named_sequence} {
  util.func private @fold_conv1d_2x512x64x1(%arg0: tensor<1x2x64xf32>, %arg1: tensor<512x2x1xf32>, %arg2: tensor<1x512x64xf32>) -> tensor<1x512x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x64xf32> into tensor<512x64xf32>
    %0 = tensor.empty() : tensor<43x8x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x64xf32> -> tensor<43x8x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 2, 1] [1, 1, 1] : tensor<512x2x1xf32> to tensor<512x2xf32>
    %1 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 64] [1, 1, 1] : tensor<1x2x64xf32> to tensor<2x64xf32>
    %2 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%pack : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %4 = tensor.empty() : tensor<512x64xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<43x8x12x8xf32> -> tensor<512x64xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 64] : tensor<512x64xf32> into tensor<1x512x64xf32>
    util.return %expanded : tensor<1x512x64xf32>
  }
  transform.named_sequence @match_conv1d_2x512x64x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x2x64xf32>, %arg2: tensor<512x2x1xf32>, %arg3: tensor<1x512x64xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x2x64xf32>, tensor<512x2x1xf32>) outs(%arg3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_2x512x64x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_2x512x64x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_2x512x64x5(%arg0: tensor<1x2x68xf32>, %arg1: tensor<512x2x5xf32>, %arg2: tensor<1x512x64xf32>) -> tensor<1x512x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x64xf32> into tensor<512x64xf32>
    %0 = tensor.empty() : tensor<43x8x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x64xf32> -> tensor<43x8x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 2, 1] [1, 1, 1] : tensor<512x2x5xf32> to tensor<512x2xf32>
    %1 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 64] [1, 1, 1] : tensor<1x2x68xf32> to tensor<2x64xf32>
    %2 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%pack : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [512, 2, 1] [1, 1, 1] : tensor<512x2x5xf32> to tensor<512x2xf32>
    %4 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 2, 64] [1, 1, 1] : tensor<1x2x68xf32> to tensor<2x64xf32>
    %5 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%3 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [512, 2, 1] [1, 1, 1] : tensor<512x2x5xf32> to tensor<512x2xf32>
    %7 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 2, 64] [1, 1, 1] : tensor<1x2x68xf32> to tensor<2x64xf32>
    %8 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%6 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [512, 2, 1] [1, 1, 1] : tensor<512x2x5xf32> to tensor<512x2xf32>
    %10 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 2, 64] [1, 1, 1] : tensor<1x2x68xf32> to tensor<2x64xf32>
    %11 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%9 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [512, 2, 1] [1, 1, 1] : tensor<512x2x5xf32> to tensor<512x2xf32>
    %13 = tensor.empty() : tensor<43x2x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<512x2xf32> -> tensor<43x2x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 2, 64] [1, 1, 1] : tensor<1x2x68xf32> to tensor<2x64xf32>
    %14 = tensor.empty() : tensor<8x2x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<2x64xf32> -> tensor<8x2x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<43x2x12x1xf32>, tensor<8x2x8x1xf32>) outs(%12 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %16 = tensor.empty() : tensor<512x64xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<43x8x12x8xf32> -> tensor<512x64xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 64] : tensor<512x64xf32> into tensor<1x512x64xf32>
    util.return %expanded : tensor<1x512x64xf32>
  }
  transform.named_sequence @match_conv1d_2x512x64x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x2x68xf32>, %arg2: tensor<512x2x5xf32>, %arg3: tensor<1x512x64xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x2x68xf32>, tensor<512x2x5xf32>) outs(%arg3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_2x512x64x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_2x512x64x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x2x64x1(%arg0: tensor<1x512x64xf32>, %arg1: tensor<2x512x1xf32>, %arg2: tensor<1x2x64xf32>) -> tensor<1x2x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x2x64xf32> into tensor<2x64xf32>
    %0 = tensor.empty() : tensor<1x8x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<2x64xf32> -> tensor<1x8x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [2, 512, 1] [1, 1, 1] : tensor<2x512x1xf32> to tensor<2x512xf32>
    %1 = tensor.empty() : tensor<1x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<2x512xf32> -> tensor<1x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 64] [1, 1, 1] : tensor<1x512x64xf32> to tensor<512x64xf32>
    %2 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<1x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%pack : tensor<1x8x12x8xf32>) -> tensor<1x8x12x8xf32>
    %4 = tensor.empty() : tensor<2x64xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<1x8x12x8xf32> -> tensor<2x64xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 2, 64] : tensor<2x64xf32> into tensor<1x2x64xf32>
    util.return %expanded : tensor<1x2x64xf32>
  }
  transform.named_sequence @match_conv1d_512x2x64x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x64xf32>, %arg2: tensor<2x512x1xf32>, %arg3: tensor<1x2x64xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x64xf32>, tensor<2x512x1xf32>) outs(%arg3 : tensor<1x2x64xf32>) -> tensor<1x2x64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x2x64x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x2x64x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x512x32x5(%arg0: tensor<1x512x36xf32>, %arg1: tensor<512x512x5xf32>, %arg2: tensor<1x512x32xf32>) -> tensor<1x512x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x32xf32> into tensor<512x32xf32>
    %0 = tensor.empty() : tensor<43x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x32xf32> -> tensor<43x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %1 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %2 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%pack : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %4 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %5 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<43x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%3 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %7 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %8 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<43x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%6 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %10 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %11 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<43x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%9 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %13 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %14 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<43x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%12 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %16 = tensor.empty() : tensor<512x32xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<43x4x12x8xf32> -> tensor<512x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 32] : tensor<512x32xf32> into tensor<1x512x32xf32>
    util.return %expanded : tensor<1x512x32xf32>
  }
  transform.named_sequence @match_conv1d_512x512x32x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x36xf32>, %arg2: tensor<512x512x5xf32>, %arg3: tensor<1x512x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x36xf32>, tensor<512x512x5xf32>) outs(%arg3 : tensor<1x512x32xf32>) -> tensor<1x512x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x512x32x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x512x32x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x512x64x4(%arg0: tensor<1x512x67xf32>, %arg1: tensor<512x512x4xf32>, %arg2: tensor<1x512x64xf32>) -> tensor<1x512x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x64xf32> into tensor<512x64xf32>
    %0 = tensor.empty() : tensor<43x8x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x64xf32> -> tensor<43x8x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 512, 1] [1, 1, 1] : tensor<512x512x4xf32> to tensor<512x512xf32>
    %1 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 64] [1, 1, 1] : tensor<1x512x67xf32> to tensor<512x64xf32>
    %2 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%pack : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [512, 512, 1] [1, 1, 1] : tensor<512x512x4xf32> to tensor<512x512xf32>
    %4 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 512, 64] [1, 1, 1] : tensor<1x512x67xf32> to tensor<512x64xf32>
    %5 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%3 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [512, 512, 1] [1, 1, 1] : tensor<512x512x4xf32> to tensor<512x512xf32>
    %7 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 512, 64] [1, 1, 1] : tensor<1x512x67xf32> to tensor<512x64xf32>
    %8 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%6 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [512, 512, 1] [1, 1, 1] : tensor<512x512x4xf32> to tensor<512x512xf32>
    %10 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 512, 64] [1, 1, 1] : tensor<1x512x67xf32> to tensor<512x64xf32>
    %11 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%9 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %13 = tensor.empty() : tensor<512x64xf32>
    %unpack = linalg.unpack %12 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %13 : tensor<43x8x12x8xf32> -> tensor<512x64xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 64] : tensor<512x64xf32> into tensor<1x512x64xf32>
    util.return %expanded : tensor<1x512x64xf32>
  }
  transform.named_sequence @match_conv1d_512x512x64x4(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x67xf32>, %arg2: tensor<512x512x4xf32>, %arg3: tensor<1x512x64xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x67xf32>, tensor<512x512x4xf32>) outs(%arg3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x512x64x4_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x512x64x4 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x512x64x5(%arg0: tensor<1x512x68xf32>, %arg1: tensor<512x512x5xf32>, %arg2: tensor<1x512x64xf32>) -> tensor<1x512x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x64xf32> into tensor<512x64xf32>
    %0 = tensor.empty() : tensor<43x8x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x64xf32> -> tensor<43x8x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %1 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 64] [1, 1, 1] : tensor<1x512x68xf32> to tensor<512x64xf32>
    %2 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%pack : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %4 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 512, 64] [1, 1, 1] : tensor<1x512x68xf32> to tensor<512x64xf32>
    %5 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%3 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %7 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 512, 64] [1, 1, 1] : tensor<1x512x68xf32> to tensor<512x64xf32>
    %8 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%6 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %10 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 512, 64] [1, 1, 1] : tensor<1x512x68xf32> to tensor<512x64xf32>
    %11 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%9 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [512, 512, 1] [1, 1, 1] : tensor<512x512x5xf32> to tensor<512x512xf32>
    %13 = tensor.empty() : tensor<43x512x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<512x512xf32> -> tensor<43x512x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 512, 64] [1, 1, 1] : tensor<1x512x68xf32> to tensor<512x64xf32>
    %14 = tensor.empty() : tensor<8x512x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<512x64xf32> -> tensor<8x512x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<43x512x12x1xf32>, tensor<8x512x8x1xf32>) outs(%12 : tensor<43x8x12x8xf32>) -> tensor<43x8x12x8xf32>
    %16 = tensor.empty() : tensor<512x64xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<43x8x12x8xf32> -> tensor<512x64xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 64] : tensor<512x64xf32> into tensor<1x512x64xf32>
    util.return %expanded : tensor<1x512x64xf32>
  }
  transform.named_sequence @match_conv1d_512x512x64x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x68xf32>, %arg2: tensor<512x512x5xf32>, %arg3: tensor<1x512x64xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x68xf32>, tensor<512x512x5xf32>) outs(%arg3 : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x512x64x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x512x64x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x1024x32x1(%arg0: tensor<1x512x32xf32>, %arg1: tensor<1024x512x1xf32>, %arg2: tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x32xf32> into tensor<1024x32xf32>
    %0 = tensor.empty() : tensor<86x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x32xf32> -> tensor<86x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x1xf32> to tensor<1024x512xf32>
    %1 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 32] [1, 1, 1] : tensor<1x512x32xf32> to tensor<512x32xf32>
    %2 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%pack : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %4 = tensor.empty() : tensor<1024x32xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<86x4x12x8xf32> -> tensor<1024x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 32] : tensor<1024x32xf32> into tensor<1x1024x32xf32>
    util.return %expanded : tensor<1x1024x32xf32>
  }
  transform.named_sequence @match_conv1d_512x1024x32x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x32xf32>, %arg2: tensor<1024x512x1xf32>, %arg3: tensor<1x1024x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x32xf32>, tensor<1024x512x1xf32>) outs(%arg3 : tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x1024x32x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x1024x32x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_512x1024x32x5(%arg0: tensor<1x512x36xf32>, %arg1: tensor<1024x512x5xf32>, %arg2: tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x32xf32> into tensor<1024x32xf32>
    %0 = tensor.empty() : tensor<86x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x32xf32> -> tensor<86x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x5xf32> to tensor<1024x512xf32>
    %1 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %2 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%pack : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x5xf32> to tensor<1024x512xf32>
    %4 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %5 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%3 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x5xf32> to tensor<1024x512xf32>
    %7 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %8 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%6 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x5xf32> to tensor<1024x512xf32>
    %10 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %11 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%9 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [1024, 512, 1] [1, 1, 1] : tensor<1024x512x5xf32> to tensor<1024x512xf32>
    %13 = tensor.empty() : tensor<86x512x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<1024x512xf32> -> tensor<86x512x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 512, 32] [1, 1, 1] : tensor<1x512x36xf32> to tensor<512x32xf32>
    %14 = tensor.empty() : tensor<4x512x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<512x32xf32> -> tensor<4x512x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<86x512x12x1xf32>, tensor<4x512x8x1xf32>) outs(%12 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %16 = tensor.empty() : tensor<1024x32xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<86x4x12x8xf32> -> tensor<1024x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 32] : tensor<1024x32xf32> into tensor<1x1024x32xf32>
    util.return %expanded : tensor<1x1024x32xf32>
  }
  transform.named_sequence @match_conv1d_512x1024x32x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x512x36xf32>, %arg2: tensor<1024x512x5xf32>, %arg3: tensor<1x1024x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x512x36xf32>, tensor<1024x512x5xf32>) outs(%arg3 : tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_512x1024x32x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_512x1024x32x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_1024x1024x16x5(%arg0: tensor<1x1024x20xf32>, %arg1: tensor<1024x1024x5xf32>, %arg2: tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x16xf32> into tensor<1024x16xf32>
    %0 = tensor.empty() : tensor<86x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x16xf32> -> tensor<86x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %1 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %2 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%pack : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %4 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %5 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<86x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%3 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %7 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %8 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<86x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%6 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %10 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %11 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<86x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%9 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %13 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %14 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<86x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%12 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %16 = tensor.empty() : tensor<1024x16xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<86x2x12x8xf32> -> tensor<1024x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 16] : tensor<1024x16xf32> into tensor<1x1024x16xf32>
    util.return %expanded : tensor<1x1024x16xf32>
  }
  transform.named_sequence @match_conv1d_1024x1024x16x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x1024x20xf32>, %arg2: tensor<1024x1024x5xf32>, %arg3: tensor<1x1024x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x1024x20xf32>, tensor<1024x1024x5xf32>) outs(%arg3 : tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_1024x1024x16x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_1024x1024x16x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_1024x1024x32x4(%arg0: tensor<1x1024x35xf32>, %arg1: tensor<1024x1024x4xf32>, %arg2: tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x32xf32> into tensor<1024x32xf32>
    %0 = tensor.empty() : tensor<86x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x32xf32> -> tensor<86x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x4xf32> to tensor<1024x1024xf32>
    %1 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x35xf32> to tensor<1024x32xf32>
    %2 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%pack : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x4xf32> to tensor<1024x1024xf32>
    %4 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x35xf32> to tensor<1024x32xf32>
    %5 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%3 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x4xf32> to tensor<1024x1024xf32>
    %7 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x35xf32> to tensor<1024x32xf32>
    %8 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%6 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x4xf32> to tensor<1024x1024xf32>
    %10 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x35xf32> to tensor<1024x32xf32>
    %11 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%9 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %13 = tensor.empty() : tensor<1024x32xf32>
    %unpack = linalg.unpack %12 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %13 : tensor<86x4x12x8xf32> -> tensor<1024x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 32] : tensor<1024x32xf32> into tensor<1x1024x32xf32>
    util.return %expanded : tensor<1x1024x32xf32>
  }
  transform.named_sequence @match_conv1d_1024x1024x32x4(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x1024x35xf32>, %arg2: tensor<1024x1024x4xf32>, %arg3: tensor<1x1024x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x1024x35xf32>, tensor<1024x1024x4xf32>) outs(%arg3 : tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_1024x1024x32x4_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_1024x1024x32x4 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_1024x1024x32x5(%arg0: tensor<1x1024x36xf32>, %arg1: tensor<1024x1024x5xf32>, %arg2: tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x32xf32> into tensor<1024x32xf32>
    %0 = tensor.empty() : tensor<86x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x32xf32> -> tensor<86x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %1 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x36xf32> to tensor<1024x32xf32>
    %2 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%pack : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %4 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x36xf32> to tensor<1024x32xf32>
    %5 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%3 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %7 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x36xf32> to tensor<1024x32xf32>
    %8 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%6 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %10 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x36xf32> to tensor<1024x32xf32>
    %11 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%9 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [1024, 1024, 1] [1, 1, 1] : tensor<1024x1024x5xf32> to tensor<1024x1024xf32>
    %13 = tensor.empty() : tensor<86x1024x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<1024x1024xf32> -> tensor<86x1024x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 1024, 32] [1, 1, 1] : tensor<1x1024x36xf32> to tensor<1024x32xf32>
    %14 = tensor.empty() : tensor<4x1024x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<1024x32xf32> -> tensor<4x1024x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<86x1024x12x1xf32>, tensor<4x1024x8x1xf32>) outs(%12 : tensor<86x4x12x8xf32>) -> tensor<86x4x12x8xf32>
    %16 = tensor.empty() : tensor<1024x32xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<86x4x12x8xf32> -> tensor<1024x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 32] : tensor<1024x32xf32> into tensor<1x1024x32xf32>
    util.return %expanded : tensor<1x1024x32xf32>
  }
  transform.named_sequence @match_conv1d_1024x1024x32x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x1024x36xf32>, %arg2: tensor<1024x1024x5xf32>, %arg3: tensor<1x1024x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x1024x36xf32>, tensor<1024x1024x5xf32>) outs(%arg3 : tensor<1x1024x32xf32>) -> tensor<1x1024x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_1024x1024x32x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_1024x1024x32x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_1024x2048x16x1(%arg0: tensor<1x1024x16xf32>, %arg1: tensor<2048x1024x1xf32>, %arg2: tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x2048x16xf32> into tensor<2048x16xf32>
    %0 = tensor.empty() : tensor<171x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<2048x16xf32> -> tensor<171x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x1xf32> to tensor<2048x1024xf32>
    %1 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x16xf32> to tensor<1024x16xf32>
    %2 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%pack : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %4 = tensor.empty() : tensor<2048x16xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<171x2x12x8xf32> -> tensor<2048x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 2048, 16] : tensor<2048x16xf32> into tensor<1x2048x16xf32>
    util.return %expanded : tensor<1x2048x16xf32>
  }
  transform.named_sequence @match_conv1d_1024x2048x16x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x1024x16xf32>, %arg2: tensor<2048x1024x1xf32>, %arg3: tensor<1x2048x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x1024x16xf32>, tensor<2048x1024x1xf32>) outs(%arg3 : tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_1024x2048x16x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_1024x2048x16x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_1024x2048x16x5(%arg0: tensor<1x1024x20xf32>, %arg1: tensor<2048x1024x5xf32>, %arg2: tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x2048x16xf32> into tensor<2048x16xf32>
    %0 = tensor.empty() : tensor<171x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<2048x16xf32> -> tensor<171x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x5xf32> to tensor<2048x1024xf32>
    %1 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %2 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%pack : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x5xf32> to tensor<2048x1024xf32>
    %4 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %5 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%3 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x5xf32> to tensor<2048x1024xf32>
    %7 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %8 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%6 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x5xf32> to tensor<2048x1024xf32>
    %10 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %11 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%9 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [2048, 1024, 1] [1, 1, 1] : tensor<2048x1024x5xf32> to tensor<2048x1024xf32>
    %13 = tensor.empty() : tensor<171x1024x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<2048x1024xf32> -> tensor<171x1024x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 1024, 16] [1, 1, 1] : tensor<1x1024x20xf32> to tensor<1024x16xf32>
    %14 = tensor.empty() : tensor<2x1024x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<1024x16xf32> -> tensor<2x1024x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<171x1024x12x1xf32>, tensor<2x1024x8x1xf32>) outs(%12 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %16 = tensor.empty() : tensor<2048x16xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<171x2x12x8xf32> -> tensor<2048x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 2048, 16] : tensor<2048x16xf32> into tensor<1x2048x16xf32>
    util.return %expanded : tensor<1x2048x16xf32>
  }
  transform.named_sequence @match_conv1d_1024x2048x16x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x1024x20xf32>, %arg2: tensor<2048x1024x5xf32>, %arg3: tensor<1x2048x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x1024x20xf32>, tensor<2048x1024x5xf32>) outs(%arg3 : tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_1024x2048x16x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_1024x2048x16x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_2048x512x32x1(%arg0: tensor<1x2048x32xf32>, %arg1: tensor<512x2048x1xf32>, %arg2: tensor<1x512x32xf32>) -> tensor<1x512x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x32xf32> into tensor<512x32xf32>
    %0 = tensor.empty() : tensor<43x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x32xf32> -> tensor<43x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x1xf32> to tensor<512x2048xf32>
    %1 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x32xf32> to tensor<2048x32xf32>
    %2 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%pack : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %4 = tensor.empty() : tensor<512x32xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<43x4x12x8xf32> -> tensor<512x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 32] : tensor<512x32xf32> into tensor<1x512x32xf32>
    util.return %expanded : tensor<1x512x32xf32>
  }
  transform.named_sequence @match_conv1d_2048x512x32x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x2048x32xf32>, %arg2: tensor<512x2048x1xf32>, %arg3: tensor<1x512x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x2048x32xf32>, tensor<512x2048x1xf32>) outs(%arg3 : tensor<1x512x32xf32>) -> tensor<1x512x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_2048x512x32x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_2048x512x32x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_2048x512x32x5(%arg0: tensor<1x2048x36xf32>, %arg1: tensor<512x2048x5xf32>, %arg2: tensor<1x512x32xf32>) -> tensor<1x512x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x512x32xf32> into tensor<512x32xf32>
    %0 = tensor.empty() : tensor<43x4x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<512x32xf32> -> tensor<43x4x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x5xf32> to tensor<512x2048xf32>
    %1 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x36xf32> to tensor<2048x32xf32>
    %2 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%pack : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x5xf32> to tensor<512x2048xf32>
    %4 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x36xf32> to tensor<2048x32xf32>
    %5 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%3 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x5xf32> to tensor<512x2048xf32>
    %7 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x36xf32> to tensor<2048x32xf32>
    %8 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%6 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x5xf32> to tensor<512x2048xf32>
    %10 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x36xf32> to tensor<2048x32xf32>
    %11 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%9 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [512, 2048, 1] [1, 1, 1] : tensor<512x2048x5xf32> to tensor<512x2048xf32>
    %13 = tensor.empty() : tensor<43x2048x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<512x2048xf32> -> tensor<43x2048x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 2048, 32] [1, 1, 1] : tensor<1x2048x36xf32> to tensor<2048x32xf32>
    %14 = tensor.empty() : tensor<4x2048x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<2048x32xf32> -> tensor<4x2048x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<43x2048x12x1xf32>, tensor<4x2048x8x1xf32>) outs(%12 : tensor<43x4x12x8xf32>) -> tensor<43x4x12x8xf32>
    %16 = tensor.empty() : tensor<512x32xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<43x4x12x8xf32> -> tensor<512x32xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 512, 32] : tensor<512x32xf32> into tensor<1x512x32xf32>
    util.return %expanded : tensor<1x512x32xf32>
  }
  transform.named_sequence @match_conv1d_2048x512x32x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x2048x36xf32>, %arg2: tensor<512x2048x5xf32>, %arg3: tensor<1x512x32xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x2048x36xf32>, tensor<512x2048x5xf32>) outs(%arg3 : tensor<1x512x32xf32>) -> tensor<1x512x32xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_2048x512x32x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_2048x512x32x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_2048x2048x16x5(%arg0: tensor<1x2048x20xf32>, %arg1: tensor<2048x2048x5xf32>, %arg2: tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x2048x16xf32> into tensor<2048x16xf32>
    %0 = tensor.empty() : tensor<171x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<2048x16xf32> -> tensor<171x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [2048, 2048, 1] [1, 1, 1] : tensor<2048x2048x5xf32> to tensor<2048x2048xf32>
    %1 = tensor.empty() : tensor<171x2048x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<2048x2048xf32> -> tensor<171x2048x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 2048, 16] [1, 1, 1] : tensor<1x2048x20xf32> to tensor<2048x16xf32>
    %2 = tensor.empty() : tensor<2x2048x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<2048x16xf32> -> tensor<2x2048x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<171x2048x12x1xf32>, tensor<2x2048x8x1xf32>) outs(%pack : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [2048, 2048, 1] [1, 1, 1] : tensor<2048x2048x5xf32> to tensor<2048x2048xf32>
    %4 = tensor.empty() : tensor<171x2048x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<2048x2048xf32> -> tensor<171x2048x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 2048, 16] [1, 1, 1] : tensor<1x2048x20xf32> to tensor<2048x16xf32>
    %5 = tensor.empty() : tensor<2x2048x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<2048x16xf32> -> tensor<2x2048x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<171x2048x12x1xf32>, tensor<2x2048x8x1xf32>) outs(%3 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [2048, 2048, 1] [1, 1, 1] : tensor<2048x2048x5xf32> to tensor<2048x2048xf32>
    %7 = tensor.empty() : tensor<171x2048x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<2048x2048xf32> -> tensor<171x2048x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 2048, 16] [1, 1, 1] : tensor<1x2048x20xf32> to tensor<2048x16xf32>
    %8 = tensor.empty() : tensor<2x2048x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<2048x16xf32> -> tensor<2x2048x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<171x2048x12x1xf32>, tensor<2x2048x8x1xf32>) outs(%6 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [2048, 2048, 1] [1, 1, 1] : tensor<2048x2048x5xf32> to tensor<2048x2048xf32>
    %10 = tensor.empty() : tensor<171x2048x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<2048x2048xf32> -> tensor<171x2048x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 2048, 16] [1, 1, 1] : tensor<1x2048x20xf32> to tensor<2048x16xf32>
    %11 = tensor.empty() : tensor<2x2048x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<2048x16xf32> -> tensor<2x2048x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<171x2048x12x1xf32>, tensor<2x2048x8x1xf32>) outs(%9 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [2048, 2048, 1] [1, 1, 1] : tensor<2048x2048x5xf32> to tensor<2048x2048xf32>
    %13 = tensor.empty() : tensor<171x2048x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<2048x2048xf32> -> tensor<171x2048x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 2048, 16] [1, 1, 1] : tensor<1x2048x20xf32> to tensor<2048x16xf32>
    %14 = tensor.empty() : tensor<2x2048x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<2048x16xf32> -> tensor<2x2048x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<171x2048x12x1xf32>, tensor<2x2048x8x1xf32>) outs(%12 : tensor<171x2x12x8xf32>) -> tensor<171x2x12x8xf32>
    %16 = tensor.empty() : tensor<2048x16xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<171x2x12x8xf32> -> tensor<2048x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 2048, 16] : tensor<2048x16xf32> into tensor<1x2048x16xf32>
    util.return %expanded : tensor<1x2048x16xf32>
  }
  transform.named_sequence @match_conv1d_2048x2048x16x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x2048x20xf32>, %arg2: tensor<2048x2048x5xf32>, %arg3: tensor<1x2048x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x2048x20xf32>, tensor<2048x2048x5xf32>) outs(%arg3 : tensor<1x2048x16xf32>) -> tensor<1x2048x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_2048x2048x16x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_2048x2048x16x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_4096x1024x16x1(%arg0: tensor<1x4096x16xf32>, %arg1: tensor<1024x4096x1xf32>, %arg2: tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x16xf32> into tensor<1024x16xf32>
    %0 = tensor.empty() : tensor<86x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x16xf32> -> tensor<86x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x1xf32> to tensor<1024x4096xf32>
    %1 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x16xf32> to tensor<4096x16xf32>
    %2 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%pack : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %4 = tensor.empty() : tensor<1024x16xf32>
    %unpack = linalg.unpack %3 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %4 : tensor<86x2x12x8xf32> -> tensor<1024x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 16] : tensor<1024x16xf32> into tensor<1x1024x16xf32>
    util.return %expanded : tensor<1x1024x16xf32>
  }
  transform.named_sequence @match_conv1d_4096x1024x16x1(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x4096x16xf32>, %arg2: tensor<1024x4096x1xf32>, %arg3: tensor<1x1024x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x4096x16xf32>, tensor<1024x4096x1xf32>) outs(%arg3 : tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_4096x1024x16x1_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_4096x1024x16x1 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_conv1d_4096x1024x16x5(%arg0: tensor<1x4096x20xf32>, %arg1: tensor<1024x4096x5xf32>, %arg2: tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1024x16xf32> into tensor<1024x16xf32>
    %0 = tensor.empty() : tensor<86x2x12x8xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %0 : tensor<1024x16xf32> -> tensor<86x2x12x8xf32>
    %extracted_slice = tensor.extract_slice %arg1[0, 0, 0] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x5xf32> to tensor<1024x4096xf32>
    %1 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_0 = linalg.pack %extracted_slice padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %1 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x20xf32> to tensor<4096x16xf32>
    %2 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_2 = linalg.pack %extracted_slice_1 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %2 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %3 = linalg.mmt4d ins(%pack_0, %pack_2 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%pack : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_3 = tensor.extract_slice %arg1[0, 0, 1] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x5xf32> to tensor<1024x4096xf32>
    %4 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_4 = linalg.pack %extracted_slice_3 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %4 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_5 = tensor.extract_slice %arg0[0, 0, 1] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x20xf32> to tensor<4096x16xf32>
    %5 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_6 = linalg.pack %extracted_slice_5 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %5 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %6 = linalg.mmt4d ins(%pack_4, %pack_6 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%3 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_7 = tensor.extract_slice %arg1[0, 0, 2] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x5xf32> to tensor<1024x4096xf32>
    %7 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_8 = linalg.pack %extracted_slice_7 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %7 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_9 = tensor.extract_slice %arg0[0, 0, 2] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x20xf32> to tensor<4096x16xf32>
    %8 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_10 = linalg.pack %extracted_slice_9 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %8 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %9 = linalg.mmt4d ins(%pack_8, %pack_10 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%6 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_11 = tensor.extract_slice %arg1[0, 0, 3] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x5xf32> to tensor<1024x4096xf32>
    %10 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_12 = linalg.pack %extracted_slice_11 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %10 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_13 = tensor.extract_slice %arg0[0, 0, 3] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x20xf32> to tensor<4096x16xf32>
    %11 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_14 = linalg.pack %extracted_slice_13 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %11 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %12 = linalg.mmt4d ins(%pack_12, %pack_14 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%9 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %extracted_slice_15 = tensor.extract_slice %arg1[0, 0, 4] [1024, 4096, 1] [1, 1, 1] : tensor<1024x4096x5xf32> to tensor<1024x4096xf32>
    %13 = tensor.empty() : tensor<86x4096x12x1xf32>
    %pack_16 = linalg.pack %extracted_slice_15 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [12, 1] into %13 : tensor<1024x4096xf32> -> tensor<86x4096x12x1xf32>
    %extracted_slice_17 = tensor.extract_slice %arg0[0, 0, 4] [1, 4096, 16] [1, 1, 1] : tensor<1x4096x20xf32> to tensor<4096x16xf32>
    %14 = tensor.empty() : tensor<2x4096x8x1xf32>
    %pack_18 = linalg.pack %extracted_slice_17 padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %14 : tensor<4096x16xf32> -> tensor<2x4096x8x1xf32>
    %15 = linalg.mmt4d ins(%pack_16, %pack_18 : tensor<86x4096x12x1xf32>, tensor<2x4096x8x1xf32>) outs(%12 : tensor<86x2x12x8xf32>) -> tensor<86x2x12x8xf32>
    %16 = tensor.empty() : tensor<1024x16xf32>
    %unpack = linalg.unpack %15 inner_dims_pos = [0, 1] inner_tiles = [12, 8] into %16 : tensor<86x2x12x8xf32> -> tensor<1024x16xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [1, 1024, 16] : tensor<1024x16xf32> into tensor<1x1024x16xf32>
    util.return %expanded : tensor<1x1024x16xf32>
  }
  transform.named_sequence @match_conv1d_4096x1024x16x5(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<1x4096x20xf32>, %arg2: tensor<1024x4096x5xf32>, %arg3: tensor<1x1024x16xf32>):
      %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%arg1, %arg2 : tensor<1x4096x20xf32>, tensor<1024x4096x5xf32>) outs(%arg3 : tensor<1x1024x16xf32>) -> tensor<1x1024x16xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_conv1d_4096x1024x16x5_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_conv1d_4096x1024x16x5 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_nwc_wcf_k3(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_nwc_wcf"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[3] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_nwc_wcf_k3(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 3 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_ncw_fcw_k3(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_ncw_fcw"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[4] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_ncw_fcw_k3(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 3 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.foreach %0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %updated_root = transform.foreach_match in %arg1 
          @match_conv1d_2x512x64x1 -> @fold_conv1d_2x512x64x1_here, 
          @match_conv1d_2x512x64x5 -> @fold_conv1d_2x512x64x5_here, 
          @match_conv1d_512x2x64x1 -> @fold_conv1d_512x2x64x1_here, 
          @match_conv1d_512x512x32x5 -> @fold_conv1d_512x512x32x5_here, 
          @match_conv1d_512x512x64x4 -> @fold_conv1d_512x512x64x4_here, 
          @match_conv1d_512x512x64x5 -> @fold_conv1d_512x512x64x5_here, 
          @match_conv1d_512x1024x32x1 -> @fold_conv1d_512x1024x32x1_here, 
          @match_conv1d_512x1024x32x5 -> @fold_conv1d_512x1024x32x5_here, 
          @match_conv1d_1024x1024x16x5 -> @fold_conv1d_1024x1024x16x5_here, 
          @match_conv1d_1024x1024x32x4 -> @fold_conv1d_1024x1024x32x4_here, 
          @match_conv1d_1024x1024x32x5 -> @fold_conv1d_1024x1024x32x5_here, 
          @match_conv1d_1024x2048x16x1 -> @fold_conv1d_1024x2048x16x1_here, 
          @match_conv1d_1024x2048x16x5 -> @fold_conv1d_1024x2048x16x5_here, 
          @match_conv1d_2048x512x32x1 -> @fold_conv1d_2048x512x32x1_here, 
          @match_conv1d_2048x512x32x5 -> @fold_conv1d_2048x512x32x5_here, 
          @match_conv1d_2048x2048x16x5 -> @fold_conv1d_2048x2048x16x5_here, 
          @match_conv1d_4096x1024x16x1 -> @fold_conv1d_4096x1024x16x1_here, 
          @match_conv1d_4096x1024x16x5 -> @fold_conv1d_4096x1024x16x5_here, 
          @match_conv_1d_nwc_wcf_k3 -> @taps_conv_1d_nwc_wcf_k3, 
          @match_conv_1d_ncw_fcw_k3 -> @taps_conv_1d_ncw_fcw_k3 : (!transform.any_op) -> !transform.any_op
    }
    transform.apply_dce to %arg0 : !transform.any_op
    %1 = transform.apply_registered_pass "symbol-dce" to %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
