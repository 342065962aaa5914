"""Single-precision forms of library routines for targets without double precision (WGSL, Metal) and GLSL's f32:
they take the target's own f32 exp, log and pow and fix what those get wrong (cancellation near 0, overflow,
C's special cases)."""

from __future__ import annotations

import math as _m

from sarek.mathlib.ops import Ops, V
from sarek.mathlib.routines import INF, _pow_specials  # pyright: ignore[reportPrivateUsage]


def expm1_via_exp(o: Ops, x: V) -> V:
    """exp(x) - 1, or the Taylor series near 0 (where exp(x) - 1 loses every digit)."""
    series = o.mul(x, o.poly(x, [1.0 / _m.factorial(k) for k in range(1, 11)]))
    return o.sel(o.cmp("gt", o.abs(x), 0.5), o.sub(o.native("exp", x), 1.0), series)


def log1p_via_log(o: Ops, x: V) -> V:
    """log(1 + x), or 2 atanh(x / (2 + x)) as a series near 0."""
    sv = o.div(x, o.add(2.0, x))
    series = o.mul(o.mul(sv, 2.0), o.poly(o.mul(sv, sv), [1.0 / (2 * k + 1) for k in range(9)]))
    return o.sel(o.cmp("gt", o.abs(x), 0.5), o.native("log", o.add(1.0, x)), series)


def pow_via_pow(o: Ops, x: V, y: V) -> V:
    """The target's pow on |x| (undefined for x <= 0 in GLSL and WGSL), with C's special cases."""
    ax = o.abs(x)
    r = o.sel(o.cmp("eq", ax, 0.0), 0.0, o.native("pow", ax, y))
    return _pow_specials(o, x, y, ax, r)


def cbrt_via_pow(o: Ops, x: V) -> V:
    return o.copysign(o.native("pow", o.abs(x), 1.0 / 3.0), x)


def hypot_scaled(o: Ops, x: V, y: V) -> V:
    """m sqrt(1 + (n/m)^2) with m the larger magnitude (x * x overflows from 1.9e19 in f32)."""
    ax, ay = o.abs(x), o.abs(y)
    m = o.fmax(ax, ay)
    r = o.div(o.fmin(ax, ay), m)
    return o.sel(o.or_(o.cmp("eq", m, 0.0), o.cmp("eq", m, INF)), m, o.mul(m, o.sqrt(o.fma(r, r, 1.0))))
