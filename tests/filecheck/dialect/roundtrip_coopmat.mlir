// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Cooperative matrices: fragment declarations (a, b, acc), loads, multiply-add, stores.
sarek.kernel @wmma(%a : !sarek.vec<f16> "a", %b : !sarek.vec<f16> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  sarek.coopmat_decl "fa" a 16x8 : f16
  sarek.coopmat_decl "fb" b 8x32 : f16
  sarek.coopmat_decl "fc" acc 16x32 : f32
  sarek.coopmat_decl "fd" acc 16x32 : f32
  sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<f16>
  sarek.coopmat_load "fb" from %b[%z] stride %n : !sarek.vec<f16>
  sarek.coopmat_load "fc" from %c[%z] stride %n : !sarek.vec<f32>
  sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"
  sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
  sarek.coopmat_store "fd" to %c[%z] stride %n : !sarek.vec<f32>
}
// CHECK:      sarek.kernel @wmma(%a: !sarek.vec<f16> "a", %b: !sarek.vec<f16> "b", %c: !sarek.vec<f32> "c", %n: i32 "n") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   sarek.coopmat_decl "fa" a 16x8 : f16
// CHECK-NEXT:   sarek.coopmat_decl "fb" b 8x32 : f16
// CHECK-NEXT:   sarek.coopmat_decl "fc" acc 16x32 : f32
// CHECK-NEXT:   sarek.coopmat_decl "fd" acc 16x32 : f32
// CHECK-NEXT:   sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<f16>
// CHECK-NEXT:   sarek.coopmat_load "fb" from %b[%z] stride %n : !sarek.vec<f16>
// CHECK-NEXT:   sarek.coopmat_load "fc" from %c[%z] stride %n : !sarek.vec<f32>
// CHECK-NEXT:   sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"
// CHECK-NEXT:   sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
// CHECK-NEXT:   sarek.coopmat_store "fd" to %c[%z] stride %n : !sarek.vec<f32>
// CHECK-NEXT: }

// -----

// ui8 and integer fragments; loads and stores through shared arrays; fragments declared in a nested region.
sarek.kernel @int8(%a : !sarek.vec<ui8> "a", %c : !sarek.vec<i32> "c", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  %c256 = sarek.constant 256 : i32
  %s = sarek.alloc_array "s"[%c256] : !sarek.array<i32, shared>
  sarek.coopmat_decl "fa" a 16x16 : ui8
  sarek.coopmat_decl "fb" b 16x16 : ui8
  sarek.block {
    sarek.coopmat_decl "fc" acc 16x16 : i32
    sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<ui8>
    sarek.coopmat_load "fb" from %a[%n] stride %n : !sarek.vec<ui8>
    sarek.coopmat_load "fc" from %s[%z] stride %n : !sarek.array<i32, shared>
    sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
    sarek.coopmat_store "fc" to %s[%z] stride %n : !sarek.array<i32, shared>
    sarek.coopmat_store "fc" to %c[%z] stride %n : !sarek.vec<i32>
  }
}
// CHECK:      sarek.kernel @int8(%a: !sarek.vec<ui8> "a", %c: !sarek.vec<i32> "c", %n: i32 "n") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   %c256 = sarek.constant 256 : i32
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%c256] : !sarek.array<i32, shared>
// CHECK-NEXT:   sarek.coopmat_decl "fa" a 16x16 : ui8
// CHECK-NEXT:   sarek.coopmat_decl "fb" b 16x16 : ui8
// CHECK-NEXT:   sarek.block {
// CHECK-NEXT:     sarek.coopmat_decl "fc" acc 16x16 : i32
// CHECK-NEXT:     sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<ui8>
// CHECK-NEXT:     sarek.coopmat_load "fb" from %a[%n] stride %n : !sarek.vec<ui8>
// CHECK-NEXT:     sarek.coopmat_load "fc" from %s[%z] stride %n : !sarek.array<i32, shared>
// CHECK-NEXT:     sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
// CHECK-NEXT:     sarek.coopmat_store "fc" to %s[%z] stride %n : !sarek.array<i32, shared>
// CHECK-NEXT:     sarek.coopmat_store "fc" to %c[%z] stride %n : !sarek.vec<i32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Fills, and column-major loads and stores.
sarek.kernel @fill(%b : !sarek.vec<f16> "b", %c : !sarek.vec<f32> "c", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  %x = sarek.constant 1.5 : f32
  sarek.coopmat_decl "fb" b 16x16 : f16
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_fill "fc", %x : f32
  sarek.coopmat_load "fb" from %b[%z] stride %n col_major : !sarek.vec<f16>
  sarek.coopmat_store "fc" to %c[%z] stride %n col_major : !sarek.vec<f32>
}
// CHECK:      sarek.kernel @fill(%b: !sarek.vec<f16> "b", %c: !sarek.vec<f32> "c", %n: i32 "n") {
// CHECK:        sarek.coopmat_fill "fc", %x : f32
// CHECK-NEXT:   sarek.coopmat_load "fb" from %b[%z] stride %n col_major : !sarek.vec<f16>
// CHECK-NEXT:   sarek.coopmat_store "fc" to %c[%z] stride %n col_major : !sarek.vec<f32>
// CHECK-NEXT: }
