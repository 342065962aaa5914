"""Statements of the sarek dialect without regions that are not jumps: barriers and fences, assert, native
text and print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DictionaryAttr, StringAttr, i1
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import FormatSyntax, NullarySyntax
from sarek.dialect.syntax import operand_list as _operand_list
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_operand_list as _print_operand_list
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.types import is_scalar_type


@irdl_op_definition
class BarrierOp(NullarySyntax):
    """`sarek.barrier` — block-wide barrier; every thread of the block must reach it."""

    name = "sarek.barrier"


@irdl_op_definition
class GridBarrierOp(NullarySyntax):
    """`sarek.grid_barrier` — grid-wide barrier; every thread of every block of the launch must reach it before
    any passes, and memory written before it is visible after it. Needs a cooperative launch (every block
    resident at once): CUDA and PTX make one; the other targets refuse it (sarek-reject-features)."""

    name = "sarek.grid_barrier"


@irdl_op_definition
class WarpBarrierOp(NullarySyntax):
    """`sarek.warp_barrier` — warp/subgroup synchronisation."""

    name = "sarek.warp_barrier"


@irdl_op_definition
class MemFenceOp(NullarySyntax):
    """`sarek.mem_fence` — device-scope memory fence."""

    name = "sarek.mem_fence"


@irdl_op_definition
class AssertOp(FormatSyntax):
    """`sarek.assert %c, "message"` — a checked condition: in debug mode a false `%c` fails the launch with
    `message`, located at the op; release pipelines remove it (sarek-strip-asserts), so it costs nothing."""

    name = "sarek.assert"
    FORMAT: ClassVar[str] = '$cond , "$message"'
    cond = operand_def(i1)
    message = prop_def(StringAttr)


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
            if not is_scalar_type(v.type):  # every scalar: sarek-lower-print encodes 8/16-bit, unsigned, bf16 too
                raise VerifyException(f"print takes scalar values, got {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        _print_operand_list(printer, self.values)
        if self.values:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        fmt = parser.parse_str_literal()
        vals = _operand_list(parser)
        if vals:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            if types != [v.type for v in vals]:
                _raise_since(parser, "value types do not match the listed types", pos)
        return _parse_attrs(parser, cls(fmt, vals))
