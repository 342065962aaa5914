"""`sarek_c` declarations at file level: verbatim lines, structs, unions and their fields, enums, functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import BodyShape, StringSyntax
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import strings as _strs
from sarek.targets.cfamily.syntax import ValType
from sarek.targets.cfamily.syntax import parse_ctype as _parse_ctype
from sarek.targets.cfamily.syntax import parse_region as _parse_region
from sarek.targets.cfamily.syntax import print_region as _print_region
from sarek.targets.cfamily.syntax import print_str as _print_str
from sarek.targets.cfamily.syntax import region as _region


@irdl_op_definition
class VerbatimOp(StringSyntax):
    """Lines of source printed as they are (headers, pragmas, `extern "C" {`, native text)."""

    name = "sarek_c.verbatim"


@irdl_op_definition
class FieldOp(IRDLOperation):
    """`T name;` inside a struct or union."""

    name = "sarek_c.field"
    ctype = prop_def(StringAttr)
    field_name = prop_def(StringAttr)

    def __init__(self, ctype: str, name: str):
        super().__init__(properties={"ctype": StringAttr(ctype), "field_name": StringAttr(name)})

    def print(self, printer: Printer) -> None:
        _print_str(printer, self.ctype)
        _print_str(printer, self.field_name)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> FieldOp:
        t = parser.parse_str_literal()
        return _parse_attrs(parser, cls(t, parser.parse_str_literal()))


class _MemberGroup(BodyShape):
    member_name = prop_def(StringAttr)
    traits = traits_def(NoTerminator())

    def __init__(self, name: str):
        super().__init__(properties={"member_name": StringAttr(name)}, regions=[_region()])

    def print(self, printer: Printer) -> None:
        _print_str(printer, self.member_name)
        _print_attrs(printer, self)
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls(parser.parse_str_literal())
        _parse_attrs(parser, op)
        _parse_region(parser, op.body)
        return op


@irdl_op_definition
class StructOp(_MemberGroup):
    """`typedef struct { <members> } name;` — members are `sarek_c.field`, `sarek_c.union`,
    `sarek_c.nested_struct`."""

    name = "sarek_c.struct"


@irdl_op_definition
class UnionOp(_MemberGroup):
    """`union { <members> } name;`"""

    name = "sarek_c.union"


@irdl_op_definition
class NestedStructOp(_MemberGroup):
    """`struct { <members> } name;` inside a struct or union."""

    name = "sarek_c.nested_struct"


@irdl_op_definition
class EnumOp(IRDLOperation):
    """`enum { A = 0, B = 1 };`"""

    name = "sarek_c.enum"
    names = prop_def(ArrayAttr[StringAttr])
    values = prop_def(ArrayAttr[IntegerAttr])

    def __init__(self, names: Sequence[str], values: Sequence[int]):
        super().__init__(properties={"names": _strs(names), "values": ArrayAttr(IntegerAttr(v, i32) for v in values)})

    def verify_(self) -> None:
        if len(self.names) != len(self.values):
            raise VerifyException("sarek_c.enum: names and values differ in length")
        for v in self.values:
            if v.type != i32:
                raise VerifyException(f"sarek_c.enum: value {v} is not an i32")

    def print(self, printer: Printer) -> None:
        printer.print_string(" {")
        for i, (n, v) in enumerate(zip(self.names, self.values)):
            printer.print_string(", " if i else "")
            printer.print_string_literal(n.data)
            printer.print_string(f" = {v.value.data}")
        printer.print_string("}")
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> EnumOp:
        names: list[str] = []
        values: list[int] = []

        def one() -> None:
            names.append(parser.parse_str_literal())
            parser.parse_punctuation("=")
            values.append(parser.parse_integer(allow_boolean=False))

        parser.parse_comma_separated_list(Parser.Delimiter.BRACES, one)
        return _parse_attrs(parser, cls(names, values))


@irdl_op_definition
class FuncOp(BodyShape):
    """`<prefix> <ret> name(<params>) { body }`; parameter i prints as `param_types[i] param_names[i]
    param_suffixes[i]` and is the body's block argument i."""

    name = "sarek_c.func"
    func_name = prop_def(StringAttr)
    prefix = prop_def(StringAttr)
    ret = prop_def(StringAttr)
    param_types = prop_def(ArrayAttr[StringAttr])
    param_names = prop_def(ArrayAttr[StringAttr])
    param_suffixes = prop_def(ArrayAttr[StringAttr])
    traits = traits_def(NoTerminator())

    def __init__(self, name: str, prefix: str, ret: str, params: Sequence[tuple[str, str, str]]):
        super().__init__(
            properties={"func_name": StringAttr(name), "prefix": StringAttr(prefix), "ret": StringAttr(ret),
                        "param_types": _strs([p[0] for p in params]), "param_names": _strs([p[1] for p in params]),
                        "param_suffixes": _strs([p[2] for p in params])},
            regions=[_region([ValType(p[0]) for p in params])])

    def verify_(self) -> None:
        n = len(self.param_names)
        if not (len(self.param_types) == len(self.param_suffixes) == len(self.body.block.args) == n):
            raise VerifyException("sarek_c.func: parameter lists differ in length")
        for a, t in zip(self.body.block.args, self.param_types):
            if a.type != ValType(t):
                raise VerifyException(f"sarek_c.func: parameter type {a.type} is not !sarek_c.val<{t}>")

    def print(self, printer: Printer) -> None:
        if self.prefix.data:
            _print_str(printer, self.prefix)
        _print_str(printer, self.ret)
        printer.print_string(" ")
        printer.print_symbol_name(self.func_name.data)
        printer.print_string("(")
        for i, (a, t, n, x) in enumerate(zip(self.body.block.args, self.param_types, self.param_names,
                                             self.param_suffixes)):
            printer.print_string(", " if i else "")
            printer.print_block_argument(a, print_type=False)
            printer.print_string(" : ")
            printer.print_string_literal(t.data)
            _print_str(printer, n)
            if x.data:
                _print_str(printer, x)
        printer.print_string(")")
        _print_attrs(printer, self)
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        prefix = parser.parse_str_literal()
        ret = parser.parse_optional_str_literal()
        if ret is None:
            prefix, ret = "", prefix
        name = parser.parse_symbol_name().data
        args: list[Parser.Argument] = []
        params: list[tuple[str, str, str]] = []

        def one() -> None:
            a = parser.parse_argument(expect_type=False)
            t = _parse_ctype(parser)
            n = parser.parse_str_literal()
            x = parser.parse_optional_str_literal() or ""
            args.append(a.resolve(ValType(t)))
            params.append((t, n, x))

        parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
        op = cls(name, prefix, ret, params)
        _parse_attrs(parser, op)
        _parse_region(parser, op.body, args)
        return op
