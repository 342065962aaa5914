"""`sarek.Vector`: a 1-D array that can stay resident on devices between launches.

The data lives in up to several places (the host and any devices); a place is *valid* when it holds the
latest data. Launching on device D uploads only when D's copy is stale; a kernel that may write the vector
makes D the only valid place; reading on the host (`to_numpy()`, indexing, `np.asarray`) downloads once.
Host writes go through `v[i] = x`, `v.copy_from(array)` or `with v.host() as a:`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from sarek.runtime.streams import Pending, settle, uploaded
from sarek.types import is_ndarray

if TYPE_CHECKING:
    from sarek.runtime.core import Device


class BufferCodec(Protocol):
    """How a vector's elements sit in one device's buffer. `key` names the layout: a launch that needs
    another layout on the same device brings the data home first and re-uploads it."""

    key: str

    def device_nbytes(self, host: np.ndarray[Any, Any]) -> int: ...

    def upload(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None: ...

    def download(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None: ...


def to_device_layout(host: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Device memory holds bool elements as int (the aligned layout's i1); everything else as is."""
    return host.astype(np.int32) if host.dtype == np.bool_ else host


def download_into(dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None:
    if host.dtype == np.bool_:
        tmp = np.empty(host.shape, np.int32)
        dev._download(buf, tmp)  # pyright: ignore[reportPrivateUsage]
        host[...] = tmp != 0
    else:
        dev._download(buf, host)  # pyright: ignore[reportPrivateUsage]


def _no_devices(name: str) -> Device:
    raise RuntimeError(f"no device '{name}': sarek.runtime is not initialised")


#: how `Vector.from_dlpack` finds a device by name: sarek.runtime sets its `get_device` here (the package
#: imports this module, so this module does not import the package back)
resolve_device: Callable[[str], Device] = _no_devices


class NativeCodec:
    """The host layout itself (bool as int32): OpenCL, CUDA and PTX buffers."""

    key = "native"

    def device_nbytes(self, host: np.ndarray[Any, Any]) -> int:
        return host.size * (4 if host.dtype == np.bool_ else host.dtype.itemsize)

    def upload(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None:
        dev._upload(buf, to_device_layout(host))  # pyright: ignore[reportPrivateUsage]

    def download(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None:
        download_into(dev, buf, host)


NATIVE = NativeCodec()


class Vector:
    def __init__(self, data: Any, dtype: Any = None):
        """`Vector(array)` copies a numpy array (flattened); `Vector(n, dtype)` makes n zeros."""
        if isinstance(data, int | np.integer) and not isinstance(data, bool):
            if dtype is None:
                raise TypeError("Vector(n, dtype): give the element dtype")
            n = int(cast("int | np.integer[Any]", data))
            if n < 0:
                raise ValueError(f"Vector(n, dtype): n must be at least 0, got {n}")
            arr = np.zeros(n, dtype=_dtype(dtype))
        else:
            try:
                arr = np.array(data, dtype=_dtype(dtype) if dtype is not None else None, copy=True, order="C")
            except (TypeError, ValueError) as e:
                raise TypeError(f"Vector(data): cannot make an array of {type(data).__name__}"
                                f"{'' if dtype is None else f' with dtype {dtype!r}'}: {e}") from None
            if arr.ndim != 1:
                arr = arr.reshape(-1)
        if arr.dtype.kind not in "biufV" or arr.dtype.hasobject:
            raise TypeError(f"sarek.Vector: elements of dtype {arr.dtype} cannot go to a device (use bool, integer, "
                            "float or a record/variant dtype)")
        self._host: np.ndarray[Any, Any] = arr
        self._host_valid = True
        self._buffers: dict[Any, tuple[Device, Any, BufferCodec]] = {}  # device.buffer_key -> (device, buffer, codec)
        self._valid: set[Any] = set()  # buffer keys of the devices holding the latest data
        #: per buffer key, the launches on it that may still run (sarek.runtime.streams orders streams by it)
        self._pending: dict[Any, Pending] = {}
        #: a variant vector's tags were checked since the host last wrote it (check_args sets it)
        self.tags_checked = False
        #: number of host<->device transfers so far (tests and benchmarks read it)
        self.transfers = 0

    # -- properties

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._host.dtype

    @property
    def size(self) -> int:
        return int(self._host.size)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    @property
    def nbytes(self) -> int:
        return int(self._host.nbytes)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        where = (["host"] if self._host_valid else []) + [d.name for i, (d, _, _) in self._buffers.items()
                                                            if i in self._valid]
        return f"sarek.Vector({self.size} x {self.dtype}, valid on {', '.join(where)})"

    # -- host access

    def _sync_host(self) -> None:
        if self._host_valid:
            return
        for i in self._valid:
            dev, buf, codec = self._buffers[i]
            dev.synchronize()
            if self.nbytes:
                codec.download(dev, buf, self._host)
            self.transfers += 1
            self._host_valid = True
            return
        raise RuntimeError("sarek.Vector has no valid copy")  # pragma: no cover

    def to_numpy(self) -> np.ndarray[Any, Any]:
        """A copy of the current contents."""
        self._sync_host()
        return self._host.copy()

    numpy = to_numpy

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        a = self.to_numpy()
        return a if dtype is None else a.astype(dtype)

    def __getitem__(self, i: Any) -> Any:
        self._sync_host()
        r = cast(Any, self._host[i])  # an element or a sub-array, depending on i
        return r.copy() if is_ndarray(r) else r

    def __setitem__(self, i: Any, v: Any) -> None:
        with self.host() as a:
            a[i] = v

    def copy_from(self, data: Any) -> None:
        """Replace the contents (same size) from a host array."""
        src = np.asarray(data, dtype=self.dtype).reshape(-1)
        if src.size != self.size:
            raise ValueError(f"copy_from: {src.size} elements into a Vector of {self.size}")
        self._host[...] = src
        self.mark_written_on_host()

    @contextmanager
    def host(self) -> Generator[np.ndarray[Any, Any]]:
        """`with v.host() as a:` — the host array, writable; device copies are stale afterwards."""
        self._sync_host()
        yield self._host
        self.mark_written_on_host()

    # -- used by devices

    def host_array_for_write(self) -> np.ndarray[Any, Any]:
        """The host array, up to date, for a device that runs on the host (the interpreter)."""
        self._sync_host()
        return self._host

    def mark_written_on_host(self) -> None:
        self._host_valid = True
        self._valid.clear()
        self.tags_checked = False

    def device_buffer(self, dev: Device, codec: BufferCodec = NATIVE) -> Any:
        """The buffer on `dev` in `codec`'s layout, uploaded first when stale."""
        key = dev.buffer_key
        held = self._buffers.get(key)
        if held is not None and held[2].key != codec.key:
            self.release(dev)  # another layout on the same device: bring the data home, drop that copy
            held = None
        if held is None:
            held = (dev, dev._alloc(max(codec.device_nbytes(self._host), 1)), codec)  # pyright: ignore[reportPrivateUsage]
            self._buffers[key] = held
        buf = held[1]
        if key not in self._valid:
            self._sync_host()
            if self._pending and dev.multi_stream:
                settle(dev, self)  # launches on other streams may still use the buffer the upload overwrites
            if self.nbytes:
                codec.upload(dev, buf, self._host)
            if dev.multi_stream:
                uploaded(dev, self)  # a write on the default stream, for launches on the others to wait for
            self.transfers += 1
            self._valid.add(key)
        return buf

    def resident_buffer(self, key: Any, codec_key: str = "native") -> Any:
        """The buffer (in the layout `codec_key`) of the device with buffer_key `key` when it holds the latest
        data, else None (the launch fast path: no upload needed)."""
        if key in self._valid:
            held = self._buffers[key]
            if held[2].key == codec_key:
                return held[1]
        return None

    def launch_buffer(self, key: Any, codec_key: str, dtype: np.dtype[Any]) -> tuple[Any, int] | None:
        """(buffer, length) for the launch fast path: when the vector is of `dtype` and the device with buffer_key
        `key` holds its latest data in layout `codec_key` (one call per argument: the dtype, size and
        resident_buffer it stands for were three)."""
        host = self._host
        if key not in self._valid or host.dtype is not dtype and host.dtype != dtype:  # (`is`: numpy's == is slow)
            return None
        held = self._buffers[key]
        return (held[1], host.size) if held[2].key == codec_key else None

    def mark_written_on(self, dev: Device) -> None:
        self.mark_written_key(dev.buffer_key)

    def mark_written_key(self, key: Any) -> None:
        """The device with buffer_key `key` wrote the vector: its copy is the only valid one."""
        self._valid = {key}
        self._host_valid = False

    def release(self, dev: Device | None = None) -> None:
        """Free device copies (all, or `dev`'s), downloading first if that copy is the only valid one."""
        self._sync_host()
        for key in [k for k in self._buffers if dev is None or k == dev.buffer_key]:
            d, buf, _ = self._buffers.pop(key)
            self._valid.discard(key)
            d._free(buf)  # pyright: ignore[reportPrivateUsage]

    # -- interop: zero-copy export and adoption (sarek.runtime.interop)

    def _cuda_copy(self) -> tuple[Device, Any] | None:
        """(device, pointer) of a valid copy on a CUDA device, or None."""
        for key in self._valid:
            dev, buf, codec = self._buffers[key]
            if dev.kind in ("cuda", "ptx") and codec.key == "native":
                return dev, buf
        return None

    def _exportable(self, what: str) -> None:
        if self.dtype == np.bool_ or self.dtype.fields is not None:
            raise AttributeError(f"sarek.Vector.{what}: {self.dtype} elements have no shared layout (bool is "
                                 "int32 on devices; records and variants are structs)")

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The CUDA memory of this vector (v3), while it is valid on a CUDA device: `cupy.asarray(v)`,
        `torch.as_tensor(v, device="cuda")`, Numba share it. The consumer may write it, so the device copy
        becomes the only valid one (the host copy is refreshed when next read)."""
        self._exportable("__cuda_array_interface__")
        held = self._cuda_copy()
        if held is None:
            raise AttributeError("sarek.Vector.__cuda_array_interface__: the vector is not valid on a CUDA device "
                                 "(launch a kernel on one with it first)")
        dev, buf = held
        dev.synchronize()  # stream None (v3): the data is ready when handed out
        self.mark_written_on(dev)
        return {"shape": (self.size,), "typestr": self.dtype.str, "data": (int(buf), False), "version": 3,
                "strides": None, "stream": None}

    def __dlpack_device__(self) -> tuple[int, int]:
        from sarek.runtime.interop import DL_CPU, DL_CUDA

        held = self._cuda_copy()
        return (DL_CUDA, int(getattr(held[0], "index", 0))) if held is not None else (DL_CPU, 0)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        """A DLPack capsule of the vector's memory: its CUDA copy while valid on a CUDA device, else the host
        array. Either way that copy becomes the only valid one (the consumer may write it)."""
        from sarek.runtime.interop import DL_CUDA, export_capsule

        self._exportable("__dlpack__")
        if copy:
            raise BufferError("sarek.Vector.__dlpack__(copy=True): sarek exports its memory, never a copy")
        held = self._cuda_copy()
        if held is None:
            self._sync_host()
            self.mark_written_on_host()
            kw = {"max_version": max_version} if max_version is not None else {}
            return self._host.__dlpack__(stream=stream, **kw)
        dev, buf = held
        if stream != -1:
            dev.synchronize()
        self.mark_written_on(dev)
        return export_capsule(int(buf), self.size, self.dtype, (DL_CUDA, int(getattr(dev, "index", 0))), self)

    @classmethod
    def from_dlpack(cls, x: Any, device: Any = None) -> Vector:
        """A Vector over `x`'s memory (no copy): a CUDA array (`__dlpack__`, `__cuda_array_interface__`) becomes
        the vector's copy on that CUDA device (`device`: "cuda:N" or "ptx:N", default cuda), host memory its host
        array. Writes through either side are seen by the other; `x` is kept alive."""
        from sarek.runtime import interop

        got = interop.adapt_required(x, TypeError, lambda: "Vector.from_dlpack: ",
                                     lambda: f"Vector.from_dlpack: {type(x).__name__} has no __dlpack__, "
                                     "__cuda_array_interface__ or __array_interface__")
        if not isinstance(got, interop.DeviceArray):
            if not got.flags.c_contiguous:
                raise TypeError("Vector.from_dlpack: the array is not C-contiguous")
            v = cls.__new__(cls)
            cls._adopt_host(v, got.reshape(-1))
            return v
        if got.space[0] != "cuda" or not got.contiguous:
            raise TypeError(f"Vector.from_dlpack: {got.what} must be C-contiguous CUDA memory")
        dev = resolve_device(device if device is not None else f"cuda:{got.space[1]}")
        if dev.memory_space != got.space:
            raise TypeError(f"Vector.from_dlpack: the memory is on CUDA device {got.space[1]}, not {dev.name}")
        v = cls.__new__(cls)
        cls._adopt_host(v, np.empty(got.size, got.dtype))
        v._buffers[dev.buffer_key] = (dev, Borrowed(int(got.handle), got.owner), NATIVE)
        v.mark_written_on(dev)
        return v

    def _adopt_host(self, arr: np.ndarray[Any, Any]) -> None:
        self._host = arr
        self._host_valid = True
        self._buffers = {}
        self._valid = set()
        self._pending = {}
        self.tags_checked = False
        self.transfers = 0

    def __del__(self) -> None:
        try:
            for d, buf, _ in self._buffers.values():
                d._free(buf)  # pyright: ignore[reportPrivateUsage]
        except Exception:
            pass


class Borrowed(int):
    """A device pointer a Vector uses but does not own (from_dlpack): devices never free it."""

    owner: Any

    def __new__(cls, ptr: int, owner: Any) -> Borrowed:
        b = super().__new__(cls, ptr)
        b.owner = owner
        return b


def _dtype(d: Any) -> np.dtype[Any]:
    """numpy dtypes, sarek scalar types (f32 ...) and record/variant classes with `.dtype`."""
    from sarek.types import ScalarType

    if isinstance(d, ScalarType):
        return np.dtype(np.bool_) if d.name == "bool" else d.np_dtype
    try:
        return np.dtype(d)
    except TypeError:
        inner = getattr(d, "dtype", None)
        if inner is None:
            raise TypeError(f"sarek.Vector: {d!r} is not an element type (give a numpy dtype, a sarek scalar "
                            "type such as f32, or a record/variant class)") from None
        return np.dtype(inner)
