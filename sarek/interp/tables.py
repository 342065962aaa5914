"""The values of a constant array (`sarek.alloc_array ... = [...] : !sarek.array<T, constant>`), as both
executors hold their elements: bools, wrapped integers, f16/f32/f64 numbers rounded as a constant is."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FloatAttr
from xdsl.ir import Attribute

from sarek.interp import arith as A
from sarek.interp import common as C


def table_values(values: ArrayAttr[Attribute], k: str) -> list[Any]:
    """The constants of `values` (element kind `k`), row-major."""
    out: list[Any] = []
    for v in values.data:
        if k == "i1":
            out.append(bool(C.int_value(v)))
        elif k in C.INTS:
            out.append(C.wrap_kind(C.int_value(v), k))
        else:
            assert isinstance(v, FloatAttr)
            out.append({"f32": np.float32, "f16": A.f16, "f64": np.float64}[k](v.value.data))
    return out
