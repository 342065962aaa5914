// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s
// N-dimensional arrays on GLSL: the extents are push constants (one int each), accesses are linearised row-major

// CHECK: layout(push_constant) uniform PushConstants { int a_dim0; int a_dim1; int u_dim0; int u_dim1; int u_dim2; int o_len; } pc;
// CHECK: #define u_dim2 pc.u_dim2
// CHECK: shared float t[20];
// CHECK: float at_a(int i, int j) {
// CHECK-NEXT:   return a[((i * a_dim1) + j)];
// CHECK: float l[6];
// CHECK: t[((int(gl_LocalInvocationID.y) * 5) + int(gl_LocalInvocationID.x))] = sarek_t;
// CHECK: o[o_len] = (l[((2 * 3) + int(gl_LocalInvocationID.x))] + u[((((int(gl_LocalInvocationID.y) * u_dim1) + u_dim1) * u_dim2) + int(gl_LocalInvocationID.x))]);
