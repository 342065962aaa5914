"""SCRATCH: `sarek.print`, to move into the dialect's statements module once the split lands."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.intrinsics import is_float, is_int
from sarek.dialect.syntax import operand_list, parse_attrs, print_attrs, print_operand_list, raise_since
from xdsl.dialects.builtin import i1


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`sarek.print "i = {} x = {}\\n"(%i, %x) : i32, f32` — Python's `print`: the format's `{}` take the
    scalar values in order (`{{`/`}}` are braces); lowered to debug-buffer records (sarek-lower-print)."""

    name = "sarek.print"
    format = prop_def(StringAttr)
    values = var_operand_def()

    def __init__(self, format: str, values: Sequence[SSAValue]):
        super().__init__(operands=[values], properties={"format": StringAttr(format)})

    def verify_(self) -> None:
        n = self.format.data.replace("{{", "").replace("}}", "").count("{}")
        if n != len(self.values):
            raise VerifyException(f"print format has {n} placeholder(s), {len(self.values)} value(s) given")
        for v in self.values:
            if not (is_int(v.type) or is_float(v.type) or v.type == i1):
                raise VerifyException(f"print takes scalar values, got {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        print_operand_list(printer, self.values)
        if self.values:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)
        print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        fmt = parser.parse_str_literal()
        vals = operand_list(parser)
        if vals:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            if types != [v.type for v in vals]:
                raise_since(parser, "value types do not match the listed types", pos)
        return parse_attrs(parser, cls(fmt, vals))
