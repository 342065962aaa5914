"""Library kernels, written for speed the way users write them: a grid-stride sum with four loads in flight and
one atomic per block, a row max / argmax, a row softmax and a row layer norm (one block per row), a 2-D 5-point
stencil and a shared-memory histogram. benchmarks/bench_library.py runs them against torch on the GPU; here
each has its numpy reference. Every kernel is warp-width agnostic: block-level trees in shared memory.

The `...4` kernels read and write 128 bits at a time: the data as `Vec[f32x4]` (a float32 array viewed
`(n // 4, 4)`, no copy; one `ld.global.v4.f32` per element on CUDA, PTX, HIP and OpenCL), the row kernels for
a column count divisible by 4, the sum with the last n % 4 elements read from the flat array. `layer_norm_bf16`
takes bf16 rows (f32 math): eight bf16 per 128-bit `i32x4` load, unpacked with shifts, rounded to nearest even
on the way back."""

import numpy as np

from sarek import Shared, Vec, bf16, bitcast, device, f32, f32x4, i32, i32x4, kernel
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


@device
def tree_argmax(sv: Shared[f32], si: Shared[i32], tid: i32, v: f32, i: i32):
    """The block's largest v and its smallest index i among those, left in sv[0], si[0]."""
    sv[tid] = v
    si[tid] = i
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
    tree_argmax(sv, si, tid, bv, bi)
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


@kernel(block=B)
def grid_sum4(a4: Vec[f32x4], a: Vec[f32], out: Vec[f32], n: i32):
    """out[0] += sum(a), `a4` the first n // 4 * 4 elements of `a` as f32x4: four 128-bit loads in flight per
    thread over a grid-stride slice, summed pairwise into one f32x4 accumulator (four accumulators took 41
    registers on sm_90: five blocks of 256 per SM, so 1024 blocks ran in two waves; one takes 32: eight blocks
    per SM, one wave), the last n % 4 elements from `a`, one atomic per block."""
    s = shared(f32, B)
    tid = thread_idx_x
    stride = global_size
    n4 = n // 4
    i = global_thread_id
    acc = f32x4(0.0)
    while i + 3 * stride < n4:
        v0 = a4[i]
        v1 = a4[i + stride]
        v2 = a4[i + 2 * stride]
        v3 = a4[i + 3 * stride]
        acc += (v0 + v1) + (v2 + v3)
        i += 4 * stride
    while i < n4:
        acc += a4[i]
        i += stride
    t = (acc.x + acc.y) + (acc.z + acc.w)
    r = 4 * n4 + global_thread_id
    if r < n:
        t += a[r]
    s[tid] = t
    total = tree_sum(s, tid)
    if tid == 0:
        atomic_add(out, 0, total)


@device
def max4(v: f32x4) -> f32:
    return sm.fmax(sm.fmax(v.x, v.y), sm.fmax(v.z, v.w))


@device
def sum4(v: f32x4) -> f32:
    return (v.x + v.y) + (v.z + v.w)


@kernel(block=B)
def row_argmax4(x4: Vec[f32x4], best: Vec[f32], where: Vec[i32], cols: i32):
    """row_argmax with 128-bit loads (cols divisible by 4): lanes compared in order, so the first column wins."""
    sv = shared(f32, B)
    si = shared(i32, B)
    tid = thread_idx_x
    c4 = cols // 4
    base = block_idx_x * c4
    bv = -3.0e38
    bi = cols
    for c in range(tid, c4, B):
        v = x4[base + c]
        if v.x > bv:
            bv = v.x
            bi = 4 * c
        if v.y > bv:
            bv = v.y
            bi = 4 * c + 1
        if v.z > bv:
            bv = v.z
            bi = 4 * c + 2
        if v.w > bv:
            bv = v.w
            bi = 4 * c + 3
    tree_argmax(sv, si, tid, bv, bi)
    if tid == 0:
        best[block_idx_x] = sv[0]
        where[block_idx_x] = si[0]


@kernel(block=B)
def softmax_rows4(x4: Vec[f32x4], y4: Vec[f32x4], cols: i32):
    """softmax_rows with 128-bit loads and stores (cols divisible by 4); exp applies per lane."""
    s = shared(f32, B)
    tid = thread_idx_x
    c4 = cols // 4
    base = block_idx_x * c4
    m = -3.0e38
    for c in range(tid, c4, B):
        m = sm.fmax(m, max4(x4[base + c]))
    s[tid] = m
    m = tree_max(s, tid)
    barrier()
    t = 0.0
    for c in range(tid, c4, B):
        t += sum4(sm.exp(x4[base + c] - m))
    s[tid] = t
    inv = 1.0 / tree_sum(s, tid)
    for c in range(tid, c4, B):
        y4[base + c] = sm.exp(x4[base + c] - m) * inv


@kernel(block=B)
def layer_norm_rows4(x4: Vec[f32x4], gamma4: Vec[f32x4], beta4: Vec[f32x4], y4: Vec[f32x4], cols: i32, eps: f32):
    """layer_norm_rows with 128-bit loads and stores (cols divisible by 4)."""
    s = shared(f32, B)
    tid = thread_idx_x
    c4 = cols // 4
    base = block_idx_x * c4
    t = 0.0
    for c in range(tid, c4, B):
        t += sum4(x4[base + c])
    s[tid] = t
    mean = tree_sum(s, tid) / f32(cols)
    barrier()
    q = 0.0
    for c in range(tid, c4, B):
        d = x4[base + c] - mean
        q += sum4(d * d)
    s[tid] = q
    r = sm.rsqrt(tree_sum(s, tid) / f32(cols) + eps)
    for c in range(tid, c4, B):
        y4[base + c] = (x4[base + c] - mean) * r * gamma4[c] + beta4[c]


@device
def bf16_lo(w: i32) -> f32:
    """The bf16 in the low half of w, as f32 (a bf16's bits are the top 16 of the f32's)."""
    return bitcast(w << 16, f32)


@device
def bf16_hi(w: i32) -> f32:
    return bitcast(w & -65536, f32)


@device
def bf16_pair(lo: f32, hi: f32) -> i32:
    """Two f32 rounded to bf16 (nearest even: the bf16 conversion), packed lo | hi << 16."""
    return ((bitcast(f32(bf16(lo)), i32) >> 16) & 65535) | (bitcast(f32(bf16(hi)), i32) & -65536)


@device
def bf16_sum8(w: i32x4) -> f32:
    return ((bf16_lo(w.x) + bf16_hi(w.x)) + (bf16_lo(w.y) + bf16_hi(w.y))) + \
        ((bf16_lo(w.z) + bf16_hi(w.z)) + (bf16_lo(w.w) + bf16_hi(w.w)))


@device
def sq(v: f32) -> f32:
    return v * v


@device
def bf16_dev8(w: i32x4, mean: f32) -> f32:
    """The sum of the squared deviations from `mean` of the eight bf16 in w."""
    return ((sq(bf16_lo(w.x) - mean) + sq(bf16_hi(w.x) - mean)) + (sq(bf16_lo(w.y) - mean) + sq(bf16_hi(w.y) - mean))) + \
        ((sq(bf16_lo(w.z) - mean) + sq(bf16_hi(w.z) - mean)) + (sq(bf16_lo(w.w) - mean) + sq(bf16_hi(w.w) - mean)))


@kernel(block=B)
def layer_norm_bf16(x8: Vec[i32x4], gamma: Vec[f32x4], beta: Vec[f32x4], y8: Vec[i32x4], cols: i32, eps: f32):
    """layer_norm_rows on bf16 rows (cols divisible by 8), f32 math: `x8`/`y8` the bf16 data viewed as i32x4
    (eight bf16 per 128-bit access: `x.view(np.int32).reshape(-1, 4)`), gamma and beta f32 (as f32x4)."""
    s = shared(f32, B)
    tid = thread_idx_x
    c8 = cols // 8
    base = block_idx_x * c8
    t = 0.0
    for c in range(tid, c8, B):
        t += bf16_sum8(x8[base + c])
    s[tid] = t
    mean = tree_sum(s, tid) / f32(cols)
    barrier()
    q = 0.0
    for c in range(tid, c8, B):
        q += bf16_dev8(x8[base + c], mean)
    s[tid] = q
    r = sm.rsqrt(tree_sum(s, tid) / f32(cols) + eps)
    for c in range(tid, c8, B):
        w = x8[base + c]
        g0 = gamma[2 * c]
        g1 = gamma[2 * c + 1]
        b0 = beta[2 * c]
        b1 = beta[2 * c + 1]
        y8[base + c] = i32x4(bf16_pair((bf16_lo(w.x) - mean) * r * g0.x + b0.x, (bf16_hi(w.x) - mean) * r * g0.y + b0.y),
                             bf16_pair((bf16_lo(w.y) - mean) * r * g0.z + b0.z, (bf16_hi(w.y) - mean) * r * g0.w + b0.w),
                             bf16_pair((bf16_lo(w.z) - mean) * r * g1.x + b1.x, (bf16_hi(w.z) - mean) * r * g1.y + b1.y),
                             bf16_pair((bf16_lo(w.w) - mean) * r * g1.z + b1.z, (bf16_hi(w.w) - mean) * r * g1.w + b1.w))


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


def _rows4(a):
    """A float32 (or int32) array as f32x4 (i32x4) elements: a view, no copy (a `(len // 4, 4)` view is taken
    too: `x.reshape(-1, 4)`)."""
    a = np.ascontiguousarray(a, np.float32 if a.dtype.kind == "f" else np.int32)
    return a.view(f32x4.dtype if a.dtype.kind == "f" else i32x4.dtype)


def _flat(a):
    """f32x4 elements back as their float32 lanes, in order."""
    return a.view(np.float32).reshape(-1)


def bf16_round(x):
    """float values rounded to bf16 (nearest even), as the bf16 bits (uint16)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits):
    """bf16 bits (any integer view of them) as float32 values."""
    return (np.ascontiguousarray(bits).view(np.uint16).astype(np.uint32) << 16).view(np.float32).reshape(-1)


def _sum4_args(n):
    x = _f(n, 1)
    return (_rows4(x[: n // 4 * 4]), x, np.zeros(1, np.float32), n)


def _ln_bf16_args(cols):
    x = bf16_round(_f(ROWS * cols, 4) * 3.0 + 0.5)
    return (_rows4(x.view(np.int32)), _rows4(_f(cols, 5)), _rows4(_f(cols, 6)),
            np.zeros(ROWS * cols // 8, i32x4.dtype), cols, np.float32(1e-5), np.zeros(ROWS * cols, np.float32))


def _ln_bf16_launch(k, a, device):
    """Launch, then decode the bf16 output into the f32 slot the reference checks (with bf16's tolerance)."""
    k.launch(*a[:6], grid=ROWS, block=B, device=device)
    out = a[3].to_numpy() if hasattr(a[3], "to_numpy") else a[3]
    a[6][:] = bf16_values(out).reshape(-1)


def _ln_bf16_ref(a):
    x = bf16_values(a[0])
    return {6: layer_norm_ref(x, _flat(a[1]), _flat(a[2]), ROWS, a[5])}


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
    Case("grid_sum4", grid_sum4, _sum4_args, lambda a: {2: np.array([a[1].astype(np.float64).sum()])},
         n=10003, grid=4, block=B, rtol=1e-4, atol=1e-3),
    Case("row_argmax4", row_argmax4,
         lambda n: (_rows4(_f(ROWS * n, 2)), np.zeros(ROWS, np.float32), np.zeros(ROWS, np.int32), n),
         lambda a: _argmax_ref((_flat(a[0]),)), n=600, grid=ROWS, block=B, rtol=0, atol=0),
    Case("softmax_rows4", softmax_rows4, lambda n: (_rows4(_f(ROWS * n, 3) * 4.0), np.zeros(ROWS * n // 4, f32x4.dtype), n),
         lambda a: {1: _rows4(softmax_ref(_flat(a[0]), ROWS))}, n=700, grid=ROWS, block=B, rtol=1e-4, atol=1e-6),
    Case("layer_norm_rows4", layer_norm_rows4,
         lambda n: (_rows4(_f(ROWS * n, 4)), _rows4(_f(n, 5)), _rows4(_f(n, 6)), np.zeros(ROWS * n // 4, f32x4.dtype),
                    n, np.float32(1e-5)),
         lambda a: {3: _rows4(layer_norm_ref(_flat(a[0]), _flat(a[1]), _flat(a[2]), ROWS, a[5]))},
         n=500, grid=ROWS, block=B, rtol=1e-4, atol=1e-4),
    Case("layer_norm_bf16", layer_norm_bf16, _ln_bf16_args, _ln_bf16_ref, n=504, grid=ROWS, block=B, rtol=1e-2,
         atol=2e-2, launch=_ln_bf16_launch),
    Case("histogram256", histogram256,
         lambda n: (np.random.default_rng(8).integers(0, 1 << 20, n).astype(np.int32), np.zeros(NBINS, np.int32), n),
         lambda a: {1: np.bincount(a[0] & 255, minlength=NBINS).astype(np.int32)}, n=5000, grid=3, block=B,
         rtol=0, atol=0),
]
