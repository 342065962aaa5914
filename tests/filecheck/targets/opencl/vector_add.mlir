// RUN: sarek-opt %S/../../../../examples/vector_add.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of vector_add.mlir (the whole output, line by line)

// CHECK: __kernel void vector_add(__global float* restrict a, int sarek_a_length, __global float* restrict b, int sarek_b_length, __global float* restrict c, int sarek_c_length, int n) {
// CHECK-NEXT:   int tid = (int)get_global_id(0);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     c[tid] = (a[tid] + b[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
