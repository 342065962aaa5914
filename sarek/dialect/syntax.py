"""Custom-syntax helpers shared by the sarek dialect and the target dialects.

Operands print without their types: in SSA every operand is defined before it is used, so the parser
already knows its type.

Two kinds of pieces:
* functions for the parts of a syntax: an operand, an operand list `(%a, %b)`, a type that must be an
  operand's type (`: T`, the error pointing at T), the discardable attributes `attributes {...}`;
* base classes for whole op shapes, used by ops of either dialect that print the same way: `NullarySyntax`
  (nothing but the attributes), `OperandSyntax` (` %x`), `OptionalOperandSyntax` (` %x` or nothing),
  `TypedOperandSyntax` (` %x : T`), `NamedTypedOperandSyntax` (` "name" %x : T`) and `StringSyntax`
  (` "text"`), each followed by the attributes. A shape reads the op's operands by position and builds the op
  with the op's own constructor, whose arguments the shape names (`cls(value)`, `cls(name, value)`, ...);
  the op keeps its fields, constructor and verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, TypeVar

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.utils.exceptions import VerifyException
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.lexer import Position
from xdsl.utils.hints import isa
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

OpT = TypeVar("OpT", bound=Operation)


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


def parse_attrs(parser: Parser, op: OpT) -> OpT:
    """The attributes `attributes {...}` (if any) into `op`; gives `op`."""
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data
    return op


def parse_attr_dict(parser: Parser) -> dict[str, Attribute]:
    """The attributes `attributes {...}` of an op that is built after them (they print before its regions);
    empty without any."""
    attrs = parser.parse_optional_attr_dict_with_keyword()
    return {} if attrs is None else dict(attrs.data)


def strings(xs: Sequence[str]) -> ArrayAttr[StringAttr]:
    return ArrayAttr(StringAttr(x) for x in xs)


def operand_seq(parser: Parser, n: int) -> list[SSAValue]:
    """`%a, %b, ...`: `n` operands separated by commas."""
    xs = [operand(parser)]
    while len(xs) < n:
        parser.parse_punctuation(",")
        xs.append(operand(parser))
    return xs


def operand_list(parser: Parser) -> list[SSAValue]:
    """`(%a, %b)` (parentheses required, possibly empty)."""
    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: operand(parser))


def print_operand_list(printer: Printer, xs: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(xs, printer.print_operand)
    printer.print_string(")")


def print_subscript(printer: Printer, x: SSAValue) -> None:
    """`[%x]`."""
    printer.print_string("[")
    printer.print_operand(x)
    printer.print_string("]")


def parse_subscript(parser: Parser) -> SSAValue:
    """`[%x]`."""
    parser.parse_punctuation("[")
    x = operand(parser)
    parser.parse_punctuation("]")
    return x


def print_subscripts(printer: Printer, xs: Sequence[SSAValue]) -> None:
    """`[%i, %j]`."""
    printer.print_string("[")
    printer.print_list(xs, printer.print_operand)
    printer.print_string("]")


def parse_subscripts(parser: Parser) -> list[SSAValue]:
    """`[%i, %j]` (one or more)."""
    return parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: operand(parser))


def raise_since(parser: Parser, msg: str, start: Position, until: Position | None = None) -> NoReturn:
    """A parse error spanning what was parsed since `start` (a `parser.pos` taken before it), rather than the
    parser's next token: the caret is under the offending text. `until` (a later `parser.pos`) ends the span
    earlier than what was parsed last."""
    stop = parser.pos if until is None else until
    lexer = MLIRLexer(parser.lexer.input)
    lexer.pos = start
    end = start
    while (tok := lexer.lex()).kind != MLIRTokenKind.EOF and tok.span.start < stop:
        end = tok.span.end
    parser.raise_error(msg, start, end)


def parse_type_at(parser: Parser) -> tuple[Attribute, Position]:
    """`: T`: T, and where it starts (for `raise_since`)."""
    parser.parse_punctuation(":")
    pos = parser.pos
    return parser.parse_type(), pos


def parse_type_of(parser: Parser, value: SSAValue, what: str = "operand",
                  base: type[Attribute] = Attribute) -> Attribute:
    """`: T`, where T must be the type of `value` (and a `base`); the error names `what` and points at T."""
    t, pos = parse_type_at(parser)
    if value.type != t or not isinstance(t, base):
        raise_since(parser, f"{what} has type {value.type}, not {t}", pos)
    return t


def print_typed_operand(printer: Printer, value: SSAValue) -> None:
    """` %x : T`."""
    printer.print_string(" ")
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


def print_optional_attr(printer: Printer, keyword: str, value: Attribute | None) -> None:
    """` keyword value` when the optional attribute is set, nothing when it is not (an optional group)."""
    if value is not None:
        printer.print_string(f" {keyword} ")
        printer.print_attribute(value)


def print_for_range(printer: Printer, lo: SSAValue, hi: SSAValue, step: SSAValue | str) -> None:
    """` = %lo to %hi step S` (S an operand or a constant's text): a for loop's range, in either dialect."""
    printer.print_string(" = ")
    printer.print_operand(lo)
    printer.print_string(" to ")
    printer.print_operand(hi)
    printer.print_string(" step ")
    if isinstance(step, SSAValue):
        printer.print_operand(step)
    else:
        printer.print_string(step)


def parse_for_range(parser: Parser) -> tuple[SSAValue, SSAValue, SSAValue | int]:
    """What `print_for_range` prints: lo, hi and the step (an operand, or a constant integer)."""
    parser.parse_punctuation("=")
    lo = operand(parser)
    parser.parse_keyword("to")
    hi = operand(parser)
    parser.parse_keyword("step")
    dyn = optional_defined_operand(parser)
    return lo, hi, dyn if dyn is not None else parser.parse_integer(allow_boolean=False)


def print_typed_tail(printer: Printer, op: Operation, t: Attribute) -> None:
    """` : T`, then the attributes: how an op whose syntax ends in a type ends (`parse_type_at` reads T)."""
    printer.print_string(" : ")
    printer.print_attribute(t)
    print_attrs(printer, op)


def keep_textual_names(op: Operation) -> None:
    """Drop the name hints a constructor gave the results of a parsed op (a binder mirrors its name property as
    the hint): a parsed value is named by its text, and `%0` (no hint) stays `%0`, so that print -> parse ->
    print gives the text back from the first print on."""
    for r in op.results:
        r.name_hint = None


def print_name(printer: Printer, name: StringAttr) -> None:
    """` "name"`."""
    printer.print_string(" ")
    printer.print_string_literal(name.data)


def print_params(printer: Printer, args: Sequence[BlockArgument], names: ArrayAttr[StringAttr]) -> None:
    """`(%a : T "a", ...)`: block arguments with their source names."""
    printer.print_string("(")
    for i, (a, n) in enumerate(zip(args, names)):
        if i:
            printer.print_string(", ")
        printer.print_block_argument(a)
        printer.print_string(" ")
        printer.print_string_literal(n.data)
    printer.print_string(")")


def parse_params(parser: Parser) -> tuple[list[Parser.Argument], list[str]]:
    """What `print_params` prints: the arguments and their names."""
    args: list[Parser.Argument] = []
    names: list[str] = []

    def one() -> None:
        args.append(parser.parse_argument())
        names.append(parser.parse_str_literal())

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
    return args, names


def parse_str_array(parser: Parser, what: str) -> list[str]:
    """`["a", "b"]`, or a parse error naming `what`."""
    pos = parser.pos
    a = parser.parse_attribute()
    if not isa(a, ArrayAttr[StringAttr]):
        raise_since(parser, f"{what} must be an array of strings, got {a}", pos)
    return [x.data for x in a.data]


def check_name(name: StringAttr, what: str) -> None:
    """A verifier error when a binder or declaration name is empty."""
    if not name.data:
        raise VerifyException(f"{what} name must not be empty")


def hint(v: SSAValue, name: str) -> None:
    """Mirror a source name as the SSA name hint where it is a valid one."""
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name) and SSAValue.extract_valid_name(name):
        v.name_hint = name  # xDSL drops a `_<digits>` suffix: `_0` would leave an empty hint


def symbol_text(name: str) -> str:
    """Symbol names are printed quoted unless they are bare identifiers (escaped as Printer does)."""
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return name
    esc = "".join("\\\\" if b == 0x5C else f"\\{b:02X}" if b < 0x20 or b > 0x7E or b == 0x22 else chr(b)
                  for b in name.encode("utf-8"))
    return '"' + esc + '"'


def print_stmt_region(printer: Printer, region: Region) -> None:
    """A region of statements, without its entry block's arguments (its binders print with the op)."""
    printer.print_region(region, print_entry_block_args=False, print_empty_block=False)


def print_body(printer: Printer, op: Operation, body: Region) -> None:
    """` {body}`, then the attributes: how an op whose syntax ends in its body of statements ends."""
    printer.print_string(" ")
    print_stmt_region(printer, body)
    print_attrs(printer, op)


def parse_stmt_region(parser: Parser, args: Sequence[Parser.Argument] = ()) -> Region:
    """What `print_stmt_region` prints: one (possibly empty) block with the arguments `args`."""
    region = parser.parse_region(args)
    if not region.blocks:
        region.add_block(Block())
    return region
