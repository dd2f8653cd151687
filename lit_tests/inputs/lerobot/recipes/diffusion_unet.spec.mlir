// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a
// directory sits beside this spec:
// iree-dsa-tune: flags: --iree-preprocessing-transform-spec-filename=diffusion_unet.spec.packed-taps.mlir --iree-llvmcpu-enable-ukernels=none --iree-llvmcpu-matmul-tile-bytes=4194304 --iree-global-opt-data-tiling
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_2_mmt4d_1x32x128x1x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [32, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [128, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 32, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_4_mmt4d_1x8x512x1x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [8, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 8, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_8_mmt4d_19x4x2x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [19, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [19, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_22_mmt4d_1x64x260x1x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [64, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_27_mmt4d_19x4x512x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [19, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [19, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_78_mmt4d_2x32x512x16x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [2, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [32, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2, 16, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 16, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_88_mmt4d_37x2x512x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [37, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [37, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_101_mmt4d_1x128x260x1x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [128, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 128, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_106_mmt4d_37x2x1024x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [37, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [37, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_158_mmt4d_1x64x1024x16x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [64, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 16, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_168_mmt4d_74x1x1024x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [74, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [74, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_181_mmt4d_1x256x260x1x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 1] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [256, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [260, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 256, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 1, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_186_mmt4d_74x1x2048x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [74, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [74, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_306_mmt4d_37x1x4096x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [37, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [4096, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [37, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_324_mmt4d_37x1x1024x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [37, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [1, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [1024, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [37, 1, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_386_mmt4d_19x2x2048x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [19, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [2048, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [19, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_404_mmt4d_19x2x512x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [19, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [2, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [19, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_480_mmt4d_1x4x512x28x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    %batch_dims, %m_dims, %n_dims, %k_dims = transform.iree.match.contraction %arg0, lhs_type = f32, rhs_type = f32, output_type = f32, indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>] : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch_dims, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m_dims, [1, 28] : !transform.param<i64>
    transform.iree.match.dims_equal %n_dims, [4, 16] : !transform.param<i64>
    transform.iree.match.dims_equal %k_dims, [512, 1] : !transform.param<i64>
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 28, 16, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_17_elementwise_34048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<34048xf32>, %arg2: tensor<34048xf32>, %arg3: tensor<34048xf32>, %arg4: tensor<34048xf32>, %arg5: tensor<34048xf32>, %arg6: tensor<34048xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<34048xf32>, tensor<34048xf32>, tensor<34048xf32>, tensor<34048xf32>, tensor<34048xf32>) outs(%arg6 : tensor<34048xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<34048xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2432], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_97_elementwise_33152_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<33152xf32>, %arg2: tensor<33152xf32>, %arg3: tensor<33152xf32>, %arg4: tensor<33152xf32>, %arg5: tensor<33152xf32>, %arg6: tensor<33152xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<33152xf32>, tensor<33152xf32>, tensor<33152xf32>, tensor<33152xf32>, tensor<33152xf32>) outs(%arg6 : tensor<33152xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<33152xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2368], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_315_elementwise_16576_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<16576xf32>, %arg2: tensor<16576xf32>, %arg3: tensor<16576xf32>, %arg4: tensor<16576xf32>, %arg5: tensor<16576xf32>, %arg6: tensor<16576xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<16576xf32>, tensor<16576xf32>, tensor<16576xf32>, tensor<16576xf32>, tensor<16576xf32>) outs(%arg6 : tensor<16576xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<16576xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2368], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_382_elementwise_33152_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<33152xf32>, %arg2: tensor<33152xf32>, %arg3: tensor<33152xf32>, %arg4: tensor<33152xf32>, %arg5: tensor<33152xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4 : tensor<33152xf32>, tensor<33152xf32>, tensor<33152xf32>, tensor<33152xf32>) outs(%arg5 : tensor<33152xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %out: f32):
        %2 = arith.addf %in_1, %in_2 : f32
        %3 = arith.addf %in_0, %2 : f32
        %4 = arith.addf %in, %3 : f32
        linalg.yield %4 : f32
      } -> tensor<33152xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2368], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_395_elementwise_17024_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<17024xf32>, %arg2: tensor<17024xf32>, %arg3: tensor<17024xf32>, %arg4: tensor<17024xf32>, %arg5: tensor<17024xf32>, %arg6: tensor<17024xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4, %arg5 : tensor<17024xf32>, tensor<17024xf32>, tensor<17024xf32>, tensor<17024xf32>, tensor<17024xf32>) outs(%arg6 : tensor<17024xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
        %2 = arith.addf %in_2, %in_3 : f32
        %3 = arith.addf %in_1, %2 : f32
        %4 = arith.addf %in_0, %3 : f32
        %5 = arith.addf %in, %4 : f32
        linalg.yield %5 : f32
      } -> tensor<17024xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2432], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_462_elementwise_34048_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<34048xf32>, %arg2: tensor<34048xf32>, %arg3: tensor<34048xf32>, %arg4: tensor<34048xf32>, %arg5: tensor<34048xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4 : tensor<34048xf32>, tensor<34048xf32>, tensor<34048xf32>, tensor<34048xf32>) outs(%arg5 : tensor<34048xf32>) {
      ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %out: f32):
        %2 = arith.addf %in_1, %in_2 : f32
        %3 = arith.addf %in_0, %2 : f32
        %4 = arith.addf %in, %3 : f32
        linalg.yield %4 : f32
      } -> tensor<34048xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2432], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_2_mmt4d_1x32x128x1x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_4_mmt4d_1x8x512x1x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_8_mmt4d_19x4x2x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_22_mmt4d_1x64x260x1x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_27_mmt4d_19x4x512x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_78_mmt4d_2x32x512x16x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_88_mmt4d_37x2x512x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_101_mmt4d_1x128x260x1x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_106_mmt4d_37x2x1024x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_158_mmt4d_1x64x1024x16x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_168_mmt4d_74x1x1024x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_181_mmt4d_1x256x260x1x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_186_mmt4d_74x1x2048x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_306_mmt4d_37x1x4096x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_324_mmt4d_37x1x1024x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_386_mmt4d_19x2x2048x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_404_mmt4d_19x2x512x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_480_mmt4d_1x4x512x28x16x1_f32 -> @apply_op_config, 
        @match_main_async_dispatch_17_elementwise_34048_f32 -> @apply_op_config, 
        @match_main_async_dispatch_97_elementwise_33152_f32 -> @apply_op_config, 
        @match_main_async_dispatch_315_elementwise_16576_f32 -> @apply_op_config, 
        @match_main_async_dispatch_382_elementwise_33152_f32 -> @apply_op_config, 
        @match_main_async_dispatch_395_elementwise_17024_f32 -> @apply_op_config, 
        @match_main_async_dispatch_462_elementwise_34048_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
