"""17. stencil: 3-point mean on the interior, borders untouched (`and`, index arithmetic)."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def stencil_1d_kernel(a: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i > 0 and i < n - 1:
        out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0


def _args(n):
    rng = np.random.default_rng(17)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


def _ref(a):
    x = a[0]
    out = np.zeros_like(x)
    out[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / np.float32(3.0)
    return {1: out}


CASES = [Case("stencil_1d_kernel", stencil_1d_kernel, _args, _ref, n=1000)]
