"""Issue 33's short vectors on the data users have: an SPH-like particle step on f32x3 (record fields, a helper
taking a vector, dot/normalize/length/cross), a float4 saxpy (128-bit accesses on CUDA, HIP and OpenCL) and a
u8x4 image blend on an Array[u8x4, 2] (32-bit accesses, lanes wrapping to u8). Each with its numpy reference."""

import numpy as np

from sarek import Array, Vec, device, f32, f32x3, f32x4, kernel, record, u8x4
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_idx_x, global_idx_y, global_thread_id


@record
class Body:
    pos: f32x3
    vel: f32x3
    mass: f32


@device
def falloff(r: f32x3, h: f32) -> f32:
    q = sm.max(f32(1.0) - sm.length(r) / h, 0.0)
    return q * q


@kernel
def particle_step(bodies: Vec[Body], out: Vec[Body], dt: f32, h: f32):
    """Pairwise forces along the normalized offset, weighted by a smooth falloff; symplectic Euler into `out`."""
    i = global_thread_id
    if i < len(bodies):
        me = bodies[i]
        f = f32x3(0.0)
        for j in range(len(bodies)):
            d = me.pos - bodies[j].pos
            if j != i and sm.dot(d, d) > 1e-12:
                f += sm.normalize(d) * (falloff(d, h) * bodies[j].mass)
        me.vel += f * (dt / me.mass) + sm.cross(me.vel, f32x3(0.0, 0.0, 0.1)) * dt
        me.pos += dt * me.vel
        out[i] = me


def _bodies_args(n):
    rng = np.random.default_rng(330)
    b = np.zeros(n, Body.dtype)
    for c in "xyz":
        b["pos"][c] = rng.random(n)
        b["vel"][c] = rng.standard_normal(n)
    b["mass"] = rng.random(n) + 0.5
    return (b, np.zeros(n, Body.dtype), np.float32(0.01), np.float32(0.3))


def _lanes(a, field):
    return np.stack([a[field][c] for c in "xyz"], -1).astype(np.float64)


def _bodies_ref(a):
    b, out, dt, h = a
    pos, vel, m = _lanes(b, "pos"), _lanes(b, "vel"), b["mass"].astype(np.float64)
    d = pos[:, None, :] - pos[None, :, :]
    r = np.linalg.norm(d, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(r[..., None] > 1e-6, d / r[..., None], 0)
    f = (u * (np.maximum(1 - r / h, 0) ** 2 * m[None, :])[..., None]).sum(1)
    vel = vel + f * (float(dt) / m)[:, None] + np.cross(vel, [0, 0, 0.1]) * float(dt)
    pos = pos + float(dt) * vel
    out = np.zeros_like(b)
    for k, c in enumerate("xyz"):
        out["pos"][c], out["vel"][c] = pos[:, k], vel[:, k]
    out["mass"] = b["mass"]
    return {1: out}


@kernel
def saxpy_f32x4(a: f32, x: Vec[f32x4], y: Vec[f32x4]):
    """y = a * x + y, one float4 per thread."""
    i = global_thread_id
    if i < len(y):
        y[i] = a * x[i] + y[i]


def _saxpy_args(n):
    rng = np.random.default_rng(331)
    return (np.float32(-1.25), rng.standard_normal((n, 4)).astype(np.float32),
            rng.standard_normal((n, 4)).astype(np.float32))


@kernel
def blend_u8x4(img: Array[u8x4, 2], over: Array[u8x4, 2]):
    """img = (img + over) // 2 lane by lane, then the alpha lane set opaque."""
    i = global_idx_y
    j = global_idx_x
    if i < img.shape[0] and j < img.shape[1]:
        p = (img[i, j] // 2) + (over[i, j] // 2)
        p.w = 255
        img[i, j] = p


def _blend_args(n):
    rng = np.random.default_rng(332)
    return (rng.integers(0, 256, (11, 17, 4), dtype=np.uint8), rng.integers(0, 256, (11, 17, 4), dtype=np.uint8))


def _blend_ref(a):
    p = (a[0] // 2 + a[1] // 2).astype(np.uint8)
    p[..., 3] = 255
    return {0: p}


CASES = [
    Case("particle_step_f32x3", particle_step, _bodies_args, _bodies_ref, n=96, block=64, rtol=1e-4, atol=1e-5,
         features=frozenset({"records"})),
    Case("saxpy_f32x4", saxpy_f32x4, _saxpy_args, lambda a: {2: a[0] * a[1] + a[2]}, n=1000, block=128,
         features=frozenset({"records"})),
    Case("blend_u8x4", blend_u8x4, _blend_args, _blend_ref, grid=(2, 1), block=(16, 16), rtol=0, atol=0,
         features=frozenset({"records"})),
]
