"""The kernels `sarek-adjoint`'s tests and benchmark share: tests/unit/test_adjoint.py checks their adjoints
against finite differences, benchmarks/bench_adjoint.py times them against their forward kernels.

Not a corpus example (its name starts with '_': the corpus, the demo and the conformance runs skip it): the
kernels are generic over f32/f64 (`stencil[f32]`) and have no `CASES`. saxpy, a 3-point stencil, a row softmax
(run-time row length; `softmax_rows64`: 64 columns, a constant), a particle step through a record and a helper,
and two reductions through shared memory (`block_sum`: square roots of partial sums of squares in a block of
64; `sum_squares`: one thread sums a block of 256 squares).
"""

from __future__ import annotations

import sarek
from sarek import Vec, device, f32, f64, i32, kernel, record
from sarek import math as sm
from sarek.gpu import barrier, block_dim_x, block_idx_x, global_thread_id, shared, thread_idx_x

F = sarek.TypeVar("F", f32, f64)
#: the row length of softmax_rows64 (a constant: the max loop's reverse keeps its running maximum on a tape)
COLS = 64
#: the block size of sum_squares
BLOCK = 256


@kernel
def saxpy(a: F, x: Vec[F], y: Vec[F], out: Vec[F], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = a * x[i] + y[i]


@kernel
def stencil(x: Vec[F], w: Vec[F], out: Vec[F], n: i32):
    i = global_thread_id
    if i >= n:
        return
    acc = x[i] * 0.0
    for k in range(3):
        j = min(max(i + k - 1, 0), n - 1)
        acc += w[k] * x[j]
    out[i] = acc


@kernel
def softmax_rows(x: Vec[F], out: Vec[F], rows: i32, cols: i32):
    r = global_thread_id
    if r < rows:
        m = x[r * cols]
        for j in range(1, cols):
            m = max(m, x[r * cols + j])
        s = x[r * cols] * 0.0
        for j in range(cols):
            s += sm.exp(x[r * cols + j] - m)
        for j in range(cols):
            out[r * cols + j] = sm.exp(x[r * cols + j] - m) / s


@record
class Particle:
    pos: f32
    vel: f32


@device
def force(p: Particle, k: f32) -> f32:
    return -k * p.pos - 0.1 * p.vel * sm.fabs(p.vel)


@kernel
def particle_step(pos: Vec[f32], vel: Vec[f32], new_pos: Vec[f32], new_vel: Vec[f32], k: f32, dt: f32, n: i32):
    i = global_thread_id
    if i < n:
        p = Particle(pos[i], vel[i])
        for _ in range(3):
            f = force(p, k)
            p.vel = p.vel + dt * f
            p.pos = p.pos + dt * p.vel
        new_pos[i] = p.pos
        new_vel[i] = p.vel


@kernel
def block_sum(x: Vec[F], out: Vec[F]):
    s = shared(F, 64)
    part = shared(F, 8)
    t = thread_idx_x
    s[t] = x[block_idx_x * block_dim_x + t] * x[block_idx_x * block_dim_x + t]
    barrier()
    if t < 8:
        acc = s[t * 8]
        for k in range(1, 8):
            acc += s[t * 8 + k]
        part[t] = sm.sqrt(acc)
    barrier()
    if t == 0:
        total = part[0]
        for k in range(1, 8):
            total = total + part[k]
        out[block_idx_x] = total


@kernel
def softmax_rows64(x: Vec[f32], out: Vec[f32], rows: i32):
    r = global_thread_id
    cols = COLS
    if r < rows:
        m = x[r * cols]
        for j in range(1, cols):
            m = max(m, x[r * cols + j])
        s = 0.0
        for j in range(cols):
            s += sm.exp(x[r * cols + j] - m)
        for j in range(cols):
            out[r * cols + j] = sm.exp(x[r * cols + j] - m) / s


@kernel
def sum_squares(x: Vec[f32], out: Vec[f32]):
    s = shared(f32, BLOCK)
    t = thread_idx_x
    v = x[block_idx_x * block_dim_x + t]
    s[t] = v * v
    barrier()
    if t == 0:
        acc = 0.0
        for k in range(BLOCK):
            acc += s[k]
        out[block_idx_x] = acc
