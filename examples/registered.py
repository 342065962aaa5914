"""9./10. registered types and variants: |p| of a record literal built from two vectors; a constructor chosen
at run time (`Color.Value(x) if x > 0 else Color.Red()`) then matched (payload binder, nullary constructor)."""

import numpy as np

from sarek import Vec, f32, i32, kernel, record, variant
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@record
class Vec2:
    x: f32
    y: f32


@variant
class Color:
    Red: ()
    Value: i32


@kernel
def magnitude(xs: Vec[f32], ys: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = Vec2(x=xs[i], y=ys[i])
        out[i] = sm.sqrt(p.x * p.x + p.y * p.y)


@kernel
def classify(src: Vec[i32], dst: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        x = src[i]
        c = Color.Value(x) if x > 0 else Color.Red()
        match c:
            case Color.Red():
                dst[i] = 0
            case Color.Value(v):
                dst[i] = v + 1


def _mag_args(n):
    rng = np.random.default_rng(9)
    return (rng.random(n, dtype=np.float32) - 0.5, rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


def _cls_args(n):
    rng = np.random.default_rng(10)
    return (rng.integers(-50, 50, n).astype(np.int32), np.zeros(n, np.int32), n)


CASES = [
    Case("magnitude", magnitude, _mag_args, lambda a: {2: np.hypot(a[0], a[1])}, n=700,
         features=frozenset({"records"})),
    Case("classify", classify, _cls_args, lambda a: {1: np.where(a[0] > 0, a[0] + 1, 0)}, n=700,
         features=frozenset({"variants"})),
]
