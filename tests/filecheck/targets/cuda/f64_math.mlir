// RUN: sarek-opt %S/../Inputs/f64_math.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of f64_math.mlir (the whole output, line by line)

// CHECK: extern "C" __global__ void f64_math(double* __restrict__ x, int sarek_x_length, double* __restrict__ y, int sarek_y_length, float* __restrict__ z, int sarek_z_length, int n) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     double v = x[i];
// CHECK-NEXT:     double res = ((sqrt(v) * exp((-(v / 8.0)))) + sin(v));
// CHECK-NEXT:     y[i] = res;
// CHECK-NEXT:     z[i] = (float)res;
// CHECK-NEXT:   }
// CHECK-NEXT: }
