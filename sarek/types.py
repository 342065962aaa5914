"""Scalar types and type annotations of the Python front end.

`f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64` are annotations (`x: f32`, `Vec[u8]`) and, inside kernels,
casts (`f32(i)`, `u8(x)`). On the host a cast converts with numpy (`f32(1)` is `np.float32(1.0)`; an integer
cast wraps modulo 2^width, as in a kernel), so helpers stay testable in plain Python. Each maps one-to-one to a
numpy dtype (`np.uint8` is `u8`); `bf16` is `ml_dtypes.bfloat16` when that package is importable, else
`np.uint16` holding the bf16 bits. numpy itself is imported at first use (`import sarek` loads neither numpy nor
xDSL: a kernel is declared without them).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import TypeIs

if TYPE_CHECKING:
    import numpy as np


class ScalarType:
    """A sarek scalar type: the annotation, the cast and its numpy dtype."""

    def __init__(self, name: str, np_dtype: str | None):
        self.name = name
        self._dtype_name = np_dtype  # (None: bf16)
        self._np_dtype: np.dtype[Any] | None = None

    @property
    def np_dtype(self) -> np.dtype[Any]:
        """The numpy dtype, made at first use (numpy is not imported by `import sarek`; bf16's needs ml_dtypes,
        a second of CPU to import)."""
        if self._np_dtype is None:
            import numpy as np

            self._np_dtype = bf16_dtype() if self._dtype_name is None else np.dtype(self._dtype_name)
        return self._np_dtype

    @property
    def ir(self):
        from sarek.dialect.scalars import NAMES

        return next(t for t, n in NAMES.items() if n == self.name)

    def __call__(self, x: Any = 0) -> Any:
        import numpy as np

        if self.name == "bf16":
            return bf16_from_f32(np.float32(x))[()]
        if self.np_dtype.kind in "iu" and isinstance(x, int | np.integer):
            from sarek.dialect.scalars import wrap

            return self.np_dtype.type(wrap(int(cast(int, x)), self.ir))
        return self.np_dtype.type(x)

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name


# each with its numpy dtype's name (bool is held as int32)
f16, f32, f64, i32, i64, boolean, i8, i16, u8, u16, u32, u64 = (ScalarType(n, d) for n, d in (
    ("f16", "float16"), ("f32", "float32"), ("f64", "float64"), ("i32", "int32"), ("i64", "int64"),
    ("bool", "int32"), ("i8", "int8"), ("i16", "int16"), ("u8", "uint8"), ("u16", "uint16"), ("u32", "uint32"),
    ("u64", "uint64")))


_BF16: list[np.dtype[Any]] = []


def bf16_dtype() -> np.dtype[Any]:
    """The host dtype of bf16: ml_dtypes.bfloat16 when importable, else uint16 (imported on first use only)."""
    import numpy as np

    if not _BF16:
        try:
            import ml_dtypes  # pyright: ignore[reportMissingTypeStubs]
        except ImportError:
            _BF16.append(np.dtype(np.uint16))
        else:
            _BF16.append(np.dtype(cast(Any, ml_dtypes).bfloat16))
    return _BF16[0]


def is_bf16_host(dt: np.dtype[Any]) -> bool:
    """Whether an array or scalar of dtype `dt` holds bf16 values (uint16 bits, or ml_dtypes.bfloat16: only
    possible once the caller imported ml_dtypes, so this never imports it)."""
    import numpy as np

    return dt == np.dtype(np.uint16) or ("ml_dtypes" in sys.modules and dt == bf16_dtype())


def __getattr__(name: str) -> Any:
    """`BF16_DTYPE`, resolved lazily (PEP 562) so that `import sarek` does not import ml_dtypes."""
    if name == "BF16_DTYPE":
        return bf16_dtype()
    raise AttributeError(f"module 'sarek.types' has no attribute '{name}'")


bf16 = ScalarType("bf16", None)

SCALARS: dict[str, ScalarType] = {t.name: t for t in (f16, f32, f64, i32, i64, boolean, i8, i16, u8, u16, u32, u64,
                                                      bf16)}


def bf16_bits(a: Any) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The bf16 bits of an array of bf16 (either host representation) as uint16."""
    import numpy as np

    arr = np.asarray(a)
    return arr.view(np.uint16) if arr.dtype.itemsize == 2 else np.asarray(arr, np.uint16)


def bf16_from_f32(x: Any) -> np.ndarray[Any, Any]:
    """f32 values rounded to nearest even bf16, in the host bf16 dtype (sarek.dialect.scalars.bf16_round,
    vectorised; every NaN becomes the quiet NaN 0x7fc0)."""
    import numpy as np

    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    r = np.where(nan, 0x7FC0, r).astype(np.uint16)
    return r.view(bf16_dtype())


def bf16_to_f32(a: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    """bf16 values (either host representation) widened exactly to f32."""
    import numpy as np

    return (bf16_bits(a).astype(np.uint32) << 16).view(np.float32)


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
        from sarek.diagnostics import at_user_line

        if not (isinstance(params, tuple) and len(params) == 2):  # pyright: ignore[reportUnknownArgumentType]
            raise at_user_line("Array takes an element type and a rank: Array[f32, 2]")
        element, rank = cast(tuple[Any, Any], params)
        if not (isinstance(rank, int) and not isinstance(rank, bool) and 1 <= rank <= MAX_RANK):
            raise at_user_line(f"Array[T, N]: the rank N must be an int from 1 to {MAX_RANK}, got {rank!r} (write "
                               "Vec[T] or Array[T, 1] to Array[T, 4]; a higher rank can be flattened by hand)")
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
    array's type parameters unknown to the type checker; no array exists before numpy is imported)."""
    numpy: Any = sys.modules.get("numpy")
    return numpy is not None and isinstance(x, numpy.ndarray)
