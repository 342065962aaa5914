"""Control flow of the sarek dialect: yield, if/if_expr, while, for, return, break/continue, pragma and block
(scopes and supersteps). Match/match_expr are in sarek.dialect.match; barriers, fences, assert, native text and
print in sarek.dialect.statements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, i1, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import NullarySyntax
from sarek.dialect.opformat import TypedOperandSyntax
from sarek.dialect.opformat import BodyShape, IfShape
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import optional_defined_operand as _optional_operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_typed_operand as _print_typed_operand
from sarek.dialect.syntax import strings as _names
from sarek.dialect.syntax import print_name as _print_name
from sarek.dialect.syntax import parse_str_array as _parse_str_array
from sarek.dialect.syntax import check_name as _check_name
from sarek.dialect.syntax import hint as _hint
from sarek.dialect.syntax import parse_stmt_region as _parse_stmt_region
from sarek.dialect.syntax import print_stmt_region as _print_stmt_region
from sarek.dialect.syntax import print_body as _print_body
from sarek.dialect.syntax import parse_for_range as _parse_for_range
from sarek.dialect.syntax import print_for_range as _print_for_range
from sarek.dialect.types import is_int
from sarek.dialect.declarations import HelperOp, KernelOp, enclosing_function
from sarek.dialect.statements import BarrierOp


@irdl_op_definition
class YieldOp(TypedOperandSyntax):
    """`sarek.yield %v : T` ends the regions of if_expr, match_expr and the while condition."""

    name = "sarek.yield"
    value = operand_def()
    # and HasParent(IfExprOp, MatchExprOp, WhileOp), added by sarek.dialect.sarek (match.py imports this module)
    traits = traits_def(IsTerminator())

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


def yield_of(region: Region, what: str) -> YieldOp:
    """The `sarek.yield` that ends `region` (a verifier error naming `what` without one)."""
    if not region.blocks or not isinstance(region.block.last_op, YieldOp):
        raise VerifyException(f"{what} must end with sarek.yield")
    return region.block.last_op


@irdl_op_definition
class IfOp(IfShape):
    """`sarek.if %c { ... } else { ... }` — a statement conditional (else optional)."""

    name = "sarek.if"
    cond = operand_def(i1)
    traits = traits_def(NoTerminator())

    def __init__(self, cond: SSAValue, then_region: Region | None = None, else_region: Region | None = None):
        super().__init__(operands=[cond], regions=[then_region or Region(Block()), else_region or Region()])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" ")
        _print_stmt_region(printer, self.then_region)
        if self.else_region.blocks:
            printer.print_string(" else ")
            _print_stmt_region(printer, self.else_region)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        c = _operand(parser)
        then = _parse_stmt_region(parser)
        els = _parse_stmt_region(parser) if parser.parse_optional_keyword("else") is not None else Region()
        return _parse_attrs(parser, cls(c, then, els))

    def verify_(self) -> None:
        if len(self.else_region.blocks) > 1:
            raise VerifyException("else region must have at most one block")


@irdl_op_definition
class IfExprOp(IRDLOperation):
    """`%r = sarek.if_expr %c -> f32 { ... sarek.yield %a : f32 } else { ... sarek.yield %b : f32 }` —
    only the taken side is evaluated."""

    name = "sarek.if_expr"
    cond = operand_def(i1)
    result = result_def()
    then_region = region_def("single_block")
    else_region = region_def("single_block")

    def __init__(self, cond: SSAValue, type: Attribute, then_region: Region, else_region: Region):
        super().__init__(operands=[cond], result_types=[type], regions=[then_region, else_region])

    def verify_(self) -> None:
        for r, w in ((self.then_region, "then"), (self.else_region, "else")):
            y = yield_of(r, f"if_expr {w} region")
            if y.value.type != self.result.type:
                raise VerifyException(f"if_expr {w} region yields {y.value.type}, result is {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False)
        printer.print_string(" else ")
        printer.print_region(self.else_region, print_entry_block_args=False)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> IfExprOp:
        c = _operand(parser)
        parser.parse_punctuation("->")
        t = parser.parse_type()
        then = parser.parse_region()
        parser.parse_keyword("else")
        els = parser.parse_region()
        return _parse_attrs(parser, cls(c, t, then, els))


@irdl_op_definition
class WhileOp(IRDLOperation):
    """`sarek.while { ... sarek.yield %c : i1 } do { ... }` — the condition region is re-evaluated before
    every iteration."""

    name = "sarek.while"
    cond_region = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, cond_region: Region, body: Region | None = None):
        super().__init__(regions=[cond_region, body or Region(Block())])

    def verify_(self) -> None:
        y = yield_of(self.cond_region, "while condition")
        if y.value.type != i1:
            raise VerifyException(f"while condition yields {y.value.type}, not i1")
        if self.body.blocks and isinstance(self.body.block.last_op, YieldOp):
            raise VerifyException("while body must not end with sarek.yield")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.cond_region, print_entry_block_args=False)
        printer.print_string(" do ")
        _print_stmt_region(printer, self.body)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        cond = parser.parse_region()
        parser.parse_keyword("do")
        return _parse_attrs(parser, cls(cond, _parse_stmt_region(parser)))


@irdl_op_definition
class ForOp(BodyShape):
    """`sarek.for "i" %i = %lo to %hi step 1 : i32 { ... }` — half-open, a constant non-zero step (Python
    `range`); `... step %s : i32 { ... }` — a run-time step `%s` (Python `range` too: its sign decides the
    direction; a zero step runs no iteration, debug builds check it before the loop). The index is the body's
    block argument."""

    name = "sarek.for"
    T: ClassVar = VarConstraint("T", AnyAttr())
    sym = prop_def(StringAttr, prop_name="name")
    step = opt_prop_def(IntegerAttr)
    lo = operand_def(T)
    hi = operand_def(T)
    dyn_step = var_operand_def(T)
    traits = traits_def(NoTerminator())

    def __init__(self, name: str, lo: SSAValue, hi: SSAValue, step: int | SSAValue = 1, body: Region | None = None):
        if body is None:
            body = Region(Block(arg_types=[lo.type]))
            _hint(body.block.args[0], name)
        props: dict[str, Attribute] = {"name": StringAttr(name)}
        if not isinstance(step, SSAValue):
            props["step"] = IntegerAttr(step, cast(IntegerType, lo.type) if is_int(lo.type) else i32)
        super().__init__(operands=[lo, hi, [step] if isinstance(step, SSAValue) else []], regions=[body],
                         properties=props)

    @property
    def index(self) -> BlockArgument:
        return self.body.block.args[0]

    @property
    def step_value(self) -> int | None:
        """The constant step; None for a run-time step (`step_operand`)."""
        return self.step.value.data if self.step is not None else None

    @property
    def step_operand(self) -> SSAValue:
        """The run-time step (only when `step_value` is None)."""
        return self.dyn_step[0]

    @property
    def step_operands(self) -> tuple[SSAValue, ...]:
        """The run-time step, if any, as a tuple (empty for a constant step)."""
        return tuple(self.dyn_step)

    def verify_(self) -> None:
        _check_name(self.sym, "for index")
        if not is_int(self.lo.type):
            raise VerifyException(f"for bounds must be i32 or i64, got {self.lo.type}")
        if (self.step is None) == (len(self.dyn_step) == 0):
            raise VerifyException("for needs one step: a constant or an operand")
        if len(self.dyn_step) > 1:
            raise VerifyException("for takes at most one step operand")
        if self.step_value == 0:
            raise VerifyException("for step must be non-zero")
        if len(self.body.block.args) != 1 or self.body.block.args[0].type != self.lo.type:
            raise VerifyException(f"for body must take one {self.lo.type} argument (the index)")

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.sym)
        printer.print_string(" ")
        printer.print_operand(self.index)
        _print_for_range(printer, self.lo, self.hi, self.dyn_step[0] if self.dyn_step else str(self.step_value))
        printer.print_string(" : ")
        printer.print_attribute(self.lo.type)
        _print_body(printer, self, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        name = parser.parse_str_literal()
        idx = parser.parse_argument(expect_type=False)
        lo, hi, step = _parse_for_range(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        body = _parse_stmt_region(parser, [idx.resolve(t)])
        if not body.block.args:
            body.block.insert_arg(t, 0)
        return _parse_attrs(parser, cls(name, lo, hi, step, body))


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sarek.return %v : f32` / `sarek.return` — leaves the enclosing helper or kernel (any nesting depth; a
    kernel's return has no value)."""

    name = "sarek.return"
    value = var_operand_def()

    def __init__(self, value: SSAValue | None = None):
        super().__init__(operands=[[value] if value is not None else []])

    def verify_(self) -> None:
        f = enclosing_function(self)
        if isinstance(f, KernelOp):
            if self.value:
                raise VerifyException(f"kernel @{f.sym_name.data} returns nothing, the return gives {self.value[0].type}")
            return
        if not isinstance(f, HelperOp):
            raise VerifyException("sarek.return is only allowed inside a sarek.kernel or sarek.helper")
        want = [] if f.returns_unit else [f.return_type]
        got = [v.type for v in self.value]
        if got != want:
            raise VerifyException(f"helper @{f.sym_name.data} returns {f.return_type}, "
                                  f"the return gives {', '.join(map(str, got)) or 'nothing'}")

    def print(self, printer: Printer) -> None:
        if self.value:
            _print_typed_operand(printer, self.value[0])
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        v = _optional_operand(parser)
        if v is not None:
            _parse_type_of(parser, v)
        return _parse_attrs(parser, cls(v))


@irdl_op_definition
class PragmaOp(BodyShape):
    """`sarek.pragma ["unroll"] { ... }` — hints for the enclosed statements (printed as `#pragma`)."""

    name = "sarek.pragma"
    hints = prop_def(ArrayAttr[StringAttr])
    traits = traits_def(NoTerminator())

    def __init__(self, hints: Sequence[str], body: Region | None = None):
        super().__init__(properties={"hints": _names(hints)}, regions=[body or Region(Block())])

    def verify_(self) -> None:
        for h in self.hints:
            _check_name(h, "pragma hint")
            if any(not " " <= c <= "~" or c == "\\" for c in h.data):
                raise VerifyException(f"pragma hint {h.data!r} must be printable ASCII on one line (it is printed "
                                      "as a #pragma line; a line break would start code of its own)")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.hints)
        _print_body(printer, self, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> PragmaOp:
        hints = _parse_str_array(parser, "pragma hints")
        return _parse_attrs(parser, cls(hints, _parse_stmt_region(parser)))


@irdl_op_definition
class BlockOp(BodyShape):
    """`sarek.block { ... }` — an explicit scope; `sarek.block superstep { ... }` /
    `sarek.block superstep divergent { ... }` — the body of a superstep (Sarek's `let%superstep` /
    `let%superstep [@divergent]`, Python's `with superstep():` / `with superstep(divergent=True):`), which
    the superstep's implicit barrier, a separate `sarek.barrier`, must immediately follow.

    The optional `superstep` property is "" for a superstep, "divergent" for a divergent one; it changes
    nothing at run time (interpreters and lowerings treat the op as a scope) and is what
    sarek-verify-barriers checks: a non-divergent superstep's body may not branch on a thread-varying
    value.
    """

    name = "sarek.block"
    superstep = opt_prop_def(StringAttr)
    traits = traits_def(NoTerminator())

    SUPERSTEP_KINDS: ClassVar[tuple[str, ...]] = ("", "divergent")

    def __init__(self, body: Region | None = None, superstep: str | None = None):
        props: dict[str, Attribute] = {} if superstep is None else {"superstep": StringAttr(superstep)}
        super().__init__(regions=[body or Region(Block())], properties=props)

    @property
    def is_superstep(self) -> bool:
        return self.superstep is not None

    @property
    def is_divergent_superstep(self) -> bool:
        return self.superstep is not None and self.superstep.data == "divergent"

    def verify_(self) -> None:
        if self.superstep is None:
            return
        if self.superstep.data not in self.SUPERSTEP_KINDS:
            raise VerifyException(f"superstep kind must be \"\" or \"divergent\", got \"{self.superstep.data}\"")
        if not isinstance(self.next_op, BarrierOp):
            raise VerifyException("a superstep sarek.block must be followed by its implicit sarek.barrier")

    def print(self, printer: Printer) -> None:
        if self.superstep is not None:
            printer.print_string(" superstep")
            if self.superstep.data == "divergent":
                printer.print_string(" divergent")
            elif self.superstep.data:  # not a valid kind: kept as a string so that the verifier can name it
                printer.print_string(" ")
                printer.print_string_literal(self.superstep.data)
        _print_body(printer, self, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> BlockOp:
        kind = None
        if parser.parse_optional_keyword("superstep") is not None:
            kind = "divergent" if parser.parse_optional_keyword("divergent") is not None else \
                parser.parse_optional_str_literal() or ""
        op = cls(_parse_stmt_region(parser), kind)
        _parse_attrs(parser, op)
        return op


def enclosing_loop(op: Operation) -> ForOp | WhileOp | str:
    """The loop whose body holds `op` (at any depth of statement regions), or why there is none: "function"
    (no loop in its function), "value" (an if_expr / match_expr region comes first) or "condition" (a while
    condition comes first)."""
    region = op.parent_region()
    while region is not None:
        p = region.parent_op()
        if p is None or isinstance(p, KernelOp | HelperOp | ModuleOp):
            return "function"
        if isinstance(p, ForOp):
            return p
        if isinstance(p, WhileOp):
            return p if region is p.body else "condition"
        if p.results:  # sarek.if_expr, sarek.match_expr: a region that gives a value
            return "value"
        region = p.parent_region()
    return "function"


class _LoopExit(NullarySyntax):
    """`sarek.break` / `sarek.continue`: leave the innermost enclosing loop / its current iteration."""

    @property
    def loop(self) -> ForOp | WhileOp:
        """The loop this op leaves (the op verifies)."""
        loop = enclosing_loop(self)
        assert not isinstance(loop, str), f"{self.name} outside a loop"
        return loop

    def verify_(self) -> None:
        where = enclosing_loop(self)
        if where == "function":
            raise VerifyException(f"{self.name} must be inside the body of a sarek.while or sarek.for of its function")
        if where == "value":
            raise VerifyException(f"{self.name} cannot leave a value region (sarek.if_expr / sarek.match_expr)")
        if where == "condition":
            raise VerifyException(f"{self.name} cannot be in the condition of a sarek.while")


@irdl_op_definition
class BreakOp(_LoopExit):
    """`sarek.break` — leaves the innermost enclosing `sarek.while` / `sarek.for` (any statement nesting)."""

    name = "sarek.break"


@irdl_op_definition
class ContinueOp(_LoopExit):
    """`sarek.continue` — ends the current iteration of the innermost enclosing loop (a `for` then steps its
    index, a `while` re-evaluates its condition)."""

    name = "sarek.continue"
