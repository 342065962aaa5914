// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// Cooperative matrices on ptx: mma.sync.aligned.m16n8k16 with sarek's per-lane fragment layout. A 16x16
// accumulator is two n8 pieces (two mma.sync); each lane finds its elements from g = %laneid >> 2 and
// 2t = (%laneid & 3) << 1; halves are loaded one by one and packed in pairs.

builtin.module {
  sarek.kernel @hmma(%a : !sarek.vec<f16> "a", %c : !sarek.vec<f32> "c", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 0.0 : f32
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %a[%z] stride %n : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %a[%n] stride %n col_major : !sarek.vec<f16>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %n : !sarek.vec<f32>
  }
}
// CHECK:      mov.u32 %[[L:s[0-9]+]], %laneid;
// CHECK-NEXT: shr.s32 %[[G:s[0-9]+]], %[[L]], 2;
// CHECK-NEXT: and.b32 %[[T:s[0-9]+]], %[[L]], 3;
// CHECK-NEXT: shl.b32 %{{s[0-9]+}}, %[[T]], 1;
// CHECK:      ld.global.nc.b16 %[[H0:rs[0-9]+]], [%{{ud[0-9]+}}];
// CHECK:      ld.global.nc.b16 %[[H1:rs[0-9]+]], [%{{ud[0-9]+}}];
// CHECK-NEXT: mov.b32 %{{r[0-9]+}}, {%[[H0]], %[[H1]]};
// CHECK:      mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {[[D0:%f[0-9]+, %f[0-9]+, %f[0-9]+, %f[0-9]+]]}, {[[A:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, {%r{{[0-9]+}}, %r{{[0-9]+}}}, {[[D0]]};
// CHECK-NEXT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {[[D1:%f[0-9]+, %f[0-9]+, %f[0-9]+, %f[0-9]+]]}, {[[A]]}, {%r{{[0-9]+}}, %r{{[0-9]+}}}, {[[D1]]};
// CHECK:      st.global.f32 [%{{ud[0-9]+}}], %f{{[0-9]+}};
