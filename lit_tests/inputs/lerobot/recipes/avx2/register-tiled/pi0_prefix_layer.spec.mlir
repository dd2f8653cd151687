// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a
// directory sits beside this spec:
// iree-dsa-tune: flags: --iree-preprocessing-transform-spec-filename=pi0_prefix_layer.spec.register-tiled.mlir --iree-llvmcpu-enable-ukernels=none --iree-llvmcpu-matmul-tile-bytes=4194304
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_7_mmt4d_136x128x2048x6x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [136, 6] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [136, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 6, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_9_mmt4d_136x16x2048x6x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [136, 6] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [16, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [17, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 6, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_17_softmax_8x816x816xf32_dispatch_tensor_store(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<8x816x816xf32>, %arg2: tensor<8x816xf32>, %arg3: tensor<8x816xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : tensor<8x816x816xf32>) outs(%arg2 : tensor<8x816xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.maxnumf %in, %out : f32
        linalg.yield %3 : f32
      } -> tensor<8x816xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1, %1 : tensor<8x816x816xf32>, tensor<8x816xf32>) outs(%arg3 : tensor<8x816xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %3 = arith.subf %in, %in_0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %out : f32
        linalg.yield %5 : f32
      } -> tensor<8x816xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 51, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 64]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_24_mmt4d_136x1024x2048x6x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [136, 6] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1024, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [136, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 6, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_28_mmt4d_136x128x1024x6x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [136, 6] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [34, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 6, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_27_unpack_elementwise_816x16384_f32_pack(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<816x16384xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<816x16384xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<816x16384xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [102, 64], vector_common_parallel = [6, 16], vector_reduction = [0, 0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_7_mmt4d_136x128x2048x6x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_9_mmt4d_136x16x2048x6x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_17_softmax_8x816x816xf32_dispatch_tensor_store -> @apply_op_config, 
        @match_main_async_dispatch_24_mmt4d_136x1024x2048x6x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_28_mmt4d_136x128x1024x6x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_27_unpack_elementwise_816x16384_f32_pack -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
