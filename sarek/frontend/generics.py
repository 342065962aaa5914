"""dtype-generic kernels and helpers: `T = sarek.TypeVar("T", f32, f64)` in annotations.

A generic function is compiled once per binding of its type variables (an *instantiation*): a kernel's
`k[f64]` names one explicitly, `k.launch(...)` binds them from the arguments' dtypes; a generic helper is
instantiated per call from the types of the call's arguments (`axpy_f64`). Inside an instantiation a type
variable is its bound type everywhere: annotations, `Vec[T]`, casts `T(x)`, `shared(T, n)`, `x: T = 0.0`, and
literals take `T` from the other operand as they take any type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sarek.frontend.decls import normalize_type, record_info, type_name, variant_info
from sarek.frontend.errors import at_user_line
from sarek.types import SCALARS, ArrayOf, ScalarType, VecOf


class TypeVar:
    """`sarek.TypeVar("T", f32, f64)`: a type parameter of kernels and helpers, limited to the given types
    (any sarek element type when none is given)."""

    def __init__(self, name: str, *constraints: Any):
        if not isinstance(name, str) or not name.isidentifier():  # pyright: ignore[reportUnnecessaryIsInstance]
            raise at_user_line(f"sarek.TypeVar needs a name, e.g. sarek.TypeVar(\"T\", f32, f64); got {name!r}")
        self.name = name
        try:
            self.constraints: tuple[Any, ...] = tuple(normalize_type(c) for c in constraints)
        except TypeError as e:
            raise at_user_line(f"sarek.TypeVar(\"{name}\", ...): {e}") from None
        for c in self.constraints:
            if isinstance(c, VecOf | ArrayOf):
                raise at_user_line(f"sarek.TypeVar(\"{name}\", ...): {type_name(c)} is not an element type (a "
                                   "type variable stands for an element type: f32, i32, a @record ...)")

    def allows(self, t: Any) -> bool:
        return not self.constraints or any(c is t for c in self.constraints)

    def allowed_text(self) -> str:
        return ", ".join(type_name(c) for c in self.constraints) if self.constraints else "any element type"

    def __call__(self, *_: Any) -> Any:
        raise TypeError(f"type variable {self.name} is a type inside kernels (a cast there); it has no value on "
                        "the host")

    def __repr__(self) -> str:
        return f"~{self.name}"


def substitute(t: Any, binding: Mapping[TypeVar, Any]) -> Any:
    """The annotation `t` with every bound type variable replaced (through `Vec[...]` and other wrappers that
    hold an `element`)."""
    if isinstance(t, TypeVar):
        return binding.get(t, t)
    element = getattr(t, "element", None)
    if element is not None and not isinstance(t, type):
        inner = substitute(element, binding)
        if inner is not element:
            import copy

            t = copy.copy(t)
            t.element = inner
    return t


def type_vars(annotations: Sequence[Any]) -> list[TypeVar]:
    """The type variables of annotations, in order of first appearance."""
    out: list[TypeVar] = []
    for a in annotations:
        while not isinstance(a, TypeVar) and not isinstance(a, type) and getattr(a, "element", None) is not None:
            a = a.element
        if isinstance(a, TypeVar) and a not in out:
            out.append(a)
    return out


def match(ann: Any, t: Any, binding: dict[TypeVar, Any]) -> tuple[TypeVar, Any] | None:
    """Bind the type variables of annotation `ann` against the front-end type `t` (a ScalarType, record or
    variant class, or a VecOf/ArrayOf of one); gives (variable, the type `t` wants for it) when the variable
    is bound to another type already, else None."""
    while not isinstance(ann, TypeVar) and getattr(ann, "element", None) is not None and not isinstance(ann, type):
        if getattr(t, "element", None) is None or isinstance(t, type):
            return None
        ann, t = ann.element, t.element
    if isinstance(ann, TypeVar):
        if ann in binding and binding[ann] is not t:
            return ann, t
        binding[ann] = t
    return None


@dataclass
class Inference:
    """Binding a generic function's type variables from its arguments (a call's, a launch's): `bind` each
    typed argument, `literal` each Python number given for a bare type variable (it binds only what nothing
    else does), then `finish`. Problems come back as (message, parameter name or None)."""

    type_params: list[TypeVar]
    binding: dict[TypeVar, Any] = field(default_factory=dict[TypeVar, Any])
    origin: dict[TypeVar, str] = field(default_factory=dict[TypeVar, str])
    weak: list[tuple[TypeVar, Any, str]] = field(default_factory=list[tuple[TypeVar, Any, str]])

    def bind(self, ann: Any, t: Any, pname: str) -> str | None:
        """Bind annotation `ann` of parameter `pname` against the argument's type `t`; a clash as text."""
        clash = match(ann, t, self.binding)
        if clash is not None:
            v, want = clash
            return (f"{v.name} is {type_name(self.binding[v])} from argument '{self.origin[v]}' but argument "
                    f"'{pname}' makes it {type_name(want)}")
        for v in type_vars([ann]):
            self.origin.setdefault(v, pname)
        return None

    def literal(self, tv: TypeVar, value: Any, pname: str) -> None:
        self.weak.append((tv, value, pname))

    def finish(self) -> tuple[str, str | None] | None:
        """None when every type variable has an allowed type, else (why not, the parameter that decided)."""
        for v, x, pn in self.weak:
            if v not in self.binding and (lt := literal_type(x, v)) is not None:
                self.binding[v], self.origin[v] = lt, pn
        for v in self.type_params:
            if v not in self.binding:
                return f"cannot tell {v.name} from the arguments", None
            if not v.allows(self.binding[v]):
                return (f"type variable {v.name} is one of {v.allowed_text()}, argument '{self.origin[v]}' makes "
                        f"it {type_name(self.binding[v])}"), self.origin[v]
        return None


def dtype_type(dtype: Any, tv: TypeVar) -> Any:
    """The sarek element type of numpy dtype `dtype` (one of `tv`'s constraints when it has records), or None."""
    import numpy as np

    try:
        d = np.dtype(dtype)
    except TypeError:
        return None
    if d.fields is None:
        if d == np.dtype(np.uint16) and tv.allows(SCALARS["bf16"]) and not tv.allows(SCALARS["u16"]):
            return SCALARS["bf16"]  # bf16 bits in a uint16 array (accepted as bf16, as for a Vec[bf16])
        for t in SCALARS.values():
            if t.name != "bool" and t.np_dtype == d:
                return t
        return SCALARS["bool"] if d == np.dtype(np.bool_) else None
    for c in tv.constraints:
        info = record_info(c) or variant_info(c)
        if info is not None and getattr(c, "dtype", None) == d:
            return c
    return None


def literal_type(value: Any, tv: TypeVar) -> Any:
    """The type a Python number binds `tv` to when nothing else does: the first allowed type that holds it
    (sarek's literal types, i32 and f32, when `tv` is unconstrained)."""
    if isinstance(value, bool):
        return SCALARS["bool"]
    if not tv.constraints:
        return SCALARS["i32"] if isinstance(value, int) else SCALARS["f32"]
    for c in tv.constraints:
        if isinstance(c, ScalarType) and c.name != "bool" and (isinstance(value, int) or c.name.startswith(("f", "bf"))):
            return c
    return None


def suffix(binding: Mapping[TypeVar, Any], params: Sequence[TypeVar]) -> str:
    """`f64` / `f32_i64`: the instantiation's part of a helper's name."""
    return "_".join(type_name(binding[p]) for p in params)


def launch_type(ann: Any, a: Any) -> Any:
    """The front-end type launch argument `a` has for parameter annotation `ann` (Vec[...] for an array, an
    element type for a numpy scalar), or None when its dtype says nothing."""
    import numpy as np

    tv = next(iter(type_vars([ann])))
    if isinstance(ann, TypeVar):
        return dtype_type(cast(Any, a).dtype, tv) if isinstance(a, np.generic) else None
    dt = getattr(a, "dtype", None)
    try:
        np.dtype(dt)
    except TypeError:  # a torch dtype and the like: the interop layer knows it
        from sarek.runtime.interop import adapt

        try:
            x = adapt(a)
        except Exception:  # noqa: BLE001 - not an array: the runtime's argument check reports it
            return None
        dt = None if x is None else x.dtype
    if dt is None:
        return None
    et = dtype_type(dt, tv)
    return None if et is None else substitute(ann, {tv: et}) if isinstance(ann.element, TypeVar) else None
