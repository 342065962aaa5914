// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Asynchronous copies: a shared destination, a global source, one scalar element type, one index per
// dimension of each, a positive count; waits leave 0 to 7 groups in flight.

sarek.kernel @k(%a : !sarek.vec<f16> "a", %i : i32 "i") {
  %n = sarek.constant 64 : i32
  %l = sarek.alloc_array "l"[%n] : !sarek.array<f16, local>
  sarek.copy_async %l[%i], %a[%i] count 8 : !sarek.array<f16, local>, !sarek.vec<f16>
}
// CHECK: copy_async writes a shared array, not a local one

// -----

sarek.kernel @k(%i : i32 "i") {
  %n = sarek.constant 64 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f16, shared>
  %t = sarek.alloc_array "t"[%n] : !sarek.array<f16, shared>
  sarek.copy_async %s[%i], %t[%i] count 8 : !sarek.array<f16, shared>, !sarek.array<f16, shared>
}
// CHECK: copy_async reads a global buffer, not a shared array

// -----

sarek.kernel @k(%a : !sarek.vec<f32> "a", %i : i32 "i") {
  %n = sarek.constant 64 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f16, shared>
  sarek.copy_async %s[%i], %a[%i] count 8 : !sarek.array<f16, shared>, !sarek.vec<f32>
}
// CHECK: copy_async copies between buffers of one scalar element type, got f16 and f32

// -----

sarek.kernel @k(%a : !sarek.vec<f16, 2> "a", %i : i32 "i") {
  %n = sarek.constant 64 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f16, shared>
  sarek.copy_async %s[%i], %a[%i] count 8 : !sarek.array<f16, shared>, !sarek.vec<f16, 2>
}
// CHECK: copy_async needs 1 + 2 indices, got 2

// -----

sarek.kernel @k(%a : !sarek.vec<f16> "a", %i : i32 "i") {
  %n = sarek.constant 64 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f16, shared>
  sarek.copy_async %s[%i], %a[%i] count 0 : !sarek.array<f16, shared>, !sarek.vec<f16>
}
// CHECK: copy_async count must be positive, got 0

// -----

sarek.kernel @k() {
  sarek.copy_async_wait 8
}
// CHECK: copy_async_wait takes 0..7 pending groups, got 8
