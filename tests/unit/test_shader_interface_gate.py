"""The Python front end gets the shader interface refusals of the capability gate (sarek.analysis.shader_params:
WGSL by-value records of other than i32/f32 fields, WGSL buffer records with a bool field, GLSL push constants
over 128 bytes) and its math gaps (clz on i64 on GLSL) as CompileErrors located at the kernel's source line; the C family compiles the same kernels."""

from __future__ import annotations

import inspect

import pytest

from sarek import CompileError, Vec, f32, i32, i64, kernel, record
from sarek.math import clz  # pyright: ignore[reportUnknownVariableType, reportAttributeAccessIssue]


@record
class Flagged:
    x: f32
    on: bool


@record
class Wide:
    a: f32
    b: f32
    c: f32
    d: f32
    e: f32
    f: f32
    g: f32
    h: f32


@kernel
def by_value(p: Flagged, out: Vec[f32]):
    out[0] = p.x


@kernel
def bool_buffer(v: Vec[Flagged], out: Vec[f32]):
    out[0] = v[0].x


@kernel
def many_params(out: Vec[f32], p: Wide, q: Wide, r: Wide, s: Wide, n: i32):
    out[0] = p.a + q.b + r.c + s.d + f32(n)


@kernel
def clz64(x: i64, out: Vec[i32]):
    out[0] = clz(x)


@pytest.mark.parametrize(("k", "target", "message", "below"), [
    (clz64, "glsl", "GLSL: 'clz' on i64 is not supported \\(GLSL's findMSB and bitCount take 32-bit integers\\)", 1),
    (by_value, "wgsl", "WGSL: parameter 'p': a record/variant passed by value on wgsl must hold only i32/f32 fields", 0),
    (bool_buffer, "wgsl", "WGSL: vector 'v': a bool field in a record is not host-shareable", 0),
    (many_params, "glsl", "GLSL: push constants need 136 bytes; Vulkan guarantees 128", 0),
])
def test_refused_where_located(k: object, target: str, message: str, below: int) -> None:
    """At the kernel's `def` line (the interface), or `below` lines under it (the intrinsic's call)."""
    with pytest.raises(CompileError, match=message) as e:
        k.source(target)  # type: ignore[attr-defined]
    line = inspect.getsourcelines(getattr(k, "fn"))[1] + 1 + below  # the `def` line is below `@kernel`
    assert f"test_shader_interface_gate.py:{line}:" in str(e.value) and "error:" in str(e.value), str(e.value)


@pytest.mark.parametrize("k", [by_value, bool_buffer, many_params, clz64])
def test_held_by_the_c_family(k: object) -> None:
    assert "out" in k.source("cuda")  # type: ignore[attr-defined]
