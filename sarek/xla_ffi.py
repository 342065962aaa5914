"""The slice of XLA's FFI C API (xla/ffi/api/c_api.h) a Python handler needs, as ctypes structures.

`handler(fn)` wraps `fn(call: FfiCall) -> None` as an `XLA_FFI_Handler` C function pointer: it answers XLA's
metadata query (API version 0.1, no traits: XLA does not capture it into command buffers, so a first launch may
compile), decodes the arguments, results, the integer scalar attributes and the CUDA stream, and turns a Python
exception into an `XLA_FFI_Error` with the message (never a crash, never a silent success). No C++ is built:
this is the approach NVIDIA Warp's `jax_kernel` takes. Nothing here imports JAX.
"""

from __future__ import annotations

import ctypes
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

c_size, c_i64, c_int, c_void = ctypes.c_size_t, ctypes.c_int64, ctypes.c_int, ctypes.c_void_p

#: XLA_FFI_DataType -> numpy dtype (the types a sarek kernel's arrays can have)
DTYPES: dict[int, np.dtype[Any]] = {1: np.dtype(np.bool_), 2: np.dtype(np.int8), 3: np.dtype(np.int16),
                                    4: np.dtype(np.int32), 5: np.dtype(np.int64), 6: np.dtype(np.uint8),
                                    7: np.dtype(np.uint16), 8: np.dtype(np.uint32), 9: np.dtype(np.uint64),
                                    10: np.dtype(np.float16), 11: np.dtype(np.float32), 12: np.dtype(np.float64)}
EXTENSION_METADATA, ATTR_SCALAR, ERROR_UNKNOWN = 1, 3, 2
_INT_ATTRS: dict[int, type[ctypes.c_int32 | ctypes.c_int64 | ctypes.c_uint32 | ctypes.c_uint64]] = {4: ctypes.c_int32, 5: ctypes.c_int64, 8: ctypes.c_uint32, 9: ctypes.c_uint64}


class ExtensionBase(ctypes.Structure):
    pass


ExtensionBase._fields_ = [("struct_size", c_size), ("type", c_int),  # pyright: ignore[reportPrivateUsage]
                          ("next", ctypes.POINTER(ExtensionBase))]
_EXT = ctypes.POINTER(ExtensionBase)


class Buffer(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("dtype", c_int), ("data", c_void),
                ("rank", c_i64), ("dims", ctypes.POINTER(c_i64))]


class _List(ctypes.Structure):  # XLA_FFI_Args and XLA_FFI_Rets have one layout
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("size", c_i64),
                ("types", ctypes.POINTER(c_int)), ("items", ctypes.POINTER(c_void))]


class ByteSpan(ctypes.Structure):
    _fields_ = [("ptr", ctypes.POINTER(ctypes.c_char)), ("len", c_size)]


class Scalar(ctypes.Structure):
    _fields_ = [("dtype", c_int), ("value", c_void)]


class Attrs(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("size", c_i64),
                ("types", ctypes.POINTER(c_int)), ("names", ctypes.POINTER(ctypes.POINTER(ByteSpan))),
                ("attrs", ctypes.POINTER(c_void))]


class ApiVersion(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("major_version", c_int),
                ("minor_version", c_int)]


class Metadata(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("api_version", ApiVersion), ("traits", ctypes.c_uint32)]


class MetadataExtension(ctypes.Structure):
    _fields_ = [("extension_base", ExtensionBase), ("metadata", ctypes.POINTER(Metadata))]


class ErrorCreateArgs(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("message", ctypes.c_char_p), ("errc", c_int)]


class StreamGetArgs(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("ctx", c_void), ("stream", c_void)]


_ErrorCreate = ctypes.CFUNCTYPE(c_void, ctypes.POINTER(ErrorCreateArgs))
_StreamGet = ctypes.CFUNCTYPE(c_void, ctypes.POINTER(StreamGetArgs))


class Api(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("api_version", ApiVersion),
                ("internal_api", c_void), ("error_create", _ErrorCreate), ("error_get_message", c_void),
                ("error_destroy", c_void), ("handler_register", c_void), ("stream_get", _StreamGet)]


class CallFrame(ctypes.Structure):
    _fields_ = [("struct_size", c_size), ("extension_start", _EXT), ("api", ctypes.POINTER(Api)),
                ("ctx", c_void), ("stage", c_int), ("args", _List), ("rets", _List), ("attrs", Attrs),
                ("future", c_void)]


HANDLER = ctypes.CFUNCTYPE(c_void, ctypes.POINTER(CallFrame))


@dataclass
class Array:
    """One XLA buffer as a sarek argument: exports `__cuda_array_interface__` (v2, no stream: the launch is
    given XLA's stream), so the runtime uses the memory in place."""

    ptr: int
    shape: tuple[int, ...]
    dtype: np.dtype[Any]

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False), "version": 2}


@dataclass
class FfiCall:
    """A decoded call: argument and result buffers, integer scalar attributes by name, the CUDA stream."""

    args: list[Array]
    rets: list[Array]
    attrs: dict[str, int]
    stream: int


def _buffers(lst: _List) -> list[Array]:
    out: list[Array] = []
    for i in range(int(lst.size)):
        b = ctypes.cast(lst.items[i], ctypes.POINTER(Buffer)).contents
        dt = DTYPES.get(int(b.dtype))
        if dt is None:
            raise TypeError(f"XLA element type {int(b.dtype)} has no sarek type")
        out.append(Array(int(b.data or 0), tuple(int(b.dims[k]) for k in range(int(b.rank))), dt))
    return out


def _attrs(a: Attrs) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in range(int(a.size)):
        if int(a.types[i]) != ATTR_SCALAR:
            continue
        span = a.names[i].contents
        name = ctypes.string_at(span.ptr, span.len).decode()
        s = ctypes.cast(a.attrs[i], ctypes.POINTER(Scalar)).contents
        ct = _INT_ATTRS.get(int(s.dtype))
        if ct is not None:
            out[name] = int(ct.from_address(int(s.value or 0)).value)
    return out


def _stream(frame: CallFrame) -> int:
    args = StreamGetArgs(ctypes.sizeof(StreamGetArgs), _EXT(), frame.ctx, None)
    err = frame.api.contents.stream_get(ctypes.byref(args))
    if err:
        raise RuntimeError("XLA_FFI_Stream_Get failed")
    return int(args.stream or 0)


def _error(frame: CallFrame, message: str) -> int:
    args = ErrorCreateArgs(ctypes.sizeof(ErrorCreateArgs), _EXT(), message.encode(), ERROR_UNKNOWN)
    return int(frame.api.contents.error_create(ctypes.byref(args)) or 0)


def handler(fn: Callable[[FfiCall], None], debug: bool = False) -> Any:
    """`fn` as an XLA FFI handler (keep the returned object alive as long as XLA may call it)."""

    def call(frame_p: Any) -> int | None:
        frame = frame_p.contents
        try:
            ext = frame.extension_start
            if ext and ext.contents.type == EXTENSION_METADATA:
                md = ctypes.cast(ext, ctypes.POINTER(MetadataExtension)).contents.metadata.contents
                md.api_version.major_version, md.api_version.minor_version = 0, 1
                md.traits = 0
                return None
            fn(FfiCall(_buffers(frame.args), _buffers(frame.rets), _attrs(frame.attrs), _stream(frame)))
        except BaseException as e:  # noqa: BLE001 - reported to XLA, which raises it in the caller
            if debug:
                traceback.print_exc()
            return _error(frame, f"sarek: {type(e).__name__}: {e}")
        return None

    return HANDLER(call)
