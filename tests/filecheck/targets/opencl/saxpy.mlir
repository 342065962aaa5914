// RUN: sarek-opt %S/../Inputs/saxpy.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of saxpy.mlir (the whole output, line by line)

// CHECK: __kernel void saxpy(float alpha, __global float* restrict x, int sarek_x_length, __global float* restrict y, int sarek_y_length, int n) {
// CHECK-NEXT:   int i = (int)get_global_id(0);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     y[i] = ((alpha * x[i]) + y[i]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
