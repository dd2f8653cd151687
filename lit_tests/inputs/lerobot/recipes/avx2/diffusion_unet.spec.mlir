// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a
// directory sits beside this spec:
// iree-dsa-tune: flags: --iree-preprocessing-transform-spec-filename=diffusion_unet.spec.packed-taps.mlir --iree-llvmcpu-enable-ukernels=none --iree-llvmcpu-matmul-tile-bytes=4194304 --iree-global-opt-data-tiling
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_2_mmt4d_1x64x128x1x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [64, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [128, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_4_mmt4d_1x16x512x1x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [16, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_8_mmt4d_43x8x2x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [43, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [8, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [43, 8, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_22_mmt4d_1x128x260x1x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 128, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_27_mmt4d_43x8x512x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [43, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [8, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [43, 8, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_78_mmt4d_4x64x512x8x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [4, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [64, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 32, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_88_mmt4d_86x4x512x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [86, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [86, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_101_mmt4d_1x256x260x1x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [256, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 256, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_106_mmt4d_86x4x1024x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [86, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [86, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_168_mmt4d_171x2x1024x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [171, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [171, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_181_mmt4d_1x512x260x1x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [512, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 512, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_186_mmt4d_171x2x2048x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [171, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [171, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_306_mmt4d_86x2x4096x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [86, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [4096, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [86, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_324_mmt4d_86x2x1024x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [86, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [86, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_386_mmt4d_43x4x2048x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [43, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [43, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_404_mmt4d_43x4x512x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [43, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [43, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_480_mmt4d_1x8x512x12x8x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 12] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [8, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 8, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 12, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_17_elementwise_33024_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<33024xf32>, %arg2: tensor<33024xf32>, %arg3: tensor<33024xf32>, %arg4: tensor<33024xf32>, %arg5: tensor<33024xf32>, %arg6: tensor<33024xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<33024xf32>, tensor<33024xf32>, tensor<33024xf32>, tensor<33024xf32>, tensor<33024xf32>) outs(%arg6 : tensor<33024xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<33024xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2752], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_177_elementwise_32832_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<32832xf32>, %arg2: tensor<32832xf32>, %arg3: tensor<32832xf32>, %arg4: tensor<32832xf32>, %arg5: tensor<32832xf32>, %arg6: tensor<32832xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<32832xf32>, tensor<32832xf32>, tensor<32832xf32>, tensor<32832xf32>, tensor<32832xf32>) outs(%arg6 : tensor<32832xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<32832xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3648], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_315_elementwise_16512_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<16512xf32>, %arg2: tensor<16512xf32>, %arg3: tensor<16512xf32>, %arg4: tensor<16512xf32>, %arg5: tensor<16512xf32>, %arg6: tensor<16512xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<16512xf32>, tensor<16512xf32>, tensor<16512xf32>, tensor<16512xf32>, tensor<16512xf32>) outs(%arg6 : tensor<16512xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<16512xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2752], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_382_elementwise_33024_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<33024xf32>, %arg2: tensor<33024xf32>, %arg3: tensor<33024xf32>, %arg4: tensor<33024xf32>, %arg5: tensor<33024xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4 : tensor<33024xf32>, tensor<33024xf32>, tensor<33024xf32>, tensor<33024xf32>) outs(%arg5 : tensor<33024xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %out: f32):
        %2 = arith.addf %in_1, %in_2 : f32
        %3 = arith.addf %in_0, %2 : f32
        %4 = arith.addf %in, %3 : f32
        linalg.yield %4 : f32
      } -> tensor<33024xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2752], vector_common_parallel = [8], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_2_mmt4d_1x64x128x1x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_4_mmt4d_1x16x512x1x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_8_mmt4d_43x8x2x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_22_mmt4d_1x128x260x1x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_27_mmt4d_43x8x512x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_78_mmt4d_4x64x512x8x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_88_mmt4d_86x4x512x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_101_mmt4d_1x256x260x1x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_106_mmt4d_86x4x1024x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_168_mmt4d_171x2x1024x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_181_mmt4d_1x512x260x1x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_186_mmt4d_171x2x2048x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_306_mmt4d_86x2x4096x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_324_mmt4d_86x2x1024x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_386_mmt4d_43x4x2048x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_404_mmt4d_43x4x512x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_480_mmt4d_1x8x512x12x8x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_17_elementwise_33024_f32 -> @apply_op_config, 
        @match_main_async_dispatch_177_elementwise_32832_f32 -> @apply_op_config, 
        @match_main_async_dispatch_315_elementwise_16512_f32 -> @apply_op_config, 
        @match_main_async_dispatch_382_elementwise_33024_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
