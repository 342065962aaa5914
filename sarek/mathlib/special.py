"""Special functions in sarek IR: erf, erfc, atanh, ldexp, lgamma (f64 cores, f32 builds for targets without
doubles)."""

from __future__ import annotations

import math as _m

from sarek.mathlib.erfc_table import ERFC_CHEB
from sarek.mathlib.f32forms import log1p_via_log
from sarek.mathlib.ops import Ops, V
from sarek.mathlib.routines import INF, IVL2, NAN, exp, log, log1p
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


# ------------------------------------------------------------------------------------------------ ldexp, lgamma


def ldexp(o: Ops, x: V, n: V) -> V:
    """x * 2^n with one rounding, from the bits: the exponent field of x (a subnormal x scaled up by 2^(p+1)
    first) plus n, written back when the result is normal; a subnormal result gets its exponent raised by
    p + 3 and is multiplied by 2^-(p+3), its only rounding; too large an exponent gives inf. 0, inf and NaN pass
    through. n is clamped first (past 2 emax + p the result is 0 or inf whatever x is)."""
    w = o.fmt
    emax = (1 << (w.width - 1 - w.mant)) - 1  # the all-ones exponent field (inf / NaN)
    ni = o.b.cast(n, w.it) if n.type != w.it else n
    lim = 2 * emax + w.mant + 4
    ni = o.sel(o.ibin("gt", ni, lim), o.ci(lim), o.sel(o.ibin("lt", ni, -lim), o.ci(-lim), ni))
    k = w.mant + 2
    tiny = o.cmp("lt", o.abs(x), o.from_bits(o.ci(1 << w.mant)))  # subnormal (or zero)
    xs = o.sel(tiny, o.settle(o.mul(x, 2.0 ** k)), x)
    bits = o.bits(xs)
    e = o.ibin("bitand", o.ibin("shr", bits, w.mant), emax)
    big_e = o.ibin("sub", o.ibin("add", e, ni), o.sel(tiny, o.ci(k), o.ci(0)))
    keep = o.ibin("bitand", bits, ~(emax << w.mant))  # sign and significand
    normal = o.from_bits(o.ibin("bitor", keep, o.ibin("shl", o.sel(o.ibin("lt", big_e, 1), o.ci(1), big_e),
                                                          w.mant)))
    off = w.mant + 3
    low_e = o.sel(o.ibin("lt", big_e, -w.mant - 2), o.ci(-w.mant - 2), big_e)
    raised = o.from_bits(o.ibin("bitor", keep, o.ibin("shl", o.ibin("add", low_e, off), w.mant)))
    low = o.settle(o.mul(raised, 2.0 ** -off))
    r = o.sel(o.ibin("ge", big_e, emax), o.copysign(o.c(INF), x), o.sel(o.ibin("ge", big_e, 1), normal, low))
    special = o.or_(o.cmp("eq", x, 0.0), o.or_(_nan(o, x), o.cmp("eq", o.abs(x), INF)))
    return o.sel(special, x, r)


#: lgamma(2 + z) = sum c_k z^k, c_1 = 1 - Euler's gamma, c_k = (-1)^k (zeta(k) - 1) / k (mpmath, 40 digits);
#: |z| <= 1/2 here, where the k = 28 term is below 2^-60 of the result
LGAMMA2 = [0.42278433509846713, 0.3224670334241132, -0.0673523010531981, 0.020580808427784546,
           -0.007385551028673986, 0.0028905103307415234, -0.001192753911703261, 0.0005096695247430425,
           -0.00022315475845357939, 9.945751278180853e-05, -4.492623673813314e-05, 2.050721277567069e-05,
           -9.439488275268397e-06, 4.374866789907488e-06, -2.039215753801366e-06, 9.55141213040742e-07,
           -4.492469198764566e-07, 2.1207184805554665e-07, -1.0043224823968099e-07, 4.7698101693639804e-08,
           -2.2711094608943164e-08, 1.0838659214896955e-08, -5.183475041970047e-09, 2.4836745438024785e-09,
           -1.1921401405860912e-09, 5.731367241678862e-10, -2.7595228851242334e-10, 1.330476437424449e-10]
#: Stirling's series: B_2k / (2k (2k - 1)), k = 1..9 (x >= 10: the k = 9 term is below 2^-60 of the result)
STIRLING = [1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156,
            -3617.0 / 122400, 43867.0 / 244188]
#: sin(pi t) = t sum (-1)^j pi^(2j+1) t^2j / (2j+1)!, t <= 1/2
SINPI = [(-1.0) ** j * _m.pi ** (2 * j + 1) / _m.factorial(2 * j + 1) for j in range(12)]
HALF_LOG_2PI_M_HALF = 0.4189385332046727  # (log(2 pi) - 1) / 2
LOG_PI = 1.1447298858494002


def _lgamma_pos(o: Ops, y: V) -> V:
    """lgamma(y) for y > -1/2 (y != 0): Stirling's series from 10; on [1/2, 10) y = u + n with u in [3/2, 5/2)
    and lgamma(y) = lgamma(u) + log((y - 1) ... (y - n)) (n from -1 to 8; n = -1: - log(y)), lgamma(u) the series
    around 2 in z = y - (n + 2) (exact); below 1/2, lgamma(y) = lgamma(2 + y) - log(y (1 + y)). One log of the
    branch's argument (the f64 routine, or the target's own log in the f32 build)."""
    wide = o.fmt.width == 64
    a = o.abs(y)
    big = o.cmp("ge", y, 10.0)
    mid = o.cmp("ge", y, 0.5)
    ym = o.fmin(o.fmax(y, 0.5), 10.0)
    n = o.fmin(o.floor(o.sub(ym, 1.5)), 8.0)
    z = o.sel(mid, o.sub(ym, o.add(n, 2.0)), y)
    p: V = o.c(1.0)
    for kk in range(1, 9):
        p = o.settle(o.mul(p, o.sel(o.cmp("ge", n, float(kk)), o.sub(ym, float(kk)), 1.0)))
    arg = o.sel(big, y, o.sel(mid, o.sel(o.cmp("ge", n, 1.0), p, o.sel(o.cmp("eq", n, 0.0), 1.0, y)),
                               o.settle(o.mul(a, o.add(1.0, y)))))
    lg = log(o, arg) if wide else o.native("log", arg)
    # products feed additions only as explicit fmas (no device may contract them differently)
    s2 = o.mul(z, o.poly(z, LGAMMA2))
    # n = -1 (y in [1/2, 3/2)): log(y) = log1p(z) (exact z), the f32 build's series near 1
    lm1 = lg if wide else log1p_via_log(o, z)
    midv = o.sel(o.cmp("eq", n, -1.0), o.sub(s2, lm1), o.add(s2, lg))  # n = 0: lg = log(1) = 0
    r = o.div(1.0, y)
    corr = o.mul(r, o.poly(o.settle(o.mul(r, r)), STIRLING))
    stir = o.add(o.add(o.mul(o.sub(y, 0.5), o.sub(lg, 1.0)), HALF_LOG_2PI_M_HALF), corr)
    return o.sel(big, stir, o.sel(mid, midv, o.sub(s2, lg)))


def lgamma(o: Ops, x: V) -> V:
    """log |Gamma(x)| (C's lgamma): `_lgamma_pos` for x > -1/2, the reflection log(pi / |x sin(pi x)|) -
    lgamma(|x|) below, sin(pi t) by its series on t = min(f, 1 - f) for f the fraction of |x| (exact); +inf at 0,
    at the non-positive integers and at +-inf; NaN passes through. Near the zeros of lgamma on the negative axis
    the reflection's cancellation leaves an absolute error of a few ulp of log(pi / |x sin(pi x)|)."""
    a = o.abs(x)
    refl = o.cmp("le", x, -0.5)
    main = _lgamma_pos(o, o.sel(refl, a, x))
    f = o.sub(a, o.floor(a))
    t = o.fmin(f, o.sub(1.0, f))
    s = o.settle(o.mul(t, o.poly(o.settle(o.mul(t, t)), SINPI)))
    arg = o.settle(o.mul(a, s))
    lr = log(o, arg) if o.fmt.width == 64 else o.native("log", arg)
    r = o.sel(refl, o.sub(o.sub(LOG_PI, lr), main), main)
    inf = o.or_(o.cmp("eq", a, INF), o.or_(o.cmp("eq", x, 0.0), o.and_(refl, o.cmp("eq", t, 0.0))))
    return o.sel(_nan(o, x), x, o.sel(inf, INF, r))
