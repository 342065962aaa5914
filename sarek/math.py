"""Math functions usable in kernels (`from sarek import math as sm; sm.sqrt(x)`).

Each maps to the `sarek.intrinsic` of the same name. On the host they compute with numpy, so a helper's
arithmetic can be checked in plain Python. `pi` and `e` are folded as constants.
"""

from __future__ import annotations

import math as _m
from typing import Any

import numpy as np

from sarek.dialect.intrinsics import BINARY_FLOAT, UNARY_FLOAT

pi = _m.pi
e = _m.e
inf = _m.inf


class MathFunction:
    """A math intrinsic: `sarek.intrinsic "<name>"` in kernels, numpy on the host."""

    def __init__(self, name: str, arity: int, host: Any):
        self.name = name
        self.arity = arity
        self._host = host

    def __repr__(self) -> str:
        return f"sarek.math.{self.name}"

    def __call__(self, *args: Any) -> Any:
        if len(args) != self.arity:
            raise TypeError(f"sarek.math.{self.name} takes {self.arity} argument(s), {len(args)} given")
        return self._host(*args)


_HOST = {
    "rsqrt": lambda x: 1 / np.sqrt(x), "exp2": np.exp2, "log2": np.log2, "log10": np.log10, "cbrt": np.cbrt,
    "fabs": np.fabs, "round": lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x), "trunc": np.trunc,
    "expm1": np.expm1, "log1p": np.log1p, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "atan2": np.arctan2, "pow": np.power, "fmin": np.fmin, "fmax": np.fmax, "fmod": np.fmod, "hypot": np.hypot,
    "copysign": np.copysign, "fma": lambda x, y, z: x * y + z, "abs": abs, "min": min, "max": max,
    "clz": lambda x: 32 - int(x & 0xFFFFFFFF).bit_length(), "popcount": lambda x: bin(int(x) & 0xFFFFFFFF).count("1"),
}

__all__ = ["pi", "e", "inf", "MathFunction"]
for _n in [*UNARY_FLOAT, *BINARY_FLOAT, "fma", "abs", "min", "max", "clz", "popcount"]:
    _arity = 3 if _n == "fma" else 2 if _n in BINARY_FLOAT or _n in ("min", "max") else 1
    globals()[_n] = MathFunction(_n, _arity, _HOST.get(_n) or getattr(np, _n))
    __all__.append(_n)
