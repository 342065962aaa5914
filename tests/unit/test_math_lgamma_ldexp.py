"""ldexp, frexp and lgamma (issue 33 item 7) on every target. ldexp is native everywhere but PTX (the math
library's exact bit routine there), frexp is the front end's (the exponent field of the bits: exact on every
target), lgamma is the C family's libm where it has it (CUDA, HIP, OpenCL), else the library's routine (f64 on PTX
and GLSL, f32 through double; the single-precision build on WGSL and Metal). ldexp/frexp agree bit for bit with
numpy; lgamma is measured against mpmath: ulps for x > 0; for x < 0, where lgamma crosses zero, ulps of
max(|lgamma(x)|, 1) (the reflection's cancellation near the zeros)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import mpmath as mp
import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from sarek import Vec, f16, f32, f64, i32, kernel  # noqa: E402
from sarek import math as sm  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402

mp.mp.dps = 30
_GPU = pytest.mark.gpu


@kernel
def lg32(x: Vec[f32], o: Vec[f32]):
    i = global_thread_id
    if i < len(x):
        o[i] = sm.lgamma(x[i])


@kernel
def lg64(x: Vec[f64], o: Vec[f64]):
    i = global_thread_id
    if i < len(x):
        o[i] = sm.lgamma(x[i])


@kernel
def bits32(x: Vec[f32], n: Vec[i32], a: Vec[f32], m: Vec[f32], e: Vec[i32]):
    i = global_thread_id
    if i < len(x):
        a[i] = sm.ldexp(x[i], n[i])
        mm, ee = sm.frexp(x[i])
        m[i] = mm
        e[i] = ee


@kernel
def bits64(x: Vec[f64], n: Vec[i32], a: Vec[f64], m: Vec[f64], e: Vec[i32]):
    i = global_thread_id
    if i < len(x):
        a[i] = sm.ldexp(x[i], n[i])
        m[i] = sm.frexp(x[i])[0]
        e[i] = sm.frexp(x[i])[1]


@kernel
def bits16(x: Vec[f16], n: Vec[i32], a: Vec[f16], m: Vec[f16], e: Vec[i32]):
    i = global_thread_id
    if i < len(x):
        a[i] = sm.ldexp(x[i], n[i])
        mm, ee = sm.frexp(x[i])  # an f32 mantissa (exact), as C promotes a half
        m[i] = f16(mm)
        e[i] = ee


def _ref(v: float) -> Any:
    if v != v:
        return mp.nan
    if abs(v) == float("inf") or v <= 0 and v == int(v):
        return mp.inf
    return mp.loggamma(v).real if v > 0 else mp.log(abs(mp.gamma(v)))


def _ulps(got: Any, xs: Any, floor1: bool) -> float:
    """The largest error in ulps of the result (`floor1`: of max(|result|, 1)); NaN, inf must match exactly."""
    dt = got.dtype.type
    worst = 0.0
    for g, x in zip(got, xs):
        r = _ref(float(x))
        rf = dt(float(r))
        if np.isnan(rf) or np.isinf(rf):
            assert (np.isnan(rf) and np.isnan(g)) or g == rf, (x, g, r)
            continue
        scale = np.spacing(max(abs(rf), dt(1.0)) if floor1 else abs(rf)) if rf != 0 else np.spacing(dt(1.0))
        worst = max(worst, abs(float(g) - float(r)) / float(scale))
    return worst


_POS = np.concatenate([np.linspace(0.01, 12, 600), np.geomspace(1e-30, 1e30, 90),
                       [0.5, 1, 2, 1.5, 2.5, 1.4616321, 9.999, 10, 10.001, 1e-7, 3e36, 0.0, np.inf, np.nan]])
_NEG = -np.concatenate([np.linspace(0.5, 12, 577) + 0.0013, [0.5, 1.5, 2.4571504, 7.25, 1e5 + 0.5, 3.0, np.inf]])
# (device, f32 bounds (x > 0, x < 0), f64 bounds or None where the device has no f64)
CASES: list[Any] = [
    ("interp", (1, 1), (2, 2)), ("interp-ref", (1, 1), (2, 2)),   # the C library's lgamma, rounded
    ("opencl:0", (1, 1), (1, 1)),                                  # pocl's libm
    ("vulkan-glsl:0", (1, 1), (3, 4)),                             # the f64 routine (f32 through double)
    ("vulkan:0", (8, 10), None),                                   # the single-precision build, the driver's log
    pytest.param("cuda:0", (6, 6), (4, 4), marks=_GPU),           # CUDA's libm (documented: 6 ulp f32, 4 f64)
    pytest.param("ptx:0", (1, 1), (3, 4), marks=_GPU),
    pytest.param("vulkan-glsl:0", (1, 1), (3, 4), marks=_GPU, id="nvidia-vulkan-glsl"),  # the H200's driver
]


@pytest.mark.parametrize(("device", "b32", "b64"), CASES)
def test_lgamma_ulps(device: str, b32: tuple[int, int], b64: tuple[int, int] | None):
    for k, dt, bounds in ((lg32, np.float32, b32), (lg64, np.float64, b64)):
        if bounds is None:
            continue
        got = []
        for xs, floor1 in ((_POS, False), (_NEG, True)):
            x = xs.astype(dt)
            if device.startswith("vulkan"):  # Vulkan may flush subnormal inputs
                x = x[~((np.abs(x) < np.finfo(dt).tiny) & (x != 0))]
            o = np.zeros_like(x)
            k.launch(x, o, grid=(len(x) + 63) // 64, block=64, device=device)
            got.append(_ulps(o, x, floor1))
        assert all(g <= b for g, b in zip(got, bounds)), (dt, got, bounds)


def _bit_cases(dt: Any) -> tuple[Any, Any]:
    fi = np.finfo(dt)
    x = np.array([0.5, 1.0, -3.0, 2.01, 0.75, -0.1, 1e-3, 123.25, fi.max, -fi.max, fi.tiny, fi.tiny / 4,
                  fi.smallest_subnormal, -fi.smallest_subnormal * 3, np.inf, -np.inf, np.nan, 0.0, -0.0, 7.0,
                  1.5, 1.5, 1.5, 1.5, 3.0, 3.0], dt)
    mx = fi.maxexp - fi.minexp
    n = np.array([3, -1, 10, -5, 0, 7, 12, -30, -1, 1, -3, 2, 5, 1, 1, -1, 3, 100, -100, 4000, -mx - 20, mx + 20,
                  fi.minexp - fi.nmant, fi.minexp - fi.nmant - 1, -2**31, 2**31 - 1], np.int32)
    return x, n


# ldexp native on these devices (PTX's is the library's: test_library_ldexp_exact); Vulkan flushes subnormals
@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0", "vulkan-glsl:0", "vulkan:0"])
def test_ldexp_frexp_exact(device: str):
    for k, dt in ((bits32, np.float32), (bits64, np.float64), (bits16, np.float16)):
        if dt == np.float64 and device == "vulkan:0":
            continue
        x, n = _bit_cases(dt)
        if device.startswith("vulkan"):
            with np.errstate(all="ignore"):
                keep = ~(((np.abs(x) < np.finfo(dt).tiny) & (x != 0)) |
                         ((np.abs(np.ldexp(x.astype(np.float64), n)) < np.finfo(dt).tiny) & (x != 0)))
            x, n = x[keep], n[keep]
        a, m = np.zeros_like(x), np.zeros_like(x)
        e = np.zeros(len(x), np.int32)
        k.launch(x, n, a, m, e, grid=1, block=64, device=device)
        with np.errstate(all="ignore"):
            want = np.ldexp(x.astype(np.float64), n.astype(np.int64)).astype(dt) if dt == np.float16 \
                else np.ldexp(x, n)
        wm, we = np.frexp(x)
        np.testing.assert_array_equal(a, want, err_msg=f"{dt} ldexp")
        np.testing.assert_array_equal(m, wm, err_msg=f"{dt} frexp mantissa")
        np.testing.assert_array_equal(e, np.where(np.isfinite(x), we, 0), err_msg=f"{dt} frexp exponent")


def _expanded(name: str, target: str, dt: Any) -> Any:
    from xdsl.dialects.builtin import f32 as t32
    from xdsl.dialects.builtin import f64 as t64

    from sarek.mathlib.kernels import elementwise
    from sarek.passes.expand_math import ExpandMathPass
    from sarek.tools.ir import make_context

    m = elementwise(name, t64 if dt == np.float64 else t32)
    ExpandMathPass(target=target).apply(make_context(), m)
    return m


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_library_ldexp_exact(dt: Any):
    """PTX's ldexp is the library's routine (f32 through double): exact, subnormal results rounded once."""
    x, n = _bit_cases(dt)
    out = np.zeros_like(x)
    rt.launch((_expanded("ldexp", "ptx", dt), "apply"), [x.copy(), n, out], grid=1, block=64, device="interp")
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, np.ldexp(x, n))


@pytest.mark.parametrize(("target", "dt", "bounds"), [("ptx", np.float64, (3, 4)), ("glsl", np.float64, (3, 4)),
                                                      ("wgsl", np.float32, (9, 10))])
def test_library_lgamma(target: str, dt: Any, bounds: tuple[int, int]):
    """The library's lgamma on the interpreter (the WGSL build with an exact log); no multiply feeds an add (a
    device that contracts computes the same bits)."""
    from sarek.dialect import sarek as s

    m = _expanded("lgamma", target, dt)

    def is_mul(v: Any) -> bool:
        return isinstance(v.owner, s.BinOp) and v.owner.op == "mul"

    assert not [o for o in m.walk() if isinstance(o, s.BinOp) and o.op in ("add", "sub")
                and "f" in str(o.lhs.type) and (is_mul(o.lhs) or is_mul(o.rhs))]
    got = []
    for xs, floor1 in ((_POS, False), (_NEG, True)):
        x = xs.astype(dt)
        out = np.zeros_like(x)
        rt.launch((m, "apply"), [x.copy(), out], grid=(len(x) + 63) // 64, block=64, device="interp")
        got.append(_ulps(out, x, floor1))
    assert all(g <= b for g, b in zip(got, bounds)), (got, bounds)


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    for k in (lg32, bits32, lg64, bits64):
        if target in ("wgsl", "metal") and k in (lg64, bits64):
            continue
        check(k.source(target))


def test_host_forms():
    assert sm.ldexp(0.75, 4) == 12.0 and sm.frexp(12.0) == (0.75, 4) and sm.frexp(0.0) == (0.0, 0)
    assert abs(sm.lgamma(0.5) - 0.5723649429247001) < 1e-15 and sm.lgamma(-2.0) == np.inf


def test_refusals():
    with pytest.raises(SarekError, match=r"needs an integer exponent second, got f32"):
        @kernel
        def bad(x: Vec[f32]):
            x[0] = sm.ldexp(x[0], x[1])

        bad.source("cuda")
    with pytest.raises(SarekError, match=r"frexp\(\) needs a float"):
        @kernel
        def bad2(x: Vec[i32]):
            x[0] = sm.frexp(x[0])[1]

        bad2.source("cuda")
