// RUN: sarek-opt %s -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s
// Cooperative matrices on Metal: simdgroup_matrix 8x8 pieces. A 16x16 f16 fragment is 2x2 simdgroup_half8x8
// (f16 vectors hold the half's bits after sarek-widen-f16: the pointer is cast to half), a 16x16x16 product two
// k-steps per accumulator piece in k order; col_major is simdgroup_load's transpose argument (a piece's offset
// swaps rows and columns); threadgroup arrays are read through threadgroup pointers; an 8x8 f16 accumulator is
// one piece, stored back as half.

builtin.module {
  sarek.kernel @hgemm(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c", %h : !sarek.vec<f16> "h", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 0.0 : f32
    %m = sarek.constant 256 : i32
    %sh = sarek.alloc_array "sh"[%m] : !sarek.array<f16, shared>
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_decl "ha" a 8x8 : f16
    sarek.coopmat_decl "hb" b 8x8 : f16
    sarek.coopmat_decl "hc" acc 8x8 : f16
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %sh[%z] stride %n : !sarek.array<f16, shared>
    sarek.coopmat_load "fb" from %a[%n] stride %n col_major : !sarek.vec<f16>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %n : !sarek.vec<f32>
    sarek.coopmat_load "ha" from %h[%z] stride %n : !sarek.vec<f16>
    sarek.coopmat_load "hc" from %h[%n] stride %n : !sarek.vec<f16>
    sarek.coopmat_load "hb" from %h[%z] stride %n : !sarek.vec<f16>
    sarek.coopmat_muladd "hc" = "ha" * "hb" + "hc"
    sarek.coopmat_store "hc" to %h[%n] stride %n col_major : !sarek.vec<f16>
  }
}
// CHECK:      #include <metal_simdgroup_matrix>
// CHECK:      kernel void hgemm(device ushort* a {{.*}}, device float* c {{.*}}, device ushort* h
// CHECK-NEXT:   threadgroup ushort sh[256];
// CHECK:        simdgroup_half8x8 sarek_frag_fa_0_0;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_fa_0_1;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_fa_1_0;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_fa_1_1;
// CHECK:        simdgroup_float8x8 sarek_frag_acc_1_1;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_ha;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_hb;
// CHECK-NEXT:   simdgroup_half8x8 sarek_frag_hc;
// CHECK-NEXT:   sarek_frag_acc_0_0 = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
// CHECK:        sarek_frag_acc_1_1 = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fa_0_0, (threadgroup const half*)(sh + (0)), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fa_0_1, (threadgroup const half*)(sh + (0) + 8), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fa_1_0, (threadgroup const half*)(sh + (0) + (n) * 8), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fa_1_1, (threadgroup const half*)(sh + (0) + (n) * 8 + 8), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fb_0_0, (device const half*)(a + (n)), n, ulong2(0, 0), true);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fb_0_1, (device const half*)(a + (n) + (n) * 8), n, ulong2(0, 0), true);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fb_1_0, (device const half*)(a + (n) + 8), n, ulong2(0, 0), true);
// CHECK-NEXT:   simdgroup_load(sarek_frag_fb_1_1, (device const half*)(a + (n) + (n) * 8 + 8), n, ulong2(0, 0), true);
// CHECK-NEXT:   simdgroup_multiply_accumulate(sarek_frag_acc_0_0, sarek_frag_fa_0_0, sarek_frag_fb_0_0, sarek_frag_acc_0_0);
// CHECK-NEXT:   simdgroup_multiply_accumulate(sarek_frag_acc_0_0, sarek_frag_fa_0_1, sarek_frag_fb_1_0, sarek_frag_acc_0_0);
// CHECK-NEXT:   simdgroup_multiply_accumulate(sarek_frag_acc_0_1, sarek_frag_fa_0_0, sarek_frag_fb_0_1, sarek_frag_acc_0_1);
// CHECK:        simdgroup_multiply_accumulate(sarek_frag_acc_1_1, sarek_frag_fa_1_1, sarek_frag_fb_1_1, sarek_frag_acc_1_1);
// CHECK-NEXT:   simdgroup_store(sarek_frag_acc_0_0, (device float*)(c + (0)), n);
// CHECK-NEXT:   simdgroup_store(sarek_frag_acc_0_1, (device float*)(c + (0) + 8), n);
// CHECK-NEXT:   simdgroup_store(sarek_frag_acc_1_0, (device float*)(c + (0) + (n) * 8), n);
// CHECK-NEXT:   simdgroup_store(sarek_frag_acc_1_1, (device float*)(c + (0) + (n) * 8 + 8), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_ha, (device const half*)(h + (0)), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_hc, (device const half*)(h + (n)), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_hb, (device const half*)(h + (0)), n);
// CHECK-NEXT:   simdgroup_multiply_accumulate(sarek_frag_hc, sarek_frag_ha, sarek_frag_hb, sarek_frag_hc);
// CHECK-NEXT:   simdgroup_store(sarek_frag_hc, (device half*)(h + (n)), n, ulong2(0, 0), true);
