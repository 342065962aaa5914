// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// An a/b fragment loaded from shared memory takes ldmatrix when its first element and its stride are multiples
// of 8 halves (a warp-uniform test; else the per-element path): x4 per 16x16 `a` piece and per pair of 16x8 `b`
// pieces side by side, `.trans` for a row-major b and a column-major a. Lane l addresses row l & 7 of matrix
// l >> 3. The kernel's shared arrays are 16-byte aligned.

builtin.module {
  sarek.kernel @k(%c : !sarek.vec<f32> "c", %o : i32 "o") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %n = sarek.constant 512 : i32
    %x = sarek.constant 0.0 : f32
    %sh = sarek.alloc_array "sh"[%n] : !sarek.array<f16, shared>
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "fbt" b 16x16 : f16
    sarek.coopmat_decl "acc" acc 16x16 : f32
    sarek.coopmat_fill "acc", %x : f32
    sarek.coopmat_load "fa" from %sh[%o] stride %s : !sarek.array<f16, shared>
    sarek.coopmat_load "fb" from %sh[%z] stride %s : !sarek.array<f16, shared>
    sarek.coopmat_load "fbt" from %sh[%z] stride %s col_major : !sarek.array<f16, shared>
    sarek.coopmat_muladd "acc" = "fa" * "fb" + "acc"
    sarek.coopmat_muladd "acc" = "fa" * "fbt" + "acc"
    sarek.coopmat_store "acc" to %c[%z] stride %s : !sarek.vec<f32>
  }
}
// CHECK:      .shared .align 16 .b8 k_sh_1[1024];
// CHECK:      or.b32 [[OR:%s[0-9]+]], {{%s[0-9]+}}, 16;
// CHECK-NEXT: and.b32 [[LOW:%s[0-9]+]], [[OR]], 7;
// CHECK-NEXT: setp.ne.s32 [[P:%p[0-9]+]], [[LOW]], 0;
// CHECK-NEXT: @[[P]] bra [[SLOW:\$L_coop_elems_[0-9]+]];
// CHECK:      ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [{{%u[0-9]+}}];
// CHECK-NEXT: bra [[DONE:\$L_coop_loaded_[0-9]+]];
// CHECK-NEXT: [[SLOW]]:
// CHECK:      ld.shared.b16
// CHECK:      [[DONE]]:
// CHECK:      ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r5, %r6, %r7, %r8}, [{{%u[0-9]+}}];
// CHECK:      ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r9, %r10, %r11, %r12}, [{{%u[0-9]+}}];
// CHECK:      mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {{.*}};
// CHECK-NEXT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}, {%r1, %r2, %r3, %r4}, {%r7, %r8}, {{.*}};
// CHECK-NEXT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}, {%r1, %r2, %r3, %r4}, {%r9, %r10}, {{.*}};
// CHECK-NEXT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}, {%r1, %r2, %r3, %r4}, {%r11, %r12}, {{.*}};
