// RUN: sarek-opt %s -p 'sarek-wgmma-waits' --split-input-file | filecheck %s
// A warpgroup mma (wgmma) runs asynchronously: sarek-wgmma-waits puts a sarek.coopmat_wait right before the
// first op that needs it done (a barrier, a write into a shared array, a fill or store of the accumulator, the
// end of the kernel), lazily: an mma may be pending at a loop's head (from the previous iteration), so the wait
// lands before the next iteration's barrier and a K step's mmas overlap what runs before it. The first mma of a
// sequence is marked sarek.fence (wgmma.fence first); chained mmas are not. Generic stores into shared memory
// are made visible to wgmma's async proxy at the next barrier or mma (sarek.proxy_fence): the loop's store is
// (conservatively) pending at its head, so its barrier is marked, and so is the mma after the store.

builtin.module {
  sarek.kernel @loop(%C: !sarek.vec<f32> "C", %n: i32 "n") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c8 = sarek.constant 8 : i32
    %c1k = sarek.constant 1024 : i32
    %c128 = sarek.constant 128 : i32
    %h = sarek.constant 1.0 : f16
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c128] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x8 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x8 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.for "k" %k = %c0 to %n step 1 : i32 {
      sarek.barrier
      %p = sarek.elem_ref %sb[%k] : !sarek.array<f16, shared>
      sarek.store %p, %h : !sarek.ref<f16>
      sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
      sarek.coopmat_load "b" from %sb[%c0] stride %c8 core : !sarek.array<f16, shared>
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    }
    sarek.coopmat_store "acc" to %C[%c0] stride %c8 : !sarek.vec<f32>
  }
}
// CHECK-LABEL: sarek.kernel @loop
// CHECK:        sarek.coopmat_fill "acc", %z : f32
// CHECK-NEXT:   sarek.for "k"
// CHECK-NEXT:     sarek.coopmat_wait
// CHECK-NEXT:     sarek.barrier attributes {sarek.proxy_fence}
// CHECK-NEXT:     %p = sarek.elem_ref
// CHECK-NEXT:     sarek.store %p, %h
// CHECK-NEXT:     sarek.coopmat_load "a"
// CHECK-NEXT:     sarek.coopmat_load "b"
// CHECK-NEXT:     sarek.coopmat_muladd "acc" = "a" * "b" + "acc" attributes {sarek.fence, sarek.proxy_fence}
// CHECK-NEXT:     sarek.coopmat_muladd "acc" = "a" * "b" + "acc"{{$}}
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.coopmat_wait
// CHECK-NEXT:   sarek.coopmat_store "acc"

// -----

// An mma in one arm of an if: pending after the if, waited before the fill; an mma last in the kernel is waited
// at its end.
builtin.module {
  sarek.kernel @arms(%c: i1 "c") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c8 = sarek.constant 8 : i32
    %c1k = sarek.constant 1024 : i32
    %c128 = sarek.constant 128 : i32
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c128] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x8 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x8 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.if %c {
      sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
      sarek.coopmat_load "b" from %sb[%c0] stride %c8 core : !sarek.array<f16, shared>
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    }
    sarek.coopmat_fill "acc", %z : f32
    sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
    sarek.coopmat_load "b" from %sb[%c0] stride %c8 core : !sarek.array<f16, shared>
    sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
  }
}
// CHECK-LABEL: sarek.kernel @arms
// CHECK:          sarek.coopmat_muladd "acc" = "a" * "b" + "acc" attributes {sarek.fence}
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.coopmat_wait
// CHECK-NEXT:   sarek.coopmat_fill "acc"
// CHECK:        sarek.coopmat_muladd "acc" = "a" * "b" + "acc" attributes {sarek.fence}
// CHECK-NEXT:   sarek.coopmat_wait
// CHECK-NEXT: }

// -----

// Warp fragments (mma.sync, synchronous) are left alone.
builtin.module {
  sarek.kernel @warp(%v : !sarek.vec<f16> "v", %c : !sarek.vec<f32> "c") {
    %i = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    sarek.coopmat_decl "fa" a 16x16 : f16
    sarek.coopmat_decl "fb" b 16x16 : f16
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_load "fa" from %v[%i] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fb" from %v[%i] stride %s : !sarek.vec<f16>
    sarek.coopmat_load "fc" from %c[%i] stride %s : !sarek.vec<f32>
    sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc"
    sarek.coopmat_store "fc" to %c[%i] stride %s : !sarek.vec<f32>
  }
}
// CHECK-LABEL: sarek.kernel @warp
// CHECK-NOT:    sarek.coopmat_wait
// CHECK-NOT:    sarek.fence
// CHECK:        sarek.coopmat_store "fc"

// -----

// A write into an operand array of a pending mma waits; a write into another shared array does not (a K step's
// mmas overlap copies into other stages' arrays).
builtin.module {
  sarek.kernel @arrays(%A: !sarek.vec<f16> "A") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c8 = sarek.constant 8 : i32
    %c1k = sarek.constant 1024 : i32
    %c128 = sarek.constant 128 : i32
    %h = sarek.constant 1.0 : f16
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c128] : !sarek.array<f16, shared>
    %sn = sarek.alloc_array "sn"[%c1k] : !sarek.array<f16, shared>
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x8 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x8 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
    sarek.coopmat_load "b" from %sb[%c0] stride %c8 core : !sarek.array<f16, shared>
    sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    sarek.copy_async %sn[%c0], %A[%c0] count 8 : !sarek.array<f16, shared>, !sarek.vec<f16>
    %p = sarek.elem_ref %sa[%c0] : !sarek.array<f16, shared>
    sarek.store %p, %h : !sarek.ref<f16>
  }
}
// CHECK-LABEL: sarek.kernel @arrays
// CHECK:        sarek.coopmat_muladd "acc" = "a" * "b" + "acc" attributes {sarek.fence}
// CHECK-NEXT:   sarek.copy_async %sn
// CHECK-NEXT:   %p = sarek.elem_ref %sa
// CHECK-NEXT:   sarek.coopmat_wait
// CHECK-NEXT:   sarek.store %p, %h

// -----

// A K loop that only copies (copy_async) has no proxy fence: cp.async data needs none, and the fence would wait
// for the copies in flight. The generic stores before the loop are fenced once, at the barrier after them.
builtin.module {
  sarek.kernel @copies(%A: !sarek.vec<f16> "A", %n: i32 "n") {
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %c8 = sarek.constant 8 : i32
    %c1k = sarek.constant 1024 : i32
    %c128 = sarek.constant 128 : i32
    %h = sarek.constant 0.0 : f16
    %z = sarek.constant 0.0 : f32
    %sa = sarek.alloc_array "sa"[%c1k] : !sarek.array<f16, shared>
    %sb = sarek.alloc_array "sb"[%c128] : !sarek.array<f16, shared>
    %p = sarek.elem_ref %sa[%c0] : !sarek.array<f16, shared>
    sarek.store %p, %h : !sarek.ref<f16>
    sarek.barrier
    sarek.coopmat_decl "a" a 64x16 warpgroup : f16
    sarek.coopmat_decl "b" b 16x8 warpgroup : f16
    sarek.coopmat_decl "acc" acc 64x8 warpgroup : f32
    sarek.coopmat_fill "acc", %z : f32
    sarek.for "k" %k = %c0 to %n step 1 : i32 {
      sarek.copy_async_wait 0
      sarek.barrier
      sarek.copy_async %sa[%c0], %A[%k] count 8 : !sarek.array<f16, shared>, !sarek.vec<f16>
      sarek.copy_async_commit
      sarek.coopmat_load "a" from %sa[%c0] stride %c16 core : !sarek.array<f16, shared>
      sarek.coopmat_load "b" from %sb[%c0] stride %c8 core : !sarek.array<f16, shared>
      sarek.coopmat_muladd "acc" = "a" * "b" + "acc"
    }
  }
}
// CHECK-LABEL: sarek.kernel @copies
// CHECK:        sarek.store %p, %h
// CHECK-NEXT:   sarek.barrier attributes {sarek.proxy_fence}
// CHECK:        sarek.for "k"
// CHECK-NEXT:     sarek.copy_async_wait 0
// CHECK-NEXT:     sarek.coopmat_wait
// CHECK-NEXT:     sarek.barrier{{$}}
// CHECK:          sarek.coopmat_muladd "acc" = "a" * "b" + "acc" attributes {sarek.fence}{{$}}
