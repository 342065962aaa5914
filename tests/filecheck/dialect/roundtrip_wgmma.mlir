// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Warpgroup fragments, a core-layout load, the wait sarek-wgmma-waits places.
sarek.kernel @wg(%c : !sarek.vec<f32> "c") {
  %z = sarek.constant 0 : i32
  %s = sarek.constant 16 : i32
  %n = sarek.constant 1024 : i32
  %x = sarek.constant 0.0 : f32
  %sa = sarek.alloc_array "sa"[%n] : !sarek.array<f16, shared>
  sarek.coopmat_decl "a" a 64x16 warpgroup : f16
  sarek.coopmat_decl "b" b 16x64 warpgroup : f16
  sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
  sarek.coopmat_fill "acc", %x : f32
  sarek.coopmat_load "a" from %sa[%z] stride %s core : !sarek.array<f16, shared>
  sarek.coopmat_load "b" from %sa[%z] stride %s core : !sarek.array<f16, shared>
  sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
  sarek.coopmat_wait
  sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
}
// CHECK: sarek.coopmat_decl "a" a 64x16 warpgroup : f16
// CHECK: sarek.coopmat_load "a" from %sa[%z] stride %s core : !sarek.array<f16, shared>
// CHECK: sarek.coopmat_wait
