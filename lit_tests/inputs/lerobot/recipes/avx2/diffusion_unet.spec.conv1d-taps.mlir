// Batch-1 1-D convolutions -> one matmul per kernel tap (iree-dsa-tune, docs/CONV.md).
// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_conv_1d_nwc_wcf_k3(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_nwc_wcf"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[3] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_nwc_wcf_k3(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 3 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_nwc_wcf_k4(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_nwc_wcf"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[3] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_nwc_wcf_k4(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 4 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_nwc_wcf_k5(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_nwc_wcf"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[3] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 5 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_nwc_wcf_k5(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 5 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_ncw_fcw_k3(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_ncw_fcw"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[4] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_ncw_fcw_k3(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 3 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_ncw_fcw_k4(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_ncw_fcw"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[4] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_ncw_fcw_k4(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 4 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @match_conv_1d_ncw_fcw_k5(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %arg0 ["linalg.conv_1d_ncw_fcw"] : !transform.any_op
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[4] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.param.constant 1 : i64 -> !transform.param<i64>
      %4 = transform.param.constant 5 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %1, %3 : !transform.param<i64>
      transform.match.param.cmpi eq %2, %4 : !transform.param<i64>
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @taps_conv_1d_ncw_fcw_k5(%arg0: !transform.any_op {transform.consumed}) {
    %tiled_linalg_op, %loops = transform.structured.tile_using_for %arg0 tile_sizes [0, 0, 0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.loop.unroll %loops factor = 5 : !transform.op<"scf.for">
    transform.yield 
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %updated_root = transform.foreach_match in %arg0 
        @match_conv_1d_nwc_wcf_k3 -> @taps_conv_1d_nwc_wcf_k3, 
        @match_conv_1d_nwc_wcf_k4 -> @taps_conv_1d_nwc_wcf_k4, 
        @match_conv_1d_nwc_wcf_k5 -> @taps_conv_1d_nwc_wcf_k5, 
        @match_conv_1d_ncw_fcw_k3 -> @taps_conv_1d_ncw_fcw_k3, 
        @match_conv_1d_ncw_fcw_k4 -> @taps_conv_1d_ncw_fcw_k4, 
        @match_conv_1d_ncw_fcw_k5 -> @taps_conv_1d_ncw_fcw_k5 : (!transform.any_op) -> !transform.any_op
    transform.yield 
  }
}
