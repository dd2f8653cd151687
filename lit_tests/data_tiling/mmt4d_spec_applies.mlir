// Under data tiling a tuning spec can configure the linalg.mmt4d dispatch only
// when the mmt4d already exists in the executable source, i.e. with
// --iree-global-opt-data-tiling (GlobalOptimization packs and materializes the
// encodings before dispatch formation). This file is the spec: it matches the
// mmt4d that %inputs/data_tiling/matmul_64x128x256.mlir becomes on haswell
// (M1 x N1 x K1 = 8 x 16 x 256 outer tiles of M0 x N0 x K0 = 8 x 8 x 1) and sets
// distribution tiles [8, 2] where IREE's heuristic picks [4, 4].
// See docs/DATA_TILING.md.

// RUN: %iree-opt %s -o /dev/null

// Early materialization: the configured mmt4d carries the spec's tile lists.
// RUN: %iree-compile %host-flags --iree-global-opt-data-tiling \
// RUN:   %inputs/data_tiling/matmul_64x128x256.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s \
// RUN:   --compile-to=executable-configurations -o - | FileCheck %s
// And the whole model still compiles with that config.
// RUN: %iree-compile %host-flags --iree-global-opt-data-tiling \
// RUN:   %inputs/data_tiling/matmul_64x128x256.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s -o %t.vmfb

// CHECK-LABEL: func.func @matmul_dispatch_2_mmt4d_8x16x256x8x8x1_f32()
// CHECK-SAME:    translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>
// CHECK:         linalg.mmt4d
// CHECK-SAME:      lowering_config = #iree_cpu.lowering_config<distribution = [8, 2, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>

// --iree-opt-data-tiling (3.13's default data-tiling path) materializes the
// encodings inside codegen, after the spec ran: the spec saw an encoded
// linalg.matmul, matched nothing, and IREE's own mmt4d config stays.
// RUN: %iree-compile %host-flags --iree-opt-data-tiling \
// RUN:   %inputs/data_tiling/matmul_64x128x256.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s \
// RUN:   --compile-to=executable-configurations -o - | FileCheck %s --check-prefix=LATE

// LATE-LABEL: func.func @matmul_dispatch_0_matmul_64x128x256_f32()
// LATE-SAME:    translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>
// LATE:         linalg.mmt4d
// LATE-SAME:      lowering_config = #iree_cpu.lowering_config<distribution = [4, 4, 0, 0, 0, 0], vector_common_parallel = [1, 1, 0, 8, 8, 0], vector_reduction = [0, 0, 1, 0, 0, 1]>

module attributes {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint} {
  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly},
                                            %config: !transform.any_param {transform.readonly}) {
    transform.annotate %op "compilation_info" = %config : !transform.any_op, !transform.any_param
    transform.yield
  }

  // linalg.mmt4d iterates (M1, N1, K1, M0, N0, K0); the contraction matcher
  // reports each of m, n, k as its [outer, inner] pair.
  transform.named_sequence @match_mmt4d_8x16x256x8x8x1_f32(%op: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_param) {
    transform.match.operation_name %op ["linalg.mmt4d"] : !transform.any_op
    %batch, %m, %n, %k = transform.iree.match.contraction %op,
        lhs_type = f32, rhs_type = f32, output_type = f32,
        indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>,
                         affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>,
                         affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
        : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m, [8, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %n, [16, 8] : !transform.param<i64>
    transform.iree.match.dims_equal %k, [256, 1] : !transform.param<i64>
    // Only the distribution tiles differ from IREE's choice: the vector tiles
    // must stay one inner tile (M0, N0 parallel; K0 reduction), see the doc.
    %config = transform.param.constant #iree_codegen.compilation_info<
        lowering_config = #iree_cpu.lowering_config<distribution = [8, 2, 0, 0, 0, 0],
                                                    vector_common_parallel = [1, 1, 0, 8, 8, 0],
                                                    vector_reduction = [0, 0, 1, 0, 0, 1]>,
        translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>
      > -> !transform.any_param
    transform.yield %op, %config : !transform.any_op, !transform.any_param
  }

  transform.named_sequence @__kernel_config(%variant: !transform.any_op {transform.consumed}) -> !transform.any_op
      attributes {iree_codegen.tuning_spec_entrypoint} {
    %res = transform.foreach_match in %variant
        @match_mmt4d_8x16x256x8x8x1_f32 -> @apply_op_config
      : (!transform.any_op) -> !transform.any_op
    transform.yield %res : !transform.any_op
  }
}
