# RUN: sarek ir %s:stage | filecheck %s
# RUN: not sarek ir %s:to_global 2>&1 | filecheck %s --check-prefix=TOGLOBAL
# RUN: not sarek ir %s:from_shared 2>&1 | filecheck %s --check-prefix=FROMSHARED
# RUN: not sarek ir %s:mixed 2>&1 | filecheck %s --check-prefix=MIXED
# RUN: not sarek ir %s:count 2>&1 | filecheck %s --check-prefix=COUNT
# RUN: not sarek ir %s:notelem 2>&1 | filecheck %s --check-prefix=NOTELEM
# RUN: not sarek ir %s:wait 2>&1 | filecheck %s --check-prefix=WAIT
# RUN: not sarek ir %s:value 2>&1 | filecheck %s --check-prefix=VALUE
# copy_async(dst[i, j], src[k, l], n): n elements along the last dimension from a global array into a shared
# one; copy_async_commit() closes the thread's group, copy_async_wait(n) leaves at most n groups in flight.

from sarek import Array, f16, f32, kernel
from sarek.gpu import barrier, copy_async, copy_async_commit, copy_async_wait, shared, thread_idx_x


@kernel(block=64)
def stage(A: Array[f16, 2], out: Array[f16, 2]):
    sa = shared(f16, (8, 72))
    t = thread_idx_x
    copy_async(sa[t // 8, (t % 8) * 8], A[t // 8, (t % 8) * 8], 8)
    copy_async_commit()
    copy_async_wait(0)
    barrier()
    out[t // 8, t % 8] = sa[t // 8, t % 8]

# CHECK:      %sa = sarek.alloc_array "sa"[%{{.*}}, %{{.*}}] : !sarek.array<f16, shared, 2>
# CHECK:      sarek.copy_async %sa[%{{[0-9]+}}, %{{[0-9]+}}], %A[%{{[0-9]+}}, %{{[0-9]+}}] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>
# CHECK-NEXT: sarek.copy_async_commit
# CHECK-NEXT: sarek.copy_async_wait 0
# CHECK-NEXT: sarek.barrier


@kernel
def to_global(A: Array[f16, 2], B: Array[f16, 2]):
    copy_async(B[0, 0], A[0, 0], 8)

# TOGLOBAL: copy_async.py:35:16: error: copy_async() copies into a shared array (sarek.gpu.shared), not Array[f16, 2]


@kernel
def from_shared(A: Array[f16, 2]):
    s = shared(f16, 64)
    u = shared(f16, 64)
    copy_async(s[0], u[0], 8)

# FROMSHARED: copy_async.py:44:22: error: copy_async() copies from a global array (a kernel parameter), not shared array of f16


@kernel
def mixed(A: Array[f32, 2]):
    s = shared(f16, 64)
    copy_async(s[0], A[0, 0], 8)

# MIXED: copy_async.py:52:22: error: type mismatch: the destination holds f16, the source f32


@kernel
def count(A: Array[f16, 2], n: int):
    s = shared(f16, 64)
    copy_async(s[0], A[0, 0], n)

# COUNT: copy_async.py:60:31: error: the count of copy_async() is a positive integer constant


@kernel
def notelem(A: Array[f16, 2]):
    s = shared(f16, 64)
    copy_async(s, A[0, 0], 8)

# NOTELEM: copy_async.py:68:16: error: the destination of copy_async() is an element, e.g. sa[r, c] (the first of the elements copied), got 's'


@kernel
def wait(A: Array[f16, 2]):
    copy_async_wait(9)

# WAIT: copy_async.py:75:21: error: copy_async_wait(n) takes a constant n from 0 to 7 (the groups left in flight)


@kernel
def value(A: Array[f16, 2]):
    A[0, 0] = copy_async_commit()

# VALUE: copy_async.py:82:15: error: copy_async_commit() is a statement and has no value
