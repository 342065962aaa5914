"""Signed zeros and infinities survive the driver: `0.0 * x` for negative `x` is `-0.0` and `1 / -0.0` is `-inf`
on every device (fuzz seed 901311: the H200's Vulkan driver folded `0.0 * x` to `+0.0` until the GLSL device
asked for `SignedZeroInfNanPreserve`; the SPIR-V patch is checked by spirv-val and spirv-dis here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())

import sarek.runtime as rt  # noqa: E402
from sarek import Vec, f32, f64, i32, kernel  # noqa: E402
from sarek.gpu import thread_idx_x  # noqa: E402
from sarek.validate.glsl import TARGET_ENV, compile_spirv  # noqa: E402
from sarek.validate.spirv_modes import preserve_signed_zeros  # noqa: E402

_GPU = pytest.mark.gpu
CPU = ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"]
H200 = ["cuda:0", "ptx:0", "h200-opencl", "h200-vulkan", "h200-vulkan-glsl"]
# WGSL lets an implementation ignore the sign of a zero (WGSL spec, "Floating Point Evaluation"): not checked
CPU = [d for d in CPU if d != "vulkan:0"]
H200 = [d for d in H200 if d != "h200-vulkan"]
# Mesa 22.3's lavapipe folds `0.0 * x` to `+0.0` although the module asks for SignedZeroInfNanPreserve (newer
# Mesa honours it): strict, so this test fails once the installed driver is fixed
_MESA = pytest.mark.xfail(strict=True, reason="Mesa 22.3 lavapipe ignores SignedZeroInfNanPreserve for 0.0 * x")
CASES: list[Any] = [pytest.param(d, w, id=f"f{w}-{d}",
                                 marks=[_GPU] if d in H200 else [_MESA] if d == "vulkan-glsl:0" else [])
                    for d in CPU + H200 for w in (32, 64)]


@kernel
def zeros32(x: Vec[f32], prod: Vec[f32], inv: Vec[f32], n: i32):
    i = thread_idx_x
    if i < n:
        p = 0.0 * x[i]
        prod[i] = p
        inv[i] = 1.0 / p


@kernel
def zeros64(x: Vec[f64], prod: Vec[f64], inv: Vec[f64], n: i32):
    i = thread_idx_x
    if i < n:
        p = f64(0.0) * x[i]
        prod[i] = p
        inv[i] = f64(1.0) / p


def _device(name: str) -> Any:
    if not name.startswith("h200-"):
        return name
    kind = name.removeprefix("h200-")
    found = [d for d in rt.devices() if d.name.split(":")[0] == kind
             and not any(cpu in repr(d).lower() for cpu in ("pocl", "llvmpipe", "lavapipe"))]
    assert found, f"no H200 {kind} device among {[repr(d) for d in rt.devices()]}"
    return found[0]


@pytest.mark.parametrize("name,width", CASES)
def test_zero_times_negative_is_negative_zero(name: str, width: int) -> None:
    dev = _device(name)
    k, dt = (zeros32, np.float32) if width == 32 else (zeros64, np.float64)
    x = np.array([-3.0, 2.0, -0.5, 7.0], dt)
    prod = np.full(4, 9.0, dt)
    inv = np.full(4, 9.0, dt)
    k.launch(x, prod, inv, 4, grid=1, block=4, device=dev)
    assert list(np.signbit(prod)) == [True, False, True, False], prod
    assert list(inv) == [-np.inf, np.inf, -np.inf, np.inf], inv


GLSL = """#version 450
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer B { double d[]; };
layout(std430, set = 0, binding = 1) buffer C { float f[]; };
void main() { d[0] = 0.0lf * d[1]; }
"""


def _dis(words: bytes) -> str:
    tool = shutil.which("spirv-dis")
    assert tool, "spirv-dis not found: apt-get install -y spirv-tools"
    with tempfile.NamedTemporaryFile(suffix=".spv") as f:
        f.write(words)
        f.flush()
        return subprocess.run([tool, f.name], capture_output=True, text=True, check=True).stdout


def test_spirv_patch_adds_the_modes_for_the_widths_used() -> None:
    plain = compile_spirv(GLSL)
    assert "SignedZeroInfNanPreserve" not in _dis(plain)
    both = compile_spirv(GLSL, (32, 64))  # spirv-val runs on the patched module
    text = _dis(both)
    assert "OpCapability SignedZeroInfNanPreserve" in text
    assert "OpExecutionMode %main SignedZeroInfNanPreserve 32" in text
    assert "OpExecutionMode %main SignedZeroInfNanPreserve 64" in text
    assert preserve_signed_zeros(both, (32, 64)) == both, "patching twice adds nothing"
    assert preserve_signed_zeros(plain, ()) == plain


def test_spirv_patch_skips_widths_the_module_does_not_use() -> None:
    src = """#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer C { float f[]; };
void main() { f[0] = 0.0 * f[1]; }
"""
    text = _dis(compile_spirv(src, (32, 64)))
    assert "SignedZeroInfNanPreserve 32" in text and "SignedZeroInfNanPreserve 64" not in text
    assert TARGET_ENV.startswith("vulkan")


def test_spirv_patch_refuses_what_is_not_spirv() -> None:
    with pytest.raises(ValueError, match="not a SPIR-V module"):
        preserve_signed_zeros(b"\0" * 20, (32,))
