"""sarek-expand-math and the sarek math library: the expanded routines give the same bits on the interpreter
as on the devices that run them (lavapipe GLSL, pocl OpenCL running the expanded IR), within 2 ulp of mpmath
on their domains, and the f32 forms PTX uses keep f32 accuracy. A missing device fails (never skips)."""

from __future__ import annotations

import math
import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from xdsl.dialects.builtin import ModuleOp, f32, f64  # noqa: E402

from sarek.analysis.native_math import POLYFILLED, math_support, polyfilled_functions  # noqa: E402
from sarek.dialect.intrinsics import INTRINSICS  # noqa: E402
from sarek.mathlib.kernels import elementwise  # noqa: E402
from sarek.mathlib.helpers import ROUTINES  # noqa: E402
from sarek import math as sm  # noqa: E402
from sarek.passes.expand_math import ExpandMathPass  # noqa: E402
from sarek.targets import emit_source  # noqa: E402
from sarek.tools.ir import make_context  # noqa: E402

F64_ROUTINES = polyfilled_functions("ptx", "f64")
# inputs that reach every branch: tiny, near breakpoints, large, specials
SPECIALS = [0.0, -0.0, 1e-300, -1e-300, 5e-324, 1e-8, -1e-8, 0.3, 0.4375, 0.5, -0.5, 0.6875, 0.7, 1.0, -1.0, 1.1875,
            1.5, 2.4375, 3.0, 10.0, -10.0, 22.0, 30.0, 100.0, -100.0, 700.0, 709.5, 710.0, -745.0, 1e5, -1e5, 1e300,
            np.inf, -np.inf, np.nan]


def inputs(n: int, seed: int) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    parts = [np.array(SPECIALS), rng.uniform(-4, 4, n), rng.uniform(-800, 800, n // 4),
             np.sign(rng.uniform(-1, 1, n)) * np.exp(rng.uniform(-700, 700, n))]
    return np.concatenate(parts).astype(np.float64)


def expanded(name: str, t: Any, target: str) -> ModuleOp:
    m = elementwise(name, t)
    ExpandMathPass(target=target).apply(make_context(), m)
    m.verify()
    return m


def run_on(m: ModuleOp, device: str, xs: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
    out = np.zeros_like(xs[0])
    rt.launch((m, "apply"), [*xs, out], grid=(len(out) + 63) // 64, block=64, device=device)
    return out


def args_for(name: str, n: int = 400) -> list[np.ndarray[Any, Any]]:
    xs = [inputs(n, 11 + k) for k in range(INTRINSICS[name].arity)]
    if name == "ldexp":  # an i32 exponent: past both ends of the range, and every result kind
        xs[1] = np.random.default_rng(12).integers(-2200, 2200, len(xs[0])).astype(np.int32)
    return xs


def same_bits(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> None:
    """Equal bit patterns, NaNs compared as NaNs (their payloads are not specified)."""
    nan = np.isnan(a) & np.isnan(b)
    it = np.int32 if a.dtype == np.float32 else np.int64
    bad = np.nonzero(~nan & (a.view(it) != b.view(it)))[0]
    assert len(bad) == 0, f"{len(bad)} differ, first at {bad[:5]}: {a[bad[:5]]} vs {b[bad[:5]]}"


def ulp_distance(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """|a - b| in units in the last place (ordered bit patterns; same-sign finite values)."""
    def key(v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        i = v.view(np.int64).astype(object)
        return np.array([x if x >= 0 else -(x & 0x7FFFFFFFFFFFFFFF) for x in i], dtype=object)
    return np.abs(key(a) - key(b))


# routines whose error-free steps need a fused fma (fmod's exact remainder, pow's double-double log): lavapipe
# splits every fma into a multiply and an add, so these are exact on PTX, pocl and fused hardware only
# (BENCHMARKS.md, "Math library accuracy", gives their lavapipe error)
NEED_FUSED_FMA = {"fmod", "pow"}
# what a Vulkan device can promise for a library routine: its 2-ulp bound plus what the driver may do to it
# (lavapipe splits fmas; the error-free steps are `precise` on GLSL, NoContraction in the SPIR-V)
VULKAN_ULP = 4
NP_REF: dict[str, Any] = {"exp2": np.exp2, "expm1": np.expm1, "log1p": np.log1p, "asin": np.arcsin,
                          "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2, "sinh": np.sinh,
                          "cosh": np.cosh, "tanh": np.tanh, "pow": np.power, "atanh": np.arctanh,
                          "erf": np.vectorize(math.erf, otypes=[np.float64]),
                          "erfc": np.vectorize(math.erfc, otypes=[np.float64]),
                          "lgamma": np.vectorize(sm.c_lgamma, otypes=[np.float64]),
                          "round": lambda x: np.where(np.abs(x - np.trunc(x)) == 0.5, x + np.copysign(0.5, x),
                                                      np.round(x))}


def _vulkan_within_bound(name: str, device: str, n: int) -> None:
    """Finite inputs of the domain (|x| < 1e5; asin, acos: |x| <= 1) on `device`: finite where numpy's float64 result is, and
    within VULKAN_ULP of it."""
    top = 1.0 if name in ("asin", "acos") else 1e5  # (Mesa does not keep NaN)
    xs = [x[np.isfinite(x) & (np.abs(x) <= top)] for x in args_for(name, n)]
    k = min(len(x) for x in xs)
    xs = [x[:k] for x in xs]
    dev = run_on(elementwise(name, f64), device, xs)
    with np.errstate(all="ignore"):
        want = (NP_REF.get(name) or getattr(np, name))(*xs)
    fin = np.isfinite(want)
    off = np.nonzero(np.isfinite(dev) != fin)[0][:6]
    assert len(off) == 0, (f"{name}: finite where numpy is not (or the reverse) at inputs "
                           f"{[tuple(float(x[i]) for x in xs) for i in off]}: device {dev[off]}, numpy {want[off]}")
    d = ulp_distance(want[fin], dev[fin])
    assert max(d) <= VULKAN_ULP, f"{max(d)} ulp at {np.argmax(d)}"


# lgamma crosses zero on the negative axis: its lavapipe bound (in ulps of max(|lgamma|, 1) there) is
# test_math_lgamma_ldexp's
@pytest.mark.parametrize("name", [n for n in polyfilled_functions("glsl", "f64")
                                  if n not in NEED_FUSED_FMA and n != "lgamma"])
def test_f64_glsl_on_lavapipe(name: str):
    """vulkan-glsl (lavapipe) runs the routine the GLSL pipeline expands, within the bound Vulkan allows
    (VULKAN_ULP of numpy): lavapipe's double `fma` is a multiply then an add, Mesa reassociates and does not
    keep NaN, so its bits are not the interpreter's (the same expanded IR is bit-identical on pocl below, and
    on the H200's PTX in the gpu tests)."""
    _vulkan_within_bound(name, "vulkan-glsl:0", 400)


F64_GLSL = polyfilled_functions("glsl", "f64")


def test_glsl_table_is_ptxs_plus_round_and_copysign():
    """GLSL computes every f64 function PTX gets from the library, plus C's round and copysign (GLSL's round
    may go either way at halves), but ldexp (GLSL's own); nothing is refused."""
    assert set(F64_GLSL) == set(F64_ROUTINES) - {"ldexp"} | {"round", "copysign"}


@pytest.mark.parametrize("name", F64_ROUTINES)
def test_f64_interp_matches_pocl_on_expanded_ir(name: str):
    """The expanded module emitted as OpenCL C (pocl compiles with contraction on) gives the same bits."""
    xs = args_for(name)
    m = expanded(name, f64, "ptx")
    same_bits(run_on(m, "interp", xs), run_on(m.clone(), "opencl", xs))


@pytest.mark.parametrize("name", ["sin", "exp", "log", "pow", "atan2", "tanh"])
def test_f32_on_ptx_is_correctly_rounded_mostly(name: str):
    """PTX's f32 transcendentals come from the f64 routines rounded once: within 1 ulp of numpy's double
    result rounded to f32 (pow's narrow form too)."""
    rng = np.random.default_rng(3)
    arity = 2 if name in ("pow", "atan2") else 1
    xs = [rng.uniform(0.01 if name in ("log", "pow") else -10, 10, 2000).astype(np.float32) for _ in range(arity)]
    got = run_on(expanded(name, f32, "ptx"), "interp", xs)
    fn = {"pow": np.power, "atan2": np.arctan2}.get(name) or getattr(np, name)
    ref = fn(*[x.astype(np.float64) for x in xs]).astype(np.float32)
    ulps = np.abs(got.view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64))
    assert ulps.max() <= 1


def test_f64_pow_within_an_ulp_of_libm_with_c_special_cases():
    """The library's double pow (log and y log x in double-double): within 1 ulp of glibc's pow over x in
    (1e-3, 100], y in [-20, 20] and over wide x with |y log x| up to 700; C's special cases bit for bit."""
    rng = np.random.default_rng(7)
    n = 2000
    x = np.concatenate([rng.uniform(1e-3, 100, n), np.exp(rng.uniform(-700, 700, n))])
    y = np.concatenate([rng.uniform(-20, 20, n), rng.uniform(-1, 1, n)])
    y[n:] *= 700 / np.abs(np.log(x[n:]))
    got = run_on(expanded("pow", f64, "ptx"), "interp", [x, y])
    want = np.power(x, y)
    fin = np.isfinite(want) & (want != 0)
    assert ulp_distance(got[fin], want[fin]).max() <= 1
    sp = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1e-310, 1e308, np.inf, -np.inf, np.nan])
    xs, ys = (v.ravel() for v in np.meshgrid(sp, sp))
    got = run_on(expanded("pow", f64, "glsl"), "interp", [xs, ys])
    with np.errstate(all="ignore"):
        want = np.power(xs, ys)
    close = (np.abs(xs) == 2.0) | (np.abs(xs) == 0.5)  # 2^±0.5: not correctly rounded, 1 ulp
    same_bits(got[~close], want[~close])
    assert ulp_distance(got[close & np.isfinite(want)], want[close & np.isfinite(want)]).max() <= 1


@pytest.mark.parametrize("t", [f32, f64])
def test_fmod_round_copysign_are_exact(t: Any):
    """fmod (any exponent difference, subnormals, specials), round and copysign at f32 and f64: numpy's
    bits on the interpreter running the expansion, and on pocl running the same expanded IR."""
    dt = np.float32 if t == f32 else np.float64
    rng = np.random.default_rng(8)
    n = 1500
    lim = 80 if t == f32 else 700
    a = np.sign(rng.uniform(-1, 1, n)) * np.exp(rng.uniform(-lim, lim, n))
    b = np.sign(rng.uniform(-1, 1, n)) * np.exp(rng.uniform(-lim, lim, n))
    tiny = float(np.finfo(dt).smallest_subnormal)
    big = float(np.finfo(dt).max)
    sa = [0.0, -0.0, np.inf, -np.inf, np.nan, 5.0, -5.0, big, tiny, big, 7.5, -2.5, 0.5, -0.5, 1.5]
    sb = [1.0, 2.0, 3.0, 0.0, 1.0, np.inf, -0.0, tiny, 3.0, -tiny, 2.0, 2.0, 1.0, 1.0, 1.0]
    xs = [np.concatenate([a, sa]).astype(dt), np.concatenate([b, sb]).astype(dt)]
    with np.errstate(all="ignore"):
        wants = {"fmod": np.fmod(*xs), "copysign": np.copysign(*xs),
                 "round": np.where(np.abs(xs[0] - np.trunc(xs[0])) == 0.5, xs[0] + np.copysign(0.5, xs[0]),
                                   np.round(xs[0])).astype(dt)}
    for name, want in wants.items():
        m = expanded(name, t, "glsl")
        args = xs[:INTRINSICS[name].arity]
        got = run_on(m, "interp", args)
        same_bits(got, want)
        same_bits(run_on(m.clone(), "opencl", args), got)


def test_expanded_outputs_validate():
    """Every f64 routine through the PTX and GLSL pipelines passes ptxas and glslangValidator + spirv-val;
    the f32 forms through GLSL, WGSL (naga via wgpu) and Metal (the clang shim)."""
    from sarek.validate import glsl, metal, ptx, wgsl

    for name in F64_ROUTINES:
        ptx.check(emit_source(elementwise(name, f64), "ptx"))
    for name in F64_GLSL:
        glsl.check(emit_source(elementwise(name, f64), "glsl"))
    for name in polyfilled_functions("glsl", "f32"):
        glsl.check(emit_source(elementwise(name, f32), "glsl"))
        wgsl.check(emit_source(elementwise(name, f32), "wgsl"))
    for name in polyfilled_functions("metal", "f32"):
        metal.check(emit_source(elementwise(name, f32), "metal"))


def test_helpers_once_and_before_functions():
    m = elementwise("sin", f64)
    m2 = elementwise("sin", f64, kernel="again")
    for op in list(m2.ops):
        op.detach()
        m.body.block.add_op(op)
    ExpandMathPass(target="ptx").apply(make_context(), m)
    kinds = [(type(op).__name__, getattr(op, "sym_name").data) for op in m.ops]
    assert kinds == [("HelperOp", "sarek_sin_f64"), ("KernelOp", "apply"), ("KernelOp", "again")]


def test_every_routine_is_reachable_from_the_table():
    used = {p.routine for table in POLYFILLED.values() for p in table.values()}
    assert used == set(ROUTINES)


def _nvidia(kind: str) -> str:
    names = [d.name for d in rt.devices() if d.kind == kind and "NVIDIA" in repr(d).upper()] or \
        [d.name for d in rt.devices() if d.kind == kind]
    assert names, f"no {kind} device"
    return names[0]


@pytest.mark.gpu
@pytest.mark.parametrize("name", F64_ROUTINES)
def test_f64_ptx_on_gpu_matches_interp(name: str):
    """The H200 runs the PTX pipeline's expansion (ptxas never contracts .rn operations; fma.rn is fused):
    every result, specials included, has the interpreter's bits."""
    xs = args_for(name, 2000)
    same_bits(run_on(expanded(name, f64, "ptx"), "interp", xs), run_on(elementwise(name, f64), _nvidia("ptx"), xs))


@pytest.mark.gpu
@pytest.mark.parametrize("name", [n for n in polyfilled_functions("glsl", "f64") if n != "lgamma"])
def test_f64_glsl_on_nvidia_vulkan_within_bound(name: str):
    """NVIDIA's Vulkan driver runs the GLSL expansion within the bound Vulkan allows (VULKAN_ULP of numpy;
    tests/unit/test_glsl_precise.py checks the interpreter's bits there). lgamma crosses zero (at 1, 2 and on
    the negative axis), where ulps of the result say nothing (133 "ulp" on the H200 next to a zero): its bound, in
    ulps of max(|lgamma|, 1), is test_math_lgamma_ldexp's, which runs there too."""
    dev_name = next((d.name for d in rt.devices() if d.name.startswith("vulkan-glsl") and "llvmpipe" not in repr(d).lower()),
                    None)
    assert dev_name is not None, "no hardware Vulkan GLSL device"
    _vulkan_within_bound(name, dev_name, 2000)
