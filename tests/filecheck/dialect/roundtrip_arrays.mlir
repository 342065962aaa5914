// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// N-dimensional arrays: ranked vectors (shape passed with the buffer), one index per dimension, their
// extents, n-D shared and local arrays with constant extents, i64 indices, a ranked vector of records.
sarek.record @cell {v : f32, n : i32}
sarek.kernel @ranked(%a : !sarek.vec<f32, 2> "a", %u : !sarek.vec<i32, 4> "u", %c : !sarek.vec<!sarek.record<@cell>, 3> "c", %i : i32 "i", %k : i64 "k") {
  %x = sarek.array_read %a[%i, %i] : !sarek.vec<f32, 2>
  %d0 = sarek.array_dim %a, 0 : !sarek.vec<f32, 2>
  %d3 = sarek.array_dim %u, 3 : !sarek.vec<i32, 4>
  %y = sarek.array_read %u[%i, %d0, %i, %k] : !sarek.vec<i32, 4>, i32, i32, i32, i64
  %pa = sarek.elem_ref %a[%d3, %i] : !sarek.vec<f32, 2>
  sarek.store %pa, %x : !sarek.ref<f32>
  %pc = sarek.elem_ref %c[%i, %i, %i] : !sarek.vec<!sarek.record<@cell>, 3>
  %pv = sarek.field_ref %pc "v" : !sarek.ref<f32>
  sarek.store %pv, %x : !sarek.ref<f32>
  %c16 = sarek.constant 16 : i32
  %c17 = sarek.constant 17 : i32
  %s = sarek.alloc_array "s"[%c16, %c17] : !sarek.array<f32, shared, 2>
  %l = sarek.alloc_array "l"[%c16, %c16, %c17] : !sarek.array<i32, local, 3>
  %ps = sarek.elem_ref %s[%i, %i] : !sarek.array<f32, shared, 2>
  sarek.store %ps, %x : !sarek.ref<f32>
  %z = sarek.array_read %l[%i, %i, %i] : !sarek.array<i32, local, 3>
}

// CHECK-LABEL: sarek.kernel @ranked
// CHECK-SAME:  %a: !sarek.vec<f32, 2> "a", %u: !sarek.vec<i32, 4> "u", %c: !sarek.vec<!sarek.record<@cell>, 3> "c"
// CHECK:       %x = sarek.array_read %a[%i, %i] : !sarek.vec<f32, 2>
// CHECK-NEXT:  %d0 = sarek.array_dim %a, 0 : !sarek.vec<f32, 2>
// CHECK-NEXT:  %d3 = sarek.array_dim %u, 3 : !sarek.vec<i32, 4>
// CHECK-NEXT:  %y = sarek.array_read %u[%i, %d0, %i, %k] : !sarek.vec<i32, 4>, i32, i32, i32, i64
// CHECK-NEXT:  %pa = sarek.elem_ref %a[%d3, %i] : !sarek.vec<f32, 2>
// CHECK:       %pc = sarek.elem_ref %c[%i, %i, %i] : !sarek.vec<!sarek.record<@cell>, 3>
// CHECK:       %s = sarek.alloc_array "s"[%c16, %c17] : !sarek.array<f32, shared, 2>
// CHECK-NEXT:  %l = sarek.alloc_array "l"[%c16, %c16, %c17] : !sarek.array<i32, local, 3>
// CHECK-NEXT:  %ps = sarek.elem_ref %s[%i, %i] : !sarek.array<f32, shared, 2>
// CHECK:       %z = sarek.array_read %l[%i, %i, %i] : !sarek.array<i32, local, 3>

// -----
// A constant array holds its values (row-major); sarek-constant-tables makes them.
sarek.kernel @tables(%i : i32 "i") {
  %c2 = sarek.constant 2 : i32
  %c3 = sarek.constant 3 : i32
  %t = sarek.alloc_array "t"[%c3] = [1.5 : f32, 2.0 : f32, -0.5 : f32] : !sarek.array<f32, constant>
  %g = sarek.alloc_array "g"[%c2, %c2] = [1 : i32, 2 : i32, 3 : i32, 4 : i32] : !sarek.array<i32, constant, 2>
  %a = sarek.array_read %t[%i] : !sarek.array<f32, constant>
  %b = sarek.array_read %g[%i, %i] : !sarek.array<i32, constant, 2>
}
// CHECK:      %t = sarek.alloc_array "t"[%c3] = [1.500000e+00 : f32, 2.000000e+00 : f32, -5.000000e-01 : f32] : !sarek.array<f32, constant>
// CHECK-NEXT: %g = sarek.alloc_array "g"[%c2, %c2] = [1 : i32, 2 : i32, 3 : i32, 4 : i32] : !sarek.array<i32, constant, 2>
// CHECK-NEXT: %a = sarek.array_read %t[%i] : !sarek.array<f32, constant>
