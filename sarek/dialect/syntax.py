"""Custom-syntax helpers shared by the sarek dialect and the target dialects.

Operands print without their types: in SSA every operand is defined before it is used, so the parser
already knows its type.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind


def operand(parser: Parser) -> SSAValue:
    """An operand defined earlier (its type is known)."""
    u = parser.parse_unresolved_operand()
    vals = parser.ssa_values.get(u.operand_name)
    if vals is None:
        parser.raise_error("SSA value used before assignment", u.span)
    if u.index >= len(vals):
        parser.raise_error(f"SSA value tuple index out of bounds: tuple is of size {len(vals)}", u.span)
    return vals[u.index]


def optional_defined_operand(parser: Parser) -> SSAValue | None:
    """An operand if the next token names a value already defined; a `%x` that is not defined yet is the
    result of the next operation, and is left alone."""
    tok = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if tok.kind != MLIRTokenKind.PERCENT_IDENT or tok.text[1:] not in parser.ssa_values:
        return None
    return operand(parser)


def print_attrs(printer: Printer, op: Operation, reserved: Sequence[str] = ()) -> None:
    """Discardable attributes, as `attributes {...}` (a custom printer must print them or they are lost)."""
    printer.print_op_attributes(op.attributes, reserved_attr_names=reserved, print_keyword=True)


def parse_attrs(parser: Parser, op: Operation) -> None:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data


def strings(xs: Sequence[str]) -> ArrayAttr[StringAttr]:
    return ArrayAttr(StringAttr(x) for x in xs)
