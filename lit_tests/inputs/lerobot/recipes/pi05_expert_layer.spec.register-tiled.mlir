// Linear layers -> mmt4d in 14 x 32 x 1 register tiles (iree-dsa-tune, docs/DATA_TILING.md 18); then the batched GEMMs left as 2-D matmuls for inner-tiled data tiling (docs/DATA_TILING.md 11).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE --iree-llvmcpu-enable-ukernels=none ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_linear_k4096(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.input %arg1[0] : (!transform.any_op) -> !transform.any_value
      %2 = transform.match.structured.elemental_bitwidth %1 : (!transform.any_value) -> !transform.param<i64>
      %3 = transform.param.constant 32 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %2, %3 : !transform.param<i64>
      %4 = transform.match.structured.input %arg1[1] : (!transform.any_op) -> !transform.any_value
      %5 = transform.match.structured.elemental_bitwidth %4 : (!transform.any_value) -> !transform.param<i64>
      %6 = transform.param.constant 32 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %5, %6 : !transform.param<i64>
      %7 = transform.match.structured.dim %arg1[2] : (!transform.any_op) -> !transform.param<i64>
      %8 = transform.param.constant 4096 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %7, %8 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @pack_linear_k4096(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.pack %arg0 packed_sizes = [14, 32, 1] : (!transform.any_op) -> !transform.op<"linalg.generic">
    %1 = transform.get_producer_of_operand %0[1] : (!transform.op<"linalg.generic">) -> !transform.op<"linalg.pack">
    %packed_op, %pack_op, %un_pack_op = transform.structured.pack_transpose %1 with_compute_op(%0) outer_perm = [1, 0] : (!transform.op<"linalg.pack">, !transform.op<"linalg.generic">) -> (!transform.op<"linalg.generic">, !transform.op<"linalg.pack">, !transform.any_op)
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %packed_op tile_sizes [0, 0, 512] : (!transform.op<"linalg.generic">) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 8 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_linear(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.input %arg1[0] : (!transform.any_op) -> !transform.any_value
      %2 = transform.match.structured.elemental_bitwidth %1 : (!transform.any_value) -> !transform.param<i64>
      %3 = transform.param.constant 32 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %2, %3 : !transform.param<i64>
      %4 = transform.match.structured.input %arg1[1] : (!transform.any_op) -> !transform.any_value
      %5 = transform.match.structured.elemental_bitwidth %4 : (!transform.any_value) -> !transform.param<i64>
      %6 = transform.param.constant 32 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %5, %6 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @pack_linear(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.pack %arg0 packed_sizes = [14, 32, 1] : (!transform.any_op) -> !transform.op<"linalg.generic">
    %1 = transform.get_producer_of_operand %0[1] : (!transform.op<"linalg.generic">) -> !transform.op<"linalg.pack">
    %packed_op, %pack_op, %un_pack_op = transform.structured.pack_transpose %1 with_compute_op(%0) outer_perm = [1, 0] : (!transform.op<"linalg.pack">, !transform.op<"linalg.generic">) -> (!transform.op<"linalg.generic">, !transform.op<"linalg.pack">, !transform.any_op)
    transform.yield 
  }
  transform.named_sequence @match_batch8(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.batch_matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %2 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 8 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %2, %3 : !transform.param<i64>
      %4 = transform.match.structured.dim %arg1[1] : (!transform.any_op) -> !transform.param<i64>
      %5 = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi gt %4, %5 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    %1 = transform.get_producer_of_operand %arg0[2] : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %1 ["linalg.fill"] : !transform.any_op
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @unroll_batch8(%arg0: !transform.any_op {transform.consumed}) {
    %transformed, %loops = transform.structured.fuse %arg0 tile_sizes [1, 0, 0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 8 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_batch1(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.batch_matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %2 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @flatten(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.generalize %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
  transform.named_sequence @match_gemm(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.generic"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.rank %arg1 : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %2 : !transform.param<i64>
      transform.match.structured.body %arg1 contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @specialize(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.specialize %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
  transform.named_sequence @match_tileable(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %2 = transform.match.structured.rank %arg1 : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %2, %3 : !transform.param<i64>
      transform.match.structured.body %arg1 contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    %1 = transform.get_producer_of_operand %arg0[2] : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %1 ["linalg.fill"] : !transform.any_op
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @match_rows(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.batch_matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %2 = transform.match.structured.dim %arg1[1] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %2, %3 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    %1 = transform.get_producer_of_operand %arg0[2] : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %1 ["linalg.fill"] : !transform.any_op
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @hint(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "iree.opt.data_tiling" : !transform.any_op
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %1 = transform.apply_registered_pass "linalg-generalize-named-ops" to %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.apply_registered_pass "linalg-fold-unit-extent-dims" to %1 : (!transform.any_op) -> !transform.any_op
    %3 = transform.apply_registered_pass "linalg-specialize-generic-ops" to %2 : (!transform.any_op) -> !transform.any_op
    %updated_root = transform.foreach_match in %arg0 
        @match_linear_k4096 -> @pack_linear_k4096, 
        @match_linear -> @pack_linear : (!transform.any_op) -> !transform.any_op
    %4 = transform.structured.match ops{["util.func", "func.func"]} in %updated_root : (!transform.any_op) -> !transform.any_op
    %5 = transform.apply_registered_pass "linalg-specialize-generic-ops" to %4 : (!transform.any_op) -> !transform.any_op
    %6 = transform.structured.match ops{["linalg.transpose"]} in %updated_root : (!transform.any_op) -> !transform.any_op
    %7 = transform.structured.generalize %6 : (!transform.any_op) -> !transform.any_op
    %8 = transform.structured.match ops{["util.func", "func.func"]} in %updated_root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %8 {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %updated_root_0 = transform.foreach_match in %updated_root 
        @match_batch8 -> @unroll_batch8 : (!transform.any_op) -> !transform.any_op
    %updated_root_1 = transform.foreach_match in %updated_root_0 
        @match_batch1 -> @flatten : (!transform.any_op) -> !transform.any_op
    %9 = transform.structured.match ops{["util.func", "func.func"]} in %updated_root_1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %9 {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %updated_root_2 = transform.foreach_match in %updated_root_1 
        @match_gemm -> @specialize : (!transform.any_op) -> !transform.any_op
    %updated_root_3 = transform.foreach_match in %updated_root_2 
        @match_tileable -> @hint, 
        @match_rows -> @hint : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
