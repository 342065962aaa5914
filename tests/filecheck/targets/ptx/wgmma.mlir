// RUN: sarek-opt %s -t 'ptx{arch=sm_90a}' | filecheck %s
// RUN: sarek-opt %s -t ptx --verify-diagnostics 2>&1 | filecheck %s --check-prefix=SM90
// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --verify-diagnostics 2>&1 | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --verify-diagnostics 2>&1 | filecheck %s --check-prefix=GLSL
// Warpgroup fragments at .target sm_90a: an a/b load is a 64-bit matrix descriptor (start address >> 4 in bits
// 0-13, leading byte offset >> 4 in 16-29, stride byte offset >> 4 in 32-45) of the core-layout array: `a`
// (64x16 of a 64x16 array: rows of 32 bytes) K-major, LBO 128 and SBO 8 rows = 256 bytes, 0x1000080000 =
// (16 << 32) | (8 << 16); `b` (16x64 of a 16x64 array: rows of 128 bytes) MN-major, LBO 8 rows = 1024 bytes and
// SBO 128, 0x800400000 = (8 << 32) | (64 << 16). The generic stores of sarek-zero-shared are made visible to
// wgmma's async proxy after their barrier (fence.proxy.async); the mma opens its sequence (wgmma.fence), then
// wgmma.mma_async m64n64k16 (imm-trans-b 1) and commit_group; the wait goes before the store, whose rows
// are offset by 16 x (the warp's index in its group). At sm_90 (the default), and on targets without wgmma,
// the warpgroup fragment is refused at its declaration.

builtin.module {
  sarek.kernel @k(%C: !sarek.vec<f32> "C") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c64 = sarek.constant 64 : i32
    %c1k = sarek.constant 1024 : i32
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c1k] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16 loc("k.py":4:5)
    sarek.coopmat_decl "b" b 16x64 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.barrier
    sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
    sarek.coopmat_load "b" from %sb[%c0] stride %c64 core : !sarek.array<f16, shared>
    sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    sarek.coopmat_store "acc" to %C[%c0] stride %c64 : !sarek.vec<f32>
  }
}
// CHECK:      .target sm_90a
// CHECK:      bar.sync 0;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK:      cvt.u64.u32 %[[A64:ud[0-9]+]], %[[AADDR:u[0-9]+]];
// CHECK-NEXT: shr.u64 %[[ASH:ud[0-9]+]], %[[A64]], 4;
// CHECK-NEXT: and.b64 %[[AST:ud[0-9]+]], %[[ASH]], 16383;
// CHECK-NEXT: or.b64 %[[DA:ud[0-9]+]], %[[AST]], 68720001024;
// CHECK:      or.b64 %[[DB:ud[0-9]+]], %{{ud[0-9]+}}, 34363932672;
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK-NEXT: setp.eq.u64 %[[P:p[0-9]+]], %[[DA]], %[[DA]];
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, %[[DA]], %[[DB]], %[[P]], 1, 1, 0, 1;
// CHECK-NEXT: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 0;
// CHECK:      %tid.x
// CHECK:      shr.u32 %[[W:s[0-9]+]], %{{s[0-9]+}}, 5;
// CHECK-NEXT: and.b32 %[[WG:s[0-9]+]], %[[W]], 3;
// CHECK-NEXT: mad.lo.s32 %{{s[0-9]+}}, %[[WG]], 16, %{{s[0-9]+}};
// CHECK-COUNT-32: st.global.f32

// SM90: k.py:4:5: error: PTX: warpgroup fragments lower to wgmma, which ptxas assembles for `.target sm_90a` only (compute capability 9.0): compile with `sarek emit --arch sm_90a` / sarek-opt -t 'ptx{arch=sm_90a}' (a PTX device of compute capability 9.0 does)
// CUDA: k.py:4:5: error: CUDA: cooperative matrices: warpgroup fragments (scope="warpgroup") are not supported on this target: they lower to Hopper's warpgroup MMA (wgmma), which only PTX reaches (`.target sm_90a`); use warp fragments (the default scope) here
// GLSL: k.py:4:5: error: GLSL: cooperative matrices: warpgroup fragments (scope="warpgroup") are not supported on this target: they lower to Hopper's warpgroup MMA (wgmma), which only PTX reaches (`.target sm_90a`); use warp fragments (the default scope) here
