# RUN: sarek ir %s:count | filecheck %s
# barrier_count(c) (CUDA's __syncthreads_count) on every target: a one-element shared counter, a barrier,
# thread 0 zeroes it, a barrier, every thread adds c, a barrier, every thread reads the count.

from sarek import Vec, i32, kernel
from sarek.gpu import barrier_count, global_thread_id


@kernel
def count(x: Vec[i32]):
    i = global_thread_id
    x[i] = barrier_count(x[i] > 0)

# CHECK:      %[[C:[0-9]+]] = sarek.binop gt %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK:      %[[Z:[0-9]+]] = sarek.constant 0 : i32
# CHECK-NEXT: %[[ONE:[0-9]+]] = sarek.constant 1 : i32
# CHECK-NEXT: %sarek_barrier_votes = sarek.alloc_array "sarek_barrier_votes"[%[[ONE]]] : !sarek.array<i32, shared>
# CHECK-NEXT: sarek.barrier
# CHECK:      sarek.if %{{[0-9]+}} {
# CHECK-NEXT:   %[[R:[0-9]+]] = sarek.elem_ref %sarek_barrier_votes[%[[Z]]] : !sarek.array<i32, shared>
# CHECK-NEXT:   sarek.store %[[R]], %[[Z]] : !sarek.ref<i32>
# CHECK-NEXT: }
# CHECK-NEXT: sarek.barrier
# CHECK-NEXT: %[[B:[0-9]+]] = sarek.cast %[[C]] : i1 to i32
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "atomic_add"(%sarek_barrier_votes, %[[Z]], %[[B]])
# CHECK-NEXT: sarek.barrier
# CHECK-NEXT: %{{[0-9]+}} = sarek.array_read %sarek_barrier_votes[%[[Z]]] : !sarek.array<i32, shared>
