"""Single-precision math routines in sarek IR for the default floating-point policy (fp=default) on PTX.

What CUDA's `expf`, `logf`, `sinf`... give (f32 arithmetic, within CUDA's documented ulp bounds), instead of
the f64-core routines (sarek/mathlib/routines.py, used at fp=exact: correctly rounded nearly always, but
dozens of double operations). `Ops32` is `Ops` over f32 values and i32 bits. Every product meant to be fused
is an explicit fma, so the interpreter, ptxas (which contracts at fp=default) and every device give the same
bits. Accuracy, measured against numpy in float64 on the interpreter (tests/unit/test_expand_math.py,
BENCHMARKS.md): max 1 ulp (log, sin, cos), 2 ulp (log2, log10) on the stated domains.
- exp: CUDA's expf, around the target's exp2 (PTX: `ex2.approx.f32`, MUFU.EX2; f32 exp2 itself is that
  instruction at fp=default, the native-math table's HARDWARE entry): CUDA's documented 2 ulp (expf, exp2f),
  measured on the device by tests/unit/test_fast_math_gpu.py. Not reproducible off the device: the
  interpreter's exp2 is numpy's (within 1 ulp here).
- log, log2, log10: x = 2^k (1 + f), 1 + f in [sqrt(2)/2, sqrt(2)) from the bits, log(1 + f) = f - f^2/2 + f^3 P(f)
  with P of degree 7 (no division: CUDA's logf is such a polynomial too; the hardware lg2.approx has an
  absolute error bound, 2^-22.6, that cannot give logf's 1 ulp near x = 1).
- sin, cos: x = n pi/2 + r reduced in double (two fma, then one rounding to f32), Taylor to r^9 / r^10
  in f32; for |x| >= 2^17 the f64 routine (`sarek_sin_f64`), so large arguments stay accurate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import f32, f64

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.mathlib.ops import F32, Format, Ops, V
from sarek.mathlib.helpers import helper_name as f64_helper_name

INF, NAN = float("inf"), float("nan")
LN2_HI_LOG, LN2_LO_LOG = 0.693138122558594, 9.05800061445916e-06  # musl logf's split
IVLN2, IVLN10 = 1.4426950216293335, 0.4342944920063019
LOG10_2HI, LOG10_2LO = 0.30102920532226562, 7.903415166765626e-07  # musl log10f
# log1p(f) = f - f^2/2 + f^3 P(f) on [sqrt(2)/2 - 1, sqrt(2) - 1]: P fitted (least squares on Chebyshev nodes,
# weighted for the relative error of log1p), coefficients rounded to f32: 0.12 ulp before rounding errors
LOG1P_P = (0.333333283662796, -0.2500084638595581, 0.200014129281044, -0.1662275195121765,
           0.14197877049446106, -0.13161605596542358, 0.1278633028268814, -0.07660818845033646)
M_LO_BITS = 0x3F3504F3  # the bits of sqrt(2)/2: m = x / 2^k in [sqrt(2)/2, sqrt(2)) (log10 and log2 of x
# just above 4/3 would cancel k log(2) against log(m) with m near 2/3)
INV_PIO2 = 0.6366197466850281
PIO2_HI_64, PIO2_LO_64 = 1.5707963267948966, 6.123233995736766e-17
TINY = 1.1754943508222875e-38  # smallest normal float
BIG_TRIG = 131072.0  # 2^17: beyond it sin/cos use the f64 routine
L2E_HI, L2E_LO = 1.4426950216293335, 1.925963033500011e-08  # log2(e): its f32 rounding and the rest (CUDA's split)
SIN_P = [-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880]
COS_P = [1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800]


@dataclass
class Ops32(Ops):
    """`Ops` on f32 values (constants rounded to f32) with i32 bits."""

    fmt: Format = F32


def exp(o: Ops32, x: V) -> V:
    """CUDA's expf: e^x = 2^n 2^r, n = x log2 e rounded to an integer, limited to the normal powers [-126, 127],
    r = x log2 e - n with log2 e in two parts (|r| <= 1/2 within 2^-25 of exact, about 0.25 ulp of e^x), 2^r by the target's `exp2` (the hardware approximation
    on PTX, ex2.approx.f32), 2^n from its bits. Out-of-range x saturates n and leaves r large: 2^r overflows
    to inf or its product underflows to 0 (subnormal results rounded once); NaN stays NaN (fmax drops it)."""
    n = o.fmin(o.fmax(o.floor(o.fma(x, L2E_HI, 0.5)), -126.0), 127.0)
    r = o.fma(x, L2E_LO, o.fma(x, L2E_HI, o.neg(n)))
    return o.mul(o.native("exp2", r), o.pow2(o.to_int(n)))


def _log_parts(o: Ops32, x: V) -> tuple[V, V]:
    """x = 2^k m with m in [sqrt(2)/2, sqrt(2)) from the bits (subnormal x scaled by 2^23 first), f = m - 1
    (exact): (k as f32, log(1 + f)), the latter f - f^2/2 + f^3 P(f) (P of degree 7), without a division."""
    tiny = o.cmp("lt", x, TINY)
    xs = o.sel(tiny, o.mul(x, 2.0 ** 23), x)
    e = o.ibin("shr", o.ibin("sub", o.bits(xs), M_LO_BITS), 23)
    f = o.sub(o.from_bits(o.ibin("sub", o.bits(xs), o.ibin("shl", e, 23))), 1.0)
    k = o.to_float(o.ibin("sub", e, o.sel(tiny, o.ci(23), o.ci(0))))
    q = o.fma(o.poly(f, LOG1P_P), f, -0.5)
    return k, o.fma(q, o.settle(o.mul(f, f)), f)


def _log_specials(o: Ops32, x: V, r: V) -> V:
    r = o.sel(o.cmp("eq", x, 0.0), -INF, r)
    r = o.sel(o.cmp("eq", x, INF), INF, r)
    return o.sel(o.or_(o.cmp("lt", x, 0.0), o.isnan(x)), NAN, r)


def log(o: Ops32, x: V) -> V:
    k, lp = _log_parts(o, x)
    return _log_specials(o, x, o.fma(k, LN2_HI_LOG, o.fma(k, LN2_LO_LOG, lp)))


def _log_scaled(o: Ops32, x: V, inv: float, hi: float, lo: float) -> V:
    """log(x) * inv = k (hi + lo) + log(1 + f) * inv, hi + lo = log_b(2) with hi of 12 bits (k hi exact)."""
    k, lp = _log_parts(o, x)
    return _log_specials(o, x, o.fma(k, hi, o.fma(lp, inv, o.mul(k, lo))))


def log2(o: Ops32, x: V) -> V:
    k, lp = _log_parts(o, x)
    return _log_specials(o, x, o.fma(lp, IVLN2, k))


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
    "exp": exp, "log": log, "log2": log2, "log10": log10, "sin": sin, "cos": cos,
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
