"""Module-level constant tables in constant memory (issue 33, sarek-constant-tables): CUDA/HIP `__constant__`,
OpenCL `__constant`, Metal `constant` and PTX `.const` declarations validate with each target's tool; results
are bit-identical on the CPU devices (pocl runs the constant tables; lavapipe's GLSL and WGSL keep per-thread
tables); the interpreters run the IR after the pass; tables past 64 KiB stay per-thread."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.interp as interp  # noqa: E402
from sarek import Vec, device, f32, f64, i32, i64, kernel, u8  # noqa: E402
from sarek.dialect import sarek as S  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402

F32 = (0.1, -2.5, 3.25e-3, 7.0)
F64 = np.array([1e-300, 0.1, -3.0], dtype=np.float64)
I64 = (2**40 + 3, -5, 7)
SMALL = np.array([250, 3, 128], dtype=np.uint8)
FLAGS = (True, False, False, True, True)
GRID = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)


@device
def pick(k: i32) -> f32:
    return F32[k % 4]


@kernel
def tables(o32: Vec[f32], o64: Vec[f64], oi: Vec[i64], ou: Vec[u8], n: i32):
    i = global_thread_id
    if i < n:
        o32[i] = pick(i) * F32[(i + 1) % 4] + f32(GRID[i % 3, i % 4]) + (1.0 if FLAGS[i % 5] else 0.0)
        o64[i] = F64[i % 3] * 3.0
        oi[i] = I64[i % 3] * i64(i)
        ou[i] = SMALL[i % 3]


def _run(device: str, n: int = 100) -> list[np.ndarray]:
    outs = [np.zeros(n, np.float32), np.zeros(n, np.float64), np.zeros(n, np.int64), np.zeros(n, np.uint8)]
    tables.launch(*outs, n, grid=2, block=64, device=device)
    return outs


def _expected(n: int = 100) -> list[np.ndarray]:
    i = np.arange(n)
    f32 = np.array(F32, np.float32)
    flags = np.array(FLAGS)
    o32 = f32[i % 4] * f32[(i + 1) % 4] + GRID[i % 3, i % 4].astype(np.float32) + flags[i % 5].astype(np.float32)
    return [o32, F64[i % 3] * 3.0, np.array(I64, np.int64)[i % 3] * i, SMALL[i % 3]]


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0"])
def test_bit_identical(device: str):
    for got, want in zip(_run(device), _expected()):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", ["cuda", "hip", "opencl", "metal", "ptx"])
def test_tables_in_constant_memory_validate(target: str):
    from sarek.validate import cuda, hip, metal, opencl, ptx

    k, count = (first, 1) if target == "metal" else (tables, 7)  # Metal has no f64; tables: pick's and six
    src = k.source(target)
    decl = {"cuda": "__constant__ ", "hip": "__constant__ ", "opencl": "__constant ", "metal": "constant ",
            "ptx": ".const "}[target]
    assert sum(line.startswith(decl) for line in src.splitlines()) == count, src
    {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check, "metal": metal.check}[target](src)


def test_cuda_tables_compile_with_nvrtc():
    from sarek.runtime.cuda import nvrtc_compile

    assert nvrtc_compile(tables.source("cuda"), "sm_90", "tables.cu", output="ptx")


@pytest.mark.parametrize("executor", ["fast", "reference"])
def test_interpreters_run_the_ir_after_the_pass(executor: str):
    """The pass blame runs the interpreter between passes: constant arrays run like the local tables."""
    from xdsl.context import Context

    from sarek.passes.constant_tables import ConstantTablesPass

    m = tables.module.clone()
    ConstantTablesPass(target="cuda").apply(Context(), m)
    assert sum(isinstance(op, S.AllocArrayOp) and op.values is not None for op in m.walk()) == 7
    n = 100
    outs = [np.zeros(n, np.float32), np.zeros(n, np.float64), np.zeros(n, np.int64), np.zeros(n, np.uint8)]
    interp.run(m, "tables", [*outs, n], 2, 64, executor=executor)
    for got, want in zip(outs, _expected()):
        np.testing.assert_array_equal(got, want)


def test_constant_memory_per_target():
    """64 KiB where the target has constant memory; GLSL and WGSL keep per-thread tables."""
    from sarek.registry import target_info

    assert {t: target_info(t).constant_limit for t in ("cuda", "hip", "opencl", "metal", "ptx", "glsl", "wgsl")} \
        == {"cuda": 65536, "hip": 65536, "opencl": 65536, "metal": 65536, "ptx": 65536, "glsl": None, "wgsl": None}


def test_tables_past_the_target_limit_stay_per_thread(monkeypatch: pytest.MonkeyPatch):
    """The pass fills the descriptor's constant memory in module order (here 40 bytes: pick's 16-byte F32 and the
    kernel's 16-byte F32 fit, its 48-byte GRID does not)."""
    from types import SimpleNamespace

    from xdsl.context import Context

    import sarek.passes.constant_tables as ct

    monkeypatch.setattr(ct, "target_info", lambda t, who: SimpleNamespace(constant_limit=40))
    m = tables.module.clone()
    ct.ConstantTablesPass(target="cuda").apply(Context(), m)
    placed = [op.sym.data for op in m.walk() if isinstance(op, S.AllocArrayOp) and op.values is not None]
    local = [op.sym.data for op in m.walk() if isinstance(op, S.AllocArrayOp) and op.values is None]
    assert sum(8 if "F64" in n or "I64" in n else 1 if "SMALL" in n else 4 for n in placed) <= 40
    assert "GRID" in local and "pick_F32" in placed


@device
def shared_table(k: i32) -> f32:
    return F32[k]


@kernel
def first(o: Vec[f32]):
    o[global_thread_id] = shared_table(global_thread_id % 4)


@kernel
def second(o: Vec[f32]):
    o[global_thread_id] = shared_table(3 - global_thread_id % 4) * 2.0


def test_a_helper_table_is_declared_once_for_every_kernel():
    from sarek.runtime.compile import compile_source
    from sarek.runtime.core import kernel_spec

    m: Any = first.module
    for k in (first, second):
        src = compile_source(kernel_spec(k.module, k.name), "ptx")
        assert src.count(".const ") == 1, src
    assert m is not None
