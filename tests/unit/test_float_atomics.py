"""Float atomics (issue 15): each op validates on every target (glslangValidator + spirv-val, naga, nvcc,
hipcc, pocl, the Metal shim, ptxas), returns the old value on the interpreters, pocl and lavapipe's WGSL
device (and, `gpu`-marked, on the H200's cuda, ptx, NVIDIA OpenCL), f64 where the target has it; vulkan-glsl
(the Vulkan driver itself, no SPIR-V translation in between) runs every f32 op, its compare-and-swap loops
included, on buffers and on shared memory."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from sarek import Vec, kernel  # noqa: E402
from sarek import f32 as F32  # noqa: E402
from sarek.gpu import atomic_max, atomic_min, barrier, shared, thread_idx_x  # noqa: E402
from xdsl.dialects.builtin import Float32Type, Float64Type, ModuleOp, f32, f64, i32  # noqa: E402

from sarek.dialect import sarek as s  # noqa: E402
from sarek.dialect.builder import ModuleBuilder  # noqa: E402
from sarek.runtime.core import DeviceError  # noqa: E402
from sarek.targets import emit_source  # noqa: E402

OPS = ["atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch"]
C_TARGETS = ["cuda", "hip", "opencl", "metal", "ptx"]


def _kernel(name: str, elt: Float32Type | Float64Type = f32) -> ModuleOp:
    """Thread t (of n): old[t] = name(acc, t % 4, x[t]) — four slots, many threads each."""
    mb = ModuleBuilder()
    with mb.kernel("k", [("acc", s.VecType(elt)), ("x", s.VecType(elt)), ("old", s.VecType(elt))]) as b:
        acc, x, old = b.params
        t = b.let("t", b.intrinsic("global_thread_id"))
        with b.if_(b.binop("lt", t, b.length(old))):
            slot = b.binop("rem", t, b.const(4, i32))
            b.store(b.elem_ref(old, t), b.intrinsic(name, acc, slot, b.read(x, t)))
    mb.module.verify()
    return mb.module


@pytest.mark.parametrize("name", OPS)
def test_shader_sources_validate(name: str):
    from sarek.validate import glsl, wgsl

    glsl.check(emit_source(_kernel(name), "glsl"))
    wgsl.check(emit_source(_kernel(name), "wgsl"))


@pytest.mark.parametrize("target", C_TARGETS)
@pytest.mark.parametrize("name", [*OPS, "atomic_cas", "atomic_inc"])
def test_c_family_and_ptx_sources_validate(name: str, target: str):
    """f32 on vectors and shared arrays, and f64 where the target has it: native or a CAS loop, each accepted by
    the target's real tool."""
    from sarek.validate import cuda, metal, opencl, ptx

    check = {"cuda": cuda.check, "hip": cuda.check_hip, "opencl": opencl.check, "metal": metal.check,
             "ptx": ptx.check}[target]
    for elt in (f32, f64) if target != "metal" else (f32,):
        check(emit_source(_shared_kernel(name, elt), target))


def _shared_kernel(name: str, elt: Float32Type | Float64Type) -> ModuleOp:
    """`name` on a vector and on a shared array (cas: expected x[t], new 2)."""
    mb = ModuleBuilder()
    with mb.kernel("k", [("acc", s.VecType(elt)), ("x", s.VecType(elt)), ("old", s.VecType(elt))]) as b:
        acc, x, old = b.params
        t = b.let("t", b.intrinsic("global_thread_id"))
        sh = b.alloc("sh", b.const(4, i32), elt)
        v = b.read(x, t)
        extra = [] if name == "atomic_inc" else [v, b.const(2.0, elt)] if name == "atomic_cas" else [v]
        a = b.intrinsic(name, acc, b.const(0, i32), *extra)
        c = b.intrinsic(name, sh, b.const(1, i32), *extra)
        b.store(b.elem_ref(old, t), b.binop("add", a, c))
    mb.module.verify()
    return mb.module


def _nvidia_opencl() -> Any:
    """The H200's NVIDIA OpenCL device (the first OpenCL device that is not pocl)."""
    found = [d for d in rt.devices() if d.kind == "opencl" and not getattr(d, "is_pocl", False)]
    assert found, f"no NVIDIA OpenCL device; unavailable: {rt.unavailable}"
    return found[0]


_GPU = pytest.mark.gpu
# (device, element type): WGSL has no f64, so vulkan:0 runs f32 only
RUN: list[Any] = [pytest.param(d, e, id=f"{d}-{e}", marks=[_GPU] if gpu else [])
                  for d, gpu in (("interp", False), ("interp-ref", False), ("opencl:0", False), ("vulkan:0", False),
                                 ("cuda:0", True), ("ptx:0", True), ("nvidia-opencl", True))
                  for e in ("f32", "f64") if not (d == "vulkan:0" and e == "f64")]
# vulkan-glsl: f32 (GLSL's atomics are 32-bit); add/sub are a native float add, min/max CAS loops (wgpu's SPIR-V
# reader lost the CAS result, gfx-rs/wgpu#9621; the driver device has no such reader)
RUN_GLSL: list[Any] = [pytest.param(n, "vulkan-glsl:0", "f32", id=f"{n}-vulkan-glsl:0-f32") for n in OPS]


@pytest.mark.parametrize(("name", "device", "et"), [pytest.param(n, *p.values, id=f"{n}-{p.id}", marks=p.marks)
                                                    for n in OPS for p in RUN] + RUN_GLSL)
def test_final_value_and_old_values(name: str, device: str, et: str):
    """The final slot value is the fold of every operand (exact: small multiples of 1/4); the old values each
    thread got are, per slot, the intermediate values of one order of the operations."""
    elt = f32 if et == "f32" else f64
    dt = np.float32 if elt == f32 else np.float64
    dev: Any = _nvidia_opencl() if device == "nvidia-opencl" else device
    rng = np.random.default_rng(3)
    n = 256
    x = (rng.integers(-16, 17, n) / 4).astype(dt)
    acc = np.array([0.5, -1.0, 2.0, 0.0], dt)
    old = np.zeros(n, dt)
    start = acc.copy()
    rt.launch((_kernel(name, elt), "k"), [acc, x, old], grid=4, block=64, device=dev)
    f: Callable[[Any, Any], Any] = {"atomic_add": np.add, "atomic_sub": np.subtract, "atomic_min": np.minimum, "atomic_max": np.maximum,
         "atomic_exch": lambda a, b: b}[name]  # pyright: ignore[reportUnknownLambdaType]
    for k in range(4):
        xs, olds = x[k::4], old[k::4]
        if name != "atomic_exch":
            want = start[k]
            for v in xs:
                want = f(want, v)
            assert acc[k] == want
        # replaying the operations in the order of the old values they saw reaches the final value
        seen = {float(start[k])}
        values = [float(start[k])] + [float(f(o, v)) for o, v in zip(olds, xs)]
        assert set(map(float, olds)) <= set(values) | seen
        assert float(acc[k]) in values


@kernel
def shared_min_max(x: Vec[F32], out: Vec[F32]):
    t = thread_idx_x
    s = shared(F32, 2)
    if t == 0:
        s[0] = 1000.0
        s[1] = -1000.0
    barrier()
    atomic_min(s, 0, x[t])
    atomic_max(s, 1, x[t])
    barrier()
    if t == 0:
        out[0] = s[0]
        out[1] = s[1]


def test_vulkan_glsl_shared_memory_float_atomics():
    """f32 min/max on a shared array are compare-and-swap loops on workgroup memory, which wgpu's SPIR-V reader
    refused on vulkan-glsl; on the driver they run."""
    x = np.random.default_rng(5).standard_normal(64).astype(np.float32)
    out = np.zeros(2, np.float32)
    shared_min_max.launch(x, out, grid=1, block=64, device="vulkan-glsl:0")
    assert out.tolist() == [x.min(), x.max()]


def test_glsl_adds_floats_natively():
    """A buffer only added to is a float buffer with GL_EXT_shader_atomic_float's atomicAdd (wgpu's
    shader-float32-atomic feature); one also given min/max keeps its bits and the CAS loop."""
    src = emit_source(_kernel("atomic_sub"), "glsl")
    assert "#extension GL_EXT_shader_atomic_float : require" in src and "float acc[]" in src
    assert "atomicAdd(acc[" in src and "atomicCompSwap" not in src
    assert "uint acc[]" in emit_source(_kernel("atomic_max"), "glsl")


CAS_DEVICES: list[Any] = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0", pytest.param("cuda:0", marks=_GPU),
                          pytest.param("ptx:0", marks=_GPU)]


@pytest.mark.parametrize("device", CAS_DEVICES)
def test_float_cas_compares_bit_patterns(device: str):
    """atomic_cas on f32 compares bits on every device (docs/KERNELS.md): -0.0 does not match 0.0 (nor 0.0
    -0.0), a NaN matches the same NaN, equal values swap; each thread gets the old value."""
    mb = ModuleBuilder()
    with mb.kernel("k", [("mem", s.VecType(f32)), ("cmp", s.VecType(f32)), ("old", s.VecType(f32))]) as b:
        mem, cmp, old = b.params
        t = b.let("t", b.intrinsic("global_thread_id"))
        with b.if_(b.binop("lt", t, b.length(old))):
            b.store(b.elem_ref(old, t), b.intrinsic("atomic_cas", mem, t, b.read(cmp, t), b.const(5.0, f32)))
    nan = np.float32("nan")
    m = np.array([0.0, -0.0, nan, 1.0], np.float32)
    c = np.array([-0.0, 0.0, nan, 1.0], np.float32)
    old = np.zeros(4, np.float32)
    rt.launch((mb.module, "k"), [m, c, old], grid=1, block=4, device=device)
    assert m[:2].tolist() == [0.0, 0.0] and np.signbit(m[:2]).tolist() == [False, True]  # not swapped
    assert m[2:].tolist() == [5.0, 5.0]  # the same NaN bits match; equal values swap
    assert np.signbit(old[:2]).tolist() == [False, True] and np.isnan(old[2]) and old[3] == 1.0
