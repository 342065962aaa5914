"""13. pragma: out[i] = a[i] + a[i+1] + a[i+2] + a[i+3] with an unrolled loop (`with pragma("unroll")`)."""

import numpy as np

from sarek import Vec, f32, i32, kernel, pragma
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def kernel_with_pragma(a: Vec[f32], out: Vec[f32], n: i32):
    tid = global_thread_id
    if tid + 3 < n:
        acc = 0.0
        with pragma("unroll"):
            for k in range(tid, tid + 4):
                acc += a[k]
        out[tid] = acc


def _args(n):
    rng = np.random.default_rng(13)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


def _ref(a):
    x, n = a[0], a[2]
    out = np.zeros(n, np.float32)
    out[: n - 3] = x[: n - 3] + x[1 : n - 2] + x[2 : n - 1] + x[3:]
    return {1: out}


CASES = [Case("kernel_with_pragma", kernel_with_pragma, _args, _ref, n=1000)]
