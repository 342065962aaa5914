"""Facts about the scalar element types: widths, signedness, ranges and C's promotions and conversions.

Integers: `i1` (bool), signed `i8 i16 i32 i64` (signless in the IR, read as signed) and unsigned
`ui8 ui16 ui32 ui64`; floats `f16 bf16 f32 f64`. Arithmetic (binop, unop) only ever sees the *arithmetic*
types i32 i64 ui32 ui64 f16 f32 f64: the front end makes C's integer promotions explicit (an 8- or 16-bit
integer operand is cast to i32, a bf16 operand to f32) and picks the common type of two integers with C's
usual arithmetic conversions. The 8/16-bit integers and bf16 are storage types: vectors, arrays, fields,
locals, parameters, constants, casts.
"""

from __future__ import annotations

from typing_extensions import TypeIs

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    i32,
    i64,
)
from xdsl.ir import Attribute

U8 = IntegerType(8, Signedness.UNSIGNED)
I8 = IntegerType(8)
I16 = IntegerType(16)
U16 = IntegerType(16, Signedness.UNSIGNED)
U32 = IntegerType(32, Signedness.UNSIGNED)
U64 = IntegerType(64, Signedness.UNSIGNED)
BF16 = BFloat16Type()
F32 = Float32Type()

#: the user-facing name of each scalar type (sarek.types, diagnostics)
NAMES: dict[Attribute, str] = {IntegerType(1): "bool", I8: "i8", I16: "i16", i32: "i32", i64: "i64", U8: "u8",
                               U16: "u16", U32: "u32", U64: "u64", Float16Type(): "f16", BF16: "bf16",
                               F32: "f32", Float64Type(): "f64"}


def _int(t: Attribute) -> TypeIs[IntegerType]:
    return isinstance(t, IntegerType)


def is_unsigned(t: Attribute) -> bool:
    """ui8 ui16 ui32 ui64."""
    return _int(t) and t.signedness.data == Signedness.UNSIGNED and t.width.data in (8, 16, 32, 64)


def is_signed(t: Attribute) -> bool:
    """i8 i16 i32 i64 (signless, read as signed)."""
    return _int(t) and t.signedness.data != Signedness.UNSIGNED and t.width.data in (8, 16, 32, 64)


def is_integer(t: Attribute) -> bool:
    """Any integer element type but i1."""
    return is_signed(t) or is_unsigned(t)


def is_arith_int(t: Attribute) -> bool:
    """The integer types arithmetic computes in: i32 i64 ui32 ui64."""
    return is_integer(t) and int_width(t) in (32, 64)


def is_small_int(t: Attribute) -> bool:
    """i8 ui8 i16 ui16: storage types, promoted to i32 before arithmetic."""
    return is_integer(t) and int_width(t) in (8, 16)


def is_bf16(t: Attribute) -> bool:
    return isinstance(t, BFloat16Type)


def is_narrow(t: Attribute) -> bool:
    """Element types narrower than 32 bits that have no 32-bit-word storage of their own: 8/16-bit integers
    and bf16 (f16 has its own handling)."""
    return is_small_int(t) or is_bf16(t)


def int_width(t: Attribute) -> int:
    """Bit width of an integer type (0 for any other type)."""
    return t.width.data if _int(t) else 0


def int_range(t: Attribute) -> tuple[int, int]:
    """(lowest, highest) value of an integer type."""
    w = int_width(t)
    if w == 1:
        return 0, 1
    return (0, (1 << w) - 1) if is_unsigned(t) else (-(1 << (w - 1)), (1 << (w - 1)) - 1)


def wrap(x: int, t: Attribute) -> int:
    """x converted to integer type t: modulo 2^width, in t's range (C's conversion to unsigned; to signed,
    the two's-complement wrap every sarek device implements)."""
    w = int_width(t)
    if w == 1:
        return 1 if x else 0
    m = (1 << w) - 1
    x &= m
    return x - (1 << w) if not is_unsigned(t) and x >> (w - 1) else x


def promote(t: Attribute) -> Attribute:
    """C's integer promotions (8/16-bit integers to i32) and bf16 to f32; any other type is itself."""
    if is_small_int(t):
        return i32
    if is_bf16(t):
        return F32
    return t


def usual_int_conversion(a: Attribute, b: Attribute) -> Attribute:
    """The common type of two (promoted) arithmetic integer types by C's usual arithmetic conversions, with
    i32/ui32 of rank int and i64/ui64 of rank long long: the same signedness gives the wider; otherwise an
    unsigned type of rank at least the signed one's wins, else the signed type when it holds every value of the
    unsigned one (ui32 with i64 gives i64)."""
    a, b = promote(a), promote(b)
    if a == b:
        return a
    wa, wb = int_width(a), int_width(b)
    if is_unsigned(a) == is_unsigned(b):
        return a if wa >= wb else b
    u, sg = (a, b) if is_unsigned(a) else (b, a)
    if int_width(u) >= int_width(sg):
        return u
    return sg


def unsigned_of(t: Attribute) -> Attribute:
    """The unsigned integer type of t's width."""
    return IntegerType(int_width(t), Signedness.UNSIGNED)


def float_name(t: Attribute) -> str | None:
    """f16, f32 or f64 for the IEEE float types, None for any other type (bf16 is not one of them)."""
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    return "f64" if isinstance(t, Float64Type) else None


def name(t: Attribute) -> str | None:
    """The user-facing name of a scalar type (u8, bf16, ...), None for any other type."""
    return NAMES.get(t)


def bf16_round(bits32: int) -> int:
    """f32 bits -> bf16 bits, rounded to nearest even; every NaN becomes the quiet NaN 0x7fc0 (f32 NaN
    payloads and signs differ between devices: NVIDIA makes 0x7fffffff, numpy keeps the operand's), so the
    stored bits are the same on every device. The one conversion every backend spells the same way."""
    if (bits32 & 0x7FFFFFFF) > 0x7F800000:
        return 0x7FC0
    return ((bits32 + 0x7FFF + ((bits32 >> 16) & 1)) >> 16) & 0xFFFF
