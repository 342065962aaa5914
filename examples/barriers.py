"""14. converged barriers: an unconditional barrier, a barrier in both arms of a block-uniform if, a barrier
in a uniform loop, a barrier after a divergent conditional expression, divergent stores without a barrier.
Each reverses or rotates data within a 64-thread block through shared memory."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_dim_x, block_idx_x, global_thread_id, shared, thread_idx_x

B = 64


@kernel
def reverse_block(a: Vec[f32], out: Vec[f32]):
    s = shared(f32, B)
    t = thread_idx_x
    g = global_thread_id
    s[t] = a[g]
    barrier()
    out[g] = s[B - 1 - t]


@kernel
def uniform_if(a: Vec[f32], out: Vec[f32], flip: i32):
    s = shared(f32, B)
    t = thread_idx_x
    g = global_thread_id
    if flip != 0:
        s[t] = a[g]
        barrier()
        out[g] = s[B - 1 - t]
    else:
        s[t] = a[g] * 2.0
        barrier()
        out[g] = s[t]


@kernel
def uniform_loop(a: Vec[f32], out: Vec[f32], rounds: i32):
    s = shared(f32, B)
    t = thread_idx_x
    g = global_thread_id
    s[t] = a[g]
    barrier()
    for r in range(rounds):
        x = s[(t + 1) % B]
        barrier()
        s[t] = x
        barrier()
    out[g] = s[t]


@kernel
def after_divergent(a: Vec[f32], out: Vec[f32]):
    s = shared(f32, B)
    t = thread_idx_x
    g = global_thread_id
    s[t] = a[g] if t % 2 == 0 else -a[g]
    barrier()
    out[g] = s[B - 1 - t]


@kernel
def divergent_stores(a: Vec[f32], out: Vec[f32], n: i32):
    g = global_thread_id
    if g < n:
        if g % 3 == 0:
            out[g] = a[g]
        elif g % 3 == 1:
            out[g] = 2.0 * a[g]
        else:
            out[g] = f32(block_idx_x * block_dim_x)


def _args(n):
    rng = np.random.default_rng(14)
    return (rng.random(n, dtype=np.float32), np.zeros(n, np.float32))


def _rev(x):
    return x.reshape(-1, B)[:, ::-1].reshape(-1)


def _div_ref(a):
    x, n = a[0], a[2]
    g = np.arange(n)
    return {1: np.where(g % 3 == 0, x, np.where(g % 3 == 1, 2 * x, (g // B * B).astype(np.float32)))}


CASES = [
    Case("reverse_block", reverse_block, _args, lambda a: {1: _rev(a[0])}, n=256, block=B,
         features=frozenset({"shared"})),
    Case("uniform_if", uniform_if, lambda n: (*_args(n), 1), lambda a: {1: _rev(a[0])}, n=256, block=B,
         features=frozenset({"shared"})),
    Case("uniform_if_else", uniform_if, lambda n: (*_args(n), 0), lambda a: {1: 2 * a[0]}, n=256, block=B,
         features=frozenset({"shared"})),
    Case("uniform_loop", uniform_loop, lambda n: (*_args(n), 5),
         lambda a: {1: np.roll(a[0].reshape(-1, B), -5, axis=1).reshape(-1)}, n=256, block=B,
         features=frozenset({"shared"})),
    Case("after_divergent", after_divergent, _args,
         lambda a: {1: _rev(np.where(np.arange(len(a[0])) % 2 == 0, a[0], -a[0]))}, n=256, block=B,
         features=frozenset({"shared"})),
    Case("divergent_stores", divergent_stores, lambda n: (*_args(n), n), _div_ref, n=250, block=B),
]
