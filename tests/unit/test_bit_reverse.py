"""sarek.math.bit_reverse: the bits of a 32- or 64-bit integer in reverse order. Every target's source passes
its real validator (nvcc, hipcc, the Metal shim, pocl, glslang, naga, ptxas), and the interpreter (both
executors), pocl and lavapipe (GLSL and WGSL) give numpy's answer; unsigned operands reverse the same bits."""

from __future__ import annotations

import os
import tempfile
from functools import partial
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from sarek import Vec, f32, i32, i64, kernel, u32, u64  # noqa: E402
from sarek import math as sm  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.interp import arith as A  # noqa: E402
from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl  # noqa: E402

CHECKS: dict[str, Any] = {"cuda": cuda.check, "hip": hip.check, "opencl": opencl.check, "metal": metal.check,
                          "glsl": glsl.check, "wgsl": wgsl.check, "ptx": ptx.check}
SPELLING = {"cuda": "__brev(", "hip": "__brev(", "opencl": "sarek_bit_reverse32(", "metal": "reverse_bits(",
            "glsl": "bitfieldReverse(", "wgsl": "reverseBits(", "ptx": "brev.b32"}


@kernel
def brev32(x: Vec[i32], out: Vec[i32]):
    i = global_thread_id()
    if i < len(x):
        out[i] = sm.bit_reverse(x[i])


@kernel
def brev64(x: Vec[i64], out: Vec[i64]):
    i = global_thread_id()
    if i < len(x):
        out[i] = sm.bit_reverse(x[i])


@kernel
def brevu32(x: Vec[u32], out: Vec[u32]):
    i = global_thread_id()
    if i < len(x):
        out[i] = sm.bit_reverse(x[i])


@kernel
def brevu64(x: Vec[u64], out: Vec[u64]):
    i = global_thread_id()
    if i < len(x):
        out[i] = sm.bit_reverse(x[i])


KERNELS = {"i32": brev32, "i64": brev64, "u32": brevu32, "u64": brevu64}
DTYPES = {"i32": np.int32, "i64": np.int64, "u32": np.uint32, "u64": np.uint64}


def expected(x: Any) -> Any:
    """numpy's answer: each value's binary digits, reversed."""
    bits = x.dtype.itemsize * 8
    ut = np.uint64 if bits == 64 else np.uint32
    r = [int(format(int(v), f"0{bits}b")[::-1], 2) for v in x.view(ut)]
    return np.array(r, ut).view(x.dtype)


def inputs(k: str) -> Any:
    dt = DTYPES[k]
    info = np.iinfo(dt)
    rng = np.random.default_rng(28)
    fixed = np.array([0, 1, 2, 3, info.max, info.min, 0x0F, 0x12345678], dtype=np.int64 if k[0] == "i" else np.uint64)
    rand = rng.integers(info.min, info.max, size=56, dtype=dt, endpoint=True)
    return np.concatenate([fixed.astype(dt), rand, np.array([-1 if k[0] == "i" else info.max], dt)])


def test_reference_values():
    rev = partial(A.int_intrinsic, "bit_reverse")
    assert rev(1, 32, np.uint32) == 0x80000000 and rev(0x80000000, 32, np.uint32) == 1
    assert rev(1, 64, np.uint64) == 1 << 63 and rev(0x12345678, 32, np.uint32) == 0x1E6A2C48
    assert rev(1, 32, np.int32) == -(1 << 31) and rev(-1, 64, np.int64) == -1 and rev(0b1011, 8, np.uint8) == 0b11010000
    assert list(rev(np.array([1, 2], np.int32), 32, np.int32)) == [-(1 << 31), 1 << 30]  # lanes
    assert sm.bit_reverse(1) == -(1 << 31) and sm.bit_reverse(np.int64(1)) == np.int64(-(1 << 63))
    assert sm.bit_reverse(np.uint32(1)) == np.uint32(1 << 31)


@pytest.mark.parametrize("target", sorted(CHECKS))
@pytest.mark.parametrize("k", ["i32", "i64", "u32"])
def test_bit_reverse_validates(target: str, k: str):
    if k == "i64" and target == "wgsl":
        with pytest.raises(SarekError, match="int64 not yet supported"):
            KERNELS[k].source(target)
        return
    src = KERNELS[k].source(target)
    if k == "i32":
        assert SPELLING[target] in src
    CHECKS[target](src)


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl", "vulkan:0", "vulkan-glsl:0"])
@pytest.mark.parametrize("k", ["i32", "i64", "u32", "u64"])
def test_bit_reverse_runs(device: str, k: str):
    x = inputs(k)
    out = np.zeros_like(x)
    if k.endswith("64") and device == "vulkan:0":
        with pytest.raises(SarekError, match="int64 not yet supported"):
            rt.launch(KERNELS[k], [x, out], threads=len(x), block=64, device=device)
        return
    rt.launch(KERNELS[k], [x, out], threads=len(x), block=64, device=device)
    np.testing.assert_array_equal(out, expected(x))
    # reversing twice is the identity
    back = np.zeros_like(x)
    rt.launch(KERNELS[k], [out, back], threads=len(x), block=64, device=device)
    np.testing.assert_array_equal(back, x)


def test_bit_reverse_refuses_a_float():
    @kernel
    def bad(x: Vec[i32], f: float):
        x[0] = sm.bit_reverse(f)

    with pytest.raises(SarekError, match=r"bit_reverse\(\) needs a 32- or 64-bit integer"):
        bad.source("cuda")


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0", "vulkan-glsl:0"])
@pytest.mark.parametrize("k", ["i32", "i64"])
def test_bit_reverse_runs_on_the_gpu(device: str, k: str):
    x = inputs(k)
    out = np.zeros_like(x)
    rt.launch(KERNELS[k], [x, out], threads=len(x), block=64, device=device)
    np.testing.assert_array_equal(out, expected(x))


def test_a_float_context_does_not_type_the_literal_argument() -> None:
    """H200 campaign seed 910169: `f32(sm.bit_reverse(0) % 32749)` typed the literal 0 as f32 (the cast's hint)
    and refused it ("needs a 32- or 64-bit integer, got (f32)"); like clz and popcount, the argument stays int."""
    out = np.zeros(1, np.float32)
    float_context.launch(out, grid=1, block=1, device="interp")
    assert out[0] == np.float32(-(2**31 % 32749))  # bit_reverse(1) is INT_MIN; % truncates toward zero


@kernel
def float_context(out: Vec[f32]):
    out[0] = f32(sm.bit_reverse(1) % 32749)
