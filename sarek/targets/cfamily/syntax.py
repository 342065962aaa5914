"""`sarek_c`: its type (`!sarek_c.val<"ctype">`), the names of the discardable attributes the passes read, and the
custom-syntax helpers of its ops.

C text (types, names, operators, templates) is a string literal; a value's type prints as its C type text
(`: "int"` for `!sarek_c.val<"int">`); operands print without their types (SSA: each is defined before it is
used, so the parser knows its type)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Block, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.parser import Parser
from xdsl.printer import Printer

from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attrs, print_attrs

__all__ = ["TEMP", "VALUE", "BINDER", "EFFECTS", "ValType", "RegionsSyntax"]

TEMP = "sarek_c.temp"
VALUE = "sarek_c.value"
BINDER = "sarek_c.binder"
EFFECTS = "sarek_c.effects"


@irdl_attr_definition
class ValType(ParametrizedAttribute, TypeAttribute):
    """`!sarek_c.val<"float">`: a C value (or place) whose type is the given C type text."""

    name = "sarek_c.val"
    ctype: StringAttr

    def __init__(self, ctype: str | StringAttr):
        super().__init__(StringAttr(ctype) if isinstance(ctype, str) else ctype)

    @property
    def text(self) -> str:
        return self.ctype.data


def operands(parser: Parser) -> list[SSAValue]:
    """`(%a, %b)`, or nothing."""
    if parser.parse_optional_punctuation("(") is None:
        return []
    if parser.parse_optional_punctuation(")") is not None:
        return []
    xs = [_operand(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        xs.append(_operand(parser))
    parser.parse_punctuation(")")
    return xs


def print_operands(printer: Printer, xs: Sequence[SSAValue]) -> None:
    if xs:
        printer.print_string("(")
        printer.print_list(xs, printer.print_operand)
        printer.print_string(")")


def print_str(printer: Printer, s: str | StringAttr) -> None:
    printer.print_string(" ")
    printer.print_string_literal(s if isinstance(s, str) else s.data)


def print_ctype(printer: Printer, t: ValType) -> None:
    printer.print_string(" : ")
    printer.print_string_literal(t.text)


def parse_ctype(parser: Parser) -> str:
    parser.parse_punctuation(":")
    return parser.parse_str_literal()


def print_region(printer: Printer, r: Region) -> None:
    printer.print_string(" ")
    printer.print_region(r, print_entry_block_args=False, print_empty_block=False)


def parse_region(parser: Parser, into: Region, args: Sequence[Parser.Argument] = ()) -> None:
    """Parse a region into the (fresh, one-block) region the constructor built, keeping its block arguments."""
    move_region(parser.parse_region(args), into, [a.type for a in args])


def move_region(r: Region, into: Region, arg_types: Sequence[Attribute] = ()) -> None:
    """Replace the blocks of `into` by those of the parsed `r` (one empty block if `r` has none)."""
    if not r.blocks:
        r.add_block(Block(arg_types=arg_types))
    for b in list(into.blocks):
        into.detach_block(b)
    for b in list(r.blocks):
        into.add_block(r.detach_block(b))


def region(args: Sequence[Attribute] = ()) -> Region:
    return Region(Block(arg_types=args))


class RegionsSyntax(IRDLOperation):
    """An op of regions alone, each one block of statements: its attributes, then the regions, the keywords
    of `JOINS` between them; built as `cls()` (fresh empty blocks, filled by the lowering)."""

    JOINS: ClassVar[tuple[str, ...]] = ()

    def __init__(self) -> None:
        super().__init__(regions=[region() for _ in self.get_irdl_definition().regions])

    def print(self, printer: Printer) -> None:
        print_attrs(printer, self)
        for i, r in enumerate(self.regions):
            printer.print_string(f" {self.JOINS[i - 1]}" if i else "")
            print_region(printer, r)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls()
        parse_attrs(parser, op)
        for i, r in enumerate(op.regions):
            if i:
                parser.parse_keyword(cls.JOINS[i - 1])
            parse_region(parser, r)
        return op
