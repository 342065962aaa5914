"""`sarek_c` expressions: SSA values printed where they are used. `_Expr` declares the syntax of all of them
once (a head of strings and operands, then ` : "ctype"`); each op lists its head in `HEAD`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import operand_list as _operand_list
from sarek.dialect.syntax import operand_seq as _operand_seq
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscript as _parse_subscript
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_operand_list as _print_operand_list
from sarek.dialect.syntax import print_subscript as _print_subscript
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import strings as _strs
from sarek.targets.cfamily.syntax import ValType
from sarek.targets.cfamily.syntax import operands as _operands
from sarek.targets.cfamily.syntax import parse_ctype as _parse_ctype
from sarek.targets.cfamily.syntax import print_ctype as _print_ctype
from sarek.targets.cfamily.syntax import print_operands as _print_operands
from sarek.targets.cfamily.syntax import print_str as _print_str


#: an expression op's head syntax (see `_Expr`)
Head = tuple[tuple[str, str | tuple[str, ...]], ...]


class _Expr(IRDLOperation):
    """An expression: its head, then its C type ` : "ctype"` and the attributes. The head is declared by `HEAD`,
    in the order of the constructor's arguments (the ctype comes last): ("str", p) the string property p as a
    literal, ("operands", (a, b ...)) ` %a, %b`, ("args", a) the variadic operand a as `(%x, %y)`, ("opt_args", a)
    the same or nothing when empty, ("subscript", a) `[%a]`. An op whose head is no such sequence overrides
    `_print_head` and `_parse_head` (which returns the constructor with the head's arguments bound)."""

    result = result_def(ValType)
    HEAD: ClassVar[Head] = ()

    def _print_head(self, printer: Printer) -> None:
        for kind, f in self.HEAD:
            if isinstance(f, tuple):
                printer.print_string(" ")
                printer.print_list([cast(SSAValue, getattr(self, n)) for n in f], printer.print_operand)
            elif kind == "str":
                _print_str(printer, cast(StringAttr, getattr(self, f)))
            elif kind == "subscript":
                _print_subscript(printer, cast(SSAValue, getattr(self, f)))
            else:
                xs = cast(Sequence[SSAValue], getattr(self, f))
                (_print_operand_list if kind == "args" else _print_operands)(printer, xs)

    @classmethod
    def _parse_head(cls, parser: Parser) -> Callable[[str], Self]:
        vals: list[object] = []
        for kind, f in cls.HEAD:
            if isinstance(f, tuple):
                vals += _operand_seq(parser, len(f))
            elif kind == "str":
                vals.append(parser.parse_str_literal())
            elif kind == "subscript":
                vals.append(_parse_subscript(parser))
            else:
                vals.append(_operand_list(parser) if kind == "args" else _operands(parser))
        make = cast(Callable[..., Self], cls)  # each op's own __init__(head..., ctype)
        return lambda ctype: make(*vals, ctype)

    def print(self, printer: Printer) -> None:
        self._print_head(printer)
        _print_ctype(printer, self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        make = cls._parse_head(parser)
        op = make(_parse_ctype(parser))
        _parse_attrs(parser, op)
        return op


@irdl_op_definition
class LitOp(_Expr):
    """A literal or a name, printed as its text."""

    name = "sarek_c.lit"
    text = prop_def(StringAttr)
    traits = traits_def(Pure())

    def __init__(self, text: str, ctype: str):
        super().__init__(result_types=[ValType(ctype)], properties={"text": StringAttr(text)})

    HEAD: ClassVar[Head] = (("str", "text"),)


@irdl_op_definition
class BinaryOp(_Expr):
    """`(lhs <op> rhs)`"""

    name = "sarek_c.binary"
    op = prop_def(StringAttr)
    lhs = operand_def(ValType)
    rhs = operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, op: str, lhs: SSAValue, rhs: SSAValue, ctype: str):
        super().__init__(operands=[lhs, rhs], result_types=[ValType(ctype)], properties={"op": StringAttr(op)})

    HEAD: ClassVar[Head] = (("str", "op"), ("operands", ("lhs", "rhs")))


@irdl_op_definition
class UnaryOp(_Expr):
    """`(<op>x)`"""

    name = "sarek_c.unary"
    op = prop_def(StringAttr)
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, op: str, x: SSAValue, ctype: str):
        super().__init__(operands=[x], result_types=[ValType(ctype)], properties={"op": StringAttr(op)})

    HEAD: ClassVar[Head] = (("str", "op"), ("operands", ("operand",)))


@irdl_op_definition
class CallOp(_Expr):
    """`callee(args)`"""

    name = "sarek_c.call"
    callee = prop_def(StringAttr)
    args = var_operand_def(ValType)

    def __init__(self, callee: str, args: Sequence[SSAValue], ctype: str):
        super().__init__(operands=[args], result_types=[ValType(ctype)], properties={"callee": StringAttr(callee)})

    HEAD: ClassVar[Head] = (("str", "callee"), ("args", "args"))


@irdl_op_definition
class CastOp(_Expr):
    """`(T)x`, T the result's C type."""

    name = "sarek_c.cast"
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, x: SSAValue, ctype: str):
        super().__init__(operands=[x], result_types=[ValType(ctype)])

    HEAD: ClassVar[Head] = (("operands", ("operand",)),)


@irdl_op_definition
class IndexOp(_Expr):
    """`base[index]` (a place)."""

    name = "sarek_c.index"
    base = operand_def(ValType)
    index = operand_def(ValType)

    def __init__(self, base: SSAValue, index: SSAValue, ctype: str):
        super().__init__(operands=[base, index], result_types=[ValType(ctype)])

    HEAD: ClassVar[Head] = (("operands", ("base",)), ("subscript", "index"))


@irdl_op_definition
class MemberOp(_Expr):
    """`base.field` (a place when base is one)."""

    name = "sarek_c.member"
    base = operand_def(ValType)
    field = prop_def(StringAttr)

    def __init__(self, base: SSAValue, field: str, ctype: str):
        super().__init__(operands=[base], result_types=[ValType(ctype)], properties={"field": StringAttr(field)})

    HEAD: ClassVar[Head] = (("operands", ("base",)), ("str", "field"))


@irdl_op_definition
class SelectOp(_Expr):
    """`(c ? a : b)` — only the chosen side is evaluated."""

    name = "sarek_c.select"
    cond = operand_def(ValType)
    a = operand_def(ValType)
    b = operand_def(ValType)

    def __init__(self, cond: SSAValue, a: SSAValue, b: SSAValue, ctype: str):
        super().__init__(operands=[cond, a, b], result_types=[ValType(ctype)])

    HEAD: ClassVar[Head] = (("operands", ("cond", "a", "b")),)


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

    def _print_head(self, printer: Printer) -> None:
        printer.print_string(" {")
        for i, x in enumerate(self.values):
            printer.print_string(", " if i else "")
            if self.fields.data:
                printer.print_string_literal(self.fields.data[i].data)
                printer.print_string(" = ")
            printer.print_operand(x)
        printer.print_string("}")

    @classmethod
    def _parse_head(cls, parser: Parser) -> Callable[[str], Self]:
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
        return lambda ctype: cls(ctype, fields, values)


@irdl_op_definition
class TemplateOp(_Expr):
    """A spelled-out expression with `{0}`, `{1}` ... standing for the operands (builtins, atomics)."""

    name = "sarek_c.expr"
    template = prop_def(StringAttr)
    args = var_operand_def(ValType)

    def __init__(self, template: str, args: Sequence[SSAValue], ctype: str):
        super().__init__(operands=[args], result_types=[ValType(ctype)], properties={"template": StringAttr(template)})

    HEAD: ClassVar[Head] = (("str", "template"), ("opt_args", "args"))
