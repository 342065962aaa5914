"""20. complex types: 2-D point distance, 3-D normalisation in place, a 5-field particle Euler step with a
scalar dt, a colour lerp from two record vectors."""

import numpy as np

from sarek import Vec, f32, i32, kernel, record
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@record
class Point2D:
    x: f32
    y: f32


@record
class Point3D:
    x: f32
    y: f32
    z: f32


@record
class Particle:
    x: f32
    y: f32
    vx: f32
    vy: f32
    mass: f32


@record
class Color:
    r: f32
    g: f32
    b: f32
    a: f32


@kernel
def distance(a: Vec[Point2D], b: Vec[Point2D], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = a[i]
        q = b[i]
        dx = p.x - q.x
        dy = p.y - q.y
        out[i] = sm.sqrt(dx * dx + dy * dy)


@kernel
def normalize(pts: Vec[Point3D], n: i32):
    i = global_thread_id
    if i < n:
        p = pts[i]
        len_ = sm.sqrt(p.x * p.x + p.y * p.y + p.z * p.z)
        if len_ > 0.0:
            pts[i].x = p.x / len_
            pts[i].y = p.y / len_
            pts[i].z = p.z / len_


@kernel
def euler_step(ps: Vec[Particle], dt: f32, n: i32):
    i = global_thread_id
    if i < n:
        p = ps[i]
        fy = -9.81 * p.mass
        p.vy += fy / p.mass * dt
        p.x += p.vx * dt
        p.y += p.vy * dt
        ps[i] = p


@kernel
def lerp_colors(a: Vec[Color], b: Vec[Color], out: Vec[Color], t: f32, n: i32):
    i = global_thread_id
    if i < n:
        c = a[i]
        d = b[i]
        s = 1.0 - t
        out[i] = Color(r=c.r * s + d.r * t, g=c.g * s + d.g * t, b=c.b * s + d.b * t, a=c.a * s + d.a * t)


def _rand(dtype, n, seed):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, dtype)
    for f in dtype.names:
        a[f] = rng.random(n) + 0.1
    return a


def _dist_ref(a):
    p, q = a[0], a[1]
    return {2: np.hypot(p["x"] - q["x"], p["y"] - q["y"])}


def _norm_ref(a):
    p = a[0].copy()
    ln = np.sqrt(p["x"] ** 2 + p["y"] ** 2 + p["z"] ** 2)
    for f in "xyz":
        p[f] = p[f] / ln
    return {0: p}


def _euler_ref(a):
    p, dt = a[0].copy(), np.float32(a[1])
    p["vy"] = p["vy"] + np.float32(-9.81) * dt
    p["x"] = p["x"] + p["vx"] * dt
    p["y"] = p["y"] + p["vy"] * dt
    return {0: p}


def _lerp_ref(a):
    c, d, t = a[0], a[1], np.float32(a[3])
    out = np.zeros(len(c), Color.dtype)
    for f in "rgba":
        out[f] = c[f] * (1 - t) + d[f] * t
    return {2: out}


R = frozenset({"records"})
CASES = [
    Case("distance", distance, lambda n: (_rand(Point2D.dtype, n, 1), _rand(Point2D.dtype, n, 2),
                                          np.zeros(n, np.float32), n), _dist_ref, n=300, features=R),
    Case("normalize", normalize, lambda n: (_rand(Point3D.dtype, n, 3), n), _norm_ref, n=300, features=R),
    Case("euler_step", euler_step, lambda n: (_rand(Particle.dtype, n, 4), 0.01, n), _euler_ref, n=300,
         features=R, rtol=1e-5),
    Case("lerp_colors", lerp_colors, lambda n: (_rand(Color.dtype, n, 5), _rand(Color.dtype, n, 6),
                                                np.zeros(n, Color.dtype), 0.25, n), _lerp_ref, n=300, features=R),
]
