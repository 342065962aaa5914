"""Devices, kernel parameter specs, argument checking and the generic launch path.

A `Device` runs a kernel of a sarek module on numpy arrays, `sarek.Vector`s and scalars. The base class
does everything that is the same on every device (parameter specs from the IR, argument checks with clear
errors, grid/block normalisation and limits, copy-back of the vectors the kernel may write); subclasses
implement buffers (`_alloc`, `_upload`, `_download`) and `_run`.
"""

from __future__ import annotations

import hashlib
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from typing_extensions import TypeIs

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, ModuleOp
from xdsl.ir import Attribute

from sarek.diagnostics import SarekError, user_api
from sarek.dialect.intrinsics import is_integer_type
from sarek.dialect.scalars import BF16
from sarek.runtime.errors import DeviceError as DeviceError, LaunchError as LaunchError  # their home: a leaf module
from sarek.types import BF16_DTYPE, bf16_bits, bf16_from_f32, is_ndarray


# ------------------------------------------------------------------------------------------------ types

_SCALARS: dict[tuple[str, int], np.dtype[Any]] = {
    ("i", 1): np.dtype(np.bool_),
    ("i", 8): np.dtype(np.uint8),
    ("i", 32): np.dtype(np.int32),
    ("i", 64): np.dtype(np.int64),
    ("f", 16): np.dtype(np.float16),
    ("f", 32): np.dtype(np.float32),
    ("f", 64): np.dtype(np.float64),
}


def scalar_dtype(t: Attribute) -> np.dtype[Any] | None:
    """The numpy dtype of a scalar type, one-to-one (u8 is uint8, bf16 is sarek.types.BF16_DTYPE)."""
    from sarek.dialect.scalars import name
    from sarek.types import SCALARS

    n = name(t)
    if n is not None and n != "bool":
        return SCALARS[n].np_dtype
    if is_integer_type(t):
        return _SCALARS.get(("i", t.width.data))
    if isinstance(t, Float16Type):
        return _SCALARS[("f", 16)]
    if isinstance(t, Float32Type):
        return _SCALARS[("f", 32)]
    if isinstance(t, Float64Type):
        return _SCALARS[("f", 64)]
    return None


def element_dtype(module: ModuleOp, t: Attribute) -> np.dtype[Any]:
    """numpy dtype of a scalar, record or variant element (records/variants: the aligned layout)."""
    d = scalar_dtype(t)
    if d is not None:
        return d
    from sarek.dialect.sarek import RecordType, VariantType

    if isinstance(t, RecordType | VariantType):
        try:
            from sarek.analysis.layout import numpy_dtype
        except ImportError as e:  # pragma: no cover - the layout analysis ships with sarek
            raise LaunchError(f"no aligned layout available for {t}: {e}") from e
        return np.dtype(numpy_dtype(module, t))
    raise LaunchError(f"type {t} cannot be passed to a kernel")


# ------------------------------------------------------------------------------------------------ kernel specs


@dataclass(frozen=True)
class Param:
    index: int
    name: str
    type: Attribute
    kind: str  # "vec" | "scalar" | "record" (records and variants passed by value)
    dtype: np.dtype[Any]
    written: bool = False
    ntags: int | None = None  # variants (vector elements or by value): the number of constructors
    rank: int = 1  # vectors: the number of dimensions (an Array[T, N] parameter carries N extents)

    @property
    def is_vec(self) -> bool:
        return self.kind == "vec"


@dataclass
class KernelSpec:
    module: ModuleOp
    name: str
    params: list[Param]
    ir_hash: str
    cache: dict[str, Any] = field(default_factory=dict)  # per-device compiled objects
    dims: dict[Any, Any] = field(default_factory=dict)  # launch (grid, block) resolved per values and device
    plans: dict[Any, Any] = field(default_factory=dict)  # per-device launch plans (packing, checks done once)
    #: (vector, scalar) parameter pairs indexed as `if global_thread_id < n: v[global_thread_id]`
    guards: list[tuple[int, int]] = field(default_factory=list)

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(p.name for p in self.params)})"


_SPECS: weakref.WeakKeyDictionary[ModuleOp, dict[str, KernelSpec]] = weakref.WeakKeyDictionary()


def module_hash(module: ModuleOp) -> str:
    from sarek.registry import print_module

    return hashlib.sha256(print_module(module, generic=True).encode()).hexdigest()


def kernel_names(module: ModuleOp) -> list[str]:
    from sarek.dialect.sarek import KernelOp

    return [op.sym_name.data for op in module.ops if isinstance(op, KernelOp)]


def kernel_spec(module: ModuleOp, name: str) -> KernelSpec:
    """Parameter spec of kernel `name` (computed once per module object; modules are not changed after)."""
    from sarek.dialect.sarek import KernelOp, RecordType, VariantType, VecType
    from sarek.analysis.writes import written_params

    per = _SPECS.setdefault(module, {})
    if name in per:
        return per[name]
    k = next((op for op in module.ops if isinstance(op, KernelOp) and op.sym_name.data == name), None)
    if k is None:
        known = ", ".join(kernel_names(module)) or "none"
        raise LaunchError(f"no kernel '{name}' in the module (kernels: {known})")
    written = written_params(module, name)
    params: list[Param] = []
    for i, (pname, arg) in enumerate(k.params):
        t = arg.type
        if isinstance(t, VecType):
            params.append(Param(i, pname, t, "vec", element_dtype(module, t.element_type), i in written,
                                _ntags(module, t.element_type), t.ndim))
        elif isinstance(t, RecordType | VariantType):
            params.append(Param(i, pname, t, "record", element_dtype(module, t), ntags=_ntags(module, t)))
        else:
            params.append(Param(i, pname, t, "scalar", element_dtype(module, t)))
    from sarek.analysis.writes import guarded_indexing

    spec = KernelSpec(module, name, params, module_hash(module), guards=guarded_indexing(module, name))
    per[name] = spec
    return spec


def _ntags(module: ModuleOp, t: Attribute) -> int | None:
    from sarek.analysis.layout import lookup_decl_in
    from sarek.dialect.sarek import VariantOp, VariantType

    if not isinstance(t, VariantType):
        return None
    d = lookup_decl_in(module, t.decl_name)
    return len(d.ctors) if isinstance(d, VariantOp) else None


def _is_tuple(x: object) -> TypeIs[tuple[Any, ...]]:
    return isinstance(x, tuple)


def _is_sequence(x: object) -> TypeIs[tuple[Any, ...] | list[Any]]:
    return isinstance(x, tuple | list)


def _is_scalar(x: object) -> TypeIs[np.generic[Any]]:
    return isinstance(x, np.generic)


def resolve_kernel(kernel: Any) -> tuple[ModuleOp, str]:
    """A front-end kernel (`.module`, `.name`), a `(ModuleOp, name)` pair or a ModuleOp with one kernel."""
    if _is_tuple(kernel) and len(kernel) == 2 and isinstance(kernel[0], ModuleOp):
        return kernel[0], str(kernel[1])
    if isinstance(kernel, ModuleOp):
        names = kernel_names(kernel)
        if len(names) != 1:
            raise LaunchError(f"the module has {len(names)} kernels ({', '.join(names) or 'none'}); "
                              "pass (module, kernel_name)")
        return kernel, names[0]
    # a class's `module` property is read directly: getattr's default would hide an error raised inside it
    obj: Any = kernel
    module = obj.module if hasattr(obj.__class__, "module") else getattr(obj, "module", None)
    name = getattr(kernel, "name", None)
    if isinstance(module, ModuleOp) and isinstance(name, str):
        return module, name
    raise LaunchError(f"cannot launch {kernel!r}: expected a sarek kernel, (ModuleOp, name) or a ModuleOp")


# ------------------------------------------------------------------------------------------------ arguments


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
    from sarek.types import BF16_DTYPE

    if a == b or (b == BF16_DTYPE and a == np.dtype(np.uint16)):
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
    from sarek.runtime import interop

    where = _where(spec, p)
    if not is_ndarray(a):
        try:
            got = interop.adapt(a)
        except interop.ForeignError as e:
            raise LaunchError(f"{where} expects {_type_text(p)}; {interop.describe(a)} cannot be used: {e}") from None
        if got is None:
            raise LaunchError(f"{where} expects {_type_text(p)} (a numpy array or sarek.Vector, or an array "
                              f"with __cuda_array_interface__/__dlpack__/__array_interface__), got {_describe(a)}")
        if isinstance(got, interop.DeviceArray):
            return _device_array_arg(where, p, got, device)
        a = got
    arr: np.ndarray[Any, Any] = a
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
    if p.type == BF16:  # a number rounded to bf16, or (a uint16 / bfloat16 scalar) its bits
        g = cast("np.generic[Any] | None", a if isinstance(a, np.generic) else None)
        if g is not None and g.dtype in (np.dtype(np.uint16), BF16_DTYPE):
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


class _Unset:
    """`block` not given to a launch (an explicit `block=None` is refused like any other non-block value)."""

    def __repr__(self) -> str:
        return "<not given>"


UNSET: Any = _Unset()


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


# ------------------------------------------------------------------------------------------------ devices


@dataclass(frozen=True)
class Limits:
    max_threads_per_block: int = 1024
    max_block: Dim3 = (1024, 1024, 64)
    max_grid: Dim3 = (2**31 - 1, 65535, 65535)
    max_global: int = 2**31 - 1  # total threads per dimension (ids are i32)


class Device:
    """A place kernels run. Subclasses: InterpDevice, OpenCLDevice, CudaDevice (and ptx/vulkan providers)."""

    name: str = "?"
    kind: str = "?"  # interp | opencl | cuda | ptx | vulkan
    #: target language compiled for this device (None: runs the IR)
    target: str | None = None
    #: the floating-point policy of what this device compiles: "default" (what nvcc/NVRTC users get: multiply-add
    #: contracted into fma, fast f32 math on ptx) or "exact" (every operation separately rounded, bit-identical
    #: to the interpreter); `get_device(name, fp="exact")` / `device.with_fp("exact")` give the exact variant
    fp: str = "default"
    #: the kinds whose compilers take the policy (the interpreters are always exact)
    FP_KINDS = ("cuda", "ptx")

    def __repr__(self) -> str:
        return f"<sarek device {self.name}: {self.description}>"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        """A device equals itself and the names that select it (`"opencl:0"`, `"opencl"`, `"interp"`), so
        `"interp" in sarek.devices()` reads as it should."""
        if isinstance(other, str):
            return other == self.name or other == self.name.split(":")[0]
        return other is self

    __hash__ = object.__hash__

    @property
    def description(self) -> str:
        return self.kind

    @property
    def limits(self) -> Limits:
        return Limits()

    def with_fp(self, fp: str) -> Device:
        """This device at floating-point policy `fp` ("default" or "exact"): the same device (memory, streams)
        compiling with that policy; a LaunchError where the device cannot honour it."""
        if fp not in ("default", "exact"):
            raise LaunchError(f"fp must be 'default' or 'exact', not {fp!r}")
        if fp == self.fp or self.kind.startswith("interp"):
            return self
        if self.kind not in self.FP_KINDS:
            raise LaunchError(f"fp={fp!r}: {self.name} has one floating-point policy (its driver's); "
                              f"fp= is for the {' and '.join(self.FP_KINDS)} devices")
        variants = cast("dict[str, Device]", self.__dict__.setdefault("_fp_variants", {}))
        if fp not in variants:
            import copy

            v = copy.copy(self)
            v.__dict__.pop("_fp_variants", None)
            v.fp = fp
            variants[fp] = v
        return variants[fp]

    @property
    def fp_key(self) -> str:
        """`kind:index` of this device plus `:exact` at the exact policy: what its compiled-code caches key on."""
        return f"{self.name}{':exact' if self.fp == 'exact' else ''}"

    @property
    def warp_size(self) -> int:
        """The sub-group (warp) width kernels see here (`warp_size` in a kernel), 1 where there are no
        sub-groups. Devices that know it set `_warp_size`; the others run a probe kernel once."""
        w = cast("int | None", self.__dict__.get("_warp_size"))
        if w is None:
            w = self._warp_size = _probe_warp_size(self)
        return w

    @property
    def memory_space(self) -> tuple[Any, ...] | None:
        """The memory foreign device arrays must live in to be passed in place (None: host memory only)."""
        return None

    @property
    def buffer_key(self) -> Any:
        """Devices sharing a key share memory: a `sarek.Vector` valid on one is valid on all (cuda:N, ptx:N)."""
        return id(self)

    # -- the public entry point

    @user_api
    def launch(self, module: ModuleOp, kernel: str, args: Sequence[Any], grid: Any = None, block: Any = None,
               threads: Any = None, stream: Any = None, declared_block: Dim3 | None = None,
               debug: bool | None = None) -> None:
        """Enqueue one launch (see `sarek.runtime.launch`); returns before the kernel ends where the device is
        asynchronous. A debug launch (`debug`, else $SAREK_DEBUG) or one of a kernel that prints runs the
        module's debug variant with the hidden debug buffer and waits for it (sarek.runtime.debug)."""
        from sarek.runtime.debug import launch_plan

        plan = launch_plan(module, kernel, debug)
        if plan is not None:
            buf = plan.buffer()
            self.launch(plan.module, kernel, [*args, buf], grid, block, threads, stream, declared_block, False)
            return plan.finish(buf, self)
        spec = kernel_spec(module, kernel)
        g, b = self.launch_dims(spec, grid, block, threads, declared_block)
        values = check_args(spec, args, self)
        if spec.guards:
            check_guards(spec, values, g, b)
        self._launch_on(spec, values, g, b, self.resolve_stream(stream, values))

    def launch_dims(self, spec: KernelSpec, grid: Any, block: Any, threads: Any,
                    declared: Dim3 | None) -> tuple[Dim3, Dim3]:
        """(grid, block) from the launch's grid/block/threads and the kernel's declared block, checked against
        the device's limits. Cached per (kernel, values): a repeated launch costs one dict look-up."""
        key = (id(self), grid, block, threads, declared)
        try:
            hit = spec.dims.get(key)
        except TypeError:  # a list somewhere: not hashable, checked every time
            key, hit = None, None
        if hit is not None and hit[0] is self:
            return hit[1], hit[2]
        b = dim3(block, "block") if block is not None else None
        if declared is not None:
            if b is not None and b != declared:
                raise LaunchError(f"kernel {spec.name} is declared with block={_show(declared)} (@kernel(block=...)); "
                                  f"this launch asks for block={_show(b)}")
            b = declared
        if grid is not None and threads is not None:
            raise LaunchError(f"kernel {spec.name}: give grid= (blocks) or threads= (total threads), not both")
        if grid is None and threads is None:
            raise LaunchError(f"kernel {spec.name}: the launch needs grid= (blocks per dimension) or threads= "
                              "(total threads; the grid is computed from the block)")
        if threads is not None:
            t = dim3(threads, "threads")
            if b is None:
                b = self.default_block(t)
            g = (cdiv(t[0], b[0]), cdiv(t[1], b[1]), cdiv(t[2], b[2]))
        else:
            g = dim3(grid, "grid")
        if b is None:
            b = (1, 1, 1)
        self.check_dims(spec, g, b)
        if key is not None:
            spec.dims[key] = (self, g, b)
        return g, b

    def default_block(self, threads: Dim3) -> Dim3:
        """The block of a `threads=` launch with no block given: 256 threads (16x16, 8x8x4), within limits."""
        n = 1 + (threads[1] > 1) + (threads[2] > 1)
        want = {1: (256, 1, 1), 2: (16, 16, 1), 3: (8, 8, 4)}[n]
        lim = self.limits
        while want[0] * want[1] * want[2] > lim.max_threads_per_block:
            want = (max(1, want[0] // 2), max(1, want[1] // 2) if n > 1 else 1, want[2])
        return want

    def check_dims(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> None:
        lim = self.limits
        threads = block[0] * block[1] * block[2]
        if threads > lim.max_threads_per_block:
            raise LaunchError(f"kernel {spec.name}: block {block} has {threads} threads; device {self.name} "
                              f"allows at most {lim.max_threads_per_block} per block")
        for d, (x, m) in enumerate(zip(block, lim.max_block)):
            if x > m:
                raise LaunchError(f"kernel {spec.name}: block {block} exceeds device {self.name}'s limit "
                                  f"{lim.max_block} in dimension {'xyz'[d]}")
        for d, (x, m) in enumerate(zip(grid, self.grid_limit)):
            if x > m:
                raise LaunchError(f"kernel {spec.name}: grid {grid} exceeds device {self.name}'s limit "
                                  f"{lim.max_grid} in dimension {'xyz'[d]}")
        for d in range(3):
            if grid[d] * block[d] > lim.max_global:
                raise LaunchError(f"kernel {spec.name}: grid {grid} x block {block} gives more than "
                                  f"{lim.max_global} threads in dimension {'xyz'[d]} (thread ids are i32)")

    @property
    def grid_limit(self) -> Dim3:
        """The grid a launch may ask for (the hardware's, or more where the device splits dispatches)."""
        return self.limits.max_grid

    # -- streams

    def stream(self) -> Stream:
        """A new stream (queue) of this device; launches with `stream=` it run in order on it."""
        return Stream(self, None)

    def resolve_stream(self, stream: Any, values: list[Any]) -> Any:
        """The device's handle for a launch's `stream=` (None: the default stream)."""
        if stream is None:
            return None
        if isinstance(stream, Stream):
            if stream.device is not self and stream.device.buffer_key != self.buffer_key:
                raise LaunchError(f"stream= is a stream of {stream.device.name}, the launch is on {self.name}")
            return stream.handle
        raise LaunchError(f"device {self.name} runs launches in order on the host; stream= takes only a "
                          f"sarek stream of it (device.stream()), got {type(stream).__name__}")

    def _launch_on(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        self._launch(spec, args, grid, block)

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        """A launcher for repeated launches of resident Vectors and Python numbers (None: none here)."""
        return None

    def _launch(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3) -> None:
        raise NotImplementedError

    # -- buffers (devices with their own memory)

    def _alloc(self, nbytes: int) -> Any:
        raise NotImplementedError

    def _upload(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raise NotImplementedError

    def _download(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raise NotImplementedError

    def _free(self, buf: Any) -> None:
        pass

    def synchronize(self) -> None:
        """Wait until every launch enqueued on this device (on any of its streams) has finished."""

    def synchronize_stream(self, handle: Any) -> None:
        self.synchronize()

    def destroy_stream(self, handle: Any) -> None:
        pass

    def source(self, module: ModuleOp, kernel: str) -> str | None:
        """The generated source this device compiles (None for the interpreter)."""
        return None


class Stream:
    """An ordered queue of launches on one device (`device.stream()`); `handle` is the device's own object
    (a CUstream, a pyopencl CommandQueue; None for the default one). Exposes `__cuda_stream__` on CUDA."""

    def __init__(self, device: Device, handle: Any, owned: bool = False):
        self.device = device
        self.handle = handle
        self._owned = owned

    def synchronize(self) -> None:
        """Wait for every launch enqueued on this stream."""
        self.device.synchronize_stream(self.handle)

    def __cuda_stream__(self) -> tuple[int, int]:
        if self.device.kind not in ("cuda", "ptx"):
            raise AttributeError(f"__cuda_stream__: {self.device.name} is not a CUDA device")
        return (0, int(self.handle or 0))

    def __repr__(self) -> str:
        return f"<sarek stream on {self.device.name}>"

    def __del__(self) -> None:
        if self._owned:
            try:
                self.device.destroy_stream(self.handle)
            except Exception:
                pass


def _probe_warp_size(dev: Device) -> int:
    """`warp_size` as a kernel of a block of 64 (or the device's largest) threads sees it; 1 where the device
    refuses warp operations."""
    from sarek.runtime.probe import warp_probe

    out = np.zeros(1, np.int32)
    try:
        k = warp_probe()
        dev.launch(k.module, k.name, [out], grid=1, block=min(64, dev.limits.max_threads_per_block))
        dev.synchronize()
    except SarekError:
        return 1
    return max(1, int(out[0]))


def _show(d: Dim3) -> str:
    t = d[:1] if d[1:] == (1, 1) else d[:2] if d[2] == 1 else d
    return str(t[0]) if len(t) == 1 else str(tuple(t))


def cdiv(a: Any, b: Any) -> int:
    """Ceiling division for grids: `cdiv(n, 256)` blocks of 256 threads cover n."""
    if not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in (a, b)):
        raise TypeError(f"cdiv(a, b) takes two ints, got {a!r}, {b!r}")
    if b <= 0:
        raise ValueError(f"cdiv(a, b): b must be positive, got {b}")
    return -(-int(a) // int(b))


class BufferDevice(Device):
    """A device with its own memory: arrays are uploaded for the launch and written ones copied back;
    `sarek.Vector`s stay resident and move only when another place needs them."""

    def _launch_on(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        """Binds the arguments and enqueues the kernel on `stream`. Waits only when numpy arrays were passed:
        the written ones are copied back, and their temporary buffers are freed after the kernel ends."""
        from sarek.runtime.interop import DeviceArray
        from sarek.runtime.vector import Vector, download_into, to_device_layout

        bound: list[Any] = []
        temps: dict[int, tuple[Any, np.ndarray[Any, Any]]] = {}  # id(array) -> (buffer, array): one per array
        for p, a in zip(spec.params, args):
            if p.kind != "vec":
                bound.append(a)
            elif isinstance(a, Vector):
                bound.append((a.device_buffer(self), a.size))
            elif isinstance(a, DeviceArray):
                bound.append((a.handle, *extents(p, a)))
            elif id(a) in temps:  # the same array passed twice: one buffer, as on the host
                bound.append((temps[id(a)][0], *extents(p, a)))
            else:
                dev_arr = to_device_layout(a)
                buf = self._alloc(max(dev_arr.nbytes, 1))
                temps[id(a)] = (buf, a)
                if a.nbytes:
                    self._upload(buf, dev_arr)
                bound.append((buf, *extents(p, a)))
        try:
            self._run(spec, bound, grid, block, stream)
            for p, a in zip(spec.params, args):
                if p.written and isinstance(a, Vector):
                    a.mark_written_on(self)
            if temps:
                self.synchronize_stream(stream)
                written = {id(a) for p, a in zip(spec.params, args) if p.written}
                for key, (buf, host) in temps.items():
                    if key in written and host.nbytes:
                        download_into(self, buf, host)
        finally:
            for buf, _ in temps.values():
                self._free(buf)

    def _run(self, spec: KernelSpec, bound: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        """Enqueue with `bound`: (buffer, length) for vectors ((buffer, extent 0, extent 1, ...) for an
        N-dimensional one), numpy scalars / 1-element structured arrays."""
        raise NotImplementedError


class FastPath:
    """The cached launch plan of one (kernel, device, grid, block) for the common repeated launch: every vector a
    `sarek.Vector` already valid on the device (native layout), every scalar a Python int or float in range.
    `__call__(args)` checks exactly that and submits, or returns False (then the full launch path runs, and
    it uploads, converts or words the error). `submit(bound)` is the device's enqueue of the bound values."""

    def __init__(self, dev: Device, spec: KernelSpec, grid: Dim3, block: Dim3, submit: Any,
                 codecs: dict[int, str] | None = None):
        kinds: list[tuple[int, Any, Any]] = []
        for p in spec.params:
            d = p.dtype
            if p.kind == "vec" and p.ntags is None and d != np.bool_ and p.rank == 1:
                kinds.append((0, d, (codecs or {}).get(p.index, "native")))
            elif p.kind == "scalar" and d.kind in "iu" and d != np.bool_ and p.type != BF16:  # bf16: rounded
                info = np.iinfo(d)
                kinds.append((1, int(info.min), int(info.max)))
            elif p.kind == "scalar" and d.kind == "f" and d.itemsize >= 4:
                kinds.append((2, float(np.finfo(d).max), None))
            else:
                raise ValueError("no fast path")  # caught by make(): this kernel always takes the full path
        self.kinds = kinds
        self.n = len(kinds)
        self.dev = dev
        self.key = dev.buffer_key
        self.submit = submit
        self.written = [p.index for p in spec.params if p.written]
        self.guards = spec.guards
        self.threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]

    @classmethod
    def make(cls, dev: Device, spec: KernelSpec, grid: Dim3, block: Dim3, submit: Any,
             codecs: dict[int, str] | None = None) -> FastPath | None:
        """The plan, or None when a parameter is of a kind the fast path does not take (records, bool ...);
        `codecs`: the buffer layout key of each vector parameter (default: the native layout)."""
        try:
            return cls(dev, spec, grid, block, submit, codecs)
        except ValueError:
            return None

    def __call__(self, args: Sequence[Any]) -> bool:
        from sarek.runtime.vector import Vector

        if len(args) != self.n:
            return False
        bound: list[Any] = []
        key = self.key
        for (kind, a1, a2), a in zip(self.kinds, args):
            if kind == 0:
                if type(a) is not Vector or a.dtype != a1:
                    return False
                buf = a.resident_buffer(key, a2)
                if buf is None:
                    return False
                bound.append((buf, a.size))
            elif kind == 1:
                if type(a) is not int or not a1 <= a <= a2:
                    return False
                bound.append(a)
            else:
                if type(a) is not float or not -a1 <= a <= a1:  # inf, nan, overflow: the full path decides
                    return False
                bound.append(a)
        for vi, si in self.guards:
            if args[si] > bound[vi][1] and self.threads > bound[vi][1]:
                return False  # the full path words the refusal
        self.submit(bound)
        for i in self.written:
            args[i].mark_written_on(self.dev)
        return True


def extents(p: Param, a: Any) -> tuple[int, ...]:
    """The lengths passed with a vector argument: its length, or the shape of an N-dimensional one."""
    if p.rank == 1:
        return (int(a.size),)
    return tuple(int(x) for x in (a.shape if a.shape is not None else (a.size,)))


