// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s
// Asynchronous copies on CUDA: inline PTX `cp.async` (.cg for 16 bytes, .ca for 4 and 8) from the element's
// generic address to its shared-window address, volatile with a "memory" clobber; the kernel's shared arrays
// are 32-byte aligned (as a coop kernel's).

builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16, 2> "a", %v : !sarek.vec<f32> "v", %i : i32 "i") {
    %c4 = sarek.constant 4 : i32
    %c40 = sarek.constant 40 : i32
    %c64 = sarek.constant 64 : i32
    %sa = sarek.alloc_array "sa"[%c4, %c40] : !sarek.array<f16, shared, 2>
    %sv = sarek.alloc_array "sv"[%c64] : !sarek.array<f32, shared>
    sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
    sarek.copy_async %sv[%i], %v[%i] count 1 : !sarek.array<f32, shared>, !sarek.vec<f32>
    sarek.copy_async_commit
    sarek.copy_async_wait 1
    sarek.barrier
    %x = sarek.array_read %sv[%i] : !sarek.array<f32, shared>
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
  }
}
// CHECK:      __shared__ __align__(32) __half sa[160];
// CHECK-NEXT: __shared__ __align__(32) float sv[64];
// CHECK:      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((unsigned)__cvta_generic_to_shared(&sa[((i * 40) + 4)])), "l"(&a[(((long long)i * sarek_a_dim1) + i)]) : "memory");
// CHECK-NEXT: asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((unsigned)__cvta_generic_to_shared(&sv[i])), "l"(&v[i]) : "memory");
// CHECK-NEXT: asm volatile("cp.async.commit_group;" ::: "memory");
// CHECK-NEXT: asm volatile("cp.async.wait_group 1;" ::: "memory");
// CHECK-NEXT: __syncthreads();
