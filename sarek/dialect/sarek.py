"""The `sarek` kernel dialect: Sarek's IR as xDSL types and operations.

Expressions are SSA values, control flow is structured regions, records/variants/helpers are module-level
symbol ops. Every binder (let, let_mut, for index, match binder, parameter, array) carries its source name
as a property so that name legalization works on names while references stay use-def edges.
See docs/DIALECT.md for the syntax of every op.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar, Self, TypeVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    VarRegion,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    OpTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Position
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from sarek.dialect.syntax import NamedTypedOperandSyntax, NullarySyntax, TypedOperandSyntax
from sarek.dialect.syntax import keep_textual_names as _keep_textual_names
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import operand_list as _operand_list
from sarek.dialect.syntax import operand_seq as _operand_seq
from sarek.dialect.syntax import parse_attr_dict as _parse_attr_dict
from sarek.dialect.syntax import optional_defined_operand as _optional_operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscript as _parse_subscript
from sarek.dialect.syntax import parse_type_at as _parse_type_at
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_operand_list as _print_operand_list
from sarek.dialect.syntax import print_subscript as _print_subscript
from sarek.dialect.syntax import print_typed_operand as _print_typed_operand
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import strings as _names
from sarek.dialect.intrinsics import INTRINSICS, Category, is_float, is_int, is_integer_type

# ------------------------------------------------------------------------------------------------ types


class MemSpace(StrEnum):
    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"


@irdl_attr_definition
class MemSpaceAttr(EnumAttribute[MemSpace], SpacedOpaqueSyntaxAttribute):
    """Memory space of an array: global, shared (block) or local (private)."""

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


@irdl_attr_definition
class VecType(_ElementTypeMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.vec<T>`: a kernel vector parameter, a device buffer that carries its length."""

    name = "sarek.vec"
    element_type: Attribute

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(f"vector element must be a scalar, record or variant, got {self.element_type}")


@irdl_attr_definition
class ArrayType(ParametrizedAttribute, TypeAttribute):
    """`!sarek.array<T, shared|local|global>`: a fixed array in a memory space."""

    name = "sarek.array"
    element_type: Attribute
    space: MemSpaceAttr

    def __init__(self, element_type: Attribute, space: MemSpace | str):
        super().__init__(element_type, MemSpaceAttr(MemSpace(space)))

    @property
    def memspace(self) -> MemSpace:
        return self.space.data

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(f", {self.space.data.value}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            elt = parser.parse_type()
            parser.parse_punctuation(",")
            space = MemSpaceAttr(parser.parse_str_enum(MemSpace))
        return (elt, space)

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(f"array element must be a scalar, record or variant, got {self.element_type}")


@irdl_attr_definition
class RefType(_ElementTypeMixin, ParametrizedAttribute, TypeAttribute):
    """`!sarek.ref<T>`: a mutable place (a mutable local, a vector/array element, a field of a place)."""

    name = "sarek.ref"
    element_type: Attribute


def _sym(name: str) -> str:
    """Symbol names are printed quoted unless they are bare identifiers (escaped as Printer does)."""
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return name
    esc = "".join("\\\\" if b == 0x5C else f"\\{b:02X}" if b < 0x20 or b > 0x7E or b == 0x22 else chr(b)
                  for b in name.encode("utf-8"))
    return '"' + esc + '"'


UI8 = IntegerType(8, Signedness.UNSIGNED)
_OpT = TypeVar("_OpT", bound=Operation)


def is_scalar_type(t: Attribute) -> bool:
    """i1, i32, i64, ui8, f16, f32, f64."""
    if is_integer_type(t):
        w = t.width.data
        return (w in (1, 32, 64) and t.signedness.data != Signedness.UNSIGNED) or (w == 8 and t.signedness.data == Signedness.UNSIGNED)
    return is_float(t)


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


# ------------------------------------------------------------------------------------------------ syntax helpers


def _print_name(printer: Printer, name: StringAttr) -> None:
    printer.print_string(" ")
    printer.print_string_literal(name.data)


def _print_params(printer: Printer, args: Sequence[BlockArgument], names: ArrayAttr[StringAttr]) -> None:
    printer.print_string("(")
    for i, (a, n) in enumerate(zip(args, names)):
        if i:
            printer.print_string(", ")
        printer.print_block_argument(a)
        printer.print_string(" ")
        printer.print_string_literal(n.data)
    printer.print_string(")")


def _parse_params(parser: Parser) -> tuple[list[Parser.Argument], list[str]]:
    args: list[Parser.Argument] = []
    names: list[str] = []

    def one() -> None:
        args.append(parser.parse_argument())
        names.append(parser.parse_str_literal())

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
    return args, names


def _parse_str_array(parser: Parser, what: str) -> list[str]:
    """`["a", "b"]`, or a parse error naming `what`."""
    pos = parser.pos
    a = parser.parse_attribute()
    if not isa(a, ArrayAttr[StringAttr]):
        _raise_since(parser, f"{what} must be an array of strings, got {a}", pos)
    return [x.data for x in a.data]


def _check_name(name: StringAttr, what: str) -> None:
    if not name.data:
        raise VerifyException(f"{what} name must not be empty")


def _module_of(op: Operation) -> Operation | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, ModuleOp):
        p = p.parent_op()
    return p


def lookup_decl(op: Operation, name: str) -> Operation | None:
    mod = _module_of(op)
    if mod is None:
        return None
    return SymbolTable.lookup_symbol(mod, name)


def _check_not_recursive(decl: RecordOp) -> None:
    """A record cannot contain itself: it would have no finite layout. (A cycle through other declarations is
    reported by sarek-order-type-decls, which names every declaration on it.)"""
    name = decl.sym_name.data
    for f, t in decl.fields:
        if name in referenced_decls(t):
            raise VerifyException(f"record @{name} contains itself (field '{f}'): a record cannot be recursive")


def record_decl(op: Operation, t: RecordType) -> RecordOp:
    d = lookup_decl(op, t.decl_name)
    if not isinstance(d, RecordOp):
        raise VerifyException(f"record type @{t.decl_name} is not declared by a sarek.record")
    return d


def variant_decl(op: Operation, t: VariantType) -> VariantOp:
    d = lookup_decl(op, t.decl_name)
    if not isinstance(d, VariantOp):
        raise VerifyException(f"variant type @{t.decl_name} is not declared by a sarek.variant")
    return d


def enclosing_function(op: Operation) -> KernelOp | HelperOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, KernelOp | HelperOp):
        p = p.parent_op()
    return p


# ------------------------------------------------------------------------------------------------ declarations


@irdl_op_definition
class RecordOp(IRDLOperation):
    """A record declaration: `sarek.record @point {x : f32, y : f32}`."""

    name = "sarek.record"
    sym_name = prop_def(SymbolNameConstraint())
    field_names = prop_def(ArrayAttr[StringAttr])
    field_types = prop_def(ArrayAttr[Attribute])
    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp))

    def __init__(self, name: str, fields: Sequence[tuple[str, Attribute]]):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "field_names": _names([f for f, _ in fields]),
                "field_types": ArrayAttr(t for _, t in fields),
            }
        )

    @property
    def fields(self) -> list[tuple[str, Attribute]]:
        return [(n.data, t) for n, t in zip(self.field_names, self.field_types)]

    def field_type(self, field: str) -> Attribute | None:
        return dict(self.fields).get(field)

    def field_index(self, field: str) -> int:
        return [n.data for n in self.field_names].index(field)

    def verify_(self) -> None:
        _check_name(self.sym_name, "record")
        if len(self.field_names) != len(self.field_types):
            raise VerifyException("record field names and types differ in number")
        seen: set[str] = set()
        for n, t in self.fields:
            _check_name(StringAttr(n), "record field")
            if n in seen:
                raise VerifyException(f"record @{self.sym_name.data} declares field '{n}' twice")
            seen.add(n)
            if not is_element_type(t):
                raise VerifyException(f"record field '{n}' has type {t}, not a scalar, record or variant")
        _check_not_recursive(self)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" {")
        for i, (n, t) in enumerate(self.fields):
            printer.print_string(", " if i else "")
            printer.print_string_literal(n) if not n.isidentifier() else printer.print_string(n)
            printer.print_string(" : ")
            printer.print_attribute(t)
        printer.print_string("}")
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> RecordOp:
        name = parser.parse_symbol_name().data
        fields: list[tuple[str, Attribute]] = []

        def one() -> None:
            n = parser.parse_identifier_or_str_literal()
            parser.parse_punctuation(":")
            fields.append((n, parser.parse_type()))

        parser.parse_comma_separated_list(Parser.Delimiter.BRACES, one)
        return _parse_attrs(parser, cls(name, fields))


@irdl_op_definition
class VariantOp(IRDLOperation):
    """A variant declaration: `sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}`.

    A constructor's tag on devices is its declaration index.
    """

    name = "sarek.variant"
    sym_name = prop_def(SymbolNameConstraint())
    ctor_names = prop_def(ArrayAttr[StringAttr])
    ctor_payloads = prop_def(ArrayAttr[ArrayAttr[Attribute]])
    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp))

    def __init__(self, name: str, ctors: Sequence[tuple[str, Sequence[Attribute]]]):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "ctor_names": _names([c for c, _ in ctors]),
                "ctor_payloads": ArrayAttr(ArrayAttr(p) for _, p in ctors),
            }
        )

    @property
    def ctors(self) -> list[tuple[str, list[Attribute]]]:
        return [(n.data, list(p.data)) for n, p in zip(self.ctor_names, self.ctor_payloads)]

    def ctor_index(self, ctor: str) -> int:
        return [n.data for n in self.ctor_names].index(ctor)

    def payload(self, ctor: str) -> list[Attribute] | None:
        return dict(self.ctors).get(ctor)

    def verify_(self) -> None:
        _check_name(self.sym_name, "variant")
        if len(self.ctor_names) != len(self.ctor_payloads):
            raise VerifyException("variant constructor names and payloads differ in number")
        if not self.ctor_names.data:
            raise VerifyException(f"variant @{self.sym_name.data} has no constructor")
        seen: set[str] = set()
        for n, ps in self.ctors:
            _check_name(StringAttr(n), "variant constructor")
            if n in seen:
                raise VerifyException(f"variant @{self.sym_name.data} declares constructor '{n}' twice")
            seen.add(n)
            for t in ps:
                if not is_element_type(t):
                    raise VerifyException(f"constructor '{n}' payload has type {t}, not a scalar, record or variant")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" {")
        for i, (n, ps) in enumerate(self.ctors):
            printer.print_string(", " if i else "")
            printer.print_string(n) if n.isidentifier() else printer.print_string_literal(n)
            if ps:
                printer.print_string("(")
                printer.print_list(ps, printer.print_attribute)
                printer.print_string(")")
        printer.print_string("}")
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> VariantOp:
        name = parser.parse_symbol_name().data
        ctors: list[tuple[str, Sequence[Attribute]]] = []

        def one() -> None:
            n = parser.parse_identifier_or_str_literal()
            ps: list[Attribute] = []
            if parser.parse_optional_punctuation("("):
                if not parser.parse_optional_punctuation(")"):
                    ps = [parser.parse_type()]
                    while parser.parse_optional_punctuation(","):
                        ps.append(parser.parse_type())
                    parser.parse_punctuation(")")
            ctors.append((n, ps))

        parser.parse_comma_separated_list(Parser.Delimiter.BRACES, one)
        return _parse_attrs(parser, cls(name, ctors))


class _FunctionMixin:
    """Shared by kernel and helper: named parameters as entry block arguments."""

    if TYPE_CHECKING:  # defined by each op class
        sym_name: StringAttr
        param_names: ArrayAttr[StringAttr]
        body: Region

    @property
    def params(self) -> list[tuple[str, BlockArgument]]:
        return [(n.data, a) for n, a in zip(self.param_names, self.body.block.args)]

    def _print_function(self, printer: Printer, return_type: Attribute | None) -> None:
        """` @name(%a : T "a", ...)[ -> R] attributes {...} { body }`."""
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        _print_params(printer, self.body.block.args, self.param_names)
        if return_type is not None:
            printer.print_string(" -> ")
            printer.print_attribute(return_type)
        _print_attrs(printer, cast(Operation, self))
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    @staticmethod
    def _parse_function(parser: Parser, returns: bool,
                        make: Callable[[str, list[tuple[str, Attribute]], Attribute, Region], _OpT]) -> _OpT:
        """What `_print_function` prints; `make(name, params, return type (unit without one), body)`."""
        name = parser.parse_symbol_name().data
        args, names = _parse_params(parser)
        ret: Attribute = UnitType()
        if returns:
            parser.parse_punctuation("->")
            ret = parser.parse_type()
        attrs = _parse_attr_dict(parser)
        region = parser.parse_region(args)
        if not region.blocks:
            region.add_block(Block(arg_types=[a.type for a in args]))
        op = make(name, [(n, a.type) for n, a in zip(names, args)], ret, region)
        op.attributes |= attrs
        return op

    def _verify_function(self, what: str, sym: StringAttr) -> None:
        _check_name(sym, what)
        if len(self.param_names) != len(self.body.block.args):
            raise VerifyException(f"{what} @{sym.data} has {len(self.body.block.args)} parameters but "
                                  f"{len(self.param_names)} parameter names")
        for n in self.param_names:
            _check_name(n, "parameter")
        op = cast(Operation, self)
        for a in self.body.block.args:
            _check_types_resolve(op, a.type, f"parameter '{self.param_names.data[a.index].data}'")
        for inner in op.walk():
            for t in [*(r.type for r in inner.results), *(x.type for reg in inner.regions for b in reg.blocks for x in b.args)]:
                _check_types_resolve(inner, t, "value")


def _check_types_resolve(op: Operation, t: Attribute, what: str) -> None:
    for n in referenced_decls(t):
        d = lookup_decl(op, n)
        want = RecordOp if isinstance(_innermost(t), RecordType) else VariantOp
        if not isinstance(d, want):
            kind = "record" if want is RecordOp else "variant"
            raise VerifyException(f"{what} has type {t}, but no sarek.{kind} @{n} is declared")


def _innermost(t: Attribute) -> Attribute:
    while isinstance(t, VecType | ArrayType | RefType):
        t = t.element_type
    return t


@irdl_op_definition
class KernelOp(_FunctionMixin, IRDLOperation):
    """A kernel: `sarek.kernel @vadd(%a : !sarek.vec<f32> "a", %n : i32 "n") { ... }`."""

    name = "sarek.kernel"
    sym_name = prop_def(SymbolNameConstraint())
    param_names = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp), IsolatedFromAbove(), NoTerminator())

    def __init__(self, name: str, params: Sequence[tuple[str, Attribute]], body: Region | None = None):
        if body is None:
            body = Region(Block(arg_types=[t for _, t in params]))
            for (n, _), a in zip(params, body.block.args):
                _hint(a, n)
        super().__init__(
            properties={"sym_name": StringAttr(name), "param_names": _names([n for n, _ in params])},
            regions=[body],
        )

    def verify_(self) -> None:
        self._verify_function("kernel", self.sym_name)
        for n, a in self.params:
            if not is_element_type(a.type) and not isinstance(a.type, VecType):
                raise VerifyException(f"kernel parameter '{n}' has type {a.type}; kernel parameters are "
                                      "scalars, records, variants or vectors")

    def print(self, printer: Printer) -> None:
        self._print_function(printer, None)

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        return cls._parse_function(parser, False, lambda name, params, _, body: cls(name, params, body))


@irdl_op_definition
class HelperOp(_FunctionMixin, IRDLOperation):
    """A device function: `sarek.helper @sq(%x : f32 "x") -> f32 { ... sarek.return %y : f32 }`."""

    name = "sarek.helper"
    sym_name = prop_def(SymbolNameConstraint())
    param_names = prop_def(ArrayAttr[StringAttr])
    return_type = prop_def(AnyAttr())
    body = region_def("single_block")
    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp), IsolatedFromAbove(), NoTerminator())

    def __init__(self, name: str, params: Sequence[tuple[str, Attribute]], return_type: Attribute,
                 body: Region | None = None):
        if body is None:
            body = Region(Block(arg_types=[t for _, t in params]))
            for (n, _), a in zip(params, body.block.args):
                _hint(a, n)
        super().__init__(
            properties={"sym_name": StringAttr(name), "param_names": _names([n for n, _ in params]),
                        "return_type": return_type},
            regions=[body],
        )

    @property
    def returns_unit(self) -> bool:
        return isinstance(self.return_type, UnitType)

    def verify_(self) -> None:
        self._verify_function("helper", self.sym_name)
        for n, a in self.params:
            if not is_element_type(a.type) and not isinstance(a.type, VecType | ArrayType):
                raise VerifyException(f"helper parameter '{n}' has type {a.type}; helper parameters are "
                                      "scalars, records, variants, vectors or arrays")
        if not (is_element_type(self.return_type) or isinstance(self.return_type, UnitType)):
            raise VerifyException(f"helper @{self.sym_name.data} returns {self.return_type}, not a scalar, "
                                  "record, variant or !sarek.unit")
        _check_types_resolve(self, self.return_type, f"helper @{self.sym_name.data} return")

    def print(self, printer: Printer) -> None:
        self._print_function(printer, self.return_type)

    @classmethod
    def parse(cls, parser: Parser) -> HelperOp:
        return cls._parse_function(parser, True, cls)


def _hint(v: SSAValue, name: str) -> None:
    """Mirror a source name as the SSA name hint where it is a valid one."""
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name) and SSAValue.extract_valid_name(name):
        v.name_hint = name  # xDSL drops a `_<digits>` suffix: `_0` would leave an empty hint


# ------------------------------------------------------------------------------------------------ expressions


class BinOpKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    REM = "rem"
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    AND = "and"
    OR = "or"
    SHL = "shl"
    SHR = "shr"
    BITAND = "bitand"
    BITOR = "bitor"
    BITXOR = "bitxor"


COMPARISONS = {BinOpKind.EQ, BinOpKind.NE, BinOpKind.LT, BinOpKind.LE, BinOpKind.GT, BinOpKind.GE}
INT_ONLY = {BinOpKind.SHL, BinOpKind.SHR, BinOpKind.BITAND, BinOpKind.BITOR, BinOpKind.BITXOR, BinOpKind.REM}
BOOL_ONLY = {BinOpKind.AND, BinOpKind.OR}


class UnOpKind(StrEnum):
    NEG = "neg"
    NOT = "not"
    BITNOT = "bitnot"


@irdl_attr_definition
class BinOpKindAttr(EnumAttribute[BinOpKind], SpacedOpaqueSyntaxAttribute):
    name = "sarek.binop_kind"


@irdl_attr_definition
class UnOpKindAttr(EnumAttribute[UnOpKind], SpacedOpaqueSyntaxAttribute):
    name = "sarek.unop_kind"


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A literal: `sarek.constant 1 : i32`, `sarek.constant 2.5 : f32`, `sarek.constant true`,
    `sarek.constant unit`."""

    name = "sarek.constant"
    value = prop_def(AnyAttr())
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: Attribute, type: Attribute | None = None):
        if type is None:
            if isinstance(value, IntegerAttr | FloatAttr):
                type = cast(IntegerAttr | FloatAttr, value).type
            elif isinstance(value, UnitAttr):
                type = UnitType()
            else:
                raise ValueError(f"no type for constant {value}")
        props: dict[str, Attribute] = {"value": value}
        super().__init__(properties=props, result_types=[type])

    @classmethod
    def from_value(cls, v: int | float | bool | None, type: Attribute) -> ConstantOp:
        if isinstance(type, UnitType):
            return cls(UnitAttr(), type)
        if is_integer_type(type):
            return cls(IntegerAttr(int(v or 0), type), type)
        return cls(FloatAttr(float(v or 0.0), cast(Float32Type, type)), type)

    def verify_(self) -> None:
        t, v = self.result.type, self.value
        if isinstance(t, UnitType):
            ok = isinstance(v, UnitAttr)
        elif is_integer_type(t) and is_scalar_type(t) and t.width.data != 8:
            ok = isinstance(v, IntegerAttr) and cast(IntegerAttr, v).type == t
        elif is_float(t):
            ok = isinstance(v, FloatAttr) and cast(FloatAttr, v).type == t
        else:
            ok = False
        if not ok:
            raise VerifyException(f"constant {v} does not fit result type {t}")

    def print(self, printer: Printer) -> None:
        t, v = self.result.type, self.value
        if isinstance(t, UnitType):
            printer.print_string(" unit")
        elif t == i1 and isinstance(v, IntegerAttr):
            printer.print_string(" true" if v.value.data else " false")
        elif isinstance(v, IntegerAttr):
            printer.print_string(f" {v.value.data} : ")
            printer.print_attribute(t)
        elif isinstance(v, FloatAttr):
            printer.print_string(" ")
            printer.print_string(_float_text(v.value.data, cast(FloatAttr, v).type))
            printer.print_string(" : ")
            printer.print_attribute(t)
        else:
            printer.print_string(" ")
            printer.print_attribute(v)
            printer.print_string(" : ")
            printer.print_attribute(t)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        if parser.parse_optional_keyword("unit") is not None:
            op = cls(UnitAttr(), UnitType())
        elif (b := parser.parse_optional_boolean()) is not None:
            op = cls(IntegerAttr(int(b), i1), i1)
        else:
            hexa = parser._current_token.text[:2] in ("0x", "0X")  # pyright: ignore[reportPrivateUsage]
            npos = parser.pos
            num = parser.parse_number()
            nend = parser.pos
            t, tpos = _parse_type_at(parser)
            if is_integer_type(t):
                if isinstance(num, float):
                    _raise_since(parser, f"integer constant expected for type {t}", npos, nend)
                w = t.width.data
                unsigned = w == 1 or t.signedness.data == Signedness.UNSIGNED
                lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
                if not lo <= num <= hi:
                    _raise_since(parser, f"integer constant {num} does not fit {t}", npos, nend)
                op = cls(IntegerAttr(num, t), t)
            elif is_float(t):
                ft = cast(Float32Type, t)
                if hexa:  # a bit pattern, as printed for NaN and infinities
                    if not 0 <= int(num) < 1 << (8 * ft.compile_time_size):
                        _raise_since(parser, f"hexadecimal constant does not fit {t}", npos, nend)
                    num = next(ft.iter_unpack(int(num).to_bytes(ft.compile_time_size, "little")))
                try:
                    op = cls(FloatAttr(float(num), ft), t)
                except OverflowError:
                    _raise_since(parser, f"float constant {num} does not fit {t}", npos, nend)
            else:
                _raise_since(parser, f"constant of type {t} is not supported", tpos)
        _parse_attrs(parser, op)
        return op


def _float_text(x: float, t: Attribute) -> str:
    """The shortest decimal that reads back as `x` at the width of `t` (f16 and f32 values are stored as the
    f64 they convert to exactly: reading a literal rounds it to f64, then to `t`), spelled as Python's repr
    with a '.' (MLIR float literals need one); NaN and infinities as their bit pattern in type t."""
    import math

    ft = cast(Float32Type, t)
    if math.isnan(x) or math.isinf(x):
        return "0x" + ft.pack((x,))[::-1].hex().upper()
    r = repr(x if ft.bitwidth == 64 else _shortest_at_width(x, ft))
    if "." in r:
        return r
    m, e, x10 = r.partition("e")
    return m + ".0" + e + x10


def _shortest_at_width(x: float, ft: Float32Type) -> float:
    """The f64 of the shortest decimal that reads back as `x` in `ft` (its repr is that decimal): with p + 1
    digits, x rounded to p + 1 digits or a neighbour of that (when x's rounding interval is lopsided)."""
    import math
    from decimal import Decimal

    for p in range(17):
        mant, _, exp = f"{abs(x):.{p}e}".partition("e")
        n = int(mant.replace(".", ""))
        for k in (n, n - 1, n + 1):
            d = math.copysign(float(Decimal(k).scaleb(int(exp) - p)), x)
            try:
                if ft.unpack(ft.pack((d,)), 1)[0] == x:
                    return d
            except OverflowError:  # beyond the largest finite value of ft
                pass
    return x


@irdl_op_definition
class BinOp(IRDLOperation):
    """`%r = sarek.binop add %a, %b : i32` — C semantics: integer div/rem truncate toward zero, shr is
    arithmetic on signed types, comparisons give i1. `and`/`or` take i1 values already evaluated; front
    ends express short-circuit with `sarek.if_expr`."""

    name = "sarek.binop"
    T: ClassVar = VarConstraint("T", AnyAttr())
    kind = prop_def(BinOpKindAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, kind: BinOpKind | str, lhs: SSAValue, rhs: SSAValue):
        k = BinOpKind(kind)
        super().__init__(operands=[lhs, rhs], result_types=[i1 if k in COMPARISONS else lhs.type],
                         properties={"kind": BinOpKindAttr(k)})

    @property
    def op(self) -> BinOpKind:
        return self.kind.data

    def verify_(self) -> None:
        t, k = self.lhs.type, self.op
        want = i1 if k in COMPARISONS else t
        if self.result.type != want:
            raise VerifyException(f"'{k}' on {t} gives {want}, not {self.result.type}")
        if k in BOOL_ONLY:
            if t != i1:
                raise VerifyException(f"'{k}' needs i1 operands, got {t}")
        elif k in INT_ONLY:
            if not is_int(t):
                raise VerifyException(f"'{k}' needs i32 or i64 operands, got {t}")
        elif k in (BinOpKind.EQ, BinOpKind.NE):
            if not (is_int(t) or is_float(t) or t == i1):
                raise VerifyException(f"'{k}' needs scalar operands, got {t}")
        elif not (is_int(t) or is_float(t)):
            raise VerifyException(f"'{k}' needs numeric operands, got {t}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.op.value} ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> BinOp:
        k = parser.parse_str_enum(BinOpKind)
        lhs, rhs = _operand_seq(parser, 2)
        t, pos = _parse_type_at(parser)
        if lhs.type != t or rhs.type != t:
            _raise_since(parser, f"operands have types {lhs.type} and {rhs.type}, not {t}", pos)
        return _parse_attrs(parser, cls(k, lhs, rhs))


@irdl_op_definition
class UnOp(IRDLOperation):
    """`%r = sarek.unop neg %a : f32` (neg: numbers, not: i1, bitnot: integers)."""

    name = "sarek.unop"
    T: ClassVar = VarConstraint("T", AnyAttr())
    kind = prop_def(UnOpKindAttr)
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())

    def __init__(self, kind: UnOpKind | str, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[operand.type],
                         properties={"kind": UnOpKindAttr(UnOpKind(kind))})

    @property
    def op(self) -> UnOpKind:
        return self.kind.data

    def verify_(self) -> None:
        t = self.operand.type
        ok = {UnOpKind.NEG: is_int(t) or is_float(t), UnOpKind.NOT: t == i1, UnOpKind.BITNOT: is_int(t)}[self.op]
        if not ok:
            raise VerifyException(f"'{self.op}' cannot apply to {t}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.op.value}")
        _print_typed_operand(printer, self.operand)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> UnOp:
        k = parser.parse_str_enum(UnOpKind)
        x = _operand(parser)
        _parse_type_of(parser, x)
        return _parse_attrs(parser, cls(k, x))


@irdl_op_definition
class CastOp(IRDLOperation):
    """`%r = sarek.cast %a : i32 to f32` between scalar types (f16 narrowing rounds to nearest even)."""

    name = "sarek.cast"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, type: Attribute):
        super().__init__(operands=[operand], result_types=[type])

    def verify_(self) -> None:
        for t in (self.operand.type, self.result.type):
            if not is_scalar_type(t) or (is_integer_type(t) and t.width.data == 8):
                raise VerifyException(f"cast between {self.operand.type} and {self.result.type}: only i1, i32, "
                                      "i64, f16, f32 and f64 convert")

    def print(self, printer: Printer) -> None:
        _print_typed_operand(printer, self.operand)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> CastOp:
        x = _operand(parser)
        _parse_type_of(parser, x)
        parser.parse_keyword("to")
        return _parse_attrs(parser, cls(x, parser.parse_type()))


def scalar_width(t: Attribute) -> int | None:
    """Bit width of an i32, i64, f16, f32 or f64 (None for i1, ui8 and non-scalars): what a bitcast keeps."""
    if is_integer_type(t) and t.width.data in (32, 64) and t.signedness.data != Signedness.UNSIGNED:
        return t.width.data
    if isinstance(t, Float16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    return 64 if isinstance(t, Float64Type) else None


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """`%r = sarek.bitcast %a : f32 to i32` reinterprets a scalar's bits as another scalar type of the same
    width (i32 <-> f32, i64 <-> f64); the bit manipulation of the math library (sarek-expand-math)."""

    name = "sarek.bitcast"
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, type: Attribute):
        super().__init__(operands=[operand], result_types=[type])

    def verify_(self) -> None:
        src, dst = self.operand.type, self.result.type
        ws, wd = scalar_width(src), scalar_width(dst)
        if ws is None or wd is None:
            raise VerifyException(f"bitcast between {src} and {dst}: only i32, i64, f16, f32 and f64 reinterpret")
        if ws != wd:
            raise VerifyException(f"bitcast between {src} ({ws} bits) and {dst} ({wd} bits): widths differ")

    def print(self, printer: Printer) -> None:
        _print_typed_operand(printer, self.operand)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> BitcastOp:
        x = _operand(parser)
        _parse_type_of(parser, x)
        parser.parse_keyword("to")
        return _parse_attrs(parser, cls(x, parser.parse_type()))


@irdl_op_definition
class IntrinsicOp(IRDLOperation):
    """`%r = sarek.intrinsic "sqrt"(%x) : (f32) -> f32` — thread/block/grid ids, math, atomics (returning
    the old value), warp shuffles, lane_id and warp_size; see sarek.dialect.intrinsics."""

    name = "sarek.intrinsic"
    callee = prop_def(StringAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], result_type: Attribute | None = None):
        if result_type is None:
            info = INTRINSICS.get(callee)
            r = info.check([a.type for a in args]) if info and len(args) == info.arity else None
            if not isinstance(r, Attribute):
                raise ValueError(f"cannot infer the type of intrinsic '{callee}'")
            result_type = r
        super().__init__(operands=[args], result_types=[[result_type]], properties={"callee": StringAttr(callee)})

    @property
    def result(self) -> SSAValue:
        return self.res[0]

    @property
    def info(self):
        return INTRINSICS[self.callee.data]

    def verify_(self) -> None:
        info = INTRINSICS.get(self.callee.data)
        if info is None:
            raise VerifyException(f"unknown intrinsic '{self.callee.data}'")
        if len(self.args) != info.arity:
            raise VerifyException(f"intrinsic '{info.name}' expects {info.arity} operand(s), got {len(self.args)}")
        r = info.check([a.type for a in self.args])
        if isinstance(r, str):
            raise VerifyException(f"intrinsic '{info.name}' {r}")
        if len(self.res) != 1 or self.res[0].type != r:
            got = ", ".join(str(x.type) for x in self.res) or "nothing"
            raise VerifyException(f"intrinsic '{info.name}' returns {r}, not {got}")
        if info.category == Category.ATOMIC and isinstance(self.args[0].type, ArrayType) \
                and self.args[0].type.memspace == MemSpace.LOCAL:
            raise VerifyException(f"intrinsic '{info.name}' on a local (private) array")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.callee.data)
        _print_call(printer, self, self.args, self.res)

    @classmethod
    def parse(cls, parser: Parser) -> IntrinsicOp:
        return _parse_call(parser, cls, StringAttr(parser.parse_str_literal()))


def _print_call(printer: Printer, op: Operation, args: Sequence[SSAValue], res: Sequence[SSAValue]) -> None:
    """The arguments and the function type of a call, `(%a, %b) : (A, B) -> R`, and the attributes."""
    _print_operand_list(printer, args)
    printer.print_string(" : ")
    printer.print_function_type([a.type for a in args], [r.type for r in res])
    _print_attrs(printer, op)


def _parse_call(parser: Parser, cls: type[_OpT], callee: Attribute) -> _OpT:
    """What `_print_call` prints; the op gets the `callee` property."""
    args = _operand_list(parser)
    parser.parse_punctuation(":")
    pos = parser.pos
    ft = parser.parse_function_type()
    if [a.type for a in args] != list(ft.inputs.data):
        _raise_since(parser, "operand types do not match the function type", pos)
    op = cls.create(operands=args, result_types=list(ft.outputs.data), properties={"callee": callee})
    _parse_attrs(parser, op)
    return op


def _has_atomic(op: Operation) -> bool:
    return isinstance(op, IntrinsicOp) and op.callee.data in INTRINSICS and \
        INTRINSICS[op.callee.data].category == Category.ATOMIC


@irdl_op_definition
class MakeRecordOp(IRDLOperation):
    """`%p = sarek.make_record @point(%x, %y)` — fields in declaration order."""

    name = "sarek.make_record"
    fields = var_operand_def()
    result = result_def(RecordType)
    traits = traits_def(Pure())

    def __init__(self, record: str, fields: Sequence[SSAValue]):
        super().__init__(operands=[fields], result_types=[RecordType(record)])

    @property
    def record_type(self) -> RecordType:
        return self.result.type

    def verify_(self) -> None:
        d = record_decl(self, self.record_type)
        if len(d.fields) != len(self.fields):
            raise VerifyException(f"record @{d.sym_name.data} has {len(d.fields)} field(s), "
                                  f"{len(self.fields)} given")
        for (n, t), v in zip(d.fields, self.fields):
            if v.type != t:
                raise VerifyException(f"field '{n}' of @{d.sym_name.data} has type {t}, given {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.record_type.decl_name)}")
        _print_operand_list(printer, self.fields)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> MakeRecordOp:
        name = parser.parse_symbol_name().data
        return _parse_attrs(parser, cls(name, _operand_list(parser)))


@irdl_op_definition
class MakeVariantOp(IRDLOperation):
    """`%s = sarek.make_variant @shape "Circle"(%r)`."""

    name = "sarek.make_variant"
    ctor = prop_def(StringAttr)
    payload = var_operand_def()
    result = result_def(VariantType)
    traits = traits_def(Pure())

    def __init__(self, variant: str, ctor: str, payload: Sequence[SSAValue]):
        super().__init__(operands=[payload], result_types=[VariantType(variant)],
                         properties={"ctor": StringAttr(ctor)})

    @property
    def variant_type(self) -> VariantType:
        return self.result.type

    def verify_(self) -> None:
        d = variant_decl(self, self.variant_type)
        ps = d.payload(self.ctor.data)
        if ps is None:
            raise VerifyException(f"variant @{d.sym_name.data} has no constructor '{self.ctor.data}'")
        if len(ps) != len(self.payload):
            raise VerifyException(f"constructor '{self.ctor.data}' takes {len(ps)} payload value(s), "
                                  f"{len(self.payload)} given")
        for i, (t, v) in enumerate(zip(ps, self.payload)):
            if v.type != t:
                raise VerifyException(f"payload {i} of '{self.ctor.data}' has type {t}, given {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.variant_type.decl_name)} ")
        printer.print_string_literal(self.ctor.data)
        _print_operand_list(printer, self.payload)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> MakeVariantOp:
        name = parser.parse_symbol_name().data
        ctor = parser.parse_str_literal()
        return _parse_attrs(parser, cls(name, ctor, _operand_list(parser)))


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
    printer.print_string(" : ")
    printer.print_attribute(t)
    _print_attrs(printer, op)


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
        if self.path is not None:
            printer.print_string(" path ")
            printer.print_attribute(self.path)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        _print_attrs(printer, self)

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
    """` %a[%i] : A` (a vector or array, an index and the vector or array type), `, I` added when the index
    is not an i32; built as `cls(a, i)`."""

    if TYPE_CHECKING:  # defined by each op
        array: SSAValue
        index: SSAValue

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.array)
        _print_subscript(printer, self.index)
        printer.print_string(" : ")
        printer.print_attribute(self.array.type)
        if not is_int(self.index.type) or self.index.type != i32:
            printer.print_string(", ")
            printer.print_attribute(self.index.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        a = _operand(parser)
        ipos = parser.pos
        i = _parse_subscript(parser)
        iend = parser.pos
        t, tpos = _parse_type_at(parser)
        if a.type != t:
            _raise_since(parser, f"array operand has type {a.type}, not {t}", tpos)
        if not isinstance(t, VecType | ArrayType):
            _raise_since(parser, f"expected a vector or array type, got {t}", tpos)
        it = i32
        if parser.parse_optional_punctuation(",") is not None:
            ipos, iend = parser.pos, None
            it = parser.parse_type()
        if i.type != it:
            _raise_since(parser, f"index has type {i.type}, not {it}", ipos, iend)
        return _parse_attrs(parser, cast(Callable[[SSAValue, SSAValue], Self], cls)(a, i))


@irdl_op_definition
class ArrayReadOp(_IndexedSyntax):
    """`%x = sarek.array_read %a[%i] : !sarek.vec<f32>` — bounds-checked by the interpreter."""

    name = "sarek.array_read"
    array = operand_def(VecType | ArrayType)
    index = operand_def(IntegerType)
    result = result_def()

    def __init__(self, array: SSAValue, index: SSAValue):
        super().__init__(operands=[array, index],
                         result_types=[cast(VecType, array.type).element_type])

    def verify_(self) -> None:
        _verify_index(self.index)
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


@irdl_op_definition
class AllocArrayOp(IRDLOperation):
    """`%s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>` — a shared (per block) or local
    (per thread) array; slots start at the element type's default value."""

    name = "sarek.alloc_array"
    sym = prop_def(StringAttr, prop_name="name")
    size = operand_def(i32)
    result = result_def(ArrayType)

    def __init__(self, name: str, size: SSAValue, type: ArrayType):
        super().__init__(operands=[size], result_types=[type], properties={"name": StringAttr(name)})
        _hint(self.result, name)

    @property
    def array_type(self) -> ArrayType:
        return self.result.type

    def verify_(self) -> None:
        _check_name(self.sym, "array")
        if self.array_type.memspace == MemSpace.GLOBAL:
            raise VerifyException("sarek.alloc_array allocates shared or local arrays, not global ones")
        c = self.size.owner
        if isinstance(c, ConstantOp) and isinstance(c.value, IntegerAttr):
            n = cast("IntegerAttr[IntegerType]", c.value).value.data
            if n <= 0:
                raise VerifyException(f"sarek.alloc_array needs a positive size, got {n}")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.sym)
        _print_subscript(printer, self.size)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> AllocArrayOp:
        name = parser.parse_str_literal()
        n = _parse_subscript(parser)
        t, pos = _parse_type_at(parser)
        if not isinstance(t, ArrayType):
            _raise_since(parser, f"expected !sarek.array type, got {t}", pos)
        op = cls(name, n, t)
        _keep_textual_names(op)
        _parse_attrs(parser, op)
        return op


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = sarek.call @h(%a) : (f32) -> f32`; a unit helper's call has no result."""

    name = "sarek.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], return_type: Attribute):
        super().__init__(operands=[args], result_types=[[] if isinstance(return_type, UnitType) else [return_type]],
                         properties={"callee": SymbolRefAttr(callee)})

    @property
    def callee_name(self) -> str:
        return self.callee.root_reference.data

    def helper(self) -> HelperOp:
        h = lookup_decl(self, self.callee_name)
        if not isinstance(h, HelperOp):
            raise VerifyException(f"@{self.callee_name} is not a sarek.helper")
        return h

    def verify_(self) -> None:
        h = self.helper()
        ps = [a.type for a in h.body.block.args]
        if len(ps) != len(self.args):
            raise VerifyException(f"helper @{self.callee_name} takes {len(ps)} argument(s), {len(self.args)} given")
        for i, (t, a) in enumerate(zip(ps, self.args)):
            if a.type != t:
                raise VerifyException(f"argument {i} of @{self.callee_name} has type {t}, given {a.type}")
        want = [] if h.returns_unit else [h.return_type]
        if [r.type for r in self.res] != want:
            raise VerifyException(f"helper @{self.callee_name} returns {h.return_type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.callee_name)}")
        _print_call(printer, self, self.args, self.res)

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        return _parse_call(parser, cls, SymbolRefAttr(parser.parse_symbol_name().data))


# ------------------------------------------------------------------------------------------------ binders and places


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
class StoreOp(IRDLOperation):
    """`sarek.store %place, %v : !sarek.ref<f32>` — assign to a place (a mutable local, an element
    `sarek.elem_ref`, a field `sarek.field_ref`)."""

    name = "sarek.store"
    place = operand_def(RefType)
    value = operand_def()

    def __init__(self, place: SSAValue, value: SSAValue):
        super().__init__(operands=[place, value])

    def verify_(self) -> None:
        if not isinstance(self.place.owner, PLACE_OPS):
            raise VerifyException("store target must be a place (sarek.let_mut, sarek.elem_ref or sarek.field_ref)")
        want = cast(RefType, self.place.type).element_type
        if self.value.type != want:
            raise VerifyException(f"stored value has type {self.value.type}, the place holds {want}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.place)
        printer.print_string(", ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.place.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        p, v = _operand_seq(parser, 2)
        _parse_type_of(parser, p, "place")
        return _parse_attrs(parser, cls(p, v))


@irdl_op_definition
class ElemRefOp(_IndexedSyntax):
    """`%p = sarek.elem_ref %v[%i] : !sarek.vec<f32>` — the place of an element (gives `!sarek.ref<f32>`)."""

    name = "sarek.elem_ref"
    array = operand_def(VecType | ArrayType)
    index = operand_def(IntegerType)
    result = result_def(RefType)

    def __init__(self, array: SSAValue, index: SSAValue):
        super().__init__(operands=[array, index],
                         result_types=[RefType(cast(VecType, array.type).element_type)])

    def verify_(self) -> None:
        _verify_index(self.index)
        if self.result.type.element_type != cast(VecType, self.array.type).element_type:
            raise VerifyException("result must be a ref to the element type")


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


# ------------------------------------------------------------------------------------------------ control flow


@irdl_op_definition
class YieldOp(TypedOperandSyntax):
    """`sarek.yield %v : T` ends the regions of if_expr, match_expr and the while condition."""

    name = "sarek.yield"
    value = operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IfExprOp, MatchExprOp, WhileOp)))

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


def _yield_of(region: Region, what: str) -> YieldOp:
    if not region.blocks or not isinstance(region.block.last_op, YieldOp):
        raise VerifyException(f"{what} must end with sarek.yield")
    return region.block.last_op


def _print_stmt_region(printer: Printer, region: Region) -> None:
    printer.print_region(region, print_entry_block_args=False, print_empty_block=False)


def _parse_stmt_region(parser: Parser, args: Sequence[Parser.Argument] = ()) -> Region:
    region = parser.parse_region(args)
    if not region.blocks:
        region.add_block(Block())
    return region


@irdl_op_definition
class IfOp(IRDLOperation):
    """`sarek.if %c { ... } else { ... }` — a statement conditional (else optional)."""

    name = "sarek.if"
    cond = operand_def(i1)
    then_region = region_def("single_block")
    else_region = region_def()
    traits = traits_def(NoTerminator())

    def __init__(self, cond: SSAValue, then_region: Region | None = None, else_region: Region | None = None):
        super().__init__(operands=[cond], regions=[then_region or Region(Block()), else_region or Region()])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" ")
        _print_stmt_region(printer, self.then_region)
        if self.else_region.blocks:
            printer.print_string(" else ")
            _print_stmt_region(printer, self.else_region)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        c = _operand(parser)
        then = _parse_stmt_region(parser)
        els = _parse_stmt_region(parser) if parser.parse_optional_keyword("else") is not None else Region()
        return _parse_attrs(parser, cls(c, then, els))

    def verify_(self) -> None:
        if len(self.else_region.blocks) > 1:
            raise VerifyException("else region must have at most one block")


@irdl_op_definition
class IfExprOp(IRDLOperation):
    """`%r = sarek.if_expr %c -> f32 { ... sarek.yield %a : f32 } else { ... sarek.yield %b : f32 }` —
    only the taken side is evaluated."""

    name = "sarek.if_expr"
    cond = operand_def(i1)
    result = result_def()
    then_region = region_def("single_block")
    else_region = region_def("single_block")

    def __init__(self, cond: SSAValue, type: Attribute, then_region: Region, else_region: Region):
        super().__init__(operands=[cond], result_types=[type], regions=[then_region, else_region])

    def verify_(self) -> None:
        for r, w in ((self.then_region, "then"), (self.else_region, "else")):
            y = _yield_of(r, f"if_expr {w} region")
            if y.value.type != self.result.type:
                raise VerifyException(f"if_expr {w} region yields {y.value.type}, result is {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False)
        printer.print_string(" else ")
        printer.print_region(self.else_region, print_entry_block_args=False)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> IfExprOp:
        c = _operand(parser)
        parser.parse_punctuation("->")
        t = parser.parse_type()
        then = parser.parse_region()
        parser.parse_keyword("else")
        els = parser.parse_region()
        return _parse_attrs(parser, cls(c, t, then, els))


@irdl_op_definition
class WhileOp(IRDLOperation):
    """`sarek.while { ... sarek.yield %c : i1 } do { ... }` — the condition region is re-evaluated before
    every iteration."""

    name = "sarek.while"
    cond_region = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, cond_region: Region, body: Region | None = None):
        super().__init__(regions=[cond_region, body or Region(Block())])

    def verify_(self) -> None:
        y = _yield_of(self.cond_region, "while condition")
        if y.value.type != i1:
            raise VerifyException(f"while condition yields {y.value.type}, not i1")
        if self.body.blocks and isinstance(self.body.block.last_op, YieldOp):
            raise VerifyException("while body must not end with sarek.yield")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.cond_region, print_entry_block_args=False)
        printer.print_string(" do ")
        _print_stmt_region(printer, self.body)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        cond = parser.parse_region()
        parser.parse_keyword("do")
        return _parse_attrs(parser, cls(cond, _parse_stmt_region(parser)))


@irdl_op_definition
class ForOp(IRDLOperation):
    """`sarek.for "i" %i = %lo to %hi step 1 : i32 { ... }` — half-open, constant non-zero step (Python
    `range`); the index is the body's block argument."""

    name = "sarek.for"
    T: ClassVar = VarConstraint("T", AnyAttr())
    sym = prop_def(StringAttr, prop_name="name")
    step = prop_def(IntegerAttr)
    lo = operand_def(T)
    hi = operand_def(T)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, name: str, lo: SSAValue, hi: SSAValue, step: int = 1, body: Region | None = None):
        if body is None:
            body = Region(Block(arg_types=[lo.type]))
            _hint(body.block.args[0], name)
        super().__init__(operands=[lo, hi], regions=[body],
                         properties={"name": StringAttr(name), "step": IntegerAttr(step, cast(IntegerType, lo.type) if is_int(lo.type) else i32)})

    @property
    def index(self) -> BlockArgument:
        return self.body.block.args[0]

    @property
    def step_value(self) -> int:
        return self.step.value.data

    def verify_(self) -> None:
        _check_name(self.sym, "for index")
        if not is_int(self.lo.type):
            raise VerifyException(f"for bounds must be i32 or i64, got {self.lo.type}")
        if self.step_value == 0:
            raise VerifyException("for step must be non-zero")
        if len(self.body.block.args) != 1 or self.body.block.args[0].type != self.lo.type:
            raise VerifyException(f"for body must take one {self.lo.type} argument (the index)")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.sym)
        printer.print_string(" ")
        printer.print_operand(self.index)
        printer.print_string(" = ")
        printer.print_operand(self.lo)
        printer.print_string(" to ")
        printer.print_operand(self.hi)
        printer.print_string(f" step {self.step_value} : ")
        printer.print_attribute(self.lo.type)
        printer.print_string(" ")
        _print_stmt_region(printer, self.body)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        name = parser.parse_str_literal()
        idx = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lo = _operand(parser)
        parser.parse_keyword("to")
        hi = _operand(parser)
        parser.parse_keyword("step")
        step = parser.parse_integer()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        body = _parse_stmt_region(parser, [idx.resolve(t)])
        if not body.block.args:
            body.block.insert_arg(t, 0)
        return _parse_attrs(parser, cls(name, lo, hi, step, body))


WILDCARD = "_"


class _MatchMixin:
    """Cases of sarek.match / sarek.match_expr: `cases` names each case's constructor (`_` = any),
    `binders` each case's binder names; a case region's block arguments are its binders. A `_` case with
    one binder binds the whole scrutinee."""

    if TYPE_CHECKING:  # defined by each op class
        scrutinee: SSAValue
        cases: ArrayAttr[StringAttr]
        binders: ArrayAttr[ArrayAttr[StringAttr]]
        case_regions: VarRegion

    def case_list(self) -> list[tuple[str, list[str], Region]]:
        return [(c.data, [b.data for b in bs], r) for c, bs, r in zip(self.cases, self.binders, self.case_regions)]

    def _verify_cases(self, what: str) -> None:
        op = cast(Operation, self)
        d = variant_decl(op, cast(VariantType, self.scrutinee.type))
        if not (len(self.cases) == len(self.binders) == len(self.case_regions)):
            raise VerifyException(f"{what}: cases, binders and regions differ in number")
        if not self.cases.data:
            raise VerifyException(f"{what} needs at least one case")
        seen: set[str] = set()
        for i, (c, bs, r) in enumerate(self.case_list()):
            if c in seen:
                raise VerifyException(f"{what}: constructor '{c}' matched twice")
            seen.add(c)
            if c == WILDCARD:
                if i != len(self.cases) - 1:
                    raise VerifyException(f"{what}: the '_' case must be the last")
                if len(bs) > 1:
                    raise VerifyException(f"{what}: a '_' case binds at most the whole scrutinee")
                want = [self.scrutinee.type] * len(bs)
            else:
                ps = d.payload(c)
                if ps is None:
                    raise VerifyException(f"{what}: variant @{d.sym_name.data} has no constructor '{c}'")
                if bs and len(bs) != len(ps):
                    raise VerifyException(f"{what}: constructor '{c}' has {len(ps)} payload(s), "
                                          f"the case binds {len(bs)}")
                want = ps if bs else []
            for b in bs:
                _check_name(StringAttr(b), "match binder")
            if len(r.blocks) != 1 or [a.type for a in r.block.args] != want:
                raise VerifyException(f"{what}: case '{c}' region must take arguments ({', '.join(map(str, want))})")

    def _print_match(self, printer: Printer, result_type: Attribute | None) -> None:
        """` %s : T[ -> R] attributes {...} { case "C"(%x : T "x") { ... } ... default { ... } }`; the case
        regions of a statement match (no result type) may be empty."""
        _print_typed_operand(printer, self.scrutinee)
        if result_type is not None:
            printer.print_string(" -> ")
            printer.print_attribute(result_type)
        _print_attrs(printer, cast(Operation, self))
        stmt = result_type is None
        printer.print_string(" {")
        with printer.indented():
            for c, bs, r in self.case_list():
                printer.print_string("\n")
                printer.print_string("default" if c == WILDCARD else "case ")
                if c != WILDCARD:
                    printer.print_string_literal(c)
                if bs:
                    _print_params(printer, r.block.args, _names(bs))
                printer.print_string(" ")
                printer.print_region(r, print_entry_block_args=False, print_empty_block=not stmt)
        printer.print_string("\n}")

    @staticmethod
    def _parse_match(parser: Parser, returns: bool,
                     make: Callable[[SSAValue, Attribute, list[str], list[list[str]], list[Region]], _OpT]) -> _OpT:
        """What `_print_match` prints; `make(scrutinee, result type (unit without one), cases, binders,
        regions)`."""
        s = _operand(parser)
        _parse_type_of(parser, s, "scrutinee")
        rt: Attribute = UnitType()
        if returns:
            parser.parse_punctuation("->")
            rt = parser.parse_type()
        attrs = _parse_attr_dict(parser)
        op = make(s, rt, *_MatchMixin._parse_cases(parser))
        op.attributes |= attrs
        return op

    @staticmethod
    def _parse_cases(parser: Parser) -> tuple[list[str], list[list[str]], list[Region]]:
        cases: list[str] = []
        binders: list[list[str]] = []
        regions: list[Region] = []
        parser.parse_punctuation("{")
        while parser.parse_optional_punctuation("}") is None:
            if parser.parse_optional_keyword("default") is not None:
                c = WILDCARD
            else:
                parser.parse_keyword("case")
                c = parser.parse_str_literal()
            args: list[Parser.Argument] = []
            names: list[str] = []
            if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
                args, names = _parse_params(parser)
            r = _parse_stmt_region(parser, args)
            if not r.block.args and args:
                for a in args:
                    r.block.insert_arg(a.type, len(r.block.args))
            cases.append(c)
            binders.append(names)
            regions.append(r)
        return cases, binders, regions


def _match_props(cases: Sequence[str], binders: Sequence[Sequence[str]]) -> dict[str, Attribute]:
    return {"cases": _names(cases), "binders": ArrayAttr(_names(b) for b in binders)}


@irdl_op_definition
class MatchOp(_MatchMixin, IRDLOperation):
    """`sarek.match %s : !sarek.variant<@shape> { case "Circle"(%r : f32 "r") { ... } default { ... } }`."""

    name = "sarek.match"
    scrutinee = operand_def(VariantType)
    cases = prop_def(ArrayAttr[StringAttr])
    binders = prop_def(ArrayAttr[ArrayAttr[StringAttr]])
    case_regions = var_region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, scrutinee: SSAValue, cases: Sequence[str], binders: Sequence[Sequence[str]],
                 regions: Sequence[Region]):
        super().__init__(operands=[scrutinee], regions=[list(regions)], properties=_match_props(cases, binders))

    def verify_(self) -> None:
        self._verify_cases("match")

    def print(self, printer: Printer) -> None:
        self._print_match(printer, None)

    @classmethod
    def parse(cls, parser: Parser) -> MatchOp:
        return cls._parse_match(parser, False, lambda s, _, cases, binders, regions: cls(s, cases, binders, regions))


@irdl_op_definition
class MatchExprOp(_MatchMixin, IRDLOperation):
    """`%r = sarek.match_expr %s : !sarek.variant<@shape> -> f32 { case "Circle"(%r : f32 "r") { ...
    sarek.yield %v : f32 } ... }` — the last case needs no tag test."""

    name = "sarek.match_expr"
    scrutinee = operand_def(VariantType)
    cases = prop_def(ArrayAttr[StringAttr])
    binders = prop_def(ArrayAttr[ArrayAttr[StringAttr]])
    result = result_def()
    case_regions = var_region_def("single_block")

    def __init__(self, scrutinee: SSAValue, type: Attribute, cases: Sequence[str],
                 binders: Sequence[Sequence[str]], regions: Sequence[Region]):
        super().__init__(operands=[scrutinee], result_types=[type], regions=[list(regions)],
                         properties=_match_props(cases, binders))

    def verify_(self) -> None:
        self._verify_cases("match_expr")
        for c, _, r in self.case_list():
            y = _yield_of(r, f"match_expr case '{c}'")
            if y.value.type != self.result.type:
                raise VerifyException(f"match_expr case '{c}' yields {y.value.type}, result is {self.result.type}")

    def print(self, printer: Printer) -> None:
        self._print_match(printer, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> MatchExprOp:
        return cls._parse_match(parser, True, cls)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sarek.return %v : f32` / `sarek.return` — leaves the enclosing helper (any nesting depth)."""

    name = "sarek.return"
    value = var_operand_def()

    def __init__(self, value: SSAValue | None = None):
        super().__init__(operands=[[value] if value is not None else []])

    def verify_(self) -> None:
        f = enclosing_function(self)
        if not isinstance(f, HelperOp):
            raise VerifyException("sarek.return is only allowed inside a sarek.helper")
        want = [] if f.returns_unit else [f.return_type]
        got = [v.type for v in self.value]
        if got != want:
            raise VerifyException(f"helper @{f.sym_name.data} returns {f.return_type}, "
                                  f"the return gives {', '.join(map(str, got)) or 'nothing'}")

    def print(self, printer: Printer) -> None:
        if self.value:
            _print_typed_operand(printer, self.value[0])
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        v = _optional_operand(parser)
        if v is not None:
            _parse_type_of(parser, v)
        return _parse_attrs(parser, cls(v))


@irdl_op_definition
class PragmaOp(IRDLOperation):
    """`sarek.pragma ["unroll"] { ... }` — hints for the enclosed statements (printed as `#pragma`)."""

    name = "sarek.pragma"
    hints = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, hints: Sequence[str], body: Region | None = None):
        super().__init__(properties={"hints": _names(hints)}, regions=[body or Region(Block())])

    def verify_(self) -> None:
        for h in self.hints:
            _check_name(h, "pragma hint")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.hints)
        printer.print_string(" ")
        _print_stmt_region(printer, self.body)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> PragmaOp:
        hints = _parse_str_array(parser, "pragma hints")
        return _parse_attrs(parser, cls(hints, _parse_stmt_region(parser)))


@irdl_op_definition
class BlockOp(IRDLOperation):
    """`sarek.block { ... }` — an explicit scope; `sarek.block superstep { ... }` /
    `sarek.block superstep divergent { ... }` — the body of a superstep (Sarek's `let%superstep` /
    `let%superstep [@divergent]`, Python's `with superstep():` / `with superstep(divergent=True):`), which
    the superstep's implicit barrier, a separate `sarek.barrier`, must immediately follow.

    The optional `superstep` property is "" for a superstep, "divergent" for a divergent one; it changes
    nothing at run time (interpreters and lowerings treat the op as a scope) and is what
    sarek-verify-barriers checks: a non-divergent superstep's body may not branch on a thread-varying
    value.
    """

    name = "sarek.block"
    body = region_def("single_block")
    superstep = opt_prop_def(StringAttr)
    traits = traits_def(NoTerminator())

    SUPERSTEP_KINDS: ClassVar[tuple[str, ...]] = ("", "divergent")

    def __init__(self, body: Region | None = None, superstep: str | None = None):
        props: dict[str, Attribute] = {} if superstep is None else {"superstep": StringAttr(superstep)}
        super().__init__(regions=[body or Region(Block())], properties=props)

    @property
    def is_superstep(self) -> bool:
        return self.superstep is not None

    @property
    def is_divergent_superstep(self) -> bool:
        return self.superstep is not None and self.superstep.data == "divergent"

    def verify_(self) -> None:
        if self.superstep is None:
            return
        if self.superstep.data not in self.SUPERSTEP_KINDS:
            raise VerifyException(f"superstep kind must be \"\" or \"divergent\", got \"{self.superstep.data}\"")
        if not isinstance(self.next_op, BarrierOp):
            raise VerifyException("a superstep sarek.block must be followed by its implicit sarek.barrier")

    def print(self, printer: Printer) -> None:
        if self.superstep is not None:
            printer.print_string(" superstep")
            if self.superstep.data == "divergent":
                printer.print_string(" divergent")
            elif self.superstep.data:  # not a valid kind: kept as a string so that the verifier can name it
                printer.print_string(" ")
                printer.print_string_literal(self.superstep.data)
        printer.print_string(" ")
        _print_stmt_region(printer, self.body)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> BlockOp:
        kind = None
        if parser.parse_optional_keyword("superstep") is not None:
            kind = "divergent" if parser.parse_optional_keyword("divergent") is not None else \
                parser.parse_optional_str_literal() or ""
        op = cls(_parse_stmt_region(parser), kind)
        _parse_attrs(parser, op)
        return op


class _NullaryStmt(NullarySyntax):
    def __init__(self):
        super().__init__()


@irdl_op_definition
class BarrierOp(_NullaryStmt):
    """`sarek.barrier` — block-wide barrier; every thread of the block must reach it."""

    name = "sarek.barrier"


@irdl_op_definition
class WarpBarrierOp(_NullaryStmt):
    """`sarek.warp_barrier` — warp/subgroup synchronisation."""

    name = "sarek.warp_barrier"


@irdl_op_definition
class MemFenceOp(_NullaryStmt):
    """`sarek.mem_fence` — device-scope memory fence."""

    name = "sarek.mem_fence"


@irdl_op_definition
class NativeOp(IRDLOperation):
    """`sarek.native {cuda = "...", ptx = "..."}` — verbatim source per target; a backend without text
    for itself refuses the kernel."""

    name = "sarek.native"
    texts = prop_def(DictionaryAttr)

    def __init__(self, texts: dict[str, str]):
        super().__init__(properties={"texts": DictionaryAttr({k: StringAttr(v) for k, v in texts.items()})})

    def text_for(self, target: str) -> str | None:
        v = self.texts.data.get(target)
        return v.data if isinstance(v, StringAttr) else None

    def verify_(self) -> None:
        for k, v in self.texts.data.items():
            if not isinstance(v, StringAttr):
                raise VerifyException(f"native text for '{k}' must be a string")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attr_dict(self.texts.data)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> NativeOp:
        pos = parser.pos
        d = parser.parse_optional_attr_dict()
        texts: dict[str, str] = {}
        for k, v in d.items():
            if not isinstance(v, StringAttr):
                _raise_since(parser, f"native text for '{k}' must be a string", pos)
            texts[k] = v.data
        return _parse_attrs(parser, cls(texts))


# ------------------------------------------------------------------------------------------------ cooperative matrices


class FragUse(StrEnum):
    A = "a"
    B = "b"
    ACC = "acc"


@irdl_op_definition
class CoopmatDeclOp(IRDLOperation):
    """`sarek.coopmat_decl "fa" a 16x16 : f16` — declares a cooperative-matrix fragment (fragments are a
    namespace of their own: not values, never indexed, passed or assigned)."""

    name = "sarek.coopmat_decl"
    frag = prop_def(StringAttr)
    use = prop_def(StringAttr)
    rows = prop_def(IntegerAttr)
    cols = prop_def(IntegerAttr)
    element_type = prop_def(AnyAttr())

    def __init__(self, frag: str, use: str, rows: int, cols: int, element_type: Attribute):
        super().__init__(properties={"frag": StringAttr(frag), "use": StringAttr(use), "rows": IntegerAttr(rows, i32),
                                     "cols": IntegerAttr(cols, i32), "element_type": element_type})

    def verify_(self) -> None:
        _check_name(self.frag, "fragment")
        if self.use.data not in {u.value for u in FragUse}:
            raise VerifyException(f"fragment use must be a, b or acc, got '{self.use.data}'")
        if self.rows.value.data <= 0 or self.cols.value.data <= 0:
            raise VerifyException("fragment shape must be positive")
        if not is_scalar_type(self.element_type):
            raise VerifyException(f"fragment element type must be a scalar, got {self.element_type}")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.frag)
        printer.print_string(f" {self.use.data} {self.rows.value.data}x{self.cols.value.data} : ")
        printer.print_attribute(self.element_type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> CoopmatDeclOp:
        frag = parser.parse_str_literal()
        use = parser.parse_identifier()
        rows, cols = _parse_shape(parser)
        parser.parse_punctuation(":")
        return _parse_attrs(parser, cls(frag, use, rows, cols, parser.parse_type()))


def _parse_shape(parser: Parser) -> tuple[int, int]:
    """ROWSxCOLS, lexed as an integer then a bare identifier `xCOLS`."""
    pos = parser.pos
    rows = parser.parse_integer(allow_negative=False)
    x = parser.parse_identifier()
    if not (x.startswith("x") and x[1:].isdigit()):
        _raise_since(parser, "expected ROWSxCOLS", pos)
    return rows, int(x[1:])


def _frag_decl(op: Operation, frag: str) -> CoopmatDeclOp:
    f = enclosing_function(op)
    if f is not None:
        for o in f.walk():
            if isinstance(o, CoopmatDeclOp) and o.frag.data == frag:
                return o
    raise VerifyException(f"fragment '{frag}' is not declared by a sarek.coopmat_decl")


class _CoopmatMemMixin:
    if TYPE_CHECKING:  # defined by _CoopmatMemOp
        frag: StringAttr
        array: SSAValue
        index: SSAValue
        stride: SSAValue

    def _verify_mem(self) -> None:
        op = cast(Operation, self)
        d = _frag_decl(op, self.frag.data)
        elt = cast(VecType, self.array.type).element_type
        if elt != d.element_type:
            raise VerifyException(f"fragment '{self.frag.data}' holds {d.element_type}, the buffer {elt}")

    def _print_mem(self, printer: Printer, word: str) -> None:
        _print_name(printer, self.frag)
        printer.print_string(f" {word} ")
        printer.print_operand(self.array)
        _print_subscript(printer, self.index)
        printer.print_string(" stride ")
        printer.print_operand(self.stride)
        printer.print_string(" : ")
        printer.print_attribute(self.array.type)
        _print_attrs(printer, cast(Operation, self))

    @staticmethod
    def _parse_mem(parser: Parser, word: str) -> tuple[str, SSAValue, SSAValue, SSAValue]:
        frag = parser.parse_str_literal()
        parser.parse_keyword(word)
        a = _operand(parser)
        i = _parse_subscript(parser)
        parser.parse_keyword("stride")
        s = _operand(parser)
        _parse_type_of(parser, a, "buffer")
        return frag, a, i, s


class _CoopmatMemOp(_CoopmatMemMixin, IRDLOperation):
    """Shared shape of coopmat_load / coopmat_store: a fragment, a buffer, an index and a row stride."""

    WORD: ClassVar[str] = ""
    frag = prop_def(StringAttr)
    array = operand_def(VecType | ArrayType)
    index = operand_def(i32)
    stride = operand_def(i32)

    def __init__(self, frag: str, array: SSAValue, index: SSAValue, stride: SSAValue):
        super().__init__(operands=[array, index, stride], properties={"frag": StringAttr(frag)})

    def verify_(self) -> None:
        self._verify_mem()

    def print(self, printer: Printer) -> None:
        self._print_mem(printer, self.WORD)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_attrs(parser, cls(*cls._parse_mem(parser, cls.WORD)))


@irdl_op_definition
class CoopmatLoadOp(_CoopmatMemOp):
    """`sarek.coopmat_load "fa" from %v[%i] stride %s : !sarek.vec<f16>` — row-major, stride in elements."""

    name = "sarek.coopmat_load"
    WORD: ClassVar[str] = "from"


@irdl_op_definition
class CoopmatStoreOp(_CoopmatMemOp):
    """`sarek.coopmat_store "fc" to %v[%i] stride %s : !sarek.vec<f32>`."""

    name = "sarek.coopmat_store"
    WORD: ClassVar[str] = "to"


@irdl_op_definition
class CoopmatMulAddOp(IRDLOperation):
    """`sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"` — D = A·B + C."""

    name = "sarek.coopmat_muladd"
    d = prop_def(StringAttr)
    a = prop_def(StringAttr)
    b = prop_def(StringAttr)
    c = prop_def(StringAttr)

    def __init__(self, d: str, a: str, b: str, c: str):
        super().__init__(properties={k: StringAttr(v) for k, v in zip("dabc", (d, a, b, c))})

    def verify_(self) -> None:
        fd, fa, fb, fc = (_frag_decl(self, x.data) for x in (self.d, self.a, self.b, self.c))
        for f, u in ((fa, FragUse.A), (fb, FragUse.B), (fc, FragUse.ACC), (fd, FragUse.ACC)):
            if f.use.data != u.value:
                raise VerifyException(f"fragment '{f.frag.data}' is a '{f.use.data}' fragment, '{u.value}' expected")
        m, k = fa.rows.value.data, fa.cols.value.data
        k2, n = fb.rows.value.data, fb.cols.value.data
        if k != k2 or (fc.rows.value.data, fc.cols.value.data) != (m, n) or \
                (fd.rows.value.data, fd.cols.value.data) != (m, n):
            raise VerifyException(f"fragment shapes do not compose: A {m}x{k}, B {k2}x{n}, "
                                  f"C {fc.rows.value.data}x{fc.cols.value.data}, D {fd.rows.value.data}x{fd.cols.value.data}")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.d)
        printer.print_string(" = ")
        printer.print_string_literal(self.a.data)
        printer.print_string(" * ")
        printer.print_string_literal(self.b.data)
        printer.print_string(" + ")
        printer.print_string_literal(self.c.data)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> CoopmatMulAddOp:
        d = parser.parse_str_literal()
        parser.parse_punctuation("=")
        a = parser.parse_str_literal()
        parser.parse_punctuation("*")
        b = parser.parse_str_literal()
        parser.parse_punctuation("+")
        c = parser.parse_str_literal()
        return _parse_attrs(parser, cls(d, a, b, c))


# ------------------------------------------------------------------------------------------------ the dialect


def has_atomic(op: Operation) -> bool:
    """True when `op` is an atomic intrinsic (the only expressions with side effects)."""
    return _has_atomic(op)


class InFunction(OpTrait):
    """Statements and expressions live inside a kernel or helper, never directly in the module."""

    def verify(self, op: Operation) -> None:
        if isinstance(op.parent_op(), ModuleOp):
            raise VerifyException(f"{op.name} must be inside a sarek.kernel or sarek.helper, not at module level")


_DECLARATIONS: tuple[type[Operation], ...] = (RecordOp, VariantOp, KernelOp, HelperOp)


STATEMENT_OPS: tuple[type[Operation], ...] = (
    LetOp, LetMutOp, StoreOp, IfOp, WhileOp, ForOp, MatchOp, ReturnOp, PragmaOp, BlockOp, BarrierOp,
    WarpBarrierOp, MemFenceOp, NativeOp, AllocArrayOp, CoopmatDeclOp, CoopmatLoadOp, CoopmatStoreOp,
    CoopmatMulAddOp,
)

Sarek = Dialect(
    "sarek",
    [
        RecordOp, VariantOp, KernelOp, HelperOp, ConstantOp, BinOp, UnOp, CastOp, BitcastOp, IntrinsicOp,
        MakeRecordOp, MakeVariantOp, FieldOp, PayloadOp, ArrayReadOp, ArrayLenOp, AllocArrayOp, CallOp, LetOp,
        LetMutOp, LoadOp, StoreOp, ElemRefOp, FieldRefOp, YieldOp, IfOp, IfExprOp, WhileOp, ForOp, MatchOp, MatchExprOp,
        ReturnOp, PragmaOp, BlockOp, BarrierOp, WarpBarrierOp, MemFenceOp, NativeOp, CoopmatDeclOp,
        CoopmatLoadOp, CoopmatStoreOp, CoopmatMulAddOp,
    ],
    [MemSpaceAttr, UnitType, RecordType, VariantType, VecType, ArrayType, RefType, BinOpKindAttr, UnOpKindAttr],
)

for _op in Sarek.operations:
    if _op not in _DECLARATIONS:
        cast(type[IRDLOperation], _op).get_irdl_definition().traits.add_trait(InFunction())  # each op class owns its OpTraits

