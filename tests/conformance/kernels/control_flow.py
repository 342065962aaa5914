"""Issue 15's control flow on every device: a grid-stride loop (a run-time range step) over 10x more elements
than threads, search loops leaving with `break` (in `while`, in `for` and from inside a `match`), `for/while ... else`, `continue`,
early `return` in a kernel and in a helper, and a dtype-generic axpy launched with f32 and f64 arrays."""

import numpy as np

import sarek
from sarek import Vec, device, f32, f64, i32, kernel, variant
from sarek.frontend.corpus import Case
from sarek.gpu import global_size, global_thread_id

T = sarek.TypeVar("T", f32, f64)
THREADS = 256
N = 10 * THREADS
ROW = 37


@kernel
def grid_stride_saxpy(a: f32, x: Vec[f32], y: Vec[f32], n: i32):
    for i in range(global_thread_id, n, global_size):
        y[i] = a * x[i] + y[i]


@kernel
def reverse_stride(x: Vec[f32], y: Vec[f32], n: i32, step: i32):
    # a negative run-time step: thread t visits n-1-t, n-1-t-step, ...
    for i in range(n - 1 - global_thread_id, -1, step):
        y[i] = x[i] * 2.0 + f32(i % 3)


@kernel
def first_above(data: Vec[f32], found: Vec[i32], rows: i32, thr: f32):
    r = global_thread_id
    if r < rows:
        j = 0
        while j < ROW:
            if data[r * ROW + j] > thr:
                break
            j += 1
        found[r] = j            # ROW when no element is above thr
        k = -1
        for q in range(ROW):
            if data[r * ROW + q] <= thr:
                continue
            k = q
            break
        found[rows + r] = k     # -1 when none


@kernel
def first_above_else(data: Vec[f32], found: Vec[i32], rows: i32, thr: f32):
    r = global_thread_id
    if r < rows:
        k = 0
        for q in range(ROW):
            if data[r * ROW + q] > thr:
                k = q
                break
        else:
            k = -1              # no break: none above thr
        found[r] = k
        j = 0
        while j < ROW:
            if data[r * ROW + j] > thr:
                break
            j += 1
        else:
            j = -1
        found[rows + r] = j


@variant
class Step:
    Skip: ()
    Stop: ()
    Add: f32


@device
def count_until(steps: Vec[Step], base: i32, m: i32) -> f32:
    acc = 0.0
    for j in range(m):
        match steps[base + j]:
            case Step.Stop():
                break
            case Step.Skip():
                continue
            case Step.Add(v):
                acc += v
        acc += 0.5
    return acc


@kernel
def match_break(steps: Vec[Step], out: Vec[f32], rows: i32):
    r = global_thread_id
    if r < rows:
        out[r] = count_until(steps, r * 8, 8)


@device
def clamp_index(i: i32, n: i32) -> i32:
    if i < 0:
        return 0
    if i >= n:
        return n - 1
    return i


@kernel
def early_return(x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i >= n:
        return
    if x[i] < 0.0:
        y[i] = 0.0
        return
    for k in range(4):
        if k * 100 > i:
            y[i] = x[clamp_index(i + k, n)]
            return
    y[i] = -1.0


@kernel
def axpy(a: T, x: Vec[T], y: Vec[T], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i] + 1.0


def _saxpy_args(n):
    rng = np.random.default_rng(15)
    return (np.float32(2.5), rng.random(n, np.float32), rng.random(n, np.float32), n)


def _saxpy_ref(a):
    return {2: (a[0] * a[1] + a[2]).astype(np.float32)}


def _reverse_args(n):
    rng = np.random.default_rng(16)
    return (rng.random(n, np.float32), np.zeros(n, np.float32), n, -THREADS)


def _reverse_ref(a):
    idx = np.arange(a[2])
    return {1: (a[0] * 2.0 + (idx % 3)).astype(np.float32)}


def _search_args(n):
    rng = np.random.default_rng(17)
    return (rng.random(n * ROW, np.float32), np.zeros(2 * n, np.int32), n, np.float32(0.97))


def _search_ref(a):
    d = a[0].reshape(a[2], ROW) > a[3]
    hit = d.any(axis=1)
    first = np.where(hit, d.argmax(axis=1), ROW).astype(np.int32)
    return {1: np.concatenate([first, np.where(hit, first, -1)]).astype(np.int32)}


def _search_else_ref(a):
    first = _search_ref(a)[1][a[2]:]  # -1 where no element is above thr
    return {1: np.concatenate([first, first]).astype(np.int32)}


def _steps_args(n):
    rng = np.random.default_rng(18)
    kinds = rng.choice(3, size=8 * n, p=[0.2, 0.1, 0.7])
    vals = [Step.Skip() if k == 0 else Step.Stop() if k == 1 else Step.Add(float(rng.integers(1, 9)))
            for k in kinds]
    return (Step.pack(vals), np.zeros(n, np.float32), n)


def _steps_ref(a):
    vals = Step.unpack(a[0])
    out = np.zeros(a[2], np.float32)
    for r in range(a[2]):
        acc = 0.0
        for v in vals[r * 8:(r + 1) * 8]:
            if v.ctor == "Stop":
                break
            if v.ctor == "Skip":
                continue
            acc += float(v[0]) + 0.5
        out[r] = acc
    return {1: out}


def _early_args(n):
    rng = np.random.default_rng(19)
    return (rng.random(n, np.float32) - 0.2, np.full(n, 7.0, np.float32), n)


def _early_ref(a):
    x, n = a[0], a[2]
    y = np.full(n, -1.0, np.float32)
    for i in range(n):
        if x[i] < 0.0:
            y[i] = 0.0
            continue
        for k in range(4):
            if k * 100 > i:
                y[i] = x[min(max(i + k, 0), n - 1)]
                break
    return {1: y}


def _axpy_args(dtype):
    def make(n):
        rng = np.random.default_rng(20)
        return (dtype(1.5), rng.random(n).astype(dtype), rng.random(n).astype(dtype), n)
    return make


def _axpy_ref(a):
    return {2: (a[0] * a[1] + a[2] + 1.0).astype(a[1].dtype)}


def _generic_launch(k, args, dev):
    del k  # the generic kernel picks its instance from the arrays' dtype
    axpy.launch(*args, threads=args[3], block=64, device=dev)


CASES = [
    Case("grid_stride_saxpy", grid_stride_saxpy, _saxpy_args, _saxpy_ref, n=N, grid=THREADS // 64, block=64),
    Case("reverse_stride", reverse_stride, _reverse_args, _reverse_ref, n=N, grid=THREADS // 64, block=64),
    Case("first_above_break", first_above, _search_args, _search_ref, n=300, block=64, atol=0, rtol=0),
    Case("for_while_else", first_above_else, _search_args, _search_else_ref, n=300, block=64, atol=0, rtol=0),
    Case("match_break_continue", match_break, _steps_args, _steps_ref, n=200, block=64, features=frozenset({"variants"})),
    Case("early_return", early_return, _early_args, _early_ref, n=1000, block=128),
    Case("generic_axpy_f32", axpy[f32], _axpy_args(np.float32), _axpy_ref, n=1000, launch=_generic_launch),
    Case("generic_axpy_f64", axpy[f64], _axpy_args(np.float64), _axpy_ref, n=1000, launch=_generic_launch,
         features=frozenset({"f64"})),
]
