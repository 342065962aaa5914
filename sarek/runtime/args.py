"""Launch arguments: each argument checked against its parameter (vectors, device arrays, records, variants
and scalars, with errors that name the parameter and say what was given), guards, and grid/block dims."""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from typing_extensions import TypeIs

from sarek.runtime.errors import LaunchError
from sarek.runtime.specs import KernelSpec, Param
from sarek.vectors import as_elements, vector_of_lanes
from sarek.types import bf16_bits, bf16_from_f32, is_bf16_host, is_ndarray
from sarek.unset import UNSET as UNSET

if TYPE_CHECKING:
    from sarek.runtime.core import Device


#: os.environ's own dict and its key for SAREK_DEBUG (CPython keeps both; None elsewhere): `os.environ.get` of an
#: unset variable raises and catches a KeyError inside, ~1 us, a sixth of a warm launch; a miss here raises nothing
_ENV_DATA: Any = getattr(os.environ, "_data", None)
_ENCODE_KEY: Any = getattr(os.environ, "encodekey", str)
_DEBUG_KEY: Any = _ENCODE_KEY("SAREK_DEBUG")


def env_debug() -> bool:
    """Whether $SAREK_DEBUG asks for debug launches (read at every launch: a test or a user may set it in-process
    through os.environ; unset, the common case, costs one dict look-up)."""
    if _ENV_DATA is not None and _DEBUG_KEY not in _ENV_DATA:
        return False
    v = os.environ.get("SAREK_DEBUG")
    return v is not None and v.strip().lower() not in ("", "0", "false", "no", "off")


def _is_sequence(x: object) -> TypeIs[tuple[Any, ...] | list[Any]]:
    return isinstance(x, tuple | list)


def _is_scalar(x: object) -> TypeIs[np.generic[Any]]:
    return isinstance(x, np.generic)


def _type_text(p: Param) -> str:
    from sarek.dialect.sarek import RecordType, VariantType, VecType

    if p.kind == "vec":
        et = p.type.element_type if isinstance(p.type, VecType) else None
        if isinstance(et, RecordType | VariantType):
            return f"a vector of {et.decl_name} ({_dtype_text(p.dtype)})" if p.rank == 1 else \
                f"a {p.rank}-D array of {et.decl_name} ({_dtype_text(p.dtype)})"
        return f"a vector of {_dtype_text(p.dtype)}" if p.rank == 1 else f"a {p.rank}-D array of {_dtype_text(p.dtype)}"
    if p.kind == "record" and isinstance(p.type, RecordType | VariantType):
        return f"a {p.type.decl_name} value"
    return f"a {_dtype_text(p.dtype)} scalar"


def _dtype_text(d: np.dtype[Any]) -> str:
    return str(d) if d.fields is None else f"structured dtype {d}"


def _describe(a: Any) -> str:
    from sarek.runtime.vector import Vector

    if isinstance(a, Vector):
        return f"a sarek.Vector of {_dtype_text(a.dtype)}"
    if is_ndarray(a):
        return f"an array of {_dtype_text(a.dtype)} with shape {a.shape}"
    return f"{type(a).__name__} {a!r}"


def same_layout(a: np.dtype[Any], b: np.dtype[Any]) -> bool:
    """Structured dtypes agree when sizes and (offset, base type) of every field agree, names aside; bf16
    elements may be given as ml_dtypes.bfloat16 or as their uint16 bits."""
    if a == b or (a == np.dtype(np.uint16) and b.itemsize == 2 and b.kind == "V" and is_bf16_host(b)):
        return True
    if a.fields is None or b.fields is None or a.itemsize != b.itemsize:
        return False
    fa = sorted((off, dt.str) for dt, off, *_ in a.fields.values())
    fb = sorted((off, dt.str) for dt, off, *_ in b.fields.values())
    return fa == fb


def check_args(spec: KernelSpec, args: Sequence[Any], device: Device | None = None) -> list[Any]:
    """Checks `args` against the kernel's parameters for `device`; returns them normalised (numpy scalars for
    scalars, 1-element structured arrays for records, 1-D arrays, Vectors and foreign `DeviceArray`s for
    vectors). Foreign arrays (sarek.runtime.interop) are used in place: host memory as a numpy view, device
    memory only on a device of that memory, never copied."""
    from sarek.runtime.vector import Vector

    if len(args) != len(spec.params):
        raise LaunchError(f"kernel {spec.signature} takes {len(spec.params)} argument(s), {len(args)} given")
    out: list[Any] = []
    flat: dict[int, Any] = {}  # one 1-D view per array (an array passed twice stays one object)
    for p, a in zip(spec.params, args):
        if p.kind == "vec":
            if isinstance(a, Vector):
                if p.rank != 1:
                    raise LaunchError(f"{_where(spec, p)} expects {_type_text(p)}; a sarek.Vector is "
                                      "one-dimensional (pass a numpy or foreign array of that shape)")
                if a.dtype != p.dtype and not same_layout(a.dtype, p.dtype):
                    raise LaunchError(f"{_where(spec, p)} expects {_type_text(p)}, got {_describe(a)}")
                if p.ntags is not None and not a.tags_checked:
                    _check_tags(spec, p, a.host_array_for_write())
                    a.tags_checked = True
                out.append(a)
            elif id(a) in flat:
                out.append(flat[id(a)])
            else:
                flat[id(a)] = v = _vector_arg(spec, p, a, device)
                out.append(v)
        elif p.kind == "record":
            rec = _record_arg(_where(spec, p), p, a)
            _check_tags(spec, p, rec)
            out.append(rec)
        else:
            out.append(_scalar_arg(_where(spec, p), p, a))
    return out


def _where(spec: KernelSpec, p: Param) -> str:
    return f"kernel {spec.name}: argument '{p.name}' (#{p.index + 1})"


def _vector_arg(spec: KernelSpec, p: Param, a: Any, device: Device | None) -> Any:
    """A numpy array or a foreign array for a vector parameter, checked (see check_args)."""
    where = _where(spec, p)
    if not is_ndarray(a):
        from sarek.runtime import interop  # (a numpy array needs none of it)

        got = interop.adapt_required(a, LaunchError, lambda: f"{where} expects {_type_text(p)}; ",
                                     lambda: f"{where} expects {_type_text(p)} (a numpy array or sarek.Vector, or an "
                                     f"array with __cuda_array_interface__/__dlpack__/__array_interface__), got "
                                     f"{_describe(a)}")
        if isinstance(got, interop.DeviceArray):
            return _device_array_arg(where, p, got, device)
        a = got
    arr: np.ndarray[Any, Any] = a
    if (lanes := as_elements(arr, p.dtype)) is not None:  # an (n, k) array of a short vector's element type
        arr = lanes
    if arr.ndim == 0:
        raise LaunchError(f"{where} expects {_type_text(p)}, got a 0-dimensional array (shape ())")
    if not (arr.dtype == p.dtype or same_layout(arr.dtype, p.dtype)):
        raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(arr)}")
    if not arr.flags.c_contiguous:
        raise LaunchError(f"{where} is not C-contiguous (strides {arr.strides}); pass "
                          "np.ascontiguousarray(...) and use that array")
    if p.written and not arr.flags.writeable:
        raise LaunchError(f"{where} is written by the kernel but the array is read-only")
    if p.rank != 1:
        if arr.ndim != p.rank:
            raise LaunchError(f"{where} expects {_type_text(p)} (Array[..., {p.rank}]), got {_describe(arr)} "
                              f"({arr.ndim}-D)")
        arr = np.asarray(arr)  # np.matrix and other subclasses: a plain array of the same shape
    elif arr.ndim != 1:  # a C-contiguous n-D array is its elements in order: a 1-D view, no copy
        arr = np.asarray(arr).reshape(-1)  # np.matrix stays 2-D otherwise
    if p.ntags is not None:
        _check_tags(spec, p, arr)
    return arr


def _device_array_arg(where: str, p: Param, da: Any, device: Device | None) -> Any:
    if da.shape is not None and vector_of_lanes(p.dtype, da.dtype, da.shape):  # (n, k) lanes: n vectors
        shape = da.shape[:-1]
        da = dataclasses.replace(da, dtype=p.dtype, size=da.size // da.shape[-1],
                                 shape=shape if len(shape) > 1 else None)
    space = device.memory_space if device is not None else None
    if space is None or da.space[0] != space[0] or (da.space[0] == "cuda" and da.space != space) or (
            da.space[0] == "opencl" and da.space[1] != space[1]):
        on = device.name if device is not None else "this device"
        mem = (f"CUDA device {da.space[1]}" if da.space[0] == "cuda" else "another OpenCL context"
               if da.space[0] == "opencl" and space is not None and space[0] == "opencl" else
               f"{da.space[0]} device memory")
        raise LaunchError(f"{where}: {da.what} lives in {mem}; {on} cannot use it in place (pass it on a device "
                          "of that memory, or copy it to the host yourself)")
    if da.dtype != p.dtype and not same_layout(da.dtype, p.dtype):
        raise LaunchError(f"{where} expects {_type_text(p)}, got {da.what} of {_dtype_text(da.dtype)}")
    size = p.dtype.itemsize
    if p.dtype.fields is not None and size in (4, 8, 16) and isinstance(da.handle, int) and da.handle % size:
        raise LaunchError(f"{where}: {da.what} starts at an address that is not a multiple of {size} bytes; a "
                          f"{_type_text(p)} element moves in one {size * 8}-bit access (sarek-wide-vector-access), "
                          "so pass an array that starts at an element boundary of an aligned allocation")
    if p.rank != 1 and len(da.shape or (da.size,)) != p.rank:
        raise LaunchError(f"{where} expects {_type_text(p)} (Array[..., {p.rank}]), got {da.what} with shape "
                          f"{da.shape or (da.size,)}")
    if not da.contiguous:
        raise LaunchError(f"{where}: {da.what} is not C-contiguous; make it contiguous first (e.g. "
                          ".contiguous() / cupy.ascontiguousarray) and pass that")
    if p.written and da.readonly:
        raise LaunchError(f"{where} is written by the kernel but {da.what} is exported read-only")
    if p.ntags is not None:
        raise LaunchError(f"{where}: a vector of {_type_text(p)} must be a numpy array or sarek.Vector (its tags "
                          "are checked on the host)")
    return da


def check_guards(spec: KernelSpec, values: list[Any], grid: Dim3, block: Dim3) -> None:
    """`if global_thread_id < n: v[global_thread_id]` with n beyond len(v) and enough threads to get there
    reads or writes past the vector (on pocl that kills the process): refused here."""
    threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
    for vi, si in spec.guards:
        length = int(values[vi].size)
        n = int(values[si])
        if n > length and threads > length:
            v, s = spec.params[vi], spec.params[si]
            raise LaunchError(f"kernel {spec.name}: '{s.name}' = {n} but vector '{v.name}' has {length} elements; "
                              f"the kernel indexes '{v.name}' with the thread id under `global_thread_id < {s.name}` "
                              f"and {threads} threads are launched, so it would go past the end of '{v.name}'")


def _check_tags(spec: KernelSpec, p: Param, arr: np.ndarray[Any, Any]) -> None:
    """Every element of a variant vector must hold a tag that names a constructor (a device would silently
    compute garbage from any other)."""
    if not arr.size or p.ntags is None:
        return
    tags = arr.view(p.dtype)["tag"]
    bad = np.flatnonzero((tags < 0) | (tags >= p.ntags))
    if bad.size:
        i = int(bad[0])
        raise LaunchError(f"{_where(spec, p)}: element {i} holds tag {int(tags[i])}, which names no constructor "
                          f"of {_type_text(p)} (tags 0..{p.ntags - 1}); {bad.size} element(s) are bad")


def _record_arg(where: str, p: Param, a: Any) -> np.ndarray[Any, Any]:
    if is_ndarray(a) and a.ndim == 1 and (lanes := as_elements(np.ascontiguousarray(a)[None], p.dtype)) is not None:
        return lanes.copy()   # a short vector given as its (k,) lanes
    if is_ndarray(a) and a.dtype.fields is not None:
        if a.size != 1:
            raise LaunchError(f"{where} expects {_type_text(p)}, got an array of shape {a.shape}")
        if not same_layout(a.dtype, p.dtype):
            raise LaunchError(f"{where} expects {_type_text(p)} (dtype {p.dtype}), got {_describe(a)}")
        return np.ascontiguousarray(a.reshape(1)).view(p.dtype)
    if isinstance(a, np.void) and a.dtype.fields is not None:
        if not same_layout(a.dtype, p.dtype):
            raise LaunchError(f"{where} expects {_type_text(p)} (dtype {p.dtype}), got {_describe(a)}")
        return np.frombuffer(a.tobytes(), dtype=p.dtype).copy()
    try:  # a tuple of field values, or a front-end value with a pack()
        pack = getattr(type(cast(object, a)), "pack", None)
        if pack is not None:
            arr = np.asarray(pack([a]))
            if same_layout(arr.dtype, p.dtype):
                return np.ascontiguousarray(arr.reshape(1)).view(p.dtype)
        if isinstance(a, tuple):
            return np.array([a], dtype=p.dtype)
    except (TypeError, ValueError) as e:
        raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}: {e}") from e
    raise LaunchError(f"{where} expects {_type_text(p)} (a 1-element array of dtype {p.dtype}), got {_describe(a)}")


def _scalar_arg(where: str, p: Param, a: Any) -> Any:
    d = p.dtype
    if is_ndarray(a) and a.ndim == 0:
        a = a[()]
    if p.is_bf16:  # a number rounded to bf16, or (a uint16 / bfloat16 scalar) its bits
        g = cast("np.generic[Any] | None", a if isinstance(a, np.generic) else None)
        if g is not None and is_bf16_host(g.dtype):
            return np.asarray(g).view(np.uint16)[()]
        if isinstance(a, bool) or not (isinstance(a, int | float) or g is not None and g.dtype.kind in "iuf"):
            raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}")
        return bf16_bits(bf16_from_f32(np.float32(cast(float, a))))[()]
    if is_ndarray(a):
        if a.ndim != 0:  # a 1-element array is a vector, not a scalar (a mixed-up argument order, usually)
            raise LaunchError(f"{where} expects {_type_text(p)}, got an array with shape {a.shape} (pass a "
                              "number, a numpy scalar or a 0-d array)")
        a = a.item() if a.dtype.kind in "biuf" else a
    if _is_scalar(a):
        if d.kind == "b" and a.dtype.kind != "b":
            raise LaunchError(f"{where} expects a bool, got {_describe(a)}")
        if d.kind in "iu" and a.dtype.kind not in "biu":
            raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}")
        if d.kind == "f" and a.dtype.kind not in "biuf":
            raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}")
        a = a.item()
    if d.kind == "b":
        if not isinstance(a, bool | int) or a not in (0, 1):
            raise LaunchError(f"{where} expects a bool, got {_describe(a)}")
        return np.bool_(a)
    if d.kind in "iu":
        if isinstance(a, float) or not isinstance(a, int):
            raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}")
        info = np.iinfo(d)
        if not info.min <= a <= info.max:
            raise LaunchError(f"{where}: {a} does not fit in {d}")
        return d.type(a)
    if d.kind == "f":
        if not isinstance(a, int | float):
            raise LaunchError(f"{where} expects {_type_text(p)}, got {_describe(a)}")
        try:
            with np.errstate(over="ignore"):
                v = d.type(a)
            overflow = bool(np.isinf(v)) and math.isfinite(a)
        except OverflowError:  # an int beyond float64
            overflow = True
            v = None
        if overflow:
            raise LaunchError(f"{where}: {a} does not fit in {d} (largest finite value {float(np.finfo(d).max):g})")
        return v
    raise LaunchError(f"{where}: cannot pass {_describe(a)}")  # pragma: no cover


Dim3 = tuple[int, int, int]




def dim3(v: Any, what: str) -> Dim3:
    """An int or a 1-3 tuple of positive ints -> a 3-tuple."""
    if isinstance(v, int | np.integer) and not isinstance(v, bool):
        t = [int(cast("int | np.integer[Any]", v))]
    elif _is_sequence(v) and 1 <= len(v) <= 3 and all(
            isinstance(x, int | np.integer) and not isinstance(x, bool) for x in v):
        t = [int(x) for x in v]
    else:
        raise LaunchError(f"{what} must be an int or a tuple of 1 to 3 ints, got {v!r}")
    if any(x < 1 for x in t):
        raise LaunchError(f"{what} {tuple(t)} has a dimension below 1")
    t += [1] * (3 - len(t))
    return (t[0], t[1], t[2])
