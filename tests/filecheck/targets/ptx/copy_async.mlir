// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// Asynchronous copies on PTX: a 16-byte copy is `cp.async.cg` (L2 only), a 4- or 8-byte one `cp.async.ca`,
// the shared address 32-bit and the global one 64-bit; commit and wait are the group instructions. The
// kernel's shared arrays are 16-byte aligned (cp.async's 16-byte destinations).

builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16, 2> "a", %v : !sarek.vec<f32> "v", %i : i32 "i") {
    %c4 = sarek.constant 4 : i32
    %c40 = sarek.constant 40 : i32
    %c64 = sarek.constant 64 : i32
    %sa = sarek.alloc_array "sa"[%c4, %c40] : !sarek.array<f16, shared, 2>
    %sv = sarek.alloc_array "sv"[%c64] : !sarek.array<f32, shared>
    sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
    sarek.copy_async %sv[%i], %v[%i] count 2 : !sarek.array<f32, shared>, !sarek.vec<f32>
    sarek.copy_async_commit
    sarek.copy_async_wait 1
    sarek.barrier
    %x = sarek.array_read %sv[%i] : !sarek.array<f32, shared>
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
  }
}
// CHECK:      .shared .align 16 .b8 k_sa_1[320];
// CHECK-NEXT: .shared .align 16 .b8 k_sv_2[256];
// CHECK:      cp.async.cg.shared.global [%u{{[0-9]+}}], [%ud{{[0-9]+}}], 16;
// CHECK:      cp.async.ca.shared.global [%u{{[0-9]+}}], [%ud{{[0-9]+}}], 8;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
