"""Issue 15's float atomics: a weighted f32 histogram (many threads add to few bins) and a scatter-add
(indices with repeats), on every device that has f32 atomics; atomic_add returns the old value."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import atomic_add, global_thread_id

BINS = 16


@kernel
def weighted_histogram(keys: Vec[i32], weights: Vec[f32], hist: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(hist, keys[i], weights[i])


@kernel
def scatter_add(idx: Vec[i32], vals: Vec[f32], out: Vec[f32], old: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        old[i] = atomic_add(out, idx[i], vals[i])


def _hist_args(n):
    rng = np.random.default_rng(21)
    # weights that are multiples of 1/8 up to 4: every partial sum is exact, so the order does not matter
    return (rng.integers(0, BINS, n).astype(np.int32), (rng.integers(0, 33, n) / 8).astype(np.float32),
            np.zeros(BINS, np.float32), n)


def _hist_ref(a):
    return {2: np.bincount(a[0], weights=a[1], minlength=BINS).astype(np.float32)}


def _scatter_args(n):
    rng = np.random.default_rng(22)
    return (rng.integers(0, n // 4, n).astype(np.int32), (rng.integers(1, 9, n) / 4).astype(np.float32),
            np.full(n // 4, 0.5, np.float32), np.zeros(n, np.float32), n)


def _scatter_ref(a):
    out = a[2].copy()
    np.add.at(out, a[0], a[1])
    return {2: out}


CASES = [
    Case("weighted_histogram_f32", weighted_histogram, _hist_args, _hist_ref, n=4096, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics"})),
    Case("scatter_add_f32", scatter_add, _scatter_args, _scatter_ref, n=2048, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics"})),
]
