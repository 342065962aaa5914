"""The 8/16-bit, unsigned and bf16 element types (issue 14): C's integer promotions and usual arithmetic
conversions made explicit by the front end, modelled exactly by both interpreters (wraparound, unsigned
division/shift/compare, conversions, bf16 rounding), run on pocl, and every target's source accepted by its
real tool. Kernels: tests/filecheck/targets/Inputs/small_types.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sarek
from sarek import CompileError, Vec, bf16, f32, i8, i16, i32, i64, kernel, u8, u16, u32, u64
from sarek.gpu import global_thread_id
from sarek.types import bf16_from_f32, bf16_to_f32

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("small_types", ROOT / "tests/filecheck/targets/Inputs/small_types.py")
assert _spec is not None and _spec.loader is not None
K: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)

# the H200 (gpu marker): CUDA C through NVRTC and our PTX
DEVICES: list[Any] = ["interp", "interp-ref", "opencl", pytest.param("cuda:0", marks=pytest.mark.gpu),
                      pytest.param("ptx:0", marks=pytest.mark.gpu)]
# lavapipe: WGSL and GLSL, narrow storage as packed 32-bit words (sarek-pack-narrow)
SHADERS = ["vulkan:0", "vulkan-glsl:0"]
N = 64
RNG = np.random.default_rng(14)


def _ints(dt: Any, n: int = N) -> np.ndarray[Any, Any]:
    info = np.iinfo(dt)
    return RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True)


@pytest.mark.parametrize("dev", DEVICES + SHADERS)
def test_narrow_promotions_wrap_on_store(dev: str):
    a, b, c, d = _ints(np.uint8), _ints(np.int8), _ints(np.int16), _ints(np.uint16)
    a[:3], b[:3] = [255, 0, 200], [1, -1, 100]   # 256 -> 0, -1 -> 255, 300 -> 44
    o8, o16 = np.zeros(N, np.uint8), np.zeros(N, np.int16)
    K.narrow.launch(a, b, c, d, o8, o16, N, threads=N, device=dev)
    want8 = (a.astype(np.int64) + b).astype(np.uint8)
    want16 = ((c.astype(np.int64) * d) >> 3).astype(np.int32).astype(np.int16)  # int product, wraps in i32
    np.testing.assert_array_equal(o8, want8)
    np.testing.assert_array_equal(o16, want16)
    assert list(o8[:3]) == [0, 255, 44]


def _refused_on_wgsl(dev: str, k: Any) -> bool:
    """WGSL has no 64-bit integers: a kernel with u64 is refused there with that reason."""
    if dev != "vulkan:0":
        return False
    with pytest.raises(CompileError, match="WGSL: int64 not yet supported \\(WGSL has no 64-bit integers\\)"):
        k.source("wgsl")
    return True


@pytest.mark.parametrize("dev", DEVICES + SHADERS)
def test_unsigned_division_shift_compare(dev: str):
    if _refused_on_wgsl(dev, K.unsigned):
        return
    a = _ints(np.uint32)
    a[:4] = [0xFFFFFFFF, 0x80000000, 7, 0]
    b = _ints(np.uint64)
    b[:3] = [2**64 - 1, 99, 100]
    s = 0x9000_0000  # a divisor beyond i32
    o, q, f = np.zeros(N, np.uint32), np.zeros(N, np.uint64), np.zeros(N, np.int32)
    K.unsigned.launch(a, b, s, o, q, f, N, threads=N, device=dev)
    a64 = a.astype(np.uint64)
    np.testing.assert_array_equal(o, ((a64 // s + (a64 >> 3) % 7) & 0xFFFFFFFF).astype(np.uint32))
    np.testing.assert_array_equal(q, b * np.uint64(3) - a64)
    # i32(-1) < a[i] compares as u32: 0xFFFFFFFF < a is never true
    np.testing.assert_array_equal(f, (a < s).astype(np.int32) + (b >= 100))
    assert o[0] == 1 + (0xFFFFFFFF >> 3) % 7 and o[1] == 0 + (0x80000000 >> 3) % 7


@pytest.mark.parametrize("dev", DEVICES + SHADERS)
@pytest.mark.parametrize("as_bits", [False, True])
def test_bf16_axpy_rounds_to_nearest_even(dev: str, as_bits: bool):
    x32 = RNG.standard_normal(N).astype(np.float32)
    x32[:4] = [1.0, np.float32(1.00390625), np.inf, np.nan]
    x = bf16_from_f32(x32)
    y = bf16_from_f32(RNG.standard_normal(N).astype(np.float32))
    if as_bits:  # the uint16 view works the same as ml_dtypes.bfloat16
        x, y = x.view(np.uint16), y.view(np.uint16)
    y0 = bf16_to_f32(y).copy()
    xf = bf16_to_f32(x)
    want = bf16_from_f32(np.float32(1.5) * xf + y0)  # a*x rounded to f32, + y rounded to f32, then to bf16
    # cuda/ptx contract a*x + y into one fma at the default policy (docs/KERNELS.md, fp policy): one f32
    # rounding of the exact value (exact in f64 here: bf16 operands), then bf16 RNE; `exact` is unfused
    fused = bf16_from_f32((np.float64(1.5) * xf.astype(np.float64) + y0.astype(np.float64)).astype(np.float32))
    # the interpreters never contract; OpenCL C may (FP_CONTRACT is on by default), so a GPU OpenCL may too
    runs = [("default", (want,) if dev.startswith("interp") else (want, fused))]
    if dev.split(":")[0] in ("cuda", "ptx"):
        runs.append(("exact", (want,)))
    for fp, allowed in runs:
        yy = y.copy()
        z = np.zeros(N, np.float32)
        K.bf.launch(1.5, x, yy, z, N, threads=N, device=sarek.get_device(dev, fp=fp if fp == "exact" else None))
        got = yy.view(np.uint16)
        ok = np.zeros(N, bool)
        for w in allowed:
            ok |= got == w.view(np.uint16)
        assert ok.all(), f"fp={fp}: {np.flatnonzero(~ok)[:8]} got {got[~ok][:8]} want {want.view(np.uint16)[~ok][:8]}"
        np.testing.assert_array_equal(z.view(np.uint32), xf.view(np.uint32))


@pytest.mark.parametrize("dev", DEVICES + SHADERS)
def test_rgba_record_of_u8(dev: str):
    p = np.zeros(N, K.Pixel.dtype)
    for f in "rgba":
        p[f] = _ints(np.uint8)
    assert K.Pixel.dtype.itemsize == 4
    before = p.copy()
    o = np.zeros(N, np.uint8)
    K.rgba.launch(p, o, N, threads=N, device=dev)
    np.testing.assert_array_equal(o, (before["r"] // 2 + before["a"] // 2).astype(np.uint8))
    np.testing.assert_array_equal(p["g"], 255 - before["g"])
    np.testing.assert_array_equal(p["r"], before["r"])


# ------------------------------------------------------------------------------------------------ edge cases


@kernel
def conversions(o32: Vec[u32], o64: Vec[u64], s: Vec[i32], f: Vec[f32], x: i8, big: u32, w: u64, v: f32,
                h: bf16):
    o32[0] = x                       # i8 -1 -> u32 4294967295 (sign-extended, then modulo 2^32)
    o32[1] = big // 3000000000       # unsigned division by a divisor beyond i32
    o32[2] = big >> 31               # logical shift
    o32[3] = u32(u8(x) + u8(200))    # u8 -1 is 255; 255 + 200 promotes to int 455
    o32[4] = u8(x) + u8(200)         # the same, converted on the store
    o32[5] = -big                    # unsigned negation wraps
    o32[6] = u32(v)                  # float -> unsigned saturates (-5.5 -> 0)
    o32[7] = u32(i16(40000))         # 40000 -> i16 -25536 -> u32 4294941760
    o64[0] = w
    o64[1] = w >> 63
    o64[2] = u64(x)                  # i8 -1 -> u64 all ones
    s[0] = i32(w > u64(1))           # u64 compare above 2^63
    s[1] = i32(x < big)              # -1 converts to u32: false
    s[2] = i32(i64(x) < i64(big))    # as i64: true
    s[3] = i32(u8(300))              # a constant cast wraps: 44
    s[4] = i32(i8(u8(200)))          # 200 as i8 is -56
    s[5] = u16(x) * u16(x)           # 65535 * 65535 is computed in int: wraps to -131071
    s[6] = i32(u8(v))                # -5.5 saturates to 0
    s[7] = u8(x) // 2                # 255 // 2
    f[0] = f32(h)
    f[1] = f32(bf16(v * 3.0))        # -16.5 is a bf16 value
    f[2] = f32(bf16(1.00390625))     # halfway between bf16 1.0 and 1.0078125: even -> 1.0
    f[3] = f32(bf16(1.01171875))     # halfway, odd below: up to 1.015625
    f[4] = f32(big)                  # u32 -> f32 rounds
    f[5] = f32(u8(x))


@pytest.mark.parametrize("dev", DEVICES + SHADERS)
def test_conversion_edge_cases(dev: str):
    if _refused_on_wgsl(dev, conversions):
        return
    o32, o64 = np.zeros(8, np.uint32), np.zeros(3, np.uint64)
    s, f = np.zeros(8, np.int32), np.zeros(6, np.float32)
    big, w = 0xF000_0001, 2**63 + 5
    conversions.launch(o32, o64, s, f, -1, big, w, -5.5, 2.5, threads=1, device=dev)
    assert list(o32) == [2**32 - 1, 1, 1, 455, 455, 2**32 - big, 0, 2**32 - 25536]
    assert list(o64) == [w, 1, 2**64 - 1]
    assert list(s) == [1, 0, 1, 44, -56, -131071, 0, 127]
    assert list(f) == [2.5, -16.5, 1.0, 1.015625, float(np.float32(big)), 255.0]


# ------------------------------------------------------------------------------------------------ front end


def test_front_end_makes_promotions_explicit():
    ir = K.narrow.ir()
    assert "sarek.cast %" in ir and ": ui8 to i32" in ir and ": i8 to i32" in ir and ": i32 to ui8" in ir
    assert "binop add" in ir and ": i32" in ir
    assert ": ui8\n" not in ir.split("binop")[1].split("\n")[0]
    ir = K.bf.ir()
    assert ": bf16 to f32" in ir and ": f32 to bf16" in ir and "binop mul" in ir


def _compile_error(fn: Any) -> str:
    with pytest.raises(CompileError) as e:
        sarek.compile(fn)
    return str(e.value)


def test_literal_that_does_not_fit_is_located():
    @kernel
    def k(a: Vec[u32]):
        a[0] = a[0] + -1

    msg = _compile_error(k)
    assert "error: integer literal -1 does not fit in u32" in msg and "a[0] + -1" in msg


def test_int_float_mix_stays_explicit():
    @kernel
    def k(a: Vec[u8], o: Vec[f32]):
        o[0] = a[0] * 2.0

    assert "type mismatch in '*': i32 and f32" in _compile_error(k)


def test_unsigned_range_bound_is_refused_with_a_fix():
    @kernel
    def k(a: Vec[u32], n: u32):
        for i in range(n):
            a[i] = u32(i)

    assert "range bounds must be i32 or i64, got u32 (convert it, e.g. range(i32(n)))" in _compile_error(k)


def test_usual_arithmetic_conversions():
    @kernel
    def k(a: Vec[u32], b: Vec[i64], c: Vec[u64], o: Vec[i64], p: Vec[u64]):
        o[0] = a[0] + b[0]      # u32 + i64 -> i64
        p[0] = b[0] + c[0]      # i64 + u64 -> u64

    ir = k.ir()
    assert "binop add %" in ir and "ui32 to i64" in ir and "i64 to ui64" in ir


def test_host_casts_wrap_like_kernels():
    assert u8(300) == 44 and i8(200) == -56 and u32(-1) == 2**32 - 1 and u16(-1) == 65535
    assert float(bf16_to_f32(np.asarray(bf16(1.00390625)))) == 1.0
    assert np.dtype(u8.np_dtype) == np.uint8 and np.dtype(i16.np_dtype) == np.int16 and u64.np_dtype == np.uint64


# ------------------------------------------------------------------------------------------------ launch errors


def test_launch_names_the_parameter_and_dtypes():
    with pytest.raises(sarek.LaunchError) as e:
        K.narrow.launch(np.zeros(4, np.int32), np.zeros(4, np.int8), np.zeros(4, np.int16), np.zeros(4, np.uint16),
                        np.zeros(4, np.uint8), np.zeros(4, np.int16), 4, threads=4)
    assert "argument 'a' (#1) expects a vector of uint8, got an array of int32" in str(e.value)
    with pytest.raises(sarek.LaunchError) as e:
        K.bf.launch(1.0, np.zeros(4, np.float32), np.zeros(4, np.uint16), np.zeros(4, np.float32), 4, threads=4)
    assert "argument 'x' (#2) expects a vector of bfloat16" in str(e.value)
    with pytest.raises(sarek.LaunchError) as e:
        K.unsigned.launch(np.zeros(4, np.uint32), np.zeros(4, np.uint64), -1, np.zeros(4, np.uint32),
                          np.zeros(4, np.uint64), np.zeros(4, np.int32), 4, threads=4)
    assert "argument 's' (#3): -1 does not fit in uint32" in str(e.value)


def test_vector_of_bf16_either_representation():
    x = sarek.Vector(bf16_from_f32(np.arange(8, dtype=np.float32)))
    y = sarek.Vector(np.zeros(8, np.uint16))
    z = np.zeros(8, np.float32)
    K.bf.launch(2.0, x, y, z, 8, threads=8)
    np.testing.assert_array_equal(bf16_to_f32(y.to_numpy()), np.arange(8, dtype=np.float32) * 2)


# ------------------------------------------------------------------------------------------------ validators


VALIDATED = {"cuda": ["narrow", "unsigned", "bf", "rgba", "conversions"], "opencl": ["narrow", "unsigned", "bf", "rgba", "conversions"],
             "metal": ["narrow", "unsigned", "bf", "rgba", "conversions"], "ptx": ["narrow", "unsigned", "bf", "rgba", "conversions"],
             "hip": ["rgba", "conversions"]}


@pytest.mark.parametrize("target,name", [(t, n) for t, ns in VALIDATED.items() for n in ns])
def test_every_target_output_compiles(target: str, name: str):
    import importlib

    check = importlib.import_module(f"sarek.validate.{target}").check
    k = conversions if name == "conversions" else getattr(K, name)
    check(k.source(target))
