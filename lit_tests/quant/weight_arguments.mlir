// An export that takes its Linear weights as arguments (lit_tests/inputs/torch_gemma_mlp.mlir's
// form): named with --weight-argument, they become parameters and are quantised; the quantised
// model takes only the activation.
// RUN: iree-dsa-tune quantize %S/../inputs/torch_gemma_mlp.mlir --weight-argument 1 --weight-argument 2 --weight-argument 3 --scheme w8a8 -o %t > %t.txt
// RUN: FileCheck %s --input-file %t/model.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.txt
// RUN: not iree-dsa-tune quantize %S/../inputs/torch_gemma_mlp.mlir --weight-argument 7 -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-DAG: "gemma_mlp.arg1.w8a8.weight"> : tensor<1024x256xi8>
// CHECK-DAG: "gemma_mlp.arg3.w8a8.weight"> : tensor<256x1024xi8>
// CHECK-NOT: "gemma_mlp.arg1"> : tensor<1024x256xf32>
// CHECK: util.func public @gemma_mlp$async(%{{[a-z0-9]+}}: !hal.buffer_view, %{{[a-z0-9]+}}: !hal.fence, %{{[a-z0-9]+}}: !hal.fence)

// REPORT: gemma_mlp.arg1  1024x256  w8a8
// REPORT: gemma_mlp.arg2  1024x256  w8a8
// REPORT: gemma_mlp.arg3  256x1024  w8a8

// BAD: error: {{.*}}weight_arguments [7]: @gemma_mlp takes 4 arguments (0..3)
