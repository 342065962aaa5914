"""27. convolution: 3-point weighted (0.25, 0.5, 0.25) with the edges copied (elif chain, `or`)."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def conv1d_3point(a: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i >= n:
        pass
    elif i == 0 or i == n - 1:
        out[i] = a[i]
    else:
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]


def _args(n):
    rng = np.random.default_rng(27)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


def _ref(a):
    x = a[0]
    out = x.copy()
    out[1:-1] = 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]
    return {1: out}


CASES = [Case("conv1d_3point", conv1d_3point, _args, _ref, n=1000)]
