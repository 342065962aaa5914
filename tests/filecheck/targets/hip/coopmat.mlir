// RUN: sarek-opt %s -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s
// Cooperative matrices on HIP: CDNA's MFMA (__builtin_amdgcn_mfma_f32_16x16x16f16, 64-lane wavefronts). A
// piece is 4 elements per lane, moved by the preamble's per-lane helpers; compiling for RDNA stops at #error.

builtin.module {
  sarek.kernel @hgemm(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 0.0 : f32
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x32 : f16
    sarek.coopmat_decl "acc" acc 16x32 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%n] stride %n col_major : !sarek.vec<f16>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %n : !sarek.vec<f32>
  }
}
// CHECK:      #error "sarek: cooperative matrices on HIP need CDNA's MFMA (gfx908, gfx90a, gfx94x); RDNA GPUs have none"
// CHECK:      __device__ __forceinline__ sarek_h4 sarek_mfma_load_a(const __half* p, int s, int col) {
// CHECK:      extern "C" __global__ void hgemm(
// CHECK-NEXT:   sarek_h4 sarek_frag_fa;
// CHECK-NEXT:   sarek_h4 sarek_frag_fb_0_0;
// CHECK-NEXT:   sarek_h4 sarek_frag_fb_0_1;
// CHECK-NEXT:   sarek_f4 sarek_frag_acc_0_0;
// CHECK-NEXT:   sarek_f4 sarek_frag_acc_0_1;
// CHECK-NEXT:   sarek_frag_acc_0_0 = sarek_f4(0.0f);
// CHECK-NEXT:   sarek_frag_acc_0_1 = sarek_f4(0.0f);
// CHECK-NEXT:   sarek_frag_fa = sarek_mfma_load_a((a + (0)), n, 0);
// CHECK-NEXT:   sarek_frag_fb_0_0 = sarek_mfma_load_b((a + (n)), n, 1);
// CHECK-NEXT:   sarek_frag_fb_0_1 = sarek_mfma_load_b((a + (n) + (n) * 16), n, 1);
// CHECK-NEXT:   sarek_frag_acc_0_0 = __builtin_amdgcn_mfma_f32_16x16x16f16(sarek_frag_fa, sarek_frag_fb_0_0, sarek_frag_acc_0_0, 0, 0, 0);
// CHECK-NEXT:   sarek_frag_acc_0_1 = __builtin_amdgcn_mfma_f32_16x16x16f16(sarek_frag_fa, sarek_frag_fb_0_1, sarek_frag_acc_0_1, 0, 0, 0);
// CHECK-NEXT:   sarek_mfma_store_acc((c + (0)), n, 0, sarek_frag_acc_0_0);
// CHECK-NEXT:   sarek_mfma_store_acc((c + (0) + 16), n, 0, sarek_frag_acc_0_1);
