"""`sarek_c` expressions: SSA values printed where they are used. Each states its syntax in a `FORMAT`
(sarek.dialect.opformat): a head of strings and operands, then ` : "ctype"`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import Directive, FormatSyntax
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import strings as _strs
from sarek.targets.cfamily.syntax import ValType
from sarek.targets.cfamily.syntax import parse_ctype as _parse_ctype
from sarek.targets.cfamily.syntax import print_ctype as _print_ctype


def _print_ctype_of(printer: Printer, result: object) -> None:
    printer.print_string(" ")
    printer.print_string_literal(cast(ValType, cast(SSAValue, result).type).text)


class _Expr(FormatSyntax):
    """An expression: its head, then its C type ` : "ctype"` and the attributes; each op's FORMAT states its head
    in the order of its constructor's arguments, then `: ctype($result)` (the result's C type text, the
    constructor's last argument)."""

    result = result_def(ValType)
    DIRECTIVES: ClassVar[dict[str, Directive]] = {"ctype": Directive(_print_ctype_of, Parser.parse_str_literal,
                                                                         lambda t: ValType(cast(str, t)))}


@irdl_op_definition
class LitOp(_Expr):
    """A literal or a name, printed as its text."""

    name = "sarek_c.lit"
    text = prop_def(StringAttr)
    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = '"$text" : ctype($result)'


@irdl_op_definition
class BinaryOp(_Expr):
    """`(lhs <op> rhs)`"""

    name = "sarek_c.binary"
    op = prop_def(StringAttr)
    lhs = operand_def(ValType)
    rhs = operand_def(ValType)
    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = '"$op" $lhs , $rhs : ctype($result)'


@irdl_op_definition
class UnaryOp(_Expr):
    """`(<op>x)`"""

    name = "sarek_c.unary"
    op = prop_def(StringAttr)
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = '"$op" $operand : ctype($result)'


@irdl_op_definition
class CallOp(_Expr):
    """`callee(args)`"""

    name = "sarek_c.call"
    callee = prop_def(StringAttr)
    args = var_operand_def(ValType)

    FORMAT: ClassVar[str] = '"$callee" ($args) : ctype($result)'


@irdl_op_definition
class CastOp(_Expr):
    """`(T)x`, T the result's C type."""

    name = "sarek_c.cast"
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = "$operand : ctype($result)"


@irdl_op_definition
class IndexOp(_Expr):
    """`base[index]` (a place)."""

    name = "sarek_c.index"
    base = operand_def(ValType)
    index = operand_def(ValType)

    FORMAT: ClassVar[str] = "$base [$index] : ctype($result)"


@irdl_op_definition
class MemberOp(_Expr):
    """`base.field` (a place when base is one)."""

    name = "sarek_c.member"
    base = operand_def(ValType)
    field = prop_def(StringAttr)

    FORMAT: ClassVar[str] = '$base "$field" : ctype($result)'


@irdl_op_definition
class SelectOp(_Expr):
    """`(c ? a : b)` — only the chosen side is evaluated."""

    name = "sarek_c.select"
    cond = operand_def(ValType)
    a = operand_def(ValType)
    b = operand_def(ValType)

    FORMAT: ClassVar[str] = "$cond , $a , $b : ctype($result)"


@irdl_op_definition
class RecordLitOp(_Expr):
    """`(T){a, b}` or, with field names, `(T){.x = a, .y = b}`."""

    name = "sarek_c.record_lit"
    fields = prop_def(ArrayAttr[StringAttr])
    values = var_operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, ctype: str, fields: Sequence[str], values: Sequence[SSAValue]):
        super().__init__(operands=[values], result_types=[ValType(ctype)], properties={"fields": _strs(fields)})

    def verify_(self) -> None:
        if self.fields.data and len(self.fields) != len(self.values):
            raise VerifyException("sarek_c.record_lit: fields and values differ in length")

    def print(self, printer: Printer) -> None:
        printer.print_string(" {")
        for i, x in enumerate(self.values):
            printer.print_string(", " if i else "")
            if self.fields.data:
                printer.print_string_literal(self.fields.data[i].data)
                printer.print_string(" = ")
            printer.print_operand(x)
        printer.print_string("}")
        _print_ctype(printer, self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        fields: list[str] = []
        values: list[SSAValue] = []

        def one() -> None:
            f = parser.parse_optional_str_literal()
            if f is not None:
                fields.append(f)
                parser.parse_punctuation("=")
            values.append(_operand(parser))

        pos = parser.pos
        parser.parse_comma_separated_list(Parser.Delimiter.BRACES, one)
        if fields and len(fields) != len(values):
            _raise_since(parser, "sarek_c.record_lit: name every field or none", pos)
        return _parse_attrs(parser, cls(_parse_ctype(parser), fields, values))


@irdl_op_definition
class TemplateOp(_Expr):
    """A spelled-out expression with `{0}`, `{1}` ... standing for the operands (builtins, atomics)."""

    name = "sarek_c.expr"
    template = prop_def(StringAttr)
    args = var_operand_def(ValType)

    FORMAT: ClassVar[str] = '"$template" ($args)? : ctype($result)'
