// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=opencl}' | filecheck %s --check-prefix=EXP
// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=interp}' | filecheck %s --check-prefix=EXP
// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=wgsl}' | filecheck %s --check-prefix=EXP
// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=cuda}' | filecheck %s --check-prefix=NATIVE
// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=hip}' | filecheck %s --check-prefix=NATIVE
// RUN: sarek-opt %s -p 'sarek-expand-block-votes{target=ptx}' | filecheck %s --check-prefix=NATIVE

// Without a native block vote, barrier_count is a one-element shared counter: a barrier (the previous vote's
// readers are done), thread 0 (the linear thread index) zeroes it, a barrier, every thread adds its condition,
// a barrier, every thread reads the count; barrier_or compares it with 0, barrier_and with the block's size.
// CUDA, HIP and PTX keep the intrinsic for their lowerings.
sarek.kernel @k(%a : !sarek.vec<i32> "a", %i : i32 "i") {
  %z = sarek.constant 0 : i32
  %c = sarek.binop gt %i, %z : i32
  %n = sarek.intrinsic "barrier_count"(%c) : (i1) -> i32
  %o = sarek.intrinsic "barrier_or"(%c) : (i1) -> i1
  %l = sarek.intrinsic "barrier_and"(%c) : (i1) -> i1
  %r = sarek.elem_ref %a[%n] : !sarek.vec<i32>
  sarek.store %r, %n : !sarek.ref<i32>
}
// EXP:      %c = sarek.binop gt %i, %z : i32
// EXP-NEXT: %[[Z:[0-9a-z_]+]] = sarek.constant 0 : i32
// EXP-NEXT: %[[ONE:[0-9a-z_]+]] = sarek.constant 1 : i32
// EXP-NEXT: %[[CNT:[0-9a-z_]+]] = sarek.alloc_array "sarek_barrier_votes"[%[[ONE]]] : !sarek.array<i32, shared>
// EXP-NEXT: sarek.barrier
// EXP:      %[[FIRST:[0-9a-z_]+]] = sarek.binop eq %{{.*}}, %[[Z]] : i32
// EXP-NEXT: sarek.if %[[FIRST]] {
// EXP-NEXT:   %[[R:[0-9a-z_]+]] = sarek.elem_ref %[[CNT]][%[[Z]]] : !sarek.array<i32, shared>
// EXP-NEXT:   sarek.store %[[R]], %[[Z]] : !sarek.ref<i32>
// EXP-NEXT: }
// EXP-NEXT: sarek.barrier
// EXP-NEXT: %[[B:[0-9a-z_]+]] = sarek.cast %c : i1 to i32
// EXP-NEXT: %{{.*}} = sarek.intrinsic "atomic_add"(%[[CNT]], %[[Z]], %[[B]])
// EXP-NEXT: sarek.barrier
// EXP-NEXT: %[[N:[0-9a-z_]+]] = sarek.array_read %[[CNT]][%[[Z]]] : !sarek.array<i32, shared>
// EXP:      sarek.barrier
// EXP:      %[[N2:[0-9a-z_]+]] = sarek.array_read %{{.*}} : !sarek.array<i32, shared>
// EXP-NEXT: %{{.*}} = sarek.binop gt %[[N2]], %{{.*}} : i32
// EXP:      %[[N3:[0-9a-z_]+]] = sarek.array_read %{{.*}} : !sarek.array<i32, shared>
// EXP-NEXT: %[[S1:[0-9a-z_]+]] = sarek.binop mul %{{.*}}, %{{.*}} : i32
// EXP-NEXT: %[[S:[0-9a-z_]+]] = sarek.binop mul %{{.*}}, %[[S1]] : i32
// EXP-NEXT: %{{.*}} = sarek.binop eq %[[N3]], %[[S]] : i32
// EXP:      sarek.elem_ref %a[%[[N]]]
// EXP-NOT:  barrier_

// NATIVE:     %n = sarek.intrinsic "barrier_count"(%c) : (i1) -> i32
// NATIVE-NEXT: %o = sarek.intrinsic "barrier_or"(%c) : (i1) -> i1
// NATIVE-NEXT: %l = sarek.intrinsic "barrier_and"(%c) : (i1) -> i1
// NATIVE-NOT: sarek.barrier
