"""25. sort: bitonic sort steps (xor, and, not, and/or, swap) and odd-even transposition steps, each
launched repeatedly until the vector is sorted."""

import numpy as np

from sarek import Vec, i32, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def bitonic_step(v: Vec[i32], j: i32, k: i32, n: i32):
    i = global_thread_id
    ixj = i ^ j
    if i < n and ixj > i:
        up = (i & k) == 0
        a = v[i]
        b = v[ixj]
        if (up and a > b) or (not up and a < b):
            v[i] = b
            v[ixj] = a


@kernel
def odd_even_step(v: Vec[i32], phase: i32, n: i32):
    t = global_thread_id
    i = 2 * t + phase
    if i + 1 < n:
        a = v[i]
        b = v[i + 1]
        if a > b:
            v[i], v[i + 1] = b, a


def _bitonic(kernel, args, device):
    v, n = args[0], args[1]
    k = 2
    while k <= n:
        j = k // 2
        while j > 0:
            kernel.launch(v, j, k, n, grid=(n + 255) // 256, block=256, device=device)
            j //= 2
        k *= 2


def _odd_even(kernel, args, device):
    v, n = args[0], args[1]
    for p in range(n):
        kernel.launch(v, p % 2, n, grid=(n // 2 + 255) // 256, block=256, device=device)


def _args(n):
    rng = np.random.default_rng(25)
    return (rng.integers(-10000, 10000, n).astype(np.int32), n)


CASES = [
    Case("bitonic_step", bitonic_step, _args, lambda a: {0: np.sort(a[0])}, n=256, launch=_bitonic, rtol=0,
         atol=0),
    Case("odd_even_step", odd_even_step, _args, lambda a: {0: np.sort(a[0])}, n=64, launch=_odd_even, rtol=0,
         atol=0),
]
