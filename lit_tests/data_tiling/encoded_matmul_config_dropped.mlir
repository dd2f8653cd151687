// Why a spec cannot tune the mmt4d under --iree-opt-data-tiling (IREE 3.13):
// the spec runs (MaterializeUserConfigsPass) before the encodings are
// materialized (MaterializeDeviceEncodingPass), so it matches the encoded
// linalg.matmul. Its compilation_info is split there: the translation_info
// goes on the function, the lowering_config on the matmul, and the matmul is
// then replaced by a new linalg.mmt4d that does not inherit the attribute.
// The dispatch ends up with the spec's pipeline and no tile sizes at all: the
// spec's tiles are lost, never applied. This file is the spec.
// See docs/DATA_TILING.md; lit_tests/data_tiling/mmt4d_spec_applies.mlir shows
// the flag under which a spec does reach the mmt4d.

// RUN: %iree-opt %s -o /dev/null

// The remark proves the matcher matched the encoded matmul.
// RUN: %iree-compile %host-flags --iree-opt-data-tiling \
// RUN:   %inputs/data_tiling/matmul_64x128x256.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s \
// RUN:   --iree-codegen-test-notify-transform-strategy-application \
// RUN:   --compile-to=executable-configurations -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s < %t.mlir

// REMARK: remark: Applied transform configuration strategy

// CHECK-LABEL: func.func @matmul_dispatch_0_matmul_64x128x256_f32()
// CHECK-SAME:    translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Mmt4dTilingExpert>>
// CHECK-NOT:     lowering_config
// CHECK:         linalg.mmt4d ins(
// CHECK-NOT:     lowering_config
// CHECK:         return

// Nothing is tiled. Without the mmt4d ukernel (on x86-64 IREE enables it by
// default) the untiled mmt4d vectorizes to vectors over the size limit and the
// compile fails. With the ukernel this small dispatch still compiles, as one
// ukernel call over the whole matrix; a 256x512x512 one fails on the 32 KiB
// stack limit instead (docs/DATA_TILING.md).
// RUN: not %iree-compile %host-flags --iree-opt-data-tiling --iree-llvmcpu-enable-ukernels=none \
// RUN:   %inputs/data_tiling/matmul_64x128x256.mlir \
// RUN:   --iree-codegen-tuning-spec-path=%s -o %t.vmfb 2>&1 | FileCheck %s --check-prefix=FAIL

// FAIL: error: One or more operations with large vector sizes

module attributes {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint} {
  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly},
                                            %config: !transform.any_param {transform.readonly}) {
    transform.annotate %op "compilation_info" = %config : !transform.any_op, !transform.any_param
    transform.yield
  }

  // The encoded matmul as the spec sees it: a 3-loop linalg.matmul (its
  // operands' encodings do not show in the matcher).
  transform.named_sequence @match_matmul_64x128x256_f32(%op: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_param) {
    %batch, %m, %n, %k = transform.iree.match.contraction %op,
        lhs_type = f32, rhs_type = f32, output_type = f32,
        indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                         affine_map<(d0, d1, d2) -> (d2, d1)>,
                         affine_map<(d0, d1, d2) -> (d0, d1)>]
        : !transform.any_op -> !transform.param<i64>
    transform.iree.match.dims_equal %batch, [] : !transform.param<i64>
    transform.iree.match.dims_equal %m, [64] : !transform.param<i64>
    transform.iree.match.dims_equal %n, [128] : !transform.param<i64>
    transform.iree.match.dims_equal %k, [256] : !transform.param<i64>
    // The tile lists an mmt4d of this matmul would need (6 loops).
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
        @match_matmul_64x128x256_f32 -> @apply_op_config
      : (!transform.any_op) -> !transform.any_op
    transform.yield %res : !transform.any_op
  }
}
