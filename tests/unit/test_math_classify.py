"""isnan / isinf / isfinite and clamp (issue 33 item 7): the same answers as numpy on the interpreters, pocl,
lavapipe (WGSL and the GLSL driver) and, `gpu`-marked, the H200's cuda and ptx, for NaN (either sign), the
infinities, the largest finite values, subnormals and -0.0; f64 where the device has it, f16 on the
interpreters; the sources validate on every target."""

from __future__ import annotations

import math
import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek import Vec, f16, f32, f64, i32, kernel, u32  # noqa: E402
from sarek import math as sm  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402


@kernel
def classify32(x: Vec[f32], o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(sm.isnan(x[i])) + 2 * i32(math.isinf(x[i])) + 4 * i32(sm.isfinite(x[i]))


@kernel
def classify64(x: Vec[f64], o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(math.isnan(x[i])) + 2 * i32(sm.isinf(x[i])) + 4 * i32(math.isfinite(x[i]))


@kernel
def classify16(x: Vec[f16], o: Vec[i32]):
    i = global_thread_id
    o[i] = i32(sm.isnan(x[i])) + 2 * i32(sm.isinf(x[i])) + 4 * i32(sm.isfinite(x[i]))


@kernel
def clamps(x: Vec[f32], u: Vec[u32], k: Vec[i32], o: Vec[f32], ou: Vec[u32], ok: Vec[i32]):
    i = global_thread_id
    o[i] = sm.clamp(x[i], -1.0, 2.0)
    ou[i] = sm.clamp(u[i], u32(5), u32(3000000000))
    ok[i] = sm.clamp(k[i], -3, 7)


def _specials(dt: Any) -> np.ndarray:
    fi = np.finfo(dt)
    v = [0.0, -0.0, 1.0, -2.5, np.nan, -np.nan, np.inf, -np.inf, fi.max, -fi.max, fi.tiny, fi.tiny / 4]
    bits = np.array(v, dt)
    return np.concatenate([bits, np.frombuffer(np.array([0x7FC00001 if dt == np.float32 else 0x7FF8000000000001],
                                                        np.uint32 if dt == np.float32 else np.uint64).tobytes(), dt)])


def _expected(x: np.ndarray) -> list[int]:
    return (np.isnan(x) * 1 + np.isinf(x) * 2 + np.isfinite(x) * 4).tolist()


_GPU = pytest.mark.gpu
DEVICES: list[Any] = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0",
                      pytest.param("cuda:0", marks=_GPU), pytest.param("ptx:0", marks=_GPU)]


@pytest.mark.parametrize("device", DEVICES)
def test_classify(device: str):
    x = _specials(np.float32)
    o = np.zeros(len(x), np.int32)
    classify32.launch(x, o, grid=1, block=len(x), device=device)
    assert o.tolist() == _expected(x)
    if device != "vulkan:0":  # WGSL has no f64
        y = _specials(np.float64)
        o = np.zeros(len(y), np.int32)
        classify64.launch(y, o, grid=1, block=len(y), device=device)
        assert o.tolist() == _expected(y)


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_classify_f16(device: str):
    x = np.array([0, -1, np.nan, np.inf, -np.inf, 65504, 6e-8], np.float16)
    o = np.zeros(len(x), np.int32)
    classify16.launch(x, o, grid=1, block=len(x), device=device)
    assert o.tolist() == _expected(x)


@pytest.mark.parametrize("device", DEVICES)
def test_clamp(device: str):
    x = np.array([np.nan, -5, -1, 0.5, 2, 7, -np.inf, np.inf, -0.0, 1.9999], np.float32)
    u = np.array([0, 4, 5, 6, 2**31, 3000000000, 3000000001, 2**32 - 1, 7, 1], np.uint32)
    k = np.array([-2**31, -4, -3, 0, 7, 8, 2**31 - 1, 1, 2, 3], np.int32)
    o, ou, ok = np.zeros(10, np.float32), np.zeros(10, np.uint32), np.zeros(10, np.int32)
    clamps.launch(x, u, k, o, ou, ok, grid=1, block=10, device=device)
    assert np.array_equal(o, np.clip(x, -1, 2), equal_nan=True)  # a NaN stays NaN, as numpy's clip
    assert ou.tolist() == np.clip(u, 5, 3000000000).tolist() and ok.tolist() == np.clip(k, -3, 7).tolist()


def test_host_forms():
    assert sm.isnan(float("nan")) and sm.isinf(-math.inf) and not sm.isfinite(math.inf)
    assert sm.clamp(5, 0, 3) == 3 and sm.clamp(-1.0, 0.0, 3.0) == 0.0


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    check(classify32.source(target))
    check(clamps.source(target))
    if target not in ("wgsl", "metal"):
        check(classify64.source(target))
