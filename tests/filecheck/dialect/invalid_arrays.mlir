// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// N-dimensional arrays: one index per dimension, extents in range, ranks 1 to 4, constant n-D shapes.

sarek.kernel @k(%a : !sarek.vec<f32, 2> "a", %i : i32 "i") {
  %x = sarek.array_read %a[%i] : !sarek.vec<f32, 2>
}
// CHECK: sarek.array_read on !sarek.vec<f32, 2> (rank 2) needs 2 indices, got 1

// -----

sarek.kernel @k(%a : !sarek.vec<f32> "a", %i : i32 "i") {
  %x = sarek.array_read %a[%i, %i] : !sarek.vec<f32>
}
// CHECK: sarek.array_read on !sarek.vec<f32> (rank 1) needs 1 index, got 2

// -----

sarek.kernel @k(%a : !sarek.vec<f32, 3> "a", %i : i32 "i") {
  %p = sarek.elem_ref %a[%i, %i] : !sarek.vec<f32, 3>
}
// CHECK: sarek.elem_ref on !sarek.vec<f32, 3> (rank 3) needs 3 indices, got 2

// -----

sarek.kernel @k(%a : !sarek.vec<f32, 2> "a", %i : i32 "i", %f : f32 "f") {
  %x = sarek.array_read %a[%i, %f] : !sarek.vec<f32, 2>, i32, f32
}
// CHECK: operand 'indices' at positions 1 to 2 does not verify:
// CHECK-NEXT: f32 should be of base attribute integer_type

// -----

sarek.kernel @k(%a : !sarek.vec<f32, 2> "a") {
  %n = sarek.array_len %a : !sarek.vec<f32, 2>
}
// CHECK: sarek.array_len takes a rank-1 vector; !sarek.vec<f32, 2> has rank 2 (its extents are sarek.array_dim)

// -----

sarek.kernel @k(%a : !sarek.vec<f32, 2> "a") {
  %n = sarek.array_dim %a, 2 : !sarek.vec<f32, 2>
}
// CHECK: dimension 2 is out of range for !sarek.vec<f32, 2> (rank 2)

// -----

sarek.kernel @k(%a : !sarek.vec<f32, 5> "a") {
}
// CHECK: vector rank must be 1 to 4, got 5

// -----

sarek.kernel @k() {
  %c4 = sarek.constant 4 : i32
  %s = sarek.alloc_array "s"[%c4] : !sarek.array<f32, shared, 2>
}
// CHECK: sarek.alloc_array of !sarek.array<f32, shared, 2> (rank 2) needs 2 sizes, got 1

// -----

sarek.kernel @k(%n : i32 "n") {
  %c4 = sarek.constant 4 : i32
  %s = sarek.alloc_array "s"[%c4, %n] : !sarek.array<f32, local, 2>
}
// CHECK: an N-dimensional sarek.alloc_array needs constant extents

// -----

sarek.kernel @k() {
  %c4 = sarek.constant 4 : i32
  %c0 = sarek.constant 0 : i32
  %s = sarek.alloc_array "s"[%c4, %c0] : !sarek.array<f32, shared, 2>
}
// CHECK: sarek.alloc_array needs a positive size, got 0

// -----

sarek.kernel @k() {
  %c4 = sarek.constant 4 : i32
  %s = sarek.alloc_array "s"[%c4, %c4, %c4, %c4, %c4] : !sarek.array<f32, shared, 5>
}
// CHECK: array rank must be 1 to 4, got 5

// -----
// A constant array (sarek-constant-tables) lists one value per slot, of its element type; no other array has any.
sarek.kernel @k() {
  %c3 = sarek.constant 3 : i32
  %t = sarek.alloc_array "t"[%c3] : !sarek.array<f32, constant>
}
// CHECK: a constant sarek.alloc_array, and only one, lists its values (= [...])

// -----

sarek.kernel @k() {
  %c2 = sarek.constant 2 : i32
  %t = sarek.alloc_array "t"[%c2] = [1.0 : f32, 2.0 : f32] : !sarek.array<f32, local>
}
// CHECK: a constant sarek.alloc_array, and only one, lists its values (= [...])

// -----

sarek.kernel @k() {
  %c3 = sarek.constant 3 : i32
  %t = sarek.alloc_array "t"[%c3] = [1.0 : f32, 2.0 : f32] : !sarek.array<f32, constant>
}
// CHECK: a constant sarek.alloc_array of extents [3] needs one value per slot, got 2

// -----

sarek.kernel @k() {
  %c2 = sarek.constant 2 : i32
  %t = sarek.alloc_array "t"[%c2] = [1 : i32, 2 : i32] : !sarek.array<f32, constant>
}
// CHECK: constant array values must be f32 constants, got 1 : i32

// -----

sarek.kernel @k(%i : i32 "i") {
  %c2 = sarek.constant 2 : i32
  %t = sarek.alloc_array "t"[%c2] = [1 : i32, 2 : i32] : !sarek.array<i32, constant>
  %r = sarek.elem_ref %t[%i] : !sarek.array<i32, constant>
}
// CHECK: a constant array is read-only: it has no element places
