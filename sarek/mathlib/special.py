"""Special functions in sarek IR: erf, erfc, atanh (f64 cores, f32 builds for targets without doubles)."""

from __future__ import annotations

import math as _m

from sarek.mathlib.erfc_table import ERFC_CHEB
from sarek.mathlib.f32forms import log1p_via_log
from sarek.mathlib.ops import Ops, V
from sarek.mathlib.routines import INF, IVL2, NAN, exp, log1p
from sarek.mathlib.routines import _scale  # pyright: ignore[reportPrivateUsage]


ERF_P = [2.0 / _m.sqrt(_m.pi) * (-1.0) ** k / (_m.factorial(k) * (2 * k + 1)) for k in range(22)]


def _nan(o: Ops, x: V) -> V:
    """x is a NaN, from its bits (WGSL lets a compiler fold `x != x` to false)."""
    top = 1 << (o.fmt.width - 1)
    inf = ((1 << (o.fmt.width - o.fmt.mant - 1)) - 1) << o.fmt.mant
    return o.ibin("gt", o.ibin("bitand", o.bits(x), top - 1), inf)


def _square(o: Ops, x: V) -> tuple[V, V]:
    """x^2 = hi + lo for a normal x > 0, hi exact: hi = xh^2 with xh the top half of x's significand (its low
    bits masked off) and lo = (2 xh + xl) xl, xl = x - xh. Nothing here rests on a product being rounded
    separately: the mask is integer work and every product is exact, so a compiler that contracts a multiply
    and an add into an fma (ptxas without `.rn`, NVIDIA's Vulkan driver, the builder's own folding) or splits
    an fma (Mesa) gives the same pair. |lo| < 2^(2-h) x^2, h = p // 2 for precision p (4.7e-5 at x = 28 in double)."""
    half = o.fmt.precision // 2  # xh has `half` bits: xh^2 and xh xl (xl: precision - half bits) are exact
    xh = o.from_bits(o.ibin("bitand", o.bits(x), -(1 << (o.fmt.precision - half))))
    xl = o.sub(x, xh)
    hi = o.settle(o.mul(xh, xh))
    lo = o.add(o.mul(o.settle(o.mul(xh, 2.0)), xl), o.mul(xl, xl))
    return hi, lo


#: e^(-lo) = sum (-lo)^k / k! for |lo| < 0.1 (the f32 bound; 4.7e-5 in double), the k = 7 term below 2^-35
EXP_NEG = [(-1.0) ** k / _m.factorial(k) for k in range(7)]


def _exp_f32(o: Ops, y: V) -> V:
    """e^y in single precision for y in [-104, 0]: y = n ln2 + r with ln2 in two parts (the first of 16 bits, so
    n ln2 is exact), e^r by its Taylor series (|r| <= ln2/2), scaled by 2^n in two steps (the exp routine's
    reduction is a double one: in f32 its error grows with n)."""
    n = o.floor(o.fma(y, IVL2, 0.5))
    r = o.sub(o.fence(o.sub(y, o.mul(n, 0.693145751953125))), o.mul(n, 1.4286068203094173e-06))
    return _scale(o, o.poly(r, [1.0 / _m.factorial(k) for k in range(10)]), n)


def _erfc_cutoff(o: Ops) -> float:
    """Where erfc rounds to 0 (below half the smallest subnormal) at the routine's width."""
    return 28.0 if o.fmt.width == 64 else 10.1


def _erf_small(o: Ops, a: V) -> V:
    """erf(a) for |a| <= 1: its Taylor series in a^2 (terms below 2^-62 cut)."""
    return o.mul(a, o.poly(o.mul(a, a), ERF_P))


def _erfc_large(o: Ops, a: V) -> V:
    """erfc(a) for a >= 1: e^(-a^2) g(a), g a Chebyshev series per interval (sarek/mathlib/erfc_table.py,
    Clenshaw with the interval's coefficients picked by selects); a^2 as an exact hi + lo pair (`_square`), so
    e^(-a^2) is e^(-hi) e^(-lo), the second a short series. 0 from a = 28 (erfc(27.3) is below the smallest
    double)."""
    x = o.fmin(a, _erfc_cutoff(o))
    lo_b, hi_b = o.c(ERFC_CHEB[0][0]), o.c(ERFC_CHEB[0][1])
    coeffs: list[V] = [o.c(c) for c in ERFC_CHEB[0][2]]
    for a0, b0, cs in ERFC_CHEB[1:]:
        here = o.cmp("ge", x, a0)
        lo_b, hi_b = o.sel(here, a0, lo_b), o.sel(here, b0, hi_b)
        coeffs = [o.sel(here, c, prev) for c, prev in zip(cs, coeffs)]
    t = o.div(o.sub(o.sub(o.mul(x, 2.0), lo_b), hi_b), o.sub(hi_b, lo_b))
    b1, b2 = o.c(0.0), o.c(0.0)
    for cf in reversed(coeffs[1:]):
        b1, b2 = o.add(o.fma(o.mul(t, 2.0), b1, o.neg(b2)), cf), b1
    g = o.add(o.fma(t, b1, o.neg(b2)), coeffs[0])
    hi, lo = _square(o, x)
    e = o.mul(exp(o, o.neg(hi)) if o.fmt.width == 64 else _exp_f32(o, o.neg(hi)), o.poly(lo, EXP_NEG))
    return o.sel(o.cmp("ge", a, _erfc_cutoff(o)), 0.0, o.mul(e, g))


def erf(o: Ops, x: V) -> V:
    a = o.abs(x)
    r = o.sel(o.cmp("le", a, 1.0), _erf_small(o, a), o.sub(1.0, _erfc_large(o, o.fmax(a, 1.0))))
    return o.sel(_nan(o, x), x, o.copysign(r, x))


def erfc(o: Ops, x: V) -> V:
    """1 - erf(x) up to 1 (at least 0.157 there), e^(-x^2) g(x) beyond."""
    small = o.sub(1.0, _erf_small(o, o.fmax(o.fmin(x, 1.0), -1.0)))
    neg = o.add(1.0, o.sub(1.0, _erfc_large(o, o.fmax(o.neg(x), 1.0))))  # x < -1: 2 - erfc(-x)
    r = o.sel(o.cmp("gt", x, 1.0), _erfc_large(o, o.fmax(x, 1.0)), o.sel(o.cmp("lt", x, -1.0), neg, small))
    return o.sel(_nan(o, x), x, r)


def atanh(o: Ops, x: V) -> V:
    """copysign(log1p(2a / (1 - a)) / 2, x) with a = |x|, written 2a + 2a^2 / (1 - a) below 1/2 (fdlibm's split:
    the quotient alone loses bits there); 1 gives inf, above 1 NaN."""
    a = o.abs(x)
    t = o.add(a, a)
    small = o.add(t, o.div(o.mul(t, a), o.sub(1.0, a)))
    big = o.div(t, o.sub(1.0, a))
    lp = log1p if o.fmt.width == 64 else log1p_via_log  # the f32 build (no doubles) takes the target's log
    r = o.mul(lp(o, o.sel(o.cmp("lt", a, 0.5), small, big)), 0.5)
    r = o.sel(o.cmp("gt", a, 1.0), NAN, o.sel(o.cmp("eq", a, 1.0), INF, r))
    return o.sel(_nan(o, x), x, o.copysign(r, x))
