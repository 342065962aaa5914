"""21. math intrinsics: sqrt(a^2 + b^2) * exp(-0.1 (a + b)) * cos(a b) (a negative float literal)."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def complex_math_kernel(a: Vec[f32], b: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x = a[i]
        y = b[i]
        out[i] = sm.sqrt(x * x + y * y) * sm.exp(-0.1 * (x + y)) * sm.cos(x * y)


@kernel
def more_math(a: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x = a[i]
        y = sm.fmax(sm.sin(x), sm.floor(x * 4.0) / 4.0) + sm.pow(x, 1.5) + abs(x - 0.5) + min(x, 0.25)
        out[i] = y + sm.log(1.0 + x) - sm.atan2(x, 2.0) + max(1, 2)


def _args(n, k=1):
    rng = np.random.default_rng(21)
    return tuple(rng.random(n, dtype=np.float32) * 2 for _ in range(k)) + (np.zeros(n, np.float32), n)


def _ref(a):
    x, y = a[0].astype(np.float64), a[1].astype(np.float64)
    return {2: np.sqrt(x * x + y * y) * np.exp(-0.1 * (x + y)) * np.cos(x * y)}


def _more_ref(a):
    x = a[0].astype(np.float64)
    y = np.fmax(np.sin(x), np.floor(x * 4) / 4) + x ** 1.5 + np.abs(x - 0.5) + np.minimum(x, 0.25)
    return {1: y + np.log(1 + x) - np.arctan2(x, 2.0) + 2}


CASES = [
    Case("complex_math_kernel", complex_math_kernel, lambda n: _args(n, 2), _ref, n=1000, rtol=1e-4, atol=1e-5),
    Case("more_math", more_math, _args, _more_ref, n=1000, rtol=1e-4, atol=1e-5),
]
