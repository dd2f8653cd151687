// Linear layers over [tokens, 1, features] -> one mmt4d each in 6 x 16 x 1 register tiles, rows fitted to the tokens (iree-dsa-tune, docs/DATA_TILING.md 18).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE --iree-llvmcpu-enable-ukernels=none ...
module attributes {transform.with_named_sequence} {
  util.func private @fold_linear_82x512x512(%arg0: tensor<82x1x512xf32>, %arg1: tensor<512x512xf32>) -> tensor<82x1x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<82x1x512xf32> into tensor<82x512xf32>
    %0 = tensor.empty() : tensor<14x512x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %0 : tensor<82x512xf32> -> tensor<14x512x6x1xf32>
    %1 = tensor.empty() : tensor<32x512x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<512x512xf32> -> tensor<32x512x16x1xf32>
    %2 = tensor.empty() : tensor<14x32x6x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<14x32x6x16xf32>) -> tensor<14x32x6x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<14x512x6x1xf32>, tensor<32x512x16x1xf32>) outs(%3 : tensor<14x32x6x16xf32>) -> tensor<14x32x6x16xf32>
    %5 = tensor.empty() : tensor<82x512xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %5 : tensor<14x32x6x16xf32> -> tensor<82x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [82, 1, 512] : tensor<82x512xf32> into tensor<82x1x512xf32>
    util.return %expanded : tensor<82x1x512xf32>
  }
  transform.named_sequence @match_linear_82x512x512(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<82x1x512xf32>, %arg2: tensor<512x512xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<512x512xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<82x512x512xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<512x512xf32>) outs(%1 : tensor<82x512x512xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<82x512x512xf32>
      %3 = tensor.empty() : tensor<82x1x512xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<82x1x512xf32>) -> tensor<82x1x512xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<82x1x512xf32>, tensor<82x512x512xf32>) outs(%4 : tensor<82x1x512xf32>) -> tensor<82x1x512xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_82x512x512_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_82x512x512 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_linear_82x512x3200(%arg0: tensor<82x1x512xf32>, %arg1: tensor<3200x512xf32>) -> tensor<82x1x3200xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<82x1x512xf32> into tensor<82x512xf32>
    %0 = tensor.empty() : tensor<14x512x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %0 : tensor<82x512xf32> -> tensor<14x512x6x1xf32>
    %1 = tensor.empty() : tensor<200x512x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<3200x512xf32> -> tensor<200x512x16x1xf32>
    %2 = tensor.empty() : tensor<14x200x6x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<14x200x6x16xf32>) -> tensor<14x200x6x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<14x512x6x1xf32>, tensor<200x512x16x1xf32>) outs(%3 : tensor<14x200x6x16xf32>) -> tensor<14x200x6x16xf32>
    %5 = tensor.empty() : tensor<82x3200xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %5 : tensor<14x200x6x16xf32> -> tensor<82x3200xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [82, 1, 3200] : tensor<82x3200xf32> into tensor<82x1x3200xf32>
    util.return %expanded : tensor<82x1x3200xf32>
  }
  transform.named_sequence @match_linear_82x512x3200(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<82x1x512xf32>, %arg2: tensor<3200x512xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<512x3200xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<3200x512xf32>) outs(%0 : tensor<512x3200xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<82x512x3200xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<512x3200xf32>) outs(%1 : tensor<82x512x3200xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<82x512x3200xf32>
      %3 = tensor.empty() : tensor<82x1x3200xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<82x1x3200xf32>) -> tensor<82x1x3200xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<82x1x512xf32>, tensor<82x512x3200xf32>) outs(%4 : tensor<82x1x3200xf32>) -> tensor<82x1x3200xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_82x512x3200_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_82x512x3200 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_linear_82x3200x512(%arg0: tensor<82x1x3200xf32>, %arg1: tensor<512x3200xf32>) -> tensor<82x1x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<82x1x3200xf32> into tensor<82x3200xf32>
    %0 = tensor.empty() : tensor<14x3200x6x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %0 : tensor<82x3200xf32> -> tensor<14x3200x6x1xf32>
    %1 = tensor.empty() : tensor<32x3200x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<512x3200xf32> -> tensor<32x3200x16x1xf32>
    %2 = tensor.empty() : tensor<14x32x6x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<14x32x6x16xf32>) -> tensor<14x32x6x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<14x3200x6x1xf32>, tensor<32x3200x16x1xf32>) outs(%3 : tensor<14x32x6x16xf32>) -> tensor<14x32x6x16xf32>
    %5 = tensor.empty() : tensor<82x512xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %5 : tensor<14x32x6x16xf32> -> tensor<82x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [82, 1, 512] : tensor<82x512xf32> into tensor<82x1x512xf32>
    util.return %expanded : tensor<82x1x512xf32>
  }
  transform.named_sequence @match_linear_82x3200x512(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<82x1x3200xf32>, %arg2: tensor<512x3200xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<3200x512xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<512x3200xf32>) outs(%0 : tensor<3200x512xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<82x3200x512xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<3200x512xf32>) outs(%1 : tensor<82x3200x512xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<82x3200x512xf32>
      %3 = tensor.empty() : tensor<82x1x512xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<82x1x512xf32>) -> tensor<82x1x512xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<82x1x3200xf32>, tensor<82x3200x512xf32>) outs(%4 : tensor<82x1x512xf32>) -> tensor<82x1x512xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_82x3200x512_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_82x3200x512 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_linear_100x512x512(%arg0: tensor<100x1x512xf32>, %arg1: tensor<512x512xf32>) -> tensor<100x1x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<100x1x512xf32> into tensor<100x512xf32>
    %0 = tensor.empty() : tensor<20x512x5x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [5, 1] into %0 : tensor<100x512xf32> -> tensor<20x512x5x1xf32>
    %1 = tensor.empty() : tensor<32x512x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<512x512xf32> -> tensor<32x512x16x1xf32>
    %2 = tensor.empty() : tensor<20x32x5x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<20x32x5x16xf32>) -> tensor<20x32x5x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<20x512x5x1xf32>, tensor<32x512x16x1xf32>) outs(%3 : tensor<20x32x5x16xf32>) -> tensor<20x32x5x16xf32>
    %5 = tensor.empty() : tensor<100x512xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [5, 16] into %5 : tensor<20x32x5x16xf32> -> tensor<100x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [100, 1, 512] : tensor<100x512xf32> into tensor<100x1x512xf32>
    util.return %expanded : tensor<100x1x512xf32>
  }
  transform.named_sequence @match_linear_100x512x512(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<100x1x512xf32>, %arg2: tensor<512x512xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<512x512xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<512x512xf32>) outs(%0 : tensor<512x512xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<100x512x512xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<512x512xf32>) outs(%1 : tensor<100x512x512xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<100x512x512xf32>
      %3 = tensor.empty() : tensor<100x1x512xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<100x1x512xf32>) -> tensor<100x1x512xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<100x1x512xf32>, tensor<100x512x512xf32>) outs(%4 : tensor<100x1x512xf32>) -> tensor<100x1x512xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_100x512x512_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_100x512x512 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_linear_100x512x3200(%arg0: tensor<100x1x512xf32>, %arg1: tensor<3200x512xf32>) -> tensor<100x1x3200xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<100x1x512xf32> into tensor<100x512xf32>
    %0 = tensor.empty() : tensor<20x512x5x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [5, 1] into %0 : tensor<100x512xf32> -> tensor<20x512x5x1xf32>
    %1 = tensor.empty() : tensor<200x512x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<3200x512xf32> -> tensor<200x512x16x1xf32>
    %2 = tensor.empty() : tensor<20x200x5x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<20x200x5x16xf32>) -> tensor<20x200x5x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<20x512x5x1xf32>, tensor<200x512x16x1xf32>) outs(%3 : tensor<20x200x5x16xf32>) -> tensor<20x200x5x16xf32>
    %5 = tensor.empty() : tensor<100x3200xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [5, 16] into %5 : tensor<20x200x5x16xf32> -> tensor<100x3200xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [100, 1, 3200] : tensor<100x3200xf32> into tensor<100x1x3200xf32>
    util.return %expanded : tensor<100x1x3200xf32>
  }
  transform.named_sequence @match_linear_100x512x3200(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<100x1x512xf32>, %arg2: tensor<3200x512xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<512x3200xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<3200x512xf32>) outs(%0 : tensor<512x3200xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<100x512x3200xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<512x3200xf32>) outs(%1 : tensor<100x512x3200xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<100x512x3200xf32>
      %3 = tensor.empty() : tensor<100x1x3200xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<100x1x3200xf32>) -> tensor<100x1x3200xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<100x1x512xf32>, tensor<100x512x3200xf32>) outs(%4 : tensor<100x1x3200xf32>) -> tensor<100x1x3200xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_100x512x3200_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_100x512x3200 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  util.func private @fold_linear_100x3200x512(%arg0: tensor<100x1x3200xf32>, %arg1: tensor<512x3200xf32>) -> tensor<100x1x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<100x1x3200xf32> into tensor<100x3200xf32>
    %0 = tensor.empty() : tensor<20x3200x5x1xf32>
    %pack = linalg.pack %collapsed padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [5, 1] into %0 : tensor<100x3200xf32> -> tensor<20x3200x5x1xf32>
    %1 = tensor.empty() : tensor<32x3200x16x1xf32>
    %pack_0 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %1 : tensor<512x3200xf32> -> tensor<32x3200x16x1xf32>
    %2 = tensor.empty() : tensor<20x32x5x16xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<20x32x5x16xf32>) -> tensor<20x32x5x16xf32>
    %4 = linalg.mmt4d ins(%pack, %pack_0 : tensor<20x3200x5x1xf32>, tensor<32x3200x16x1xf32>) outs(%3 : tensor<20x32x5x16xf32>) -> tensor<20x32x5x16xf32>
    %5 = tensor.empty() : tensor<100x512xf32>
    %unpack = linalg.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [5, 16] into %5 : tensor<20x32x5x16xf32> -> tensor<100x512xf32>
    %expanded = tensor.expand_shape %unpack [[0, 1], [2]] output_shape [100, 1, 512] : tensor<100x512xf32> into tensor<100x1x512xf32>
    util.return %expanded : tensor<100x1x512xf32>
  }
  transform.named_sequence @match_linear_100x3200x512(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_value, !transform.any_value) {
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<100x1x3200xf32>, %arg2: tensor<512x3200xf32>):
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tensor.empty() : tensor<3200x512xf32>
      %transposed = linalg.transpose ins(%arg2 : tensor<512x3200xf32>) outs(%0 : tensor<3200x512xf32>) permutation = [1, 0] 
      %1 = tensor.empty() : tensor<100x3200x512xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<3200x512xf32>) outs(%1 : tensor<100x3200x512xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<100x3200x512xf32>
      %3 = tensor.empty() : tensor<100x1x512xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<100x1x512xf32>) -> tensor<100x1x512xf32>
      %5 = linalg.batch_matmul ins(%arg1, %2 : tensor<100x1x3200xf32>, tensor<100x3200x512xf32>) outs(%4 : tensor<100x1x512xf32>) -> tensor<100x1x512xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    transform.yield %inputs, %outputs : !transform.any_value, !transform.any_value
  }
  transform.named_sequence @fold_linear_100x3200x512_here(%arg0: !transform.any_value {transform.readonly}, %arg1: !transform.any_value {transform.readonly}) {
    %0 = transform.get_defining_op %arg1 : (!transform.any_value) -> !transform.any_op
    %1 = transform.util.get_nearest_symbol_table %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.util.import_symbol @fold_linear_100x3200x512 into %1 if undefined : (!transform.any_op) -> !transform.any_op
    transform.util.cast_and_call inline_call %2(%arg0) -> %arg1 after %0 : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.foreach %0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %updated_root = transform.foreach_match in %arg1 
          @match_linear_82x512x512 -> @fold_linear_82x512x512_here, 
          @match_linear_82x512x3200 -> @fold_linear_82x512x3200_here, 
          @match_linear_82x3200x512 -> @fold_linear_82x3200x512_here, 
          @match_linear_100x512x512 -> @fold_linear_100x512x512_here, 
          @match_linear_100x512x3200 -> @fold_linear_100x512x3200_here, 
          @match_linear_100x3200x512 -> @fold_linear_100x3200x512_here : (!transform.any_op) -> !transform.any_op
    }
    transform.apply_dce to %arg0 : !transform.any_op
    %1 = transform.apply_registered_pass "symbol-dce" to %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
