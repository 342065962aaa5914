// RUN: sarek-opt %s -p 'sarek-pipeline{target=metal}' -t metal | filecheck %s
// bf16 fragments on Metal are simdgroup_bfloat8x8 (MSL 3.1): the kernel stops at an #error before its first bf16
// fragment when compiled for an older MSL; a fill gives the bits to as_type<bfloat>.

builtin.module {
  sarek.kernel @k(%a : !sarek.vec<bf16> "a", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %f = sarek.constant 1.0 : f32
    %one = sarek.cast %f : f32 to bf16
    sarek.coopmat_decl "fa" a 8x8 : bf16
    sarek.coopmat_decl "fb" b 8x8 : bf16
    sarek.coopmat_decl "acc" acc 8x8 : f32
    sarek.coopmat_fill "fb", %one : bf16
    sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<bf16>
    sarek.coopmat_load "acc" from %c[%z] stride %n col_major : !sarek.vec<f32>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %n : !sarek.vec<f32>
  }
}
// CHECK:      kernel void k(
// CHECK-NEXT:   #if __METAL_VERSION__ < 310
// CHECK-NEXT:   #error "sarek: bf16 cooperative matrices on Metal need MSL 3.1 (simdgroup_bfloat8x8)"
// CHECK-NEXT:   #endif
// CHECK-NEXT:   simdgroup_bfloat8x8 sarek_frag_fa;
// CHECK-NEXT:   simdgroup_bfloat8x8 sarek_frag_fb;
// CHECK-NEXT:   simdgroup_float8x8 sarek_frag_acc;
// CHECK-NEXT:   sarek_frag_fb = make_filled_simdgroup_matrix<bfloat, 8, 8>(as_type<bfloat>((ushort)(
// CHECK-NEXT:   simdgroup_load(sarek_frag_fa, (device const bfloat*)(a + (0)), n);
// CHECK-NEXT:   simdgroup_load(sarek_frag_acc, (device const float*)(c + (0)), n, ulong2(0, 0), true);
// CHECK-NEXT:   simdgroup_multiply_accumulate(sarek_frag_acc, sarek_frag_fa, sarek_frag_fb, sarek_frag_acc);
// CHECK-NEXT:   simdgroup_store(sarek_frag_acc, (device float*)(c + (0)), n);
// CHECK-NOT:    #error
