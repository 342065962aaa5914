"""Pattern matching of the sarek dialect: `sarek.match` (a statement) and `sarek.match_expr` (a value, each case
ending with `sarek.yield`) over a variant, one case per constructor (or the wildcard `_`) binding its payload."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarRegion,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.syntax import OpT as _OpT
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attr_dict as _parse_attr_dict
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_typed_operand as _print_typed_operand
from sarek.dialect.syntax import strings as _names
from sarek.dialect.syntax import print_params as _print_params
from sarek.dialect.syntax import parse_params as _parse_params
from sarek.dialect.syntax import check_name as _check_name
from sarek.dialect.control import yield_of
from sarek.dialect.syntax import parse_stmt_region as _parse_stmt_region
from sarek.dialect.types import UnitType, VariantType
from sarek.dialect.declarations import variant_decl


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
            y = yield_of(r, f"match_expr case '{c}'")
            if y.value.type != self.result.type:
                raise VerifyException(f"match_expr case '{c}' yields {y.value.type}, result is {self.result.type}")

    def print(self, printer: Printer) -> None:
        self._print_match(printer, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> MatchExprOp:
        return cls._parse_match(parser, True, cls)
