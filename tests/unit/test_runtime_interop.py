"""Foreign arrays on the CPU devices, in place (issue 13): numpy-compatible objects through `__dlpack__`,
`__array_interface__` and the buffer protocol on every device; pyopencl arrays on pocl (their own buffer, no
copy); `sarek.Vector` exported through DLPack and adopted with `Vector.from_dlpack`; asynchronous launches on
pocl and lavapipe (the host waits only where it must)."""

from __future__ import annotations

import array
import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, f32, f32x4, i32, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.runtime import LaunchError  # noqa: E402

DEVICES = ["interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl"]


@kernel
def axpy(x: Vec[f32], y: Vec[f32], a: f32, n: i32):
    i = global_thread_id
    if i < n:
        y[i] = a * x[i] + y[i]


@kernel
def spin(a: Vec[f32], iters: i32, n: i32):
    i = global_thread_id
    if i < n:
        acc = a[i]
        for k in range(iters):
            acc = acc * 0.999 + 1.0
        a[i] = acc


class DLPackOnly:
    """An array exposing only DLPack (as a JAX or other framework's CPU array does)."""

    def __init__(self, a: np.ndarray):
        self._a = a

    def __dlpack__(self, **kw: Any) -> Any:
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self._a.__dlpack_device__()


class InterfaceOnly:
    """An array exposing only `__array_interface__` (as many older libraries do)."""

    def __init__(self, a: np.ndarray):
        self._a = a
        self.__array_interface__ = a.__array_interface__


@pytest.mark.parametrize("wrap", [DLPackOnly, InterfaceOnly], ids=["dlpack", "array_interface"])
@pytest.mark.parametrize("dev", DEVICES)
def test_numpy_compatible_objects_in_place(dev, wrap):
    x = np.arange(8, dtype=np.float32)
    y = np.ones(8, np.float32)
    axpy.launch(wrap(x), wrap(y), 2.0, 8, grid=1, block=8, device=dev)
    assert (y == 2 * x + 1).all()  # written into the object's own memory


@pytest.mark.parametrize("dev", DEVICES)
def test_buffer_protocol(dev):
    x = array.array("f", range(4))
    y = array.array("f", [1.0] * 4)
    axpy.launch(x, y, 3.0, 4, grid=1, block=4, device=dev)
    assert list(y) == [1.0, 4.0, 7.0, 10.0]


def test_foreign_checks_name_the_parameter():
    x = np.zeros(8, np.float32)
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\) expects a vector of float32, got an array of "
                                          "float64"):
        axpy.launch(x, DLPackOnly(np.zeros(8)), 1.0, 8, grid=1, block=8)
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\) is not C-contiguous"):
        axpy.launch(x, InterfaceOnly(np.zeros(16, np.float32)[::2]), 1.0, 8, grid=1, block=8)
    ro = np.zeros(8, np.float32)
    ro.flags.writeable = False
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\) is written by the kernel but the array is read-only"):
        axpy.launch(x, InterfaceOnly(ro), 1.0, 8, grid=1, block=8)
    axpy.launch(InterfaceOnly(ro), np.zeros(8, np.float32), 1.0, 8, grid=1, block=8)  # read-only input: fine
    with pytest.raises(LaunchError, match=r"argument 'x' \(#1\) .* got list"):
        axpy.launch([1.0] * 8, x, 1.0, 8, grid=1, block=8)


def _cl():
    cla = pytest.importorskip("pyopencl.array")
    return cla


def test_pyopencl_array_on_pocl_in_place(monkeypatch):
    cla = _cl()
    dev = sarek.get_device("opencl")
    x = cla.to_device(dev.queue, np.arange(16, dtype=np.float32))
    y = cla.to_device(dev.queue, np.ones(16, np.float32))
    monkeypatch.setattr(dev, "_alloc", lambda n: pytest.fail("a pyopencl array was copied into a new buffer"))
    axpy.launch(x, y, 2.0, 16, grid=1, block=16, device=dev)
    assert (y.get() == 2 * np.arange(16) + 1).all()
    axpy.launch(x, y, 2.0, 16, grid=1, block=16, device=dev, stream=y.queue)
    assert (y.get() == 4 * np.arange(16) + 1).all()


@kernel
def twice4(x: Vec[f32x4], y: Vec[f32x4]):
    i = global_thread_id
    if i < len(x):
        y[i] = 2.0 * x[i]


def test_foreign_lanes_array_is_a_vector_of_short_vectors(monkeypatch):
    """A foreign (n, 4) float32 array is n f32x4 elements, in place, as a numpy (n, 4) array is; an (n, 3) one
    is refused with the parameter's name."""
    cla = _cl()
    dev = sarek.get_device("opencl")
    x = cla.to_device(dev.queue, np.arange(32, dtype=np.float32).reshape(8, 4))
    y = cla.to_device(dev.queue, np.zeros((8, 4), np.float32))
    monkeypatch.setattr(dev, "_alloc", lambda n: pytest.fail("a pyopencl array was copied into a new buffer"))
    twice4.launch(x, y, grid=1, block=8, device=dev)
    assert (y.get() == 2 * np.arange(32).reshape(8, 4)).all()
    z = cla.to_device(dev.queue, np.zeros((8, 3), np.float32))
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\)"):
        twice4.launch(x, z, grid=1, block=8, device=dev)


def test_pyopencl_array_elsewhere_is_refused():
    cla = _cl()
    import pyopencl as cl

    dev = sarek.get_device("opencl")
    other = cl.CommandQueue(cl.Context([dev.device]))
    y = cla.to_device(other, np.ones(4, np.float32))
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\): a pyopencl array lives in another OpenCL context"):
        axpy.launch(x, y, 1.0, 4, grid=1, block=4, device=dev)
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\): a pyopencl array lives in opencl device memory; "
                                          "interp cannot use it in place"):
        axpy.launch(x, y, 1.0, 4, grid=1, block=4, device="interp")
    with pytest.raises(LaunchError, match="view at byte offset"):
        axpy.launch(x, cla.to_device(dev.queue, np.ones(8, np.float32))[4:], 1.0, 4, grid=1, block=4, device=dev)


@pytest.mark.parametrize("dev", DEVICES)
def test_vector_dlpack_export_and_adoption_share_memory(dev):
    v = sarek.Vector(np.zeros(8, np.float32))
    axpy.launch(np.ones(8, np.float32), v, 1.0, 8, grid=1, block=8, device=dev)
    h = np.from_dlpack(v)  # the host copy, shared
    assert (h == 1).all()
    h[0] = 5.0  # a write through the export is seen by the Vector (and goes to the device next launch)
    axpy.launch(np.ones(8, np.float32), v, 1.0, 8, grid=1, block=8, device=dev)
    assert v.to_numpy().tolist() == [6.0] + [2.0] * 7
    base = np.zeros(4, np.float32)
    w = sarek.Vector.from_dlpack(base)
    axpy.launch(np.ones(4, np.float32), w, 3.0, 4, grid=1, block=4, device=dev)
    assert (w.to_numpy() == 3).all()
    assert (base == 3).all()  # the adopted memory itself
    with pytest.raises(TypeError, match="from_dlpack"):
        sarek.Vector.from_dlpack([1.0, 2.0])


def test_vector_cuda_array_interface_absent_without_cuda():
    v = sarek.Vector(np.zeros(4, np.float32))
    assert not hasattr(v, "__cuda_array_interface__")
    assert v.__dlpack_device__() == (1, 0)


def test_pocl_launch_is_asynchronous():
    """The launch returns with the kernel still queued; reading the Vector waits for it; numpy outputs are
    complete when the launch returns."""
    import pyopencl as cl

    dev = sarek.get_device("opencl")
    n = 4096
    v = sarek.Vector(np.zeros(n, np.float32))
    spin.launch(v, 1, n, grid=n // 64, block=64, device=dev)  # compiled and warm
    dev.synchronize()
    spin.launch(v, 20000, n, grid=n // 64, block=64, device=dev)
    marker = cl.enqueue_marker(dev.queue)
    assert marker.command_execution_status != cl.command_execution_status.COMPLETE
    got = v.to_numpy()  # waits
    want = np.zeros(n, np.float32)
    for _ in range(1):
        want = want * np.float32(0.999) + np.float32(1.0)
    acc = want.copy()
    for _ in range(20000):
        acc = acc * np.float32(0.999) + np.float32(1.0)
    assert np.allclose(got, acc, rtol=1e-4)
    out = np.zeros(n, np.float32)
    spin.launch(out, 100, n, grid=n // 64, block=64, device=dev)
    assert out[0] > 0  # copied back before the launch returned


@pytest.mark.parametrize("dev", ["vulkan", "vulkan-glsl"])
def test_vulkan_async_then_synchronize(dev):
    d = sarek.get_device(dev)
    n = 1024
    v = sarek.Vector(np.zeros(n, np.float32))
    for _ in range(5):
        axpy.launch(np.ones(n, np.float32), v, 1.0, n, grid=n // 64, block=64, device=d)
    for _ in range(5):  # resident only: submitted, not waited for
        axpy.launch(v, v, 1.0, n, grid=n // 64, block=64, device=d)
    d.synchronize()
    sarek.synchronize()
    assert (v.to_numpy() == 5 * 32).all()


class _CudaBf16Capsule:
    """A CUDA-side DLPack producer of bfloat16 (kDLBfloat, code 4), as torch exports a bf16 tensor; the memory is
    never touched (adapt only reads the capsule)."""

    def __init__(self, bits: int = 16):
        from sarek.runtime import interop

        self._keep = np.zeros(8, np.uint16)
        self._cap = interop.export_capsule(self._keep.ctypes.data, 8, np.dtype(np.uint16), (interop.DL_CUDA, 0),
                                           self._keep)
        mt = interop.DLManagedTensor.from_address(interop._api.PyCapsule_GetPointer(self._cap, b"dltensor"))
        mt.dl_tensor.dtype.code, mt.dl_tensor.dtype.bits = 4, bits

    def __dlpack__(self, **kw: Any) -> Any:
        return self._cap

    def __dlpack_device__(self) -> Any:
        return (2, 0)


def test_dlpack_bfloat16_is_bf16_bits():
    """DLPack's kDLBfloat 16-bit (torch's bf16 export) arrives as uint16 bits, the host form of bf16 that a
    bf16 parameter accepts; another width of it is refused with its code."""
    from sarek.runtime import interop
    from sarek.runtime.args import same_layout
    from sarek.types import bf16_dtype

    da = interop.adapt(_CudaBf16Capsule())
    assert isinstance(da, interop.DeviceArray) and da.dtype == np.dtype(np.uint16) and da.size == 8
    assert same_layout(da.dtype, bf16_dtype())
    with pytest.raises(interop.ForeignError, match="code 4, 32 bits"):
        interop.adapt(_CudaBf16Capsule(bits=32))


def test_dlpack_export_survives_another_librarys_capsule_prototypes():
    """`ctypes.pythonapi`'s functions are shared by the process: on the H200, after the JAX/torch tests had
    set `PyCapsule_New.argtypes` their own way, Vector's DLPack export failed with a ctypes.ArgumentError."""
    import ctypes

    from sarek.runtime.interop import export_capsule, from_capsule

    api = ctypes.pythonapi
    saved = (api.PyCapsule_New.argtypes, api.PyCapsule_IsValid.argtypes, api.PyCapsule_GetPointer.argtypes)
    destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, destructor]
    api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    try:
        a = np.arange(6, dtype=np.float32)
        cap = export_capsule(a.ctypes.data, a.size, a.dtype, (1, 0), a)
        back = from_capsule(cap, ("cpu",), a)
        assert back.handle == a.ctypes.data and back.size == 6 and back.dtype == np.float32
    finally:
        api.PyCapsule_New.argtypes, api.PyCapsule_IsValid.argtypes, api.PyCapsule_GetPointer.argtypes = saved
