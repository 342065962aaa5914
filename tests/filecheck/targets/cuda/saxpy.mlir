// RUN: sarek-opt %S/../Inputs/saxpy.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of saxpy.mlir (the whole output, line by line)

// CHECK: extern "C" __global__ void saxpy(float alpha, float* __restrict__ x, int sarek_x_length, float* __restrict__ y, int sarek_y_length, int n) {
// CHECK-NEXT:   int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     y[i] = ((alpha * x[i]) + y[i]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
