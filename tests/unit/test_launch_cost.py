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
BUDGET = {"opencl": 24, "ptx": 26, "interp": 2000, "opencl foreign": 190,
          "ptx foreign": 60, "ptx torch": 40}  # measured: 18, 20, 1654, 159, 45 (52 DLPack), 31 (full path: 165-172)
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


# -- foreign device arrays on the CUDA/PTX fast path (sarek.runtime.cuda_foreign)


class FakeCai:
    """A device array with `__cuda_array_interface__` (v3) at a fake address on the stand-in device."""

    def __init__(self, ptr: int, n: int, typestr: str = "<f4", strides: Any = None, stream: Any = None,
                 readonly: bool = False):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": typestr, "data": (ptr, readonly),
                                         "strides": strides, "version": 3, "stream": stream}


class FakeDlpack:
    """A CUDA array with only `__dlpack__` (a capsule sarek's own exporter builds) on the stand-in device."""

    def __init__(self, ptr: int, n: int):
        self.ptr, self.n = ptr, n

    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 99)

    def __dlpack__(self, stream: Any = None) -> Any:
        from sarek.runtime.interop import export_capsule

        return export_capsule(self.ptr, self.n, np.dtype(np.float32), (2, 99), self)


class FakeTorchModule:
    """`torch` as sarek's launch path asks it: the current raw stream of a device."""

    def __init__(self) -> None:
        self.current = 0
        self._C = self
        self.asked = 0

    def _cuda_getCurrentRawStream(self, index: int) -> int:
        self.asked += 1
        return self.current


class FakeTensor:
    """A CUDA tensor of device 99 as the launch reads it (its type's module is `torch`)."""

    def __init__(self, ptr: int, n: int, contiguous: bool = True):
        self.ptr, self.n, self.contiguous = ptr, n, contiguous
        self.dtype, self.is_cuda, self.shape = "float32", True, (n,)
        self.device = type("Dev", (), {"index": 99, "type": "cuda"})()

    def data_ptr(self) -> int:
        return self.ptr

    def numel(self) -> int:
        return self.n

    def is_contiguous(self) -> bool:
        return self.contiguous

    def get_device(self) -> int:
        return 99


FakeTensor.__module__ = "torch"


class RecordingDriver(FakeDriver):
    """The stand-in driver, recording each launch's stream and the packed (pointer, length), and event waits."""

    class CUevent_flags:
        class CU_EVENT_DISABLE_TIMING:
            value = 2

    def __init__(self) -> None:
        super().__init__()
        self.streams: list[int] = []
        self.waits: list[tuple[int, int]] = []
        self.plan: Any = None
        self.packed: list[tuple[Any, ...]] = []

    def cuLaunchKernel(self, *args: Any) -> tuple[int]:
        self.streams.append(int(args[8]))
        if self.plan is not None:
            self.packed.append(self.plan.struct.unpack_from(self.plan.buf)[:2])
        return super().cuLaunchKernel(*args)

    def cuEventCreate(self, flags: Any) -> tuple[int, int]:
        return (0, 1)

    def cuEventRecord(self, event: Any, stream: Any) -> tuple[int]:
        self.recorded = int(stream)
        return (0,)

    def cuStreamWaitEvent(self, stream: Any, event: Any, flags: int) -> tuple[int]:
        self.waits.append((self.recorded, int(stream)))
        return (0,)


def foreign_device(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, RecordingDriver]:
    from sarek.runtime import cuda, interop

    dev, _ = fake_ptx_device(monkeypatch)
    fake = RecordingDriver()
    monkeypatch.setattr(cuda, "_driver", lambda: fake)
    monkeypatch.setattr(interop, "pointer_device", lambda ptr: 3 if ptr >= 1 << 40 else 99)
    return dev, fake


def warm_foreign(dev: Any, fake: RecordingDriver, x: Any) -> Counter[str]:
    for _ in range(3):
        tiny.launch(x, 4, grid=1, block=4, device=dev)
    return count_calls(lambda: tiny.launch(x, 4, grid=1, block=4, device=dev))


def the_plan(dev: Any) -> Any:
    from sarek.runtime.core import kernel_spec, resolve_kernel

    return kernel_spec(*resolve_kernel(tiny)).plans[(dev.kind, dev.fp_key)]


@pytest.mark.parametrize("make", [lambda: FakeCai(0x7000, 4), lambda: FakeDlpack(0x7000, 4)],
                         ids=["cuda_array_interface", "dlpack"])
def test_ptx_foreign_array_warm_launch_is_the_fast_path(monkeypatch: pytest.MonkeyPatch, make: Any):
    """A warm launch on a foreign device array packs its pointer and length and launches without the full
    path's argument check (check_args), the same values the full path packed."""
    tiny.__dict__.pop("_fast", None)
    dev, fake = foreign_device(monkeypatch)
    x = make()
    tiny.launch(x, 4, grid=1, block=4, device=dev)
    fake.plan = the_plan(dev)
    calls = warm_foreign(dev, fake, x)
    fake.plan = the_plan(dev)
    tiny.launch(x, 4, grid=1, block=4, device=dev)
    check_budget("ptx foreign", calls)
    assert calls["check_args"] == 0 and calls["submit"] == 1 and calls["resolve_stream"] == 0
    assert fake.launches == 6 and fake.streams == [0] * 6 and fake.waits == []
    assert fake.packed[0] == fake.packed[-1] == (0x7000, 4)


def test_ptx_foreign_array_refusals_stay_the_full_paths(monkeypatch: pytest.MonkeyPatch):
    """Another dtype, a non-contiguous array, another device's memory, a written read-only one, a guard the
    length breaks: the fast path
    declines and the full path's located LaunchError comes out, as before."""
    from sarek.runtime.core import LaunchError

    tiny.__dict__.pop("_fast", None)
    dev, fake = foreign_device(monkeypatch)
    x = FakeCai(0x7000, 4)
    for _ in range(3):
        tiny.launch(x, 4, grid=1, block=4, device=dev)
    for bad, words in [(FakeCai(0x7000, 4, "<f8"), "expects"), (FakeCai(0x7000, 4, strides=(8,)), "C-contiguous"),
                       (FakeCai(1 << 40, 4), "CUDA device 3"), (FakeCai(0x7000, 4, readonly=True), "read-only"), (FakeCai(0x7000, 2), "past the end")]:
        with pytest.raises(LaunchError, match=words):
            tiny.launch(bad, 4, grid=1, block=4, device=dev)
    assert fake.launches == 3


def test_ptx_foreign_producer_stream_is_waited_on_each_launch(monkeypatch: pytest.MonkeyPatch):
    """A CAI v3 producer stream other than the launch's is waited on with an event at every launch, fast or
    full, as resolve_stream does."""
    tiny.__dict__.pop("_fast", None)
    dev, fake = foreign_device(monkeypatch)
    x = FakeCai(0x7000, 4, stream=55)
    calls = warm_foreign(dev, fake, x)
    assert calls["check_args"] == 0
    assert fake.waits == [(55, 0)] * 4 and fake.streams == [0] * 4


def test_ptx_torch_tensor_launches_on_torchs_current_stream(monkeypatch: pytest.MonkeyPatch):
    """A torch tensor argument: the launch goes to PyTorch's current stream, asked at every launch (a
    `with torch.cuda.stream(s):` changes it between launches), on the fast path as on the full one."""
    from sarek.runtime import interop

    tiny.__dict__.pop("_fast", None)
    dev, fake = foreign_device(monkeypatch)
    torch = FakeTorchModule()
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(interop._TORCH_DTYPES, "float32", np.dtype(np.float32))  # pyright: ignore[reportPrivateUsage]
    t = FakeTensor(0x9000, 4)
    torch.current = 0x1234
    calls = warm_foreign(dev, fake, t)
    torch.current = 0
    tiny.launch(t, 4, grid=1, block=4, device=dev)
    check_budget("ptx torch", calls)
    assert calls["check_args"] == 0 and torch.asked == 5
    assert fake.streams == [0x1234] * 4 + [0]
    from sarek.runtime.core import LaunchError

    with pytest.raises(LaunchError, match="C-contiguous"):
        tiny.launch(FakeTensor(0x9000, 4, contiguous=False), 4, grid=1, block=4, device=dev)
