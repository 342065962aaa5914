// RUN: sarek-opt %s -p 'sarek-expand-copy-async{target=opencl}' | filecheck %s --check-prefix=PLAIN
// RUN: sarek-opt %s -p 'sarek-expand-copy-async{target=interp}' | filecheck %s --check-prefix=PLAIN
// RUN: sarek-opt %s -p 'sarek-expand-copy-async{target=cuda}' | filecheck %s --check-prefix=HW
// RUN: sarek-opt %s -p 'sarek-expand-copy-async{target=ptx}' | filecheck %s --check-prefix=HW

// Without hardware copies (OpenCL, the interpreters) a copy is `count` element copies along the last
// dimension, in order, and the commit and the wait go. CUDA and PTX keep a copy of 4, 8 or 16 bytes and its
// commit and wait; a 32-byte copy is element copies there too.
sarek.kernel @k(%a : !sarek.vec<f32, 2> "a", %i : i32 "i") {
  %c4 = sarek.constant 4 : i32
  %c64 = sarek.constant 64 : i32
  %sa = sarek.alloc_array "sa"[%c4, %c64] : !sarek.array<f32, shared, 2>
  sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 2 : !sarek.array<f32, shared, 2>, !sarek.vec<f32, 2>
  sarek.copy_async_commit
  sarek.copy_async %sa[%i, %i], %a[%c4, %i] count 8 : !sarek.array<f32, shared, 2>, !sarek.vec<f32, 2>
  sarek.copy_async_wait 0
}
// PLAIN:      %[[X0:.*]] = sarek.array_read %a[%i, %i] : !sarek.vec<f32, 2>
// PLAIN-NEXT: %[[R0:.*]] = sarek.elem_ref %sa[%i, %c4] : !sarek.array<f32, shared, 2>
// PLAIN-NEXT: sarek.store %[[R0]], %[[X0]] : !sarek.ref<f32>
// PLAIN-NEXT: %[[ONE:.*]] = sarek.constant 1 : i32
// PLAIN-NEXT: %[[J:.*]] = sarek.binop add %i, %[[ONE]] : i32
// PLAIN-NEXT: %[[ONE2:.*]] = sarek.constant 1 : i32
// PLAIN-NEXT: %[[J2:.*]] = sarek.binop add %c4, %[[ONE2]] : i32
// PLAIN-NEXT: %[[X1:.*]] = sarek.array_read %a[%i, %[[J]]] : !sarek.vec<f32, 2>
// PLAIN-NEXT: %[[R1:.*]] = sarek.elem_ref %sa[%i, %[[J2]]] : !sarek.array<f32, shared, 2>
// PLAIN-NEXT: sarek.store %[[R1]], %[[X1]] : !sarek.ref<f32>
// PLAIN-NOT:  sarek.copy_async
// PLAIN-COUNT-8: sarek.store
// PLAIN-NOT:  sarek.copy_async

// HW:      sarek.copy_async %sa[%i, %c4], %a[%i, %i] count 2
// HW-NEXT: sarek.copy_async_commit
// HW-NOT:  sarek.copy_async %sa
// HW-COUNT-8: sarek.store
// HW:      sarek.copy_async_wait 0
