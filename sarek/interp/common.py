"""Shared pieces of both executors: the value model, type facts, layout and marshalling (C arithmetic and math:
sarek/interp/arith.py).

Value model (after the seed Sarek_ir_interp_value, with its defects fixed):
- integers (i8 i16 i32 i64 u8 u16 u32 u64): Python ints kept in their type's range (wrapping arithmetic,
  modulo 2^width; sarek.dialect.scalars); in the fast executor numpy values of the type's dtype; i1: bool;
  bf16: numpy.float32 holding a bf16 value exactly (the f32 -> bf16 cast rounds to nearest even, the same
  bits every device computes; vectors hold the bits, as uint16 or ml_dtypes.bfloat16);
  f32 and f16: numpy.float32 (f16 is carried as float32 and rounded to half precision on every store, cast and
  constant); f64: numpy.float64; unit: None.
- records: `Rec(info, fields)` (a mutable field list in declaration order);
  variants: `Var(info, tag, payload)` where `tag` is the constructor's *declaration index* (the seed's
  `hash mod 256` is not injective; declaration indices are, and they are what every device backend uses).
- arrays (vectors, shared and private arrays): Python lists in the reference executor, aliased, never copied.
- Binding (let, let_mut, store, load, array reads, helper parameters) detaches records and variants: a deep copy
  through record fields and variant payloads. The copy is bounded: a value nested more than `DETACH_MAX_DEPTH`
  (64) levels deep is refused with `InterpError("... nests records/variants deeper than 64 levels ...")`:
  a chain of 64 nested records copies, 65 are refused.
"""

from __future__ import annotations

import struct
from contextlib import contextmanager
from dataclasses import dataclass, field
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Operation

from sarek.analysis.layout import Layout, RecordLayout, VariantLayout, layout_of, numpy_dtype
from sarek.diagnostics import SarekError, raised_by_user
from sarek.dialect.scalars import is_unsigned
from sarek.types import bf16_bits, bf16_dtype, bf16_from_f32, bf16_to_f32, is_bf16_host

if TYPE_CHECKING:
    from sarek.dialect.sarek import RecordType, VariantType

DETACH_MAX_DEPTH = 64

_T = TypeVar("_T")


class InterpError(SarekError):
    """An error found while interpreting a kernel, located at the op that caused it."""

    def __init__(self, message: str, op: Operation | None = None):
        if op is not None:
            message = f"{message} (at {op.name})"
        super().__init__(message, op, "interp")


@contextmanager
def reported(k: Operation, passing: tuple[type[Exception], ...] = ()) -> Generator[None]:
    """Runs kernel `k` (both executors): an exception that is not the interpreter's own, the user's (a signal
    handler's) or one of `passing` becomes an InterpError at `k`, never a Python traceback."""
    try:
        yield
    except (InterpError, KeyboardInterrupt, *passing):
        raise
    except Exception as exc:  # noqa: BLE001 - never a Python traceback for the user
        if raised_by_user(exc):  # a signal handler's exception: the user's (the device notes it)
            raise
        raise InterpError(f"internal interpreter error: {type(exc).__name__}: {exc}", k) from exc


class Fault(Exception):
    """Raised by generated/runtime code; the executor turns it into an InterpError located at ops[opid]."""

    def __init__(self, opid: int, message: str):
        self.opid = opid
        self.message = message
        super().__init__(message)


# ------------------------------------------------------------------------------------------------ types


def kind(t: Attribute) -> str:
    """A short tag for a sarek type: i1 i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 unit rec var vec arr ref."""
    from sarek.dialect.sarek import ArrayType, RecordType, RefType, UnitType, VariantType, VecType

    if isinstance(t, IntegerType):
        return "i1" if t.bitwidth == 1 else f"{'u' if is_unsigned(cast(Attribute, t)) else 'i'}{t.bitwidth}"
    if isinstance(t, BFloat16Type):
        return "bf16"
    kinds: tuple[tuple[type[Attribute], str], ...] = (
        (Float32Type, "f32"), (Float64Type, "f64"), (Float16Type, "f16"), (RecordType, "rec"), (VariantType, "var"),
        (VecType, "vec"), (ArrayType, "arr"), (RefType, "ref"), (UnitType, "unit"))
    for cls, k in kinds:
        if isinstance(t, cls):
            return k
    raise ValueError(f"no interpreter kind for {t}")


class _Scalars(dict[str, Any]):
    """NP_SCALAR: bf16's dtype (ml_dtypes', a second of CPU to import) is looked up at its first use only."""

    def __missing__(self, k: str) -> Any:
        if k == "bf16":
            return bf16_dtype()
        raise KeyError(k)


NP_SCALAR: dict[str, Any] = _Scalars({"i1": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float16,
                                      "f32": np.float32, "f64": np.float64, "u8": np.uint8, "i8": np.int8,
                                      "i16": np.int16, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64})
#: the integer kinds (every width and signedness but i1)
INTS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
#: struct formats of the scalar kinds in the aligned layout
_STRUCT = {"i8": "<b", "i16": "<h", "i32": "<i", "i64": "<q", "u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q",
           "f32": "<f", "f64": "<d"}


def int_bits(k: str) -> tuple[int, bool]:
    """(width, unsigned) of an integer kind."""
    return int(k[1:]), k[0] == "u"


def wrap_kind(x: int, k: str) -> int:
    """x modulo 2^width in the range of integer kind k."""
    bits, unsigned = int_bits(k)
    m = (1 << bits) - 1
    x &= m
    return x - (1 << bits) if not unsigned and x >> (bits - 1) else x


def bf16_arg(x: Any) -> np.float32:
    """A bf16 scalar argument: a uint16 (or bfloat16) scalar holds the bits; any other number is rounded."""
    g = cast("np.generic[Any] | None", x if isinstance(x, np.generic) else None)
    if g is not None and is_bf16_host(g.dtype):
        return np.float32(bf16_to_f32(np.asarray(g))[()])
    return bf16_round(x)


def bf16_round(x: Any) -> np.float32:
    """An f32 (or any float) value rounded to bf16 and carried as float32 (sarek.dialect.scalars.bf16_round)."""
    return np.float32(bf16_to_f32(bf16_from_f32(np.float32(x)))[()])


@dataclass(eq=False)
class RecInfo:
    name: str
    fields: list[str]
    types: list[Attribute]


@dataclass(eq=False)
class VarInfo:
    name: str
    ctors: list[str]
    payloads: list[list[Attribute]]
    default_tag: int = 0


class Rec:
    __slots__ = ("t", "f")

    def __init__(self, t: RecInfo, f: list[Any]):
        self.t = t
        self.f = f

    def __repr__(self) -> str:
        return f"Rec({self.t.name}, {self.f})"


class NDList(list[Any]):
    """The reference executor's storage of an N-dimensional array: its elements in row-major order and its
    shape (`a.shape[k]`)."""

    shape: tuple[int, ...] = ()

    @staticmethod
    def of(elements: list[Any], shape: tuple[int, ...]) -> NDList:
        out = NDList(elements)
        out.shape = shape
        return out


class PackedWords(NDList):
    """A vector sarek-pack-narrow stores as 32-bit words: the host's bytes as little-endian i32 words; its
    shape, and a rank-1 vector's length (`sarek.array_len`), stay the host array's, in elements (a flat
    index, `sarek.flat` or an atomic's, is checked against the words)."""

    @staticmethod
    def of(elements: Any, shape: tuple[int, ...]) -> PackedWords:
        raw = np.ascontiguousarray(elements).tobytes()
        out = PackedWords(np.frombuffer(raw + b"\0" * (-len(raw) % 4), np.int32).tolist())
        out.shape = shape
        return out

    def __len__(self) -> int:
        return self.shape[0] if len(self.shape) == 1 else super().__len__()

    @staticmethod
    def check(a: Any, size: int, pname: str, op: Operation, rank: int) -> None:
        """A packed vector of records: a numpy array of the rank whose elements take `size` bytes."""
        arr = as_ndarray(a)
        if arr is None or arr.ndim != rank or arr.dtype.itemsize != size:
            raise InterpError(f"argument '{pname}' must be a {rank}-D numpy array of {size}-byte records", op)

    def unpack(self, host: npt.NDArray[Any]) -> None:
        """The words' bytes back into the host array."""
        raw = np.array(list(self), np.int64).astype(np.uint32).astype("<u4").tobytes()
        host.reshape(-1).view(np.uint8)[...] = np.frombuffer(raw, np.uint8, count=host.nbytes)


def void_fields(x: np.void) -> dict[str, Any]:
    """A structured numpy scalar as a dict of its fields (nested records too), for a record whose layout
    differs from the host's (sarek-pack-narrow's widened fields)."""
    names = x.dtype.names or ()
    return {n: void_fields(v) if isinstance(v := x[n], np.void) and v.dtype.names else v for n in names}


class Var:
    __slots__ = ("t", "tag", "p")

    def __init__(self, t: VarInfo, tag: int, p: list[Any]):
        self.t = t
        self.tag = tag
        self.p = p

    def __repr__(self) -> str:
        return f"Var({self.t.name}.{self.t.ctors[self.tag]}, {self.p})"


def ctor_field(c: int) -> str:
    """The field of constructor `c`'s payload struct in `Types.local_dtype`."""
    return f"_c{c}"


@dataclass
class Types:
    """Declarations of a module: record and variant infos by name."""

    module: ModuleOp
    recs: dict[str, RecInfo] = field(default_factory=dict)
    vars: dict[str, VarInfo] = field(default_factory=dict)
    layouts: dict[Attribute, Layout] = field(default_factory=dict)  # sarek.analysis.layout, memoised

    @classmethod
    def of(cls, module: ModuleOp) -> Types:
        from sarek.dialect.sarek import RecordOp, VariantOp

        ts = cls(module)
        for op in module.body.block.ops:
            if isinstance(op, RecordOp):
                ts.recs[op.sym_name.data] = RecInfo(op.sym_name.data, [n for n, _ in op.fields],
                                                    [t for _, t in op.fields])
            elif isinstance(op, VariantOp):
                cs = op.ctors
                vi = VarInfo(op.sym_name.data, [c for c, _ in cs], [p for _, p in cs])
                nullary = [i for i, (_, p) in enumerate(cs) if not p]
                vi.default_tag = nullary[0] if nullary else 0
                ts.vars[op.sym_name.data] = vi
        return ts

    def rec(self, t: Attribute) -> RecInfo:
        return self.recs[cast("RecordType", t).decl_name]

    def var(self, t: Attribute) -> VarInfo:
        return self.vars[cast("VariantType", t).decl_name]

    # ---------------------------------------------------------------------------------------- defaults

    def default(self, t: Attribute) -> Any:
        """The seed's default value: zeros, records of zeroed fields, the first nullary constructor (else the
        first constructor with zeroed payloads)."""
        k = kind(t)
        if k in INTS:
            return 0
        if k in ("f32", "f16", "bf16"):
            return np.float32(0)
        if k == "f64":
            return np.float64(0)
        if k == "i1":
            return False
        if k == "rec":
            ri = self.rec(t)
            return Rec(ri, [self.default(ft) for ft in ri.types])
        if k == "var":
            vi = self.var(t)
            tag = vi.default_tag
            return Var(vi, tag, [self.default(pt) for pt in vi.payloads[tag]])
        return None

    def alloc(self, t: Attribute, n: int) -> list[Any]:
        """n independent default slots."""
        k = kind(t)
        if k in ("rec", "var"):
            return [self.default(t) for _ in range(n)]
        return [self.default(t)] * n

    # ---------------------------------------------------------------------------------------- layout

    def lay(self, t: Attribute) -> Layout:
        """The aligned layout of `t` (SAREK_SPEC §4.9), from sarek.analysis.layout: the one implementation
        the lowerings, the runtime and the interpreter share."""
        got = self.layouts.get(t)
        if got is None:
            got = self.layouts[t] = layout_of(self.module, t)
        return got

    def layout(self, t: Attribute) -> tuple[int, int]:
        """(size, align) of the aligned layout."""
        lay = self.lay(t)
        return lay.size, lay.align

    def field_offsets(self, t: Attribute) -> list[int]:
        """Offsets of a record's fields."""
        return [o for _, o in cast(RecordLayout, self.lay(t)).fields]

    def payload_offsets(self, t: Attribute, tag: int) -> list[int]:
        """Offsets (from the start of the variant value) of one constructor's payloads."""
        return list(cast(VariantLayout, self.lay(t)).ctors[tag].offsets)

    def numpy_dtype(self, t: Attribute) -> np.dtype[Any]:
        """The structured dtype of the aligned layout, as the host sees it (`Point.dtype`)."""
        return numpy_dtype(self.module, t)

    def local_dtype(self, t: Attribute) -> np.dtype[Any]:
        """The same bytes as numpy_dtype, named for the fast executor: a variant's payloads are always a struct
        `_c<i>` (constructor i; not its name, which may be `tag`) of `_0.._k`, and bools are int32."""
        k = kind(t)
        if k == "i1":
            return np.dtype(np.int32)
        if k == "bf16":
            return np.dtype(np.uint16)
        if k in NP_SCALAR:
            return np.dtype(NP_SCALAR[k])
        if k == "rec":
            ri = self.rec(t)
            return np.dtype({"names": ri.fields, "formats": [self.local_dtype(x) for x in ri.types],
                             "offsets": self.field_offsets(t), "itemsize": self.layout(t)[0]})
        vi = self.var(t)
        lay = cast(VariantLayout, self.lay(t))
        names: list[str] = ["tag"]
        formats: list[np.dtype[Any]] = [np.dtype(np.int32)]
        offsets = [0]
        for c, (ps, cl) in enumerate(zip(vi.payloads, lay.ctors)):
            if ps:
                names.append(ctor_field(c))
                formats.append(np.dtype({"names": [f"_{j}" for j in range(len(ps))],
                                         "formats": [self.local_dtype(x) for x in ps],
                                         "offsets": [o - lay.payload_offset for o in cl.offsets],
                                         "itemsize": cl.payload_size}))
                offsets.append(lay.payload_offset)
        return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": lay.size})

    # ---------------------------------------------------------------------------------------- marshalling

    def decode(self, buf: memoryview | bytes, off: int, t: Attribute) -> Any:
        """Value of type t stored at buf[off:] in the aligned layout."""
        k = kind(t)
        if k in INTS:
            return struct.unpack_from(_STRUCT[k], buf, off)[0]
        if k == "bf16":
            return np.float32(struct.unpack("<f", b"\0\0" + bytes(buf[off:off + 2]))[0])
        if k == "f32":
            return np.float32(struct.unpack_from("<f", buf, off)[0])
        if k == "f64":
            return np.float64(struct.unpack_from("<d", buf, off)[0])
        if k == "f16":
            return np.float32(struct.unpack_from("<e", buf, off)[0])
        if k == "i1":
            return buf[off] != 0
        if k == "rec":
            ri = self.rec(t)
            return Rec(ri, [self.decode(buf, off + o, ft) for o, ft in zip(self.field_offsets(t), ri.types)])
        if k == "var":
            vi = self.var(t)
            tag = struct.unpack_from("<i", buf, off)[0]
            if not 0 <= tag < len(vi.ctors):
                raise InterpError(f"variant @{vi.name} value has tag {tag}, which names no constructor "
                                  f"(tags are declaration indices 0..{len(vi.ctors) - 1})")
            offs = self.payload_offsets(t, tag)
            return Var(vi, tag, [self.decode(buf, off + o, pt) for o, pt in zip(offs, vi.payloads[tag])])
        raise ValueError(k)

    def encode(self, v: Any, t: Attribute, buf: bytearray, off: int) -> None:
        k = kind(t)
        if k in INTS:
            struct.pack_into(_STRUCT[k], buf, off, wrap_kind(int(v), k))
        elif k == "bf16":
            buf[off:off + 2] = struct.pack("<f", float(bf16_round(v)))[2:]
        elif k == "f32":
            struct.pack_into("<f", buf, off, float(v))
        elif k == "f64":
            struct.pack_into("<d", buf, off, float(v))
        elif k == "f16":
            struct.pack_into("<e", buf, off, float(v))
        elif k == "i1":
            struct.pack_into("<i", buf, off, 1 if v else 0)
        elif k == "rec":
            ri = self.rec(t)
            for o, ft, x in zip(self.field_offsets(t), ri.types, v.f):
                self.encode(x, ft, buf, off + o)
        elif k == "var":
            vi = self.var(t)
            size = self.layout(t)[0]
            buf[off:off + size] = bytes(size)
            tag: int = v.tag
            struct.pack_into("<i", buf, off, tag)
            for o, pt, x in zip(self.payload_offsets(t, tag), vi.payloads[tag], v.p):
                self.encode(x, pt, buf, off + o)

    def from_python(self, x: Any, t: Attribute) -> Any:
        """A scalar kernel argument: Python/numpy scalar; a record as a numpy void/structured scalar or a dict
        of fields; a variant as a numpy void scalar or a tuple `("Ctor", payload0, ...)`."""
        k = kind(t)
        if k in INTS:
            return wrap_kind(int(x), k)
        if k == "bf16":
            return bf16_arg(x)
        if k == "f32":
            return np.float32(x)
        if k == "f16":
            return np.float32(np.float16(x))
        if k == "f64":
            return np.float64(x)
        if k == "i1":
            return bool(x)
        if k in ("rec", "var"):
            if isinstance(x, np.void | np.ndarray):
                b = np.ascontiguousarray(cast("np.void | npt.NDArray[Any]", x)).tobytes()
                if len(b) != self.layout(t)[0]:
                    raise InterpError(f"argument for {t} has {len(b)} bytes, the aligned layout needs "
                                      f"{self.layout(t)[0]}")
                return self.decode(b, 0, t)
            if k == "rec":
                ri = self.rec(t)
                d = cast("dict[str, Any] | None", x if isinstance(x, dict) else None)
                if d is None or set(d) != set(ri.fields):
                    raise InterpError(f"record @{ri.name} argument must be a dict with fields {ri.fields}")
                return Rec(ri, [self.from_python(d[f], ft) for f, ft in zip(ri.fields, ri.types)])
            vi = self.var(t)
            tu = cast("tuple[Any, ...] | None", x if isinstance(x, tuple) else None)
            if not tu or tu[0] not in vi.ctors:
                raise InterpError(f"variant @{vi.name} argument must be a tuple (ctor, *payload) with ctor in "
                                  f"{vi.ctors}")
            tag = vi.ctors.index(tu[0])
            if len(tu) - 1 != len(vi.payloads[tag]):
                raise InterpError(f"constructor {tu[0]} takes {len(vi.payloads[tag])} payload value(s)")
            return Var(vi, tag, [self.from_python(a, pt) for a, pt in zip(tu[1:], vi.payloads[tag])])
        raise InterpError(f"cannot pass a {t} argument")

    def check_vector(self, a: Any, t: Attribute, pname: str, op: Operation | None, rank: int = 1) -> None:
        """A vector argument: a numpy array of the vector's rank (1-D for a Vec) whose dtype fits the element
        type (i1: bool or integer; records/variants: itemsize of the aligned layout)."""
        arr = as_ndarray(a)
        if arr is None or arr.ndim != rank:
            raise InterpError(f"argument '{pname}' must be a {rank}-D numpy array, got {type(a).__name__}", op)
        k = kind(t)
        if k in ("rec", "var"):
            size = self.layout(t)[0]
            if arr.dtype.itemsize != size:
                raise InterpError(f"argument '{pname}': elements of {t} take {size} bytes in the aligned layout, "
                                  f"the array's take {arr.dtype.itemsize}", op)
        elif k == "i1":
            if arr.dtype.kind not in "biu":
                raise InterpError(f"argument '{pname}' must be a bool (or integer) array, got {arr.dtype}", op)
        elif k == "bf16":
            if not is_bf16_host(arr.dtype):
                raise InterpError(f"argument '{pname}' must be a bfloat16 (or uint16 bits) array for {t}, "
                                  f"got {arr.dtype}", op)
        elif arr.dtype != np.dtype(NP_SCALAR[k]):
            raise InterpError(f"argument '{pname}' must be a {np.dtype(NP_SCALAR[k])} array for {t}, "
                              f"got {arr.dtype}", op)

    def vec_to_list(self, a: np.ndarray, t: Attribute) -> list[Any]:
        """Vector storage for the reference executor."""
        k = kind(t)
        if k in INTS:
            return a.tolist()
        if k == "bf16":
            return list(bf16_to_f32(a))
        if k == "i1":
            return [bool(x) for x in a.tolist()]
        if k in ("f32", "f64"):
            return list(a)
        if k == "f16":
            return list(a.astype(np.float32))
        size = self.layout(t)[0]
        if a.dtype.itemsize != size:
            raise InterpError(f"vector of {t} has element size {a.dtype.itemsize}, the aligned layout needs {size}")
        raw = np.ascontiguousarray(a).view(np.uint8).tobytes()
        mv = memoryview(raw)
        return [self.decode(mv, i * size, t) for i in range(len(a))]

    def list_to_vec(self, lst: list[Any], a: np.ndarray, t: Attribute) -> None:
        k = kind(t)
        if k == "bf16":
            if lst:
                a.view(np.uint16)[...] = bf16_bits(bf16_from_f32(np.array(lst, np.float32)))
            return
        if k in NP_SCALAR:
            a.reshape(-1)[...] = np.array(lst, dtype=a.dtype) if lst else a.reshape(-1)
            return
        size = self.layout(t)[0]
        buf = bytearray(size * len(lst))
        for i, v in enumerate(lst):
            self.encode(v, t, buf, i * size)
        a.view(np.uint8).reshape(-1)[...] = np.frombuffer(bytes(buf), dtype=np.uint8)


def as_ndarray(x: object) -> npt.NDArray[Any] | None:
    """x as a numpy array, None when it is not one."""
    return cast("npt.NDArray[Any]", x) if isinstance(x, np.ndarray) else None


def int_value(a: Attribute) -> int:
    """The value of an integer constant's attribute."""
    return cast("IntegerAttr[IntegerType]", a).value.data


def detach(v: Any, depth: int = 0) -> Any:
    """Deep copy through records and variant payloads (arrays alias). Raises DepthError past the bound."""
    c = type(cast(object, v))
    if c is Rec:
        if depth >= DETACH_MAX_DEPTH and v.f:
            raise DepthError()
        return Rec(v.t, [detach(x, depth + 1) if type(x) in _AGG else x for x in v.f])
    if c is Var:
        if depth >= DETACH_MAX_DEPTH and v.p:
            raise DepthError()
        return Var(v.t, v.tag, [detach(x, depth + 1) if type(x) in _AGG else x for x in v.p])
    return v


_AGG = (Rec, Var)


class DepthError(Exception):
    pass


DEPTH_MESSAGE = (f"cannot copy a record/variant value that nests deeper than {DETACH_MAX_DEPTH} levels "
                 f"(binding copies records by value, up to {DETACH_MAX_DEPTH} nested levels)")


def to_python(v: Any) -> Any:
    """Plain Python view of an interpreter value (for tests and debugging)."""
    if type(v) is Rec:
        return {n: to_python(x) for n, x in zip(v.t.fields, v.f)}
    if type(v) is Var:
        return (v.t.ctors[v.tag], *[to_python(x) for x in v.p])
    if isinstance(v, np.generic):
        return cast("np.generic[Any]", v).item()
    return v


def cached(module: ModuleOp, key: str, build: Callable[[], _T]) -> _T:
    """A per-module cache entry, rebuilt when the module's ops change (fingerprint: identity of every op)."""
    fp = hash(tuple(map(id, module.walk())))
    store: dict[str, tuple[int, Any]] = vars(module).setdefault("_sarek_interp_cache", {})
    hit = store.get(key)
    if hit is not None and hit[0] == fp:
        return hit[1]
    v = build()
    store[key] = (fp, v)
    return v


def location_of(op: Operation | None) -> str:
    from sarek.diagnostics import location_text

    loc = location_text(op)
    return loc if loc else (op.name if op is not None else "?")
