"""`sarek_c`: the C-family target dialect (CUDA, HIP, OpenCL C, Metal) — a small C syntax tree.

Everything language-specific is already decided when these ops exist: every type is the C type text
(`!sarek_c.val<"float">`), every builtin, qualifier and parameter declaration is spelled out, and every
temporary is an explicit `sarek_c.decl`. The printer (sarek/targets/cfamily/printer.py) only prints.

Expressions are SSA values: an expression op is printed where it is used (the lowering only lets an
expression be used once unless it is a name or a literal); statement ops are printed in order. Names: the
result of `sarek_c.decl`/`sarek_c.array_decl` and the block arguments of `sarek_c.func` (named by
`param_names`) and `sarek_c.for` (named by `name`) print as their name.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Block, Dialect, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
)
from xdsl.traits import IsTerminator, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException


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


def _strs(xs: Sequence[str]) -> ArrayAttr[StringAttr]:
    return ArrayAttr(StringAttr(x) for x in xs)


def _region(args: Sequence[Attribute] = ()) -> Region:
    return Region(Block(arg_types=args))


# ------------------------------------------------------------------------------------------------ top level


@irdl_op_definition
class VerbatimOp(IRDLOperation):
    """Lines of source printed as they are (headers, pragmas, `extern "C" {`, native text)."""

    name = "sarek_c.verbatim"
    text = prop_def(StringAttr)

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})


@irdl_op_definition
class StructOp(IRDLOperation):
    """`typedef struct { <members> } name;` — members are `sarek_c.field`, `sarek_c.union`,
    `sarek_c.nested_struct`."""

    name = "sarek_c.struct"
    struct_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, name: str):
        super().__init__(properties={"struct_name": StringAttr(name)}, regions=[_region()])


@irdl_op_definition
class FieldOp(IRDLOperation):
    """`T name;` inside a struct or union."""

    name = "sarek_c.field"
    ctype = prop_def(StringAttr)
    field_name = prop_def(StringAttr)

    def __init__(self, ctype: str, name: str):
        super().__init__(properties={"ctype": StringAttr(ctype), "field_name": StringAttr(name)})


class _MemberGroup(IRDLOperation):
    member_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, name: str):
        super().__init__(properties={"member_name": StringAttr(name)}, regions=[_region()])


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


@irdl_op_definition
class AssignOp(IRDLOperation):
    """`place = value;`"""

    name = "sarek_c.assign"
    place = operand_def(ValType)
    value = operand_def(ValType)

    def __init__(self, place: SSAValue, value: SSAValue):
        super().__init__(operands=[place, value])


@irdl_op_definition
class EvalOp(IRDLOperation):
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


@irdl_op_definition
class ForOp(IRDLOperation):
    """`for (<ctype> name = lo; name < hi; name += step) { body }` (`>`/`-=` for a negative step);
    the index is the body's block argument."""

    name = "sarek_c.for"
    ctype = prop_def(StringAttr)
    var_name = prop_def(StringAttr)
    step = prop_def(IntegerAttr)
    lo = operand_def(ValType)
    hi = operand_def(ValType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, ctype: str, name: str, lo: SSAValue, hi: SSAValue, step: int):
        super().__init__(operands=[lo, hi], regions=[_region([ValType(ctype)])],
                         properties={"ctype": StringAttr(ctype), "var_name": StringAttr(name),
                                     "step": IntegerAttr(step, i32)})


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


@irdl_op_definition
class YieldOp(IRDLOperation):
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


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`return [value];`"""

    name = "sarek_c.return"
    value = opt_operand_def(ValType)

    def __init__(self, value: SSAValue | None = None):
        super().__init__(operands=[[value] if value is not None else []])


@irdl_op_definition
class BlockOp(IRDLOperation):
    """`{ ... }`"""

    name = "sarek_c.block"
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self):
        super().__init__(regions=[_region()])


@irdl_op_definition
class PragmaOp(IRDLOperation):
    """`#pragma <text>` on its own line (the lowering puts it right before a loop)."""

    name = "sarek_c.pragma"
    text = prop_def(StringAttr)

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})


# ------------------------------------------------------------------------------------------------ expressions


class _Expr(IRDLOperation):
    result = result_def(ValType)


@irdl_op_definition
class LitOp(_Expr):
    """A literal or a name, printed as its text."""

    name = "sarek_c.lit"
    text = prop_def(StringAttr)
    traits = traits_def(Pure())

    def __init__(self, text: str, ctype: str):
        super().__init__(result_types=[ValType(ctype)], properties={"text": StringAttr(text)})


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


@irdl_op_definition
class UnaryOp(_Expr):
    """`(<op>x)`"""

    name = "sarek_c.unary"
    op = prop_def(StringAttr)
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, op: str, x: SSAValue, ctype: str):
        super().__init__(operands=[x], result_types=[ValType(ctype)], properties={"op": StringAttr(op)})


@irdl_op_definition
class CallOp(_Expr):
    """`callee(args)`"""

    name = "sarek_c.call"
    callee = prop_def(StringAttr)
    args = var_operand_def(ValType)

    def __init__(self, callee: str, args: Sequence[SSAValue], ctype: str):
        super().__init__(operands=[args], result_types=[ValType(ctype)], properties={"callee": StringAttr(callee)})


@irdl_op_definition
class CastOp(_Expr):
    """`(T)x`, T the result's C type."""

    name = "sarek_c.cast"
    operand = operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, x: SSAValue, ctype: str):
        super().__init__(operands=[x], result_types=[ValType(ctype)])


@irdl_op_definition
class IndexOp(_Expr):
    """`base[index]` (a place)."""

    name = "sarek_c.index"
    base = operand_def(ValType)
    index = operand_def(ValType)

    def __init__(self, base: SSAValue, index: SSAValue, ctype: str):
        super().__init__(operands=[base, index], result_types=[ValType(ctype)])


@irdl_op_definition
class MemberOp(_Expr):
    """`base.field` (a place when base is one)."""

    name = "sarek_c.member"
    base = operand_def(ValType)
    field = prop_def(StringAttr)

    def __init__(self, base: SSAValue, field: str, ctype: str):
        super().__init__(operands=[base], result_types=[ValType(ctype)], properties={"field": StringAttr(field)})


@irdl_op_definition
class SelectOp(_Expr):
    """`(c ? a : b)` — only the chosen side is evaluated."""

    name = "sarek_c.select"
    cond = operand_def(ValType)
    a = operand_def(ValType)
    b = operand_def(ValType)

    def __init__(self, cond: SSAValue, a: SSAValue, b: SSAValue, ctype: str):
        super().__init__(operands=[cond, a, b], result_types=[ValType(ctype)])


@irdl_op_definition
class RecordLitOp(_Expr):
    """`(T){a, b}` or, with field names, `(T){.x = a, .y = b}`."""

    name = "sarek_c.record_lit"
    fields = prop_def(ArrayAttr[StringAttr])
    values = var_operand_def(ValType)
    traits = traits_def(Pure())

    def __init__(self, ctype: str, fields: Sequence[str], values: Sequence[SSAValue]):
        super().__init__(operands=[values], result_types=[ValType(ctype)], properties={"fields": _strs(fields)})


@irdl_op_definition
class TemplateOp(_Expr):
    """A spelled-out expression with `{0}`, `{1}` ... standing for the operands (builtins, atomics)."""

    name = "sarek_c.expr"
    template = prop_def(StringAttr)
    args = var_operand_def(ValType)

    def __init__(self, template: str, args: Sequence[SSAValue], ctype: str):
        super().__init__(operands=[args], result_types=[ValType(ctype)], properties={"template": StringAttr(template)})


SarekC = Dialect(
    "sarek_c",
    [VerbatimOp, StructOp, FieldOp, UnionOp, NestedStructOp, EnumOp, FuncOp, DeclOp, ArrayDeclOp, AssignOp,
     EvalOp, IfOp, ForOp, WhileOp, YieldOp, SwitchOp, ReturnOp, BlockOp, PragmaOp, LitOp, BinaryOp, UnaryOp,
     CallOp, CastOp, IndexOp, MemberOp, SelectOp, RecordLitOp, TemplateOp],
    [ValType],
)
