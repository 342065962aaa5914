"""Integer division by a constant as a multiply-high and shifts (Granlund & Montgomery, PLDI 1994).

ptxas divides by an immediate with its general reciprocal sequence (I2F.U32.RP, MUFU.RCP and about 15 more
instructions); NVVM emits these multiply-high forms instead. `signed_magic` / `unsigned_magic` give the
constants, `signed_quotient` / `unsigned_quotient` compute with them on Python integers exactly as the PTX
sequence does in `w`-bit registers, so tests/unit/test_divide.py can check them against truncating division.

`may_overflow` says where a signed division needs the guard that makes INT_MIN / -1 = INT_MIN and
INT_MIN % -1 = 0 (documented; C, OpenCL C and SPIR-V leave it undefined, pocl gave INT_MIN % -1 = -1).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from sarek.analysis.motion import const_value


def _ceil_log2(d: int) -> int:
    return (d - 1).bit_length()


def signed_magic(d: int, w: int) -> tuple[int, int]:
    """(m, shift) for a signed `w`-bit division by `d` > 1, not a power of two (Figure 5.1): m is the
    signed `w`-bit multiplier; q = ((n + mulhi_s(m, n)) >> (shift)) - (n >> (w - 1))."""
    assert d > 1 and d & (d - 1)
    ell = max(_ceil_log2(d), 1)
    m = 1 + (1 << (w + ell - 1)) // d - (1 << w)
    assert -(1 << (w - 1)) <= m < (1 << (w - 1))
    return m, ell - 1


def unsigned_magic(d: int, w: int) -> tuple[int, int]:
    """(m, ell) for an unsigned `w`-bit division by `d` > 1, not a power of two (Figure 4.1): with
    t = mulhi_u(m, n), q = (t + ((n - t) >> 1)) >> (ell - 1)."""
    assert d > 1 and d & (d - 1)
    ell = _ceil_log2(d)
    m = ((1 << w) * ((1 << ell) - d)) // d + 1
    assert 0 <= m < (1 << w)
    return m, ell


def _wrap(x: int, w: int) -> int:
    x &= (1 << w) - 1
    return x - (1 << w) if x >> (w - 1) else x


def signed_quotient(n: int, d: int, w: int) -> int:
    """n / d (truncating) through the signed sequence, in `w`-bit two's complement (the model of the PTX)."""
    m, sh = signed_magic(abs(d), w)
    hi = (m * n) >> w  # mul.hi.sW: the high half of the exact product (floor)
    q = _wrap(n + hi, w) >> sh
    q = _wrap(q - (n >> (w - 1)), w)
    return _wrap(-q, w) if d < 0 else q


def unsigned_quotient(n: int, d: int, w: int) -> int:
    """n / d for unsigned `w`-bit n through the unsigned sequence."""
    m, ell = unsigned_magic(d, w)
    mask = (1 << w) - 1
    t = (m * n) >> w
    return ((t + (((n - t) & mask) >> 1)) & mask) >> (ell - 1)


def may_overflow(divisor: SSAValue) -> bool:
    """A signed division by `divisor` may be INT_MIN / -1: the divisor is not a constant, or is the constant
    -1 (a constant other than -1 never overflows, so the C and GLSL lowerings divide by it plainly)."""
    k = const_value(divisor)
    return k is None or k == -1
