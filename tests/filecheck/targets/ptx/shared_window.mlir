// RUN: sarek-opt %s -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// Shared arrays past the 48 KiB static limit (here 20480 + 48000 bytes): one module-level
// `.extern .shared sarek_dynamic_shared[]` (declared once for every kernel using it), each array's base its
// 128-byte aligned offset in it, and per kernel a marker naming it and the bytes the runtime launches it with
// (sarek.analysis.shared_window).

builtin.module {
  sarek.kernel @big(%a : !sarek.vec<f16, 2> "a", %v : !sarek.vec<f32> "v", %i : i32 "i") {
    %c4 = sarek.constant 4 : i32
    %c40 = sarek.constant 40 : i32
    %c256 = sarek.constant 256 : i32
    %c12000 = sarek.constant 12000 : i32
    %sa = sarek.alloc_array "sa"[%c256, %c40] : !sarek.array<f16, shared, 2>
    %sv = sarek.alloc_array "sv"[%c12000] : !sarek.array<f32, shared>
    sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
    sarek.copy_async_commit
    sarek.copy_async_wait 0
    sarek.barrier
    %x = sarek.array_read %sv[%i] : !sarek.array<f32, shared>
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
  }
  sarek.kernel @big2(%v : !sarek.vec<f32> "v", %i : i32 "i") {
    %c12800 = sarek.constant 12800 : i32
    %sw = sarek.alloc_array "sw"[%c12800] : !sarek.array<f32, shared>
    %x = sarek.array_read %sw[%i] : !sarek.array<f32, shared>
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
  }
}
// CHECK:      .extern .shared .align 128 .b8 sarek_dynamic_shared[];
// CHECK-NEXT: // sarek-dynamic-shared big: 68480 bytes
// CHECK:      .entry big(
// CHECK-NOT:  .shared .align
// CHECK:      mov.u32 [[SA:%u[0-9]+]], sarek_dynamic_shared;
// CHECK-NEXT: mov.u32 [[W:%u[0-9]+]], sarek_dynamic_shared;
// CHECK-NEXT: add.u32 [[SV:%u[0-9]+]], [[W]], 20480;
// CHECK:      cp.async.cg.shared.global
// CHECK-NOT:  .extern
// CHECK:      // sarek-dynamic-shared big2: 51200 bytes
// CHECK:      .entry big2(
// CHECK:      mov.u32 {{%u[0-9]+}}, sarek_dynamic_shared;
