"""sarek-expand-math and the sarek math library: the expanded routines give the same bits on the interpreter
as on the devices that run them (lavapipe GLSL, pocl OpenCL running the expanded IR), within 2 ulp of mpmath
on their domains, and the f32 forms PTX uses keep f32 accuracy. A missing device fails (never skips)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from xdsl.dialects.builtin import ModuleOp, f32, f64  # noqa: E402

from sarek.analysis.native_math import POLYFILLED, math_support, polyfilled_functions  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.mathlib.kernels import elementwise  # noqa: E402
from sarek.mathlib.routines import ROUTINES  # noqa: E402
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
    arity = 2 if name in ("atan2", "hypot") else 1
    return [inputs(n, 11 + k) for k in range(arity)]


def same_bits(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> None:
    """Equal bit patterns, NaNs compared as NaNs (their payloads are not specified)."""
    nan = np.isnan(a) & np.isnan(b)
    bad = np.nonzero(~nan & (a.view(np.int64) != b.view(np.int64)))[0]
    assert len(bad) == 0, f"{len(bad)} differ, first at {bad[:5]}: {a[bad[:5]]} vs {b[bad[:5]]}"


def ulp_distance(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """|a - b| in units in the last place (ordered bit patterns; same-sign finite values)."""
    def key(v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        i = v.view(np.int64).astype(object)
        return np.array([x if x >= 0 else -(x & 0x7FFFFFFFFFFFFFFF) for x in i], dtype=object)
    return np.abs(key(a) - key(b))


@pytest.mark.parametrize("name", polyfilled_functions("glsl", "f64"))
def test_f64_glsl_on_lavapipe(name: str):
    """vulkan-glsl runs the routine the GLSL pipeline expands. Lavapipe's double `fma` is a multiply then an
    add (Vulkan lets Fma inherit OpFMul + OpFAdd precision) and it does not keep NaN, so bits agree with the
    interpreter only where no fused step mattered: finite inputs in the domain, within 4 ulp, most equal.
    (The same expanded IR is bit-identical on pocl below, and on the H200 in the gpu tests.)"""
    xs = [x[np.isfinite(x) & (np.abs(x) < 1e5)] for x in args_for(name)]
    n = min(len(x) for x in xs)
    xs = [x[:n] for x in xs]
    dev = run_on(elementwise(name, f64), "vulkan-glsl:0", xs)
    ref = run_on(expanded(name, f64, "glsl"), "interp", xs)
    fin = np.isfinite(ref)
    assert np.array_equal(np.isfinite(dev), fin)
    d = ulp_distance(ref[fin], dev[fin])
    assert max(d) <= 4 and (d == 0).mean() > 0.5


F64_GLSL = polyfilled_functions("glsl", "f64")


def test_glsl_table_is_the_library_minus_native():
    assert set(F64_GLSL) == set(F64_ROUTINES) - {"hypot"}


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


def test_ptx_f64_pow_refused_with_reason():
    with pytest.raises(SarekError, match=r"PTX: 'pow' on f64 not yet supported — the sarek math library has no"):
        emit_source(elementwise("pow", f64), "ptx")


def test_expanded_outputs_validate():
    """Every f64 routine through the PTX and GLSL pipelines passes ptxas and glslangValidator + spirv-val."""
    from sarek.validate import glsl, ptx

    for name in F64_ROUTINES:
        ptx.check(emit_source(elementwise(name, f64), "ptx"))
        if name in F64_GLSL:
            glsl.check(emit_source(elementwise(name, f64), "glsl"))


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
@pytest.mark.parametrize("name", polyfilled_functions("glsl", "f64"))
def test_f64_glsl_on_nvidia_vulkan_matches_interp(name: str):
    """NVIDIA's Vulkan driver runs the GLSL expansion: finite results in the domain have the interpreter's
    bits (NaN preservation is not promised by Vulkan without float controls, so specials are left out)."""
    dev_name = next((d.name for d in rt.devices() if d.name.startswith("vulkan-glsl") and "llvmpipe" not in repr(d).lower()),
                    None)
    assert dev_name is not None, "no hardware Vulkan GLSL device"
    xs = [x[np.isfinite(x) & (np.abs(x) < 1e5)] for x in args_for(name, 2000)]
    n = min(len(x) for x in xs)
    xs = [x[:n] for x in xs]
    ref = run_on(expanded(name, f64, "glsl"), "interp", xs)
    dev = run_on(elementwise(name, f64), dev_name, xs)
    fin = np.isfinite(ref)
    same_bits(ref[fin], dev[fin])
