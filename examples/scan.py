"""23. scan: Hillis-Steele inclusive prefix sum per 256-thread block over ping-pong shared arrays (eight
supersteps, conditional expressions)."""

import numpy as np

from sarek import Vec, f32, i32, kernel, superstep
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, global_thread_id, shared, thread_idx_x

B = 256


@kernel
def inclusive_scan_kernel(a: Vec[f32], out: Vec[f32], n: i32):
    buf0 = shared(f32, B)
    buf1 = shared(f32, B)
    t = thread_idx_x
    g = global_thread_id
    with superstep():
        buf0[t] = a[g] if g < n else 0.0
    offset = 1
    src = 0
    while offset < B:
        with superstep():
            if src == 0:
                buf1[t] = buf0[t] + buf0[t - offset] if t >= offset else buf0[t]
            else:
                buf0[t] = buf1[t] + buf1[t - offset] if t >= offset else buf1[t]
        src = 1 - src
        offset *= 2
    if g < n:
        out[g] = buf0[t] if src == 0 else buf1[t]


def _args(n):
    rng = np.random.default_rng(23)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


def _ref(a):
    x, n = a[0].astype(np.float64), a[2]
    nb = (n + B - 1) // B
    y = np.zeros(nb * B)
    y[:n] = x
    return {1: np.cumsum(y.reshape(-1, B), axis=1).reshape(-1)[:n]}


CASES = [Case("inclusive_scan_kernel", inclusive_scan_kernel, _args, _ref, n=1000, block=B, rtol=1e-4,
              features=frozenset({"shared"}))]
