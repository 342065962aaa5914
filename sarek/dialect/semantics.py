"""The meaning of the sarek dialect's arithmetic on constants: `sarek.binop`, `sarek.unop` and `sarek.cast` of
known values, with C's rules as every target and the interpreters run them (integers wrap at their width, `div`
and `rem` truncate toward zero, a float -> integer conversion truncates and saturates with NaN to 0, f32
arithmetic rounds to f32).

Like xDSL's `py_operation` on `arith` ops, this belongs to the dialect: sarek-canonicalize folds with it (and
sarek-unroll through it). A fold gives None where it does not decide: a division by zero, a shift by the width
or more, a result that is not finite, f16 arithmetic; those stay as written, where the target's own rules apply.

Each integer intrinsic's meaning (`INT_INTRINSICS`: clz, popcount, bit_reverse) is here too, read by both
executors and the host `sarek.math` functions.

The interpreters take `cdiv`, `crem` and `float_to_int` from here (through sarek/interp/arith.py), so C's
integer division and float-to-int rules have one definition that folding and execution share.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, i1
from xdsl.ir import Attribute

from sarek.dialect.expressions import BinOpKind, UnOpKind
from sarek.dialect.intrinsics import is_float, is_int, is_integer_type
from sarek.dialect.scalars import is_unsigned

#: a constant's value: an integer, a float or a bool (i1)
Value = int | float | bool
K = BinOpKind


def cdiv(a: int, b: int) -> int:
    """C integer division: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def crem(a: int, b: int) -> int:
    """C remainder: the sign of the dividend (a == b * cdiv(a, b) + crem(a, b))."""
    return a - b * cdiv(a, b)


def float_to_int(x: Any, bits: int, unsigned: bool = False) -> int:
    """C conversion truncating toward zero; NaN gives 0 and out-of-range values saturate (an unsigned type
    to 0 .. 2^bits - 1)."""
    xf = float(x)
    if xf != xf:
        return 0
    lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return hi if xf >= hi else lo if xf <= lo else int(xf)


def wrap(v: int, t: Attribute) -> int:
    """v modulo 2^width of t: into the signed range, or [0, 2^width) for an unsigned type."""
    bits = t.width.data if is_integer_type(t) else 32
    m = 1 << bits
    return v % m if is_unsigned(t) else ((v + (m >> 1)) % m) - (m >> 1)


def round_float(v: float, t: Attribute) -> float | None:
    """v rounded to t (f32/f64), or None when not finite (left to the target)."""
    r = float(np.float32(v)) if isinstance(t, Float32Type) else float(v)
    return r if math.isfinite(r) else None


def fold_binop(k: BinOpKind, a: Value, b: Value, t: Attribute) -> Value | None:
    """`a k b` at operand type t, or None when it is not folded."""
    cmp = {K.EQ: a == b, K.NE: a != b, K.LT: a < b, K.LE: a <= b, K.GT: a > b, K.GE: a >= b}
    if k in cmp:
        return cmp[k]
    if t == i1:
        return {K.AND: bool(a) and bool(b), K.OR: bool(a) or bool(b)}.get(k)
    # u32/u64 too: WGSL refuses a constant expression that overflows (`2147483648u << 1u`, fuzz seed 800651);
    # their operands are non-negative, so C division, remainder and shift agree with Python's
    wide_unsigned = is_unsigned(t) and is_integer_type(t) and t.width.data in (32, 64)
    if (is_int(t) or wide_unsigned) and isinstance(a, int) and isinstance(b, int):
        bits = t.width.data if is_integer_type(t) else 32
        if k in (K.DIV, K.REM):
            return None if b == 0 else wrap(cdiv(a, b) if k == K.DIV else crem(a, b), t)
        if k in (K.SHL, K.SHR):
            if not 0 <= b < bits:
                return None
            return wrap(a << b, t) if k == K.SHL else a >> b
        ops = {K.ADD: a + b, K.SUB: a - b, K.MUL: a * b, K.BITAND: a & b, K.BITOR: a | b, K.BITXOR: a ^ b}
        return wrap(ops[k], t) if k in ops else None
    if isinstance(t, Float32Type | Float64Type) and k in (K.ADD, K.SUB, K.MUL, K.DIV):
        if k == K.DIV and b == 0:
            return None
        x, y = (np.float32(a), np.float32(b)) if isinstance(t, Float32Type) else (np.float64(a), np.float64(b))
        with np.errstate(all="ignore"):  # only the asked operation runs: a dict of all four divided by zero
            r = float(x + y if k == K.ADD else x - y if k == K.SUB else x * y if k == K.MUL else x / y)
        return round_float(r, t)
    return None


def fold_unop(k: UnOpKind, v: Value, t: Attribute) -> Value | None:
    """`k v` at type t (neg, not, bitnot), or None when it is not folded."""
    if k == UnOpKind.NOT:
        return not v
    if k == UnOpKind.BITNOT and isinstance(v, int) and not isinstance(v, bool):
        return ~v
    if k == UnOpKind.NEG:
        if is_int(t) and isinstance(v, int):
            return wrap(-v, t)
        if is_float(t) and not isinstance(t, Float16Type):
            return round_float(-v, t)
    return None


def fold_cast(v: Value, src: Attribute, dst: Attribute) -> Value | None:
    """The constant v of type src converted to dst (between i1, the integers, f32 and f64), or None."""
    if dst == i1:
        return v != 0
    if is_int(dst):
        if src == i1 or is_int(src):
            return wrap(int(v), dst)
        if isinstance(src, Float32Type | Float64Type):
            return float_to_int(v, dst.width.data if is_integer_type(dst) else 32)
        return None
    if isinstance(dst, Float32Type | Float64Type) and (is_int(src) or isinstance(src, Float32Type | Float64Type)):
        return round_float(float(v), dst)
    return None


# ------------------------------------------------------------------------------------------------ integer intrinsics
# Each integer intrinsic's meaning once, over the operand's `bits` low bits, in two forms that a unit test holds
# equal: on one Python int (the reference executor, which runs a one-lane launch, and the host `sarek.math`) and
# on an array of lanes (the fast executor: unsigned `bits`-wide integers in uint32 up to 32 bits, else uint64).
# Both give the result's bits unsigned; the caller wraps them to the result type. Adding an integer intrinsic
# adds one entry here.


def _clz(x: int, bits: int) -> int:
    return bits - (x & ((1 << bits) - 1)).bit_length()


def _popcount(x: int, bits: int) -> int:
    return (x & ((1 << bits) - 1)).bit_count()


def _popcount_lanes(u: Any, bits: int) -> Any:
    return np.bitwise_count(u)


def _bit_reverse(x: int, bits: int) -> int:
    return int(format(x & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)


def _clz_lanes(u: Any, bits: int) -> Any:
    frexp: Any = np.frexp  # its exponent is the bit length (exact: a 32-bit value fits a double)
    if bits <= 32:
        return bits - frexp(u.astype(np.float64))[1]
    hi, lo = (u >> np.uint64(32)).astype(np.float64), (u & np.uint64(0xFFFFFFFF)).astype(np.float64)
    where: Any = np.where
    return where(hi > 0, 32 - frexp(hi)[1], 64 - frexp(lo)[1])


def _bit_reverse_lanes(u: Any, bits: int) -> Any:
    """Swap adjacent bits, pairs, nibbles, ... halves of the 32- or 64-bit word; a narrower operand's bits end
    at the bottom."""
    ut = u.dtype.type
    width = 64 if ut is np.uint64 else 32
    for sh in (1, 2, 4, 8, 16, 32)[:6 if width == 64 else 5]:
        m = ut(int(("0" * sh + "1" * sh) * (width // (2 * sh)), 2))
        u = ((u >> ut(sh)) & m) | ((u & m) << ut(sh))
    return u >> ut(width - bits) if bits < width else u


class IntIntrinsic(NamedTuple):
    """An integer intrinsic's semantics: `one(x, bits)` on a Python int, `lanes(u, bits)` on an array of the
    operands' bits; `is_count`: the result is an i32 count (clz, popcount), else it has the operand's type."""

    one: Callable[[int, int], int]
    lanes: Callable[[Any, int], Any]
    is_count: bool


#: integer intrinsic name -> its semantics (sarek.dialect.intrinsics states its typing)
INT_INTRINSICS: dict[str, IntIntrinsic] = {
    "clz": IntIntrinsic(_clz, _clz_lanes, True),
    "popcount": IntIntrinsic(_popcount, _popcount_lanes, True),
    "bit_reverse": IntIntrinsic(_bit_reverse, _bit_reverse_lanes, False),
}


def int_intrinsic(name: str, x: Any, bits: int, out: Any) -> Any:
    """Integer intrinsic `name` of numpy lanes `x` (an array, or a numpy scalar) read as `bits` wide, as numpy
    type `out` (wrapping)."""
    ut = np.uint64 if bits > 32 else np.uint32
    u = np.asarray(x).astype(ut)  # modulo 2^width: the operand's bits
    if bits < 32:
        u = u & ut((1 << bits) - 1)
    r = np.asarray(INT_INTRINSICS[name].lanes(u, bits)).astype(out)
    return r if isinstance(x, np.ndarray) else r[()]
