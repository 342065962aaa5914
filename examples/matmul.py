"""18. matrix multiply: naive (row and column by // and %, a for loop accumulating) and tiled (two 256-slot
shared tiles, 2-D thread ids, supersteps inside a for loop, nested loops)."""

import numpy as np

from sarek import Vec, f32, i32, kernel, superstep
from sarek.frontend.corpus import Case
from sarek.gpu import block_idx_x, block_idx_y, global_thread_id, shared, thread_idx_x, thread_idx_y

TILE = 16


@kernel
def matmul_naive(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    i = global_thread_id
    if i < n * n:
        row = i // n
        col = i % n
        acc = 0.0
        for k in range(n):
            acc += a[row * n + k] * b[k * n + col]
        c[i] = acc


@kernel
def matmul_tiled(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    ta = shared(f32, TILE * TILE)
    tb = shared(f32, TILE * TILE)
    tx = thread_idx_x
    ty = thread_idx_y
    row = block_idx_y * TILE + ty
    col = block_idx_x * TILE + tx
    acc = 0.0
    for t in range(n // TILE):
        with superstep():
            ta[ty * TILE + tx] = a[row * n + t * TILE + tx]
            tb[ty * TILE + tx] = b[(t * TILE + ty) * n + col]
        with superstep():
            for k in range(TILE):
                acc += ta[ty * TILE + k] * tb[k * TILE + tx]
    c[row * n + col] = acc


def _args(n):
    rng = np.random.default_rng(18)
    return (rng.random(n * n, dtype=np.float32), rng.random(n * n, dtype=np.float32), np.zeros(n * n, np.float32), n)


def _ref(a):
    n = a[3]
    return {2: (a[0].reshape(n, n).astype(np.float64) @ a[1].reshape(n, n)).reshape(-1)}


CASES = [
    Case("matmul_naive", matmul_naive, _args, _ref, n=32, grid=lambda n: (n * n + 255) // 256, rtol=1e-4),
    Case("matmul_tiled", matmul_tiled, _args, _ref, n=32, grid=lambda n: (n // TILE, n // TILE),
         block=(TILE, TILE), rtol=1e-4, features=frozenset({"shared"})),
]
