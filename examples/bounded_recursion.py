"""30. bounded recursion as loops: the tail-recursive fact_aux, power_aux and gcd (with %) written as loops
in helpers."""

import numpy as np

from sarek import Vec, device, i32, i64, kernel
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@device
def fact(n: i32) -> i64:
    acc = i64(1)
    k = n
    while k > 1:
        acc = acc * i64(k)
        k -= 1
    return acc


@device
def power(base: i32, exp: i32) -> i32:
    acc = 1
    e = exp
    while e > 0:
        acc *= base
        e -= 1
    return acc


@device
def gcd(a: i32, b: i32) -> i32:
    x = a
    y = b
    while y != 0:
        t = x % y
        x = y
        y = t
    return x


@kernel
def recursion_kernel(a: Vec[i32], b: Vec[i32], o_fact: Vec[i64], o_pow: Vec[i32], o_gcd: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        o_fact[i] = fact(a[i] % 20)
        o_pow[i] = power(a[i] % 5, b[i] % 8)
        o_gcd[i] = gcd(a[i], b[i])


def _args(n):
    rng = np.random.default_rng(30)
    return (rng.integers(1, 1000, n).astype(np.int32), rng.integers(1, 1000, n).astype(np.int32),
            np.zeros(n, np.int64), np.zeros(n, np.int32), np.zeros(n, np.int32), n)


def _ref(a):
    x, y = a[0], a[1]
    fact = np.array([np.prod(np.arange(1, v % 20 + 1, dtype=np.int64)) for v in x], np.int64)
    return {2: fact, 3: ((x % 5) ** (y % 8)).astype(np.int32), 4: np.gcd(x, y).astype(np.int32)}


CASES = [Case("recursion_kernel", recursion_kernel, _args, _ref, n=500, rtol=0, atol=0,
              features=frozenset({"i64"}))]
