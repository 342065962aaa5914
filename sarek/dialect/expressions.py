"""Expressions of the sarek dialect computed from values: constants, unary/binary operators, casts and
bitcasts (the values built by name, intrinsics, constructors and calls, are sarek.dialect.calls')."""

from __future__ import annotations

from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
    i1,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from sarek.dialect import scalars as _scalars
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import operand_seq as _operand_seq
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_type_at as _parse_type_at
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_typed_tail as _print_typed_tail
from sarek.dialect.syntax import print_typed_operand as _print_typed_operand
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.types import (
    UnitType,
    is_float,
    is_integer_type,
    is_scalar_type,
    scalar_width,
)


def _promoted(t: Attribute) -> str:
    """The hint of an arithmetic verifier error on a storage type: what C promotes it to first."""
    p = _scalars.promote(t)
    return f" (arithmetic on {t} is done in {p}: cast the operands first)" if p != t else ""


class BinOpKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    REM = "rem"
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    AND = "and"
    OR = "or"
    SHL = "shl"
    SHR = "shr"
    BITAND = "bitand"
    BITOR = "bitor"
    BITXOR = "bitxor"


COMPARISONS = {BinOpKind.EQ, BinOpKind.NE, BinOpKind.LT, BinOpKind.LE, BinOpKind.GT, BinOpKind.GE}
INT_ONLY = {BinOpKind.SHL, BinOpKind.SHR, BinOpKind.BITAND, BinOpKind.BITOR, BinOpKind.BITXOR, BinOpKind.REM}
BOOL_ONLY = {BinOpKind.AND, BinOpKind.OR}


class UnOpKind(StrEnum):
    NEG = "neg"
    NOT = "not"
    BITNOT = "bitnot"


@irdl_attr_definition
class BinOpKindAttr(EnumAttribute[BinOpKind], SpacedOpaqueSyntaxAttribute):
    name = "sarek.binop_kind"


@irdl_attr_definition
class UnOpKindAttr(EnumAttribute[UnOpKind], SpacedOpaqueSyntaxAttribute):
    name = "sarek.unop_kind"


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A literal: `sarek.constant 1 : i32`, `sarek.constant 2.5 : f32`, `sarek.constant true`,
    `sarek.constant unit`."""

    name = "sarek.constant"
    value = prop_def(AnyAttr())
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: Attribute, type: Attribute | None = None):
        if type is None:
            if isinstance(value, IntegerAttr | FloatAttr):
                type = cast(IntegerAttr | FloatAttr, value).type
            elif isinstance(value, UnitAttr):
                type = UnitType()
            else:
                raise ValueError(f"no type for constant {value}")
        props: dict[str, Attribute] = {"value": value}
        super().__init__(properties=props, result_types=[type])

    @classmethod
    def from_value(cls, v: int | float | bool | None, type: Attribute) -> ConstantOp:
        if isinstance(type, UnitType):
            return cls(UnitAttr(), type)
        if is_integer_type(type):
            return cls(IntegerAttr(int(v or 0), type), type)
        return cls(FloatAttr(float(v or 0.0), cast(Float32Type, type)), type)

    def verify_(self) -> None:
        t, v = self.result.type, self.value
        if isinstance(t, UnitType):
            ok = isinstance(v, UnitAttr)
        elif is_integer_type(t) and is_scalar_type(t):
            ok = isinstance(v, IntegerAttr) and cast(IntegerAttr, v).type == t
        elif is_float(t):
            ok = isinstance(v, FloatAttr) and cast(FloatAttr, v).type == t
        else:
            ok = False
        if not ok:
            raise VerifyException(f"constant {v} does not fit result type {t}")

    def print(self, printer: Printer) -> None:
        t, v = self.result.type, self.value
        if isinstance(t, UnitType):
            printer.print_string(" unit")
        elif t == i1 and isinstance(v, IntegerAttr):
            printer.print_string(" true" if v.value.data else " false")
        elif isinstance(v, IntegerAttr):
            printer.print_string(f" {v.value.data} : ")
            printer.print_attribute(t)
        elif isinstance(v, FloatAttr):
            printer.print_string(" ")
            printer.print_string(_float_text(v.value.data, cast(FloatAttr, v).type))
            printer.print_string(" : ")
            printer.print_attribute(t)
        else:
            printer.print_string(" ")
            printer.print_attribute(v)
            printer.print_string(" : ")
            printer.print_attribute(t)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        if parser.parse_optional_keyword("unit") is not None:
            op = cls(UnitAttr(), UnitType())
        elif (b := parser.parse_optional_boolean()) is not None:
            op = cls(IntegerAttr(int(b), i1), i1)
        else:
            hexa = parser._current_token.text[:2] in ("0x", "0X")  # pyright: ignore[reportPrivateUsage]
            npos = parser.pos
            num = parser.parse_number()
            nend = parser.pos
            t, tpos = _parse_type_at(parser)
            if is_integer_type(t):
                if isinstance(num, float):
                    _raise_since(parser, f"integer constant expected for type {t}", npos, nend)
                w = t.width.data
                unsigned = w == 1 or t.signedness.data == Signedness.UNSIGNED
                lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
                if not lo <= num <= hi:
                    _raise_since(parser, f"integer constant {num} does not fit {t}", npos, nend)
                op = cls(IntegerAttr(num, t), t)
            elif is_float(t):
                ft = cast(Float32Type, t)
                if hexa:  # a bit pattern, as printed for NaN and infinities
                    if not 0 <= int(num) < 1 << (8 * ft.compile_time_size):
                        _raise_since(parser, f"hexadecimal constant does not fit {t}", npos, nend)
                    num = next(ft.iter_unpack(int(num).to_bytes(ft.compile_time_size, "little")))
                try:
                    op = cls(FloatAttr(float(num), ft), t)
                except OverflowError:
                    _raise_since(parser, f"float constant {num} does not fit {t}", npos, nend)
            else:
                _raise_since(parser, f"constant of type {t} is not supported", tpos)
        _parse_attrs(parser, op)
        return op


def _float_text(x: float, t: Attribute) -> str:
    """The shortest decimal that reads back as `x` at the width of `t` (f16 and f32 values are stored as the
    f64 they convert to exactly: reading a literal rounds it to f64, then to `t`), spelled as Python's repr
    with a '.' (MLIR float literals need one); NaN and infinities as their bit pattern in type t."""
    import math

    ft = cast(Float32Type, t)
    if math.isnan(x) or math.isinf(x):
        return "0x" + ft.pack((x,))[::-1].hex().upper()
    r = repr(x if ft.bitwidth == 64 else _shortest_at_width(x, ft))
    if "." in r:
        return r
    m, e, x10 = r.partition("e")
    return m + ".0" + e + x10


def _shortest_at_width(x: float, ft: Float32Type) -> float:
    """The f64 of the shortest decimal that reads back as `x` in `ft` (its repr is that decimal): with p + 1
    digits, x rounded to p + 1 digits or a neighbour of that (when x's rounding interval is lopsided)."""
    import math
    from decimal import Decimal

    for p in range(17):
        mant, _, exp = f"{abs(x):.{p}e}".partition("e")
        n = int(mant.replace(".", ""))
        for k in (n, n - 1, n + 1):
            d = math.copysign(float(Decimal(k).scaleb(int(exp) - p)), x)
            try:
                if ft.unpack(ft.pack((d,)), 1)[0] == x:
                    return d
            except OverflowError:  # beyond the largest finite value of ft
                pass
    return x


def _is_zero(v: SSAValue) -> bool:
    """v is a `sarek.constant 0` (an integer divisor known to be zero)."""
    return isinstance(v.owner, ConstantOp) and isinstance(v.owner.value, IntegerAttr) and \
        cast("IntegerAttr[IntegerType]", v.owner.value).value.data == 0


@irdl_op_definition
class BinOp(IRDLOperation):
    """`%r = sarek.binop add %a, %b : i32` — C semantics: integer div/rem truncate toward zero, shr is
    arithmetic on signed types, comparisons give i1. `and`/`or` take i1 values already evaluated; front
    ends express short-circuit with `sarek.if_expr`."""

    name = "sarek.binop"
    T: ClassVar = VarConstraint("T", AnyAttr())
    kind = prop_def(BinOpKindAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, kind: BinOpKind | str, lhs: SSAValue, rhs: SSAValue):
        k = BinOpKind(kind)
        super().__init__(operands=[lhs, rhs], result_types=[i1 if k in COMPARISONS else lhs.type],
                         properties={"kind": BinOpKindAttr(k)})

    @property
    def op(self) -> BinOpKind:
        return self.kind.data

    def verify_(self) -> None:
        t, k = self.lhs.type, self.op
        want = i1 if k in COMPARISONS else t
        if self.result.type != want:
            raise VerifyException(f"'{k}' on {t} gives {want}, not {self.result.type}")
        if k in BOOL_ONLY:
            if t != i1:
                raise VerifyException(f"'{k}' needs i1 operands, got {t}")
        elif k in INT_ONLY:
            if not _scalars.is_arith_int(t):
                raise VerifyException(f"'{k}' needs i32, i64, ui32 or ui64 operands, got {t}{_promoted(t)}")
        elif k in (BinOpKind.EQ, BinOpKind.NE):
            if not (_scalars.is_arith_int(t) or is_float(t) or t == i1):
                raise VerifyException(f"'{k}' needs scalar operands, got {t}{_promoted(t)}")
        elif not (_scalars.is_arith_int(t) or is_float(t)):
            raise VerifyException(f"'{k}' needs numeric operands, got {t}{_promoted(t)}")
        if k in (BinOpKind.DIV, BinOpKind.REM) and _scalars.is_arith_int(t) and _is_zero(self.rhs):
            what = "division" if k == BinOpKind.DIV else "remainder"
            raise VerifyException(f"integer {what} by the constant 0: undefined on every device (the interpreter "
                                  "stops, GPUs give an arbitrary value); test the divisor, or divide by a "
                                  "non-zero value")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.op.value} ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        _print_typed_tail(printer, self, self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> BinOp:
        k = parser.parse_str_enum(BinOpKind)
        lhs, rhs = _operand_seq(parser, 2)
        t, pos = _parse_type_at(parser)
        if lhs.type != t or rhs.type != t:
            _raise_since(parser, f"operands have types {lhs.type} and {rhs.type}, not {t}", pos)
        return _parse_attrs(parser, cls(k, lhs, rhs))


@irdl_op_definition
class UnOp(IRDLOperation):
    """`%r = sarek.unop neg %a : f32` (neg: numbers, not: i1, bitnot: integers)."""

    name = "sarek.unop"
    T: ClassVar = VarConstraint("T", AnyAttr())
    kind = prop_def(UnOpKindAttr)
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())

    def __init__(self, kind: UnOpKind | str, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[operand.type],
                         properties={"kind": UnOpKindAttr(UnOpKind(kind))})

    @property
    def op(self) -> UnOpKind:
        return self.kind.data

    def verify_(self) -> None:
        t = self.operand.type
        ok = {UnOpKind.NEG: _scalars.is_arith_int(t) or is_float(t), UnOpKind.NOT: t == i1,
              UnOpKind.BITNOT: _scalars.is_arith_int(t)}[self.op]
        if not ok:
            raise VerifyException(f"'{self.op}' cannot apply to {t}{_promoted(t)}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.op.value}")
        _print_typed_operand(printer, self.operand)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> UnOp:
        k = parser.parse_str_enum(UnOpKind)
        x = _operand(parser)
        _parse_type_of(parser, x)
        return _parse_attrs(parser, cls(k, x))


class _ConversionOp(IRDLOperation):
    """Shared shape of cast / bitcast: one operand converted to a result type, ` %a : A to R`; built as
    `cls(a, R)`."""

    operand = operand_def()
    result = result_def()

    def __init__(self, operand: SSAValue, type: Attribute):
        super().__init__(operands=[operand], result_types=[type])

    def print(self, printer: Printer) -> None:
        _print_typed_operand(printer, self.operand)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        x = _operand(parser)
        _parse_type_of(parser, x)
        parser.parse_keyword("to")
        return _parse_attrs(parser, cls(x, parser.parse_type()))


@irdl_op_definition
class CastOp(_ConversionOp):
    """`%r = sarek.cast %a : i32 to f32` between scalar types (f16 narrowing rounds to nearest even)."""

    name = "sarek.cast"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        for t in (self.operand.type, self.result.type):
            if not is_scalar_type(t):
                raise VerifyException(f"cast between {self.operand.type} and {self.result.type}: only scalar "
                                      "types convert")


@irdl_op_definition
class BitcastOp(_ConversionOp):
    """`%r = sarek.bitcast %a : f32 to i32` reinterprets a scalar's bits as another scalar type of the same
    width (i32 <-> f32, i64 <-> f64); the bit manipulation of the math library (sarek-expand-math)."""

    name = "sarek.bitcast"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        src, dst = self.operand.type, self.result.type
        ws, wd = scalar_width(src), scalar_width(dst)
        if ws is None or wd is None:
            raise VerifyException(f"bitcast between {src} and {dst}: only i32, i64, f16, f32 and f64 reinterpret")
        if ws != wd:
            raise VerifyException(f"bitcast between {src} ({ws} bits) and {dst} ({wd} bits): widths differ")


