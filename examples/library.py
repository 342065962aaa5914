"""Library kernels, written for speed the way users write them: a grid-stride sum with four loads in flight and
one atomic per block, a row max / argmax, a row softmax and a row layer norm (one block per row), a 2-D 5-point
stencil and a shared-memory histogram. benchmarks/bench_library.py runs them against torch on the GPU; here
each has its numpy reference. Every kernel is warp-width agnostic: block-level trees in shared memory."""

import numpy as np

from sarek import Shared, Vec, device, f32, i32, kernel
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import (atomic_add, atomic_max, barrier, block_dim_x, block_idx_x, global_size, global_thread_id,
                       shared, thread_idx_x, thread_idx_y, block_idx_y)

B = 256  # threads per block of the reductions (the shared trees' size)


@device
def tree_sum(s: Shared[f32], tid: i32) -> f32:
    """The block's sum of s[0..B): a tree in shared memory (every thread calls it after writing its slot)."""
    barrier()
    h = B // 2
    while h > 0:
        if tid < h:
            s[tid] += s[tid + h]
        barrier()
        h //= 2
    return s[0]


@device
def tree_max(s: Shared[f32], tid: i32) -> f32:
    """The block's maximum of s[0..B), like tree_sum."""
    barrier()
    h = B // 2
    while h > 0:
        if tid < h:
            s[tid] = sm.fmax(s[tid], s[tid + h])
        barrier()
        h //= 2
    return s[0]


@kernel(block=B)
def grid_sum(a: Vec[f32], out: Vec[f32], n: i32):
    """out[0] += sum(a): each thread sums a grid-stride slice with four independent accumulators (four loads in
    flight), the block reduces in shared memory, one atomic per block."""
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    i = global_thread_id
    acc0 = 0.0
    acc1 = 0.0
    acc2 = 0.0
    acc3 = 0.0
    while i + 3 * stride < n:
        acc0 += a[i]
        acc1 += a[i + stride]
        acc2 += a[i + 2 * stride]
        acc3 += a[i + 3 * stride]
        i += 4 * stride
    while i < n:
        acc0 += a[i]
        i += stride
    s[tid] = (acc0 + acc1) + (acc2 + acc3)
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)


@kernel(block=B)
def row_argmax(x: Vec[f32], best: Vec[f32], where: Vec[i32], cols: i32):
    """Per row (one block each): the largest value and its first column."""
    sv = shared(f32, B)
    si = shared(i32, B)
    tid = thread_idx_x
    base = block_idx_x * cols
    bv = -3.0e38
    bi = cols
    for c in range(tid, cols, B):
        v = x[base + c]
        if v > bv:
            bv = v
            bi = c
    sv[tid] = bv
    si[tid] = bi
    barrier()
    h = B // 2
    while h > 0:
        if tid < h:
            ov = sv[tid + h]
            oi = si[tid + h]
            if ov > sv[tid] or (ov == sv[tid] and oi < si[tid]):
                sv[tid] = ov
                si[tid] = oi
        barrier()
        h //= 2
    if tid == 0:
        best[block_idx_x] = sv[0]
        where[block_idx_x] = si[0]


@kernel(block=B)
def softmax_rows(x: Vec[f32], y: Vec[f32], cols: i32):
    """y = softmax(x) per row of `cols` (one block per row): max, then the sum of exp(x - max), then scale."""
    s = shared(f32, B)
    tid = thread_idx_x
    base = block_idx_x * cols
    m = -3.0e38
    for c in range(tid, cols, B):
        m = sm.fmax(m, x[base + c])
    s[tid] = m
    m = tree_max(s, tid)
    barrier()
    t = 0.0
    for c in range(tid, cols, B):
        t += sm.exp(x[base + c] - m)
    s[tid] = t
    inv = 1.0 / tree_sum(s, tid)
    for c in range(tid, cols, B):
        y[base + c] = sm.exp(x[base + c] - m) * inv


@kernel(block=B)
def layer_norm_rows(x: Vec[f32], gamma: Vec[f32], beta: Vec[f32], y: Vec[f32], cols: i32, eps: f32):
    """y = (x - mean) / sqrt(var + eps) * gamma + beta per row (one block per row; two-pass variance)."""
    s = shared(f32, B)
    tid = thread_idx_x
    base = block_idx_x * cols
    t = 0.0
    for c in range(tid, cols, B):
        t += x[base + c]
    s[tid] = t
    mean = tree_sum(s, tid) / f32(cols)
    barrier()
    q = 0.0
    for c in range(tid, cols, B):
        d = x[base + c] - mean
        q += d * d
    s[tid] = q
    r = sm.rsqrt(tree_sum(s, tid) / f32(cols) + eps)
    for c in range(tid, cols, B):
        y[base + c] = (x[base + c] - mean) * r * gamma[c] + beta[c]


@kernel(block=(32, 8))
def stencil5(u: Vec[f32], v: Vec[f32], w: i32, h: i32):
    """v = the 5-point Laplacian average of u inside, u on the border (2-D grid of 32x8 blocks)."""
    x = block_idx_x * 32 + thread_idx_x
    y = block_idx_y * 8 + thread_idx_y
    if x < w and y < h:
        k = y * w + x
        if x > 0 and y > 0 and x < w - 1 and y < h - 1:
            v[k] = 0.2 * (u[k] + u[k - 1] + u[k + 1] + u[k - w] + u[k + w])
        else:
            v[k] = u[k]


NBINS = 256


@kernel(block=B)
def histogram256(data: Vec[i32], hist: Vec[i32], n: i32):
    """hist[data[i] & 255] += 1: privatised per block in shared memory, merged with one atomic per bin."""
    local = shared(i32, NBINS)
    tid = thread_idx_x
    for b in range(tid, NBINS, block_dim_x):
        local[b] = 0
    barrier()
    for i in range(global_thread_id, n, global_size):
        atomic_add(local, data[i] & 255, 1)
    barrier()
    for b in range(tid, NBINS, block_dim_x):
        c = local[b]
        if c != 0:
            atomic_add(hist, b, c)


def _f(n, seed):
    return np.random.default_rng(seed).random(n, dtype=np.float32) * 2.0 - 1.0


ROWS = 8


def softmax_ref(x, rows):
    """numpy (float64) softmax of each of `rows` rows of x, flat (also benchmarks/bench_library.py's check)."""
    v = x.reshape(rows, -1).astype(np.float64)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(-1)


def layer_norm_ref(x, gamma, beta, rows, eps):
    """numpy (float64) layer norm of each of `rows` rows of x, flat."""
    v = x.reshape(rows, -1).astype(np.float64)
    mu = v.mean(axis=1, keepdims=True)
    return ((v - mu) / np.sqrt(((v - mu) ** 2).mean(axis=1, keepdims=True) + eps) * gamma + beta).reshape(-1)


def _softmax_ref(a):
    return {1: softmax_ref(a[0], ROWS)}


def _ln_ref(a):
    return {3: layer_norm_ref(a[0], a[1], a[2], ROWS, a[5])}


def _argmax_ref(a):
    x = a[0].reshape(ROWS, -1)
    return {1: x.max(axis=1), 2: x.argmax(axis=1).astype(np.int32)}


def _stencil_ref(a):
    u, w, h = a[0].reshape(a[3], a[2]), a[2], a[3]
    v = u.copy()
    v[1:-1, 1:-1] = 0.2 * (u[1:-1, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1])
    return {1: v.reshape(-1)}


CASES = [
    Case("grid_sum", grid_sum, lambda n: (_f(n, 1), np.zeros(1, np.float32), n),
         lambda a: {1: np.array([a[0].astype(np.float64).sum()])}, n=10000, grid=4, block=B, rtol=1e-4, atol=1e-3),
    Case("row_argmax", row_argmax,
         lambda n: (_f(ROWS * n, 2), np.zeros(ROWS, np.float32), np.zeros(ROWS, np.int32), n),
         _argmax_ref, n=600, grid=ROWS, block=B, rtol=0, atol=0),
    Case("softmax_rows", softmax_rows, lambda n: (_f(ROWS * n, 3) * 4.0, np.zeros(ROWS * n, np.float32), n),
         _softmax_ref, n=700, grid=ROWS, block=B, rtol=1e-4, atol=1e-6),
    Case("layer_norm_rows", layer_norm_rows,
         lambda n: (_f(ROWS * n, 4), _f(n, 5), _f(n, 6), np.zeros(ROWS * n, np.float32), n, np.float32(1e-5)),
         _ln_ref, n=500, grid=ROWS, block=B, rtol=1e-4, atol=1e-4),
    Case("stencil5", stencil5, lambda n: (_f(n * 24, 7), np.zeros(n * 24, np.float32), n, 24),
         _stencil_ref, n=70, grid=lambda n: ((n + 31) // 32, 3), block=(32, 8), rtol=1e-5, atol=1e-6),
    Case("histogram256", histogram256,
         lambda n: (np.random.default_rng(8).integers(0, 1 << 20, n).astype(np.int32), np.zeros(NBINS, np.int32), n),
         lambda a: {1: np.bincount(a[0] & 255, minlength=NBINS).astype(np.int32)}, n=5000, grid=3, block=B,
         rtol=0, atol=0),
]
