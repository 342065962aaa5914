"""Atomics on u32 and u64 (issue 33): every op returns the old value and leaves the same final value on the
interpreters, pocl and lavapipe (WGSL and the GLSL driver, u32), and, `gpu`-marked, on the H200's cuda and
ptx (u64 included); unsigned min/max compare unsigned, sub/dec wrap; the sources validate on every target
(nvcc, hipcc, ptxas, pocl, the Metal shim, glslang + spirv-val, naga); u64 is refused with the reason where
a target's atomics are 32-bit."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek import CompileError, Vec, kernel, u32, u64  # noqa: E402
from sarek.gpu import (atomic_add, atomic_and, atomic_cas, atomic_dec, atomic_exch, atomic_inc,  # noqa: E402
                       atomic_max, atomic_min, atomic_or, atomic_sub, atomic_xor, barrier, global_thread_id, shared,
                       thread_idx_x)


@kernel
def all_u32(x: Vec[u32], h: Vec[u32], old: Vec[u32]):
    i = global_thread_id
    s = shared(u32, 8)
    old[i] = atomic_add(h, x[i] % 4, u32(1))      # a u32 index converts to i32
    atomic_max(h, 4, x[i] * u32(100000000))        # wraps past 2^31: an unsigned compare
    atomic_min(h, 5, x[i] + u32(7))
    atomic_or(h, 6, u32(1) << (x[i] % u32(32)))
    atomic_xor(h, 7, x[i])
    atomic_sub(h, 8, u32(1))                       # 0 - n wraps
    atomic_inc(h, 9)
    atomic_dec(h, 10)
    atomic_and(h, 11, ~(u32(1) << (x[i] % u32(32))))
    atomic_cas(h, 12, u32(0), u32(9))              # one thread swaps
    atomic_add(s, thread_idx_x % 8, x[i])
    barrier()
    if thread_idx_x < 8:
        atomic_add(h, 13, s[thread_idx_x])
    atomic_exch(h, 14, u32(5))


@kernel
def all_u64(x: Vec[u64], h: Vec[u64], old: Vec[u64]):
    i = global_thread_id
    old[i] = atomic_add(h, x[i] % u64(4), u64(1))  # a u64 index converts to i32
    atomic_max(h, 4, x[i] * u64(1000000000000000000))
    atomic_min(h, 5, x[i] + u64(7))
    atomic_or(h, 6, u64(1) << (x[i] % u64(64)))
    atomic_xor(h, 7, x[i])
    atomic_sub(h, 8, u64(1))
    atomic_inc(h, 9)
    atomic_dec(h, 10)
    atomic_and(h, 11, ~(u64(1) << (x[i] % u64(64))))
    atomic_cas(h, 12, u64(0), u64(9))
    atomic_exch(h, 14, u64(5))


def _expected(x: np.ndarray, bits: int) -> np.ndarray:
    m = (1 << bits) - 1
    v = [int(a) for a in x]
    h = [0] * 15
    for a in v:
        h[a % 4] += 1
    h[4] = max(a * (100000000 if bits == 32 else 10 ** 18) & m for a in v)
    h[5] = min(v) + 7
    for a in v:
        h[6] |= 1 << (a % bits)
        h[7] ^= a
    h[8] = h[10] = -len(v) & m
    h[9] = len(v)
    h[11] = m
    for a in v:
        h[11] &= ~(1 << (a % bits)) & m
    h[12], h[13], h[14] = 9, (sum(v) if bits == 32 else 0), 5
    return np.array(h, dtype=np.uint32 if bits == 32 else np.uint64)


def _start(bits: int) -> np.ndarray:
    h = np.zeros(15, np.uint32 if bits == 32 else np.uint64)
    h[5] = h[11] = (1 << bits) - 1
    return h


_GPU = pytest.mark.gpu
DEVICES: list[Any] = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0",
                      pytest.param("cuda:0", marks=_GPU), pytest.param("ptx:0", marks=_GPU)]
DEVICES_64: list[Any] = ["interp", "interp-ref", "opencl:0",
                         pytest.param("cuda:0", marks=_GPU), pytest.param("ptx:0", marks=_GPU)]


@pytest.mark.parametrize("device", DEVICES)
def test_u32_atomics(device: str):
    x = np.arange(3, 131, dtype=np.uint32)
    h, old = _start(32), np.zeros(len(x), np.uint32)
    all_u32.launch(x, h, old, grid=2, block=64, device=device)
    assert h.tolist() == _expected(x, 32).tolist()
    for slot in range(4):  # each slot's old values are 0..count-1 in some order
        assert sorted(old[x % 4 == slot].tolist()) == list(range(int((x % 4 == slot).sum())))


@pytest.mark.parametrize("device", DEVICES_64)
def test_u64_atomics(device: str):
    x = np.arange(3, 131, dtype=np.uint64)
    h, old = _start(64), np.zeros(len(x), np.uint64)
    all_u64.launch(x, h, old, grid=2, block=64, device=device)
    assert h.tolist() == _expected(x, 64).tolist()
    assert sorted(old[x % 4 == 1].tolist()) == list(range(32))


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    check(all_u32.source(target))
    if target in ("cuda", "hip", "ptx", "opencl"):
        check(all_u64.source(target))


@pytest.mark.parametrize(("target", "why"), [("metal", "Metal: 'atomic_add' on u64 is not supported (Metal atomics "
                                                       "are 32-bit)"),
                                              ("glsl", "GLSL: 'atomic_add' on u64 is not supported (GLSL atomics are "
                                                       "32-bit"),
                                              ("wgsl", "WGSL: int64 not yet supported (WGSL has no 64-bit integers)")])
def test_u64_refused_where_atomics_are_32_bit(target: str, why: str):
    with pytest.raises(CompileError) as e:
        all_u64.source(target)
    assert why in str(e.value) and "test_unsigned_atomics.py:" in str(e.value)
