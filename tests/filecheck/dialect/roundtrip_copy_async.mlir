// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Asynchronous copies: a copy into a 2-D shared array from a 2-D vector, one from a 1-D vector, the group
// commit and the wait.
sarek.kernel @k(%a : !sarek.vec<f16, 2> "a", %v : !sarek.vec<f32> "v", %i : i32 "i") {
  %c4 = sarek.constant 4 : i32
  %c40 = sarek.constant 40 : i32
  %c64 = sarek.constant 64 : i32
  %sa = sarek.alloc_array "sa"[%c4, %c40] : !sarek.array<f16, shared, 2>
  %sv = sarek.alloc_array "sv"[%c64] : !sarek.array<f32, shared>
  sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
  sarek.copy_async %sv[%i], %v[%i] count 2 : !sarek.array<f32, shared>, !sarek.vec<f32>
  sarek.copy_async_commit
  sarek.copy_async_wait 1
  sarek.copy_async_wait 0
}
// CHECK:      sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
// CHECK-NEXT: sarek.copy_async %sv[%i], %v[%i] count 2 : !sarek.array<f32, shared>, !sarek.vec<f32>
// CHECK-NEXT: sarek.copy_async_commit
// CHECK-NEXT: sarek.copy_async_wait 1
// CHECK-NEXT: sarek.copy_async_wait 0
// CHECK-NEXT: }
