"""The documented conversions, the same on every device (issue 34): float -> integer truncates toward zero,
saturates to the destination's range and gives 0 for NaN (f16/f32/f64 -> i8 .. u64); bool -> integer is 0/1;
integer -> narrower integer wraps modulo 2^width (like C); `INT_MIN // -1` is INT_MIN and `INT_MIN % -1` is 0.

Every value of the table (NaN, +-inf, -0.0, the exact bounds, the values just inside and outside them) runs on
every CPU device (both interpreters, pocl, WGSL and GLSL on lavapipe) and, marked `gpu`, on every H200 device
(cuda, ptx, NVIDIA OpenCL, Vulkan WGSL and GLSL). The expected values come from Python integers here, not
from the interpreter. A source type or destination a target refuses (sarek.analysis.features.CAPABILITIES:
f16 on OpenCL and the shaders, f64 and 64-bit integers on WGSL) is left out for that device only."""

from __future__ import annotations

import math
import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, ModuleOp, f16, f32, f64, i1, i32, i64  # noqa: E402
from xdsl.ir import Attribute  # noqa: E402

from sarek.analysis.features import CAPABILITIES, Feature  # noqa: E402
from sarek.dialect import sarek as s  # noqa: E402
from sarek.dialect import scalars  # noqa: E402
from sarek.dialect.builder import ModuleBuilder  # noqa: E402

INTS: list[Attribute] = [scalars.I8, scalars.U8, scalars.I16, scalars.U16, i32, scalars.U32, i64, scalars.U64]
FLOATS: list[Attribute] = [f16, f32, f64]
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8, "i16": np.int16,
      "u16": np.uint16, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64}

_GPU = pytest.mark.gpu
# (device name, the target whose capabilities it has); "h200-*" names pick the H200's device of that kind
CPU = [("interp", None), ("interp-ref", None), ("opencl:0", "opencl"), ("vulkan:0", "wgsl"),
       ("vulkan-glsl:0", "glsl")]
H200 = [("cuda:0", "cuda"), ("ptx:0", "ptx"), ("h200-opencl", "opencl"), ("h200-vulkan", "wgsl"),
        ("h200-vulkan-glsl", "glsl")]
DEVICES: list[Any] = [pytest.param(d, t, id=d) for d, t in CPU] + [pytest.param(d, t, id=d, marks=_GPU) for d, t in H200]


def _device(name: str) -> Any:
    """A device by name; `h200-<kind>` is that kind's device that is not a CPU implementation (pocl,
    lavapipe/llvmpipe)."""
    if not name.startswith("h200-"):
        return name
    kind = name.removeprefix("h200-")
    found = [d for d in rt.devices() if d.name.split(":")[0] == kind
             and not any(cpu in repr(d).lower() for cpu in ("pocl", "llvmpipe", "lavapipe"))
             and not getattr(d, "is_pocl", False)]
    assert found, f"no H200 {kind} device among {[repr(d) for d in rt.devices()]}; unavailable: {rt.unavailable}"
    return found[0]


def _supports(target: str | None, t: Attribute) -> bool:
    feature = {"f16": Feature.FLOAT16, "f64": Feature.FLOAT64, "i64": Feature.INT64, "u64": Feature.INT64}.get(_name(t))
    return target is None or feature is None or CAPABILITIES.get((target, feature)) is None


def _name(t: Attribute) -> str:
    n = scalars.name(t)
    assert n is not None, t
    return n


def _np(t: Attribute) -> Any:
    return NP[_name(t)]


def _build(params: list[tuple[str, Attribute]], body: Any) -> ModuleOp:
    """Kernel `k(params)`: thread t < len(params[0]) runs body(builder, t)."""
    mb = ModuleBuilder()
    with mb.kernel("k", params) as b:
        t = b.let("t", b.intrinsic("global_thread_id"))
        with b.if_(b.binop("lt", t, b.length(b.params[0]))):
            body(b, t)
    mb.module.verify()
    return mb.module


def _convert_kernel(src: Attribute, dsts: list[Attribute]) -> ModuleOp:
    """Thread t: o_k[t] = dst_k(x[t]) for every destination type."""
    def body(b: Any, t: Any) -> None:
        x, *outs = b.params
        v = b.read(x, t)
        for o, d in zip(outs, dsts):
            b.store(b.elem_ref(o, t), b.cast(v, d))
    return _build([("x", s.VecType(src))] + [(f"o_{_name(d)}", s.VecType(d)) for d in dsts], body)


def float_table(src: Attribute) -> np.ndarray[Any, Any]:
    """NaN, +-inf, -0.0, small fractions, and for every integer type: its bounds, the bounds +- 1/2 and +- 1,
    and the nearest values of `src` just inside and just outside (rounded to `src`, so duplicates are fine)."""
    ft = _np(src)
    vals: list[float] = [math.nan, -math.nan, math.inf, -math.inf, -0.0, 0.0, 0.5, -0.5, 0.999, -0.999, 1.5, -1.5,
                         3e9, 5e9, -3e9, 1e20, -1e20, 65504.0, -65504.0]
    for t in INTS:
        lo, hi = scalars.int_range(t)
        for b in (lo, hi, hi + 1):
            vals += [b - 1, b - 0.5, b, b + 0.5, b + 1]
    with np.errstate(over="ignore"):
        xs = np.array(vals, np.float64).astype(ft)
        fin = np.finfo(ft)
        xs = np.concatenate([xs, [fin.max, -fin.max, fin.tiny]], dtype=ft)
        for t in INTS:
            lo, hi = scalars.int_range(t)
            for b in (lo, hi + 1):  # the representable neighbours of the (power-of-two) bounds
                f = ft(b)
                if np.isfinite(f):
                    xs = np.concatenate([xs, [np.nextafter(f, ft(0)), np.nextafter(f, ft(-b * 2 or -1))]], dtype=ft)
    return xs


def expected(x: Any, dst: Attribute) -> int:
    """The documented conversion, on Python numbers: NaN -> 0, else truncate toward zero and clamp."""
    f = float(x)
    if math.isnan(f):
        return 0
    lo, hi = scalars.int_range(dst)
    if math.isinf(f):
        return hi if f > 0 else lo
    return min(max(math.trunc(f), lo), hi)


def _cases(types: list[Attribute]) -> list[Any]:
    """(device, target, type) for the types the device's target has: refused ones are not generated."""
    return [pytest.param(*p.values, t, id=f"{_name(t)}-{p.id}", marks=p.marks) for t in types for p in DEVICES
            if _supports(p.values[1], t)]


@pytest.mark.parametrize(("dev", "target", "src"), _cases(FLOATS))
def test_float_to_int_saturates_nan_to_zero(dev: str, target: str | None, src: Attribute):
    dsts = [d for d in INTS if _supports(target, d)]
    xs = float_table(src)
    outs = [np.full(len(xs), 0x5A, _np(d)) for d in dsts]
    rt.launch((_convert_kernel(src, dsts), "k"), [xs, *outs], threads=len(xs), block=64, device=_device(dev))
    wrong = [f"{_name(src)} {x!r} -> {_name(d)}: got {int(o[i])}, want {expected(x, d)}"
             for d, o in zip(dsts, outs) for i, x in enumerate(xs) if int(o[i]) != expected(x, d)]
    assert not wrong, f"{len(wrong)} wrong conversions on {dev}:\n" + "\n".join(wrong[:40])


def _int_kernel(src: Attribute, dsts: list[Attribute]) -> ModuleOp:
    """Thread t: o_k[t] = dst_k(x[t]) and b_k[t] = dst_k(x[t] < 0) (bool -> integer)."""
    def body(b: Any, t: Any) -> None:
        x, *rest = b.params
        v = b.read(x, t)
        neg = b.binop("lt", v, b.const(0, src))
        assert neg.type == i1
        for o, bo, d in zip(rest[:len(dsts)], rest[len(dsts):], dsts):
            b.store(b.elem_ref(o, t), b.cast(v, d))
            b.store(b.elem_ref(bo, t), b.cast(neg, d))
    return _build([("x", s.VecType(src))] + [(f"o_{_name(d)}", s.VecType(d)) for d in dsts]
                  + [(f"b_{_name(d)}", s.VecType(d)) for d in dsts], body)


@pytest.mark.parametrize(("dev", "target", "src"), _cases([i32, i64]))
def test_int_narrowing_wraps_and_bool_is_0_or_1(dev: str, target: str | None, src: Attribute):
    dsts = [d for d in INTS if _supports(target, d) and d != src]
    lo, hi = scalars.int_range(src)
    xs = np.array([0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
                   0x12345678, -0x12345678, lo, hi, lo + 1, hi - 1] + ([2**32 - 1, 2**32, 2**40 + 3, -2**40 - 3]
                                                                       if src == i64 else []), _np(src))
    outs = [np.full(len(xs), 0x5A, _np(d)) for d in dsts]
    bools = [np.full(len(xs), 0x5A, _np(d)) for d in dsts]
    rt.launch((_int_kernel(src, dsts), "k"), [xs, *outs, *bools], threads=len(xs), block=64, device=_device(dev))
    for d, o, bo in zip(dsts, outs, bools):
        np.testing.assert_array_equal(o, [scalars.wrap(int(x), d) for x in xs], err_msg=f"{_name(src)} -> {_name(d)}")
        np.testing.assert_array_equal(bo, (xs < 0).astype(_np(d)), err_msg=f"bool -> {_name(d)}")


def _div_kernel(t: Attribute) -> ModuleOp:
    """Thread i: q[i] = a[i] // b[i], r[i] = a[i] % b[i] (run-time operands: nothing folds)."""
    def body(b: Any, i: Any) -> None:
        a, d, q, r = b.params
        x, y = b.read(a, i), b.read(d, i)
        b.store(b.elem_ref(q, i), b.binop("div", x, y))
        b.store(b.elem_ref(r, i), b.binop("rem", x, y))
    return _build([("a", s.VecType(t)), ("b", s.VecType(t)), ("q", s.VecType(t)), ("r", s.VecType(t))], body)


@pytest.mark.parametrize(("dev", "target", "t"), _cases([i32, i64]))
def test_int_min_by_minus_one_wraps(dev: str, target: str | None, t: Attribute):
    """INT_MIN // -1 = INT_MIN (the quotient wraps) and INT_MIN % -1 = 0, beside ordinary truncating cases."""
    lo, hi = scalars.int_range(t)
    a = np.array([lo, lo, lo, -7, 7, -7, hi, lo + 1, 5], _np(t))
    b = np.array([-1, 1, 2, 2, -2, -2, -1, -1, 7], _np(t))
    q, r = np.zeros_like(a), np.zeros_like(a)
    rt.launch((_div_kernel(t), "k"), [a, b, q, r], threads=len(a), block=64, device=_device(dev))
    assert list(map(int, q)) == [lo, lo, lo // 2, -3, -3, 3, -hi, hi, 0]
    assert list(map(int, r)) == [0, 0, 0, -1, 1, -1, 0, 0, 5]
