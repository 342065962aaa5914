"""sarek.math.clz / popcount over every integer type: i32 and i64 count their own width; u32 and u64 count the
same bits (the front end reads them through the signed type of their width); i8/i16/u8/u16 promote to i32 as in C
(clz(u8(1)) is 31). Both interpreters, pocl and the host functions agree with numpy's answer."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
import sarek.runtime as rt  # noqa: E402
from sarek import Vec, i8, i16, i32, i64, kernel, u8, u16, u32, u64  # noqa: E402
from sarek import math as sm  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.validate import cuda, ptx  # noqa: E402

TYPES: dict[str, tuple[Any, Any]] = {"i8": (i8, np.int8), "i16": (i16, np.int16), "u8": (u8, np.uint8),
                                     "u16": (u16, np.uint16), "i32": (i32, np.int32), "u32": (u32, np.uint32),
                                     "i64": (i64, np.int64), "u64": (u64, np.uint64)}


T = sarek.TypeVar("T", i8, i16, u8, u16, i32, u32, i64, u64)


@kernel
def count(x: Vec[T], c: Vec[i32], p: Vec[i32]):
    i = global_thread_id()
    if i < len(x):
        c[i] = sm.clz(x[i])
        p[i] = sm.popcount(x[i])


def inputs(k: str) -> Any:
    dt = TYPES[k][1]
    info = np.iinfo(dt)
    rng = np.random.default_rng(33)
    fixed = np.array([0, 1, 2, 3, 5, info.max, info.min, info.max // 2 + 1], np.int64 if k[0] == "i" else np.uint64)
    return np.concatenate([fixed.astype(dt), rng.integers(info.min, info.max, 24, dtype=dt, endpoint=True)])


def expected(x: Any) -> tuple[Any, Any]:
    """C's answer: a narrow operand promotes to int (sign-extended), a 32/64-bit one counts its own bits."""
    bits = 64 if x.dtype.itemsize == 8 else 32
    vals = [int(v) & ((1 << bits) - 1) for v in x]
    return (np.array([bits - v.bit_length() for v in vals], np.int32),
            np.array([bin(v).count("1") for v in vals], np.int32))


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl"])
@pytest.mark.parametrize("k", sorted(TYPES))
def test_counts_run(device: str, k: str):
    x = inputs(k)
    c, p = np.zeros(len(x), np.int32), np.zeros(len(x), np.int32)
    rt.launch(count, [x, c, p], threads=len(x), block=32, device=device)
    want_c, want_p = expected(x)
    np.testing.assert_array_equal(c, want_c)
    np.testing.assert_array_equal(p, want_p)


@pytest.mark.parametrize("k", sorted(TYPES))
def test_host_functions(k: str):
    x = inputs(k)
    want_c, want_p = expected(x)
    assert [sm.clz(v) for v in x] == list(want_c)
    assert [sm.popcount(v) for v in x] == list(want_p)


@pytest.mark.parametrize("k", ["u32", "u64"])
def test_unsigned_counts_validate(k: str):
    cuda.check(count[TYPES[k][0]].source("cuda"))
    ptx.check(count[TYPES[k][0]].source("ptx"))


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_each_integer_intrinsic_means_the_same_on_one_value_and_on_lanes(bits: int):
    """sarek.dialect.semantics.INT_INTRINSICS states each one twice (a Python int for the reference executor,
    numpy lanes for the fast one): the two agree, on the edges and on random operands of every width."""
    from sarek.dialect.semantics import INT_INTRINSICS

    ut = np.uint64 if bits > 32 else np.uint32
    top = (1 << bits) - 1
    vals = [0, 1, 2, top, top >> 1, (top >> 1) + 1, *np.random.default_rng(bits).integers(0, top, 64, endpoint=True,
                                                                                           dtype=np.uint64).tolist()]
    for name, sem in INT_INTRINSICS.items():
        lanes = sem.lanes(np.array(vals, ut), bits).tolist()
        assert lanes == [sem.one(v, bits) for v in vals], name
