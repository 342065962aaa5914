"""22. bitwise: and/or/xor; shifts by per-element amounts (>> is arithmetic on i32); popcount with a while
loop and mutables (and the popcount intrinsic); Gray encode/decode."""

import numpy as np

from sarek import Vec, i32, kernel
from sarek import math as sm
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id


@kernel
def logic_ops(a: Vec[i32], b: Vec[i32], o_and: Vec[i32], o_or: Vec[i32], o_xor: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        o_and[i] = a[i] & b[i]
        o_or[i] = a[i] | b[i]
        o_xor[i] = a[i] ^ b[i]


@kernel
def shifts(a: Vec[i32], s: Vec[i32], left: Vec[i32], right: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        left[i] = a[i] << s[i]
        right[i] = a[i] >> s[i]


@kernel
def popcount_loop(a: Vec[i32], out: Vec[i32], check: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        x = a[i]
        count = 0
        while x != 0:
            count += x & 1
            x = x >> 1
        out[i] = count
        check[i] = sm.popcount(a[i])


@kernel
def gray(a: Vec[i32], enc: Vec[i32], dec: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        g = a[i] ^ (a[i] >> 1)
        enc[i] = g
        b = g
        shift = g >> 1
        while shift != 0:
            b = b ^ shift
            shift = shift >> 1
        dec[i] = b


def _ints(n, seed, lo=0, hi=1 << 20, k=1):
    rng = np.random.default_rng(seed)
    return tuple(rng.integers(lo, hi, n).astype(np.int32) for _ in range(k))


def _z(n, k):
    return tuple(np.zeros(n, np.int32) for _ in range(k))


def _gray_ref(a):
    x = a[0]
    return {1: x ^ (x >> 1), 2: x}


CASES = [
    Case("logic_ops", logic_ops, lambda n: (*_ints(n, 1, -(1 << 30), 1 << 30, 2), *_z(n, 3), n),
         lambda a: {2: a[0] & a[1], 3: a[0] | a[1], 4: a[0] ^ a[1]}, n=1000, rtol=0, atol=0),
    Case("shifts", shifts, lambda n: (*_ints(n, 2, -(1 << 20), 1 << 20), *_ints(n, 3, 0, 10), *_z(n, 2), n),
         lambda a: {2: a[0] << a[1], 3: a[0] >> a[1]}, n=1000, rtol=0, atol=0),
    Case("popcount_loop", popcount_loop, lambda n: (*_ints(n, 4), *_z(n, 2), n),
         lambda a: {1: np.array([bin(v).count("1") for v in a[0]], np.int32),
                    2: np.array([bin(v).count("1") for v in a[0]], np.int32)}, n=1000, rtol=0, atol=0),
    Case("gray", gray, lambda n: (*_ints(n, 5), *_z(n, 2), n), _gray_ref, n=1000, rtol=0, atol=0),
]
