"""Grid-wide barriers: `grid_barrier()` waits for every thread of every block (CUDA and PTX launch such a kernel
cooperatively, so the grid must fit on the device at once; the other targets refuse it with the reason). Two
phases exchanging data between blocks, a three-point smoothing that crosses the grid twice per step (the barrier
is reused), and a one-launch sum whose per-block partials every block reads back."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import (barrier, block_dim_x, block_idx_x, global_thread_id, grid_barrier, grid_dim_x, shared,
                       thread_idx_x)

B = 64


@kernel
def rotate_blocks(a: Vec[f32], tmp: Vec[f32], out: Vec[f32]):
    """out's block b is a's block b + 1 (the last block gets the first), through tmp written by the others."""
    g = global_thread_id
    tmp[g] = a[g] * 2.0
    grid_barrier()
    out[g] = tmp[(block_idx_x + 1) % grid_dim_x * block_dim_x + thread_idx_x]


@kernel
def smooth(x: Vec[f32], steps: i32):
    """`steps` rounds of x[i] = (x[i-1] + x[i] + x[i+1]) / 3 over the whole grid (the ends stay)."""
    g = global_thread_id
    n = grid_dim_x * block_dim_x
    for s in range(steps):
        t = x[g]
        if g > 0 and g < n - 1:
            t = (x[g - 1] + x[g] + x[g + 1]) / 3.0
        grid_barrier()
        x[g] = t
        grid_barrier()


@kernel
def one_launch_sum(a: Vec[i32], partial: Vec[i32], total: Vec[i32]):
    """Each block sums its slice into partial[block]; after the grid barrier every thread adds the partials up and
    writes the total to its own slot."""
    s = shared(i32, B)
    t = thread_idx_x
    s[t] = a[global_thread_id]
    barrier()
    k = B // 2
    while k > 0:
        if t < k:
            s[t] = s[t] + s[t + k]
        barrier()
        k = k // 2
    if t == 0:
        partial[block_idx_x] = s[0]
    grid_barrier()
    acc = 0
    for b in range(grid_dim_x):
        acc = acc + partial[b]
    total[global_thread_id] = acc


def _rotate_args(n):
    rng = np.random.default_rng(33)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32))


def _smooth_ref(a):
    x = a[0].copy()
    for _ in range(a[1]):
        t = x.copy()
        t[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / np.float32(3.0)
        x = t
    return {0: x}


def _sum_args(n):
    rng = np.random.default_rng(34)
    return (rng.integers(-1000, 1000, n, dtype=np.int32), np.zeros(n // B, np.int32), np.zeros(n, np.int32))


_GRID = frozenset({"grid-barrier"})

CASES = [
    Case("rotate_blocks", rotate_blocks, _rotate_args,
         lambda a: {2: np.roll((a[0] * 2).reshape(-1, B), -1, axis=0).reshape(-1)}, n=8 * B, block=B,
         features=_GRID),
    Case("smooth", smooth, lambda n: (np.random.default_rng(35).random(n, dtype=np.float32), 7), _smooth_ref,
         n=8 * B, block=B, features=_GRID),
    Case("one_launch_sum", one_launch_sum, _sum_args, lambda a: {1: a[0].reshape(-1, B).sum(axis=1, dtype=np.int32),
                                                     2: np.full(len(a[0]), a[0].sum(dtype=np.int32), np.int32)},
         n=8 * B, block=B, features=_GRID | {"shared"}),
]
