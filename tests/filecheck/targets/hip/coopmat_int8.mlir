// RUN: sarek-opt %s -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s
// 8-bit cooperative matrices on HIP (CDNA): a 16x16 byte piece is 4 bytes per lane packed in an int, an i32
// accumulator piece a sarek_i4; the portable 16x16x32 is one sarek_mfma_u8/i8 per pair of k pieces (two
// v_mfma_i32_16x16x16i8 on gfx908/gfx90a, one v_mfma_i32_16x16x32_i8 on gfx94x; u8 as four signed products).

builtin.module {
  sarek.kernel @q(%a : !sarek.vec<ui8> "a", %s8 : !sarek.vec<i8> "s", %c : !sarek.vec<i32> "c", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 0 : i32
    sarek.coopmat_decl "qa" a 16x32 : ui8
    sarek.coopmat_decl "qb" b 32x16 : ui8
    sarek.coopmat_decl "sa" a 16x64 : i8
    sarek.coopmat_decl "sb" b 64x16 : i8
    sarek.coopmat_decl "acc" acc 16x16 : i32
    sarek.coopmat_fill "acc", %x : i32
    sarek.coopmat_load "qa" from %a[%z] stride %n : !sarek.vec<ui8>
    sarek.coopmat_load "qb" from %a[%n] stride %n col_major : !sarek.vec<ui8>
    sarek.coopmat_muladd "acc" = "qa" * "qb" + "acc"
    sarek.coopmat_load "sa" from %s8[%z] stride %n : !sarek.vec<i8>
    sarek.coopmat_load "sb" from %s8[%z] stride %n : !sarek.vec<i8>
    sarek.coopmat_muladd "acc" = "sa" * "sb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %n : !sarek.vec<i32>
  }
}
// CHECK:      __device__ __forceinline__ sarek_i4 sarek_mfma_i8(int a0, int a1, int b0, int b1, sarek_i4 c) {
// CHECK-NEXT: #if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
// CHECK-NEXT:   return __builtin_amdgcn_mfma_i32_16x16x32_i8(
// CHECK:      #else
// CHECK-NEXT:   return __builtin_amdgcn_mfma_i32_16x16x16i8(a1, b1, __builtin_amdgcn_mfma_i32_16x16x16i8(a0, b0, c, 0, 0, 0), 0, 0, 0);
// CHECK:      __device__ __forceinline__ sarek_i4 sarek_mfma_u8(int a0, int a1, int b0, int b1, sarek_i4 c) {
// CHECK:        return (sarek_i4)(lo + (mid << 7) + (hi << 14));
// CHECK:      extern "C" __global__ void q(
// CHECK-NEXT:   int sarek_frag_qa_0_0;
// CHECK-NEXT:   int sarek_frag_qa_0_1;
// CHECK-NEXT:   int sarek_frag_qb_0_0;
// CHECK-NEXT:   int sarek_frag_qb_1_0;
// CHECK:        int sarek_frag_sa_0_3;
// CHECK:        int sarek_frag_sb_3_0;
// CHECK-NEXT:   sarek_i4 sarek_frag_acc;
// CHECK-NEXT:   sarek_frag_acc = sarek_i4(0);
// CHECK-NEXT:   sarek_frag_qa_0_0 = sarek_mfma_load_a((const unsigned char*)(a + (0)), n, 0);
// CHECK-NEXT:   sarek_frag_qa_0_1 = sarek_mfma_load_a((const unsigned char*)(a + (0) + 16), n, 0);
// CHECK-NEXT:   sarek_frag_qb_0_0 = sarek_mfma_load_b((const unsigned char*)(a + (n)), n, 1);
// CHECK-NEXT:   sarek_frag_qb_1_0 = sarek_mfma_load_b((const unsigned char*)(a + (n) + 16), n, 1);
// CHECK-NEXT:   sarek_frag_acc = sarek_mfma_u8(sarek_frag_qa_0_0, sarek_frag_qa_0_1, sarek_frag_qb_0_0, sarek_frag_qb_1_0, sarek_frag_acc);
// CHECK:        sarek_frag_acc = sarek_mfma_i8(sarek_frag_sa_0_0, sarek_frag_sa_0_1, sarek_frag_sb_0_0, sarek_frag_sb_1_0, sarek_frag_acc);
// CHECK-NEXT:   sarek_frag_acc = sarek_mfma_i8(sarek_frag_sa_0_2, sarek_frag_sa_0_3, sarek_frag_sb_2_0, sarek_frag_sb_3_0, sarek_frag_acc);
// CHECK-NEXT:   sarek_mfma_store_acc((c + (0)), n, 0, sarek_frag_acc);
