"""C arithmetic and math for both executors: wrapping integers, C division and conversions, bit counts,
bit casts, and the math intrinsics as numpy functions that work on scalars and arrays alike (so the reference and
the fast executor compute the same bits; `fma` is correctly rounded, as on every device)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from sarek.dialect.semantics import INT_INTRINSICS as INT_INTRINSICS, cdiv as cdiv, crem as crem
from sarek.dialect.semantics import float_to_int as float_to_int, int_intrinsic as int_intrinsic
from sarek.math import c_lgamma


# ------------------------------------------------------------------------------------------------ C arithmetic


def wrap32(x: int) -> int:
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def wrap64(x: int) -> int:
    return ((x + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


def f16(x: Any) -> np.float32:
    """Round to half precision, carried as float32."""
    return np.float32(np.float16(x))


_BITS = {"i32": np.int32, "i64": np.int64, "f16": np.float32, "f32": np.float32, "f64": np.float64}


def bitcast(x: Any, dst: str) -> Any:
    """sarek.bitcast: the same bits as numpy type `dst` (scalars and arrays; a Python int is read as the
    integer of `dst`'s width). f16 only reinterprets as itself."""
    if dst == "f16":
        return x
    dt = _BITS[dst]
    src = np.asarray(x)
    if src.dtype.kind in "iub":
        src = src.astype(np.int32 if np.dtype(dt).itemsize == 4 else np.int64)
    r = src.view(dt)
    return r if isinstance(x, np.ndarray) else r[()]


def bitcast_py(x: Any, dst: str) -> Any:
    """`bitcast` for the reference executor, whose integers are Python ints."""
    r = bitcast(x, dst)
    return int(r) if dst in ("i32", "i64") else r


# ------------------------------------------------------------------------------------------------ math
# Numpy functions that work on numpy scalars and arrays alike, so both executors compute the same bits.


def _like(r: Any, x: Any) -> Any:
    dt = np.asarray(x).dtype
    r = np.asarray(r).astype(dt)
    return r if isinstance(x, np.ndarray) or r.ndim else r[()]


def _cround(x: Any) -> Any:
    """C round(): half away from zero."""
    t = np.trunc(x)
    return _like(np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t), x)


def _two_sum(a: Any, b: Any) -> tuple[Any, Any]:
    """s + e == a + b exactly (Knuth), s the rounded sum."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_odd(a: Any, b: Any) -> Any:
    """a + b rounded to odd: an inexact sum takes the neighbour whose last mantissa bit is 1."""
    s, e = _two_sum(a, b)
    even = (s.view(np.int64) & 1) == 0
    return np.where((e != 0) & even, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def _fma64(a: Any, b: Any, c: Any) -> Any:
    """Correctly rounded a * b + c in float64 (Boldo and Melquiond's emulation: an exact product by Dekker's
    split, an exact sum, the tail rounded to odd), falling back to exact rationals where the split could
    overflow or the product's tail underflow."""
    from fractions import Fraction

    shape = np.broadcast_shapes(*(np.shape(v) for v in (a, b, c)))
    arrs: list[np.ndarray[Any, np.dtype[np.float64]]] = [
        np.array(np.broadcast_to(np.asarray(v, np.float64), shape)).reshape(-1) for v in (a, b, c)]
    a, b, c = arrs
    with np.errstate(all="ignore"):
        p = a * b
        split = 134217729.0  # 2^27 + 1
        ta, tb = split * a, split * b
        ah, bh = ta - (ta - a), tb - (tb - b)
        al, bl = a - ah, b - bh
        pl = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        th, tl = _two_sum(c, p)
        z = cast(Any, np.where((pl == 0) & (tl == 0), th, th + _round_odd(tl, pl)))
        fin = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        safe = fin & (np.abs(a) < 2.0 ** 995) & (np.abs(b) < 2.0 ** 995) & (np.abs(c) < 2.0 ** 1000) \
            & (np.abs(p) < 2.0 ** 1000) & ((np.abs(p) > 2.0 ** -960) | (p == 0))
        # an infinite addend with a finite product (even one that overflows) is the result
        special = cast(Any, np.where(np.isfinite(a) & np.isfinite(b) & np.isinf(c), c, a * b + c))
        z = cast(Any, np.where(fin, z, special))
    z = np.array(z, np.float64)
    for i in zip(*np.nonzero(fin & ~safe)):
        exact = Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))
        try:
            z[i] = float(exact) if exact != 0 else float(a[i]) * float(b[i]) + float(c[i])
        except OverflowError:
            z[i] = np.inf if exact > 0 else -np.inf
    return z.reshape(shape)


def _fma(x: Any, y: Any, z: Any) -> Any:
    """x * y + z with one rounding (float32: the product is exact in float64, the sum rounded to odd there,
    then to nearest float32, which is the correctly rounded result)."""
    if np.asarray(x).dtype == np.float32:
        with np.errstate(all="ignore"):
            r = _round_odd(*np.broadcast_arrays(np.asarray(x, np.float64) * np.asarray(y, np.float64),
                                                np.asarray(z, np.float64))).astype(np.float32)
    else:
        r = _fma64(x, y, z)
    return r if isinstance(x, np.ndarray) or isinstance(y, np.ndarray) or isinstance(z, np.ndarray) else r[()]


def _rsqrt(x: Any) -> Any:
    one = (x.dtype.type if hasattr(x, "dtype") else np.float64)(1)
    return one / np.sqrt(x)


def _exp2(x: Any) -> Any:
    return np.exp2(x)


def _via_libm(fn: Callable[[float], float]) -> Callable[[Any], Any]:
    """A libm function numpy lacks (erf, erfc), computed in double and rounded to the operand's type."""
    vec = np.vectorize(fn, otypes=[np.float64])

    def call(x: Any) -> Any:
        dt = np.asarray(x).dtype
        with np.errstate(all="ignore"):  # a C function may raise divide-by-zero (lgamma at a pole)
            r = vec(np.asarray(x, np.float64)).astype(dt if dt.kind == "f" else np.float64)
        return r if isinstance(x, np.ndarray) else r[()]

    return call




def _ldexp(x: Any, n: Any) -> Any:
    """x * 2^n with one rounding in x's type (numpy's ldexp; an f16 carried as float32 is rounded on store)."""
    r: Any = np.ldexp(x, np.asarray(n, np.int32))
    return r if isinstance(x, np.ndarray) or isinstance(n, np.ndarray) else np.asarray(r)[()]


MATH: dict[str, Any] = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "exp": np.exp, "exp2": _exp2, "log": np.log,
    "log2": np.log2, "log10": np.log10, "sqrt": np.sqrt, "rsqrt": _rsqrt, "cbrt": np.cbrt, "floor": np.floor,
    "ceil": np.ceil, "round": _cround, "trunc": np.trunc, "fabs": np.fabs, "expm1": np.expm1, "log1p": np.log1p,
    "atan2": np.arctan2, "pow": np.power, "fmin": np.fmin, "fmax": np.fmax, "fmod": np.fmod, "hypot": np.hypot,
    "copysign": np.copysign, "fma": _fma, "erf": _via_libm(math.erf), "erfc": _via_libm(math.erfc),
    "atanh": np.arctanh, "lgamma": _via_libm(c_lgamma), "ldexp": _ldexp,
}
