"""sarek-pack-narrow (GLSL/WGSL storage of 8/16-bit integers and bf16 as 32-bit words): the reference
interpreter gives the same results before and after the pass, on the corpus kernels the pass changes, on
the small-type kernels of tests/filecheck/targets/Inputs/small_types.py and on random conversions (edge values,
NaN and infinities included)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from sarek import Vec, bf16, f32, i8, i16, i32, kernel, record, u8, u16
from sarek.gpu import global_thread_id
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import KernelOp
from sarek.interp import reference
from sarek.passes.pack_narrow import PackNarrowPass
from sarek.registry import make_context, print_module
from sarek.runtime.conformance import corpus
from sarek.runtime.core import dim3
from sarek.types import BF16_DTYPE

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("small_types", ROOT / "tests/filecheck/targets/Inputs/small_types.py")
assert _spec is not None and _spec.loader is not None
K: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)


def _packed(module: ModuleOp, target: str = "wgsl") -> ModuleOp:
    m = module.clone()
    PackNarrowPass(target=target).apply(make_context(), m)
    m.verify()
    return m


def _copy(args: list[Any]) -> list[Any]:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _bits(a: Any) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def _same(module: ModuleOp, name: str, args: list[Any], grid: Any, block: Any) -> ModuleOp:
    """Run `name` on the reference interpreter before and after the pass; every argument ends byte-equal."""
    g, b = dim3(grid, "grid"), dim3(block, "block")
    before, after = _copy(args), _copy(args)
    reference.run(module, name, before, g, b)
    packed = _packed(module)
    reference.run(packed, name, after, g, b)
    for x, y in zip(before, after):
        if isinstance(x, np.ndarray) and x.dtype.names:  # records field by field (copies leave padding as is)
            assert all(_bits(x[f]) == _bits(y[f]) for f in x.dtype.names), f"{name}: {x!r} != {y!r}"
        elif isinstance(x, np.ndarray):
            assert x.tobytes() == y.tobytes(), f"{name}: {x!r} != {y!r}"
    return packed


def _interface_held(module: ModuleOp) -> bool:
    """False when the pass refuses the kernel's interface at its end (WGSL cannot hold it: a refusal located at
    the kernel op, sarek.analysis.features.check_shader_interface); the packing itself must not fail."""
    try:
        _packed(module)
    except SarekError as e:
        assert isinstance(e.op, KernelOp), e
        return False
    return True


# the shader targets (the pass's only users) refuse cooperative matrices in sarek-reject-features, before the pass
CASES = [c for c in corpus()[0] if "sarek.coopmat" not in print_module(c.module_and_name[0])
         and _interface_held(c.module_and_name[0])]
CHANGED = [c for c in CASES
           if print_module(c.module_and_name[0]) != print_module(_packed(c.module_and_name[0]))]


def test_the_corpus_has_narrow_kernels():
    assert len(CHANGED) >= 5, [c.name for c in CHANGED]


@pytest.mark.parametrize("case", CHANGED, ids=lambda c: c.name)
def test_corpus_kernel_same_before_and_after(case: Any):
    from sarek.runtime.specs import kernel_spec
    from sarek.vectors import as_elements

    module, name = case.module_and_name
    args = list(case.make_args(np.random.default_rng(3)))
    # the runtime views an (n, k) array of a short vector's lanes as its records; the raw interpreter does not
    args = [v if isinstance(a, np.ndarray) and (v := as_elements(a, p.dtype)) is not None else a
            for a, p in zip(args, kernel_spec(module, name).params)]
    packed = _same(module, name, args, case.grid, case.block)
    text = print_module(packed)
    for t in ("ui8", "i8,", "ui16", "i16", "bf16"):
        assert f": {t}" not in text and f"<{t}" not in text, t


N = 48
RNG = np.random.default_rng(41)


def _ints(dt: Any) -> np.ndarray[Any, Any]:
    info = np.iinfo(dt)
    return RNG.integers(info.min, info.max, N, dtype=dt, endpoint=True)


def test_small_type_kernels_same_before_and_after():
    o8, o16 = np.zeros(N, np.uint8), np.zeros(N, np.int16)
    _same(K.narrow.module, "narrow", [_ints(np.uint8), _ints(np.int8), _ints(np.int16), _ints(np.uint16), o8, o16,
                                      np.int32(N)], N, N)
    x = RNG.standard_normal(N).astype(np.float32)
    x[:3] = [np.inf, np.nan, -0.0]
    bits = (x.view(np.uint32) >> 16).astype(np.uint16)
    _same(K.bf.module, "bf", [1.5, bits, bits[::-1].copy(), np.zeros(N, np.float32), np.int32(N)], N, N)
    p = np.zeros(N, K.Pixel.dtype)
    for f in "rgba":
        p[f] = _ints(np.uint8)
    _same(K.rgba.module, "rgba", [p, np.zeros(N, np.uint8), np.int32(N)], N, N)


@kernel
def narrowing(x: Vec[i32], f: Vec[f32], a: Vec[u8], b: Vec[i8], c: Vec[u16], d: Vec[i16], e: Vec[bf16],
              o: Vec[i32], g: Vec[i32]):
    """Every conversion to a narrow type (from integers, floats and bf16; floats saturate, NaN is 0), stored to
    neighbouring elements (shared words), then read back."""
    i = global_thread_id
    if i < len(x):
        a[i] = u8(x[i])
        b[i] = i8(x[i])
        c[i] = u16(x[i])
        d[i] = i16(x[i])
        e[i] = bf16(f[i])
        o[i] = i32(a[i]) + i32(b[i]) * 3 + i32(c[i]) * 5 + i32(d[i]) * 7 + i32(i8(c[i])) + i32(u16(b[i]))
        g[i] = i32(u8(f[i])) + i32(i8(f[i])) * 256 + i32(i16(f[i])) * 7 + i32(u16(e[i])) * 3 + i32(i8(e[i]))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=13),
       st.lists(st.floats(width=32, allow_nan=True, allow_infinity=True), min_size=1, max_size=13))
def test_conversions_same_before_and_after(xs: list[int], fs: list[float]):
    n = min(len(xs), len(fs))
    x, f = np.array(xs[:n], np.int32), np.array(fs[:n], np.float32)
    args = [x, f, np.zeros(n, np.uint8), np.zeros(n, np.int8), np.zeros(n, np.uint16), np.zeros(n, np.int16),
            np.zeros(n, np.uint16), np.zeros(n, np.int32), np.zeros(n, np.int32)]
    _same(narrowing.module, "narrowing", args, 1, n)


@pytest.mark.parametrize("dev", ["vulkan:0", "vulkan-glsl:0"])
def test_conversions_on_the_shader_devices_match_the_interpreter(dev: str):
    """The packed lowering on lavapipe gives the interpreter's bits: wraps, sign extensions, saturating float
    conversions (inf, NaN), bf16 rounding, neighbouring stores to one word."""
    x = np.array([0, 1, -1, 255, 256, -129, 40000, -40000, 2**31 - 1, -2**31, 65535, 65536, 300], np.int32)
    f = np.array([-5.5, 300.7, -200.2, 1e10, -1e10, np.inf, -np.inf, np.nan, 0.5, 127.9, -128.9, 65535.5, 1.00390625],
                 np.float32)
    n = len(x)

    def args() -> list[Any]:
        return [x.copy(), f.copy(), np.zeros(n, np.uint8), np.zeros(n, np.int8), np.zeros(n, np.uint16),
                np.zeros(n, np.int16), np.zeros(n, np.uint16), np.zeros(n, np.int32), np.zeros(n, np.int32)]

    want, got = args(), args()
    narrowing.launch(*want, threads=n, device="interp-ref")
    narrowing.launch(*got, threads=n, device=dev)
    for w, g in zip(want, got):
        assert w.tobytes() == g.tobytes(), (w, g)


@kernel
def bump(a: Vec[u8]):
    i = global_thread_id
    if i < len(a):
        a[i] = u8(i32(a[i]) + 1)


@pytest.mark.parametrize("dev", ["vulkan:0", "vulkan-glsl:0"])
def test_resident_vector_of_u8_on_the_shader_devices(dev: str):
    """A sarek.Vector of 37 u8 (not a whole number of words) stays on the device in packed form between
    launches and comes back as its bytes."""
    from sarek import Vector

    h = np.arange(250, 287).astype(np.uint8)
    v = Vector(h.copy())
    bump.launch(v, threads=len(h), device=dev)
    bump.launch(v, threads=len(h), device=dev)
    np.testing.assert_array_equal(v.to_numpy(), (h.astype(np.int32) + 2).astype(np.uint8))


@record
class Mixed:
    a: u8
    b: i16
    c: bf16
    d: f32
    e: i8


@kernel
def by_value(m: Mixed, o: Vec[f32]):
    o[0] = f32(m.a)
    o[1] = f32(m.b)
    o[2] = f32(m.c)
    o[3] = m.d
    o[4] = f32(m.e)


def _mixed() -> np.ndarray[Any, Any]:
    m = np.zeros((), Mixed.dtype)
    m["a"], m["b"], m["d"], m["e"] = 250, -30000, 2.5, -7
    m["c"] = np.array([1.5], np.float32).astype(BF16_DTYPE).view(m["c"].dtype)[0] if BF16_DTYPE != np.uint16 \
        else np.uint16(0x3FC0)
    return m


def test_record_of_narrow_fields_by_value_same_before_and_after():
    _same(by_value.module, "by_value", [_mixed(), np.zeros(5, np.float32)], 1, 1)


@pytest.mark.parametrize("dev", ["interp-ref", "vulkan:0", "vulkan-glsl:0"])
def test_record_of_narrow_fields_by_value(dev: str):
    """A record holding u8/i16/bf16/i8 fields passed by value: the shader takes the fields widened to 32
    bits; the runtime converts the host's aligned bytes."""
    m = _mixed()
    o = np.zeros(5, np.float32)
    by_value.launch(m, o, threads=1, device=dev)
    assert list(o) == [250.0, -30000.0, 1.5, 2.5, -7.0]
