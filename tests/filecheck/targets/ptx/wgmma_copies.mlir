// RUN: sarek-opt %s -t 'ptx{arch=sm_90a}' | filecheck %s
// cp.async data needs no proxy fence before wgmma (as in CUTLASS's cp.async mainloops): the fence compiles to
// MEMBAR.ALL.CTA, which waits for every copy in flight, so a K loop that only copies has none; the generic stores
// of sarek-zero-shared get one, after their barrier, before the loop. The wgmma wait goes before the copy into
// the array it reads (sarek-wgmma-waits).

builtin.module {
  sarek.kernel @k(%A: !sarek.vec<f16, 2> "A", %C: !sarek.vec<f32> "C", %n: i32 "n") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c64 = sarek.constant 64 : i32
    %c1k = sarek.constant 1024 : i32
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c1k] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x64 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x64 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.for "k" %k = %c0 to %n step 1 : i32 {
      sarek.copy_async %sa[%c0], %A[%c0, %c0] count 8 : !sarek.array<f16, shared>, !sarek.vec<f16, 2>
      sarek.copy_async_commit
      sarek.copy_async_wait 0
      sarek.barrier
      sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
      sarek.coopmat_load "b" from %sb[%c0] stride %c64 core : !sarek.array<f16, shared>
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    }
    sarek.coopmat_store "acc" to %C[%c0] stride %c64 : !sarek.vec<f32>
  }
}
// CHECK:      bar.sync 0;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK:      $L_for
// CHECK-NOT:  fence.proxy
// CHECK:      wgmma.wait_group.sync.aligned 0;
// CHECK:      cp.async.cg.shared.global
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT:  fence.proxy
// CHECK:      wgmma.fence.sync.aligned;
// CHECK:      wgmma.mma_async.sync.aligned.m64n64k16
