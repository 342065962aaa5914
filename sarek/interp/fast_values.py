"""The fast executor, values: numpy dtypes, per-lane records and variants (`VRec`, `VVar`) and their
structure-of-arrays storage (`TRec`, `TVar`), arrays and places, loop and frame masks, the mask helpers and
default values."""

from __future__ import annotations

from typing import Any, TypeGuard, cast

import numpy as np
import numpy.typing as npt

from sarek.interp import common as C
from sarek.interp.common import kind


DT = {"i1": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float32, "f32": np.float32,
                       "f64": np.float64, "i8": np.int8, "i16": np.int16, "u8": np.uint8, "u16": np.uint16,
                       "u32": np.uint32, "u64": np.uint64, "bf16": np.float32}


class Unvectorizable(Exception):
    pass


class VRec:
    """A record value: fields, each a numpy scalar (uniform), a per-lane array or an aggregate."""

    __slots__ = ("t", "f")

    def __init__(self, t: C.RecInfo, f: list[Any]):
        self.t = t
        self.f = f


class VVar:
    """A variant value: `tag` (declaration index, scalar or per lane) and the payload of *every* constructor
    (`p[c]`), meaningful on the lanes whose tag is c."""

    __slots__ = ("t", "tag", "p")

    def __init__(self, t: C.VarInfo, tag: Any, p: list[list[Any]]):
        self.t = t
        self.tag = tag
        self.p = p


class TRec:
    """Storage of an array of records: one storage per field (structure of arrays)."""

    __slots__ = ("f",)

    def __init__(self, f: list[Any]):
        self.f = f


class TVar:
    """Storage of an array of variants: a tag array and one storage per constructor payload."""

    __slots__ = ("tag", "p")

    def __init__(self, tag: np.ndarray, p: list[list[Any]]):
        self.tag = tag
        self.p = p


class Arr:
    """An array value: `data` is 1-D (a vector) or 2-D with `row` selecting each lane's row; for records and
    variants `data` is a TRec/TVar tree of such arrays."""

    __slots__ = ("data", "row", "elt", "n", "t", "shape")

    def __init__(self, data: Any, row: np.ndarray | None, elt: str, t: Any, n: int,
                 shape: tuple[int, ...] | None = None):
        self.data = data
        self.row = row
        self.elt = elt
        self.n = n  # the number of elements; `shape` their N-dimensional extents (row-major)
        self.t = t
        self.shape = (n,) if shape is None else shape


class Cell:
    __slots__ = ("v",)

    def __init__(self, v: Any):
        self.v = v


class ElemPlace:
    __slots__ = ("arr", "idx")

    def __init__(self, arr: Arr, idx: Any):
        self.arr = arr
        self.idx = idx


class FieldPlace:
    __slots__ = ("root", "path", "types")

    def __init__(self, root: Any, path: list[int], types: list[Any]):
        self.root = root
        self.path = path
        self.types = types


def merge(m: Any, new: Any, old: Any) -> Any:
    """new on the lanes of m, old elsewhere (m None: new), through records and variants."""
    if m is None:
        return new
    c = type(cast(object, new))
    if c is VRec:
        return VRec(new.t, [merge(m, a, b) for a, b in zip(new.f, old.f)])
    if c is VVar:
        return VVar(new.t, np.where(m, new.tag, old.tag),
                    [[merge(m, a, b) for a, b in zip(pn, po)] for pn, po in zip(new.p, old.p)])
    return cast("npt.NDArray[Any]", np.where(m, new, old))


def replace_at(v: Any, path: list[int], x: Any) -> Any:
    if not path:
        return x
    return VRec(v.t, [replace_at(f, path[1:], x) if j == path[0] else f for j, f in enumerate(v.f)])


class Loop:
    """The lanes that left the innermost running loop by `break` (`brk`) or its current iteration by
    `continue` (`cont`); None when none did."""

    __slots__ = ("brk", "cont")

    def __init__(self) -> None:
        self.brk: Any = None
        self.cont: Any = None


class Frame:
    """One function's run: the lanes that returned (`done`, with the value `ret`) and its running loops; `cut`
    says whether any lane left by a return, break or continue (then each later op strips them)."""

    __slots__ = ("ret", "done", "returns", "loops", "cut")

    def __init__(self) -> None:
        self.ret: Any = None
        self.done: Any = None
        self.returns = False
        self.loops: list[Loop] = []
        self.cut = False

    def recut(self) -> None:
        top = self.loops[-1] if self.loops else None
        self.cut = self.returns or (top is not None and (top.brk is not None or top.cont is not None))


def isarr(x: object) -> TypeGuard[npt.NDArray[Any]]:
    """Whether a value is per-lane (a numpy array) rather than uniform."""
    return isinstance(x, np.ndarray)


def and_mask(m: Any, c: Any) -> Any:
    """mask AND condition; c is a bool array or a numpy bool scalar."""
    if not isarr(c):
        return m if c else False
    return c if m is None else (m & c)


def any_lane(m: Any) -> bool:
    if m is None:
        return True
    if m is False:
        return False
    return bool(m.any())


def default_value(types: C.Types, t: Any) -> Any:
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        return VRec(ri, [default_value(types, ft) for ft in ri.types])
    if k == "var":
        vi = types.var(t)
        return VVar(vi, np.int32(vi.default_tag), [[default_value(types, pt) for pt in ps] for ps in vi.payloads])
    return DT[k](0)
