"""Double-precision elementary routines in sarek IR (see sarek/mathlib/__init__.py): exp, log, trigonometry,
hyperbolic functions, roots, pow and the exact operations. The special functions are in special.py, the f32
forms in f32forms.py, the table of every routine and the helpers that hold them in helpers.py.

Each routine takes `Ops` and f64 values and returns the f64 result; `helpers.build_helper` wraps one in
`sarek.helper @sarek_<fn>_f64`. Argument reduction follows fdlibm (Cody-Waite with exact high parts, x = 2^k m
for logarithms, atan's four breakpoints), the polynomials are Taylor series cut where the next term is below
2^-60 of the result, and hi/lo pairs carry the rounding errors that would otherwise reach the last bit.
Measured accuracy (benchmarks/bench_math.py, BENCHMARKS.md): within 2 ulp of mpmath on the stated domains;
trigonometric reduction is exact for |x| < 2^20 * pi/2 (about 1.6e6).
"""

from __future__ import annotations

import math as _m
from dataclasses import dataclass

from sarek.mathlib.ops import Ops, V

INF = float("inf")
NAN = float("nan")
LN2HI, LN2LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10  # fdlibm: LN2HI has 32 bits
LN2, LN2_LO = 0.6931471805599453, 2.3190468138462996e-17
LN10, LN10_LO = 2.302585092994046, -2.1707562233822494e-16
IVL2 = 1.4426950408889634
L102HI, L102LO = 0.3010299956640665, -8.532344317057107e-14  # LOG10(2): L102HI has 40 bits
PIO2_1, PIO2_2, PIO2_2T = 1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624879595063154e-21
INV_PIO2 = 0.6366197723675814
PIO2, PIO2_LO = 1.5707963267948966, 6.123233995736766e-17
PI, PI_LO = 3.141592653589793, 1.2246467991473532e-16
ATAN_HI = (0.4636476090008061, 0.7853981633974483, 0.982793723247329, 1.5707963267948966)
ATAN_LO = (2.2698777452961687e-17, 3.061616997868383e-17, 1.3903311031230998e-17, 6.123233995736766e-17)
SQRT2 = 1.4142135623730951
TINY = 2.2250738585072014e-308  # smallest normal double

EXP_Q = [1.0 / _m.factorial(k) for k in range(2, 14)]  # (e^r - 1 - r) / r^2, |r| <= ln2/2
EXP2_P = [_m.log(2.0) ** k / _m.factorial(k) for k in range(1, 15)]  # (2^f - 1) / f, |f| <= 1/2
LOG_P = [2.0 / (2 * k + 1) for k in range(1, 13)]  # 2 atanh(s) = 2s + s z P(z), z = s^2 <= 0.0295
SIN_P = [(-1.0) ** k / _m.factorial(2 * k + 1) for k in range(1, 9)]
COS_P = [(-1.0) ** k / _m.factorial(2 * k) for k in range(2, 10)]
ATAN_P = [(-1.0) ** k / (2 * k + 1) for k in range(1, 28)]  # |t| <= 7/16
ASIN_P = [_m.comb(2 * k, k) / (4.0 ** k * (2 * k + 1)) for k in range(1, 30)]  # z <= 1/4


# ------------------------------------------------------------------------------------------------ exp


def _exp_reduce(o: Ops, x: V) -> tuple[V, V, V]:
    """x = n ln2 + hi + tail with e^x = 2^n (1 + hi + tail): (n, hi, tail)."""
    n = o.floor(o.fma(x, IVL2, 0.5))
    hi = o.fma(o.neg(n), LN2HI, x)  # exact: n * LN2HI is exact and close to x
    r = o.fma(o.neg(n), LN2LO, hi)
    tail = o.fma(o.mul(r, r), o.poly(r, EXP_Q), o.neg(o.mul(n, LN2LO)))
    return n, hi, tail


def _scale(o: Ops, v: V, n: V) -> V:
    """v * 2^n for n in [-1076, 1024], in two steps so each power of two is a normal double."""
    ni = o.to_int(n)
    h1 = o.ibin("shr", ni, 1)
    h2 = o.ibin("sub", ni, h1)
    return o.mul(o.hold(o.settle(o.mul(v, o.pow2(h1)))), o.pow2(h2))


def exp(o: Ops, x: V) -> V:
    xc = o.fmin(o.fmax(x, -746.0), 710.0)
    n, hi, tail = _exp_reduce(o, xc)
    e = o.add(1.0, o.add(hi, tail))
    return o.sel(o.isnan(x), x, _scale(o, e, n))


def exp2(o: Ops, x: V) -> V:
    xc = o.fmin(o.fmax(x, -1080.0), 1030.0)
    n = o.floor(o.add(xc, 0.5))
    f = o.sub(xc, n)  # exact
    e = o.fma(f, o.poly(f, EXP2_P), 1.0)
    return o.sel(o.isnan(x), x, _scale(o, e, n))


def _expm1_parts(o: Ops, x: V) -> tuple[V, V, V, V]:
    """2^n (1 + t) - 1 = 2^n ((1 - 2^-n) + t), the first sum exact (two_sum): (u, s1, rest, n) with
    e^x - 1 = 2^n (s1 + rest), u = s1 + rest rounded."""
    xc = o.fmin(o.fmax(x, -40.0), 710.0)
    n, hi, tail = _exp_reduce(o, xc)
    m = o.ibin("sub", 0, o.to_int(n))
    m = o.sel(o.ibin("lt", m, -60), o.ci(-60), o.sel(o.ibin("gt", m, 60), o.ci(60), m))
    c = o.sub(1.0, o.pow2(m))
    s1, e1 = o.two_sum(c, hi)
    rest = o.add(e1, tail)
    return o.add(s1, rest), s1, rest, n


def expm1(o: Ops, x: V) -> V:
    u, _, _, n = _expm1_parts(o, x)
    r = _scale(o, u, n)
    return o.sel(o.or_(o.isnan(x), o.cmp("eq", x, 0.0)), x, r)


# ------------------------------------------------------------------------------------------------ log


@dataclass(frozen=True)
class FloatFormat:
    """What `_log_reduce` needs of a binary float format (Ops and the format's widths must agree)."""

    mant_bits: int
    bias: int
    tiny: float  # smallest normal
    scale: int  # subnormals are multiplied by 2^scale first
    sqrt2: float  # sqrt(2) in the format


F64_FORMAT = FloatFormat(52, 1023, TINY, 54, SQRT2)


def _log_reduce(o: Ops, x: V, fmt: FloatFormat = F64_FORMAT) -> tuple[V, V]:
    """x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)): (k, f), both exact; subnormals scaled first."""
    tiny = o.cmp("lt", x, fmt.tiny)
    xs = o.sel(tiny, o.mul(x, 2.0 ** fmt.scale), x)
    bits = o.bits(xs)
    e = o.ibin("sub", o.ibin("shr", bits, fmt.mant_bits), fmt.bias)
    m = o.from_bits(o.ibin("bitor", o.ibin("bitand", bits, (1 << fmt.mant_bits) - 1), fmt.bias << fmt.mant_bits))
    big = o.cmp("gt", m, fmt.sqrt2)
    m = o.sel(big, o.mul(m, 0.5), m)
    k = o.add(o.add(o.to_float(e), o.sel(tiny, float(-fmt.scale), 0.0)), o.sel(big, 1.0, 0.0))
    return k, o.sub(m, 1.0)


def _log1p_parts(o: Ops, f: V) -> tuple[V, V, V]:
    """log(1 + f) = f - hfsq + s (hfsq + R): (s, hfsq + R, hfsq) for |f| <= sqrt(2) - 1 (fdlibm)."""
    sv = o.div(f, o.add(2.0, f))
    z = o.mul(sv, sv)
    big_r = o.mul(z, o.poly(z, LOG_P))
    hfsq = o.mul(o.mul(f, 0.5), f)
    return sv, o.add(hfsq, big_r), hfsq


def _log_specials(o: Ops, x: V, r: V) -> V:
    r = o.sel(o.cmp("eq", x, 0.0), -INF, r)
    r = o.sel(o.cmp("eq", x, INF), INF, r)
    return o.sel(o.or_(o.cmp("lt", x, 0.0), o.isnan(x)), NAN, r)


def _log_kf(o: Ops, k: V | float, f: V) -> V:
    """log(2^k (1 + f)) for exact k and f, |f| <= sqrt(2) - 1 (fdlibm's combination)."""
    sv, hr, hfsq = _log1p_parts(o, f)
    a = o.fma(sv, hr, o.mul(k, LN2LO))
    b = o.sub(hfsq, a)
    c = o.sub(b, f)
    return o.sub(o.mul(k, LN2HI), c)


def _log_core(o: Ops, x: V) -> V:
    return _log_kf(o, *_log_reduce(o, x))


def log(o: Ops, x: V) -> V:
    return _log_specials(o, x, _log_core(o, x))


def _log_base(o: Ops, x: V, ln_b: float, ln_b_lo: float, k_hi: float, k_lo: float) -> V:
    """log_b x = k log_b(2) + f / ln b + lo / ln b, the first two parts as an exact sum."""
    k, f = _log_reduce(o, x)
    sv, hr, hfsq = _log1p_parts(o, f)
    lo = o.fma(sv, hr, o.neg(hfsq))  # log(1 + f) = f + lo
    ph = o.div(f, ln_b)
    rem = o.fma(o.neg(ph), ln_b, f)  # exact remainder
    pl = o.div(o.fma(o.neg(ph), ln_b_lo, rem), ln_b)
    w, err = o.fast_two_sum(o.mul(k, k_hi), ph, exact=True)
    tail = o.add(err, o.fma(lo, 1.0 / ln_b, o.fma(k, k_lo, pl)))
    return _log_specials(o, x, o.add(w, tail))


def log2(o: Ops, x: V) -> V:
    return _log_base(o, x, LN2, LN2_LO, 1.0, 0.0)


def log10(o: Ops, x: V) -> V:
    return _log_base(o, x, LN10, LN10_LO, L102HI, L102LO)


def log1p(o: Ops, x: V) -> V:
    """Near 0 (1 + x in [sqrt(2)/2, sqrt(2)]) the reduction's f is x itself, exact; elsewhere log(u) +
    (x - (u - 1)) / u with u = 1 + x, the second term the rounding error of u (small there: a compiler that
    reassociates it away, as Mesa does, costs under half an ulp)."""
    near = o.and_(o.cmp("gt", x, SQRT2 / 2 - 1), o.cmp("lt", x, SQRT2 - 1))
    u = o.add(1.0, x)
    corr = o.div(o.sub(x, o.sub(u, 1.0)), u)
    far = _log_specials(o, u, o.add(_log_core(o, u), corr))
    r = o.sel(near, _log_kf(o, 0.0, x), far)
    r = o.sel(o.cmp("eq", x, INF), INF, r)
    return o.sel(o.cmp("eq", x, 0.0), x, r)


# ------------------------------------------------------------------------------------------------ trigonometry


def _trig_reduce(o: Ops, x: V) -> tuple[V, V, V]:
    """x = n pi/2 + y0 + y1 (pi/2 in three parts, the first two of 33 bits): (y0, y1, n mod 4 as i64)."""
    n = o.floor(o.fma(x, INV_PIO2, 0.5))
    nn = o.neg(n)
    r = o.fma(nn, PIO2_1, x)  # exact for |n| < 2^20
    y0 = o.fma(nn, PIO2_2, r)
    y1 = o.fma(nn, PIO2_2T, o.fma(nn, PIO2_2, o.sub(r, y0)))
    y0, y1 = o.fast_two_sum(y0, y1)
    q = o.fma(o.floor(o.mul(n, 0.25)), -4.0, n)  # n mod 4, exact (and in range) for every finite n
    return y0, y1, o.to_int(q)


def _sin_pair(o: Ops, y0: V, y1: V) -> tuple[V, V]:
    z = o.mul(y0, y0)
    c1 = o.fma(o.mul(z, -0.5), y1, y1)
    return y0, o.fma(o.mul(y0, z), o.poly(z, SIN_P), c1)


def _cos_pair(o: Ops, y0: V, y1: V) -> tuple[V, V]:
    z = o.mul(y0, y0)
    hz = o.mul(z, 0.5)  # exact
    w = o.sub(1.0, hz)
    tail = o.fma(o.mul(z, z), o.poly(z, COS_P), o.neg(o.mul(y0, y1)))
    return w, o.add(o.sub(o.sub(1.0, w), hz), tail)


def _trig_bad(o: Ops, x: V) -> V:
    return o.isnan(o.sub(x, x))  # inf or NaN


def _sin_cos_parts(o: Ops, x: V) -> tuple[V, tuple[V, V], tuple[V, V], V]:
    """sin and cos share them: the quadrant q, sin and cos of the reduced argument (hi/lo pairs), q odd."""
    y0, y1, q = _trig_reduce(o, x)
    s = _sin_pair(o, y0, y1)
    c = _cos_pair(o, y0, y1)
    return q, s, c, o.ibin("ne", o.ibin("bitand", q, 1), 0)


def sin(o: Ops, x: V) -> V:
    q, s, c, odd = _sin_cos_parts(o, x)
    v = o.sel(odd, o.add(*c), o.add(*s))
    v = o.sel(o.ibin("ne", o.ibin("bitand", q, 2), 0), o.neg(v), v)
    return o.sel(_trig_bad(o, x), NAN, o.sel(o.cmp("eq", x, 0.0), x, v))


def cos(o: Ops, x: V) -> V:
    q, s, c, odd = _sin_cos_parts(o, x)
    v = o.sel(odd, o.add(*s), o.add(*c))
    neg = o.ibin("ne", o.ibin("bitand", o.ibin("add", q, 1), 2), 0)
    v = o.sel(neg, o.neg(v), v)
    return o.sel(_trig_bad(o, x), NAN, v)


def _dd_div(o: Ops, ah: V, al: V, bh: V, bl: V) -> V:
    """(ah + al) / (bh + bl) for normalized pairs (|lo| <= ulp(hi) / 2)."""
    q1 = o.div(ah, bh)
    r = o.add(o.fma(o.neg(q1), bh, ah), al)
    r = o.fma(o.neg(q1), bl, r)
    return o.add(q1, o.div(r, bh))


def tan(o: Ops, x: V) -> V:
    y0, y1, q = _trig_reduce(o, x)
    sh, sl = o.fast_two_sum(*_sin_pair(o, y0, y1))
    ch, cl = o.fast_two_sum(*_cos_pair(o, y0, y1))
    odd = o.ibin("ne", o.ibin("bitand", q, 1), 0)
    v = o.sel(odd, o.neg(_dd_div(o, ch, cl, sh, sl)), _dd_div(o, sh, sl, ch, cl))
    return o.sel(_trig_bad(o, x), NAN, o.sel(o.cmp("eq", x, 0.0), x, v))


def _atan_pos(o: Ops, a: V) -> V:
    """atan(a) for a >= 0 (or +inf; NaN gives NaN): fdlibm's breakpoints, then a series on |t| <= 7/16."""
    ts = [o.div(o.sub(o.mul(a, 2.0), 1.0), o.add(2.0, a)), o.div(o.sub(a, 1.0), o.add(a, 1.0)),
          o.div(o.sub(a, 1.5), o.add(1.0, o.mul(a, 1.5))), o.div(-1.0, a)]

    def at(t: V, hi: float, lo: float) -> V:
        z = o.mul(t, t)
        w = o.fma(o.mul(t, z), o.poly(z, ATAN_P), lo)
        return o.add(hi, o.add(t, w))

    r = at(ts[3], ATAN_HI[3], ATAN_LO[3])
    for bound, t, hi, lo in reversed(list(zip((11 / 16, 19 / 16, 39 / 16), ts[:3], ATAN_HI[:3], ATAN_LO[:3]))):
        r = o.sel(o.cmp("lt", a, bound), at(t, hi, lo), r)
    return o.sel(o.cmp("lt", a, 7 / 16), at(a, 0.0, 0.0), r)


def atan(o: Ops, x: V) -> V:
    return o.copysign(_atan_pos(o, o.abs(x)), x)


def atan2(o: Ops, y: V, x: V) -> V:
    ax, ay = o.abs(x), o.abs(y)
    u = o.div(o.fmin(ax, ay), o.fmax(ax, ay))
    u = o.sel(o.cmp("eq", o.fmax(ax, ay), 0.0), 0.0, u)
    u = o.sel(o.and_(o.cmp("eq", ax, INF), o.cmp("eq", ay, INF)), 1.0, u)
    a = _atan_pos(o, u)
    a = o.sel(o.cmp("gt", ay, ax), o.add(o.sub(PIO2, a), PIO2_LO), a)
    a = o.sel(o.signbit(x), o.add(o.sub(PI, a), PI_LO), a)
    return o.sel(o.or_(o.isnan(x), o.isnan(y)), o.add(x, y), o.copysign(a, y))


def _asin_parts(o: Ops, a: V) -> tuple[V, V, V, V]:
    """For 0 <= a <= 1/2: asin(a) = a + t_small; for a > 1/2: asin(a) = pi/2 - 2 (s + t), s + t =
    asin(sqrt((1 - a) / 2)) with the square root's rounding error in t. Returns (z, t_small, s, t)."""
    z = o.mul(a, a)
    t_small = o.mul(o.mul(a, z), o.poly(z, ASIN_P))
    w = o.mul(o.sub(1.0, a), 0.5)  # exact
    sv = o.sqrt(w)
    e = o.div(o.fma(o.neg(sv), sv, w), o.mul(sv, 2.0))
    e = o.sel(o.cmp("eq", w, 0.0), 0.0, e)  # |x| = 1 (0 / 0)
    t = o.fma(o.mul(sv, w), o.poly(w, ASIN_P), e)
    return z, t_small, sv, t


def asin(o: Ops, x: V) -> V:
    a = o.abs(x)
    _, t_small, sv, t = _asin_parts(o, a)
    small = o.add(a, t_small)
    big = o.sub(o.sub(PIO2, o.mul(sv, 2.0)), o.sub(o.mul(t, 2.0), PIO2_LO))
    return o.copysign(o.sel(o.cmp("le", a, 0.5), small, big), x)


def acos(o: Ops, x: V) -> V:
    a = o.abs(x)
    _, _, sv, t = _asin_parts(o, a)
    z = o.mul(x, x)
    small = o.sub(PIO2, o.add(x, o.fma(o.mul(x, z), o.poly(z, ASIN_P), o.neg(PIO2_LO))))
    pos = o.add(o.mul(sv, 2.0), o.mul(t, 2.0))
    negv = o.sub(o.sub(PI, o.mul(sv, 2.0)), o.sub(o.mul(t, 2.0), PI_LO))
    return o.sel(o.cmp("le", a, 0.5), small, o.sel(o.cmp("gt", x, 0.0), pos, negv))


# ------------------------------------------------------------------------------------------------ hyperbolic


def sinh(o: Ops, x: V) -> V:
    a = o.abs(x)
    t = expm1(o, o.fmin(a, 709.0))
    tp1 = o.add(t, 1.0)
    small = o.mul(o.sub(o.mul(t, 2.0), o.div(o.mul(t, t), tp1)), 0.5)
    mid = o.mul(o.add(t, o.div(t, tp1)), 0.5)
    big = o.mul(tp1, 0.5)
    w = exp(o, o.mul(a, 0.5))
    huge = o.mul(o.hold(o.settle(o.mul(w, 0.5))), w)
    r = o.sel(o.cmp("lt", a, 1.0), small, o.sel(o.cmp("lt", a, 22.0), mid, o.sel(o.cmp("le", a, 709.0), big, huge)))
    return o.copysign(r, x)


def cosh(o: Ops, x: V) -> V:
    a = o.abs(x)
    t = expm1(o, o.fmin(a, 0.5))
    small = o.add(1.0, o.div(o.mul(t, t), o.mul(o.add(t, 1.0), 2.0)))
    e = exp(o, o.fmin(a, 709.0))
    mid = o.add(o.mul(e, 0.5), o.div(0.5, e))
    big = o.mul(e, 0.5)
    w = exp(o, o.mul(a, 0.5))
    huge = o.mul(o.hold(o.settle(o.mul(w, 0.5))), w)
    r = o.sel(o.cmp("lt", a, 0.34657359027997264), small,
              o.sel(o.cmp("lt", a, 22.0), mid, o.sel(o.cmp("le", a, 709.0), big, huge)))
    return o.sel(o.isnan(x), x, r)


def tanh(o: Ops, x: V) -> V:
    """|x| < 1: -t / (t + 2) with t = expm1(-2|x|) kept as a hi/lo pair (one rounding of t alone is 2 ulp of
    the quotient near |x| = 0.47); else 1 - 2 / (t + 2) with t = expm1(2|x|)."""
    a = o.abs(x)
    lt1 = o.cmp("lt", a, 1.0)
    u, s1, rest, n = _expm1_parts(o, o.sel(lt1, o.mul(a, -2.0), o.fmin(o.mul(a, 2.0), 100.0)))
    t = _scale(o, u, n)
    th, tl = o.settle(t), o.settle(_scale(o, o.add(o.sub(s1, u), rest), n))  # exact scalings (n in [-3, 0])
    dh, de = o.two_sum(th, o.c(2.0))
    small = _dd_div(o, o.neg(th), o.neg(tl), *o.fast_two_sum(dh, o.add(de, tl)))
    big = o.sub(1.0, o.div(2.0, o.add(t, 2.0)))
    r = o.copysign(o.sel(lt1, small, big), x)
    return o.sel(o.isnan(x), x, r)


# ------------------------------------------------------------------------------------------------ roots


def cbrt(o: Ops, x: V) -> V:
    """exp(log|x| / 3), then one Newton step with y^3 - a computed exactly enough (fma products); a
    subnormal |x| is scaled by 2^54 first (its cube's products would underflow) and the root by 2^-18."""
    a0 = o.abs(x)
    tiny = o.cmp("lt", a0, TINY)
    a = o.sel(tiny, o.mul(a0, 2.0 ** 54), a0)
    y = exp(o, o.div(_log_core(o, a), 3.0))
    y2h = o.mul(y, y)
    y2l = o.fma(y, y, o.neg(y2h))
    y3h = o.mul(y2h, y)
    err = o.add(o.sub(y3h, a), o.mul(y2l, y))  # fma(y2l, y, fma(y2h, y, -a)): y^3 - a, nearly exact
    y = o.sub(y, o.div(err, o.mul(o.mul(y, y), 3.0)))
    y = o.sel(tiny, o.mul(y, 2.0 ** -18), y)
    special = o.or_(o.or_(o.cmp("eq", a, 0.0), o.cmp("eq", a, INF)), o.isnan(a))
    return o.sel(special, x, o.copysign(y, x))


def hypot(o: Ops, x: V, y: V) -> V:
    """sqrt(m^2 + n^2) on operands scaled by a power of two, corrected by one Newton step (the residual
    sh - h^2 of a square root is exact)."""
    ax, ay = o.abs(x), o.abs(y)
    big, small = o.fmax(ax, ay), o.fmin(ax, ay)
    up = o.cmp("lt", big, 2.0 ** -500)
    down = o.cmp("gt", big, 2.0 ** 500)
    k = o.sel(up, 2.0 ** 600, o.sel(down, 2.0 ** -600, 1.0))
    m, n = o.mul(big, k), o.mul(small, k)
    n2h = o.mul(n, n)
    n2l = o.fma(n, n, o.neg(n2h))
    sh = o.fma(m, m, n2h)
    h = o.sqrt(sh)
    h = o.add(h, o.div(o.add(o.fma(o.neg(h), h, sh), n2l), o.mul(h, 2.0)))
    r = o.div(h, k)
    r = o.sel(o.cmp("eq", big, 0.0), 0.0, r)
    r = o.sel(o.or_(o.isnan(x), o.isnan(y)), NAN, r)
    return o.sel(o.or_(o.cmp("eq", ax, INF), o.cmp("eq", ay, INF)), INF, r)


# ------------------------------------------------------------------------------------------------ pow


def pow_narrow(o: Ops, x: V, y: V) -> V:
    """C pow for results that are rounded to f32 or narrower: exp(y log|x|) in double (about 2^-45 relative
    for |y log x| < 746), with C's special cases. Not accurate to the last bits of a double."""
    ax = o.abs(x)
    return _pow_specials(o, x, y, ax, exp(o, o.mul(y, log(o, ax))))


def _pow_specials(o: Ops, x: V, y: V, ax: V, r: V) -> V:
    """C's pow from r = |x|^y (right for x > 0 and at infinities): the sign for a negative base and an odd
    integer exponent, NaN for a finite negative base and a non-integer one, zeros (NaN stays NaN there), and
    1 for y == 0 or x == 1."""
    yint = o.cmp("eq", o.trunc(y), y)
    half = o.mul(y, 0.5)
    yodd = o.and_(yint, o.cmp("ne", o.trunc(half), half))
    xneg = o.cmp("lt", x, 0.0)
    r = o.sel(o.and_(xneg, yodd), o.neg(r), r)
    r = o.sel(o.and_(o.and_(xneg, o.b.unop("not", yint)), o.cmp("ne", x, -INF)), NAN, r)
    xz = o.and_(o.cmp("eq", x, 0.0), o.cmp("eq", y, y))
    zr = o.sel(o.cmp("lt", y, 0.0), INF, 0.0)
    zr = o.sel(yodd, o.copysign(zr, x), zr)
    r = o.sel(xz, zr, r)
    one = o.or_(o.cmp("eq", y, 0.0), o.cmp("eq", x, 1.0))
    one = o.or_(one, o.and_(o.cmp("eq", ax, 1.0), o.cmp("eq", o.abs(y), INF)))
    return o.sel(one, 1.0, r)


def _log_dd(o: Ops, x: V) -> tuple[V, V]:
    """log x as a hi/lo pair for a finite x > 0 (about 2^-100 relative): k ln2 + 2s + 2s^3/3 + R with s =
    f / (2 + f), the first three terms in double-double, R = 2s^5 (1/5 + s^2/7 + ...) in double."""
    k, f = _log_reduce(o, x)
    dh, dl = o.two_sum(o.c(2.0), f)
    sh = o.div(f, dh)
    sl = o.div(o.fma(o.neg(sh), dl, o.fma(o.neg(sh), dh, f)), dh)
    z = o.settle(o.mul(sh, sh))
    zl = o.fma(sh, sh, o.neg(z))
    ch = o.settle(o.mul(z, sh))
    cl = o.fma(o.mul(z, 3.0), sl, o.fma(zl, sh, o.fma(z, sh, o.neg(ch))))  # s^3 = ch + cl
    ch2 = o.settle(o.mul(ch, 2.0))
    th = o.div(ch2, 3.0)
    tl = o.div(o.add(o.fma(o.neg(th), 3.0, ch2), o.mul(cl, 2.0)), 3.0)  # 2 s^3 / 3 = th + tl
    big_r = o.mul(o.mul(o.mul(sh, 2.0), o.mul(z, z)), o.poly(z, [v / 2.0 for v in LOG_P[1:]]))
    ah = o.settle(o.mul(k, LN2))
    al = o.fma(k, LN2_LO, o.fma(k, LN2, o.neg(ah)))
    u1, e1 = o.two_sum(ah, o.settle(o.mul(sh, 2.0)))
    u2, e2 = o.two_sum(u1, th)
    lo = o.add(o.add(o.add(al, e1), o.add(e2, o.mul(sl, 2.0))), o.add(tl, big_r))
    return o.fast_two_sum(u2, lo)


def _exp_dd(o: Ops, x: V, xl: V) -> V:
    """e^(x + xl) for |xl| <= ulp(x) (exp's reduction with xl joined to the low part of ln 2)."""
    xc = o.fmin(o.fmax(x, -746.0), 710.0)
    n = o.floor(o.fma(xc, IVL2, 0.5))
    hi = o.fma(o.neg(n), LN2HI, xc)  # exact
    c = o.sub(xl, o.mul(n, LN2LO))
    r = o.add(hi, c)
    tail = o.fma(o.mul(r, r), o.poly(r, EXP_Q), c)
    e = o.add(1.0, o.add(hi, tail))
    return o.sel(o.isnan(x), x, _scale(o, e, n))


def pow(o: Ops, x: V, y: V) -> V:
    """C pow in double: exp(y log|x|) with log|x| and its product by y carried as hi/lo pairs (the error of
    y log x reaches the result multiplied by |y log x|, up to 745), then C's special cases."""
    ax = o.abs(x)
    lh, ll = _log_dd(o, ax)
    ph = o.settle(o.mul(y, lh))
    pl = o.fma(y, ll, o.fma(y, lh, o.neg(ph)))
    pl = o.sel(o.cmp("lt", o.abs(ph), 746.0), pl, 0.0)  # beyond, the result is 0 or inf (or NaN)
    r = _exp_dd(o, ph, pl)
    r = o.sel(o.cmp("eq", ax, INF), o.sel(o.cmp("lt", y, 0.0), 0.0, INF), r)
    r = o.sel(o.or_(o.isnan(x), o.isnan(y)), o.add(x, y), r)
    return _pow_specials(o, x, y, ax, r)


# ------------------------------------------------------------------------------------------------ exact ops


def fmod(o: Ops, x: V, y: V) -> V:
    """C fmod, exact at any width: while |r| >= |y|, subtract the multiple q (|y| 2^j) with |r| / (|y| 2^j) <
    2^(p-6), q the quotient truncated after a relative nudge up of 2^(4-p) (so q is the true quotient or one
    more even with a 2.5-ulp division); each remainder fma(-q, d, r) is exact (|result| < d), a negative one
    gets d back. Every step removes p - 7 bits of the exponent difference."""
    p = o.fmt.precision
    ax, ay = o.abs(x), o.abs(y)
    bad = o.or_(o.or_(o.isnan(o.sub(x, x)), o.isnan(y)), o.cmp("eq", y, 0.0))
    d0 = o.sel(bad, 1.0, ay)
    r = o.b.let_mut("r", o.sel(bad, 0.0, ax))
    with o.b.while_() as w:
        with w.cond():
            w.yield_(o.cmp("ge", o.b.load(r), d0))
        with w.body():
            rv = o.b.load(r)
            ex = o.ibin("sub", o.ilogb(rv), o.ilogb(d0))
            j = o.ibin("sub", ex, p - 7)
            j = o.sel(o.ibin("lt", j, 0), o.ci(0), j)
            j3 = o.ibin("div", j, 3)
            # three scalings, each held: a driver that reassociates (NVIDIA's Vulkan) would otherwise multiply the
            # powers first, 2^j overflows, and r / d gives NaN (fmod(1e300, 3e-300) on the H200)
            p3 = o.pow2(j3)
            d = o.hold(o.settle(o.mul(o.hold(o.settle(o.mul(d0, p3))), p3)))
            d = o.settle(o.mul(d, o.pow2(o.ibin("sub", j, o.ibin("mul", j3, 2)))))
            q = o.trunc(o.settle(o.mul(o.div(rv, d), 1.0 + 2.0 ** (4 - p))))
            v = o.fma(o.neg(q), d, rv)
            o.b.store(r, o.sel(o.cmp("lt", v, 0.0), o.add(v, d), v))
    return o.sel(bad, NAN, o.copysign(o.b.load(r), x))


def round(o: Ops, x: V) -> V:
    """C round (halves away from zero): trunc(x), plus copysign(1, x) where |x - trunc(x)| >= 1/2 (exact)."""
    t = o.trunc(x)
    return o.sel(o.cmp("ge", o.abs(o.sub(x, t)), 0.5), o.add(t, o.copysign(o.c(1.0), x)), t)


def copysign(o: Ops, x: V, y: V) -> V:
    return o.copysign(x, y)
