// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s
// N-dimensional arrays on Metal: each extent takes a buffer slot, accesses are linearised row-major (a vector's
// offset in 64 bits: each extent is an int, their product need not fit one; shared/local arrays in int)

// CHECK: float at(device float* m, int sarek_m_dim0, int sarek_m_dim1, int i, int j) {
// CHECK-NEXT:   return m[(((long)i * sarek_m_dim1) + j)];
// CHECK:      kernel void nd(device float* a {{\[\[}}buffer(0)]], constant int &sarek_a_dim0 {{\[\[}}buffer(1)]],
// CHECK-SAME: constant int &sarek_a_dim1 {{\[\[}}buffer(2)]], device float* u {{\[\[}}buffer(3)]],
// CHECK-SAME: constant int &sarek_u_dim0 {{\[\[}}buffer(4)]], constant int &sarek_u_dim1 {{\[\[}}buffer(5)]],
// CHECK-SAME: constant int &sarek_u_dim2 {{\[\[}}buffer(6)]], device float* o {{\[\[}}buffer(7)]],
// CHECK-SAME: constant int &sarek_o_length {{\[\[}}buffer(8)]],
// CHECK-NEXT:   threadgroup float t[20];
// CHECK-NEXT:   int zi = ((int)__metal_tid.x + ((int)__metal_tpg.x * ((int)__metal_tid.y + ((int)__metal_tpg.y * (int)__metal_tid.z))));
// CHECK-NEXT:   while (zi < 20) {
// CHECK-NEXT:     t[(((zi / 5) * 5) + (zi % 5))] = 0.0f;
// CHECK-NEXT:     zi = (zi + ((int)__metal_tpg.x * ((int)__metal_tpg.y * (int)__metal_tpg.z)));
// CHECK-NEXT:   }
// CHECK-NEXT:   threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:   float l[6] = {0};
// CHECK-NEXT:   t[(((int)__metal_tid.y * 5) + (int)__metal_tid.x)] = at(a, sarek_a_dim0, sarek_a_dim1, (int)__metal_tid.y, (int)__metal_tid.x);
// CHECK:        o[sarek_o_length] = (l[((2 * 3) + (int)__metal_tid.x)] + u[(((((long)(int)__metal_tid.y * sarek_u_dim1) + sarek_u_dim1) * sarek_u_dim2) + (int)__metal_tid.x)]);
