# RUN: not sarek ir %s:unknown 2>&1 | filecheck %s --check-prefix=UNKNOWN
# RUN: not sarek ir %s:mismatch 2>&1 | filecheck %s --check-prefix=MISMATCH
# RUN: not sarek ir %s:intdiv 2>&1 | filecheck %s --check-prefix=INTDIV
# RUN: not sarek ir %s:diverged 2>&1 | filecheck %s --check-prefix=DIVERGED
# RUN: not sarek ir %s:brk 2>&1 | filecheck %s --check-prefix=BREAK

from sarek import Vec, f32, i32, kernel
from sarek.gpu import barrier, thread_idx_x


@kernel
def unknown(a: Vec[f32], n: i32):
    a[0] = nope  # noqa: F821

# UNKNOWN: errors.py:13:12: error: unknown name 'nope'
# UNKNOWN-NEXT: a[0] = nope
# UNKNOWN-NEXT: {{^ +}}^


@kernel
def mismatch(a: Vec[f32], n: i32):
    a[0] = a[1] * n

# MISMATCH: errors.py:22:12: error: type mismatch in '*': f32 and i32


@kernel
def intdiv(a: Vec[i32], n: i32):
    a[0] = n / 2

# INTDIV: errors.py:29:12: error: '/' on integers (i32) is not supported: use '//'


@kernel
def diverged(a: Vec[f32], n: i32):
    if thread_idx_x > 16:
        barrier()

# DIVERGED: errors.py:37:9: error: barrier() under thread-divergent control flow (the condition at line 36


@kernel
def brk(a: Vec[f32], n: i32):
    while n > 0:
        return n

# BREAK: errors.py:45:9: error: a kernel returns nothing: write a bare 'return' to end this thread's work
