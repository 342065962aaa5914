"""Values of the sarek dialect built by name: intrinsics (sarek.dialect.intrinsics' table), record and variant
constructors, and helper calls; they share the call syntax `(%a, %b) : (A, B) -> R` where they have results."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.syntax import OpT as _OpT
from sarek.dialect.syntax import operand_list as _operand_list
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_operand_list as _print_operand_list
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import symbol_text as _sym
from sarek.dialect.types import (
    ArrayType,
    MemSpace,
    RecordType,
    UnitType,
    VariantType,
)
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.declarations import HelperOp, lookup_decl, record_decl, variant_decl


@irdl_op_definition
class IntrinsicOp(IRDLOperation):
    """`%r = sarek.intrinsic "sqrt"(%x) : (f32) -> f32` — thread/block/grid ids, math, atomics (returning
    the old value), warp shuffles, lane_id and warp_size; see sarek.dialect.intrinsics."""

    name = "sarek.intrinsic"
    callee = prop_def(StringAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], result_type: Attribute | None = None):
        if result_type is None:
            info = INTRINSICS.get(callee)
            r = info.check([a.type for a in args]) if info and len(args) == info.arity else None
            if not isinstance(r, Attribute):
                raise ValueError(f"cannot infer the type of intrinsic '{callee}'")
            result_type = r
        super().__init__(operands=[args], result_types=[[result_type]], properties={"callee": StringAttr(callee)})

    @property
    def result(self) -> SSAValue:
        return self.res[0]

    @property
    def info(self):
        return INTRINSICS[self.callee.data]

    def verify_(self) -> None:
        info = INTRINSICS.get(self.callee.data)
        if info is None:
            raise VerifyException(f"unknown intrinsic '{self.callee.data}'")
        if len(self.args) != info.arity:
            raise VerifyException(f"intrinsic '{info.name}' expects {info.arity} operand(s), got {len(self.args)}")
        r = info.check([a.type for a in self.args])
        if isinstance(r, str):
            raise VerifyException(f"intrinsic '{info.name}' {r}")
        if len(self.res) != 1 or self.res[0].type != r:
            got = ", ".join(str(x.type) for x in self.res) or "nothing"
            raise VerifyException(f"intrinsic '{info.name}' returns {r}, not {got}")
        if info.category == Category.ATOMIC and isinstance(self.args[0].type, ArrayType) \
                and self.args[0].type.memspace == MemSpace.LOCAL:
            raise VerifyException(f"intrinsic '{info.name}' on a local (private) array")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.callee.data)
        _print_call(printer, self, self.args, self.res)

    @classmethod
    def parse(cls, parser: Parser) -> IntrinsicOp:
        return _parse_call(parser, cls, StringAttr(parser.parse_str_literal()))


def _print_call(printer: Printer, op: Operation, args: Sequence[SSAValue], res: Sequence[SSAValue]) -> None:
    """The arguments and the function type of a call, `(%a, %b) : (A, B) -> R`, and the attributes."""
    _print_operand_list(printer, args)
    printer.print_string(" : ")
    printer.print_function_type([a.type for a in args], [r.type for r in res])
    _print_attrs(printer, op)


def _parse_call(parser: Parser, cls: type[_OpT], callee: Attribute) -> _OpT:
    """What `_print_call` prints; the op gets the `callee` property."""
    args = _operand_list(parser)
    parser.parse_punctuation(":")
    pos = parser.pos
    ft = parser.parse_function_type()
    if [a.type for a in args] != list(ft.inputs.data):
        _raise_since(parser, "operand types do not match the function type", pos)
    op = cls.create(operands=args, result_types=list(ft.outputs.data), properties={"callee": callee})
    _parse_attrs(parser, op)
    return op


def has_atomic(op: Operation) -> bool:
    """True when `op` is an atomic intrinsic (the only expressions with side effects)."""
    return isinstance(op, IntrinsicOp) and op.callee.data in INTRINSICS and \
        INTRINSICS[op.callee.data].category == Category.ATOMIC


@irdl_op_definition
class MakeRecordOp(IRDLOperation):
    """`%p = sarek.make_record @point(%x, %y)` — fields in declaration order."""

    name = "sarek.make_record"
    fields = var_operand_def()
    result = result_def(RecordType)
    traits = traits_def(Pure())

    def __init__(self, record: str, fields: Sequence[SSAValue]):
        super().__init__(operands=[fields], result_types=[RecordType(record)])

    @property
    def record_type(self) -> RecordType:
        return self.result.type

    def verify_(self) -> None:
        d = record_decl(self, self.record_type)
        if len(d.fields) != len(self.fields):
            raise VerifyException(f"record @{d.sym_name.data} has {len(d.fields)} field(s), "
                                  f"{len(self.fields)} given")
        for (n, t), v in zip(d.fields, self.fields):
            if v.type != t:
                raise VerifyException(f"field '{n}' of @{d.sym_name.data} has type {t}, given {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.record_type.decl_name)}")
        _print_operand_list(printer, self.fields)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> MakeRecordOp:
        name = parser.parse_symbol_name().data
        return _parse_attrs(parser, cls(name, _operand_list(parser)))


@irdl_op_definition
class MakeVariantOp(IRDLOperation):
    """`%s = sarek.make_variant @shape "Circle"(%r)`."""

    name = "sarek.make_variant"
    ctor = prop_def(StringAttr)
    payload = var_operand_def()
    result = result_def(VariantType)
    traits = traits_def(Pure())

    def __init__(self, variant: str, ctor: str, payload: Sequence[SSAValue]):
        super().__init__(operands=[payload], result_types=[VariantType(variant)],
                         properties={"ctor": StringAttr(ctor)})

    @property
    def variant_type(self) -> VariantType:
        return self.result.type

    def verify_(self) -> None:
        d = variant_decl(self, self.variant_type)
        ps = d.payload(self.ctor.data)
        if ps is None:
            raise VerifyException(f"variant @{d.sym_name.data} has no constructor '{self.ctor.data}'")
        if len(ps) != len(self.payload):
            raise VerifyException(f"constructor '{self.ctor.data}' takes {len(ps)} payload value(s), "
                                  f"{len(self.payload)} given")
        for i, (t, v) in enumerate(zip(ps, self.payload)):
            if v.type != t:
                raise VerifyException(f"payload {i} of '{self.ctor.data}' has type {t}, given {v.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.variant_type.decl_name)} ")
        printer.print_string_literal(self.ctor.data)
        _print_operand_list(printer, self.payload)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> MakeVariantOp:
        name = parser.parse_symbol_name().data
        ctor = parser.parse_str_literal()
        return _parse_attrs(parser, cls(name, ctor, _operand_list(parser)))


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = sarek.call @h(%a) : (f32) -> f32`; a unit helper's call has no result."""

    name = "sarek.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], return_type: Attribute):
        super().__init__(operands=[args], result_types=[[] if isinstance(return_type, UnitType) else [return_type]],
                         properties={"callee": SymbolRefAttr(callee)})

    @property
    def callee_name(self) -> str:
        return self.callee.root_reference.data

    def helper(self) -> HelperOp:
        h = lookup_decl(self, self.callee_name)
        if not isinstance(h, HelperOp):
            raise VerifyException(f"@{self.callee_name} is not a sarek.helper")
        return h

    def verify_(self) -> None:
        h = self.helper()
        ps = [a.type for a in h.body.block.args]
        if len(ps) != len(self.args):
            raise VerifyException(f"helper @{self.callee_name} takes {len(ps)} argument(s), {len(self.args)} given")
        for i, (t, a) in enumerate(zip(ps, self.args)):
            if a.type != t:
                raise VerifyException(f"argument {i} of @{self.callee_name} has type {t}, given {a.type}")
        want = [] if h.returns_unit else [h.return_type]
        if [r.type for r in self.res] != want:
            raise VerifyException(f"helper @{self.callee_name} returns {h.return_type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{_sym(self.callee_name)}")
        _print_call(printer, self, self.args, self.res)

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        return _parse_call(parser, cls, SymbolRefAttr(parser.parse_symbol_name().data))
