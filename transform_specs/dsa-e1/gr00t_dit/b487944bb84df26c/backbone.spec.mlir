// iree-dsa-tune task: gr00t_dit 2026.11, stage backbone, target dsa-e1
// bound to manifest binding b487944bb84df26c (bf16, flow_steps 4, n_action_steps 16); see binding.json
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_backbone_layer_dispatch_0_matmul_300x2048x2048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [300] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2048] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [300, 64, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 2 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 8 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.tile_k = 128 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_backbone_layer_dispatch_1_matmul_300x1024x2048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [300] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1024] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [300, 64, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 1 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 8 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.tile_k = 256 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_backbone_layer_dispatch_3_matmul_300x8192x2048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [300] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [8192] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [300, 64, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 2 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 8 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.tile_k = 128 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_backbone_layer_dispatch_5_matmul_300x2048x8192_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [300] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2048] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [8192] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [300, 32, 0], vector_common_parallel = [16, 32, 0], vector_reduction = [0, 0, 4]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {iree_dsa.dma_stages = 3 : i64, iree_dsa.fusion = 0 : i64, iree_dsa.k_split = 16 : i64, iree_dsa.parallelism = 16 : i64, iree_dsa.tile_k = 512 : i64, iree_dsa.vector_width = 32 : i64}>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_backbone_layer_dispatch_0_matmul_300x2048x2048_f32 -> @apply_op_config, 
        @match_backbone_layer_dispatch_1_matmul_300x1024x2048_f32 -> @apply_op_config, 
        @match_backbone_layer_dispatch_3_matmul_300x8192x2048_f32 -> @apply_op_config, 
        @match_backbone_layer_dispatch_5_matmul_300x2048x8192_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
