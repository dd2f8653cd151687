// Long-K GEMMs -> chunks that accumulate in order (iree-dsa-tune, docs/DATA_TILING.md 8).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_matmul_k16384(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[2] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.param.constant 16384 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %2 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @split_matmul_k16384(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 2048] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 8 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_batch_matmul_k16384(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.batch_matmul"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[3] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.param.constant 16384 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %2 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @split_batch_matmul_k16384(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 2048] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 8 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %updated_root = transform.foreach_match in %arg0 
        @match_matmul_k16384 -> @split_matmul_k16384, 
        @match_batch_matmul_k16384 -> @split_batch_matmul_k16384 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
