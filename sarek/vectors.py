"""Short vector types (`f32x2 .. f16x2`): records of 2-4 equal scalars with arithmetic in kernels.

Each is a `@record` (fields `x y z w`), so it works wherever a record does (locals, by-value parameters,
record fields, helper parameters and returns, `Vec`/`Array` elements, every target) and its host dtype is
the record's aligned structured dtype, byte for byte a C-contiguous `(n, k)` array of the element type
(`as_elements` views one as the other). The front end (sarek.frontend.lower_vector) expands operators,
element-wise math and `dot/cross/length/normalize` component by component; the `wide-vector-access` pass
marks whole-element accesses of 16-byte vectors for native 128-bit loads and stores. Comparisons give a
bool vector (`boolx2..4`) that `all(...)`/`any(...)` reduce.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from sarek.frontend.decls import record, record_info
from sarek.types import ScalarType, boolean, f16, f32, i32, u8, u32

if TYPE_CHECKING:
    import numpy as np

FIELDS = ("x", "y", "z", "w")


def _vector(name: str, elem: ScalarType, n: int) -> type:
    """A vector record class `name` of n `elem` fields; `__sarek_vector__` = (element, n)."""
    ns: dict[str, Any] = {"__annotations__": {f: elem for f in FIELDS[:n]}, "__module__": __name__,
                          "__doc__": f"{name}: {n} x {elem.name} (fields {', '.join(FIELDS[:n])})",
                          "__qualname__": name}
    cls = record(type(name, (), ns))
    cls.__sarek_vector__ = (elem, n)
    info = record_info(cls)
    if info is not None and info.location is None:  # no class statement: located at the line that made it
        info.location = (__file__, sys._getframe(1).f_lineno, 1)  # pyright: ignore[reportPrivateUsage]
    return cls


f32x2 = _vector("f32x2", f32, 2)
f32x3 = _vector("f32x3", f32, 3)
f32x4 = _vector("f32x4", f32, 4)
i32x2 = _vector("i32x2", i32, 2)
i32x4 = _vector("i32x4", i32, 4)
u32x4 = _vector("u32x4", u32, 4)
u8x4 = _vector("u8x4", u8, 4)
f16x2 = _vector("f16x2", f16, 2)
boolx2 = _vector("boolx2", boolean, 2)
boolx3 = _vector("boolx3", boolean, 3)
boolx4 = _vector("boolx4", boolean, 4)

VECTORS: dict[str, type] = {c.__name__: c for c in (f32x2, f32x3, f32x4, i32x2, i32x4, u32x4, u8x4, f16x2,
                                                    boolx2, boolx3, boolx4)}
BOOL_VECTORS = {2: boolx2, 3: boolx3, 4: boolx4}


def vector_info(cls: Any) -> tuple[ScalarType, int] | None:
    """(element type, lanes) of a vector class, None for anything else."""
    return cls.__dict__.get("__sarek_vector__") if isinstance(cls, type) else None


def vector_of_lanes(dtype: np.dtype, elem: np.dtype, shape: tuple[int, ...]) -> bool:
    """True when `dtype` is a short vector's structured dtype whose lanes are `elem` and `shape` is `(..., k)`
    with k its lane count: such an array (C-contiguous) is that vector's elements, byte for byte."""
    names = dtype.names
    if not names or names != FIELDS[:len(names)] or elem.fields is not None or len(shape) < 2:
        return False
    fields: Any = dtype.fields
    first = fields[names[0]][0] if fields else None
    return first is not None and elem == first and shape[-1] == len(names) and \
        dtype.itemsize == first.itemsize * len(names)


def as_elements(arr: np.ndarray[Any, Any], dtype: np.dtype) -> np.ndarray[Any, Any] | None:
    """A C-contiguous `(..., k)` array of a vector's element type viewed (no copy) as the vector's structured
    dtype `(...)`, or None when `dtype` is no vector dtype or `arr` does not have that layout."""
    if not vector_of_lanes(dtype, arr.dtype, arr.shape) or not arr.flags.c_contiguous:
        return None
    return arr.view(dtype)[..., 0]


# ------------------------------------------------------------------------------------------------ host math


def _lanes(v: Any) -> tuple[list[Any], Any]:
    """The components of a host vector (a vector record value, or an array whose last axis holds them) and a
    function building the same kind of value back."""
    import numpy as np

    info = vector_info(type(v))
    cls: Any = v.__class__
    a: Any = None if info is not None else np.asarray(v)

    def build(xs: list[Any]) -> Any:
        if info is not None:
            return cls(*xs)
        if a.dtype.names:
            return np.rec.fromarrays(cast(Any, xs), dtype=a.dtype).view(np.ndarray)
        return np.stack(xs, axis=-1)

    if info is not None:
        return [getattr(v, f) for f in FIELDS[:info[1]]], build
    if a.dtype.names:
        return [a[n] for n in a.dtype.names], build
    return [a[..., k] for k in range(a.shape[-1])], build


def dot(a: Any, b: Any) -> Any:
    """Sum of the products of the components (a scalar)."""
    xs, ys = _lanes(a)[0], _lanes(b)[0]
    return sum(x * y for x, y in zip(xs, ys))


def cross(a: Any, b: Any) -> Any:
    """The cross product of two 3-vectors."""
    (ax, ay, az), make = _lanes(a)
    bx, by, bz = _lanes(b)[0]
    return make([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx])


def length(a: Any) -> Any:
    """sqrt(dot(a, a))."""
    import numpy as np

    return np.sqrt(dot(a, a))


def normalize(a: Any) -> Any:
    """a / length(a)."""
    xs, make = _lanes(a)
    n = length(a)
    return make([x / n for x in xs])


__all__ = ["f32x2", "f32x3", "f32x4", "i32x2", "i32x4", "u32x4", "u8x4", "f16x2", "boolx2", "boolx3", "boolx4",
           "vector_info", "as_elements", "dot", "cross", "length", "normalize"]
