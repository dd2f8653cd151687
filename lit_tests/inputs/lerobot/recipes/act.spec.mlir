// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)
// with them, or the spec silently applies to nothing (docs/CONV.md):
// iree-dsa-tune: flags: --iree-global-opt-use-im2col-for-convs '--iree-preprocessing-pass-pipeline=builtin.module(util.func(iree-global-opt-detach-elementwise-from-named-ops))' --iree-preprocessing-transform-spec-filename=/work/lerobot-out/act.spec.unbatch.mlir --iree-global-opt-data-tiling --iree-llvmcpu-enable-inner-tiled
module attributes {iree_codegen.tuning_spec_with_default_entrypoint, transform.with_named_sequence} {
  transform.named_sequence @apply_op_config(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.any_param {transform.readonly}) {
    transform.annotate %arg0 "compilation_info" = %arg1 : !transform.any_op, !transform.any_param
    transform.yield 
  }
  transform.named_sequence @match_main_async_dispatch_140_softmax_82x82xf32_dispatch_tensor_store(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<82x82xf32>, %arg2: tensor<82xf32>, %arg3: tensor<82xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<82x82xf32>) outs(%arg2 : tensor<82xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.maxnumf %in, %out : f32
        linalg.yield %3 : f32
      } -> tensor<82xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1, %1 : tensor<82x82xf32>, tensor<82xf32>) outs(%arg3 : tensor<82xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %3 = arith.subf %in, %in_0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %out : f32
        linalg.yield %5 : f32
      } -> tensor<82xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 0], vector_common_parallel = [1, 0], vector_reduction = [0, 82]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_502_softmax_100x82xf32_dispatch_tensor_store(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<100x82xf32>, %arg2: tensor<100xf32>, %arg3: tensor<100xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<100x82xf32>) outs(%arg2 : tensor<100xf32>) {
      ^bb0(%in: f32, %out: f32):
        %3 = arith.maxnumf %in, %out : f32
        linalg.yield %3 : f32
      } -> tensor<100xf32>
      %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg1, %1 : tensor<100x82xf32>, tensor<100xf32>) outs(%arg3 : tensor<100xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %3 = arith.subf %in, %in_0 : f32
        %4 = math.exp %3 : f32
        %5 = arith.addf %4, %out : f32
        linalg.yield %5 : f32
      } -> tensor<100xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2, 0], vector_common_parallel = [1, 0], vector_reduction = [0, 82]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_10_generic_64x3x3x60x80_f32_pack(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<64x62x82xf32>, %arg2: tensor<64x3x3x60x80xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<64x62x82xf32>) outs(%arg2 : tensor<64x3x3x60x80xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<64x3x3x60x80xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [32, 3, 3, 30, 16], vector_common_parallel = [1, 1, 1, 1, 16], vector_reduction = [0, 0, 0, 0, 0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_99_elementwise_41984_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %inputs, %outputs = transform.iree.match.cast_compatible_dag_from_root %arg0 {
    ^bb0(%arg1: tensor<41984xf32>, %arg2: tensor<41984xf32>, %arg3: tensor<41984xf32>):
      %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg2 : tensor<41984xf32>, tensor<41984xf32>) outs(%arg3 : tensor<41984xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %2 = arith.addf %in, %in_0 : f32
        linalg.yield %2 : f32
      } -> tensor<41984xf32>
    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)
    %0 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [2624], vector_common_parallel = [16], vector_reduction = [0]>, translation_info = <pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %0 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_0_fill_1x3x15x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<1x14x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<3x14x15x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<1x3x15x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 3, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_5_fill_3x1200x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x147x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<1200x147x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x1200x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 200, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_11_fill_3x300x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x576x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<300x576x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x300x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 50, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_28_fill_5x75x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<5x576x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<75x576x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<5x75x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [5, 25, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_33_fill_5x75x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<5x1152x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<75x1152x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<5x75x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [5, 15, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_36_fill_5x75x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<5x64x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<75x64x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<5x75x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [5, 75, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_52_fill_9x19x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x1152x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<19x1152x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x19x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [9, 19, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_57_fill_9x19x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x2304x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<19x2304x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x19x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 1, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_60_fill_9x19x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<9x128x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<19x128x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<9x19x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [9, 19, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_76_fill_18x5x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<18x2304x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<5x2304x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<18x5x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [18, 5, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_81_fill_18x5x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<18x4608x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<5x4608x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<18x5x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [18, 5, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_84_fill_18x5x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<18x256x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<5x256x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<18x5x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [18, 5, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_97_fill_18x5x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<18x512x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<5x512x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<18x5x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [18, 5, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_101_fill_3x32x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x512x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<32x512x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x32x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 32, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_110_fill_3x6x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x64x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<6x64x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x6x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 6, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_143_fill_3x4x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x82x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<4x82x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x4x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 4, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_187_fill_3x200x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x512x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<200x512x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x200x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 50, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_189_fill_3x32x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<3x3200x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<32x3200x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<3x32x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [3, 4, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_479_fill_4x6x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<4x64x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<6x64x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<4x6x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 6, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_505_fill_4x4x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<4x82x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<4x82x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<4x4x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 4, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_549_fill_4x200x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<4x512x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<200x512x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<4x200x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 50, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_551_fill_4x32x29x1x16_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<4x3200x29x1x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<32x3200x16x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<4x32x29x1x16xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 2, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @match_main_async_dispatch_557_fill_4x1x2x14x16x1_f32(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %arg0 ["iree_codegen.inner_tiled"] : !transform.any_op
    %0 = transform.get_operand %arg0[0] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %0 = tensor<4x512x2x16x1xf32> : !transform.any_value
    %1 = transform.get_operand %arg0[1] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %1 = tensor<1x512x14x1x1xf32> : !transform.any_value
    %2 = transform.get_operand %arg0[2] : (!transform.any_op) -> !transform.any_value
    transform.iree.match.cast_compatible_type %2 = tensor<4x1x2x14x16x1xf32> : !transform.any_value
    %3 = transform.param.constant #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 1, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 1]>, translation_info = <pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>> -> !transform.any_param
    transform.yield %arg0, %3 : !transform.any_op, !transform.any_param
  }
  transform.named_sequence @__kernel_config(%arg0: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {
    %updated_root = transform.foreach_match in %arg0 
        @match_main_async_dispatch_140_softmax_82x82xf32_dispatch_tensor_store -> @apply_op_config, 
        @match_main_async_dispatch_502_softmax_100x82xf32_dispatch_tensor_store -> @apply_op_config, 
        @match_main_async_dispatch_10_generic_64x3x3x60x80_f32_pack -> @apply_op_config, 
        @match_main_async_dispatch_99_elementwise_41984_f32 -> @apply_op_config, 
        @match_main_async_dispatch_0_fill_1x3x15x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_5_fill_3x1200x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_11_fill_3x300x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_28_fill_5x75x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_33_fill_5x75x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_36_fill_5x75x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_52_fill_9x19x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_57_fill_9x19x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_60_fill_9x19x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_76_fill_18x5x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_81_fill_18x5x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_84_fill_18x5x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_97_fill_18x5x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_101_fill_3x32x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_110_fill_3x6x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_143_fill_3x4x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_187_fill_3x200x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_189_fill_3x32x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_479_fill_4x6x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_505_fill_4x4x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_549_fill_4x200x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_551_fill_4x32x29x1x16_f32 -> @apply_op_config, 
        @match_main_async_dispatch_557_fill_4x1x2x14x16x1_f32 -> @apply_op_config : (!transform.any_op) -> !transform.any_op
    transform.yield %updated_root : !transform.any_op
  }
}
