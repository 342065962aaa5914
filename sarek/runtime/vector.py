"""`sarek.Vector`: a 1-D array that can stay resident on devices between launches.

The data lives in up to several places (the host and any devices); a place is *valid* when it holds the
latest data. Launching on device D uploads only when D's copy is stale; a kernel that may write the vector
makes D the only valid place; reading on the host (`to_numpy()`, indexing, `np.asarray`) downloads once.
Host writes go through `v[i] = x`, `v.copy_from(array)` or `with v.host() as a:`.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

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


class NativeCodec:
    """The host layout itself (bool as int32): OpenCL, CUDA and PTX buffers."""

    key = "native"

    def device_nbytes(self, host: np.ndarray[Any, Any]) -> int:
        return host.size * (4 if host.dtype == np.bool_ else host.dtype.itemsize)

    def upload(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None:
        from sarek.runtime.core import to_device_layout

        dev._upload(buf, to_device_layout(host))  # pyright: ignore[reportPrivateUsage]

    def download(self, dev: Device, buf: Any, host: np.ndarray[Any, Any]) -> None:
        from sarek.runtime.core import download_into

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
        self._buffers: dict[int, tuple[Device, Any, BufferCodec]] = {}  # id(device) -> (device, buffer, codec)
        self._valid: set[int] = set()  # ids of devices holding the latest data
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
        self._host_valid = True
        self._valid.clear()

    @contextmanager
    def host(self) -> Generator[np.ndarray[Any, Any]]:
        """`with v.host() as a:` — the host array, writable; device copies are stale afterwards."""
        self._sync_host()
        yield self._host
        self._valid.clear()

    # -- used by devices

    def host_array_for_write(self) -> np.ndarray[Any, Any]:
        """The host array, up to date, for a device that runs on the host (the interpreter)."""
        self._sync_host()
        return self._host

    def mark_written_on_host(self) -> None:
        self._host_valid = True
        self._valid.clear()

    def device_buffer(self, dev: Device, codec: BufferCodec = NATIVE) -> Any:
        """The buffer on `dev` in `codec`'s layout, uploaded first when stale."""
        key = id(dev)
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
            if self.nbytes:
                codec.upload(dev, buf, self._host)
            self.transfers += 1
            self._valid.add(key)
        return buf

    def mark_written_on(self, dev: Device) -> None:
        self._valid = {id(dev)}
        self._host_valid = False

    def release(self, dev: Device | None = None) -> None:
        """Free device copies (all, or `dev`'s), downloading first if that copy is the only valid one."""
        self._sync_host()
        for key in [k for k in self._buffers if dev is None or k == id(dev)]:
            d, buf, _ = self._buffers.pop(key)
            self._valid.discard(key)
            d._free(buf)  # pyright: ignore[reportPrivateUsage]

    def __del__(self) -> None:
        try:
            for d, buf, _ in self._buffers.values():
                d._free(buf)  # pyright: ignore[reportPrivateUsage]
        except Exception:
            pass


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
