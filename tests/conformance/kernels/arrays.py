"""Shaped arrays (issue 14): `Array[T, N]` parameters indexed `a[i, j]`, `a.shape[k]`, `len(a)`, element and
field stores, n-D `shared` and `local_array` with constant shapes. Each kernel with its numpy reference."""

import numpy as np

from sarek import Array, f32, i32, kernel, record
from sarek.frontend.corpus import Case
from sarek.gpu import (barrier, block_idx_x, block_idx_y, global_idx_x, global_idx_y, global_idx_z, local_array,
                       shared, thread_idx_x, thread_idx_y)

H, W = 37, 50  # non-square, not a multiple of the block
TILE = 16
R = 2  # the 5x5 convolution's radius


@kernel
def transpose2d(a: Array[f32, 2], t: Array[f32, 2]):
    """t = a.T for a non-square a (the shapes travel with the arrays)."""
    i = global_idx_y
    j = global_idx_x
    if i < a.shape[0] and j < a.shape[1]:
        t[j, i] = a[i, j]


@kernel
def conv5x5(img: Array[f32, 2], wts: Array[f32, 2], out: Array[f32, 2]):
    """A 5x5 correlation with zero padding: each block stages its 16x16 tile and a 2-wide halo in shared
    memory (a (20, 20) array), then every thread sums 25 products out of it."""
    tile = shared(f32, (TILE + 2 * R, TILE + 2 * R))
    h = img.shape[0]
    w = img.shape[1]
    y0 = block_idx_y * TILE - R
    x0 = block_idx_x * TILE - R
    for k in range(thread_idx_y * TILE + thread_idx_x, (TILE + 2 * R) * (TILE + 2 * R), TILE * TILE):
        r = k // (TILE + 2 * R)
        c = k % (TILE + 2 * R)
        y = y0 + r
        x = x0 + c
        tile[r, c] = img[y, x] if 0 <= y and y < h and 0 <= x and x < w else 0.0
    barrier()
    y = y0 + R + thread_idx_y
    x = x0 + R + thread_idx_x
    if y < h and x < w:
        acc = 0.0
        for dy in range(2 * R + 1):
            for dx in range(2 * R + 1):
                acc += wts[dy, dx] * tile[thread_idx_y + dy, thread_idx_x + dx]
        out[y, x] = acc


@kernel
def laplace3d(u: Array[f32, 3], v: Array[f32, 3]):
    """A 7-point 3-D stencil: interior points get the discrete Laplacian, boundary points are copied."""
    z = global_idx_z
    y = global_idx_y
    x = global_idx_x
    nz = len(u)
    ny = u.shape[1]
    nx = u.shape[2]
    if z < nz and y < ny and x < nx:
        if 0 < z and z < nz - 1 and 0 < y and y < ny - 1 and 0 < x and x < nx - 1:
            v[z, y, x] = (u[z - 1, y, x] + u[z + 1, y, x] + u[z, y - 1, x] + u[z, y + 1, x] + u[z, y, x - 1]
                          + u[z, y, x + 1] - 6.0 * u[z, y, x])
        else:
            v[z, y, x] = u[z, y, x]


@kernel
def box3x3(a: Array[f32, 2], out: Array[f32, 2]):
    """3x3 mean with clamped edges: each thread gathers its window into a (3, 3) local array first."""
    i = global_idx_y
    j = global_idx_x
    h = a.shape[0]
    w = a.shape[1]
    if i < h and j < w:
        win = local_array(f32, (3, 3))
        for di in range(3):
            for dj in range(3):
                y = min(max(i + di - 1, 0), h - 1)
                x = min(max(j + dj - 1, 0), w - 1)
                win[di, dj] = a[y, x]
        s = 0.0
        for di in range(3):
            for dj in range(3):
                s += win[di, dj]
        out[i, j] = s / 9.0


@record
class Cell:
    value: f32
    count: i32


@kernel
def cells2d(grid: Array[Cell, 2], scale: f32):
    """Field stores into a 2-D array of records: `grid[i, j].value = ...`, `grid[i, j].count += ...`."""
    i = global_idx_y
    j = global_idx_x
    if i < grid.shape[0] and j < grid.shape[1]:
        grid[i, j].value = grid[i, j].value * scale + f32(i * grid.shape[1] + j)
        grid[i, j].count += i - j


def _blocks(n: int, b: int) -> int:
    return (n + b - 1) // b


def _transpose_args(n):
    rng = np.random.default_rng(141)
    return (rng.random((H, W), dtype=np.float32), np.zeros((W, H), np.float32))


def _conv_args(n):
    rng = np.random.default_rng(142)
    return (rng.random((H, W), dtype=np.float32), rng.random((5, 5), dtype=np.float32), np.zeros((H, W), np.float32))


def _conv_ref(a):
    img, wts, _ = a
    p = np.pad(img.astype(np.float64), R)
    out = np.zeros((H, W))
    for dy in range(5):
        for dx in range(5):
            out += wts[dy, dx] * p[dy:dy + H, dx:dx + W]
    return {2: out.astype(np.float32)}


D3 = (6, 7, 9)


def _laplace_args(n):
    rng = np.random.default_rng(143)
    return (rng.random(D3, dtype=np.float32), np.zeros(D3, np.float32))


def _laplace_ref(a):
    u = a[0]
    v = u.copy()
    c = u[1:-1, 1:-1, 1:-1]
    v[1:-1, 1:-1, 1:-1] = (u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1] + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
                           + u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:] - 6.0 * c)
    return {1: v}


def _box_args(n):
    rng = np.random.default_rng(144)
    return (rng.random((H, W), dtype=np.float32), np.zeros((H, W), np.float32))


def _box_ref(a):
    p = np.pad(a[0].astype(np.float64), 1, mode="edge")
    s = sum(p[di:di + H, dj:dj + W] for di in range(3) for dj in range(3))
    return {1: (s / 9.0).astype(np.float32)}


def _cells_args(n):
    rng = np.random.default_rng(145)
    g = np.zeros((5, 7), Cell.dtype)
    g["value"] = rng.random((5, 7), dtype=np.float32)
    g["count"] = rng.integers(-5, 5, (5, 7))
    return (g, 1.5)


def _cells_ref(a):
    g = a[0].copy()
    i, j = np.indices(g.shape)
    g["value"] = g["value"] * np.float32(1.5) + (i * g.shape[1] + j).astype(np.float32)
    g["count"] += i - j
    return {0: g}


GRID2 = (_blocks(W, TILE), _blocks(H, TILE))
CASES = [
    Case("transpose2d", transpose2d, _transpose_args, lambda a: {1: a[0].T.copy()}, grid=GRID2, block=(TILE, TILE),
         rtol=0, atol=0),
    Case("conv5x5", conv5x5, _conv_args, _conv_ref, grid=GRID2, block=(TILE, TILE), rtol=1e-5, atol=1e-5,
         features=frozenset({"shared"})),
    Case("laplace3d", laplace3d, _laplace_args, _laplace_ref, grid=(_blocks(9, 4), _blocks(7, 4), _blocks(6, 4)),
         block=(4, 4, 4), rtol=1e-5, atol=1e-5),
    Case("box3x3", box3x3, _box_args, _box_ref, grid=GRID2, block=(TILE, TILE), rtol=1e-5, atol=1e-6),
    Case("cells2d", cells2d, _cells_args, _cells_ref, grid=(1, 1), block=(8, 8), rtol=1e-6, atol=1e-5,
         features=frozenset({"records"})),
]
