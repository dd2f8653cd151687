// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a
// directory sits beside this spec:
// iree-dsa-tune: flags: '--iree-preprocessing-pass-pipeline=builtin.module(util.func(iree-linalg-ext-convert-attention-to-online-attention,iree-linalg-ext-decompose-attention))' --iree-preprocessing-transform-spec-filename=pi0_vision_layer.spec.unbatch.mlir --iree-global-opt-data-tiling --iree-llvmcpu-enable-inner-tiled
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_2_fill_9x72x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x1152x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<72x1152x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x72x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [9, 12, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_18_fill_9x269x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x1152x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<269x1152x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x269x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [9, 1, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_21_fill_9x72x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x1076x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<72x1076x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x72x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [9, 12, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_8_matmul_like_16x256x256x72_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [16] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [256] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [256] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [72] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 256, 256, 0], vector_common_parallel = [1, 16, 16, 0], vector_reduction = [0, 0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_11_matmul_like_16x256x72x256_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [16] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [256] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [72] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [256] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 32, 8, 0], vector_common_parallel = [1, 16, 8, 0], vector_reduction = [0, 0, 0, 8]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_2_fill_9x72x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_18_fill_9x269x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_21_fill_9x72x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_8_matmul_like_16x256x256x72_f32 -> @apply_op_config, 
        @match_main_async_dispatch_11_matmul_like_16x256x72x256_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
