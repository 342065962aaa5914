// RUN: sarek-opt %S/../Inputs/cf_math.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s --match-full-lines
// hip source of cf_math.mlir (the whole output, line by line)

// CHECK: #include <hip/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: extern "C" __global__ void math(float* __restrict__ x, int sarek_x_length, int* __restrict__ k, int sarek_k_length, int* __restrict__ acc, int sarek_acc_length) {
// CHECK-NEXT:   int sarek_i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   float sarek_v = x[sarek_i];
// CHECK-NEXT:   float sarek_a = sqrtf(sarek_v);
// CHECK-NEXT:   x[sarek_i] = fabsf(powf(fminf(fmaf(sarek_a, sarek_v, sarek_v), sarek_v), sarek_a));
// CHECK-NEXT:   int sarek_pc = (int)__popc((int)__clz(max(abs(k[sarek_i]), sarek_i)));
// CHECK-NEXT:   k[sarek_i] = sarek_pc;
// CHECK-NEXT:   int sarek_o1 = atomicMax(&acc[0], sarek_pc);
// CHECK-NEXT:   atomicCAS(&acc[0], sarek_o1, atomicAdd(&acc[sarek_i], 1));
// CHECK-NEXT: }
