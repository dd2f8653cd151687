// iree-dsa-tune task: pi0 2026.11, stage action_expert, target dsa-e1
// bound to manifest binding 15985cb9c2ad36bc (w4a8, block 64, flow_steps 10, n_action_steps 50); see binding.json
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_expert_layer_dispatch_0_matmul_50x2048x1024_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [50] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2048] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [50, 128, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 1 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 1 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.quant_block = 128 : i64, iree_dsa.tile_k = 1024 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_expert_layer_dispatch_2_matmul_50x1024x2048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [50] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1024] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [50, 64, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 1 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 8 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.quant_block = 128 : i64, iree_dsa.tile_k = 256 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_expert_layer_dispatch_3_matmul_50x4096x1024_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [50] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4096] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [50, 128, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 1 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 4 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.quant_block = 128 : i64, iree_dsa.tile_k = 256 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_expert_layer_dispatch_5_matmul_50x1024x4096_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [50] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1024] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [4096] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [50, 64, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 3 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 8 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.quant_block = 128 : i64, iree_dsa.tile_k = 256 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_expert_layer_dispatch_0_matmul_50x2048x1024_f32 -> @apply_op_config, 
        @match_expert_layer_dispatch_2_matmul_50x1024x2048_f32 -> @apply_op_config, 
        @match_expert_layer_dispatch_3_matmul_50x4096x1024_f32 -> @apply_op_config, 
        @match_expert_layer_dispatch_5_matmul_50x1024x4096_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
