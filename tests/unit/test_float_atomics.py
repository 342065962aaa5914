"""f32 atomics on the shading languages (issue 15): each op validates (glslangValidator + spirv-val, naga),
returns the old value on the interpreters and on lavapipe's WGSL device, and vulkan-glsl refuses them with
the wgpu bug that breaks them there."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from xdsl.dialects.builtin import ModuleOp, f32, i32  # noqa: E402

from sarek.dialect import sarek as s  # noqa: E402
from sarek.dialect.builder import ModuleBuilder  # noqa: E402
from sarek.runtime.core import DeviceError  # noqa: E402
from sarek.targets import emit_source  # noqa: E402

OPS = ["atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch"]


def _kernel(name: str) -> ModuleOp:
    """Thread t (of n): old[t] = name(acc, t % 4, x[t]) — four slots, many threads each."""
    mb = ModuleBuilder()
    with mb.kernel("k", [("acc", s.VecType(f32)), ("x", s.VecType(f32)), ("old", s.VecType(f32))]) as b:
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


@pytest.mark.parametrize("device", ["interp", "interp-ref", "vulkan:0"])
@pytest.mark.parametrize("name", OPS)
def test_final_value_and_old_values(name: str, device: str):
    """The final slot value is the fold of every operand (exact: small multiples of 1/4); the old values each
    thread got are, per slot, the intermediate values of one order of the operations."""
    rng = np.random.default_rng(3)
    n = 256
    x = (rng.integers(-16, 17, n) / 4).astype(np.float32)
    acc = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
    old = np.zeros(n, np.float32)
    start = acc.copy()
    rt.launch((_kernel(name), "k"), [acc, x, old], grid=4, block=64, device=device)
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


def test_vulkan_glsl_refuses_with_the_wgpu_bug():
    with pytest.raises(DeviceError, match=r"atomic_add on f32 cannot run on this device.*gfx-rs/wgpu#9621"):
        acc, x, old = np.zeros(4, np.float32), np.ones(8, np.float32), np.zeros(8, np.float32)
        rt.launch((_kernel("atomic_add"), "k"), [acc, x, old], grid=1, block=8, device="vulkan-glsl:0")
