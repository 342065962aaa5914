"""The Python front end gets the shader interface refusals of the capability gate (sarek.analysis.shader_params:
WGSL by-value records of other than i32/f32 fields, WGSL buffer records with a bool field, GLSL push constants
over 128 bytes) as CompileErrors located at the kernel's source line; the C family compiles the same kernels."""

from __future__ import annotations

import inspect

import pytest

from sarek import CompileError, Vec, f32, i32, kernel, record


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


@pytest.mark.parametrize(("k", "target", "message"), [
    (by_value, "wgsl", "WGSL: parameter 'p': a record/variant passed by value on wgsl must hold only i32/f32 fields"),
    (bool_buffer, "wgsl", "WGSL: vector 'v': a bool field in a record is not host-shareable"),
    (many_params, "glsl", "GLSL: push constants need 136 bytes; Vulkan guarantees 128"),
])
def test_refused_at_the_kernel(k: object, target: str, message: str) -> None:
    with pytest.raises(CompileError, match=message) as e:
        k.source(target)  # type: ignore[attr-defined]
    line = inspect.getsourcelines(getattr(k, "fn"))[1] + 1  # the `def` line, below `@kernel`
    assert f"test_shader_interface_gate.py:{line}:1: error:" in str(e.value), str(e.value)


@pytest.mark.parametrize("k", [by_value, bool_buffer, many_params])
def test_held_by_the_c_family(k: object) -> None:
    assert "out" in k.source("cuda")  # type: ignore[attr-defined]
