"""Single-precision math routines in sarek IR for the default floating-point policy (fp=default) on PTX.

What CUDA's `expf`, `logf`, `sinf`... give (f32 arithmetic, within CUDA's documented ulp bounds), instead of
the f64-core routines (sarek/mathlib/routines.py, used at fp=exact: correctly rounded nearly always, but
dozens of double operations). `Ops32` is `Ops` over f32 values and i32 bits. Every product meant to be fused
is an explicit fma, so the interpreter, ptxas (which contracts at fp=default) and every device give the same
bits. Accuracy, measured against numpy in float64 on the interpreter (tests/unit/test_expand_math.py,
BENCHMARKS.md): max 1 ulp (exp, exp2, log, sin, cos), 2 ulp (log2, log10) on the stated domains.
- exp, exp2: Cody-Waite reduction to |r| <= ln2/2 (|f| <= 1/2), Taylor to the r^7 term, scaling in two
  normal powers of two (subnormal results rounded once).
- log, log2, log10: x = 2^k (1 + f), 1 + f in [sqrt(2)/2, sqrt(2)), musl's logf kernel (s = f / (2 + f),
  minimax in s^2).
- sin, cos: x = n pi/2 + r reduced in double (two fma, then one rounding to f32), Taylor to r^9 / r^10
  in f32; for |x| >= 2^17 the f64 routine (`sarek_sin_f64`), so large arguments stay accurate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import f32, f64

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.mathlib.ops import F32, Format, Ops, V
from sarek.mathlib.routines import FloatFormat, _log_reduce  # pyright: ignore[reportPrivateUsage]
from sarek.mathlib.helpers import helper_name as f64_helper_name

INF, NAN = float("inf"), float("nan")
IVL2 = 1.4426950216293335
LN2HI, LN2LO = 0.693145751953125, 1.428606765330187e-06  # LN2HI has 12 trailing zero bits
LN2_HI_LOG, LN2_LO_LOG = 0.693138122558594, 9.05800061445916e-06  # musl logf's split
IVLN2, IVLN10 = 1.4426950216293335, 0.4342944920063019
LOG10_2HI, LOG10_2LO = 0.30102920532226562, 7.903415166765626e-07  # musl log10f
LG = (0.66666662693, 0.40000972152, 0.28498786688, 0.24279078841)  # musl logf: Lg1..Lg4
INV_PIO2 = 0.6366197466850281
PIO2_HI_64, PIO2_LO_64 = 1.5707963267948966, 6.123233995736766e-17
SQRT2 = 1.4142135381698608
TINY = 1.1754943508222875e-38  # smallest normal float
F32_FORMAT = FloatFormat(23, 127, TINY, 23, SQRT2)
BIG_TRIG = 131072.0  # 2^17: beyond it sin/cos use the f64 routine
EXP_P = [1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040]  # (e^r - 1 - r) / r^2
EXP2_P = [math.log(2.0) ** k / math.factorial(k) for k in range(1, 8)]  # (2^f - 1) / f, |f| <= 1/2
SIN_P = [-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880]
COS_P = [1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800]


@dataclass
class Ops32(Ops):
    """`Ops` on f32 values (constants rounded to f32) with i32 bits."""

    fmt: Format = F32


def _scale(o: Ops32, v: V, n: V) -> V:
    """v * 2^n for an integral f32 n in [-151, 129], in two normal powers of two."""
    ni = o.to_int(n)
    h1 = o.ibin("shr", ni, 1)
    return o.mul(o.mul(v, o.pow2(h1)), o.pow2(o.ibin("sub", ni, h1)))


def _clamp(o: Ops32, x: V, lo: float, hi: float) -> V:
    """x limited to [lo, hi]; NaN stays NaN (comparisons with it are false)."""
    x = o.sel(o.cmp("gt", x, hi), hi, x)
    return o.sel(o.cmp("lt", x, lo), lo, x)


def exp(o: Ops32, x: V) -> V:
    xc = _clamp(o, x, -104.0, 89.0)
    n = o.floor(o.fma(xc, IVL2, 0.5))
    r = o.fma(o.neg(n), LN2LO, o.fma(o.neg(n), LN2HI, xc))
    e = o.add(1.0, o.fma(o.mul(r, r), o.poly(r, EXP_P), r))
    return _scale(o, e, n)


def exp2(o: Ops32, x: V) -> V:
    xc = _clamp(o, x, -151.0, 129.0)
    n = o.floor(o.add(xc, 0.5))
    f = o.sub(xc, n)  # exact
    return _scale(o, o.fma(f, o.poly(f, EXP2_P), 1.0), n)


def _log_parts(o: Ops32, x: V) -> tuple[V, V, V, V]:
    """x = 2^k (1 + f): (k as f32, f, hfsq = f^2/2, s (hfsq + R)) with log(1 + f) = f - hfsq + s (hfsq + R)."""
    k, f = _log_reduce(o, x, F32_FORMAT)
    sv = o.div(f, o.add(2.0, f))
    z = o.mul(sv, sv)
    w = o.mul(z, z)
    big_r = o.add(o.mul(z, o.fma(w, LG[2], LG[0])), o.mul(w, o.fma(w, LG[3], LG[1])))
    hfsq = o.mul(o.mul(f, 0.5), f)
    return k, f, hfsq, o.mul(sv, o.add(hfsq, big_r))


def _log_specials(o: Ops32, x: V, r: V) -> V:
    r = o.sel(o.cmp("eq", x, 0.0), -INF, r)
    r = o.sel(o.cmp("eq", x, INF), INF, r)
    return o.sel(o.or_(o.cmp("lt", x, 0.0), o.isnan(x)), NAN, r)


def log(o: Ops32, x: V) -> V:
    k, f, hfsq, t = _log_parts(o, x)
    r = o.add(o.add(o.sub(o.fma(k, LN2_LO_LOG, t), hfsq), f), o.mul(k, LN2_HI_LOG))
    return _log_specials(o, x, r)


def _log_scaled(o: Ops32, x: V, inv: float, hi: float, lo: float) -> V:
    """log(x) * inv = k (hi + lo) + log(1 + f) * inv, hi + lo = log_b(2) with hi of 12 bits (k hi exact)."""
    k, f, hfsq, t = _log_parts(o, x)
    lp = o.add(o.sub(t, hfsq), f)
    return _log_specials(o, x, o.fma(k, hi, o.fma(lp, inv, o.mul(k, lo))))


def log2(o: Ops32, x: V) -> V:
    k, f, hfsq, t = _log_parts(o, x)
    return _log_specials(o, x, o.fma(o.add(o.sub(t, hfsq), f), IVLN2, k))


def log10(o: Ops32, x: V) -> V:
    return _log_scaled(o, x, IVLN10, LOG10_2HI, LOG10_2LO)


def _trig(o: Ops32, x: V, cosine: bool) -> V:
    n = o.floor(o.fma(x, INV_PIO2, 0.5))
    # r = x - n pi/2 in double (pi/2 in two parts; each fma rounds once at r's magnitude), then rounded to
    # f32 once: about 0.5 ulp however close x is to a multiple of pi/2 (an f32 reduction costs 1 ulp more)
    nn = o.b.cast(o.neg(n), f64)
    rd = o.b.intrinsic("fma", nn, o.b.const(PIO2_LO_64, f64),
                       o.b.intrinsic("fma", nn, o.b.const(PIO2_HI_64, f64), o.b.cast(x, f64)))
    r = o.b.cast(rd, f32)
    z = o.mul(r, r)
    sn = o.fma(o.mul(r, z), o.poly(z, SIN_P), r)
    hz = o.mul(z, 0.5)
    w = o.sub(1.0, hz)
    tail = o.sub(o.sub(1.0, w), hz)  # the rounding error of w (fdlibm's cos kernel)
    cs = o.add(w, o.fma(o.mul(z, z), o.poly(z, COS_P), tail))
    q = o.ibin("bitand", o.ibin("add", o.to_int(n), 1 if cosine else 0), 3)
    v = o.sel(o.ibin("ne", o.ibin("bitand", q, 1), 0), cs, sn)
    v = o.sel(o.ibin("ne", o.ibin("bitand", q, 2), 0), o.neg(v), v)
    v = o.sel(o.isnan(o.sub(x, x)), NAN, v)  # inf, NaN
    if not cosine:
        v = o.sel(o.cmp("eq", x, 0.0), x, v)  # sin(-0) = -0
    # large arguments: the f64 routine (exact reduction); a branch, taken by no lane on ordinary inputs
    big = o.cmp("ge", o.abs(x), BIG_TRIG)
    e = o.b.if_expr(big, f32)
    with e.then_():
        wide = o.b.call(f64_helper_name("cos" if cosine else "sin"), [o.b.cast(x, f64)], f64)
        assert wide is not None
        e.yield_(o.b.cast(wide, f32))
    with e.else_():
        e.yield_(v)
    return e.result


def sin(o: Ops32, x: V) -> V:
    return _trig(o, x, False)


def cos(o: Ops32, x: V) -> V:
    return _trig(o, x, True)


ROUTINES32: dict[str, Callable[[Ops32, V], V]] = {
    "exp": exp, "exp2": exp2, "log": log, "log2": log2, "log10": log10, "sin": sin, "cos": cos,
}
"""Function -> builder of its f32 routine (one argument)."""
#: the f64 routines a fast routine calls (large arguments)
NEEDS: dict[str, tuple[str, ...]] = {"sin": ("sin",), "cos": ("cos",)}


def routine_name(fn: str) -> str:
    """The native-math table's routine name of fn's f32 routine (`exp_f32`)."""
    return f"{fn}_f32"


def helper_name(fn: str) -> str:
    return f"sarek_{fn}_f32"


def build_helper(fn: str) -> s.HelperOp:
    """`sarek.helper @sarek_<fn>_f32(x : f32) -> f32` computing the f32 routine."""
    op = s.HelperOp(helper_name(fn), [("x", f32)], f32)
    b = BodyBuilder(op.body.block)
    b.return_(ROUTINES32[fn](Ops32(b), op.body.block.args[0]))
    return op
