"""Issue 15's float atomics: a weighted f32 histogram (many threads add to few bins) and a scatter-add
(indices with repeats), on every device that has f32 atomics; atomic_add returns the old value. Then per-bin
min/max over negative values and NaNs (a NaN operand never replaces, a stored NaN stays: docs/KERNELS.md),
a shared-memory histogram, exchange and compare-and-swap (each returning the old value), and f64 scatter-add,
max, exchange and compare-and-swap where the device has f64. `float-atomics-cas`: the cases a compare-and-swap
loop runs (every device runs them; vulkan-glsl did not through wgpu, whose SPIR-V reader lost the CAS result)."""

import numpy as np

from sarek import Vec, f32, f64, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import (atomic_add, atomic_cas, atomic_exch, atomic_max, atomic_min, atomic_sub, barrier, block_dim_x,
                       block_idx_x, global_thread_id, shared, thread_idx_x)

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


@kernel
def bin_min_max(keys: Vec[i32], vals: Vec[f32], lo: Vec[f32], hi: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        atomic_min(lo, keys[i], vals[i])
        atomic_max(hi, keys[i], vals[i])


def _minmax_args(n):
    rng = np.random.default_rng(23)
    vals = -rng.integers(1, 1000, n).astype(np.float32) / 4  # all negative: a max from 0.0 would be wrong
    vals[::37] = np.nan  # a NaN operand never replaces
    lo = np.full(BINS, np.inf, np.float32)
    hi = np.full(BINS, -np.inf, np.float32)
    lo[3] = hi[3] = np.nan  # a stored NaN stays
    return rng.integers(0, BINS, n).astype(np.int32), vals, lo, hi, n


def _minmax_ref(a):
    keys, vals, lo, hi = a[0], a[1], a[2].copy(), a[3].copy()
    lo[3], hi[3] = np.inf, -np.inf  # (numpy's minimum would keep the NaN too, with a warning)
    ok = ~np.isnan(vals)
    np.minimum.at(lo, keys[ok], vals[ok])
    np.maximum.at(hi, keys[ok], vals[ok])
    lo[3] = hi[3] = np.nan
    return {2: lo, 3: hi}


@kernel
def shared_histogram(keys: Vec[i32], weights: Vec[f32], hist: Vec[f32], n: i32):
    local = shared(f32, BINS)
    t = thread_idx_x
    if t < BINS:
        local[t] = 0.0
    barrier()
    i = block_idx_x * block_dim_x + t
    if i < n:
        atomic_add(local, keys[i], weights[i])
    barrier()
    if t < BINS:
        atomic_add(hist, t, local[t])


@kernel
def exch_cas(slots: Vec[f32], vals: Vec[f32], old: Vec[f32], claim: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        old[i] = atomic_exch(slots, i, vals[i]) + atomic_sub(slots, i, 1.0)
        atomic_cas(claim, i // 4, -1.0, vals[i // 4 * 4])  # every contender of a slot writes the same value


def _exch_args(n):
    rng = np.random.default_rng(24)
    return (np.arange(n, dtype=np.float32) / 2, rng.integers(-50, 50, n).astype(np.float32),
            np.zeros(n, np.float32), np.full(n // 4, -1.0, np.float32), n)


def _exch_ref(a):
    slots, vals = a[0], a[1]
    return {0: vals - 1, 2: slots + vals, 3: vals[::4].copy()}


@kernel
def scatter_f64(idx: Vec[i32], vals: Vec[f64], out: Vec[f64], top: Vec[f64], slot: Vec[f64], prev: Vec[f64],
                claim: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(out, idx[i], vals[i])
        atomic_max(top, idx[i], vals[i])
        prev[i] = atomic_exch(slot, i, vals[i] * 2.0)
        atomic_cas(claim, idx[i], 0.0, 1.0)


def _f64_args(n):
    rng = np.random.default_rng(25)
    # multiples of 2^-20 that need more than f32's 24 bits: exact sums in f64, not in f32
    vals = (rng.integers(-(1 << 30), 1 << 30, n) / (1 << 20)).astype(np.float64)
    return (rng.integers(0, n // 8, n).astype(np.int32), vals, np.full(n // 8, 0.25), np.full(n // 8, -np.inf),
            np.arange(n, dtype=np.float64), np.zeros(n), np.zeros(n // 8), n)


def _f64_ref(a):
    idx, vals = a[0], a[1]
    out, top = a[2].copy(), a[3].copy()
    np.add.at(out, idx, vals)
    np.maximum.at(top, idx, vals)
    claim = np.zeros(len(a[6]))
    claim[idx] = 1.0
    return {2: out, 3: top, 4: vals * 2, 5: a[4].copy(), 6: claim}


CASES = [
    Case("weighted_histogram_f32", weighted_histogram, _hist_args, _hist_ref, n=4096, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics"})),
    Case("scatter_add_f32", scatter_add, _scatter_args, _scatter_ref, n=2048, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics"})),
    Case("bin_min_max_f32", bin_min_max, _minmax_args, _minmax_ref, n=4096, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics", "float-atomics-cas"})),
    Case("shared_histogram_f32", shared_histogram, _hist_args, _hist_ref, n=4096, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics", "float-atomics-cas"})),
    Case("exch_cas_f32", exch_cas, _exch_args, _exch_ref, n=1024, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics", "float-atomics-cas"})),
    Case("scatter_f64", scatter_f64, _f64_args, _f64_ref, n=2048, block=64, atol=0, rtol=0,
         features=frozenset({"float-atomics", "float-atomics-cas", "f64", "i64"})),
]
