"""Atomics on elements of N-D arrays (issue 33 item 5): `atomic_add(a, (i, j), x)` with one index per dimension,
on Array[T, N] parameters and N-D shared arrays, flattened row-major by the front end (each index checked
against its extent with debug=True). Agrees with numpy on the interpreters, pocl and lavapipe (WGSL, GLSL); the
sources pass every target's validator; a wrong number of indices is refused with the form to write."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek import Array, Vec, f32, i32, kernel, u32  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.gpu import atomic_add, atomic_max, barrier, global_thread_id, shared, thread_idx_x  # noqa: E402


@kernel
def hist2(x: Vec[i32], h: Array[u32, 2], m: Array[f32, 2], top: Array[i32, 3]):
    i = global_thread_id
    if i < len(x):
        atomic_add(h, (x[i] % 3, x[i] % 5), u32(1))
        atomic_add(m, (i % 2, x[i] % 4), f32(0.5))
        atomic_max(top, (i % 2, x[i] % 3, i % 4), x[i])


@kernel
def shared2(x: Vec[i32], out: Vec[i32]):
    t = shared(i32, (4, 8))
    tid = thread_idx_x
    if tid < 32:
        t[tid // 8, tid % 8] = 0
    barrier()
    atomic_add(t, (x[tid] % 4, x[tid] % 8), 1)
    barrier()
    if tid < 32:
        out[tid] = t[tid // 8, tid % 8]


@kernel
def out_of_bounds(h: Array[i32, 2]):
    atomic_add(h, (0, 7), 1)  # row 0, column 7 of a 3 x 5 array: inside the storage, outside the row


def _want(x: Any) -> tuple[Any, Any, Any, Any]:
    h = np.zeros((3, 5), np.uint32)
    m = np.zeros((2, 4), np.float32)
    top = np.full((2, 3, 4), -1, np.int32)
    sh = np.zeros((4, 8), np.int32)
    for i, v in enumerate(x):
        h[v % 3, v % 5] += 1
        m[i % 2, v % 4] += 0.5
        top[i % 2, v % 3, i % 4] = max(top[i % 2, v % 3, i % 4], v)
        sh[v % 4, v % 8] += 1
    return h, m, top, sh.reshape(-1)


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"])
def test_nd_atomics_run(device: str):
    x = (np.arange(64) * 7 + 3).astype(np.int32)
    h, m, top = np.zeros((3, 5), np.uint32), np.zeros((2, 4), np.float32), np.full((2, 3, 4), -1, np.int32)
    hist2.launch(x, h, m, top, grid=1, block=64, device=device)
    out = np.zeros(32, np.int32)
    shared2.launch(x, out, grid=1, block=64, device=device)
    wh, wm, wt, ws = _want(x)
    np.testing.assert_array_equal(h, wh)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(top, wt)
    np.testing.assert_array_equal(out, ws)


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_nd_atomic_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    for k in (hist2, shared2):
        check(k.source(target))


def test_nd_atomic_index_checked_in_debug_mode():
    h = np.zeros((3, 5), np.int32)
    with pytest.raises(SarekError, match="atomic_add: index 1 is out of bounds of the array's dimension 1"):
        out_of_bounds.launch(h, grid=1, block=1, device="interp", debug=True)


def test_wrong_number_of_indices_refused():
    @kernel
    def bad(h: Array[i32, 2]):
        atomic_add(h, 1, 1)

    with pytest.raises(SarekError, match=r"atomic_add\(\) on Array\[i32, 2\] takes a tuple of 2 indices, e.g. "
                                         r"atomic_add\(a, \(i, j\), x\), got 1"):
        bad.source("cuda")
