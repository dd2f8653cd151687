// Linear layers -> mmt4d in 6 x 16 x 1 register tiles (iree-dsa-tune, docs/DATA_TILING.md 18).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE --iree-llvmcpu-enable-ukernels=none ...
module attributes {transform.with_named_sequence} {
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
    %0 = transform.structured.pack %arg0 packed_sizes = [6, 16, 1] : (!transform.any_op) -> !transform.op<"linalg.generic">
    %1 = transform.get_producer_of_operand %0[1] : (!transform.op<"linalg.generic">) -> !transform.op<"linalg.pack">
    %packed_op, %pack_op, %un_pack_op = transform.structured.pack_transpose %1 with_compute_op(%0) outer_perm = [1, 0] : (!transform.op<"linalg.pack">, !transform.op<"linalg.generic">) -> (!transform.op<"linalg.generic">, !transform.op<"linalg.pack">, !transform.any_op)
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %1 = transform.apply_registered_pass "linalg-generalize-named-ops" to %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.apply_registered_pass "linalg-fold-unit-extent-dims" to %1 : (!transform.any_op) -> !transform.any_op
    %3 = transform.apply_registered_pass "linalg-specialize-generic-ops" to %2 : (!transform.any_op) -> !transform.any_op
    %updated_root = transform.foreach_match in %arg0 
        @match_linear -> @pack_linear : (!transform.any_op) -> !transform.any_op
    %4 = transform.structured.match ops{["util.func", "func.func"]} in %updated_root : (!transform.any_op) -> !transform.any_op
    %5 = transform.apply_registered_pass "linalg-specialize-generic-ops" to %4 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
