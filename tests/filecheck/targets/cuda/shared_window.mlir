// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s
// Shared arrays past the 48 KiB static limit (here 20480 + 48000 bytes): every one is a pointer into the
// dynamic window `extern __shared__ sarek_dynamic_shared[]` at its 128-byte aligned offset, and the marker names
// the kernel and the bytes the runtime launches it with (sarek.analysis.shared_window).

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
}
// CHECK:      extern "C" __global__ void big(
// CHECK-NEXT:   extern __shared__ __align__(128) unsigned char sarek_dynamic_shared[];  /* sarek-dynamic-shared big: 68480 bytes */
// CHECK-NEXT:   __half* sa = (__half*)(sarek_dynamic_shared + 0);
// CHECK-NEXT:   float* sv = (float*)(sarek_dynamic_shared + 20480);
// CHECK-NOT:    __shared__
// CHECK:        cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((unsigned)__cvta_generic_to_shared(&sa[((i * 40) + 4)]))
// CHECK:        v[i] = sv[i];
