// Batched GEMMs -> 2-D matmuls for inner-tiled data tiling (iree-dsa-tune, docs/DATA_TILING.md 11).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...
module attributes {transform.with_named_sequence} {
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
    %0 = transform.structured.match ops{["linalg.transpose"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.generalize %0 : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.match ops{["util.func", "func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %2 {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %updated_root = transform.foreach_match in %arg0 
        @match_batch8 -> @unroll_batch8 : (!transform.any_op) -> !transform.any_op
    %updated_root_0 = transform.foreach_match in %updated_root 
        @match_batch1 -> @flatten : (!transform.any_op) -> !transform.any_op
    %3 = transform.structured.match ops{["util.func", "func.func"]} in %updated_root_0 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %3 {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_reshapes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %updated_root_1 = transform.foreach_match in %updated_root_0 
        @match_gemm -> @specialize : (!transform.any_op) -> !transform.any_op
    %updated_root_2 = transform.foreach_match in %updated_root_1 
        @match_tileable -> @hint, 
        @match_rows -> @hint : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
