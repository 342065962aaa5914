"""Division by a constant as multiply-high and shifts (sarek.lowering.divide, the PTX lowering's form): the
model of the PTX sequence agrees with C's truncating division for every divisor class and the edges of the
range, and the PTX device computes the same quotients as the interpreter."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sarek import Vec, i32, i64, kernel, u32
from sarek.gpu import global_thread_id
from sarek.lowering.divide import signed_quotient, unsigned_quotient


def _trunc(n: int, d: int) -> int:
    q = abs(n) // abs(d)
    return q if (n < 0) == (d < 0) else -q


@pytest.mark.parametrize("w", [32, 64])
def test_magic_matches_truncating_division(w: int):
    rng = random.Random(w)
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    divisors = [3, 5, 6, 7, 10, 12, 25, 641, 1000, 7919, 65537, hi, (1 << (w - 2)) + 1]
    divisors += [rng.randint(3, hi) for _ in range(200)]
    divisors = [d for d in divisors if d & (d - 1)]
    dividends = [0, 1, -1, 2, -2, lo, lo + 1, hi, hi - 1] + [rng.randint(lo, hi) for _ in range(200)]
    dividends += [rng.randint(-5000, 5000) for _ in range(200)]
    for d in divisors:
        for n in dividends:
            assert signed_quotient(n, d, w) == _trunc(n, d), (n, d)
            assert signed_quotient(n, -d, w) == _trunc(n, -d), (n, -d)
            u = n & ((1 << w) - 1)
            assert unsigned_quotient(u, d, w) == u // d, (u, d)


@kernel
def divide_by_constants(a: Vec[i32], b: Vec[i64], u: Vec[u32], o: Vec[i32], o64: Vec[i64], ou: Vec[u32], n: i32):
    i = global_thread_id
    if i < n:
        x = a[i]
        o[4 * i] = x // 3
        o[4 * i + 1] = x % 7
        o[4 * i + 2] = x // -10
        o[4 * i + 3] = x % 641
        o64[i] = b[i] // 1000
        ou[i] = u[i] // 10 + u[i] % 7


@pytest.mark.parametrize("dev", ["interp", "opencl", pytest.param("ptx:0", marks=pytest.mark.gpu),
                                 pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_constant_division_on_device(dev: str):
    rng = np.random.default_rng(5)
    n = 4096
    a = rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int32, endpoint=True)
    a[:6] = [0, -1, 1, -(2**31), 2**31 - 1, -7]
    b = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64, endpoint=True)
    u = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
    got = [np.zeros(4 * n, np.int32), np.zeros(n, np.int64), np.zeros(n, np.uint32)]
    want = [x.copy() for x in got]
    divide_by_constants.launch(a, b, u, *want, n, threads=n, device="interp")
    divide_by_constants.launch(a, b, u, *got, n, threads=n, device=dev)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert want[0][0 * 4 + 0] == 0 and want[0][3 * 4] == _trunc(-(2**31), 3)
