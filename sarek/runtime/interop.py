"""Foreign arrays as kernel vectors, used in place (never a silent copy), and DLPack export.

A vector argument may be, besides a numpy array or a `sarek.Vector`:

- device memory of a CUDA device (`cuda`/`ptx` devices only): a PyTorch CUDA tensor, a CuPy array (read
  directly), any object with `__cuda_array_interface__` (v2/v3: Numba, JAX ...) or with `__dlpack__` whose
  `__dlpack_device__` is CUDA. It becomes a `DeviceArray` (pointer, length, dtype, owner); the kernel reads
  and writes that memory.
- a `pyopencl.array.Array` of the device's context (`opencl` devices): its buffer.
- host memory: `__array_interface__`, `__array_struct__`, the buffer protocol, CPU DLPack (`__dlpack__` with
  a CPU `__dlpack_device__`), a CPU PyTorch tensor: a numpy view of the same memory, then as a numpy array.

The kind of a type is decided once per type (`_kind_of`), so a launch of resident arguments costs a dict
look-up per argument; "no array" is not cached (a class may gain `__array_interface__` later). A producer whose
protocol raises or hands back something malformed is a `ForeignError` naming the protocol, never its raw error. `DLPackExport` builds the capsule `sarek.Vector.__dlpack__` hands out for CUDA memory.
"""

from __future__ import annotations

import ctypes
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

#: DLPack device types (dlpack.h)
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_OPENCL, DL_VULKAN, DL_CUDA_MANAGED = 1, 2, 3, 4, 7, 13


@dataclass(eq=False)
class DeviceArray:
    """Foreign device memory passed in place: `handle` is a CUDA pointer (int) or an OpenCL buffer."""

    handle: Any
    size: int
    dtype: np.dtype[Any]
    space: tuple[Any, ...]  # ("cuda", ordinal) | ("opencl", context)
    owner: Any  # keeps the memory alive for the launch (the array, a DLPack capsule)
    readonly: bool = False
    contiguous: bool = True
    stream: Any = None  # the producer's stream (CAI v3) or pyopencl queue, None when there is none
    what: str = "array"
    shape: tuple[int, ...] | None = None  # None: one-dimensional, `size` elements

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize


class ForeignError(Exception):
    """An object that looks like an array but cannot be used (the message says why); check_args words it."""


# ------------------------------------------------------------------------------------------------ kinds

_KINDS: dict[type, str] = {}


def _has(a: Any, name: str) -> bool:
    """`hasattr`, where an attribute whose getter raises counts as present (adapt then reports its error)."""
    try:
        getattr(a, name)
    except AttributeError:
        return False
    except Exception:  # noqa: BLE001 - a broken producer: present, and adapt says how it failed
        return True
    return True


def _kind_of(a: Any) -> str:
    t: Any = type(cast(object, a))
    k = _KINDS.get(t)
    if k is not None:
        return k
    mod = t.__module__.split(".")[0]
    if mod == "torch" and _has(a, "data_ptr"):
        k = "torch"
    elif mod == "cupy" and _has(a, "data") and _has(a, "device"):
        k = "cupy"
    elif mod == "pyopencl" and _has(a, "base_data") and _has(a, "context"):
        k = "clarray"
    elif _has(a, "__cuda_array_interface__"):
        k = "cai"
    elif _has(a, "__dlpack__") and _has(a, "__dlpack_device__"):
        k = "dlpack"
    elif _has(a, "__array_interface__") or _has(a, "__array_struct__"):
        k = "host"
    else:
        try:
            memoryview(a)
            k = "host"
        except TypeError:
            return "none"  # not cached: the class may gain an array protocol later
    _KINDS[t] = k
    return k


def is_foreign(a: Any) -> bool:
    return _kind_of(a) != "none"


def describe(a: Any) -> str:
    t: Any = type(cast(object, a))
    return f"a {t.__module__.split('.')[0]}.{t.__name__}"


_PROTOCOL = {"torch": "PyTorch tensor", "cupy": "CuPy array", "clarray": "pyopencl array",
             "cai": "__cuda_array_interface__", "dlpack": "__dlpack__", "host": "array interface"}


def adapt(a: Any) -> np.ndarray[Any, Any] | DeviceArray | None:
    """A foreign array: host memory comes back as a numpy view of it, device memory as a DeviceArray; None when
    `a` is no array at all. Raises ForeignError, also when the producer's protocol raises or returns something
    malformed (its error is named, not passed through)."""
    k = _kind_of(a)
    if k == "none":
        return None
    try:
        return _adapt(a, k)
    except ForeignError:
        raise
    except Exception as e:  # noqa: BLE001 - a broken producer: its own error, worded for the user
        raise ForeignError(f"its {_PROTOCOL[k]} failed: {type(e).__name__}: {e}") from None


def adapt_required(a: Any, error: type[Exception], prefix: Callable[[], str],
                   missing: Callable[[], str]) -> np.ndarray[Any, Any] | DeviceArray:
    """`adapt(a)` where an array is required: a refused one raises `error` with `prefix()` and the reason, no
    array at all raises `error(missing())` (the messages are built only then: a warm launch pays nothing)."""
    try:
        got = adapt(a)
    except ForeignError as e:
        raise error(f"{prefix()}{describe(a)} cannot be used: {e}") from None
    if got is None:
        raise error(missing())
    return got


def _adapt(a: Any, k: str) -> np.ndarray[Any, Any] | DeviceArray:
    if k == "torch":
        return _torch(a)
    if k == "cupy":
        return DeviceArray(int(a.data.ptr), int(a.size), np.dtype(a.dtype), ("cuda", int(a.device.id)), a,
                           contiguous=bool(a.flags.c_contiguous), what="a CuPy array",
                           shape=tuple(int(x) for x in a.shape))
    if k == "clarray":
        return _clarray(a)
    if k == "cai":
        return from_cai(a, a.__cuda_array_interface__)
    if k == "dlpack":
        dev_type, dev_id = a.__dlpack_device__()
        if int(dev_type) == DL_CPU:
            return _host_view(np.from_dlpack(a))
        if int(dev_type) in (DL_CUDA, DL_CUDA_MANAGED):
            return from_capsule(a.__dlpack__(), ("cuda", int(dev_id)), a)
        raise ForeignError(f"its DLPack device type is {int(dev_type)} (not CPU or CUDA)")
    if not (_has(a, "__array_interface__") or _has(a, "__array_struct__")):
        return _host_view(np.asarray(memoryview(a)))  # bytes and other buffers: their items, not a 0-d array
    return _host_view(np.asarray(a))


def _host_view(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if arr.dtype.hasobject:
        raise ForeignError("its elements are Python objects")
    return arr


_TORCH_DTYPES: dict[Any, np.dtype[Any]] = {}


def _torch(a: Any) -> np.ndarray[Any, Any] | DeviceArray:
    d = _TORCH_DTYPES.get(a.dtype)
    if d is None:
        torch: Any = importlib.import_module("torch")
        table: dict[Any, Any] = {torch.float16: np.float16, torch.float32: np.float32, torch.float64: np.float64,
                 torch.int32: np.int32, torch.int64: np.int64, torch.uint8: np.uint8, torch.int8: np.int8,
                 torch.int16: np.int16, torch.bool: np.bool_,
                 torch.bfloat16: np.uint16}  # bf16: its bits (the host form sarek.types.is_bf16_host accepts)
        if a.dtype not in table:
            raise ForeignError(f"torch dtype {a.dtype} has no sarek element type")
        d = _TORCH_DTYPES[a.dtype] = np.dtype(table[a.dtype])
    if a.is_cuda:
        return DeviceArray(int(a.data_ptr()), int(a.numel()), d, ("cuda", int(a.device.index)), a,
                           contiguous=bool(a.is_contiguous()), what="a PyTorch CUDA tensor",
                           shape=tuple(int(x) for x in a.shape))
    if a.device.type != "cpu":
        raise ForeignError(f"it is a PyTorch tensor on {a.device}")
    if a.dtype.is_floating_point and d == np.dtype(np.uint16):  # bf16: numpy has none, so a view of its bits
        return a.detach().view(importlib.import_module("torch").int16).numpy().view(np.uint16)
    return a.detach().numpy()


def _clarray(a: Any) -> DeviceArray:
    if a.offset:
        raise ForeignError(f"it is a view at byte offset {a.offset} (pass an array that starts its buffer)")
    return DeviceArray(a.base_data, int(a.size), np.dtype(a.dtype), ("opencl", a.context), a,
                       contiguous=bool(a.flags.c_contiguous), stream=a.queue, what="a pyopencl array",
                       shape=tuple(int(x) for x in a.shape))


def c_contiguous(shape: tuple[int, ...], strides: tuple[int, ...] | None, itemsize: int) -> bool:
    if strides is None:
        return True
    want = itemsize
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1 and s != want:
            return False
        want *= n
    return True


def from_cai(owner: Any, cai: dict[str, Any]) -> DeviceArray:
    """A `__cuda_array_interface__` dict (v2/v3). The device is asked from the pointer (CUDA driver)."""
    if cai.get("mask") is not None:
        raise ForeignError("it has a mask (masked arrays are not supported)")
    shape = tuple(int(x) for x in cai["shape"])
    dtype = np.dtype(cai["typestr"])
    if dtype.kind == "V" and cai.get("descr"):
        dtype = np.dtype(cast("list[tuple[str, str]]", [tuple(x) for x in cai["descr"]]))
    ptr, readonly = cai["data"]
    strides = cai.get("strides")
    size = math.prod(shape)
    contiguous = c_contiguous(shape, tuple(strides) if strides is not None else None, dtype.itemsize)
    ordinal = pointer_device(int(ptr)) if size else 0
    return DeviceArray(int(ptr), size, dtype, ("cuda", ordinal), owner, bool(readonly), contiguous,
                       cai.get("stream"), what=describe(owner), shape=shape)


def pointer_device(ptr: int) -> int:
    """The CUDA device ordinal of a device pointer (the driver's pointer attributes); -1 for host memory."""
    from sarek.runtime.cuda_driver import driver

    d = driver()
    err, v = d.cuPointerGetAttribute(d.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr)
    if int(err) != 0:
        raise ForeignError(f"the CUDA driver does not know its pointer {ptr:#x} ({err})")
    return int(v)


# ------------------------------------------------------------------------------------------------ DLPack (ctypes)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),  # pyright: ignore[reportPrivateUsage]
                            ("deleter", _DELETER)]

class _CapsuleApi:
    """Private prototypes of the CPython capsule functions: `ctypes.pythonapi`'s function objects are shared by
    the whole process, and a library that sets their `argtypes` its own way (JAX's or torch's tooling did on the
    H200) would break ours."""

    def __init__(self) -> None:
        api = ctypes.pythonapi
        self.PyCapsule_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
            ("PyCapsule_GetPointer", api))
        self.PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
            ("PyCapsule_New", api))
        self.PyCapsule_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
            ("PyCapsule_IsValid", api))


_api = _CapsuleApi()
_get_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))  # the capsule as a raw address (inside its destructor)

#: DLPack type codes (dlpack.h): kDLInt, kDLUInt, kDLFloat, kDLBfloat (held as its uint16 bits, the host form
#: of bf16 sarek.types.is_bf16_host accepts: torch exports bfloat16 tensors so), kDLBool
_CODES = {0: "i", 1: "u", 2: "f", 4: "u", 6: "b"}
_KIND_CODE = {"i": 0, "u": 1, "f": 2, "b": 6}


def from_capsule(cap: Any, space: tuple[Any, ...], owner: Any) -> DeviceArray:
    """Reads an (unconsumed) `dltensor` capsule. The capsule stays unconsumed and is kept as the owner, so
    the producer's memory lives as long as it does and is released by its own destructor."""
    if type(cast(object, cap)).__name__ != "PyCapsule" or not _api.PyCapsule_IsValid(id(cap), b"dltensor"):
        raise ForeignError(f"its __dlpack__() returned {type(cast(object, cap)).__name__}, not an unconsumed "
                           "'dltensor' capsule")
    p = _api.PyCapsule_GetPointer(cap, b"dltensor")
    mt = DLManagedTensor.from_address(p)
    t = mt.dl_tensor
    code = _CODES.get(int(t.dtype.code))
    if code is None or int(t.dtype.lanes) != 1 or (int(t.dtype.code) == 4 and int(t.dtype.bits) != 16):
        raise ForeignError(f"its DLPack dtype (code {t.dtype.code}, {t.dtype.bits} bits) has no sarek type")
    dtype = np.dtype(np.bool_) if code == "b" else np.dtype(f"{code}{int(t.dtype.bits) // 8}")
    shape = tuple(int(t.shape[i]) for i in range(int(t.ndim)))
    strides = (tuple(int(t.strides[i]) * dtype.itemsize for i in range(int(t.ndim))) if t.strides else None)
    ptr = int(t.data or 0) + int(t.byte_offset)
    return DeviceArray(ptr, math.prod(shape), dtype, space, (cap, owner), False,
                       c_contiguous(shape, strides, dtype.itemsize), what=describe(owner), shape=shape)


_LIVE: dict[int, tuple[Any, ...]] = {}  # address of an exported DLManagedTensor -> what keeps it alive


@_DELETER
def _delete(mt: Any) -> None:
    _LIVE.pop(ctypes.addressof(mt.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(cap: int) -> None:
    """A capsule nobody consumed: its tensor's deleter runs here (the consumer renames consumed capsules)."""
    if _api.PyCapsule_IsValid(cap, b"dltensor"):
        p = _get_pointer_raw(cap, b"dltensor")
        if p:
            _LIVE.pop(int(p), None)


def export_capsule(ptr: int, size: int, dtype: np.dtype[Any], device: tuple[int, int], keep: Any) -> Any:
    """A `dltensor` capsule for `size` elements of `dtype` at `ptr` on DLPack device `device`; `keep` stays
    alive until the consumer calls the deleter."""
    if dtype.kind not in _KIND_CODE or dtype.fields is not None:
        raise BufferError(f"a DLPack export of dtype {dtype} is not supported")
    shape = (ctypes.c_int64 * 1)(size)
    mt = DLManagedTensor()
    mt.dl_tensor.data = ptr or None
    mt.dl_tensor.device = DLDevice(device[0], device[1])
    mt.dl_tensor.ndim = 1
    mt.dl_tensor.dtype = DLDataType(_KIND_CODE[dtype.kind], dtype.itemsize * 8, 1)
    mt.dl_tensor.shape = shape
    mt.dl_tensor.strides = None
    mt.dl_tensor.byte_offset = 0
    mt.deleter = _delete
    addr = ctypes.addressof(mt)
    _LIVE[addr] = (mt, shape, keep)
    return _api.PyCapsule_New(addr, b"dltensor", ctypes.cast(_capsule_destructor, ctypes.c_void_p))


def typestr(dtype: np.dtype[Any]) -> str:
    return dtype.str
