"""3./6. records: copy points with x + 1 (record vectors, record locals, record literals, element stores);
the length of (x, y) through a helper that returns a record."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel, record
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@record
class Point:
    x: f32
    y: f32


@kernel
def shift_points(src: Vec[Point], dst: Vec[Point], n: i32):
    i = global_thread_id
    if i < n:
        p = src[i]
        q = Point(x=p.x + 1.0, y=p.y)
        dst[i] = q


@device
def make_point(x: f32, y: f32) -> Point:
    return Point(x, y)


@device
def length(p: Point) -> f32:
    return sm.sqrt(p.x * p.x + p.y * p.y)


@kernel
def length_kernel(xs: Vec[f32], ys: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = length(make_point(xs[i], ys[i]))


def _points(n):
    rng = np.random.default_rng(3)
    a = np.zeros(n, Point.dtype)
    a["x"] = rng.random(n)
    a["y"] = rng.random(n)
    return (a, np.zeros(n, Point.dtype), n)


def _shift_ref(a):
    out = a[0].copy()
    out["x"] += np.float32(1.0)
    return {1: out}


def _len_args(n):
    rng = np.random.default_rng(4)
    return (rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


CASES = [
    Case("shift_points", shift_points, _points, _shift_ref, n=500, features=frozenset({"records"})),
    Case("length_kernel", length_kernel, _len_args, lambda a: {2: np.hypot(a[0], a[1])}, n=500,
         features=frozenset({"records"})),
]
