"""The launch cost guard (issue 31): a warm launch does the same per-call work as before, counted in function
calls (sys.setprofile), never timed. On pocl (the OpenCL fast path), on the interpreter (the full path) and
on the CUDA/PTX fast path with a stand-in driver (no GPU here: `cuLaunchKernel` and `cuCtxGetCurrent` are
counted, not run), a warm launch must not compile, build a kernel spec or launch plan, hash or print the IR,
or re-check arguments the fast path already holds, and its call count must stay within the budget below
(today's count plus a margin): a new per-call step fails here and must be moved out of the launch, or the
budget raised with the reason in the commit."""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, f32, i32, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402

#: work a warm launch never does (function names): front end, pipeline, compile, module load, plan building,
#: hashing, allocation and upload
FORBIDDEN = {"kernel_spec", "build_module", "compile_source", "emit_source", "parse_module", "print_module",
             "apply", "make", "_image", "_function", "pipeline_passes", "sha256", "blake2b", "md5", "build",
             "cuModuleLoadData", "cuFuncGetAttribute", "_alloc", "_upload"}
#: calls of one warm launch, today (measured) and the budget
BUDGET = {"opencl": 24, "ptx": 26, "interp": 2000, "opencl foreign": 190}  # measured: 18, 20, 1654, 159
#: per-argument and per-launch steps the fast path folded away (Vector.launch_buffer stands for dtype, size and
#: resident_buffer; mark_written_key for mark_written_on's buffer_key; the CUDA submit asks cuCtxGetCurrent itself;
#: a cached plan is looked up before the kernel's plain-launch check, which it implies)
FOLDED = {"dtype", "size", "resident_buffer", "buffer_key", "mark_written_on", "activate", "_plain",
          "__getitem__"}  # (os.environ's: env_debug reads an unset SAREK_DEBUG without a KeyError raised inside)


@kernel
def tiny(v: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        v[i] = v[i] + 1.0


def count_calls(fn: Callable[[], None]) -> Counter[str]:
    """Python and C function calls made by fn(), by name."""
    calls: Counter[str] = Counter()

    def prof(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            calls[frame.f_code.co_name] += 1
        elif event == "c_call":
            calls[str(getattr(arg, "__name__", arg))] += 1

    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def warm_launch_calls(dev: Any) -> Counter[str]:
    v = sarek.Vector(np.zeros(4, np.float32))
    for _ in range(3):  # compile, plan, fast path
        tiny.launch(v, 4, grid=1, block=4, device=dev)
    calls = count_calls(lambda: tiny.launch(v, 4, grid=1, block=4, device=dev))
    dev.synchronize()
    return calls


def check_budget(kind: str, calls: Counter[str]) -> None:
    bad = sorted(set(calls) & FORBIDDEN)
    assert not bad, f"a warm {kind} launch calls {bad}"
    total = sum(calls.values())
    assert total <= BUDGET[kind], f"a warm {kind} launch makes {total} calls (budget {BUDGET[kind]}): " \
                                  f"{calls.most_common(12)}"


def test_opencl_warm_launch_is_the_fast_path():
    dev = sarek.get_device("opencl")
    calls = warm_launch_calls(dev)
    check_budget("opencl", calls)
    assert calls["submit"] == 1 and calls["check_args"] == 0
    assert not set(calls) & FOLDED and calls["launch_buffer"] == 1


def test_opencl_foreign_array_launch_checks_arguments_only():
    """A foreign array (pyopencl here; torch and CuPy tensors on CUDA) takes the full path each launch: the
    argument check and the interop adapter, but no compile, spec or plan, and no walk over the IR."""
    cla = pytest.importorskip("pyopencl.array")
    dev = sarek.get_device("opencl")
    x = cla.to_device(dev.queue, np.zeros(4, np.float32))
    for _ in range(3):
        tiny.launch(x, 4, grid=1, block=4, device=dev)
    calls = count_calls(lambda: tiny.launch(x, 4, grid=1, block=4, device=dev))
    dev.synchronize()
    check_budget("opencl foreign", calls)
    assert calls["walk"] == 0 and calls["check_args"] == 1


def test_interp_warm_launch_reuses_the_compiled_kernel():
    dev = sarek.get_device("interp")
    check_budget("interp", warm_launch_calls(dev))


class FakeDriver:
    """The part of cuda.bindings.driver a warm launch touches; counts launches."""

    class CUfunction_attribute:
        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1

    CTX = 7
    CUstream = int  # (a handle made from an int)

    def __init__(self) -> None:
        self.launches = 0

    def cuFuncGetAttribute(self, attr: Any, fn: Any) -> tuple[int, int]:
        return (0, 1024)

    def cuCtxGetCurrent(self) -> tuple[int, int]:
        return (0, self.CTX)

    def cuLaunchKernel(self, *args: Any) -> tuple[int]:
        self.launches += 1
        return (0,)

    def cuCtxSynchronize(self) -> tuple[int]:
        return (0,)


def fake_ptx_device(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, FakeDriver]:
    """A PtxDevice on the stand-in driver: memory is fake addresses, the module image is never loaded."""
    from sarek.runtime import cuda
    from sarek.runtime.core import Limits
    from sarek.runtime.ptx import PtxDevice

    fake = FakeDriver()
    monkeypatch.setattr(cuda, "_driver", lambda: fake)
    dev = object.__new__(PtxDevice)
    dev.index, dev.name, dev._ctx, dev._ctx_int = 99, "ptx:99", FakeDriver.CTX, FakeDriver.CTX
    dev.cc, dev.device_name, dev._limits, dev._warp_size, dev._event = (9, 0), "stand-in", Limits(), 32, None
    addresses = iter(range(1 << 20, 1 << 30, 1 << 12))
    monkeypatch.setattr(dev, "_alloc", lambda n: next(addresses), raising=False)
    monkeypatch.setattr(dev, "_upload", lambda buf, host: None, raising=False)
    monkeypatch.setattr(dev, "_function", lambda spec: ("fn", None, None), raising=False)
    monkeypatch.setattr(dev, "synchronize", lambda: None, raising=False)
    return dev, fake


def test_ptx_warm_launch_packs_and_launches_only(monkeypatch: pytest.MonkeyPatch):
    """The CUDA/PTX fast path: pack the values into the plan's buffer, make the context current (one query),
    cuLaunchKernel; nothing else grows per call."""
    dev, fake = fake_ptx_device(monkeypatch)
    calls = warm_launch_calls(dev)
    check_budget("ptx", calls)
    assert fake.launches == 4 and calls["cuLaunchKernel"] == 1 and calls["pack"] == 1
    assert calls["check_args"] == 0 and calls["cuCtxGetCurrent"] <= 1
    assert not set(calls) & FOLDED and calls["launch_buffer"] == 1 and calls["mark_written_key"] == 1


def test_the_fast_path_runs_no_import_statement():
    """An import statement inside a per-launch function costs every launch its module look-up (~0.3 µs each on
    the H200's host; two of them were a tenth of a warm launch): FastPath.__call__, the CUDA and OpenCL submits
    and the Vector methods they call import nothing."""
    import dis
    import types

    from sarek.runtime.core import FastPath
    from sarek.runtime.cuda import CudaDevice
    from sarek.runtime.opencl import OpenCLDevice
    from sarek.runtime.vector import Vector

    def submit(maker: Any) -> types.CodeType:
        return next(c for c in maker.__code__.co_consts if isinstance(c, types.CodeType) and c.co_name == "submit")

    codes = [FastPath.__call__.__code__, Vector.launch_buffer.__code__, Vector.mark_written_key.__code__,
             submit(CudaDevice.fast_path), submit(OpenCLDevice.fast_path)]
    imports = [(c.co_qualname, i.argval) for c in codes for i in dis.get_instructions(c) if i.opname == "IMPORT_NAME"]
    assert imports == []
