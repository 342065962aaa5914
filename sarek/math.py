"""Math functions usable in kernels (`from sarek import math as sm; sm.sqrt(x)`).

Each maps to the `sarek.intrinsic` of the same name. On the host they compute with numpy, so a helper's
arithmetic can be checked in plain Python (numpy is imported at the first host call, not by `import sarek`).
`pi` and `e` are folded as constants.
"""

from __future__ import annotations

import math as _m
from collections.abc import Callable
from typing import Any, cast

from sarek.math_names import BINARY_FLOAT, UNARY_FLOAT

pi = _m.pi
e = _m.e
inf = _m.inf


class MathFunction:
    """A math intrinsic: `sarek.intrinsic "<name>"` in kernels, numpy on the host (`host`: a function, or the
    name of numpy's, looked up at the first call)."""

    def __init__(self, name: str, arity: int, host: Callable[..., Any] | str):
        self.name = name
        self.arity = arity
        self._host = host

    def __repr__(self) -> str:
        return f"sarek.math.{self.name}"

    def __call__(self, *args: Any) -> Any:
        if len(args) != self.arity:
            raise TypeError(f"sarek.math.{self.name} takes {self.arity} argument(s), {len(args)} given")
        if isinstance(self._host, str):
            self._host = _numpy_function(self._host)
        return self._host(*args)


def _numpy_function(name: str) -> Callable[..., Any]:
    """numpy's function `name`; `erf`/`erfc` (numpy has none): math's, element-wise."""
    import numpy as np

    if name in ("erf", "erfc"):
        return np.vectorize(getattr(_m, name))
    return getattr(np, name)


def _rsqrt(x: Any) -> Any:
    import numpy as np

    return 1 / np.sqrt(x)


def _round(x: Any) -> Any:
    import numpy as np

    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _fma(x: Any, y: Any, z: Any) -> Any:
    return x * y + z


def _width(x: Any) -> int:
    """The bits a count covers: 64 for a numpy 64-bit integer, else 32 (narrower ones promote, as in C)."""
    dt: Any = getattr(x, "dtype", None)
    return 64 if dt is not None and dt.itemsize == 8 else 32


def _int_host(name: str) -> Callable[[Any], Any]:
    """The host version of integer intrinsic `name` (sarek.dialect.semantics.INT_INTRINSICS): a count is a
    Python int; a same-type result has a numpy integer's type, or is a signed 32-bit Python int."""

    def host(x: Any) -> Any:
        import numpy as np

        from sarek.dialect.semantics import INT_INTRINSICS, int_intrinsic

        dt: Any = getattr(x, "dtype", None)  # a numpy integer has one, a Python int not
        count = INT_INTRINSICS[name].is_count
        if dt is None:  # a Python int: its low 32 bits
            r = INT_INTRINSICS[name].one(int(x), 32)
            return r if count else r - (1 << 32) if r >> 31 else r
        r = int_intrinsic(name, x, _width(x), np.int32 if count else dt.type)
        return int(r) if count else r

    return host


#: the host version of each function: ours, or the name of numpy's (any name not listed is numpy's own)
_HOST: dict[str, Callable[..., Any] | str] = {
    "rsqrt": _rsqrt, "round": _round, "asin": "arcsin", "acos": "arccos", "atan": "arctan", "atan2": "arctan2",
    "pow": "power", "fma": _fma, "abs": abs, "min": min, "max": max, "clz": _int_host("clz"),
    "popcount": _int_host("popcount"), "bit_reverse": _int_host("bit_reverse"), "atanh": "arctanh",
}

_C_LGAMMA: list[Callable[[float], float]] = []


def _load_lgamma() -> Callable[[float], float]:
    """The C library's lgamma (glibc's is within 3 ulp; CPython's math.lgamma is 594 ulp off at 2.01), or
    math.lgamma where no C library is found. Looked up at the first use (finding the library costs time)."""
    import ctypes
    import ctypes.util

    try:
        c_fn = ctypes.CDLL(ctypes.util.find_library("m")).lgamma
        c_fn.restype, c_fn.argtypes = ctypes.c_double, [ctypes.c_double]
        return cast("Callable[[float], float]", c_fn)
    except (OSError, AttributeError, TypeError):
        return _m.lgamma


def c_lgamma(v: float) -> float:
    """C's lgamma on a Python float (the interpreters' and the host's): +inf at the poles."""
    if not _C_LGAMMA:
        _C_LGAMMA.append(_load_lgamma())
    try:
        return _C_LGAMMA[0](v)
    except (ValueError, OverflowError):  # math.lgamma at a pole or past the range
        return _m.inf


def _lgamma(x: Any) -> Any:
    import numpy as np

    with np.errstate(all="ignore"):  # the C library raises divide-by-zero at the poles
        return np.vectorize(c_lgamma, otypes=[np.float64])(x)[()]


_HOST["lgamma"] = _lgamma


def _frexp(x: Any) -> tuple[Any, Any]:
    import numpy as np

    m, e = np.frexp(x)
    return m, np.asarray(e, np.int32)[()]


def _clamp(x: Any, lo: Any, hi: Any) -> Any:
    return lo if x < lo else hi if x > hi else x


# expanded by the front end (sarek/frontend/lower_math.py), not sarek.intrinsics
_EXPANDED: dict[str, tuple[int, Callable[..., Any] | str]] = {
    "isnan": (1, "isnan"), "isinf": (1, "isinf"), "isfinite": (1, "isfinite"), "clamp": (3, _clamp),
    "frexp": (1, _frexp)}

__all__ = ["pi", "e", "inf", "MathFunction"]
for _n, (_arity, _f) in _EXPANDED.items():
    globals()[_n] = MathFunction(_n, _arity, _f)
    __all__.append(_n)  # pyright: ignore[reportUnsupportedDunderAll]
for _n in [*UNARY_FLOAT, *BINARY_FLOAT, "fma", "abs", "min", "max", "clz", "popcount", "bit_reverse", "ldexp"]:
    _arity = 3 if _n == "fma" else 2 if _n in BINARY_FLOAT or _n in ("min", "max", "ldexp") else 1
    globals()[_n] = MathFunction(_n, _arity, _HOST.get(_n, _n))
    __all__.append(_n)  # pyright: ignore[reportUnsupportedDunderAll]

import sarek.vectors as _vectors  # noqa: E402


class VectorFunction(MathFunction):
    """`dot`, `cross`, `length`, `normalize` of short vectors: expanded lane by lane by the front end
    (sarek.frontend.lower_vector) in kernels, sarek.vectors' numpy versions on the host."""


for _n, _arity in (("dot", 2), ("cross", 2), ("length", 1), ("normalize", 1)):
    globals()[_n] = VectorFunction(_n, _arity, getattr(_vectors, _n))
    __all__.append(_n)  # pyright: ignore[reportUnsupportedDunderAll]
