// Attention written out by hand, as torch exports pi0's Gemma layers: Q K^T by matmul, a scale,
// an additive mask, a softmax and P V by matmul, with one KV head repeated for 2 query heads
// (repeat_kv). The quantiser raises the chain to one attention op computed in bf16 (--attention,
// the default): the scores never leave the chip, K, V and the mask are converted before they are
// repeated, and the op reads the one K head, V head and mask through its maps. The Linears around
// it are what is quantised.
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --min-weight-elements 1 -o %t > %t.txt
// RUN: FileCheck %s --input-file %t/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.txt
// RUN: FileCheck %s --check-prefix=HOSTSPEC --input-file %t/attention_spec.mlir
// RUN: iree-dsa-tune quantize %s --scheme w8a8 --min-weight-elements 1 --attention f32 -o %t.f32 > %t.f32.txt
// RUN: FileCheck %s --check-prefix=F32 --input-file %t.f32/model.mlir

// K and V read by key row and head width, the mask by query row and key: no head dimension.
// CHECK-DAG:   #[[Q:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>
// CHECK-DAG:   #[[K:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>
// CHECK-DAG:   #[[V:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d2)>
// CHECK-DAG:   #[[MASK:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-NOT:   linalg.softmax
// CHECK-NOT:   linalg.batch_matmul
// CHECK:       iree_linalg_ext.attention <indexing_maps = [#[[Q]], #[[K]], #[[V]], #{{.+}}, #[[MASK]], #{{.+}}]>
// CHECK-SAME:    ins({{.*}} : tensor<2x8x16xbf16>, tensor<8x16xbf16>, tensor<8x16xbf16>, bf16, tensor<8x8xbf16>)
// CHECK-NOT:   iree_linalg_ext.attention

// REPORT: fused attention: @main: softmax(Q K^T + mask) V over 1x2x8x16 queries and 1x2x8x16 keys (scale 0.25) as one attention op
// REPORT: attention in bf16: 1 op
// REPORT: folded: iree_linalg_ext.attention 2x8x16: operand 1 read as 1x8x16 through its map, not as a 2x8x16 copy
// REPORT: folded: iree_linalg_ext.attention 2x8x16: operand 2 read as 1x8x16 through its map, not as a 2x8x16 copy
// REPORT: folded: iree_linalg_ext.attention 2x8x16: operand 4 read as 1x1x8x8 through its map, not as a 2x8x8 copy
// REPORT: @main against the float model (IREE, host): rel L2
// REPORT: for a CPU build add --iree-codegen-tuning-spec-path={{.*}}attention_spec.mlir: it keeps attention's head width whole

// The spec a CPU build of the model takes: the attention with its head width (16) whole.
// HOSTSPEC: transform.iree.match.cast_compatible_dag_from_root
// HOSTSPEC: vector_reduction = [0, 0, 0, 0, 8]>

// F32:       iree_linalg_ext.attention
// F32-SAME:    ins({{.*}} : tensor<2x8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, f32, tensor<8x8xf32>)

util.global private @wq = #flow.parameter.named<"model"::"wq"> : tensor<32x32xf32>
util.global private @wk = #flow.parameter.named<"model"::"wk"> : tensor<16x32xf32>
util.global private @wv = #flow.parameter.named<"model"::"wv"> : tensor<16x32xf32>
util.global private @wo = #flow.parameter.named<"model"::"wo"> : tensor<32x32xf32>
func.func @main(%x: !torch.vtensor<[1,8,32],f32>, %mask: !torch.vtensor<[1,1,8,8],f32>) -> !torch.vtensor<[1,8,32],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %i1 = torch.constant.int 1
  %i2 = torch.constant.int 2
  %i3 = torch.constant.int 3
  %i8 = torch.constant.int 8
  %i16 = torch.constant.int 16
  %i32 = torch.constant.int 32
  %im1 = torch.constant.int -1
  %scale = torch.constant.float 2.500000e-01
  %wq = util.global.load @wq : tensor<32x32xf32>
  %wq_t = torch_c.from_builtin_tensor %wq : tensor<32x32xf32> -> !torch.vtensor<[32,32],f32>
  %wk = util.global.load @wk : tensor<16x32xf32>
  %wk_t = torch_c.from_builtin_tensor %wk : tensor<16x32xf32> -> !torch.vtensor<[16,32],f32>
  %wv = util.global.load @wv : tensor<16x32xf32>
  %wv_t = torch_c.from_builtin_tensor %wv : tensor<16x32xf32> -> !torch.vtensor<[16,32],f32>
  %wo = util.global.load @wo : tensor<32x32xf32>
  %wo_t = torch_c.from_builtin_tensor %wo : tensor<32x32xf32> -> !torch.vtensor<[32,32],f32>
  %q = torch.aten.linear %x, %wq_t, %none : !torch.vtensor<[1,8,32],f32>, !torch.vtensor<[32,32],f32>, !torch.none -> !torch.vtensor<[1,8,32],f32>
  %q_shape = torch.prim.ListConstruct %i1, %i8, %i2, %i16 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %q_v = torch.aten.view %q, %q_shape : !torch.vtensor<[1,8,32],f32>, !torch.list<int> -> !torch.vtensor<[1,8,2,16],f32>
  %q_h = torch.aten.transpose.int %q_v, %i1, %i2 : !torch.vtensor<[1,8,2,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,2,8,16],f32>
  %kv_shape = torch.prim.ListConstruct %i1, %i8, %i1, %i16 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %rep_shape = torch.prim.ListConstruct %i1, %i1, %i2, %i8, %i16 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %heads_shape = torch.prim.ListConstruct %i1, %i2, %i8, %i16 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %k = torch.aten.linear %x, %wk_t, %none : !torch.vtensor<[1,8,32],f32>, !torch.vtensor<[16,32],f32>, !torch.none -> !torch.vtensor<[1,8,16],f32>
  %k_v = torch.aten.view %k, %kv_shape : !torch.vtensor<[1,8,16],f32>, !torch.list<int> -> !torch.vtensor<[1,8,1,16],f32>
  %k_h = torch.aten.transpose.int %k_v, %i1, %i2 : !torch.vtensor<[1,8,1,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,1,8,16],f32>
  %k_u = torch.aten.unsqueeze %k_h, %i2 : !torch.vtensor<[1,1,8,16],f32>, !torch.int -> !torch.vtensor<[1,1,1,8,16],f32>
  %k_e = torch.aten.expand %k_u, %rep_shape, %false : !torch.vtensor<[1,1,1,8,16],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,8,16],f32>
  %k_r = torch.aten.view %k_e, %heads_shape : !torch.vtensor<[1,1,2,8,16],f32>, !torch.list<int> -> !torch.vtensor<[1,2,8,16],f32>
  %v = torch.aten.linear %x, %wv_t, %none : !torch.vtensor<[1,8,32],f32>, !torch.vtensor<[16,32],f32>, !torch.none -> !torch.vtensor<[1,8,16],f32>
  %v_v = torch.aten.view %v, %kv_shape : !torch.vtensor<[1,8,16],f32>, !torch.list<int> -> !torch.vtensor<[1,8,1,16],f32>
  %v_h = torch.aten.transpose.int %v_v, %i1, %i2 : !torch.vtensor<[1,8,1,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,1,8,16],f32>
  %v_u = torch.aten.unsqueeze %v_h, %i2 : !torch.vtensor<[1,1,8,16],f32>, !torch.int -> !torch.vtensor<[1,1,1,8,16],f32>
  %v_e = torch.aten.expand %v_u, %rep_shape, %false : !torch.vtensor<[1,1,1,8,16],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,8,16],f32>
  %v_r = torch.aten.view %v_e, %heads_shape : !torch.vtensor<[1,1,2,8,16],f32>, !torch.list<int> -> !torch.vtensor<[1,2,8,16],f32>
  %k_t = torch.aten.transpose.int %k_r, %i2, %i3 : !torch.vtensor<[1,2,8,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,2,16,8],f32>
  %s = torch.aten.matmul %q_h, %k_t : !torch.vtensor<[1,2,8,16],f32>, !torch.vtensor<[1,2,16,8],f32> -> !torch.vtensor<[1,2,8,8],f32>
  %s_scaled = torch.aten.mul.Scalar %s, %scale : !torch.vtensor<[1,2,8,8],f32>, !torch.float -> !torch.vtensor<[1,2,8,8],f32>
  %s_masked = torch.aten.add.Tensor %s_scaled, %mask, %i1 : !torch.vtensor<[1,2,8,8],f32>, !torch.vtensor<[1,1,8,8],f32>, !torch.int -> !torch.vtensor<[1,2,8,8],f32>
  %p = torch.aten.softmax.int %s_masked, %im1, %none : !torch.vtensor<[1,2,8,8],f32>, !torch.int, !torch.none -> !torch.vtensor<[1,2,8,8],f32>
  %p_c = torch.aten.clone %p, %none : !torch.vtensor<[1,2,8,8],f32>, !torch.none -> !torch.vtensor<[1,2,8,8],f32>
  %o = torch.aten.matmul %p_c, %v_r : !torch.vtensor<[1,2,8,8],f32>, !torch.vtensor<[1,2,8,16],f32> -> !torch.vtensor<[1,2,8,16],f32>
  %o_t = torch.aten.transpose.int %o, %i1, %i2 : !torch.vtensor<[1,2,8,16],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,8,2,16],f32>
  %o_shape = torch.prim.ListConstruct %i1, %i8, %i32 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %o_v = torch.aten.view %o_t, %o_shape : !torch.vtensor<[1,8,2,16],f32>, !torch.list<int> -> !torch.vtensor<[1,8,32],f32>
  %y = torch.aten.linear %o_v, %wo_t, %none : !torch.vtensor<[1,8,32],f32>, !torch.vtensor<[32,32],f32>, !torch.none -> !torch.vtensor<[1,8,32],f32>
  return %y : !torch.vtensor<[1,8,32],f32>
}
