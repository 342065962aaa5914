"""1. vector add: c = a + b guarded by n (vectors with their lengths, global_thread_id, let, if)."""

import numpy as np

from sarek import Vec, f32, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def vector_add(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        c[i] = a[i] + b[i]


def _args(n):
    rng = np.random.default_rng(1)
    return (rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.zeros(n, np.float32), n)


CASES = [Case("vector_add", vector_add, _args, lambda a: {2: a[0] + a[1]}, n=1000, block=256)]
