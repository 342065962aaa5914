// RUN: sarek-opt %S/../Inputs/while_mutables.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of while_mutables.mlir (the whole output, line by line)

// CHECK: __kernel void collatz(__global int* restrict x, int sarek_x_length, __global int* restrict steps, int sarek_steps_length, int n) {
// CHECK-NEXT:   int i = (int)get_global_id(0);
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
