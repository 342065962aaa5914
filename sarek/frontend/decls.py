"""`@record` and `@variant`: Python classes that declare sarek records and variants.

A record class becomes a dataclass with `.dtype` (numpy structured dtype of the aligned layout every device
uses, SAREK_SPEC §4.9) and `pack`/`unpack`. A variant class gets one constructor per annotation
(`Circle: f32`, `Rect: (f32, f32)`, `Empty: ()`); on the host `Shape.Circle(1.0)` is a value with equality and
`repr`; `Shape.dtype`, `Shape.pack(values)`, `Shape.unpack(array)` convert to and from device arrays. The tag
of a constructor is its declaration index.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import typing
from typing import TYPE_CHECKING, Any, cast

from sarek.diagnostics import user_api
from sarek.types import SCALARS, ArrayOf, ScalarType, VecOf

if TYPE_CHECKING:
    import numpy as np
    from xdsl.ir import Attribute, Operation


def _class_location(cls: type) -> tuple[str, int, int] | None:
    """(file, line, column) of a class definition, when its source can be found."""
    import inspect

    try:
        file = inspect.getsourcefile(cls)
        lines, line = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        return None
    if file is None:
        return None
    first = lines[0] if lines else ""
    return file, max(line, 1), len(first) - len(first.lstrip()) + 1


class _Located:
    """A declaration's class and its source location, found at first use (reading the source costs a few ms
    per class: the vector types would make `import sarek` 30 ms slower)."""

    cls: type

    @functools.cached_property
    def location(self) -> tuple[str, int, int] | None:
        return _class_location(self.cls)


class RecordInfo(_Located):
    def __init__(self, cls: type, name: str, fields: list[tuple[str, Any]]):
        self.cls, self.name, self.fields = cls, name, fields


class VariantInfo(_Located):
    def __init__(self, cls: type, name: str, ctors: list[tuple[str, list[Any]]]):
        self.cls, self.name, self.ctors = cls, name, ctors

    def ctor_index(self, name: str) -> int:
        return [c for c, _ in self.ctors].index(name)


def record_info(x: Any) -> RecordInfo | None:
    return x.__dict__.get("__sarek_record__") if isinstance(x, type) else None


def variant_info(x: Any) -> VariantInfo | None:
    return x.__dict__.get("__sarek_variant__") if isinstance(x, type) else None


def is_decl(x: Any) -> bool:
    return record_info(x) is not None or variant_info(x) is not None


def type_name(x: Any) -> str:
    """How a front-end type is written in Python (for messages)."""
    if isinstance(x, ScalarType):
        return x.name
    if isinstance(x, VecOf):
        return f"Vec[{type_name(x.element)}]" if x.rank == 1 else f"Array[{type_name(x.element)}, {x.rank}]"
    if isinstance(x, ArrayOf):
        return repr(x)
    if isinstance(x, type):
        return x.__name__
    return str(x)


def normalize_type(t: Any) -> Any:
    """Python annotation -> ScalarType, record/variant class, VecOf or ArrayOf; raises TypeError."""
    if t is bool:
        return SCALARS["bool"]
    if t is int:
        return SCALARS["i32"]
    if t is float:
        return SCALARS["f32"]
    if isinstance(t, ScalarType) or is_decl(t):
        return t
    if typing.get_origin(t) is tuple:
        return tuple_record(tuple(typing.get_args(t)))
    if isinstance(t, VecOf):
        return VecOf(normalize_element(t.element), t.rank)
    if isinstance(t, ArrayOf):
        return ArrayOf(normalize_element(t.element), t.space)
    raise TypeError(f"'{type_name(t)}' is not a sarek type (use i32, i64, f16, f32, f64, bool, u8, i8, i16, u16, u32, "
                    "u64, bf16, Vec[T], Array[T, N], "
                    "a @record or a @variant)")


def normalize_element(t: Any) -> Any:
    t = normalize_type(t)
    if isinstance(t, VecOf | ArrayOf):
        raise TypeError(f"'{type_name(t)}' cannot be an element type")
    return t


def ir_type(t: Any) -> Attribute:
    """The sarek dialect type of a normalized front-end type."""
    from sarek.dialect.sarek import ArrayType, RecordType, VariantType, VecType

    t = normalize_type(t)
    if isinstance(t, ScalarType):
        return t.ir
    if isinstance(t, VecOf):
        return VecType(ir_type(t.element), t.rank)
    if isinstance(t, ArrayOf):
        return ArrayType(ir_type(t.element), t.space)
    if (r := record_info(t)) is not None:
        return RecordType(r.name)
    if (v := variant_info(t)) is not None:
        return VariantType(v.name)
    raise TypeError(f"not a sarek type: {t}")


def _annotations(cls: type, what: str) -> dict[str, Any]:
    """The class's annotations evaluated; a name that is not defined yet is a located CompileError (the class
    itself resolves, so a self-reference is reported as such by the caller)."""
    out: dict[str, Any] = {}
    for k, v in cls.__dict__.get("__annotations__", {}).items():
        try:
            if isinstance(v, str):
                mod = sys.modules.get(cls.__module__)
                out[k] = eval(v, dict(vars(mod)) if mod else {}, {**vars(cls), cls.__name__: cls})  # noqa: S307
            else:
                out[k] = v
        except NameError as e:
            raise _decl_error(cls, k, f"{what} {cls.__name__}: '{k}' names an unknown type ({e}); a type can only "
                                      "use types defined before it, so declarations cannot be mutually "
                                      "recursive") from None
        except Exception as e:
            raise _decl_error(cls, k, f"{what} {cls.__name__}: cannot evaluate the annotation of '{k}' "
                                      f"({type(e).__name__}: {e})") from None
    return out


def _decl_error(cls: type, member: str | None, message: str) -> Exception:
    """A CompileError located at the member's line of the class (else the class line)."""
    import inspect

    from sarek.frontend.errors import DeclarationError

    loc = _class_location(cls)
    if loc is None:
        return DeclarationError(message)
    file, line, col = loc
    if member is not None:
        try:
            lines, first = inspect.getsourcelines(cls)
            for i, text in enumerate(lines):
                stripped = text.lstrip()
                if i > 0 and (stripped.startswith(f"{member}:") or stripped.startswith(f"{member} :")):
                    line, col = first + i, len(text) - len(stripped) + 1
                    break
        except (OSError, TypeError):
            pass
    return DeclarationError(message, file, line, col)


def _element(cls: type, what: str, member: str, t: Any) -> Any:
    """A field or payload type, checked: a sarek element type, never the class being declared."""
    if t is cls:
        kind = "record" if what == "@record" else "variant"
        raise _decl_error(cls, member, f"{what} {cls.__name__}: '{member}' has the type {cls.__name__} itself; a "
                                       f"{kind} cannot contain itself (store an index into a Vec instead)")
    try:
        return normalize_element(t)
    except TypeError as e:
        raise _decl_error(cls, member, f"{what} {cls.__name__}: '{member}': {e}") from None


# ------------------------------------------------------------------------------------------------ layout


def numpy_dtype(t: Any) -> np.dtype:
    """The numpy structured dtype of a record/variant: sarek.analysis.layout's aligned layout, the one every
    device and the interpreter use. A type with no byte layout raises its LayoutError."""
    from xdsl.dialects.builtin import ModuleOp

    from sarek.analysis.layout import numpy_dtype as layout_dtype

    return layout_dtype(ModuleOp(decl_ops([t])), ir_type(t))


class _LazyDtype:
    """`T.dtype`, computed on first access, so a type that has no byte layout (a variant inside a record) can
    still be declared and used inside kernels; only asking for its dtype reports the layout error."""

    def __get__(self, obj: Any, owner: type) -> np.dtype:
        dt = owner.__dict__.get("_sarek_dtype")
        if dt is None:
            dt = numpy_dtype(owner)
            setattr(owner, "_sarek_dtype", dt)
        return dt


# ------------------------------------------------------------------------------------------------ declarations


def decl_ops(types: list[Any]) -> list[Operation]:
    """RecordOp/VariantOp for the given front-end types and every declaration they mention, dependencies
    first (each once)."""
    from sarek.dialect.sarek import RecordOp, VariantOp

    out: list[Operation] = []
    seen: set[int] = set()

    def visit(t: Any, stack: tuple[int, ...] = ()) -> None:
        if isinstance(t, VecOf | ArrayOf):
            visit(t.element, stack)
            return
        r, v = record_info(t), variant_info(t)
        if r is None and v is None:
            return
        if id(t) in seen:
            return
        if id(t) in stack:
            raise TypeError(f"type {type_name(t)} contains itself")
        if r is not None:
            for _, ft in r.fields:
                visit(ft, stack + (id(t),))
            seen.add(id(t))
            out.append(_located(RecordOp(r.name, [(n, ir_type(ft)) for n, ft in r.fields]), r.location))
        else:
            assert v is not None
            for _, ps in v.ctors:
                for p in ps:
                    visit(p, stack + (id(t),))
            seen.add(id(t))
            out.append(_located(VariantOp(v.name, [(c, [ir_type(p) for p in ps]) for c, ps in v.ctors]), v.location))

    for t in types:
        visit(t)
    return out


def _located(op: Any, loc: tuple[str, int, int] | None) -> Any:
    if loc is not None:
        from sarek.frontend.errors import make_loc

        op.location = make_loc(*loc)
    return op


def _host_scalar(t: Any, x: Any) -> Any:
    if isinstance(t, ScalarType):
        if t.name == "bool":
            return bool(x)
        if t.np_dtype.kind in "iu":
            return int(x)
        return float(x) if t.name != "bf16" else t(x)
    return x


def _store(t: Any, x: Any, parent: Any, key: Any) -> None:
    """Write host value x of type t into parent[key] (a structured element or field, written in place)."""
    import numpy as np

    if isinstance(t, ScalarType):
        parent[key] = _host_scalar(t, x)
        return
    view = parent[key]
    if (r := record_info(t)) is not None:
        for i, (n, ft) in enumerate(r.fields):
            if isinstance(x, dict):
                y = cast("dict[str, Any]", x)[n]
            elif isinstance(x, tuple | np.void):
                y = cast("tuple[Any, ...] | np.void", x)[i]
            else:
                y = getattr(x, n)
            _store(ft, y, view, n)
        return
    if (v := variant_info(t)) is not None:
        if not isinstance(x, VariantValue) or x.variant is not v.cls:
            raise TypeError(f"expected a {v.name} value, got {x!r}")
        view["tag"] = x.tag
        ps = v.ctors[x.tag][1]
        if ps:
            key, single = _payload_key(x.ctor, len(ps))
            if single:
                _store(ps[0], x.payload[0], view, key)
            else:
                sub = view[key]
                for j, (p, y) in enumerate(zip(ps, x.payload)):
                    _store(p, y, sub, f"_{j}")
        return
    raise TypeError(f"cannot convert to {type_name(t)}")


def _payload_key(ctor: str, n: int) -> tuple[str, bool]:
    """The field of a variant dtype holding ctor's payload (`<Ctor>_v`, sarek.analysis.layout), and whether
    it is the bare single payload rather than a struct of `_0..`."""
    return f"{ctor}_v", n == 1


def _zero_host(t: Any) -> Any:
    if isinstance(t, ScalarType):
        return _host_scalar(t, 0)
    if (r := record_info(t)) is not None:
        return r.cls(*[_zero_host(ft) for _, ft in r.fields])
    v = variant_info(t)
    assert v is not None
    c, ps = v.ctors[0]
    return VariantValue(v.cls, c, 0, tuple(_zero_host(p) for p in ps))


def _from_numpy(t: Any, x: Any) -> Any:
    if isinstance(t, ScalarType):
        return _host_scalar(t, x)
    if (r := record_info(t)) is not None:
        return r.cls(*[_from_numpy(ft, x[n]) for n, ft in r.fields])
    if (v := variant_info(t)) is not None:
        tag = int(x["tag"])
        if not 0 <= tag < len(v.ctors):
            raise ValueError(f"{v.name}: invalid tag {tag}")
        c, ps = v.ctors[tag]
        payload: tuple[Any, ...] = ()
        if ps:
            key, single = _payload_key(c, len(ps))
            payload = (_from_numpy(ps[0], x[key]),) if single else \
                tuple(_from_numpy(p, x[key][f"_{j}"]) for j, p in enumerate(ps))
        return VariantValue(v.cls, c, tag, payload)
    raise TypeError(type_name(t))


def _pack(t: Any, values: Any) -> np.ndarray:
    import numpy as np

    dt = numpy_dtype(t)
    values = list(values)
    arr = np.zeros(len(values), dtype=dt)
    for i, x in enumerate(values):
        _store(t, x, arr, i)
    return arr


def _unpack(t: Any, array: np.ndarray) -> list[Any]:
    import numpy as np

    return [_from_numpy(t, x) for x in np.asarray(array).reshape(-1)]


# ------------------------------------------------------------------------------------------------ @record


@user_api
def record(cls: type) -> type:
    """Declare a record: annotated fields in order; a dataclass on the host with `dtype`, `pack`, `unpack`."""
    fields = [(n, _element(cls, "@record", n, t)) for n, t in _annotations(cls, "@record").items()]
    if not fields:
        raise _decl_error(cls, None, f"@record {cls.__name__} declares no field")
    cls = cast(type, dataclasses.dataclass(cls))
    info = RecordInfo(cls, cls.__name__, fields)
    cls.__sarek_record__ = info
    cls.dtype = _LazyDtype()
    cls.pack = classmethod(_pack)
    cls.unpack = classmethod(_unpack)
    cls.fields = [n for n, _ in fields]
    return cls


_TUPLES: dict[tuple[Any, ...], type] = {}


def tuple_record(elements: tuple[Any, ...]) -> type:
    """`tuple[f32, i32]` (a helper's return type): a record with fields e0, e1, ... named after its element
    types (`tuple_f32_i32`), one class per element list, marked `__sarek_tuple__` (the front end builds it from
    `return a, b` and takes it apart in `p, q = f(x)`)."""
    if len(elements) < 2 or Ellipsis in elements:
        raise TypeError(f"tuple[...] needs 2 or more element types, got {len(elements)}")
    elts = tuple(normalize_element(e) for e in elements)
    if elts not in _TUPLES:
        name = "tuple_" + "_".join(type_name(e) for e in elts)
        cls = type(name, (), {"__annotations__": {f"e{i}": e for i, e in enumerate(elts)}, "__module__": __name__})
        cls = record(cls)
        cls.__sarek_tuple__ = True
        _TUPLES[elts] = cls
    return _TUPLES[elts]


def is_tuple_record(cls: Any) -> bool:
    """`cls` is the record of a `tuple[...]` type."""
    return isinstance(cls, type) and cls.__dict__.get("__sarek_tuple__", False)


# ------------------------------------------------------------------------------------------------ @variant


def _fmt(x: Any) -> str:
    import numpy as np

    if isinstance(x, bool | np.bool_):
        return repr(bool(cast("bool | np.bool_[Any]", x)))
    if isinstance(x, float | np.floating):
        return repr(float(cast("float | np.floating[Any]", x)))
    if isinstance(x, int | np.integer):
        return repr(int(cast("int | np.integer[Any]", x)))
    return repr(x)


def _num_eq(a: Any, b: Any) -> bool:
    import numpy as np

    if isinstance(a, int | float | np.number | bool | np.bool_) and isinstance(b, int | float | np.number | bool | np.bool_):
        return float(cast("float | np.number[Any] | np.bool_[Any]", a)) == float(cast("float | np.number[Any] | np.bool_[Any]", b))
    return a == b


class VariantValue:
    """A host variant value: `Shape.Circle(1.0)`; equal when constructor and payloads (as numbers) are equal."""

    __slots__ = ("variant", "ctor", "tag", "payload")

    def __init__(self, variant: type, ctor: str, tag: int, payload: tuple[Any, ...]):
        self.variant, self.ctor, self.tag, self.payload = variant, ctor, tag, payload

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, VariantValue) and other.variant is self.variant and other.ctor == self.ctor
                and len(other.payload) == len(self.payload)
                and all(_num_eq(a, b) for a, b in zip(self.payload, other.payload)))

    def __hash__(self) -> int:
        return hash((self.variant.__name__, self.ctor, tuple(_fmt(p) for p in self.payload)))

    def __repr__(self) -> str:
        return f"{self.variant.__name__}.{self.ctor}({', '.join(_fmt(p) for p in self.payload)})"

    def __getitem__(self, i: int) -> Any:
        return self.payload[i]

    @staticmethod
    def pack(values: Any) -> np.ndarray:
        """Pack values of one variant (`type(v).pack([v])` works for a single value, as for records)."""
        values = list(values)
        if not values:
            raise ValueError("nothing to pack")
        return _pack(values[0].variant, values)

    @property
    def __match_args__(self) -> tuple[str, ...]:
        return ()


class VariantCtor:
    """`Shape.Circle`: builds a host value (`Shape.Circle(1.0)`) or, in kernels, a `sarek.make_variant`."""

    def __init__(self, variant: type, name: str, tag: int, payload: list[Any]):
        self.variant, self.name, self.tag, self.payload_types = variant, name, tag, payload

    def __call__(self, *args: Any) -> VariantValue:
        if len(args) != len(self.payload_types):
            raise TypeError(f"{self.variant.__name__}.{self.name} takes {len(self.payload_types)} payload "
                            f"value(s), {len(args)} given")
        return VariantValue(self.variant, self.name, self.tag,
                            tuple(_host_scalar(t, a) for t, a in zip(self.payload_types, args)))

    def __repr__(self) -> str:
        return f"{self.variant.__name__}.{self.name}"


@user_api
def variant(cls: type) -> type:
    """Declare a variant: one constructor per annotation, its payload a type, a tuple of types or `()`."""
    ctors: list[tuple[str, list[Any]]] = []
    for n, t in _annotations(cls, "@variant").items():
        if t is None or t == ():
            ps: list[Any] = []
        elif isinstance(t, tuple | list):
            ps = [_element(cls, "@variant", n, p) for p in cast("tuple[Any, ...] | list[Any]", t)]
        else:
            ps = [_element(cls, "@variant", n, t)]
        ctors.append((n, ps))
    if not ctors:
        raise _decl_error(cls, None, f"@variant {cls.__name__} declares no constructor (write one per line, "
                                     "e.g. 'Circle: f32', 'Empty: ()')")
    info = VariantInfo(cls, cls.__name__, ctors)
    cls.__sarek_variant__ = info
    for i, (n, ps) in enumerate(ctors):
        setattr(cls, n, VariantCtor(cls, n, i, ps))
    cls.dtype = _LazyDtype()
    cls.pack = classmethod(_pack)
    cls.unpack = classmethod(_unpack)
    cls.constructors = [n for n, _ in ctors]
    return cls

