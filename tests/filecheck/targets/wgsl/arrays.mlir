// RUN: sarek-opt %S/../Inputs/arrays.mlir -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s
// N-dimensional arrays on WGSL: the extents are uniform params (one i32 each), accesses are linearised row-major

// CHECK:      struct Params {
// CHECK-NEXT:   sarek_a_dim0 : i32,
// CHECK-NEXT:   sarek_a_dim1 : i32,
// CHECK-NEXT:   sarek_u_dim0 : i32,
// CHECK-NEXT:   sarek_u_dim1 : i32,
// CHECK-NEXT:   sarek_u_dim2 : i32,
// CHECK-NEXT:   sarek_o_length : i32,
// CHECK-NEXT: }
// CHECK: var<workgroup> t : array<f32, 20>;
// CHECK: fn at_a(i : i32, j : i32) -> f32 {
// CHECK-NEXT:   return a[((i * params.sarek_a_dim1) + j)];
// CHECK: var l : array<f32, 6>;
// CHECK: u[((((i32(sarek_lid.y) * params.sarek_u_dim1) + params.sarek_u_dim1) * params.sarek_u_dim2) + i32(sarek_lid.x))]
