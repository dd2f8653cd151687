// A hand-written tuning spec for the 1x2048x2048 f32 linalg.matmul dispatch of
// %inputs/matvec.mlir; this file is the spec. Compiling the whole model with
// it must put exactly these tile lists on that dispatch's root op, and must
// leave the model's other dispatch (a linalg.matvec of the same sizes, which
// the matcher does not describe) on IREE's default config.
// No iree-dsa-tune involved: this checks the spec format itself.

// RUN: %iree-opt %s -o /dev/null
// RUN: %iree-compile %host-flags %inputs/matvec.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s \
// RUN:   --compile-to=executable-configurations -o - | FileCheck %s

// CHECK-LABEL: func.func @matmul_m1_dispatch_0_matmul_1x2048x2048_f32()
// CHECK-SAME:    translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>
// CHECK:         linalg.matmul
// CHECK-SAME:      lowering_config = #iree_cpu.lowering_config<distribution = [0, 256, 0], vector_common_parallel = [1, 64, 0], vector_reduction = [0, 0, 16]>

// The matvec dispatch is not matched: IREE's default for haswell (n tile 64 / vector 8) stays.
// CHECK-LABEL: func.func @matvec_dispatch_0_matvec_2048x2048_f32()
// CHECK:         linalg.matvec
// CHECK-SAME:      lowering_config = #iree_cpu.lowering_config<cache_parallel = [64, 0], distribution = [64, 0], vector_common_parallel = [8, 0], vector_reduction = [0, 8]>

module attributes {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint} {
  // Shared by every matcher: attach the config the matcher returned.
  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly},
                                            %config: !transform.any_param {transform.readonly}) {
    transform.annotate %op "compilation_info" = %config : !transform.any_op, !transform.any_param
    transform.yield
  }

  // C[1,2048] = A[1,2048] @ B[2048,2048], f32, as IREE keeps it: a 3-loop
  // linalg.matmul (M=1 is not collapsed for the named op).
  transform.named_sequence @match_matmul_1x2048x2048_f32(%op: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_param) {
    %batch, %m, %n, %k = transform.iree.match.contraction %op,
        lhs_type = f32, rhs_type = f32, output_type = f32,
        indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                         affine_map<(d0, d1, d2) -> (d2, d1)>,
                         affine_map<(d0, d1, d2) -> (d0, d1)>]
        : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m, [1] : !transform.param<i64>
    transform.iree.match.dims_equal %n, [2048] : !transform.param<i64>
    transform.iree.match.dims_equal %k, [2048] : !transform.param<i64>
    %config = transform.param.constant #iree_codegen.compilation_info<
        lowering_config = #iree_cpu.lowering_config<distribution = [0, 256, 0],
                                                    vector_common_parallel = [1, 64, 0],
                                                    vector_reduction = [0, 0, 16]>,
        translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>
      > -> !transform.any_param
    transform.yield %op, %config : !transform.any_op, !transform.any_param
  }

  transform.named_sequence @__kernel_config(%variant: !transform.any_op {transform.consumed}) -> !transform.any_op
      attributes {iree_codegen.tuning_spec_entrypoint} {
    %res = transform.foreach_match in %variant
        @match_matmul_1x2048x2048_f32 -> @apply_op_config
      : (!transform.any_op) -> !transform.any_op
    transform.yield %res : !transform.any_op
  }
}
