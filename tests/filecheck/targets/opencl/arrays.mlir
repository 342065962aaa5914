// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s
// N-dimensional arrays on OpenCL: each vector passes its extents, accesses are linearised row-major (a vector's
// offset in 64 bits: each extent is an int, their product need not fit one; shared/local arrays in int)

// CHECK: float at(__global float* m, int sarek_m_dim0, int sarek_m_dim1, int i, int j) {
// CHECK-NEXT:   return m[(((long)i * sarek_m_dim1) + j)];
// CHECK: __kernel void nd(__global float* restrict a, int sarek_a_dim0, int sarek_a_dim1, __global float* restrict u, int sarek_u_dim0, int sarek_u_dim1, int sarek_u_dim2, __global float* restrict o, int sarek_o_length) {
// CHECK-NEXT:   __local float t[20];
// CHECK-NEXT:   int zi = ((int)get_local_id(0) + ((int)get_local_size(0) * ((int)get_local_id(1) + ((int)get_local_size(1) * (int)get_local_id(2)))));
// CHECK-NEXT:   while (zi < 20) {
// CHECK-NEXT:     t[(((zi / 5) * 5) + (zi % 5))] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)get_local_size(0) * ((int)get_local_size(1) * (int)get_local_size(2))));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   float l[6] = {0};
// CHECK-NEXT:   t[(((int)get_local_id(1) * 5) + (int)get_local_id(0))] = at(a, sarek_a_dim0, sarek_a_dim1, (int)get_local_id(1), (int)get_local_id(0));
// CHECK:        l[((2 * 3) + (int)get_local_id(0))] = t[(((int)get_local_id(0) * 5) + (int)get_local_id(1))];
// CHECK-NEXT:   o[sarek_o_length] = (l[((2 * 3) + (int)get_local_id(0))] + u[(((((long)(int)get_local_id(1) * sarek_u_dim1) + sarek_u_dim1) * sarek_u_dim2) + (int)get_local_id(0))]);
