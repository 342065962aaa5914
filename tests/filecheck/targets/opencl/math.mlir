// RUN: sarek-opt %S/../Inputs/cf_math.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s --match-full-lines
// opencl source of cf_math.mlir (the whole output, line by line)

// CHECK: __kernel void math(__global float* restrict x, int sarek_x_length, __global int* restrict k, int sarek_k_length, __global int* restrict acc, int sarek_acc_length) {
// CHECK-NEXT:   float sarek_v = x[(int)get_global_id(0)];
// CHECK-NEXT:   float sarek_a = sqrt(sarek_v);
// CHECK-NEXT:   x[(int)get_global_id(0)] = fabs(pow(fmin(fma(sarek_a, sarek_v, sarek_v), sarek_v), sarek_a));
// CHECK-NEXT:   int sarek_pc = (int)popcount((int)clz(max((int)abs(k[(int)get_global_id(0)]), (int)get_global_id(0))));
// CHECK-NEXT:   k[(int)get_global_id(0)] = sarek_pc;
// CHECK-NEXT:   int sarek_o1 = atomic_max(&acc[0], sarek_pc);
// CHECK-NEXT:   atomic_cmpxchg(&acc[0], sarek_o1, atomic_inc(&acc[(int)get_global_id(0)]));
// CHECK-NEXT: }
