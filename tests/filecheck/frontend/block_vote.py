# RUN: sarek ir %s:count | filecheck %s
# barrier_count(c) (CUDA's __syncthreads_count) is one intrinsic, a block barrier: CUDA, HIP and PTX lower it
# natively, sarek-expand-block-votes turns it into a shared counter elsewhere (tests/filecheck/passes).

from sarek import Vec, i32, kernel
from sarek.gpu import barrier_and, barrier_count, global_thread_id


@kernel
def count(x: Vec[i32]):
    i = global_thread_id
    x[i] = barrier_count(x[i] > 0) + i32(barrier_and(x[i] > 1))

# CHECK:      %[[C:[0-9]+]] = sarek.binop gt %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "barrier_count"(%[[C]]) : (i1) -> i32
# CHECK:      %[[D:[0-9]+]] = sarek.binop gt %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK-NEXT: %{{[0-9]+}} = sarek.intrinsic "barrier_and"(%[[D]]) : (i1) -> i1
# CHECK-NOT:  sarek.barrier
