// RUN: sarek-opt %S/../../../../examples/vector_add.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of vector_add.mlir (the whole output, line by line)

// CHECK: extern "C" __global__ void vector_add(float* __restrict__ a, int sarek_a_length, float* __restrict__ b, int sarek_b_length, float* __restrict__ c, int sarek_c_length, int n) {
// CHECK-NEXT:   int tid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     c[tid] = (a[tid] + b[tid]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
