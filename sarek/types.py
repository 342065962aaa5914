"""Scalar types and type annotations of the Python front end.

`f16 f32 f64 i32 i64` are annotations (`x: f32`, `Vec[f32]`) and, inside kernels, casts (`f32(i)`). On the
host a cast converts with numpy (`f32(1)` is `np.float32(1.0)`), so helpers stay testable in plain Python.
"""

from __future__ import annotations

from typing import Any, cast

from typing_extensions import TypeIs

import numpy as np


class ScalarType:
    """A sarek scalar type: the annotation, the cast and its numpy dtype."""

    def __init__(self, name: str, np_dtype: Any):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)

    @property
    def ir(self):
        from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, i1, i32, i64

        return {"f16": Float16Type(), "f32": Float32Type(), "f64": Float64Type(), "i32": i32, "i64": i64,
                "bool": i1}[self.name]

    def __call__(self, x: Any = 0) -> Any:
        return self.np_dtype.type(x)

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name


f16 = ScalarType("f16", np.float16)
f32 = ScalarType("f32", np.float32)
f64 = ScalarType("f64", np.float64)
i32 = ScalarType("i32", np.int32)
i64 = ScalarType("i64", np.int64)
boolean = ScalarType("bool", np.int32)

SCALARS: dict[str, ScalarType] = {t.name: t for t in (f16, f32, f64, i32, i64, boolean)}


class VecOf:
    """`Vec[T]` / `Array[T, N]`: a kernel vector parameter of element type T (a scalar, record or variant) and
    rank N (1 to 4; `Vec[T]` is `Array[T, 1]`), a row-major array that carries its shape."""

    def __init__(self, element: Any, rank: int = 1):
        self.element = element
        self.rank = rank

    def __repr__(self) -> str:
        e = getattr(self.element, "__name__", self.element)
        return f"Vec[{e!s}]" if self.rank == 1 else f"Array[{e!s}, {self.rank}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VecOf) and other.element is self.element and other.rank == self.rank

    def __hash__(self) -> int:
        return hash(("Vec", id(self.element), self.rank))


class Vec:
    """Annotation of vector parameters: `a: Vec[f32]`, `pts: Vec[Point]`."""

    def __class_getitem__(cls, element: Any) -> VecOf:
        return VecOf(element)


MAX_RANK = 4


class Array:
    """Annotation of N-dimensional array parameters: `img: Array[f32, 2]` (N = 1 to 4; `Array[T, 1]` is
    `Vec[T]`). In kernels `a[i, j]` (row-major), `a.shape[k]`, `len(a)` (the first extent)."""

    def __class_getitem__(cls, params: Any) -> VecOf:
        if not (isinstance(params, tuple) and len(params) == 2):  # pyright: ignore[reportUnknownArgumentType]
            raise TypeError("Array takes an element type and a rank: Array[f32, 2]")
        element, rank = cast(tuple[Any, Any], params)
        if not (isinstance(rank, int) and not isinstance(rank, bool) and 1 <= rank <= MAX_RANK):
            raise TypeError(f"Array[T, N]: the rank N must be an int from 1 to {MAX_RANK}, got {rank!r}")
        return VecOf(element, rank)


class ArrayOf:
    """`Shared[T]` / `Local[T]`: a helper parameter that receives a shared or local array."""

    def __init__(self, element: Any, space: str):
        self.element = element
        self.space = space

    def __repr__(self) -> str:
        return f"{self.space.capitalize()}[{getattr(self.element, '__name__', self.element)!s}]"


class Shared:
    def __class_getitem__(cls, element: Any) -> ArrayOf:
        return ArrayOf(element, "shared")


class Local:
    def __class_getitem__(cls, element: Any) -> ArrayOf:
        return ArrayOf(element, "local")


def is_ndarray(x: object) -> TypeIs[np.ndarray[Any, np.dtype[Any]]]:
    """`isinstance(x, np.ndarray)`, narrowing to an array of any shape and dtype (a bare isinstance leaves the
    array's type parameters unknown to the type checker)."""
    return isinstance(x, np.ndarray)
