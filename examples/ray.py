"""8. ray: sphere-hit shading per pixel; three helpers calling each other (dependency order), nested
if/else, float negation, several stores per thread."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import block_dim_x, block_dim_y, block_idx_x, block_idx_y, thread_idx_x, thread_idx_y


@device
def dot3(ax: f32, ay: f32, az: f32, bx: f32, by: f32, bz: f32) -> f32:
    return ax * bx + ay * by + az * bz


@device
def hit_sphere(dx: f32, dy: f32, dz: f32, r: f32) -> f32:
    # ray from the origin along d (unit), sphere centred at (0, 0, -3)
    b = dot3(dx, dy, dz, 0.0, 0.0, 3.0)
    c = 9.0 - r * r
    disc = b * b - c
    if disc < 0.0:
        return -1.0
    else:
        return -b - sm.sqrt(disc)


@device
def shade(dx: f32, dy: f32, dz: f32, r: f32) -> f32:
    t = hit_sphere(dx, dy, dz, r)
    if t > 0.0:
        nx = t * dx
        ny = t * dy
        nz = t * dz + 3.0
        inv = 1.0 / sm.sqrt(dot3(nx, ny, nz, nx, ny, nz))
        lit = dot3(nx * inv, ny * inv, nz * inv, 0.57735, 0.57735, 0.57735)
        if lit > 0.0:
            return lit
        else:
            return 0.0
    return -1.0


@kernel
def ray_kernel(red: Vec[f32], green: Vec[f32], blue: Vec[f32], w: i32, h: i32):
    x = block_idx_x * block_dim_x + thread_idx_x
    y = block_idx_y * block_dim_y + thread_idx_y
    if x < w and y < h:
        u = (f32(x) + 0.5) / f32(w) * 2.0 - 1.0
        v = -((f32(y) + 0.5) / f32(h) * 2.0 - 1.0)
        norm = sm.sqrt(u * u + v * v + 1.0)
        dx = u / norm
        dy = v / norm
        dz = -1.0 / norm
        s = shade(dx, dy, dz, 1.0)
        k = y * w + x
        if s < 0.0:
            red[k] = 0.1
            green[k] = 0.1
            blue[k] = 0.3
        else:
            red[k] = s
            green[k] = s * 0.5
            blue[k] = 0.0


def _args(n):
    return (np.zeros(n * n, np.float32), np.zeros(n * n, np.float32), np.zeros(n * n, np.float32), n, n)


def _ref(a):
    n = a[3]
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
    u = (xs + 0.5) / n * 2 - 1
    v = -((ys + 0.5) / n * 2 - 1)
    norm = np.sqrt(u * u + v * v + 1)
    dx, dy, dz = u / norm, v / norm, -1.0 / norm
    b = 3.0 * dz
    disc = b * b - (9.0 - 1.0)
    t = np.where(disc < 0, -1.0, -b - np.sqrt(np.maximum(disc, 0)))
    nx, ny, nz = t * dx, t * dy, t * dz + 3.0
    inv = 1 / np.sqrt(nx * nx + ny * ny + nz * nz)
    lit = (nx + ny + nz) * inv * 0.57735
    s = np.where(t > 0, np.maximum(lit, 0.0), -1.0)
    r = np.where(s < 0, 0.1, s).reshape(-1)
    g = np.where(s < 0, 0.1, s * 0.5).reshape(-1)
    bl = np.where(s < 0, 0.3, 0.0).reshape(-1)
    return {0: r, 1: g, 2: bl}


CASES = [Case("ray_kernel", ray_kernel, _args, _ref, n=32, grid=lambda n: ((n + 7) // 8, (n + 7) // 8),
              block=(8, 8), rtol=1e-3, atol=1e-3)]
