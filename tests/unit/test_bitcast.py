"""sarek.bitcast: every target's source passes its real validator, and interp (both executors), pocl and
lavapipe (GLSL and WGSL) reinterpret the same bits as numpy's `view`."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.runtime as rt  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.targets import emit_source  # noqa: E402
from sarek.tools.ir import parse_module  # noqa: E402
from sarek.validate import cuda, glsl, metal, opencl, ptx, wgsl  # noqa: E402

KERNELS = Path(__file__).parent / "math_kernels"
CHECKS: dict[str, Any] = {"cuda": cuda.check, "hip": cuda.check_hip, "opencl": opencl.check, "metal": metal.check,
                          "glsl": glsl.check, "wgsl": wgsl.check, "ptx": ptx.check}
SPELLING = {"cuda": "__float_as_int(", "hip": "__float_as_int(", "opencl": "as_int(", "metal": "as_type<int>(",
            "glsl": "floatBitsToInt(", "wgsl": "bitcast<i32>(", "ptx": "mov.b32"}


def module(kernel: str) -> Any:
    path = KERNELS / ("bitcast.mlir" if kernel == "bc" else "bitcast64.mlir")
    return parse_module(path.read_text(), str(path))


@pytest.mark.parametrize("target", sorted(CHECKS))
@pytest.mark.parametrize("kernel", ["bc", "bcd"])
def test_bitcast_validates(target: str, kernel: str):
    if kernel == "bcd" and target in ("metal", "wgsl"):
        with pytest.raises(SarekError, match="float64 not yet supported"):
            emit_source(module(kernel), target)
        return
    src = emit_source(module(kernel), target)
    if kernel == "bc":
        assert SPELLING[target] in src
    CHECKS[target](src)


def inputs(dt: Any) -> Any:
    return np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-40 if dt == np.float32 else 5e-324,
                     3.0e38 if dt == np.float32 else 1.7e308], dt)


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl", "vulkan:0", "vulkan-glsl:0"])
@pytest.mark.parametrize("width", [32, 64])
def test_bitcast_runs(device: str, width: int):
    if width == 64 and device == "vulkan:0":
        with pytest.raises(SarekError, match="float64 not yet supported"):
            rt.launch((module("bcd"), "bcd"), [np.zeros(1), np.zeros(1, np.int64), np.zeros(1)], grid=1, block=1,
                      device=device)
        return
    ft, it = (np.float32, np.int32) if width == 32 else (np.float64, np.int64)
    v = inputs(ft)
    n = len(v)
    w, u = np.zeros(n, it), np.zeros(n, ft)
    k = "bc" if width == 32 else "bcd"
    rt.launch((module(k), k), [v, w, u], grid=1, block=n, device=device)
    bits = v.view(it) + 1
    np.testing.assert_array_equal(w, bits)
    np.testing.assert_array_equal(u.view(it), bits)
