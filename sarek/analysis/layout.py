"""Aligned (C-ABI) byte layout of records and variants, and the numpy dtypes built from it.

The layout is the `typedef struct` the C-family backends emit, byte for byte, so host marshalling, the
interpreter, PTX and every device agree (Sarek_ir_layout):
- a record places each field at the next multiple of its alignment; its alignment is its largest member
  alignment (1 when empty) and its size is rounded up to it;
- a variant is `[tag : i32 @ 0][payload @ P]`, P = max(4, largest payload-member alignment); each
  constructor's payload is laid out as a record `_0 .. _k-1` at P; the size is
  round_up(P + largest payload size, max(4, largest alignment)).
A shading language's buffer holds the same bytes on the host and its own struct layout on the device
(`storage_layout`: std430 / WGSL storage lay scalars and records out as C does, a variant differently), the
runtime repacks between the two.
Scalar sizes/alignments: i1 (stored as int), i32, f32 and unit 4/4; i64 and f64 8/8; f16 2/2 (IEEE
binary16, CUDA `__half`); i8/ui8 1/1 (`signed/unsigned char`), i16/ui16 and bf16 2/2, ui32 4/4, ui64 8/8. Variants below the top level (record field,
payload) and vector/array types have no layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar
from enum import Enum

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType, ModuleOp
from xdsl.ir import Attribute, Operation

from sarek.analysis.payload import PayloadLayout
from sarek.diagnostics import SarekError
from sarek.dialect import scalars
from sarek.dialect.intrinsics import is_integer_type
from sarek.dialect.sarek import (
    ArrayType,
    RecordOp,
    RecordType,
    RefType,
    UnitType,
    VariantOp,
    VariantType,
    VecType,
)

_Decl = TypeVar("_Decl", RecordOp, VariantOp)


class LayoutErrorKind(Enum):
    MISALIGNED_FIELD = "Misaligned_field"
    NESTED_VARIANT = "Nested_variant"
    UNSUPPORTED_FIELD = "Unsupported_field"
    UNDECLARED_TYPE = "Undeclared_type"


class LayoutError(SarekError):
    """A type with no byte layout; `type_name` is the aggregate, `field` the dotted / `_N` field path."""

    def __init__(self, kind: LayoutErrorKind, type_name: str, field: str, detail: str,
                 offset: int | None = None, align: int | None = None, op: Operation | None = None):
        self.kind = kind
        self.detail = detail
        self.type_name = type_name
        self.field = field
        self.offset = offset
        self.align = align
        where = f" (offset {offset}, alignment {align})" if offset is not None else ""
        super().__init__(f"no layout for type \"{type_name}\": field \"{field}\"{where} {detail}", op)


@dataclass(frozen=True)
class Leaf:
    """One scalar of a flattened aggregate: path from the root (`x`, `inner.b`, `Pair._1`)."""

    path: str
    type: Attribute
    offset: int
    size: int
    align: int


@dataclass(frozen=True)
class ScalarLayout:
    size: int
    align: int


@dataclass(frozen=True)
class RecordLayout:
    name: str
    fields: tuple[tuple[str, int], ...]  # immediate fields and their offsets, declaration order
    leaves: tuple[Leaf, ...]
    size: int
    align: int


@dataclass(frozen=True)
class CtorLayout:
    name: str
    tag: int  # declaration index
    leaves: tuple[Leaf, ...]  # absolute offsets (>= payload_offset), paths `<Ctor>._<i>`
    offsets: tuple[int, ...]  # absolute offset of each payload
    payload_size: int  # padded size of this payload (its union member)


@dataclass(frozen=True)
class VariantLayout:
    name: str
    tag_offset: int
    payload_offset: int
    ctors: tuple[CtorLayout, ...]
    size: int
    align: int


Layout = ScalarLayout | RecordLayout | VariantLayout


def round_up(x: int, a: int) -> int:
    """`x` rounded up to a multiple of `a`."""
    return (x + a - 1) // a * a


def scalar_layout(t: Attribute) -> ScalarLayout | None:
    """Size and alignment of a scalar type (None for anything else)."""
    if is_integer_type(t):
        if t not in scalars.NAMES:
            return None
        w = max(8, t.width.data) // 8 if t.width.data != 1 else 4
        return ScalarLayout(w, w)
    if isinstance(t, Float16Type | BFloat16Type):
        return ScalarLayout(2, 2)
    if isinstance(t, Float32Type | UnitType):
        return ScalarLayout(4, 4)
    if isinstance(t, Float64Type):
        return ScalarLayout(8, 8)
    return None


class _Ctx:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.cache: dict[str, Layout] = {}
        self.active: set[str] = set()

    def decl(self, name: str, root: str, field: str) -> RecordOp | VariantOp:
        d = lookup_decl_in(self.module, name)
        if not isinstance(d, RecordOp | VariantOp):
            raise LayoutError(LayoutErrorKind.UNDECLARED_TYPE, root, field, f"has type @{name}, which is not declared")
        return d

    def declared(self, name: str, root: str, field: str, want: type[_Decl]) -> _Decl:
        """The declaration of @name, which a type of kind `want` names (a record, a variant); `root`/`field`
        (default: name) locate the use for the error when @name is the other kind."""
        d = self.decl(name, root or name, field or name)
        if not isinstance(d, want):
            kind, other = ("record", "variant") if want is RecordOp else ("variant", "record")
            raise LayoutError(LayoutErrorKind.UNDECLARED_TYPE, root or name, field or name,
                              f"has type !sarek.{kind}<@{name}>, but @{name} is a {other}")
        return d

    def align(self, t: Attribute, seen: frozenset[str] = frozenset()) -> int:
        """The alignment of `t`, whether or not it has a layout (1 for what has none)."""
        if (s := scalar_layout(t)) is not None:
            return s.align
        if not isinstance(t, RecordType | VariantType) or t.decl_name in seen:
            return 1
        d = lookup_decl_in(self.module, t.decl_name)
        inner = seen | {t.decl_name}
        if isinstance(d, RecordOp):
            return max([1, *(self.align(ft, inner) for _, ft in d.fields)])
        if isinstance(d, VariantOp):
            return max([4, *(self.align(p, inner) for _, ps in d.ctors for p in ps)])
        return 1

    def fields(self, type_name: str, fields: list[tuple[str, Attribute]], prefix: str,
               op: Operation, base: int = 0) -> tuple[list[tuple[str, int]], list[Leaf], int, int]:
        """Lay out `fields` as a C struct: (field offsets, leaves, size, align); `base` is where the struct
        starts in the aggregate `type_name`, for error offsets."""
        off, align = 0, 1
        out: list[tuple[str, int]] = []
        leaves: list[Leaf] = []
        for name, t in fields:
            path = prefix + name
            s = scalar_layout(t)
            if s is not None and not isinstance(t, UnitType):
                off = round_up(off, s.align)
                if off % s.align:
                    raise LayoutError(LayoutErrorKind.MISALIGNED_FIELD, type_name, path,
                                      "is not at a multiple of its alignment", base + off, s.align, op)
                leaves.append(Leaf(path, t, off, s.size, s.align))
                size, a = s.size, s.align
            elif isinstance(t, RecordType):
                try:
                    r = self.record(t.decl_name, type_name, path)
                except LayoutError as e:
                    if e.type_name != t.decl_name:
                        raise
                    at = base + round_up(off, self.align(t))
                    raise LayoutError(e.kind, type_name, f"{path}.{e.field}", e.detail,
                                      None if e.offset is None else at + e.offset, e.align, op) from None
                off = round_up(off, r.align)
                leaves += [Leaf(f"{path}.{x.path}", x.type, off + x.offset, x.size, x.align) for x in r.leaves]
                size, a = r.size, r.align
            elif isinstance(t, VariantType):
                a = self.align(t)
                raise LayoutError(LayoutErrorKind.NESTED_VARIANT, type_name, path,
                                  f"is the variant @{t.decl_name}; variants are laid out only at the top level",
                                  base + round_up(off, a), a, op)
            else:
                raise LayoutError(LayoutErrorKind.UNSUPPORTED_FIELD, type_name, path, f"has type {t}, which has no "
                                  "byte layout", op=op)
            out.append((name, off))
            off += size
            align = max(align, a)
        return out, leaves, round_up(off, align), align

    def record(self, name: str, root: str = "", field: str = "") -> RecordLayout:
        d = self.declared(name, root, field, RecordOp)
        if (c := self.cache.get(name)) is not None:
            assert isinstance(c, RecordLayout)
            return c
        if name in self.active:
            raise LayoutError(LayoutErrorKind.UNSUPPORTED_FIELD, root or name, field or name,
                              f"contains record @{name} within itself", op=d)
        self.active.add(name)
        fields, leaves, size, align = self.fields(name, d.fields, "", d)
        self.active.discard(name)
        r = RecordLayout(name, tuple(fields), tuple(leaves), size, align)
        self.cache[name] = r
        return r

    def variant(self, name: str, root: str = "", field: str = "") -> VariantLayout:
        d = self.declared(name, root, field, VariantOp)
        if (c := self.cache.get(name)) is not None:
            assert isinstance(c, VariantLayout)
            return c
        p = self.align(VariantType(name))
        payloads = [(c, self.fields(name, [(f"_{i}", t) for i, t in enumerate(ps)], f"{c}.", d, p))
                    for c, ps in d.ctors]
        ctors = tuple(
            CtorLayout(c, i, tuple(Leaf(x.path, x.type, p + x.offset, x.size, x.align) for x in leaves),
                       tuple(p + o for _, o in offs), size)
            for i, (c, (offs, leaves, size, _)) in enumerate(payloads))
        v = VariantLayout(name, 0, p, ctors, round_up(p + max(c.payload_size for c in ctors), p), p)
        self.cache[name] = v
        return v


def layout_of(module: ModuleOp, t: Attribute) -> Layout:
    """The layout of a scalar, record or variant type; raises LayoutError for anything else."""
    s = scalar_layout(t)
    if s is not None:
        return s
    ctx = _Ctx(module)
    if isinstance(t, RecordType):
        return ctx.record(t.decl_name)
    if isinstance(t, VariantType):
        return ctx.variant(t.decl_name)
    elt = t.element_type if isinstance(t, VecType | ArrayType | RefType) else t
    raise LayoutError(LayoutErrorKind.UNSUPPORTED_FIELD, str(elt), "<self>", f"has type {t}, which has no byte layout")


# ------------------------------------------------------------------------------------------------ shader storage


def scalar_kind(t: Attribute) -> str:
    """The numpy kind code of a scalar in a shader's abi (b4: a bool held as 4 bytes, i4, i8, f4, f8, f2)."""
    if isinstance(t, IntegerType):
        return {1: "b4", 32: "i4", 64: "i8"}.get(t.bitwidth, "u1")
    kind = _FLOAT_KINDS.get(type(t))
    if kind is None:
        raise ValueError(t)
    return kind


_FLOAT_KINDS: dict[type[Attribute], str] = {Float16Type: "f2", Float32Type: "f4", Float64Type: "f8"}


@dataclass(frozen=True)
class StorageLeaf:
    """One scalar of a buffer element: its offset on the host and on the device, its size and kind."""

    host: int
    dev: int
    size: int
    kind: str  # scalar_kind


@dataclass(frozen=True)
class StorageLayout:
    """A shader buffer element's host (aligned C) and device layout; a variant's constructors have their own
    payload leaves (its tag is `leaves[0]`)."""

    host_size: int
    dev_size: int
    leaves: tuple[StorageLeaf, ...]
    ctors: tuple[tuple[StorageLeaf, ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The abi's form (the Vulkan runtime's codec reads it)."""
        d: dict[str, Any] = {"host_size": self.host_size, "dev_size": self.dev_size,
                             "leaves": [[x.host, x.dev, x.size, x.kind] for x in self.leaves]}
        if self.ctors is not None:
            d["ctors"] = [[[x.host, x.dev, x.size, x.kind] for x in c] for c in self.ctors]
        return d


def _scalar_leaves(lay: Layout, t: Attribute) -> list[tuple[int, Attribute, int]]:
    """(offset, type, size) of each scalar of a scalar or record layout."""
    if isinstance(lay, ScalarLayout):
        return [(0, t, lay.size)]
    assert isinstance(lay, RecordLayout)
    return [(x.offset, x.type, x.size) for x in lay.leaves]


def storage_layout(module: ModuleOp, t: Attribute, payload: PayloadLayout) -> StorageLayout:
    """The host and device offsets of a shader buffer element of type `t` (the C layout above on the host).

    On the device a scalar or record is laid out as in C; a variant is its tag, then each constructor's
    payload in turn: one payload, or each of several (`payload` WGSL: flat fields), at its own alignment, or
    several as one hoisted struct (GLSL), aligned as a record of them; the size rounds to the largest alignment.
    """
    lay = layout_of(module, t)
    if not isinstance(lay, VariantLayout):
        return StorageLayout(lay.size, lay.size, tuple(StorageLeaf(o, o, n, scalar_kind(x))
                                                         for o, x, n in _scalar_leaves(lay, t)))
    d = lookup_decl_in(module, lay.name)
    assert isinstance(d, VariantOp)
    off, dmax = 4, 4
    ctors: list[tuple[StorageLeaf, ...]] = []
    for c, (_, ps) in zip(lay.ctors, d.ctors):
        leaves: list[StorageLeaf] = []
        if payload == PayloadLayout.GLSL and len(ps) > 1:
            a = max([1, *(layout_of(module, p).align for p in ps)])
            off = round_up(off, a)
            leaves += [StorageLeaf(x.offset, off + x.offset - lay.payload_offset, x.size, scalar_kind(x.type))
                       for x in c.leaves]
            off += c.payload_size
            dmax = max(dmax, a)
        else:
            for p, host in zip(ps, c.offsets):
                pl = layout_of(module, p)
                off = round_up(off, pl.align)
                leaves += [StorageLeaf(host + o, off + o, n, scalar_kind(x)) for o, x, n in _scalar_leaves(pl, p)]
                off += pl.size
                dmax = max(dmax, pl.align)
        ctors.append(tuple(leaves))
    return StorageLayout(lay.size, round_up(off, dmax), (StorageLeaf(0, 0, 4, "i4"),), tuple(ctors))


# ------------------------------------------------------------------------------------------------ numpy


def _scalar_dtype(t: Attribute) -> np.dtype[np.generic]:
    if is_integer_type(t):
        if t.width.data == 1:
            return np.dtype(np.int32)
        return np.dtype(f"{'u' if scalars.is_unsigned(t) else 'i'}{t.width.data // 8}")
    if isinstance(t, BFloat16Type):
        from sarek.types import BF16_DTYPE

        return BF16_DTYPE
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    return np.dtype(np.int32)  # unit: 4 bytes, never read


def numpy_dtype(module: ModuleOp, t: Attribute) -> np.dtype[np.generic]:
    """A numpy dtype with exactly the layout's offsets and sizes.

    Records are structured dtypes with their field names; a variant has `tag` (int32 at 0) and one
    overlapping field `<Ctor>_v` per constructor with a payload, at the payload offset: the payload
    itself for one payload, else a struct of `_0 .. _k-1` (the C union member).
    """
    lay = layout_of(module, t)
    if isinstance(lay, ScalarLayout):
        return _scalar_dtype(t)
    d = lookup_decl_in(module, lay.name)
    if isinstance(lay, RecordLayout):
        assert isinstance(d, RecordOp)
        return np.dtype({"names": [n for n, _ in lay.fields],
                         "formats": [numpy_dtype(module, ft) for _, ft in d.fields],
                         "offsets": [o for _, o in lay.fields], "itemsize": lay.size})
    assert isinstance(d, VariantOp)
    names: list[str] = ["tag"]
    formats: list[np.dtype[np.generic]] = [np.dtype(np.int32)]
    offsets: list[int] = [0]
    for c, (_, ps) in zip(lay.ctors, d.ctors):
        if not ps:
            continue
        names.append(f"{c.name}_v")
        offsets.append(lay.payload_offset)
        if len(ps) == 1:
            formats.append(numpy_dtype(module, ps[0]))
        else:
            formats.append(np.dtype({"names": [f"_{i}" for i in range(len(ps))],
                                     "formats": [numpy_dtype(module, p) for p in ps],
                                     "offsets": [o - lay.payload_offset for o in c.offsets],
                                     "itemsize": c.payload_size}))
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": lay.size})


def lookup_decl_in(module: ModuleOp, name: str) -> RecordOp | VariantOp | None:
    """The module's record or variant declaration named `name`."""
    return next((op for op in module.ops if isinstance(op, RecordOp | VariantOp) and op.sym_name.data == name), None)

