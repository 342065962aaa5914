// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// 8-bit cooperative matrices on ptx: mma.sync.aligned.m16n8k32 (u8 -> .u8, i8 -> .s8) into s32 accumulators. A
// lane holds four bytes per register (loaded one by one, packed with mov.b32 {b0, b1, b2, b3}): a register k
// at row g + 8 (k & 1), columns 4t + 16 (k >> 1) + {0..3}, with 4t = (%laneid & 3) << 2; b register k at rows
// 4t + 16k + {0..3}, column g; a 16x16 accumulator is two n8 pieces of four s32.

builtin.module {
  sarek.kernel @imma(%q : !sarek.vec<i8> "q", %d : !sarek.vec<i32> "d") {
    %z = sarek.constant 0 : i32
    %k = sarek.constant 32 : i32
    %n = sarek.constant 16 : i32
    %x = sarek.constant 0 : i32
    sarek.coopmat_decl "qa" a 16x32 : i8
    sarek.coopmat_decl "qb" b 32x16 : i8
    sarek.coopmat_decl "qc" acc 16x16 : i32
    sarek.coopmat_fill "qc", %x : i32
    sarek.coopmat_load "qa" from %q[%z] stride %k : !sarek.vec<i8>
    sarek.coopmat_load "qb" from %q[%z] stride %n : !sarek.vec<i8>
    sarek.coopmat_muladd "qc" = "qa" * "qb" + "qc"
    sarek.coopmat_store "qc" to %d[%z] stride %n : !sarek.vec<i32>
  }
}
// CHECK:      .reg .b8 %rb<33>;
// CHECK:      mov.s32 [[C0:%s[0-9]+]], 0;
// CHECK:      shl.b32 {{%s[0-9]+}}, {{%s[0-9]+}}, 2;
// CHECK:      ld.global.nc.b8 %rb1,
// CHECK:      mov.b32 %r1, {%rb1, %rb2, %rb3, %rb4};
// CHECK:      mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {[[D0:%s[0-9]+]], {{%s[0-9]+}}, {{%s[0-9]+}}, {{%s[0-9]+}}}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {[[D0]],
// CHECK-NEXT: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {{.*}}, {%r1, %r2, %r3, %r4}, {%r7, %r8},
// CHECK:      st.global.s32 [{{%ud[0-9]+}}], [[D0]];
