// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md):
// iree-dsa-tune: flags: --iree-global-opt-use-im2col-for-convs --iree-global-opt-data-tiling --iree-llvmcpu-enable-inner-tiled
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_60_softmax_64x9xf32_dispatch_tensor_store(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<64x9xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<64x9xf32>) outs(%arg2 : tensor<64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.maxnumf %in, %out : f32
        linalg.yield %3 : f32
      } -> tensor<64xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1, %1 : tensor<64x9xf32>, tensor<64xf32>) outs(%arg3 : tensor<64xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %3 = arith.subf %in, %in_0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %out : f32
        linalg.yield %5 : f32
      } -> tensor<64xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2, 0], vector_common_parallel = [2, 0], vector_reduction = [0, 9]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_7_matmul_like_2x64x576x576_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [64] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 576] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [576] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 64, 0], vector_common_parallel = [1, 8, 32, 0], vector_reduction = [0, 0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_24_matmul_like_2x128x144x1152_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [128] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 144] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1152] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 32, 16, 0], vector_common_parallel = [1, 16, 16, 0], vector_reduction = [0, 0, 0, 8]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_47_matmul_like_2x512x9x2304_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [512] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 9] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2304] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 32, 9, 0], vector_common_parallel = [1, 16, 9, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_51_matmul_like_2x512x9x256_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [512] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 9] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [256] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 512, 9, 0], vector_common_parallel = [1, 16, 9, 0], vector_reduction = [0, 0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_52_matmul_like_2x512x9x4608_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [512] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 9] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [4608] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 9, 0], vector_common_parallel = [1, 16, 9, 0], vector_reduction = [0, 0, 0, 8]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_59_matmul_like_2x32x9x512_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [32] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 9] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 32, 9, 0], vector_common_parallel = [1, 16, 9, 0], vector_reduction = [0, 0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_60_softmax_64x9xf32_dispatch_tensor_store -> @apply_op_config, 
        @match_main_async_dispatch_7_matmul_like_2x64x576x576_f32 -> @apply_op_config, 
        @match_main_async_dispatch_24_matmul_like_2x128x144x1152_f32 -> @apply_op_config, 
        @match_main_async_dispatch_47_matmul_like_2x512x9x2304_f32 -> @apply_op_config, 
        @match_main_async_dispatch_51_matmul_like_2x512x9x256_f32 -> @apply_op_config, 
        @match_main_async_dispatch_52_matmul_like_2x512x9x4608_f32 -> @apply_op_config, 
        @match_main_async_dispatch_59_matmul_like_2x32x9x512_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
