// RUN: sarek-opt %S/../Inputs/f64_math.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of f64_math.mlir (the whole output, line by line)

// CHECK: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-EMPTY:
// CHECK-NEXT: __kernel void f64_math(__global double* restrict x, int sarek_x_length, __global double* restrict y, int sarek_y_length, __global float* restrict z, int sarek_z_length, int n) {
// CHECK-NEXT:   int i = (int)get_global_id(0);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     double v = x[i];
// CHECK-NEXT:     double res = ((sqrt(v) * exp((-(v / 8.0)))) + sin(v));
// CHECK-NEXT:     y[i] = res;
// CHECK-NEXT:     z[i] = (float)res;
// CHECK-NEXT:   }
// CHECK-NEXT: }
