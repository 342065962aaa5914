"""Kernel parameter specs from the IR: the numpy dtype of each scalar and element type, a kernel's
`KernelSpec` (its `Param`s, cached per module), kernel lookup, and the extents passed with a vector."""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from typing_extensions import TypeIs

from sarek.runtime.errors import LaunchError

if TYPE_CHECKING:  # the IR is imported where a spec is built from it: a warm launch has none (sarek.runtime.warm)
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Attribute, Operation


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
    from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type

    from sarek.dialect.intrinsics import is_integer_type
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

    @property
    def is_bf16(self) -> bool:
        """A bf16 scalar (passed as its bits: the dtype, uint16, does not tell it from u16)."""
        from sarek.dialect.scalars import BF16

        return self.type == BF16


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
    #: the kernel (or a helper it calls) uses cooperative matrices: its block must be whole owners of fragments,
    #: `coop` warps each (1: warps; 4: warpgroups, `scope="warpgroup"`); 0: no cooperative matrices
    coop: int = 0
    #: one launch's extra passes (canonically spelled; sarek.runtime.compile.with_passes): compiled after the
    #: process-wide ones, in this spec's own program caches
    passes: str = ""
    #: the kernel (or a helper it calls) has a grid barrier: CUDA and PTX launch it cooperatively
    grid_sync: bool = False

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(p.name for p in self.params)})"


_SPECS: weakref.WeakKeyDictionary[ModuleOp, dict[str, KernelSpec]] = weakref.WeakKeyDictionary()


_OTHERS: list[weakref.ref[KernelSpec]] = []  # specs made without a module (sarek.runtime.warm)


def add_live(spec: KernelSpec) -> None:
    """Count `spec` among `live_specs` while it lives (a spec not made by `kernel_spec`)."""
    _OTHERS[:] = [r for r in _OTHERS if r() is not None] + [weakref.ref(spec)]


def live_specs() -> list[KernelSpec]:
    """Every kernel spec still alive (sarek.runtime.compile drops their programs when the extra passes
    change)."""
    return [s for per in list(_SPECS.values()) for s in per.values()] + [s for r in _OTHERS if (s := r()) is not None]


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

    from sarek.analysis.reach import reaches
    from sarek.dialect.sarek import GridBarrierOp

    spec = KernelSpec(module, name, params, module_hash(module), guards=guarded_indexing(module, name),
                      coop=_coop_warps(module, k), grid_sync=reaches(module, k, (GridBarrierOp,)))
    per[name] = spec
    return spec


def _coop_warps(module: ModuleOp, kernel: Operation) -> int:
    """KernelSpec.coop of `kernel`: 4 with a warpgroup fragment, 1 with warp fragments only, 0 without."""
    from sarek.analysis.reach import reaches
    from sarek.dialect.sarek import COOPMAT_OPS, CoopmatDeclOp

    def warpgroup(op: Operation) -> bool:
        return isinstance(op, CoopmatDeclOp) and op.warpgroup is not None

    if reaches(module, kernel, (CoopmatDeclOp,), warpgroup):
        return 4
    return 1 if reaches(module, kernel, COOPMAT_OPS) else 0


def _ntags(module: ModuleOp, t: Attribute) -> int | None:
    from sarek.analysis.layout import lookup_decl_in
    from sarek.dialect.sarek import VariantOp, VariantType

    if not isinstance(t, VariantType):
        return None
    d = lookup_decl_in(module, t.decl_name)
    return len(d.ctors) if isinstance(d, VariantOp) else None


def _is_tuple(x: object) -> TypeIs[tuple[Any, ...]]:
    return isinstance(x, tuple)


def resolve_kernel(kernel: Any) -> tuple[ModuleOp, str]:
    """A front-end kernel (`.module`, `.name`), a `(ModuleOp, name)` pair or a ModuleOp with one kernel."""
    from xdsl.dialects.builtin import ModuleOp

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


def extents(p: Param, a: Any) -> tuple[int, ...]:
    """The lengths passed with a vector argument: its length, or the shape of an N-dimensional one."""
    if p.rank == 1:
        return (int(a.size),)
    return tuple(int(x) for x in (a.shape if a.shape is not None else (a.size,)))
