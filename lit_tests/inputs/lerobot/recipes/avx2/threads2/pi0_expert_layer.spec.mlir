// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a
// directory sits beside this spec:
// iree-dsa-tune: flags: --iree-global-opt-data-tiling --iree-llvmcpu-matmul-tile-bytes=4194304
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_2_batch_mmt4d_1x7x16x1x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [16, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_10_batch_mmt4d_1x7x256x1024x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [256, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_13_batch_mmt4d_1x7x32x1024x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [32, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_24_batch_mmt4d_8x7x109x256x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [8] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [109, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [256, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 109, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_26_softmax_8x51x867xf32_dispatch_tensor_store(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<8x51x867xf32>, %arg2: tensor<8x51xf32>, %arg3: tensor<8x51xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : tensor<8x51x867xf32>) outs(%arg2 : tensor<8x51xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.maxnumf %in, %out : f32
        linalg.yield %3 : f32
      } -> tensor<8x51xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1, %1 : tensor<8x51x867xf32>, tensor<8x51xf32>) outs(%arg3 : tensor<8x51xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %3 = arith.subf %in, %in_0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %out : f32
        linalg.yield %5 : f32
      } -> tensor<8x51xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 1, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 64]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_29_mmt4d_32x51x867x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [32, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [51, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [867, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [32, 3, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_33_batch_mmt4d_1x7x128x2048x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 8, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_37_batch_mmt4d_1x7x512x1024x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [512, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_41_batch_mmt4d_1x7x128x4096x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d5)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [7, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [4096, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 7, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_6_elementwise_13056_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<13056xf32>, %arg2: tensor<13056xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<13056xf32>) outs(%arg2 : tensor<13056xf32>) {
      ^bb0(%in: f32, %out: f32):
        %2 = math.cos %in : f32
        linalg.yield %2 : f32
      } -> tensor<13056xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3264], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_7_elementwise_13056_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<13056xf32>, %arg2: tensor<13056xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<13056xf32>) outs(%arg2 : tensor<13056xf32>) {
      ^bb0(%in: f32, %out: f32):
        %2 = math.sin %in : f32
        linalg.yield %2 : f32
      } -> tensor<13056xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3264], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_12_transpose_51x8x256_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<51x8x256xf32>, %arg2: tensor<8x51x256xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<51x8x256xf32>) outs(%arg2 : tensor<8x51x256xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<8x51x256xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 8, 64], vector_common_parallel = [1, 1, 8], vector_reduction = [0, 0, 0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_20_elementwise_13056_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<13056xf32>, %arg2: tensor<13056xf32>, %arg3: tensor<13056xf32>, %arg4: tensor<13056xf32>, %arg5: tensor<13056xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4 : tensor<13056xf32>, tensor<13056xf32>, tensor<13056xf32>, tensor<13056xf32>) outs(%arg5 : tensor<13056xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %out: f32):
        %2 = arith.mulf %in_1, %in_2 : f32
        %3 = arith.mulf %in, %in_0 : f32
        %4 = arith.addf %3, %2 : f32
        linalg.yield %4 : f32
      } -> tensor<13056xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3264], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_21_elementwise_broadcast_8x221952_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<221952xf32>, %arg2: tensor<8x221952xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<221952xf32>) outs(%arg2 : tensor<8x221952xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<8x221952xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [8, 408], vector_common_parallel = [1, 8], vector_reduction = [0, 0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_2_batch_mmt4d_1x7x16x1x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_10_batch_mmt4d_1x7x256x1024x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_13_batch_mmt4d_1x7x32x1024x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_24_batch_mmt4d_8x7x109x256x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_26_softmax_8x51x867xf32_dispatch_tensor_store -> @apply_op_config, 
        @match_main_async_dispatch_29_mmt4d_32x51x867x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_33_batch_mmt4d_1x7x128x2048x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_37_batch_mmt4d_1x7x512x1024x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_41_batch_mmt4d_1x7x128x4096x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_6_elementwise_13056_f32 -> @apply_op_config, 
        @match_main_async_dispatch_7_elementwise_13056_f32 -> @apply_op_config, 
        @match_main_async_dispatch_12_transpose_51x8x256_f32 -> @apply_op_config, 
        @match_main_async_dispatch_20_elementwise_13056_f32 -> @apply_op_config, 
        @match_main_async_dispatch_21_elementwise_broadcast_8x221952_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
