"""The sarek dialect's types: memory spaces, unit, records, variants, vectors, arrays, refs, and the
predicates on types (scalar, element, value) the verifiers and lowerings share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    Signedness,
    SymbolRefAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from sarek.dialect import scalars
from sarek.dialect.syntax import symbol_text as _sym
from typing_extensions import TypeIs


class MemSpace(StrEnum):
    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"
    CONSTANT = "constant"  # a read-only table with its values (sarek-constant-tables), in constant memory


@irdl_attr_definition
class MemSpaceAttr(EnumAttribute[MemSpace], SpacedOpaqueSyntaxAttribute):
    """Memory space of an array: global, shared (block), local (private) or constant (a read-only table)."""

    name = "sarek.memspace"


@irdl_attr_definition
class UnitType(ParametrizedAttribute, TypeAttribute):
    """`!sarek.unit`: no value (unit helpers, unit constants)."""

    name = "sarek.unit"


class _NamedTypeMixin:
    """Syntax of a nominal type: `<@name>`."""

    if TYPE_CHECKING:  # defined by each type
        ref: SymbolRefAttr

    @property
    def decl_name(self) -> str:
        return self.ref.root_reference.data

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<@{_sym(self.ref.root_reference.data)}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            name = parser.parse_symbol_name()
        return (SymbolRefAttr(name),)


@irdl_attr_definition
class RecordType(_NamedTypeMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.record<@name>`: a nominal record declared by `sarek.record @name`."""

    name = "sarek.record"
    ref: SymbolRefAttr = param_def(converter=SymbolRefAttr)


@irdl_attr_definition
class VariantType(_NamedTypeMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.variant<@name>`: a nominal tagged union declared by `sarek.variant @name`."""

    name = "sarek.variant"
    ref: SymbolRefAttr = param_def(converter=SymbolRefAttr)


class _ElementTypeMixin:
    """Syntax of a type with one parameter, its element type: `<T>`."""

    if TYPE_CHECKING:  # defined by each type
        element_type: Attribute

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)


MAX_RANK = 4


def _print_rank(printer: Printer, rank: IntAttr) -> None:
    if rank.data != 1:
        printer.print_string(f", {rank.data}")


def _parse_rank(parser: AttrParser) -> IntAttr:
    """`, N` after a shaped type's other parameters (absent: rank 1)."""
    if parser.parse_optional_punctuation(",") is None:
        return IntAttr(1)
    return IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))


class _RankedMixin:
    """The element type and rank (1 to MAX_RANK) of a vector or array type."""

    if TYPE_CHECKING:  # defined by each type
        element_type: Attribute
        rank: IntAttr

    @property
    def ndim(self) -> int:
        return self.rank.data

    def verify_element_and_rank(self, what: str) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(f"{what} element must be a scalar, record or variant, got {self.element_type}")
        if not 1 <= self.rank.data <= MAX_RANK:
            raise VerifyException(f"{what} rank must be 1 to {MAX_RANK}, got {self.rank.data}")


@irdl_attr_definition
class VecType(_RankedMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.vec<T>`: a kernel vector parameter, a device buffer that carries its length;
    `!sarek.vec<T, N>` (N = 2..4): a row-major N-dimensional array that carries its shape."""

    name = "sarek.vec"
    element_type: Attribute
    rank: IntAttr

    def __init__(self, element_type: Attribute, rank: int = 1):
        super().__init__(element_type, IntAttr(rank))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            _print_rank(printer, self.rank)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(), _parse_rank(parser))

    def verify(self) -> None:
        self.verify_element_and_rank("vector")


@irdl_attr_definition
class ArrayType(_RankedMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.array<T, shared|local|global>`: a fixed array in a memory space; `!sarek.array<T, shared, N>`
    (N = 2..4): a row-major N-dimensional one, its constant shape given by `sarek.alloc_array`."""

    name = "sarek.array"
    element_type: Attribute
    space: MemSpaceAttr
    rank: IntAttr

    def __init__(self, element_type: Attribute, space: MemSpace | str, rank: int = 1):
        super().__init__(element_type, MemSpaceAttr(MemSpace(space)), IntAttr(rank))

    @property
    def memspace(self) -> MemSpace:
        return self.space.data

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(f", {self.space.data.value}")
            _print_rank(printer, self.rank)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            elt = parser.parse_type()
            parser.parse_punctuation(",")
            space = MemSpaceAttr(parser.parse_str_enum(MemSpace))
            rank = _parse_rank(parser)
        return (elt, space, rank)

    def verify(self) -> None:
        self.verify_element_and_rank("array")


@irdl_attr_definition
class RefType(_ElementTypeMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.ref<T>`: a mutable place (a mutable local, a vector/array element, a field of a place)."""

    name = "sarek.ref"
    element_type: Attribute


UI8 = IntegerType(8, Signedness.UNSIGNED)


def is_integer_type(t: Attribute) -> TypeIs[IntegerType]:
    """`isinstance(t, IntegerType)`, narrowing to `IntegerType[int, Signedness]` (a bare isinstance leaves the
    width and signedness parameters unknown to the type checker)."""
    return isinstance(t, IntegerType)


def is_float(t: Attribute) -> bool:
    return isinstance(t, Float16Type | Float32Type | Float64Type)


def is_int(t: Attribute) -> bool:
    return is_integer_type(t) and t.width.data in (32, 64) and t.signedness.data != Signedness.UNSIGNED


def is_scalar_type(t: Attribute) -> bool:
    """i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64 (sarek.dialect.scalars)."""
    return t in scalars.NAMES


def is_element_type(t: Attribute) -> bool:
    return is_scalar_type(t) or isinstance(t, RecordType | VariantType)


def is_value_type(t: Attribute) -> bool:
    """Types an SSA value of an expression may have."""
    return is_element_type(t) or isinstance(t, UnitType | VecType | ArrayType | RefType)


def referenced_decls(t: Attribute) -> Iterator[str]:
    """Names of record/variant declarations a type mentions directly."""
    if isinstance(t, RecordType | VariantType):
        yield t.decl_name
    elif isinstance(t, VecType | ArrayType | RefType):
        yield from referenced_decls(t.element_type)


def scalar_width(t: Attribute) -> int | None:
    """Bit width of an i32, i64, f16, f32 or f64 (None for i1, ui8 and non-scalars): what a bitcast keeps."""
    if is_integer_type(t) and t.width.data in (32, 64) and t.signedness.data != Signedness.UNSIGNED:
        return t.width.data
    if isinstance(t, Float16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    return 64 if isinstance(t, Float64Type) else None
