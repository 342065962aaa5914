"""7. nbody: O(n^2) inverse-cube accelerations (records, a helper, for loop, mutable accumulators, !=,
a 1e-9 softening literal, sqrt)."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel, record
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id

EPS = 1e-9


@record
class Body:
    x: f32
    y: f32
    z: f32
    m: f32


@record
class Accel:
    ax: f32
    ay: f32
    az: f32


@device
def inv_cube(d2: f32) -> f32:
    d = d2 + EPS
    return 1.0 / (d * sm.sqrt(d))


@kernel
def accel_kernel(bodies: Vec[Body], acc: Vec[Accel], n: i32):
    i = global_thread_id
    if i < n:
        p = bodies[i]
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            if j != i:
                q = bodies[j]
                dx = q.x - p.x
                dy = q.y - p.y
                dz = q.z - p.z
                s = q.m * inv_cube(dx * dx + dy * dy + dz * dz)
                ax += dx * s
                ay += dy * s
                az += dz * s
        acc[i] = Accel(ax, ay, az)


def _args(n):
    rng = np.random.default_rng(7)
    b = np.zeros(n, Body.dtype)
    for f in "xyz":
        b[f] = rng.random(n) * 2 - 1
    b["m"] = rng.random(n) + 0.5
    return (b, np.zeros(n, Accel.dtype), n)


def _ref(a):
    b = a[0]
    p = np.stack([b["x"], b["y"], b["z"]], 1).astype(np.float64)
    d = p[None, :, :] - p[:, None, :]
    d2 = (d * d).sum(-1) + EPS
    w = b["m"][None, :] / (d2 * np.sqrt(d2))
    np.fill_diagonal(w, 0.0)
    acc = (d * w[:, :, None]).sum(1)
    out = np.zeros(len(b), Accel.dtype)
    out["ax"], out["ay"], out["az"] = acc[:, 0], acc[:, 1], acc[:, 2]
    return {1: out}


CASES = [Case("accel_kernel", accel_kernel, _args, _ref, n=128, block=64, rtol=1e-3, atol=1e-3,
              features=frozenset({"records"}))]
