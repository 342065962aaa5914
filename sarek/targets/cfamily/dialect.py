"""`sarek_c`: the C-family target dialect (CUDA, HIP, OpenCL C, Metal) — a small C syntax tree.

Everything language-specific is already decided when these ops exist: every type is the C type text
(`!sarek_c.val<"float">`), every builtin, qualifier and parameter declaration is spelled out, and every
temporary is an explicit `sarek_c.decl`. The printer (sarek/targets/cfamily/printer.py) only prints.

Expressions are SSA values: an expression op is printed where it is used; statement ops are printed in
order. Names: the result of `sarek_c.decl`/`sarek_c.array_decl` and the block arguments of `sarek_c.func`
(named by `param_names`) and `sarek_c.for` (named by `name`) print as their name.

The lowering gives every value its own `sarek_c.decl` temporary; `sarek-c-form-expressions`
(sarek/passes/c_form_expressions.py) then folds the single-use (or trivial) ones into the expression that
uses them. The discardable attributes it reads:
    sarek_c.temp = "x"         on a decl: a temporary the lowering made for a value named `x`; foldable
    sarek_c.value              on an if/switch: it computes the value of the temporary its arms assign last;
                               it becomes a `sarek_c.select` (chain) once everything in its arms folded
    sarek_c.binder             on a decl in a `sarek_c.value` switch case: a match binder (its payload read)
    sarek_c.effects = "read"   on a call/expr: it reads memory ("write": writes, synchronises or exchanges
                               values between lanes); without it a call or expr is pure

Custom syntax (round-trips; tests/filecheck/targets/cfamily_dialect/roundtrip.mlir has every op):
    sarek_c.func "__kernel" "void" @vector_add(%a : "__global float* restrict" "a", %n : "int" "n") { ... }
    %7 = sarek_c.expr "(int)get_global_id(0)" : "int"        %8 = sarek_c.decl "tid" %7 : "int"
    %9 = sarek_c.binary "<" %8, %n : "int"                    sarek_c.if %9 { ... } else { ... }
    sarek_c.for %i : "int" "i" = %lo to %hi step 1 { ... }    sarek_c.while { ... sarek_c.yield %c } do { ... }
C text is a string literal; a result's type prints as its C type text; operands print without types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Block, Dialect, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.syntax import NullarySyntax, OperandSyntax, OptionalOperandSyntax, StringSyntax
from sarek.dialect.syntax import optional_defined_operand as _optional_operand
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import operand_list as _operand_list
from sarek.dialect.syntax import operand_seq as _operand_seq
from sarek.dialect.syntax import parse_attr_dict as _parse_attr_dict
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscript as _parse_subscript
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_operand_list as _print_operand_list
from sarek.dialect.syntax import print_subscript as _print_subscript
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import strings as _strs

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


# ------------------------------------------------------------------------------------------------ syntax helpers
# Custom syntax: C text (types, names, operators, templates) is a string literal; a value's type prints as its
# C type text (`: "int"` for `!sarek_c.val<"int">`); operands print without their types (SSA: each is defined
# before it is used, so the parser knows its type).


def _operands(parser: Parser) -> list[SSAValue]:
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


def _print_operands(printer: Printer, xs: Sequence[SSAValue]) -> None:
    if xs:
        printer.print_string("(")
        printer.print_list(xs, printer.print_operand)
        printer.print_string(")")


def _print_str(printer: Printer, s: str | StringAttr) -> None:
    printer.print_string(" ")
    printer.print_string_literal(s if isinstance(s, str) else s.data)


def _print_ctype(printer: Printer, t: ValType) -> None:
    printer.print_string(" : ")
    printer.print_string_literal(t.text)


def _parse_ctype(parser: Parser) -> str:
    parser.parse_punctuation(":")
    return parser.parse_str_literal()


def _print_region(printer: Printer, r: Region) -> None:
    printer.print_string(" ")
    printer.print_region(r, print_entry_block_args=False, print_empty_block=False)


def _parse_region(parser: Parser, into: Region, args: Sequence[Parser.Argument] = ()) -> None:
    """Parse a region into the (fresh, one-block) region the constructor built, keeping its block arguments."""
    _move_region(parser.parse_region(args), into, [a.type for a in args])


def _move_region(r: Region, into: Region, arg_types: Sequence[Attribute] = ()) -> None:
    """Replace the blocks of `into` by those of the parsed `r` (one empty block if `r` has none)."""
    if not r.blocks:
        r.add_block(Block(arg_types=arg_types))
    for b in list(into.blocks):
        into.detach_block(b)
    for b in list(r.blocks):
        into.add_block(r.detach_block(b))




def _region(args: Sequence[Attribute] = ()) -> Region:
    return Region(Block(arg_types=args))


# ------------------------------------------------------------------------------------------------ top level


@irdl_op_definition
class VerbatimOp(StringSyntax):
    """Lines of source printed as they are (headers, pragmas, `extern "C" {`, native text)."""

    name = "sarek_c.verbatim"
    text = prop_def(StringAttr)

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})


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


class _MemberGroup(IRDLOperation):
    member_name = prop_def(StringAttr)
    body = region_def("single_block")
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
class FuncOp(IRDLOperation):
    """`<prefix> <ret> name(<params>) { body }`; parameter i prints as `param_types[i] param_names[i]
    param_suffixes[i]` and is the body's block argument i."""

    name = "sarek_c.func"
    func_name = prop_def(StringAttr)
    prefix = prop_def(StringAttr)
    ret = prop_def(StringAttr)
    param_types = prop_def(ArrayAttr[StringAttr])
    param_names = prop_def(ArrayAttr[StringAttr])
    param_suffixes = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
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


# ------------------------------------------------------------------------------------------------ statements


@irdl_op_definition
class DeclOp(IRDLOperation):
    """`<ctype> name[ = init];` — the result is the variable."""

    name = "sarek_c.decl"
    var_name = prop_def(StringAttr)
    init = opt_operand_def()
    result = result_def(ValType)

    def __init__(self, ctype: str, name: str, init: SSAValue | None = None):
        super().__init__(operands=[[init] if init is not None else []], result_types=[ValType(ctype)],
                         properties={"var_name": StringAttr(name)})

    def print(self, printer: Printer) -> None:
        _print_str(printer, self.var_name)
        if self.init is not None:
            printer.print_string(" ")
            printer.print_operand(self.init)
        _print_ctype(printer, self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> DeclOp:
        name = parser.parse_str_literal()
        init = None if parser.parse_optional_punctuation(":") is not None else _operand(parser)
        t = parser.parse_str_literal() if init is None else _parse_ctype(parser)
        return _parse_attrs(parser, cls(t, name, init))


@irdl_op_definition
class ArrayDeclOp(IRDLOperation):
    """`<ctype> name[size][ = {0}];` — ctype carries the qualifier (`__shared__ float`)."""

    name = "sarek_c.array_decl"
    var_name = prop_def(StringAttr)
    ctype = prop_def(StringAttr)
    init = prop_def(StringAttr)
    size = operand_def(ValType)
    result = result_def(ValType)

    def __init__(self, ctype: str, name: str, size: SSAValue, init: str = ""):
        super().__init__(operands=[size], result_types=[ValType(ctype)],
                         properties={"var_name": StringAttr(name), "ctype": StringAttr(ctype), "init": StringAttr(init)})

    def verify_(self) -> None:
        if self.result.type != ValType(self.ctype):
            raise VerifyException(f"sarek_c.array_decl: result type {self.result.type} is not "
                                  f"!sarek_c.val<{self.ctype}>")

    def print(self, printer: Printer) -> None:
        _print_str(printer, self.var_name)
        _print_subscript(printer, self.size)
        if self.init.data:
            printer.print_string(" =")
            _print_str(printer, self.init)
        printer.print_string(" : ")
        printer.print_string_literal(self.ctype.data)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ArrayDeclOp:
        name = parser.parse_str_literal()
        size = _parse_subscript(parser)
        init = parser.parse_str_literal() if parser.parse_optional_punctuation("=") is not None else ""
        return _parse_attrs(parser, cls(_parse_ctype(parser), name, size, init))


@irdl_op_definition
class AssignOp(IRDLOperation):
    """`place = value;`"""

    name = "sarek_c.assign"
    place = operand_def(ValType)
    value = operand_def(ValType)

    def __init__(self, place: SSAValue, value: SSAValue):
        super().__init__(operands=[place, value])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.place)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> AssignOp:
        place = _operand(parser)
        parser.parse_punctuation("=")
        return _parse_attrs(parser, cls(place, _operand(parser)))


@irdl_op_definition
class EvalOp(OperandSyntax):
    """`expr;`"""

    name = "sarek_c.eval"
    expr = operand_def(ValType)

    def __init__(self, expr: SSAValue):
        super().__init__(operands=[expr])


@irdl_op_definition
class IfOp(IRDLOperation):
    """`if (cond) { then } [else { else }]`"""

    name = "sarek_c.if"
    cond = operand_def(ValType)
    then_region = region_def("single_block")
    else_region = region_def()
    traits = traits_def(NoTerminator())

    def __init__(self, cond: SSAValue, with_else: bool):
        super().__init__(operands=[cond], regions=[_region(), _region() if with_else else Region()])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        _print_attrs(printer, self)
        _print_region(printer, self.then_region)
        if self.else_region.blocks:
            printer.print_string(" else")
            _print_region(printer, self.else_region)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = _operand(parser)
        attrs = _parse_attr_dict(parser)
        then = parser.parse_region()
        with_else = parser.parse_optional_keyword("else") is not None
        op = cls(cond, with_else)
        op.attributes |= attrs
        _move_region(then, op.then_region)
        if with_else:
            _parse_region(parser, op.else_region)
        return op


@irdl_op_definition
class ForOp(IRDLOperation):
    """`for (<ctype> name = lo; name < hi; name += step) { body }` (`>`/`-=` for a negative step); with a
    run-time step `s` (`step %s`): `for (...; (s > 0 && name < hi) || (s < 0 && name > hi); name += s)`. The
    index is the body's block argument."""

    name = "sarek_c.for"
    ctype = prop_def(StringAttr)
    var_name = prop_def(StringAttr)
    step = opt_prop_def(IntegerAttr)
    lo = operand_def(ValType)
    hi = operand_def(ValType)
    dyn_step = opt_operand_def(ValType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, ctype: str, name: str, lo: SSAValue, hi: SSAValue, step: int | SSAValue):
        dynamic = isinstance(step, SSAValue)
        props: dict[str, Attribute] = {"ctype": StringAttr(ctype), "var_name": StringAttr(name)}
        if not dynamic:
            props["step"] = IntegerAttr(step, i32)
        super().__init__(operands=[lo, hi, [step] if dynamic else []], regions=[_region([ValType(ctype)])],
                         properties=props)

    def verify_(self) -> None:
        args = self.body.block.args
        if len(args) != 1 or args[0].type != ValType(self.ctype):
            raise VerifyException(f"sarek_c.for: the body takes one !sarek_c.val<{self.ctype}> argument")
        if (self.step is None) == (self.dyn_step is None):
            raise VerifyException("sarek_c.for: a constant step or a step operand, not both")
        if self.step is not None and self.step.type != i32:
            raise VerifyException("sarek_c.for: step is not an i32")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_block_argument(self.body.block.args[0], print_type=False)
        printer.print_string(" : ")
        printer.print_string_literal(self.ctype.data)
        _print_str(printer, self.var_name)
        printer.print_string(" = ")
        printer.print_operand(self.lo)
        printer.print_string(" to ")
        printer.print_operand(self.hi)
        printer.print_string(" step ")
        if self.dyn_step is not None:
            printer.print_operand(self.dyn_step)
        else:
            printer.print_string(str(self.step.value.data) if self.step is not None else "")
        _print_attrs(printer, self)
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        a = parser.parse_argument(expect_type=False)
        t = _parse_ctype(parser)
        name = parser.parse_str_literal()
        parser.parse_punctuation("=")
        lo = _operand(parser)
        parser.parse_keyword("to")
        hi = _operand(parser)
        parser.parse_keyword("step")
        dyn = _optional_operand(parser)
        op = cls(t, name, lo, hi, dyn if dyn is not None else parser.parse_integer(allow_boolean=False))
        _parse_attrs(parser, op)
        _parse_region(parser, op.body, [a.resolve(ValType(t))])
        return op


@irdl_op_definition
class WhileOp(IRDLOperation):
    """`while (c) { body }` when the condition region holds no statement, else
    `for (;;) { <cond statements> if (!c) break; body }`."""

    name = "sarek_c.while"
    cond_region = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self):
        super().__init__(regions=[_region(), _region()])

    def print(self, printer: Printer) -> None:
        _print_attrs(printer, self)
        _print_region(printer, self.cond_region)
        printer.print_string(" do")
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        op = cls()
        _parse_attrs(parser, op)
        _parse_region(parser, op.cond_region)
        parser.parse_keyword("do")
        _parse_region(parser, op.body)
        return op


@irdl_op_definition
class YieldOp(OperandSyntax):
    """Ends a `sarek_c.while` condition region with the condition value."""

    name = "sarek_c.yield"
    value = operand_def(ValType)
    traits = traits_def(IsTerminator())

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`switch (x) { case L: { ... break; } ... default: { ... break; } }`; label "" is `default`."""

    name = "sarek_c.switch"
    scrutinee = operand_def(ValType)
    labels = prop_def(ArrayAttr[StringAttr])
    cases = var_region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, scrutinee: SSAValue, labels: Sequence[str]):
        super().__init__(operands=[scrutinee], regions=[[_region() for _ in labels]],
                         properties={"labels": _strs(labels)})

    def verify_(self) -> None:
        if len(self.labels) != len(self.cases):
            raise VerifyException("sarek_c.switch: labels and cases differ in length")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.scrutinee)
        _print_attrs(printer, self)
        for label, region in zip(self.labels, self.cases):
            if label.data:
                printer.print_string(" case")
                _print_str(printer, label)
            else:
                printer.print_string(" default")
            _print_region(printer, region)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        x = _operand(parser)
        attrs = _parse_attr_dict(parser)
        labels: list[str] = []
        regions: list[Region] = []
        while True:
            if parser.parse_optional_keyword("case") is not None:
                labels.append(parser.parse_str_literal())
            elif parser.parse_optional_keyword("default") is not None:
                labels.append("")
            else:
                break
            regions.append(parser.parse_region())
        op = cls(x, labels)
        op.attributes |= attrs
        for r, into in zip(regions, op.cases):
            _move_region(r, into)
        return op


@irdl_op_definition
class ReturnOp(OptionalOperandSyntax):
    """`return [value];`"""

    name = "sarek_c.return"
    value = opt_operand_def(ValType)

    def __init__(self, value: SSAValue | None = None):
        super().__init__(operands=[[value] if value is not None else []])


class _Jump(NullarySyntax):
    def __init__(self):
        super().__init__()


@irdl_op_definition
class BreakOp(_Jump):
    """`break;`"""

    name = "sarek_c.break"


@irdl_op_definition
class ContinueOp(_Jump):
    """`continue;`"""

    name = "sarek_c.continue"


@irdl_op_definition
class BlockOp(IRDLOperation):
    """`{ ... }`"""

    name = "sarek_c.block"
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self):
        super().__init__(regions=[_region()])

    def print(self, printer: Printer) -> None:
        _print_attrs(printer, self)
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> BlockOp:
        op = cls()
        _parse_attrs(parser, op)
        _parse_region(parser, op.body)
        return op


@irdl_op_definition
class PragmaOp(StringSyntax):
    """`#pragma <text>` on its own line (the lowering puts it right before a loop)."""

    name = "sarek_c.pragma"
    text = prop_def(StringAttr)

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})


# ------------------------------------------------------------------------------------------------ expressions


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



SarekC = Dialect(
    "sarek_c",
    [VerbatimOp, StructOp, FieldOp, UnionOp, NestedStructOp, EnumOp, FuncOp, DeclOp, ArrayDeclOp, AssignOp,
     EvalOp, IfOp, ForOp, WhileOp, YieldOp, SwitchOp, ReturnOp, BreakOp, ContinueOp, BlockOp, PragmaOp, LitOp,
     BinaryOp, UnaryOp,
     CallOp, CastOp, IndexOp, MemberOp, SelectOp, RecordLitOp, TemplateOp],
    [ValType],
)
