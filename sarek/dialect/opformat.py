"""A declarative custom syntax for the ops of every sarek dialect (`sarek`, `sarek_c`, the shader and PTX
dialects): an op states its syntax once, in `FORMAT`, and its printer and parser both follow from it.

`FORMAT` is a space-separated sequence of pieces, in the order of the op's constructor arguments:

* `$x`: the operand x, printed ` %x` (an optional operand: ` %x` or nothing);
* `($x)`: the variadic operand x as `(%a, %b)` right after what precedes it (`($x)?`: nothing when empty);
* `[$x]`: the operand x as a subscript `[%x]` (a variadic one: `[%i, %j]`), right after what precedes it;
* `"$p"`: the string property p, as a string literal;
* `int($p)`: the integer property p (an `IntAttr` or `IntegerAttr`), as a number;
* `type($x)`: the type of the operand x, which the parser checks against x's own type (an error naming x and
  pointing at the type), or of the result x, which the parser gives the constructor;
* `attr-dict`: the discardable attributes, `attributes {...}` (at the end when the format does not place them);
* a directive of the dialect (`DIRECTIVES`, e.g. `sarek_c`'s `ctype($r)`: a result's C type text);
* anything else: a keyword or punctuation printed and parsed as it stands (`,` without a space before it).

The constructor gets, in the format's order, one argument per piece that carries a value (an operand, a
property, a result type, a directive's value). That constructor follows from the format too: `Op(*values)`
builds the operands, the string and integer (`IntAttr`) properties, the result types (`type($r)`, a directive's
`build`) and the results whose constraint fixes their type; an op that needs more (defaults, other property
types) defines its own `__init__`. The op keeps its own fields and verifier. An op whose syntax no format
states overrides `print` and `parse`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from xdsl.dialects.builtin import IntAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, OptOperandDef, VarOperandDef, prop_def, region_def
from xdsl.irdl.constraints import InferenceContext
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import PunctuationSpelling

from sarek.dialect.syntax import keep_textual_names, operand, optional_defined_operand, parse_attrs, parse_subscripts
from sarek.dialect.syntax import parse_type_of, print_attrs, print_subscript, print_subscripts, print_typed_operand, raise_since

#: punctuation that attaches to what precedes it (no space before)
_ATTACHED = frozenset({",", ")", "]"})
_PUNCTUATION = frozenset({",", "=", "*", "+", ":", "->", "(", ")", "[", "]", "{", "}", "<", ">", "-", "?", "|"})


@dataclass(frozen=True)
class Directive:
    """A dialect's own piece `name($x)`: how the value of field x prints, how the parser reads the value
    the constructor takes for it, and (x a result) the result type the generated constructor builds from it."""

    print: Callable[[Printer, object], None]
    parse: Callable[[Parser], object]
    build: Callable[[object], Attribute] | None = None


@dataclass(frozen=True)
class _Piece:
    kind: str  # operand, args, opt_args, subscript, str, int, type, attrs, directive, literal
    field: str = ""
    directive: str = ""


def _compile(fmt: str) -> tuple[_Piece, ...]:
    pieces: list[_Piece] = []
    for tok in fmt.split():
        if tok == "attr-dict":
            pieces.append(_Piece("attrs"))
        elif tok.startswith("$"):
            pieces.append(_Piece("operand", tok[1:]))
        elif tok.startswith("($") and tok.endswith(")?"):
            pieces.append(_Piece("opt_args", tok[2:-2]))
        elif tok.startswith("($") and tok.endswith(")"):
            pieces.append(_Piece("args", tok[2:-1]))
        elif tok.startswith("[$") and tok.endswith("]"):
            pieces.append(_Piece("subscript", tok[2:-1]))
        elif tok.startswith('"$') and tok.endswith('"'):
            pieces.append(_Piece("str", tok[2:-1]))
        elif "($" in tok and tok.endswith(")"):
            name, field = tok[:-1].split("($")
            pieces.append(_Piece(name if name in ("int", "type") else "directive", field, name))
        else:
            pieces.append(_Piece("literal", tok))
    if not any(p.kind == "attrs" for p in pieces):
        pieces.append(_Piece("attrs"))
    return tuple(pieces)


#: each op class's compiled FORMAT
_COMPILED: dict[type, tuple[_Piece, ...]] = {}


class FormatSyntax(IRDLOperation):
    """An op whose custom syntax is its `FORMAT` (see the module docstring)."""

    FORMAT: ClassVar[str] = ""
    #: the dialect's own pieces, by name
    DIRECTIVES: ClassVar[dict[str, Directive]] = {}

    @classmethod
    def _pieces(cls) -> tuple[_Piece, ...]:
        if cls not in _COMPILED:
            _COMPILED[cls] = _compile(cls.FORMAT)
        return _COMPILED[cls]

    def __init__(self, *values: object, **irdl: Any) -> None:
        """`Op(*values)`: the op the format's values describe, in the format's order (what `parse` reads);
        `Op(operands=..., ...)`: xDSL's own constructor, for an op that defines its own `__init__`."""
        if irdl or not self.FORMAT:
            super().__init__(**irdl)
            return
        defn = self.get_irdl_definition()
        names = {n for n, _ in defn.operands}
        pieces = [p for p in self._pieces() if p.kind not in ("attrs", "literal") and
                  not (p.kind == "type" and p.field in names)]
        if len(values) != len(pieces):
            raise TypeError(f"{self.name} takes {len(pieces)} values ({self.FORMAT}), got {len(values)}")
        fields: dict[str, object] = {}
        props: dict[str, Attribute] = {}
        for p, v in zip(pieces, values):
            if p.kind == "str":
                props[p.field] = StringAttr(cast(str, v))
            elif p.kind == "int":
                props[p.field] = IntAttr(cast(int, v))
            elif p.kind == "directive":
                build = self.DIRECTIVES[p.directive].build
                fields[p.field] = build(v) if build is not None else v
            else:
                fields[p.field] = v
        results = [cast(Attribute, fields[n]) if n in fields else d.constr.infer(InferenceContext(), length=1)[0]
                   for n, d in defn.results]
        super().__init__(operands=[cast(SSAValue, fields[n]) for n, _ in defn.operands], result_types=results,
                         properties=props)

    def print(self, printer: Printer) -> None:
        for p in self._pieces():
            value = getattr(self, p.field) if p.field and p.kind != "literal" else None
            if p.kind == "attrs":
                print_attrs(printer, self)
            elif p.kind == "literal":
                printer.print_string(("" if p.field in _ATTACHED else " ") + p.field)
            elif p.kind == "operand":
                if value is not None:
                    printer.print_string(" ")
                    printer.print_operand(cast(SSAValue, value))
            elif p.kind in ("args", "opt_args"):
                xs = cast(Sequence[SSAValue], value)
                if xs or p.kind == "args":
                    printer.print_string("(")
                    printer.print_list(xs, printer.print_operand)
                    printer.print_string(")")
            elif p.kind == "subscript":
                if isinstance(value, SSAValue):
                    print_subscript(printer, cast(SSAValue, value))
                else:
                    print_subscripts(printer, cast(Sequence[SSAValue], value))
            elif p.kind == "str":
                printer.print_string(" ")
                printer.print_string_literal(cast(StringAttr, value).data)
            elif p.kind == "int":
                v = value.value.data if isinstance(value, IntegerAttr) else cast(IntAttr, value).data
                printer.print_string(f" {v}")
            elif p.kind == "type":
                printer.print_string(" ")
                printer.print_attribute(cast(SSAValue, value).type)
            else:
                self.DIRECTIVES[p.directive].print(printer, value)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = dict(cls.get_irdl_definition().operands)
        vals: list[object] = []
        seen: dict[str, SSAValue] = {}
        attrs_at: int | None = None
        for p in cls._pieces():
            if p.kind == "attrs":
                attrs_at = len(vals)
                vals.append(parser.parse_optional_attr_dict_with_keyword())
            elif p.kind == "literal":
                if p.field in _PUNCTUATION:
                    parser.parse_punctuation(cast(PunctuationSpelling, p.field))
                else:
                    parser.parse_keyword(p.field)
            elif p.kind == "operand":
                x = optional_defined_operand(parser) if isinstance(operands[p.field], OptOperandDef) else operand(parser)
                if x is not None:
                    seen[p.field] = x
                vals.append(x)
            elif p.kind == "args":
                vals.append(parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: operand(parser)))
            elif p.kind == "opt_args":
                if parser.parse_optional_punctuation("(") is None or parser.parse_optional_punctuation(")"):
                    vals.append([])
                else:
                    xs = [operand(parser)]
                    while parser.parse_optional_punctuation(",") is not None:
                        xs.append(operand(parser))
                    parser.parse_punctuation(")")
                    vals.append(xs)
            elif p.kind == "subscript":
                if isinstance(operands[p.field], VarOperandDef):
                    vals.append(parse_subscripts(parser))
                else:
                    parser.parse_punctuation("[")
                    vals.append(operand(parser))
                    parser.parse_punctuation("]")
            elif p.kind == "str":
                vals.append(parser.parse_str_literal())
            elif p.kind == "int":
                vals.append(parser.parse_integer(allow_boolean=False))
            elif p.kind == "type":
                if p.field in seen:
                    pos, x = parser.pos, seen[p.field]
                    if (t := parser.parse_type()) != x.type:
                        raise_since(parser, f"{p.field} has type {x.type}, not {t}", pos)
                else:
                    vals.append(parser.parse_type())
            else:
                vals.append(cls.DIRECTIVES[p.directive].parse(parser))
        attrs = vals.pop(cast(int, attrs_at))
        op = cast(Callable[..., Self], cls)(*vals)
        if attrs is not None:
            op.attributes |= cast(dict[str, Attribute], getattr(attrs, "data"))
        return op


# ------------------------------------------------------------------------------------------------ op shapes
# Shapes shared by ops of every dialect that print the same way: `NullarySyntax` (nothing but the attributes),
# `OperandSyntax` (` %x`), `OptionalOperandSyntax` (` %x` or nothing), `TypedOperandSyntax` (` %x : T`),
# `NamedTypedOperandSyntax` (` "name" %x : T`) read the op's operands by position, whatever their names, and
# build the op with its own constructor, whose arguments the shape names (`cls(value)`, `cls(name, value)`);
# `StringSyntax` (` "text"`) is a format with its field.


class NullarySyntax(IRDLOperation):
    """Nothing but the attributes (a declarative format); built as `cls()`."""

    assembly_format = "attr-dict-with-keyword"

    def __init__(self) -> None:
        super().__init__()


class OperandSyntax(IRDLOperation):
    """` %x` (the op's only operand); built as `cls(x)`."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_attrs(parser, cast(Callable[[SSAValue], Self], cls)(operand(parser)))


class OptionalOperandSyntax(IRDLOperation):
    """` %x` or nothing (an optional operand); built as `cls(x)` or `cls(None)`."""

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_operand(self.operands[0])
        print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_attrs(parser, cast(Callable[[SSAValue | None], Self], cls)(optional_defined_operand(parser)))


class TypedOperandSyntax(IRDLOperation):
    """` %x : T` (the op's only operand, and its type); built as `cls(x)`. A T that is not the operand's type,
    or not an `OPERAND_BASE`, is a parse error."""

    OPERAND_BASE: ClassVar[type[Attribute]] = Attribute

    def print(self, printer: Printer) -> None:
        print_typed_operand(printer, self.operands[0])
        print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        x = operand(parser)
        parse_type_of(parser, x, base=cls.OPERAND_BASE)
        return parse_attrs(parser, cast(Callable[[SSAValue], Self], cls)(x))


class NamedTypedOperandSyntax(IRDLOperation):
    """` "name" %x : T` (a binder: its `sym` name property, its only operand and that operand's type); built as
    `cls(name, x)`. The result keeps the SSA name the text gives it (see `keep_textual_names`)."""

    if TYPE_CHECKING:  # defined by each op
        sym: StringAttr

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.sym.data)
        print_typed_operand(printer, self.operands[0])
        print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_str_literal()
        x = operand(parser)
        parse_type_of(parser, x)
        op = cast(Callable[[str, SSAValue], Self], cls)(name, x)
        keep_textual_names(op)
        parse_attrs(parser, op)
        return op


class BodyShape(IRDLOperation):
    """An op around one body of statements: `body`, one block (a loop, a block, a function); the op adds its
    operands, properties, traits (its own `traits_def`: xDSL shares a base class's trait set, which the
    dialects extend per op) and syntax."""

    body = region_def("single_block")


class IfShape(IRDLOperation):
    """A statement conditional's regions: `then_region` (one block) and `else_region` (empty: no else); the op
    adds its condition operand, traits (see `BodyShape`) and syntax."""

    then_region = region_def("single_block")
    else_region = region_def()


class StringSyntax(FormatSyntax):
    """` "text"`: an op that is one string, its `text` property; built as `cls(text)`."""

    FORMAT: ClassVar[str] = '"$text"'
    text = prop_def(StringAttr)


__all__ = ["Directive", "FormatSyntax", "NullarySyntax", "OperandSyntax", "OptionalOperandSyntax", "TypedOperandSyntax",
           "NamedTypedOperandSyntax", "BodyShape", "IfShape", "StringSyntax"]
