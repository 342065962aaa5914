"""26. histogram: a per-block shared histogram with atomics on shared and global memory (supersteps); a
grid-strided variant with a while loop, explicit barriers, grid_dim_x and %."""

import numpy as np

from sarek import Vec, i32, kernel, superstep
from sarek.frontend.corpus import Case
from sarek.gpu import (atomic_add, barrier, block_dim_x, global_thread_id, grid_dim_x, shared, thread_idx_x)

BINS = 64


@kernel
def histogram(data: Vec[i32], hist: Vec[i32], n: i32):
    local = shared(i32, BINS)
    t = thread_idx_x
    g = global_thread_id
    with superstep(divergent=True):
        if t < BINS:
            local[t] = 0
    with superstep(divergent=True):
        if g < n:
            atomic_add(local, data[g] % BINS, 1)
    if t < BINS:
        atomic_add(hist, t, local[t])


@kernel
def histogram_strided(data: Vec[i32], hist: Vec[i32], n: i32):
    local = shared(i32, BINS)
    t = thread_idx_x
    if t < BINS:
        local[t] = 0
    barrier()
    i = global_thread_id
    stride = block_dim_x * grid_dim_x
    while i < n:
        old = atomic_add(local, data[i] % BINS, 1)
        i += stride
    barrier()
    if t < BINS:
        atomic_add(hist, t, local[t])


def _args(n):
    rng = np.random.default_rng(26)
    return (rng.integers(0, 10000, n).astype(np.int32), np.zeros(BINS, np.int32), n)


def _ref(a):
    return {1: np.bincount(a[0] % BINS, minlength=BINS).astype(np.int32)}


A = frozenset({"shared", "atomics"})
CASES = [
    Case("histogram", histogram, _args, _ref, n=2000, block=128, rtol=0, atol=0, features=A),
    Case("histogram_strided", histogram_strided, _args, _ref, n=5000, grid=4, block=128, rtol=0, atol=0,
         features=A),
]
