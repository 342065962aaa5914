"""Kernels whose adjoints tests/unit/test_adjoint.py checks against central finite differences: one per rule of
`sarek-adjoint`, and the corpus-like kernels (saxpy, stencil, row softmax, particle step, shared reduction) from
examples/_adjoint_kernels.py, which benchmarks/bench_adjoint.py times."""

from __future__ import annotations

from sarek import Array, device, f32, f32x3, f64, i32, kernel, Vec
from sarek import math as sm
from sarek.gpu import atomic_add, block_idx_x, global_idx_x, global_idx_y, global_thread_id
from sarek.runtime.conformance import EXAMPLES, _load_example  # pyright: ignore[reportPrivateUsage]

_SHARED = _load_example(EXAMPLES / "_adjoint_kernels.py")
F = _SHARED.F
saxpy, stencil, softmax_rows, particle_step, block_sum = (
    _SHARED.saxpy, _SHARED.stencil, _SHARED.softmax_rows, _SHARED.particle_step, _SHARED.block_sum)


@kernel
def branches(x: Vec[F], y: Vec[F], out: Vec[F], n: i32):
    i = global_thread_id
    if i < n:
        a = x[i]
        b = y[i]
        if a > b:
            c = a * b
        elif a > 0.5:
            c = a / b
        else:
            c = b - a * a
        d = a if b > 0.3 else b * b
        out[i] = c + d + abs(a - b) + min(a, b) * max(a, 2.0 * b)


@kernel
def loops(x: Vec[F], out: Vec[F], n: i32, m: i32):
    i = global_thread_id
    if i < n:
        p = x[i] * 0.0 + 1.0
        for k in range(4):
            p = p * x[i] + x[(i + k) % n]
        q = x[i] * 0.0 + 1.0
        for k in range(m):
            q = q * sm.sin(x[(i + k) % n]) + 0.5
        for k in range(3, 0, -1):
            for j in range(k):
                q = q * x[j] + p
        for k in range(2):
            for j in range(3):
                v = x[(i + j + k) % n]
                if v > 0.5:
                    q = q * v
                else:
                    q = q + v * p
        out[i] = p + q


@kernel
def unary_math(x: Vec[f64], out: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        v = x[i]
        out[i * 23 + 0] = sm.sin(v)
        out[i * 23 + 1] = sm.cos(v)
        out[i * 23 + 2] = sm.tan(v)
        out[i * 23 + 3] = sm.asin(v)
        out[i * 23 + 4] = sm.acos(v)
        out[i * 23 + 5] = sm.atan(v)
        out[i * 23 + 6] = sm.sinh(v)
        out[i * 23 + 7] = sm.cosh(v)
        out[i * 23 + 8] = sm.tanh(v)
        out[i * 23 + 9] = sm.exp(v)
        out[i * 23 + 10] = sm.exp2(v)
        out[i * 23 + 11] = sm.log(v)
        out[i * 23 + 12] = sm.log2(v)
        out[i * 23 + 13] = sm.log10(v)
        out[i * 23 + 14] = sm.sqrt(v)
        out[i * 23 + 15] = sm.rsqrt(v)
        out[i * 23 + 16] = sm.cbrt(v)
        out[i * 23 + 17] = sm.expm1(v)
        out[i * 23 + 18] = sm.log1p(v)
        out[i * 23 + 19] = sm.fabs(v - 0.5)
        out[i * 23 + 20] = sm.floor(v * 4.0) + sm.ceil(v) + sm.round(v * 4.0) + sm.trunc(v * 3.0) + v
        out[i * 23 + 21] = sm.fmin(v, 0.5) + sm.fmax(v, 0.5)
        out[i * 23 + 22] = v


@kernel
def binary_math(x: Vec[f64], y: Vec[f64], out: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        a = x[i]
        b = y[i]
        out[i * 6 + 0] = sm.pow(a, b)
        out[i * 6 + 1] = sm.atan2(a, b)
        out[i * 6 + 2] = sm.hypot(a, b)
        out[i * 6 + 3] = sm.fma(a, b, a * a)
        out[i * 6 + 4] = sm.fmod(a * 5.0, b)
        out[i * 6 + 5] = sm.copysign(a, b - 0.6)


@device
def soft_relu(v: F) -> F:
    if v > 0.6:
        return v
    if v < 0.2:
        return v * 0.0
    w = v * v
    return w * sm.tanh(v)


@kernel
def helpers(x: Vec[F], out: Vec[F], n: i32):
    i = global_thread_id
    if i >= n:
        return
    out[i] = soft_relu(x[i]) + soft_relu(x[i] * 0.5)


@kernel
def in_place(x: Vec[f32]):
    i = global_thread_id
    x[i] = x[i] * 2.0


@kernel
def halve_until_small(x: Vec[f32], out: Vec[f32]):
    i = global_thread_id
    v = x[i]
    while v > 1.0:
        v = v * 0.5
    out[i] = v


@kernel
def named_like_adjoint(x: Vec[f32], x_adj: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x_adj[i] = sm.exp(x[i])


@kernel
def read_back(x: Vec[f32], out: Vec[f32]):
    i = global_thread_id
    out[i] = x[i] * 2.0
    out[i + 1] = out[i] * 3.0


@kernel
def matrix(a: Array[F, 2], out: Array[F, 2]):
    i = global_idx_y
    j = global_idx_x
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = sm.exp(a[i, j]) * a[i, (j + 1) % a.shape[1]]


@kernel
def histogram(x: Vec[F], out: Vec[F], n: i32):
    i = global_thread_id
    if i < n:
        atomic_add(out, i % 3, x[i] * x[i])


@device
def two(x: f32) -> tuple[f32, f32]:
    return x * 2.0, x * x


@kernel
def vectors(x: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        v = f32x3(x[i], 2.0, x[(i + 1) % n])
        w = v * v + v
        p, q = two(x[i])
        out[i] = w.x + w.y * w.z + p * q


@kernel
def mixed_indices(x: Vec[F], w: Vec[F], bias: Vec[F], gain: Vec[F], out: Vec[F], n: i32, c: i32):
    """Aggregated adjoints (w[k], bias[0], bias[c], gain[block_idx_x], w[2 * k + j] over two loops) beside
    per-thread ones (x[i], x[(i + k) % n])."""
    i = global_thread_id
    if i >= n:
        return
    acc = bias[0] + bias[c] * x[i]
    for k in range(4):
        acc += w[k] * x[(i + k) % n]
        for j in range(2):
            acc += w[2 * k + j] * w[k] * 0.25
    out[i] = sm.tanh(acc) * gain[block_idx_x]
