// RUN: sarek-opt %S/../Inputs/while_mutables.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of while_mutables.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void collatz(int* __restrict__ x, int sarek_x_length, int* __restrict__ steps, int sarek_steps_length, int n) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     int v = x[i];
// CHECK-NEXT:     int count = 0;
// CHECK-NEXT:     while (v > 1) {
// CHECK-NEXT:       v = (((v & 1) == 0) ? (v >> 1) : ((v * 3) + 1));
// CHECK-NEXT:       count = (count + 1);
// CHECK-NEXT:     }
// CHECK-NEXT:     steps[i] = count;
// CHECK-NEXT:   }
// CHECK-NEXT: }
