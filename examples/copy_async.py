"""Asynchronous copies from global to shared memory (`sarek.gpu.copy_async`): a 3-point stencil whose block
stages its tile in 16-byte copies, and a two-stage pipelined f16 GEMM on cooperative matrices (the copies of
the next K step in flight while the warps multiply the current one). cp.async on CUDA and PTX; element copies
everywhere else, with the same results."""

import numpy as np

from sarek import Array, Vec, coop, f16, f32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import (barrier, block_idx_x, block_idx_y, copy_async, copy_async_commit, copy_async_wait, shared,
                       thread_idx_x, warp_id)

TILE = 1024  # elements of the stencil's block tile: 256 threads, one 4-element (16-byte) copy each


@kernel(block=256)
def stencil3(x: Vec[f32], y: Vec[f32]):
    """y[i] = x[i - 1] + x[i] + x[i + 1] inside each 1024-element tile (the tile's ends copy x)."""
    s = shared(f32, TILE)
    t = thread_idx_x
    base = block_idx_x * TILE
    copy_async(s[t * 4], x[base + t * 4], 4)
    copy_async_commit()
    copy_async_wait(0)
    barrier()
    for e in range(4):
        j = t * 4 + e
        if j == 0 or j == TILE - 1:
            y[base + j] = s[j]
        else:
            y[base + j] = s[j - 1] + s[j] + s[j + 1]


BM, BK = 32, 16  # the GEMM's block tile: 32x32 of C per block of 4 warps (2x2 warps of 16x16), K steps of 16
PA, PB = BK + 8, BM + 8  # padded shared rows (16-byte aligned, no ldmatrix bank conflicts)


@kernel(block=128)
def hgemm_pipelined(A: Array[f16, 2], B: Array[f16, 2], C: Array[f32, 2]):
    """Two shared stages: threads 0-63 copy the 32x16 A tile, threads 64-127 the 16x32 B tile, 8 halves each;
    one barrier per K step."""
    sa = shared(f16, (2 * BM, PA))
    sb = shared(f16, (2 * BK, PB))
    wy = warp_id // 2
    wx = warp_id % 2
    i0 = block_idx_y * BM
    j0 = block_idx_x * BM
    t = thread_idx_x
    nk = A.shape[1] // BK
    a = coop.fragment("a", f16, 16, 16)
    b = coop.fragment("b", f16, 16, 16)
    acc = coop.fragment("acc", f32, 16, 16)
    coop.fill(acc, 0.0)
    for kt in range(nk + 1):
        if kt < nk:  # issue step kt into stage kt % 2 (its last readers passed the previous barrier)
            st = kt % 2
            if t < 64:
                copy_async(sa[st * BM + t // 2, (t % 2) * 8], A[i0 + t // 2, kt * BK + (t % 2) * 8], 8)
            else:
                u = t - 64
                copy_async(sb[st * BK + u // 4, (u % 4) * 8], B[kt * BK + u // 4, j0 + (u % 4) * 8], 8)
        copy_async_commit()
        if kt > 0:  # multiply step kt - 1 while step kt flies
            copy_async_wait(1)
            barrier()
            s = (kt - 1) % 2
            coop.load(a, sa, s * BM + wy * 16, 0)
            coop.load(b, sb, s * BK, wx * 16)
            coop.mma(acc, a, b, acc)
            barrier()
    coop.store(acc, C, i0 + wy * 16, j0 + wx * 16)


def _stencil_args(n):
    return np.random.default_rng(40).standard_normal(n).astype(np.float32), np.zeros(n, np.float32)


def _stencil_ref(a):
    x = a[0].reshape(-1, TILE)
    y = x.copy()
    y[:, 1:-1] = x[:, :-2] + x[:, 1:-1] + x[:, 2:]
    return {1: y.reshape(-1)}


def _gemm_args(n):
    rng = np.random.default_rng(41)
    return (rng.standard_normal((n, n)).astype(np.float16), rng.standard_normal((n, n)).astype(np.float16),
            np.zeros((n, n), np.float32))


CASES = [
    Case("async_stencil3", stencil3, _stencil_args, _stencil_ref, n=4 * TILE, grid=lambda n: n // TILE, block=256,
         features=frozenset({"shared"})),
    Case("async_hgemm_pipelined", hgemm_pipelined, _gemm_args,
         lambda a: {2: a[0].astype(np.float64) @ a[1].astype(np.float64)}, n=128,
         grid=lambda n: (n // BM, n // BM), block=128,
         features=frozenset({"coop", "f16", "shared"}), rtol=1e-3, atol=1e-3),
]
