"""24. transpose: one transpose helper per element type (i32, f32, f64, a 3-D point record) taking vector
parameters, a unit helper, f64 and record vectors ("polymorphism" as separate helpers)."""

import numpy as np

from sarek import Vec, device, f32, f64, i32, kernel, record
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@record
class Point3:
    x: f32
    y: f32
    z: f32


@device
def transpose_i32(src: Vec[i32], dst: Vec[i32], rows: i32, cols: i32, i: i32) -> None:
    r = i // cols
    c = i % cols
    dst[c * rows + r] = src[i]


@device
def transpose_f32(src: Vec[f32], dst: Vec[f32], rows: i32, cols: i32, i: i32) -> None:
    r = i // cols
    c = i % cols
    dst[c * rows + r] = src[i]


@device
def transpose_f64(src: Vec[f64], dst: Vec[f64], rows: i32, cols: i32, i: i32) -> None:
    r = i // cols
    c = i % cols
    dst[c * rows + r] = src[i]


@device
def transpose_point(src: Vec[Point3], dst: Vec[Point3], rows: i32, cols: i32, i: i32) -> None:
    r = i // cols
    c = i % cols
    dst[c * rows + r] = src[i]


@kernel
def transpose_int(src: Vec[i32], dst: Vec[i32], rows: i32, cols: i32):
    i = global_thread_id
    if i < rows * cols:
        transpose_i32(src, dst, rows, cols, i)


@kernel
def transpose_float(src: Vec[f32], dst: Vec[f32], rows: i32, cols: i32):
    i = global_thread_id
    if i < rows * cols:
        transpose_f32(src, dst, rows, cols, i)


@kernel
def transpose_double(src: Vec[f64], dst: Vec[f64], rows: i32, cols: i32):
    i = global_thread_id
    if i < rows * cols:
        transpose_f64(src, dst, rows, cols, i)


@kernel
def transpose_points(src: Vec[Point3], dst: Vec[Point3], rows: i32, cols: i32):
    i = global_thread_id
    if i < rows * cols:
        transpose_point(src, dst, rows, cols, i)


ROWS, COLS = 24, 40


def _args(dtype):
    def make(n):
        rng = np.random.default_rng(24)
        if dtype.names:
            src = np.zeros(ROWS * COLS, dtype)
            for f in dtype.names:
                src[f] = rng.random(ROWS * COLS)
        elif dtype.kind == "i":
            src = rng.integers(-1000, 1000, ROWS * COLS).astype(dtype)
        else:
            src = rng.random(ROWS * COLS).astype(dtype)
        return (src, np.zeros(ROWS * COLS, dtype), ROWS, COLS)
    return make


def _ref(a):
    return {1: a[0].reshape(ROWS, COLS).T.reshape(-1).copy()}


CASES = [
    Case("transpose_int", transpose_int, _args(np.dtype(np.int32)), _ref, n=ROWS * COLS, rtol=0, atol=0),
    Case("transpose_float", transpose_float, _args(np.dtype(np.float32)), _ref, n=ROWS * COLS),
    Case("transpose_double", transpose_double, _args(np.dtype(np.float64)), _ref, n=ROWS * COLS,
         features=frozenset({"f64"})),
    Case("transpose_points", transpose_points, _args(Point3.dtype), _ref, n=ROWS * COLS,
         features=frozenset({"records"})),
]
