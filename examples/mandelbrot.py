"""28. mandelbrot / julia: 2-D ids, float casts, a while loop with `and`, mutable floats; the tail-recursive
`iterate` written as a loop in a helper; julia with i32 parameters."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import block_dim_x, block_dim_y, block_idx_x, block_idx_y, thread_idx_x, thread_idx_y

MAX_ITER = 64


@kernel
def mandelbrot(out: Vec[i32], w: i32, h: i32):
    px = block_idx_x * block_dim_x + thread_idx_x
    py = block_idx_y * block_dim_y + thread_idx_y
    if px < w and py < h:
        cx = f32(px) / f32(w) * 3.0 - 2.0
        cy = f32(py) / f32(h) * 2.0 - 1.0
        x = 0.0
        y = 0.0
        it = 0
        while it < MAX_ITER and x * x + y * y <= 4.0:
            xt = x * x - y * y + cx
            y = 2.0 * x * y + cy
            x = xt
            it += 1
        out[py * w + px] = it


@device
def iterate(x0: f32, y0: f32, cx: f32, cy: f32, max_iter: i32) -> i32:
    # was `let rec iterate x y n = if n >= max || x*x + y*y > 4 then n else iterate (...) (n + 1)`
    x = x0
    y = y0
    n = 0
    while n < max_iter and x * x + y * y <= 4.0:
        xt = x * x - y * y + cx
        y = 2.0 * x * y + cy
        x = xt
        n = n + 1
    return n


@kernel
def mandelbrot_rec(out: Vec[i32], w: i32, h: i32):
    px = block_idx_x * block_dim_x + thread_idx_x
    py = block_idx_y * block_dim_y + thread_idx_y
    if px < w and py < h:
        cx = f32(px) / f32(w) * 3.0 - 2.0
        cy = f32(py) / f32(h) * 2.0 - 1.0
        out[py * w + px] = iterate(0.0, 0.0, cx, cy, MAX_ITER)


@kernel
def julia(out: Vec[i32], w: i32, h: i32, max_iter: i32):
    px = block_idx_x * block_dim_x + thread_idx_x
    py = block_idx_y * block_dim_y + thread_idx_y
    if px < w and py < h:
        zx = f32(px) / f32(w) * 3.0 - 1.5
        zy = f32(py) / f32(h) * 2.0 - 1.0
        out[py * w + px] = iterate(zx, zy, -0.8, 0.156, max_iter)


def _escape(zx, zy, cx, cy, m):
    zx, zy = zx.astype(np.float32).copy(), zy.astype(np.float32).copy()
    cx, cy = np.float32(cx) + np.zeros_like(zx), np.float32(cy) + np.zeros_like(zy)
    it = np.zeros(zx.shape, np.int32)
    for _ in range(m):
        live = zx * zx + zy * zy <= np.float32(4.0)
        xt = zx * zx - zy * zy + cx
        ny = np.float32(2.0) * zx * zy + cy
        zx = np.where(live, xt, zx)
        zy = np.where(live, ny, zy)
        it += live
    return it.reshape(-1)


def _grid(w, h):
    py, px = np.mgrid[0:h, 0:w]
    return px.astype(np.float32), py.astype(np.float32)


def _mandel_ref(a):
    w, h = a[1], a[2]
    px, py = _grid(w, h)
    cx = px / np.float32(w) * np.float32(3.0) - np.float32(2.0)
    cy = py / np.float32(h) * np.float32(2.0) - np.float32(1.0)
    return {0: _escape(np.zeros_like(cx), np.zeros_like(cy), cx, cy, MAX_ITER)}


def _julia_ref(a):
    w, h, m = a[1], a[2], a[3]
    px, py = _grid(w, h)
    zx = px / np.float32(w) * np.float32(3.0) - np.float32(1.5)
    zy = py / np.float32(h) * np.float32(2.0) - np.float32(1.0)
    return {0: _escape(zx, zy, -0.8, 0.156, m)}


def _g(n):
    return ((n + 7) // 8, (n + 7) // 8)


# escape counts of points on the boundary may differ by rounding on some devices: allow a small slack
CASES = [
    Case("mandelbrot", mandelbrot, lambda n: (np.zeros(n * n, np.int32), n, n), _mandel_ref, n=32, grid=_g,
         block=(8, 8), rtol=0, atol=1),
    Case("mandelbrot_rec", mandelbrot_rec, lambda n: (np.zeros(n * n, np.int32), n, n), _mandel_ref, n=32,
         grid=_g, block=(8, 8), rtol=0, atol=1),
    Case("julia", julia, lambda n: (np.zeros(n * n, np.int32), n, n, 48), _julia_ref, n=32, grid=_g,
         block=(8, 8), rtol=0, atol=1),
]
