"""Kernels the framework-operator tests share (test_opspec, test_torch_ops, test_jax_ffi, test_dask), with
hand-written adjoints in `k.adjoint`'s contract: the kernel's arguments, then one adjoint array per float
array parameter, accumulated with +=."""

from __future__ import annotations

from sarek import Vec, f32, f64, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def saxpy(a: f32, x: Vec[f32], y: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = a * x[i] + y[i]


@kernel
def saxpy_adjoint(a: f32, x: Vec[f32], y: Vec[f32], out: Vec[f32], n: i32, ax: Vec[f32], ay: Vec[f32],
                  aout: Vec[f32]):
    i = global_thread_id
    if i < n:
        ax[i] += a * aout[i]
        ay[i] += aout[i]


@kernel
def mul64(x: Vec[f64], y: Vec[f64], out: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = x[i] * y[i] + x[i]


@kernel
def mul64_adjoint(x: Vec[f64], y: Vec[f64], out: Vec[f64], n: i32, ax: Vec[f64], ay: Vec[f64], aout: Vec[f64]):
    i = global_thread_id
    if i < n:
        ax[i] += aout[i] * (y[i] + 1.0)
        ay[i] += aout[i] * x[i]


@kernel
def prod_sum(x: Vec[f32], y: Vec[f32], p: Vec[f32], s: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p[i] = x[i] * y[i]
        s[i] = x[i] + y[i]


@kernel
def prod_sum_adjoint(x: Vec[f32], y: Vec[f32], p: Vec[f32], s: Vec[f32], n: i32, ax: Vec[f32], ay: Vec[f32],
                     ap: Vec[f32], as_: Vec[f32]):
    i = global_thread_id
    if i < n:
        ax[i] += ap[i] * y[i] + as_[i]
        ay[i] += ap[i] * x[i] + as_[i]


@kernel
def scale_inplace(x: Vec[f32], s: f32, n: i32):
    i = global_thread_id
    if i < n:
        x[i] = x[i] * s
