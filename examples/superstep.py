"""15. supersteps: `with superstep():` is a block followed by a barrier. A shared tile of 64; one and two
supersteps; a block-uniform condition inside; a divergent superstep (no barrier inside it); two shared
arrays."""

import numpy as np

from sarek import Vec, f32, i32, kernel, superstep
from sarek.frontend.corpus import Case
from sarek.gpu import barrier, block_idx_x, global_thread_id, shared, thread_idx_x

T = 64


@kernel
def tile_reverse(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, T)
    t = thread_idx_x
    with superstep():
        tile[t] = a[global_thread_id]
    out[global_thread_id] = tile[T - 1 - t]


@kernel
def two_steps(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, T)
    t = thread_idx_x
    g = global_thread_id
    with superstep():
        tile[t] = a[g]
    with superstep():
        x = tile[(t + 1) % T]
    barrier()
    tile[t] = x * 2.0
    barrier()
    out[g] = tile[t]


@kernel
def uniform_step(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, T)
    t = thread_idx_x
    g = global_thread_id
    with superstep():
        if block_idx_x % 2 == 0:
            tile[t] = a[g]
        else:
            tile[t] = -a[g]
    out[g] = tile[T - 1 - t]


@kernel
def divergent_step(a: Vec[f32], out: Vec[f32]):
    tile = shared(f32, T)
    t = thread_idx_x
    g = global_thread_id
    with superstep(divergent=True):
        if t < T // 2:
            tile[t] = a[g]
        else:
            tile[t] = 0.0
    out[g] = tile[T - 1 - t]


@kernel
def two_arrays(a: Vec[f32], b: Vec[f32], out: Vec[f32]):
    sa = shared(f32, T)
    sb = shared(f32, T)
    t = thread_idx_x
    g = global_thread_id
    with superstep():
        sa[t] = a[g]
        sb[t] = b[g]
    out[g] = sa[T - 1 - t] * sb[t]


def _args(n, k=1):
    rng = np.random.default_rng(15)
    return tuple(rng.random(n, dtype=np.float32) for _ in range(k)) + (np.zeros(n, np.float32),)


def _rev(x):
    return x.reshape(-1, T)[:, ::-1].reshape(-1)


def _uniform_ref(a):
    x = a[0].reshape(-1, T).copy()
    x[1::2] *= -1
    return {1: x[:, ::-1].reshape(-1)}


def _divergent_ref(a):
    x = a[0].reshape(-1, T).copy()
    x[:, T // 2:] = 0
    return {1: x[:, ::-1].reshape(-1)}


S = frozenset({"shared"})
CASES = [
    Case("tile_reverse", tile_reverse, _args, lambda a: {1: _rev(a[0])}, n=256, block=T, features=S),
    Case("two_steps", two_steps, _args,
         lambda a: {1: 2 * np.roll(a[0].reshape(-1, T), -1, axis=1).reshape(-1)}, n=256, block=T, features=S),
    Case("uniform_step", uniform_step, _args, _uniform_ref, n=256, block=T, features=S),
    Case("divergent_step", divergent_step, _args, _divergent_ref, n=256, block=T, features=S),
    Case("two_arrays", two_arrays, lambda n: _args(n, 2), lambda a: {2: _rev(a[0]) * a[1]}, n=256, block=T,
         features=S),
]
