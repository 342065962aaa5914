"""4. helpers: dst = src + 2 * 3 through a kernel helper; helpers calling helpers; a unit helper that stores."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@device
def scale(x: f32, k: f32) -> f32:
    return x * k


@kernel
def scale_add(src: Vec[f32], dst: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        dst[i] = src[i] + scale(2.0, 3.0)


@device
def sq(x: f32) -> f32:
    return x * x


@device
def sq_plus_twice(x: f32) -> f32:
    return sq(x) + scale(x, 2.0)


@device
def store_at(v: Vec[f32], i: i32, x: f32) -> None:
    v[i] = x


@kernel
def apply(src: Vec[f32], dst: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        store_at(dst, i, sq_plus_twice(src[i]))


def _args(n):
    rng = np.random.default_rng(5)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


CASES = [
    Case("scale_add", scale_add, _args, lambda a: {1: a[0] + 6.0}, n=1000),
    Case("apply", apply, _args, lambda a: {1: a[0] * a[0] + 2.0 * a[0]}, n=1000),
]
