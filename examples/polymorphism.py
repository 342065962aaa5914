"""29. polymorphism as separate helpers: add_one, times_two, and `identity` written once per type
(identity_i32, identity_f32), as monomorphisation would produce."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@device
def add_one(x: i32) -> i32:
    return x + 1


@device
def times_two(x: f32) -> f32:
    return x * 2.0


@device
def identity_i32(x: i32) -> i32:
    return x


@device
def identity_f32(x: f32) -> f32:
    return x


@kernel
def poly_kernel(a: Vec[i32], b: Vec[f32], oa: Vec[i32], ob: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        oa[i] = identity_i32(add_one(a[i]))
        ob[i] = identity_f32(times_two(b[i]))


def _args(n):
    rng = np.random.default_rng(29)
    return (rng.integers(-100, 100, n).astype(np.int32), rng.random(n, dtype=np.float32), np.zeros(n, np.int32),
            np.zeros(n, np.float32), n)


CASES = [Case("poly_kernel", poly_kernel, _args, lambda a: {2: a[0] + 1, 3: a[1] * 2}, n=500)]
