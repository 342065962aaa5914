"""Issue 33's Python semantics and array views on every device: assigned parameters (a scalar and a by-value
record's field, in a kernel and a helper), tuple returns and tuple assignment (swap included), module-level
constant tables (a tuple and a 2-D numpy array, indexed at run time and folded at constant indices),
`float('inf')` / `-math.inf` / `math.nan`, a float literal widened to f64 by the value it meets, a name bound
to one of two vectors, offset views of a vector and of a shared array (also passed to device functions), and a
`x: bool` declaration."""

import math

import numpy as np

from sarek import Shared, Vec, device, f32, f64, i32, kernel, record
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, global_thread_id, shared, thread_idx_x

TAPS = (0.25, 0.5, 0.25)
W = np.arange(12, dtype=np.int32).reshape(3, 4)


@record
class Pt:
    x: f32
    y: f32


@device
def scaled(p: Pt, k: i32) -> f32:
    k = k * 2 + 1           # a parameter assigned
    p.x = p.x * f32(k)      # a by-value record parameter's field assigned (the caller's copy is untouched)
    return p.x + p.y


@device
def divmod_f(x: f32, d: f32) -> tuple[f32, f32]:
    q = math.floor(x / d)
    return q, x - q * d


@kernel
def params_and_tuples(x: Vec[f32], o: Vec[f32], n: i32, bias: f32):
    i = global_thread_id
    if i < n:
        bias = bias + 1.0
        p = Pt(x[i], 2.0)
        q, r = divmod_f(x[i], 3.0)
        lo, hi = q, r
        lo, hi = hi, lo
        o[i] = scaled(p, i % 3) + p.x + bias + 10.0 * lo + hi


@kernel
def tables(x: Vec[f32], o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        acc = 0.0
        for k in range(3):
            acc += TAPS[k] * x[min(i + k, n - 1)]
        o[i] = acc + f32(W[i % 3, i % 4]) + TAPS[1]


@kernel
def infinities(x: Vec[f32], o: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        lo = float('inf')
        hi = -math.inf
        for k in range(max(i - 2, 0), min(i + 3, n)):
            lo = min(lo, x[k])
            hi = max(hi, x[k])
        o[i] = hi - lo if x[i] >= 0.0 else math.nan


@kernel
def f64_literals(x: Vec[f64], o: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        t = 0.0                 # f64: t later takes an f64
        for k in range(4):
            t = t + x[(i + k) % n] * 0.1
        o[i] = t * 2.0


@kernel
def views(a: Vec[f32], b: Vec[f32], o: Vec[f32], n: i32, from_a: bool):
    s = shared(f32, 64)
    half = s[thread_idx_x // 32 * 32:]       # this warp-sized half of the shared array
    half[thread_idx_x % 32] = f32(thread_idx_x % 32)
    barrier()
    i = global_thread_id
    data = a if from_a else b
    tail = data[4:]
    if i < n - 4:
        o[i] = data[i] + tail[i] + f32(len(tail)) + half[(thread_idx_x + 1) % 32]
        out = o[n - 4:]
        if i < 4:
            out[i] += 100.0
    ready: bool
    if i < n:
        ready = data[i] > 0.0
    else:
        ready = False
    if ready and i == 3:        # the thread that added 100 to o[n - 1] above
        o[n - 1] = -1.0


def _pt_args(n):
    rng = np.random.default_rng(33)
    return (rng.random(n, np.float32) * 10, np.zeros(n, np.float32), n, np.float32(0.5))


def _pt_ref(a):
    x, n, bias = a[0], a[2], a[3]
    i = np.arange(n)
    k = (i % 3) * 2 + 1
    q = np.floor(x / np.float32(3.0))
    r = x - q * np.float32(3.0)
    return {1: (x * k + 2.0 + x + (bias + 1) + 10 * r + q).astype(np.float32)}


def _x_args(n):
    rng = np.random.default_rng(34)
    return (rng.random(n, np.float32) - 0.25, np.zeros(n, np.float32), n)


def _tables_ref(a):
    x, n = a[0], a[2]
    i = np.arange(n)
    acc = sum(np.float32(TAPS[k]) * x[np.minimum(i + k, n - 1)] for k in range(3))
    return {1: (acc + W[i % 3, i % 4] + 0.5).astype(np.float32)}


def _inf_ref(a):
    x, n = a[0], a[2]
    out = np.empty(n, np.float32)
    for i in range(n):
        w = x[max(i - 2, 0):min(i + 3, n)]
        out[i] = w.max() - w.min() if x[i] >= 0 else np.nan
    return {1: out}


def _f64_args(n):
    rng = np.random.default_rng(35)
    return (rng.random(n), np.zeros(n), n)


def _f64_ref(a):
    x, n = a[0], a[2]
    i = np.arange(n)
    return {1: 2.0 * sum(x[(i + k) % n] * 0.1 for k in range(4))}

@device
def window_sum(v: Vec[f32], k: i32) -> f32:
    """v[0] + ... + v[k - 1] of whatever view v is, plus its length / 1000."""
    acc = 0.0
    for j in range(k):
        acc += v[j]
    return acc + f32(len(v)) / 1000.0


@device
def shared_next(h: Shared[f32]) -> f32:
    return h[1]


@device
def set_first(v: Vec[f32], x: f32) -> None:
    v[0] = x


@kernel
def views_to_helpers(a: Vec[f32], b: Vec[f32], o: Vec[f32], n: i32, from_a: bool):
    """The views above passed to device functions: a select, an offset view, a slice, a shared array's view."""
    s = shared(f32, 64)
    s[thread_idx_x] = f32(thread_idx_x)
    barrier()
    i = global_thread_id
    data = a if from_a else b
    if i < n - 4:
        o[i] = window_sum(data[i:], 3) + window_sum(b[i:i + 4], 2) + shared_next(s[thread_idx_x // 32 * 32:])
    if i == 0:
        set_first(o[n - 4:] if from_a else o[n - 3:], -5.0)


def _views_args(from_a):
    def make(n):
        rng = np.random.default_rng(36)
        return (rng.random(n, np.float32) - 0.1, rng.random(n, np.float32), np.zeros(n, np.float32), n, from_a)
    return make


def _views_ref(a):
    d = a[0] if a[4] else a[1]
    n = a[3]
    o = np.zeros(n, np.float32)
    i = np.arange(n - 4)
    o[:n - 4] = d[i] + d[i + 4] + (n - 4) + (i + 1) % 32
    o[n - 4:] += 100.0
    if d[3] > 0:
        o[n - 1] = -1.0
    return {2: o}


def _views_helpers_ref(a):
    d = a[0] if a[4] else a[1]
    b, n = a[1], a[3]
    o = np.zeros(n, np.float32)
    i = np.arange(n - 4)
    o[:n - 4] = (d[i] + d[i + 1] + d[i + 2] + (n - i) / np.float32(1000)) + (b[i] + b[i + 1] + np.float32(0.004)) \
        + (i % 64) // 32 * 32 + 1
    o[n - 4 if a[4] else n - 3] = -5.0
    return {2: o}


CASES = [
    Case("assigned_params_tuples", params_and_tuples, _pt_args, _pt_ref, n=1000, block=64, rtol=1e-5, atol=1e-4,
         features=frozenset({"records"})),
    Case("constant_tables", tables, _x_args, _tables_ref, n=1000, block=64),
    Case("inf_nan_literals", infinities, _x_args, _inf_ref, n=500, block=64, atol=0, rtol=0),
    Case("f64_literal_inference", f64_literals, _f64_args, _f64_ref, n=500, block=64, rtol=1e-12, atol=1e-12,
         features=frozenset({"f64"})),
    Case("array_views_a", views, _views_args(True), _views_ref, n=256, block=64, features=frozenset({"shared"})),
    Case("array_views_b", views, _views_args(False), _views_ref, n=256, block=64, features=frozenset({"shared"})),
    Case("views_to_helpers_a", views_to_helpers, _views_args(True), _views_helpers_ref, n=256, block=64,
         rtol=1e-5, atol=1e-5, features=frozenset({"shared"})),
    Case("views_to_helpers_b", views_to_helpers, _views_args(False), _views_helpers_ref, n=256, block=64,
         rtol=1e-5, atol=1e-5, features=frozenset({"shared"})),
]
