"""`sarek_c` statements: declarations of variables and arrays, assignment, evaluation, if, for, while, switch,
return/break/continue, blocks and pragmas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import BodyShape, FormatSyntax, IfShape, NullarySyntax, OptionalOperandSyntax
from sarek.dialect.opformat import StringSyntax
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attr_dict as _parse_attr_dict
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscript as _parse_subscript
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import parse_for_range as _parse_for_range
from sarek.dialect.syntax import print_for_range as _print_for_range
from sarek.dialect.syntax import print_subscript as _print_subscript
from sarek.dialect.syntax import strings as _strs
from sarek.targets.cfamily.syntax import RegionsSyntax, ValType
from sarek.targets.cfamily.syntax import move_region as _move_region
from sarek.targets.cfamily.syntax import parse_ctype as _parse_ctype
from sarek.targets.cfamily.syntax import parse_region as _parse_region
from sarek.targets.cfamily.syntax import print_ctype as _print_ctype
from sarek.targets.cfamily.syntax import print_region as _print_region
from sarek.targets.cfamily.syntax import print_str as _print_str
from sarek.targets.cfamily.syntax import region as _region


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
        _print_ctype(printer, self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ArrayDeclOp:
        name = parser.parse_str_literal()
        size = _parse_subscript(parser)
        init = parser.parse_str_literal() if parser.parse_optional_punctuation("=") is not None else ""
        return _parse_attrs(parser, cls(_parse_ctype(parser), name, size, init))


@irdl_op_definition
class AssignOp(FormatSyntax):
    """`place = value;`"""

    name = "sarek_c.assign"
    FORMAT: ClassVar[str] = "$place = $value"
    place = operand_def(ValType)
    value = operand_def(ValType)


@irdl_op_definition
class EvalOp(FormatSyntax):
    """`expr;`"""

    name = "sarek_c.eval"
    FORMAT: ClassVar[str] = "$expr"
    expr = operand_def(ValType)


@irdl_op_definition
class IfOp(IfShape):
    """`if (cond) { then } [else { else }]`"""

    name = "sarek_c.if"
    cond = operand_def(ValType)
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
class ForOp(BodyShape):
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
        step = str(self.step.value.data) if self.step is not None else ""
        _print_for_range(printer, self.lo, self.hi, self.dyn_step if self.dyn_step is not None else step)
        _print_attrs(printer, self)
        _print_region(printer, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        a = parser.parse_argument(expect_type=False)
        t = _parse_ctype(parser)
        name = parser.parse_str_literal()
        op = cls(t, name, *_parse_for_range(parser))
        _parse_attrs(parser, op)
        _parse_region(parser, op.body, [a.resolve(ValType(t))])
        return op


@irdl_op_definition
class WhileOp(RegionsSyntax):
    """`while (c) { body }` when the condition region holds no statement, else
    `for (;;) { <cond statements> if (!c) break; body }`."""

    name = "sarek_c.while"
    JOINS: ClassVar[tuple[str, ...]] = ("do",)
    cond_region = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())


@irdl_op_definition
class YieldOp(FormatSyntax):
    """Ends a `sarek_c.while` condition region with the condition value."""

    name = "sarek_c.yield"
    FORMAT: ClassVar[str] = "$value"
    value = operand_def(ValType)
    traits = traits_def(IsTerminator())


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


@irdl_op_definition
class BreakOp(NullarySyntax):
    """`break;`"""

    name = "sarek_c.break"


@irdl_op_definition
class ContinueOp(NullarySyntax):
    """`continue;`"""

    name = "sarek_c.continue"


@irdl_op_definition
class BlockOp(RegionsSyntax, BodyShape):
    """`{ ... }`"""

    name = "sarek_c.block"
    traits = traits_def(NoTerminator())


@irdl_op_definition
class PragmaOp(StringSyntax):
    """`#pragma <text>` on its own line (the lowering puts it right before a loop)."""

    name = "sarek_c.pragma"
