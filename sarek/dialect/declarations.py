"""Module-level declarations of the sarek dialect: records, variants, kernels and helpers, and the
lookups of a declaration from an op inside the module (`lookup_decl`, `record_decl`, `variant_decl`,
`enclosing_function`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, SymbolNameConstraint
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region
from xdsl.irdl import AnyAttr, IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.syntax import OpT as _OpT
from sarek.dialect.syntax import parse_attr_dict as _parse_attr_dict
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import strings as _names
from sarek.dialect.syntax import print_params as _print_params
from sarek.dialect.syntax import parse_params as _parse_params
from sarek.dialect.syntax import check_name as _check_name
from sarek.dialect.syntax import hint as _hint
from sarek.dialect.types import (
    ArrayType,
    RecordType,
    RefType,
    UnitType,
    VariantType,
    VecType,
    is_element_type,
    referenced_decls,
)

_T = TypeVar("_T")


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


def _unique_members(kind: str, sym: str, what: str, members: Iterable[tuple[str, _T]]) -> Iterator[tuple[str, _T]]:
    """The members of a record (fields) or variant (constructors) in order, each checked for a legal name that
    the declaration has not used before."""
    seen: set[str] = set()
    for n, x in members:
        _check_name(StringAttr(n), f"{kind} {what}")
        if n in seen:
            raise VerifyException(f"{kind} @{sym} declares {what} '{n}' twice")
        seen.add(n)
        yield n, x


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


def _print_members(printer: Printer, op: Operation, name: str, members: Sequence[tuple[str, _T]],
                   tail: Callable[[_T], None]) -> None:
    """` @name {a..., b...}`, a declaration's members (a record's fields, a variant's constructors): each its
    name (an identifier, else a string literal) then `tail` of its value."""
    printer.print_string(" ")
    printer.print_symbol_name(name)
    printer.print_string(" {")
    for i, (n, x) in enumerate(members):
        printer.print_string(", " if i else "")
        printer.print_string(n) if n.isidentifier() else printer.print_string_literal(n)
        tail(x)
    printer.print_string("}")
    _print_attrs(printer, op)


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
        for n, t in _unique_members("record", self.sym_name.data, "field", self.fields):
            if not is_element_type(t):
                raise VerifyException(f"record field '{n}' has type {t}, not a scalar, record or variant")
        _check_not_recursive(self)

    def print(self, printer: Printer) -> None:
        def typed(t: Attribute) -> None:
            printer.print_string(" : ")
            printer.print_attribute(t)

        _print_members(printer, self, self.sym_name.data, self.fields, typed)

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
        for n, ps in _unique_members("variant", self.sym_name.data, "constructor", self.ctors):
            for t in ps:
                if not is_element_type(t):
                    raise VerifyException(f"constructor '{n}' payload has type {t}, not a scalar, record or variant")

    def print(self, printer: Printer) -> None:
        def payload(ps: Sequence[Attribute]) -> None:
            if ps:
                printer.print_string("(")
                printer.print_list(ps, printer.print_attribute)
                printer.print_string(")")

        _print_members(printer, self, self.sym_name.data, self.ctors, payload)

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
