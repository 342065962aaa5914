// RUN: sarek-opt %S/../Inputs/cf_math.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --match-full-lines
// cuda source of cf_math.mlir (the whole output, line by line)

// CHECK: extern "C" __global__ void math(float* __restrict__ x, int sarek_x_length, int* __restrict__ k, int sarek_k_length, int* __restrict__ acc, int sarek_acc_length) {
// CHECK-NEXT:   int sarek_i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
// CHECK-NEXT:   float sarek_v = x[sarek_i];
// CHECK-NEXT:   float sarek_a = sqrtf(sarek_v);
// CHECK-NEXT:   x[sarek_i] = fabsf(powf(fminf(fmaf(sarek_a, sarek_v, sarek_v), sarek_v), sarek_a));
// integer abs is a select on CUDA (Language.int_abs_select: the ptxas bug of fuzz seed 202272)
// CHECK-NEXT:   int sarek_n = k[sarek_i];
// CHECK-NEXT:   int sarek_pc = __popc(__clz(max(((sarek_n < 0) ? (-sarek_n) : sarek_n), sarek_i)));
// CHECK-NEXT:   k[sarek_i] = sarek_pc;
// CHECK-NEXT:   int sarek_o1 = atomicMax(&acc[0], sarek_pc);
// CHECK-NEXT:   atomicCAS(&acc[0], sarek_o1, atomicAdd(&acc[sarek_i], 1));
// CHECK-NEXT: }
