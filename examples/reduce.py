"""19. reductions: per-block sum, max and dot product with a 256-slot shared tree (supersteps)."""

import numpy as np

from sarek import Vec, f32, i32, kernel, superstep
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_idx_x, global_thread_id, shared, thread_idx_x

B = 256


@kernel
def reduce_sum(a: Vec[f32], out: Vec[f32], n: i32):
    sdata = shared(f32, B)
    tid = thread_idx_x
    gid = global_thread_id
    with superstep():
        sdata[tid] = a[gid] if gid < n else 0.0
    s = B // 2
    while s > 0:
        if tid < s:
            sdata[tid] += sdata[tid + s]
        barrier()
        s = s // 2
    if tid == 0:
        out[block_idx_x] = sdata[0]


@kernel
def reduce_max(a: Vec[f32], out: Vec[f32], n: i32):
    sdata = shared(f32, B)
    tid = thread_idx_x
    gid = global_thread_id
    with superstep():
        sdata[tid] = a[gid] if gid < n else -1.0e30
    s = B // 2
    while s > 0:
        if tid < s:
            b = sdata[tid + s]
            if b > sdata[tid]:
                sdata[tid] = b
        barrier()
        s >>= 1
    if tid == 0:
        out[block_idx_x] = sdata[0]


@kernel
def dot_product(a: Vec[f32], b: Vec[f32], out: Vec[f32], n: i32):
    sdata = shared(f32, B)
    tid = thread_idx_x
    gid = global_thread_id
    with superstep(divergent=True):
        if gid < n:
            sdata[tid] = a[gid] * b[gid]
        else:
            sdata[tid] = 0.0
    s = B // 2
    while s > 0:
        with superstep(divergent=True):
            if tid < s:
                sdata[tid] = sdata[tid] + sdata[tid + s]
        s //= 2
    if tid == 0:
        out[block_idx_x] = sdata[0]


def _nb(n):
    return (n + B - 1) // B


def _args(n, k=1):
    rng = np.random.default_rng(19)
    return tuple(rng.random(n, dtype=np.float32) for _ in range(k)) + (np.zeros(_nb(n), np.float32), n)


def _blocks(x, fill):
    n = len(x)
    y = np.full(_nb(n) * B, fill, np.float64)
    y[:n] = x
    return y.reshape(-1, B)


CASES = [
    Case("reduce_sum", reduce_sum, _args, lambda a: {1: _blocks(a[0], 0).sum(1)}, n=1000, block=B, rtol=1e-4,
         features=frozenset({"shared"})),
    Case("reduce_max", reduce_max, _args, lambda a: {1: _blocks(a[0], -1e30).max(1)}, n=1000, block=B,
         features=frozenset({"shared"})),
    Case("dot_product", dot_product, lambda n: _args(n, 2), lambda a: {2: _blocks(a[0] * a[1], 0).sum(1)},
         n=1000, block=B, rtol=1e-4, features=frozenset({"shared"})),
]
