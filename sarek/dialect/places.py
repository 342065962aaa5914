"""Binders, places and element access of the sarek dialect: `let`/`let_mut`, loads and stores, element and
field references, array reads and lengths, record field and variant payload reads, shared/local array
allocation."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Self, cast

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, IntegerType, StringAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    VarOperand,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Position

from sarek.dialect.opformat import FormatSyntax, NamedTypedOperandSyntax
from sarek.dialect.opformat import TypedOperandSyntax
from sarek.dialect.syntax import keep_textual_names as _keep_textual_names
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_type_at as _parse_type_at
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_typed_tail as _print_typed_tail
from sarek.dialect.syntax import print_optional_attr as _print_optional_attr
from sarek.dialect.syntax import print_subscripts as _print_subscripts
from sarek.dialect.syntax import parse_subscripts as _parse_subscripts
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import strings as _names
from sarek.dialect.syntax import print_name as _print_name
from sarek.dialect.syntax import parse_str_array as _parse_str_array
from sarek.dialect.syntax import check_name as _check_name
from sarek.dialect.syntax import hint as _hint
from sarek.dialect.types import (
    ArrayType,
    MemSpace,
    RecordType,
    RefType,
    VariantType,
    VecType,
    is_element_type,
    is_int,
)
from sarek.dialect.declarations import record_decl, variant_decl
from sarek.dialect.expressions import ConstantOp


@irdl_op_definition
class FieldOp(IRDLOperation):
    """`%x = sarek.field %p "x" : f32` — read a record field."""

    name = "sarek.field"
    record = operand_def(RecordType)
    field = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, record: SSAValue, field: str, type: Attribute):
        super().__init__(operands=[record], result_types=[type], properties={"field": StringAttr(field)})

    def verify_(self) -> None:
        _verify_field(self, cast(RecordType, self.record.type), self.field.data, self.result.type)

    def print(self, printer: Printer) -> None:
        _print_field_like(printer, self, self.record, self.field, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> FieldOp:
        base, f, t, _ = _parse_field_like(parser)
        return _parse_attrs(parser, cls(base, f, t))


def _verify_field(op: Operation, rt: RecordType, field: str, t: Attribute) -> None:
    d = record_decl(op, rt)
    ft = d.field_type(field)
    if ft is None:
        raise VerifyException(f"record @{rt.decl_name} has no field '{field}'")
    if t != ft:
        raise VerifyException(f"field '{field}' of @{rt.decl_name} has type {ft}, not {t}")


def _print_field_like(printer: Printer, op: Operation, base: SSAValue, field: StringAttr, t: Attribute) -> None:
    printer.print_string(" ")
    printer.print_operand(base)
    _print_name(printer, field)
    _print_typed_tail(printer, op, t)


def _parse_field_like(parser: Parser) -> tuple[SSAValue, str, Attribute, Position]:
    """The operand, the field name, the type and where the type starts."""
    base = _operand(parser)
    f = parser.parse_str_literal()
    return base, f, *_parse_type_at(parser)


@irdl_op_definition
class PayloadOp(IRDLOperation):
    """`%r = sarek.payload %s "Circle" 0 : f32` — read payload `index` of constructor `ctor` (the
    scrutinee must hold that constructor). `path` is the target's field chain, set by
    sarek-subst-match-payloads."""

    name = "sarek.payload"
    variant = operand_def(VariantType)
    ctor = prop_def(StringAttr)
    index = prop_def(IntegerAttr)
    path = opt_prop_def(ArrayAttr[StringAttr])
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, variant: SSAValue, ctor: str, index: int, type: Attribute, path: Sequence[str] | None = None):
        props: dict[str, Attribute] = {"ctor": StringAttr(ctor), "index": IntegerAttr(index, i32)}
        if path is not None:
            props["path"] = _names(path)
        super().__init__(operands=[variant], result_types=[type], properties=props)

    def verify_(self) -> None:
        d = variant_decl(self, cast(VariantType, self.variant.type))
        ps = d.payload(self.ctor.data)
        if ps is None:
            raise VerifyException(f"variant @{d.sym_name.data} has no constructor '{self.ctor.data}'")
        i = self.index.value.data
        if not 0 <= i < len(ps):
            raise VerifyException(f"constructor '{self.ctor.data}' has no payload {i}")
        if ps[i] != self.result.type:
            raise VerifyException(f"payload {i} of '{self.ctor.data}' has type {ps[i]}, not {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.variant)
        _print_name(printer, self.ctor)
        printer.print_string(f" {self.index.value.data}")
        _print_optional_attr(printer, "path", self.path)
        _print_typed_tail(printer, self, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> PayloadOp:
        v = _operand(parser)
        c = parser.parse_str_literal()
        i = parser.parse_integer()
        path = None
        if parser.parse_optional_keyword("path") is not None:
            path = _parse_str_array(parser, "payload path")
        parser.parse_punctuation(":")
        return _parse_attrs(parser, cls(v, c, i, parser.parse_type(), path))


class _IndexedSyntax(IRDLOperation):
    """` %a[%i, %j] : A` (a vector or array, one index per dimension and the vector or array type), `, I, J`
    added when an index is not an i32; built as `cls(a, [i, j])`."""

    if TYPE_CHECKING:  # defined by each op
        array: SSAValue
        indices: VarOperand

    @property
    def index(self) -> SSAValue:
        """The index of a rank-1 access (code that handles every rank reads `indices`)."""
        assert len(self.indices) == 1, f"{self.name} on a rank-{len(self.indices)} array has no single index"
        return self.indices[0]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.array)
        _print_subscripts(printer, self.indices)
        printer.print_string(" : ")
        printer.print_attribute(self.array.type)
        if any(x.type != i32 for x in self.indices):
            for x in self.indices:
                printer.print_string(", ")
                printer.print_attribute(x.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        a = _operand(parser)
        ipos = parser.pos
        idx = _parse_subscripts(parser)
        iend = parser.pos
        t, tpos = _parse_type_at(parser)
        if a.type != t:
            _raise_since(parser, f"array operand has type {a.type}, not {t}", tpos)
        if not isinstance(t, VecType | ArrayType):
            _raise_since(parser, f"expected a vector or array type, got {t}", tpos)
        its: list[Attribute] = [i32] * len(idx)
        if parser.parse_optional_punctuation(",") is not None:
            ipos, iend = parser.pos, None
            its = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                its.append(parser.parse_type())
        if len(its) != len(idx) or any(i.type != it for i, it in zip(idx, its)):
            got = ", ".join(str(i.type) for i in idx)
            want = ", ".join(map(str, its))
            _raise_since(parser, f"index has type {got}, not {want}" if len(idx) == len(its) == 1 else
                         f"indices have types ({got}), not ({want})", ipos, iend)
        return _parse_attrs(parser, cast(Callable[[SSAValue, Sequence[SSAValue]], Self], cls)(a, idx))

    def verify_indices(self) -> None:
        at = cast(VecType | ArrayType, self.array.type)
        if len(self.indices) != at.ndim:
            raise VerifyException(f"{self.name} on {at} (rank {at.ndim}) needs {at.ndim} "
                                  f"ind{'ex' if at.ndim == 1 else 'ices'}, got {len(self.indices)}")
        for x in self.indices:
            _verify_index(x)


def _one_or_many(index: SSAValue | Sequence[SSAValue]) -> list[SSAValue]:
    return [index] if isinstance(index, SSAValue) else list(index)


@irdl_op_definition
class ArrayReadOp(_IndexedSyntax):
    """`%x = sarek.array_read %a[%i] : !sarek.vec<f32>` (`%a[%i, %j]` on rank 2) — bounds-checked by the
    interpreter, per dimension."""

    name = "sarek.array_read"
    array = operand_def(VecType | ArrayType)
    indices = var_operand_def(IntegerType)
    result = result_def()

    def __init__(self, array: SSAValue, index: SSAValue | Sequence[SSAValue]):
        super().__init__(operands=[array, _one_or_many(index)],
                         result_types=[cast(VecType, array.type).element_type])

    def verify_(self) -> None:
        self.verify_indices()
        elt = cast(VecType, self.array.type).element_type
        if self.result.type != elt:
            raise VerifyException(f"element type is {elt}, result has type {self.result.type}")


def _verify_index(v: SSAValue) -> None:
    if not is_int(v.type):
        raise VerifyException(f"index must be i32 or i64, got {v.type}")


@irdl_op_definition
class ArrayLenOp(TypedOperandSyntax):
    """`%n = sarek.array_len %v : !sarek.vec<f32>` — the length passed with a vector (i32)."""

    name = "sarek.array_len"
    array = operand_def(VecType)
    result = result_def(i32)
    traits = traits_def(Pure())

    def __init__(self, array: SSAValue):
        super().__init__(operands=[array], result_types=[i32])

    def verify_(self) -> None:
        t = cast(VecType, self.array.type)
        if t.ndim != 1:
            raise VerifyException(f"sarek.array_len takes a rank-1 vector; {t} has rank {t.ndim} "
                                  "(its extents are sarek.array_dim)")


@irdl_op_definition
class ArrayDimOp(FormatSyntax):
    """`%n = sarek.array_dim %a, 1 : !sarek.vec<f32, 2>` — extent `dim` of the shape passed with an
    N-dimensional vector (i32; `a.shape[1]` in Python)."""

    name = "sarek.array_dim"
    FORMAT: ClassVar[str] = "$array , int($dim) : type($array)"
    array = operand_def(VecType)
    dim = prop_def(IntAttr)
    result = result_def(i32)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        t = cast(VecType, self.array.type)
        if not 0 <= self.dim.data < t.ndim:
            raise VerifyException(f"dimension {self.dim.data} is out of range for {t} (rank {t.ndim})")


@irdl_op_definition
class AllocArrayOp(IRDLOperation):
    """`%s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>` — a shared (per block) or local
    (per thread) array; slots start at the element type's default value. An N-dimensional one,
    `"t"[%c16, %c17] : !sarek.array<f32, shared, 2>`, has one constant extent per dimension (row-major).
    A constant one holds its values, row-major, and is only read: `"t"[%c3] = [1.0 : f32, 2.0 : f32, 0.5 : f32]
    : !sarek.array<f32, constant>` (sarek-constant-tables makes them from module-level tables)."""

    name = "sarek.alloc_array"
    sym = prop_def(StringAttr, prop_name="name")
    sizes = var_operand_def(i32)
    values = opt_prop_def(ArrayAttr)
    result = result_def(ArrayType)

    def __init__(self, name: str, size: SSAValue | Sequence[SSAValue], type: ArrayType,
                 values: Sequence[Attribute] | None = None):
        props: dict[str, Attribute] = {"name": StringAttr(name)}
        if values is not None:
            props["values"] = ArrayAttr(values)
        super().__init__(operands=[_one_or_many(size)], result_types=[type], properties=props)
        _hint(self.result, name)

    @property
    def array_type(self) -> ArrayType:
        return self.result.type

    @property
    def size(self) -> SSAValue:
        """The length of a rank-1 array (code that handles every rank reads `sizes` or `shape`)."""
        assert len(self.sizes) == 1, f"a rank-{len(self.sizes)} array has no single size operand"
        return self.sizes[0]

    @property
    def shape(self) -> list[int] | None:
        """The constant extents (None where one is not a constant)."""
        out: list[int] = []
        for x in self.sizes:
            c = x.owner
            if not (isinstance(c, ConstantOp) and isinstance(c.value, IntegerAttr)):
                return None
            out.append(cast("IntegerAttr[IntegerType]", c.value).value.data)
        return out

    def verify_(self) -> None:
        _check_name(self.sym, "array")
        if self.array_type.memspace == MemSpace.GLOBAL:
            raise VerifyException("sarek.alloc_array allocates shared or local arrays, not global ones")
        rank = self.array_type.ndim
        if len(self.sizes) != rank:
            raise VerifyException(f"sarek.alloc_array of {self.array_type} (rank {rank}) needs {rank} "
                                  f"size{'s' if rank > 1 else ''}, got {len(self.sizes)}")
        for x in self.sizes:
            c = x.owner
            if isinstance(c, ConstantOp) and isinstance(c.value, IntegerAttr):
                n = cast("IntegerAttr[IntegerType]", c.value).value.data
                if n <= 0:
                    raise VerifyException(f"sarek.alloc_array needs a positive size, got {n}")
            elif rank > 1:
                raise VerifyException("an N-dimensional sarek.alloc_array needs constant extents")
        self._verify_values()

    def _verify_values(self) -> None:
        """A constant array has its values (one per slot, of the element type); no other array has any."""
        if (self.array_type.memspace == MemSpace.CONSTANT) != (self.values is not None):
            raise VerifyException("a constant sarek.alloc_array, and only one, lists its values (= [...])")
        if self.values is None:
            return
        shape = self.shape
        if shape is None or math.prod(shape) != len(self.values.data):
            raise VerifyException(f"a constant sarek.alloc_array of extents {shape} needs one value per slot, got "
                                  f"{len(self.values.data)}")
        et = self.array_type.element_type
        for v in self.values.data:
            if getattr(v, "type", None) != et:
                raise VerifyException(f"constant array values must be {et} constants, got {v}")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.sym)
        _print_subscripts(printer, self.sizes)
        _print_optional_attr(printer, "=", self.values)
        _print_typed_tail(printer, self, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> AllocArrayOp:
        name = parser.parse_str_literal()
        n = _parse_subscripts(parser)
        values = parser.parse_attribute() if parser.parse_optional_punctuation("=") is not None else None
        if values is not None and not isinstance(values, ArrayAttr):
            parser.raise_error(f"expected the values of a constant array as [...], got {values}")
        t, pos = _parse_type_at(parser)
        if not isinstance(t, ArrayType):
            _raise_since(parser, f"expected !sarek.array type, got {t}", pos)
        op = cls(name, n, t, None if values is None else list(cast(ArrayAttr[Attribute], values).data))
        _keep_textual_names(op)
        _parse_attrs(parser, op)
        return op


@irdl_op_definition
class LetOp(NamedTypedOperandSyntax):
    """`%x = sarek.let "x" %v : f32` — an immutable binder; records are copied (value semantics)."""

    name = "sarek.let"
    T: ClassVar = VarConstraint("T", AnyAttr())
    sym = prop_def(StringAttr, prop_name="name")
    value = operand_def(T)
    result = result_def(T)

    def __init__(self, name: str, value: SSAValue):
        super().__init__(operands=[value], result_types=[value.type], properties={"name": StringAttr(name)})
        _hint(self.result, name)

    def verify_(self) -> None:
        _check_name(self.sym, "let")
        if not is_element_type(self.value.type):
            raise VerifyException(f"let binds a scalar, record or variant, got {self.value.type}")


@irdl_op_definition
class LetMutOp(NamedTypedOperandSyntax):
    """`%r = sarek.let_mut "x" %v : f32` — a mutable local initialised with `%v`; gives a `!sarek.ref<f32>`."""

    name = "sarek.let_mut"
    sym = prop_def(StringAttr, prop_name="name")
    init = operand_def()
    result = result_def(RefType)

    def __init__(self, name: str, init: SSAValue):
        super().__init__(operands=[init], result_types=[RefType(init.type)], properties={"name": StringAttr(name)})
        _hint(self.result, name)

    def verify_(self) -> None:
        _check_name(self.sym, "let_mut")
        if self.result.type.element_type != self.init.type:
            raise VerifyException(f"result must be !sarek.ref<{self.init.type}>")
        if not is_element_type(self.init.type):
            raise VerifyException(f"let_mut binds a scalar, record or variant, got {self.init.type}")


@irdl_op_definition
class LoadOp(TypedOperandSyntax):
    """`%v = sarek.load %r : !sarek.ref<f32>` — the current value of a place (records are copied)."""

    name = "sarek.load"
    OPERAND_BASE: ClassVar[type[Attribute]] = RefType
    ref = operand_def(RefType)
    result = result_def()

    def __init__(self, ref: SSAValue):
        super().__init__(operands=[ref], result_types=[cast(RefType, ref.type).element_type])

    def verify_(self) -> None:
        if cast(RefType, self.ref.type).element_type != self.result.type:
            raise VerifyException(f"load of {self.ref.type} gives {cast(RefType, self.ref.type).element_type}")


@irdl_op_definition
class StoreOp(FormatSyntax):
    """`sarek.store %place, %v : !sarek.ref<f32>` — assign to a place (a mutable local, an element
    `sarek.elem_ref`, a field `sarek.field_ref`)."""

    name = "sarek.store"
    FORMAT: ClassVar[str] = "$place , $value : type($place)"
    place = operand_def(RefType)
    value = operand_def()

    def verify_(self) -> None:
        if not isinstance(self.place.owner, PLACE_OPS):
            raise VerifyException("store target must be a place (sarek.let_mut, sarek.elem_ref or sarek.field_ref)")
        want = cast(RefType, self.place.type).element_type
        if self.value.type != want:
            raise VerifyException(f"stored value has type {self.value.type}, the place holds {want}")


@irdl_op_definition
class ElemRefOp(_IndexedSyntax):
    """`%p = sarek.elem_ref %v[%i] : !sarek.vec<f32>` (`%v[%i, %j]` on rank 2) — the place of an element
    (gives `!sarek.ref<f32>`)."""

    name = "sarek.elem_ref"
    array = operand_def(VecType | ArrayType)
    indices = var_operand_def(IntegerType)
    result = result_def(RefType)

    def __init__(self, array: SSAValue, index: SSAValue | Sequence[SSAValue]):
        super().__init__(operands=[array, _one_or_many(index)],
                         result_types=[RefType(cast(VecType, array.type).element_type)])

    def verify_(self) -> None:
        self.verify_indices()
        if self.result.type.element_type != cast(VecType, self.array.type).element_type:
            raise VerifyException("result must be a ref to the element type")
        if isinstance(self.array.type, ArrayType) and self.array.type.memspace == MemSpace.CONSTANT:
            raise VerifyException("a constant array is read-only: it has no element places")


@irdl_op_definition
class FieldRefOp(IRDLOperation):
    """`%f = sarek.field_ref %p "x" : !sarek.ref<f32>` — the place of a field of a record place."""

    name = "sarek.field_ref"
    base = operand_def(RefType)
    field = prop_def(StringAttr)
    result = result_def(RefType)

    def __init__(self, base: SSAValue, field: str, type: Attribute):
        super().__init__(operands=[base], result_types=[RefType(type)], properties={"field": StringAttr(field)})

    def verify_(self) -> None:
        if not isinstance(self.base.owner, PLACE_OPS):
            raise VerifyException("field_ref base must be a place")
        rt = cast(RefType, self.base.type).element_type
        if not isinstance(rt, RecordType):
            raise VerifyException(f"field_ref base must be a record place, got {self.base.type}")
        _verify_field(self, rt, self.field.data, self.result.type.element_type)

    def print(self, printer: Printer) -> None:
        _print_field_like(printer, self, self.base, self.field, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> FieldRefOp:
        base, f, t, pos = _parse_field_like(parser)
        if not isinstance(t, RefType):
            _raise_since(parser, f"field_ref gives a !sarek.ref type, got {t}", pos)
        return _parse_attrs(parser, cls(base, f, t.element_type))


PLACE_OPS: tuple[type[Operation], ...] = (LetMutOp, ElemRefOp, FieldRefOp)
