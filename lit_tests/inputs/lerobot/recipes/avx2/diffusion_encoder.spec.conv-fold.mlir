// Chosen 3x3 convolutions -> Winograd F(6x6,3x3) (IREE's pass on the marked ones); batched convolutions -> one GEMM over every image's pixels (iree-dsa-tune, docs/CONV.md).
// Of those not converted, the ones a register tile fits better -> linalg.mmt4d in that tile (docs/CONV.md).
// Of the chosen, those whose transformed input or output would crowd one L1 set -> computed on zero-padded channels (docs/CONV.md).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...
module attributes {transform.with_named_sequence} {
  util.func private @fold_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32(%arg0: tensor<2x128x12x12xf32>, %arg1: tensor<256x128x1x1xf32>) -> tensor<2x256x6x6xf32> {
    %0 = tensor.empty() : tensor<128x1x1x2x6x6xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 * 2 + d1, d5 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x128x12x12xf32>) outs(%0 : tensor<128x1x1x2x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<128x1x1x2x6x6xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<128x1x1x2x6x6xf32> into tensor<128x72xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<256x128x1x1xf32> into tensor<256x128xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<256x72xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %4 = linalg.matmul ins(%collapsed_0, %collapsed : tensor<256x128xf32>, tensor<128x72xf32>) outs(%3 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %expanded = tensor.expand_shape %4 [[0], [1, 2, 3]] output_shape [256, 2, 6, 6] : tensor<256x72xf32> into tensor<256x2x6x6xf32>
    %5 = tensor.empty() : tensor<2x256x6x6xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<256x2x6x6xf32>) outs(%5 : tensor<2x256x6x6xf32>) permutation = [1, 0, 2, 3] 
    util.return %transposed : tensor<2x256x6x6xf32>
  }
  transform.named_sequence @match_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x128x12x12xf32>, %arg2: tensor<256x128x1x1xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x256x6x6xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x128x12x12xf32>, tensor<256x128x1x1xf32>) outs(%1 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32(%arg0: tensor<2x128x14x14xf32>, %arg1: tensor<256x128x3x3xf32>) -> tensor<2x256x6x6xf32> {
    %0 = tensor.empty() : tensor<128x3x3x2x6x6xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 * 2 + d1, d5 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x128x14x14xf32>) outs(%0 : tensor<128x3x3x2x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<128x3x3x2x6x6xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<128x3x3x2x6x6xf32> into tensor<1152x72xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<256x128x3x3xf32> into tensor<256x1152xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<256x72xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %4 = linalg.matmul ins(%collapsed_0, %collapsed : tensor<256x1152xf32>, tensor<1152x72xf32>) outs(%3 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %expanded = tensor.expand_shape %4 [[0], [1, 2, 3]] output_shape [256, 2, 6, 6] : tensor<256x72xf32> into tensor<256x2x6x6xf32>
    %5 = tensor.empty() : tensor<2x256x6x6xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<256x2x6x6xf32>) outs(%5 : tensor<2x256x6x6xf32>) permutation = [1, 0, 2, 3] 
    util.return %transposed : tensor<2x256x6x6xf32>
  }
  transform.named_sequence @match_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x128x14x14xf32>, %arg2: tensor<256x128x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x256x6x6xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x128x14x14xf32>, tensor<256x128x3x3xf32>) outs(%1 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32(%arg0: tensor<2x256x6x6xf32>, %arg1: tensor<512x256x1x1xf32>) -> tensor<2x512x3x3xf32> {
    %0 = tensor.empty() : tensor<2x3x3x256x1x1xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 * 2 + d4, d2 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x6x6xf32>) outs(%0 : tensor<2x3x3x256x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x3x3x256x1x1xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<2x3x3x256x1x1xf32> into tensor<18x256xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<512x256x1x1xf32> into tensor<512x256xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<3x256x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %2 : tensor<18x256xf32> -> tensor<3x256x6x1xf32>
    %3 = tensor.empty() : tensor<32x256x16x1xf32>
    %pack_1 = linalg.pack %collapsed_0 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %3 : tensor<512x256xf32> -> tensor<32x256x16x1xf32>
    %4 = tensor.empty() : tensor<3x32x6x16xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %6 = linalg.mmt4d ins(%pack, %pack_1 : tensor<3x256x6x1xf32>, tensor<32x256x16x1xf32>) outs(%5 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %7 = tensor.empty() : tensor<18x512xf32>
    %unpack = linalg.unpack %6 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %7 : tensor<3x32x6x16xf32> -> tensor<18x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1, 2], [3]] output_shape [2, 3, 3, 512] : tensor<18x512xf32> into tensor<2x3x3x512xf32>
    %8 = tensor.empty() : tensor<2x512x3x3xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x3x3x512xf32>) outs(%8 : tensor<2x512x3x3xf32>) permutation = [0, 3, 1, 2] 
    util.return %transposed : tensor<2x512x3x3xf32>
  }
  transform.named_sequence @match_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x256x6x6xf32>, %arg2: tensor<512x256x1x1xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x512x3x3xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x256x6x6xf32>, tensor<512x256x1x1xf32>) outs(%1 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32(%arg0: tensor<2x256x8x8xf32>, %arg1: tensor<256x256x3x3xf32>) -> tensor<2x256x6x6xf32> {
    %0 = tensor.empty() : tensor<256x3x3x2x6x6xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x8x8xf32>) outs(%0 : tensor<256x3x3x2x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<256x3x3x2x6x6xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<256x3x3x2x6x6xf32> into tensor<2304x72xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<256x256x3x3xf32> into tensor<256x2304xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<256x72xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %4 = linalg.matmul ins(%collapsed_0, %collapsed : tensor<256x2304xf32>, tensor<2304x72xf32>) outs(%3 : tensor<256x72xf32>) -> tensor<256x72xf32>
    %expanded = tensor.expand_shape %4 [[0], [1, 2, 3]] output_shape [256, 2, 6, 6] : tensor<256x72xf32> into tensor<256x2x6x6xf32>
    %5 = tensor.empty() : tensor<2x256x6x6xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<256x2x6x6xf32>) outs(%5 : tensor<2x256x6x6xf32>) permutation = [1, 0, 2, 3] 
    util.return %transposed : tensor<2x256x6x6xf32>
  }
  transform.named_sequence @match_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x256x8x8xf32>, %arg2: tensor<256x256x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x256x6x6xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x256x8x8xf32>, tensor<256x256x3x3xf32>) outs(%1 : tensor<2x256x6x6xf32>) -> tensor<2x256x6x6xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32(%arg0: tensor<2x256x8x8xf32>, %arg1: tensor<512x256x3x3xf32>) -> tensor<2x512x3x3xf32> {
    %0 = tensor.empty() : tensor<2x3x3x256x3x3xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 * 2 + d4, d2 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x256x8x8xf32>) outs(%0 : tensor<2x3x3x256x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x3x3x256x3x3xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<2x3x3x256x3x3xf32> into tensor<18x2304xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<512x256x3x3xf32> into tensor<512x2304xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<3x2304x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %2 : tensor<18x2304xf32> -> tensor<3x2304x6x1xf32>
    %3 = tensor.empty() : tensor<32x2304x16x1xf32>
    %pack_1 = linalg.pack %collapsed_0 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %3 : tensor<512x2304xf32> -> tensor<32x2304x16x1xf32>
    %4 = tensor.empty() : tensor<3x32x6x16xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %6 = linalg.mmt4d ins(%pack, %pack_1 : tensor<3x2304x6x1xf32>, tensor<32x2304x16x1xf32>) outs(%5 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %7 = tensor.empty() : tensor<18x512xf32>
    %unpack = linalg.unpack %6 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %7 : tensor<3x32x6x16xf32> -> tensor<18x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1, 2], [3]] output_shape [2, 3, 3, 512] : tensor<18x512xf32> into tensor<2x3x3x512xf32>
    %8 = tensor.empty() : tensor<2x512x3x3xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x3x3x512xf32>) outs(%8 : tensor<2x512x3x3xf32>) permutation = [0, 3, 1, 2] 
    util.return %transposed : tensor<2x512x3x3xf32>
  }
  transform.named_sequence @match_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x256x8x8xf32>, %arg2: tensor<512x256x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x512x3x3xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x256x8x8xf32>, tensor<512x256x3x3xf32>) outs(%1 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32(%arg0: tensor<2x512x5x5xf32>, %arg1: tensor<512x512x3x3xf32>) -> tensor<2x512x3x3xf32> {
    %0 = tensor.empty() : tensor<2x3x3x512x3x3xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x512x5x5xf32>) outs(%0 : tensor<2x3x3x512x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x3x3x512x3x3xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1, 2], [3, 4, 5]] : tensor<2x3x3x512x3x3xf32> into tensor<18x4608xf32>
    %collapsed_0 = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<512x512x3x3xf32> into tensor<512x4608xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = tensor.empty() : tensor<3x4608x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %2 : tensor<18x4608xf32> -> tensor<3x4608x6x1xf32>
    %3 = tensor.empty() : tensor<32x4608x16x1xf32>
    %pack_1 = linalg.pack %collapsed_0 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %3 : tensor<512x4608xf32> -> tensor<32x4608x16x1xf32>
    %4 = tensor.empty() : tensor<3x32x6x16xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %6 = linalg.mmt4d ins(%pack, %pack_1 : tensor<3x4608x6x1xf32>, tensor<32x4608x16x1xf32>) outs(%5 : tensor<3x32x6x16xf32>) -> tensor<3x32x6x16xf32>
    %7 = tensor.empty() : tensor<18x512xf32>
    %unpack = linalg.unpack %6 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %7 : tensor<3x32x6x16xf32> -> tensor<18x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1, 2], [3]] output_shape [2, 3, 3, 512] : tensor<18x512xf32> into tensor<2x3x3x512xf32>
    %8 = tensor.empty() : tensor<2x512x3x3xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x3x3x512xf32>) outs(%8 : tensor<2x512x3x3xf32>) permutation = [0, 3, 1, 2] 
    util.return %transposed : tensor<2x512x3x3xf32>
  }
  transform.named_sequence @match_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x512x5x5xf32>, %arg2: tensor<512x512x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x512x3x3xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x512x5x5xf32>, tensor<512x512x3x3xf32>) outs(%1 : tensor<2x512x3x3xf32>) -> tensor<2x512x3x3xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32(%arg0: tensor<2x64x26x26xf32>, %arg1: tensor<64x64x3x3xf32>) -> tensor<2x64x24x24xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 0, 0] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<2x64x26x26xf32> to tensor<2x65x26x26xf32>
    %padded_0 = tensor.pad %arg1 low[0, 0, 0, 0] high[1, 1, 0, 0] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<64x64x3x3xf32> to tensor<65x65x3x3xf32>
    %0 = tensor.empty() : tensor<2x65x24x24xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x65x24x24xf32>) -> tensor<2x65x24x24xf32>
    %2 = linalg.conv_2d_nchw_fchw {__winograd_conv, dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %padded_0 : tensor<2x65x26x26xf32>, tensor<65x65x3x3xf32>) outs(%1 : tensor<2x65x24x24xf32>) -> tensor<2x65x24x24xf32>
    %extracted_slice = tensor.extract_slice %2[0, 0, 0, 0] [2, 64, 24, 24] [1, 1, 1, 1] : tensor<2x65x24x24xf32> to tensor<2x64x24x24xf32>
    util.return %extracted_slice : tensor<2x64x24x24xf32>
  }
  transform.named_sequence @match_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x64x26x26xf32>, %arg2: tensor<64x64x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x64x24x24xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x64x24x24xf32>) -> tensor<2x64x24x24xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x64x26x26xf32>, tensor<64x64x3x3xf32>) outs(%1 : tensor<2x64x24x24xf32>) -> tensor<2x64x24x24xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32(%arg0: tensor<2x128x14x14xf32>, %arg1: tensor<128x128x3x3xf32>) -> tensor<2x128x12x12xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 1, 0, 0] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<2x128x14x14xf32> to tensor<2x129x14x14xf32>
    %padded_0 = tensor.pad %arg1 low[0, 0, 0, 0] high[1, 1, 0, 0] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<128x128x3x3xf32> to tensor<129x129x3x3xf32>
    %0 = tensor.empty() : tensor<2x129x12x12xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x129x12x12xf32>) -> tensor<2x129x12x12xf32>
    %2 = linalg.conv_2d_nchw_fchw {__winograd_conv, dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %padded_0 : tensor<2x129x14x14xf32>, tensor<129x129x3x3xf32>) outs(%1 : tensor<2x129x12x12xf32>) -> tensor<2x129x12x12xf32>
    %extracted_slice = tensor.extract_slice %2[0, 0, 0, 0] [2, 128, 12, 12] [1, 1, 1, 1] : tensor<2x129x12x12xf32> to tensor<2x128x12x12xf32>
    util.return %extracted_slice : tensor<2x128x12x12xf32>
  }
  transform.named_sequence @match_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<2x128x14x14xf32>, %arg2: tensor<128x128x3x3xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<2x128x12x12xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x128x12x12xf32>) -> tensor<2x128x12x12xf32>
      %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg1, %arg2 : tensor<2x128x14x14xf32>, tensor<128x128x3x3xf32>) outs(%1 : tensor<2x128x12x12xf32>) -> tensor<2x128x12x12xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.foreach %0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %updated_root = transform.foreach_match in %arg1 
          @match_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32 -> @fold_0_b2_c128_12x12_f256_1x1_s2x2_d1x1_f32_here, 
          @match_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32 -> @fold_1_b2_c128_14x14_f256_3x3_s2x2_d1x1_f32_here, 
          @match_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32 -> @fold_2_b2_c256_6x6_f512_1x1_s2x2_d1x1_f32_here, 
          @match_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32 -> @fold_3_b2_c256_8x8_f256_3x3_s1x1_d1x1_f32_here, 
          @match_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32 -> @fold_4_b2_c256_8x8_f512_3x3_s2x2_d1x1_f32_here, 
          @match_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32 -> @fold_5_b2_c512_5x5_f512_3x3_s1x1_d1x1_f32_here, 
          @match_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32 -> @fold_6_b2_c64_26x26_f64_3x3_s1x1_d1x1_f32_here, 
          @match_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32 -> @fold_7_b2_c128_14x14_f128_3x3_s1x1_d1x1_f32_here : (!transform.any_op) -> !transform.any_op
    }
    transform.apply_dce to %arg0 : !transform.any_op
    %1 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.apply_registered_pass "iree-linalg-ext-convert-conv2d-to-winograd" to %1 : (!transform.any_op) -> !transform.any_op
    %3 = transform.apply_registered_pass "symbol-dce" to %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
