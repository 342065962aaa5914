"""Math intrinsics as PTX instruction sequences.

Exact operations map to exact instructions (sqrt.rn, div.rn, fma.rn, abs, min/max, cvt.rmi/rpi/rzi, copysign).
f32 transcendentals are computed by an f64 core (range reduction + polynomials in double precision, then one
`cvt.rn.f32.f64`), which keeps them within about 1 ulp of the correctly rounded result: tighter than CUDA's
non-fast-math f32 library (sinf/expf/logf: 1-2 ulp), and never `.approx`. f16 promotes to f32 and narrows
with `cvt.rn`. f64 transcendentals are refused (PTX has no f64 library and the f64 core is not accurate to
CUDA's 1-2 ulp in double precision); exact f64 operations are supported.
"""

from __future__ import annotations

import math as _m
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, f32, f64
from xdsl.ir import Attribute, Operation

from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import RegAttr

if TYPE_CHECKING:
    from sarek.lowering.ptx import Emitter, FnState, Lowering

R = RegAttr

EXACT_F64 = {"sqrt", "rsqrt", "fabs", "abs", "floor", "ceil", "trunc", "round", "fmin", "fmax", "min", "max",
             "fma", "copysign"}
F32_CORE = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2",
            "log10", "cbrt", "expm1", "log1p", "atan2", "pow", "hypot", "fmod", "rsqrt"}


def F(v: float) -> FloatAttr:
    return FloatAttr(v, f64)


def F32(v: float) -> FloatAttr:
    return FloatAttr(v, f32)


def math(lw: Lowering, st: FnState, name: str, args: list[Any], t: Attribute, op: Operation) -> RegAttr:
    from sarek.lowering.ptx import ptx_error

    em: Emitter = st.em
    regs = [a.r for a in args]
    if isinstance(t, Float16Type):
        xs = [em.cvt("f32.f16", "f32", r) for r in regs]
        return em.cvt("rn.f16.f32", "f16", _float(em, name, xs, "f32", op))
    if isinstance(t, Float32Type | Float64Type):
        ty = "f32" if isinstance(t, Float32Type) else "f64"
        if ty == "f64" and name not in EXACT_F64:
            raise ptx_error(f"f64 '{name}' not yet supported (PTX has no double-precision math library; sarek's f64 "
                       "core is accurate for f32 results only, not to CUDA's 1-2 ulp in double; use the cuda "
                       "device for f64 transcendentals; exact f64 operations are supported: "
                       f"{', '.join(sorted(EXACT_F64))})", op)
        return _float(em, name, regs, ty, op)
    # integers
    rt = regs[0].ty.data
    if name == "abs":
        return em.op1(px.AbsOp, rt, rt, regs[0])
    if name in ("min", "max"):
        return em.op2(px.MinOp if name == "min" else px.MaxOp, rt, rt, regs[0], regs[1])
    if name in ("clz", "popcount"):
        cls = px.ClzOp if name == "clz" else px.PopcOp
        return em.op1(cls, "b32" if rt == "s32" else "b64", "s32", regs[0])
    raise ptx_error(f"'{name}' on {t} is not supported on PTX", op)


def _float(em: Emitter, name: str, x: list[R], ty: str, op: Operation) -> R:
    from sarek.lowering.ptx import ptx_error

    c = F32 if ty == "f32" else F
    if name == "sqrt":
        return em.op1(px.SqrtOp, f"rn.{ty}", ty, x[0])
    if name in ("fabs", "abs"):
        return em.op1(px.AbsOp, ty, ty, x[0])
    if name in ("fmin", "min"):
        return em.op2(px.MinOp, ty, ty, x[0], x[1])
    if name in ("fmax", "max"):
        return em.op2(px.MaxOp, ty, ty, x[0], x[1])
    if name == "fma":
        return em.op3(px.FmaOp, f"rn.{ty}", ty, x[0], x[1], x[2])
    if name == "floor":
        return em.cvt(f"rmi.{ty}.{ty}", ty, x[0])
    if name == "ceil":
        return em.cvt(f"rpi.{ty}.{ty}", ty, x[0])
    if name == "trunc":
        return em.cvt(f"rzi.{ty}.{ty}", ty, x[0])
    if name == "copysign":  # PTX copysign d, a, b: magnitude of b, sign of a
        return em.op2(px.CopysignOp, ty, ty, x[1], x[0])
    if name == "round":  # C round: half away from zero; x - trunc(x) is exact
        t = em.cvt(f"rzi.{ty}.{ty}", ty, x[0])
        d = em.op1(px.AbsOp, ty, ty, em.op2(px.SubOp, f"rn.{ty}", ty, x[0], t))
        p = em.setp("ge", ty, d, c(0.5))
        one = em.op2(px.CopysignOp, ty, ty, x[0], c(1.0))
        return em.selp(ty, em.op2(px.AddOp, f"rn.{ty}", ty, t, one), t, p)
    if ty == "f64" and name == "rsqrt":
        return em.op1(px.RcpOp, "rn.f64", "f64", em.op1(px.SqrtOp, "rn.f64", "f64", x[0]))
    if ty == "f32" and name in F32_CORE:
        xd = [em.cvt("f64.f32", "f64", r) for r in x]
        return em.cvt("rn.f32.f64", "f32", Core(em).call(name, xd))
    raise ptx_error(f"'{name}' on {ty} is not supported on PTX", op)


class Core:
    """Double-precision kernels for f32 results (inputs are f32 values widened to f64, so finite inputs are
    normal doubles with 24-bit mantissas)."""

    def __init__(self, em: Emitter):
        self.em = em

    # -- tiny instruction helpers (all .f64 unless said)

    def add(self, a: Any, b: Any) -> R:
        return self.em.op2(px.AddOp, "rn.f64", "f64", a, b)

    def sub(self, a: Any, b: Any) -> R:
        return self.em.op2(px.SubOp, "rn.f64", "f64", a, b)

    def mul(self, a: Any, b: Any) -> R:
        return self.em.op2(px.MulOp, "rn.f64", "f64", a, b)

    def div(self, a: Any, b: Any) -> R:
        return self.em.op2(px.DivOp, "rn.f64", "f64", a, b)

    def fma(self, a: Any, b: Any, c: Any) -> R:
        return self.em.op3(px.FmaOp, "rn.f64", "f64", a, b, c)

    def sqrt(self, a: Any) -> R:
        return self.em.op1(px.SqrtOp, "rn.f64", "f64", a)

    def abs(self, a: Any) -> R:
        return self.em.op1(px.AbsOp, "f64", "f64", a)

    def neg(self, a: Any) -> R:
        return self.em.op1(px.NegOp, "f64", "f64", a)

    def sel(self, a: Any, b: Any, p: R) -> R:
        return self.em.selp("f64", a, b, p)

    def setp(self, cmp: str, a: Any, b: Any) -> R:
        return self.em.setp(cmp, "f64", a, b)

    def rint(self, a: Any) -> R:
        return self.em.cvt("rni.f64.f64", "f64", a)

    def poly(self, z: R, coeffs: list[float]) -> R:
        """Horner: coeffs[0] + z*(coeffs[1] + z*(...))."""
        acc: Any = self.em.fconst(coeffs[-1], "f64")
        for cf in reversed(coeffs[:-1]):
            acc = self.fma(acc, z, F(cf))
        return acc

    def isnan(self, a: R) -> R:
        return self.setp("nan", a, a)

    def call(self, name: str, x: list[R]) -> R:
        return getattr(self, "f_" + name)(*x)

    # -- exp / log

    def exp(self, x: R) -> R:
        """e^x for any double x (clamped to +-800: results saturate to 0/inf after rounding to f32)."""
        em = self.em
        xc = em.op2(px.MinOp, "f64", "f64", em.op2(px.MaxOp, "f64", "f64", x, F(-800.0)), F(800.0))
        n = self.rint(self.mul(xc, F(1.0 / _m.log(2.0))))
        r = self.fma(n, F(-6.93147180369123816490e-01), xc)  # ln2 hi (fdlibm)
        r = self.fma(n, F(-1.90821492927058770002e-10), r)  # ln2 lo
        p = self.poly(r, [1.0 / _m.factorial(k) for k in range(11)])  # |r| <= ln2/2: error < 1e-13
        # 2^n in two halves so that n in [-1155, 1155] stays representable as exponents
        ni = em.cvt("rzi.s32.f64", "s32", n)
        h1 = em.op2(px.ShrOp, "s32", "s32", ni, 1)
        h2 = em.op2(px.SubOp, "s32", "s32", ni, h1)
        s1 = self._pow2(h1)
        s2 = self._pow2(h2)
        res = self.mul(self.mul(p, s1), s2)
        return self.sel(x, res, self.isnan(x))

    def _pow2(self, k: R) -> R:
        em = self.em
        e = em.op2(px.AddOp, "s32", "s32", k, 1023)
        e64 = em.cvt("s64.s32", "s64", e)
        bits = em.op2(px.ShlOp, "b64", "s64", e64, 52)
        d = em.reg("f64")
        em.mov("b64", d, bits)
        return d

    def log(self, x: R) -> R:
        """ln x for a double x; x normal > 0 handled by the reduction, specials by selects."""
        em = self.em
        bits = em.reg("s64")
        em.mov("b64", bits, x)
        e = em.op2(px.SubOp, "s64", "s64", em.op2(px.ShrOp, "s64", "s64", bits, 52), 1023)
        mbits = em.op2(px.OrOp, "b64", "s64", em.op2(px.AndOp, "b64", "s64", bits, 0x000FFFFFFFFFFFFF),
                       0x3FF0000000000000)
        m = em.reg("f64")
        em.mov("b64", m, mbits)
        big = self.setp("gt", m, F(_m.sqrt(2.0)))
        m = self.sel(self.mul(m, F(0.5)), m, big)
        ef = em.cvt("rn.f64.s64", "f64", e)
        ef = self.sel(self.add(ef, F(1.0)), ef, big)
        s = self.div(self.sub(m, F(1.0)), self.add(m, F(1.0)))
        z = self.mul(s, s)
        p = self.poly(z, [2.0 / (2 * k + 1) for k in range(8)])  # z <= 0.0295: error < 1e-13
        lm = self.mul(s, p)
        res = self.fma(ef, F(6.93147180369123816490e-01), self.fma(ef, F(1.90821492927058770002e-10), lm))
        # specials: x < 0 or NaN -> NaN, 0 -> -inf, +inf -> +inf, subnormal doubles never come from f32
        res = self.sel(F(float("-inf")), res, self.setp("eq", x, F(0.0)))
        res = self.sel(x, res, self.setp("equ", x, F(float("inf"))))
        res = self.sel(F(float("nan")), res, self.setp("lt", x, F(0.0)))
        return res

    def f_exp(self, x: R) -> R:
        return self.exp(x)

    def f_exp2(self, x: R) -> R:
        return self.exp(self.mul(x, F(_m.log(2.0))))

    def f_expm1(self, x: R) -> R:
        small = self.setp("lt", self.abs(x), F(1e-5))
        ps = self.fma(self.mul(x, x), F(0.5), x)
        return self.sel(ps, self.sub(self.exp(x), F(1.0)), small)

    def f_log(self, x: R) -> R:
        return self.log(x)

    def f_log2(self, x: R) -> R:
        return self.mul(self.log(x), F(1.0 / _m.log(2.0)))

    def f_log10(self, x: R) -> R:
        return self.mul(self.log(x), F(1.0 / _m.log(10.0)))

    def f_log1p(self, x: R) -> R:
        small = self.setp("lt", self.abs(x), F(1e-4))
        x2 = self.mul(x, x)
        ps = self.fma(x2, self.fma(x, F(1.0 / 3.0), F(-0.5)), x)
        return self.sel(ps, self.log(self.add(x, F(1.0))), small)

    def f_pow(self, x: R, y: R) -> R:
        em = self.em
        ax = self.abs(x)
        r = self.exp(self.mul(y, self.log(ax)))
        yint = self.setp("eq", em.cvt("rzi.f64.f64", "f64", y), y)
        half = self.mul(y, F(0.5))
        yodd = em.op2(px.AndOp, "pred", "pred", yint, self.setp("neu", em.cvt("rzi.f64.f64", "f64", half), half))
        xneg = self.setp("lt", x, F(0.0))
        r = self.sel(self.neg(r), r, em.op2(px.AndOp, "pred", "pred", xneg, yodd))
        nonint = em.op1(px.NotOp, "pred", "pred", yint)
        r = self.sel(F(float("nan")), r, em.op2(px.AndOp, "pred", "pred", xneg, nonint))
        # x == +-0: y < 0 -> inf (signed for odd y), y > 0 -> 0 (signed for odd y)
        xz = self.setp("eq", x, F(0.0))
        zr = self.sel(F(float("inf")), F(0.0), self.setp("lt", y, F(0.0)))
        zr = self.sel(em.op2(px.CopysignOp, "f64", "f64", x, zr), zr, yodd)
        r = self.sel(zr, r, xz)
        # |x| == inf handled by exp/log (log(inf) = inf); y = +-inf with |x| == 1 -> 1
        one = em.op2(px.OrOp, "pred", "pred", self.setp("eq", y, F(0.0)), self.setp("eq", x, F(1.0)))
        axone = em.op2(px.AndOp, "pred", "pred", self.setp("eq", ax, F(1.0)),
                       self.setp("eq", self.abs(y), F(float("inf"))))
        one = em.op2(px.OrOp, "pred", "pred", one, axone)
        return self.sel(F(1.0), r, one)

    def f_sinh(self, x: R) -> R:
        ax = self.abs(x)
        e = self.exp(ax)
        r = self.mul(self.sub(e, self.div(F(1.0), e)), F(0.5))
        small = self.setp("lt", ax, F(1e-4))
        ps = self.fma(self.mul(ax, self.mul(ax, ax)), F(1.0 / 6.0), ax)
        r = self.sel(ps, r, small)
        return self.em.op2(px.CopysignOp, "f64", "f64", x, r)

    def f_cosh(self, x: R) -> R:
        e = self.exp(self.abs(x))
        return self.mul(self.add(e, self.div(F(1.0), e)), F(0.5))

    def f_tanh(self, x: R) -> R:
        em = self.em
        ax = em.op2(px.MinOp, "f64", "f64", self.abs(x), F(20.0))
        e = self.exp(self.mul(ax, F(2.0)))
        r = self.div(self.sub(e, F(1.0)), self.add(e, F(1.0)))
        small = self.setp("lt", ax, F(1e-4))
        ps = self.fma(self.mul(ax, self.mul(ax, ax)), F(-1.0 / 3.0), ax)
        r = self.sel(ps, r, small)
        r = em.op2(px.CopysignOp, "f64", "f64", x, r)
        return self.sel(x, r, self.isnan(x))

    def f_cbrt(self, x: R) -> R:
        ax = self.abs(x)
        r = self.exp(self.mul(self.log(ax), F(1.0 / 3.0)))
        r2 = self.mul(r, r)
        r = self.sub(r, self.div(self.sub(self.mul(r2, r), ax), self.mul(r2, F(3.0))))
        r = self.em.op2(px.CopysignOp, "f64", "f64", x, r)
        special = self.em.op2(px.OrOp, "pred", "pred", self.setp("equ", ax, F(float("inf"))),
                              self.setp("eq", ax, F(0.0)))
        return self.sel(x, r, special)

    def f_hypot(self, x: R, y: R) -> R:
        r = self.sqrt(self.fma(x, x, self.mul(y, y)))
        inf = self.em.op2(px.OrOp, "pred", "pred", self.setp("eq", self.abs(x), F(float("inf"))),
                          self.setp("eq", self.abs(y), F(float("inf"))))
        return self.sel(F(float("inf")), r, inf)

    def f_rsqrt(self, x: R) -> R:
        return self.em.op1(px.RcpOp, "rn.f64", "f64", self.sqrt(x))

    # -- trigonometry

    def _reduce(self, x: R) -> tuple[R, R]:
        """x = n*pi/2 + r with |r| <= pi/4 (Cody-Waite, three parts of pi/2; exact for |n| < 2^20, good to
        about 1e-12 relative beyond): returns (r, quadrant n mod 4 as .s32)."""
        em = self.em
        n = self.rint(self.mul(x, F(2.0 / _m.pi)))
        r = self.fma(n, F(-1.57079632673412561417e+00), x)
        r = self.fma(n, F(-6.07710050650619224932e-11), r)
        r = self.fma(n, F(-2.02226624879595063154e-21), r)
        q = em.op2(px.AndOp, "b32", "s32", em.cvt("rzi.s32.f64", "s32", em.op1(px.AbsOp, "f64", "f64", n)), 3)
        # for negative n, n mod 4 = (4 - |n| mod 4) mod 4
        nneg = self.setp("lt", n, F(0.0))
        qn = em.op2(px.AndOp, "b32", "s32", em.op2(px.SubOp, "s32", "s32", 4, q), 3)
        q = em.selp("s32", qn, q, nneg)
        return r, q

    def _sin_poly(self, r: R) -> R:
        z = self.mul(r, r)
        p = self.poly(z, [(-1.0) ** k / _m.factorial(2 * k + 1) for k in range(7)])  # error < 1e-15
        return self.mul(r, p)

    def _cos_poly(self, r: R) -> R:
        z = self.mul(r, r)
        return self.poly(z, [(-1.0) ** k / _m.factorial(2 * k) for k in range(8)])  # error < 1e-15

    def _sincos(self, x: R) -> tuple[R, R]:
        em = self.em
        r, q = self._reduce(x)
        s, c = self._sin_poly(r), self._cos_poly(r)
        odd = em.setp("ne", "b32", em.op2(px.AndOp, "b32", "s32", q, 1), 0)
        sn = self.sel(c, s, odd)  # sin(x): q=0 s, 1 c, 2 -s, 3 -c
        cs = self.sel(s, c, odd)  # cos(x): q=0 c, 1 -s, 2 -c, 3 s
        sneg = em.setp("ne", "b32", em.op2(px.AndOp, "b32", "s32", q, 2), 0)
        sn = self.sel(self.neg(sn), sn, sneg)
        q1 = em.op2(px.AddOp, "s32", "s32", q, 1)
        cneg = em.setp("ne", "b32", em.op2(px.AndOp, "b32", "s32", q1, 2), 0)
        cs = self.sel(self.neg(cs), cs, cneg)
        bad = self.setp("equ", self.abs(x), F(float("inf")))  # inf or NaN -> NaN
        return self.sel(F(float("nan")), sn, bad), self.sel(F(float("nan")), cs, bad)

    def f_sin(self, x: R) -> R:
        s, _ = self._sincos(x)
        # keep the sign of zero: sin(-0) = -0
        return self.sel(x, s, self.setp("eq", x, F(0.0)))

    def f_cos(self, x: R) -> R:
        return self._sincos(x)[1]

    def f_tan(self, x: R) -> R:
        s, c = self._sincos(x)
        return self.sel(x, self.div(s, c), self.setp("eq", x, F(0.0)))

    def _atan_unit(self, a: R) -> R:
        """atan(a) for 0 <= a <= 1 (two argument halvings, then a Taylor series on |t| <= tan(pi/16))."""
        t = a
        for _ in range(2):
            t = self.div(t, self.add(F(1.0), self.sqrt(self.fma(t, t, F(1.0)))))
        z = self.mul(t, t)
        p = self.poly(z, [(-1.0) ** k / (2 * k + 1) for k in range(9)])  # t^2 <= 0.0396: error < 1e-13
        return self.mul(self.mul(t, p), F(4.0))

    def _atan_pos(self, a: R) -> R:
        """atan(a) for a >= 0 (a may be +inf)."""
        big = self.setp("gt", a, F(1.0))
        u = self.sel(self.div(F(1.0), a), a, big)
        r = self._atan_unit(u)
        return self.sel(self.sub(F(_m.pi / 2), r), r, big)

    def f_atan(self, x: R) -> R:
        r = self._atan_pos(self.abs(x))
        r = self.em.op2(px.CopysignOp, "f64", "f64", x, r)
        return self.sel(x, r, self.isnan(x))

    def f_atan2(self, y: R, x: R) -> R:
        em = self.em
        ax, ay = self.abs(x), self.abs(y)
        bothinf = em.op2(px.AndOp, "pred", "pred", self.setp("eq", ax, F(float("inf"))),
                         self.setp("eq", ay, F(float("inf"))))
        bothzero = em.op2(px.AndOp, "pred", "pred", self.setp("eq", ax, F(0.0)), self.setp("eq", ay, F(0.0)))
        q = self.div(ay, ax)
        a = self._atan_pos(q)
        a = self.sel(F(_m.pi / 4), a, bothinf)
        a = self.sel(F(0.0), a, bothzero)
        # x negative (including -0): pi - a
        xbits = em.reg("s64")
        em.mov("b64", xbits, x)
        xneg = em.setp("lt", "s64", xbits, 0)
        a = self.sel(self.sub(F(_m.pi), a), a, xneg)
        a = em.op2(px.CopysignOp, "f64", "f64", y, a)
        nan = em.op2(px.OrOp, "pred", "pred", self.isnan(x), self.isnan(y))
        return self.sel(self.add(x, y), a, nan)

    def f_asin(self, x: R) -> R:
        c = self.sqrt(self.fma(self.neg(x), x, F(1.0)))
        return self.f_atan2(x, c)

    def f_acos(self, x: R) -> R:
        s = self.sqrt(self.fma(self.neg(x), x, F(1.0)))
        return self.f_atan2(s, x)

    # -- fmod (exact: repeated exact remainder steps in double)

    def f_fmod(self, x: R, y: R) -> R:
        em = self.em
        ax, ay = self.abs(x), self.abs(y)
        r = em.reg("f64")
        em.mov("f64", r, ax)
        head, done = em.label("fmod"), em.label("fmod_done")
        em.place_label(head)
        fin = self.setp("lt", r, ay)
        em.bra(done, guard=fin)
        # t = ay * 2^k, k = max(0, exp(r) - exp(ay) - 26), so the quotient r / t < 2^28 is exact in double
        er = self._exp_of(r)
        ey = self._exp_of(ay)
        k = em.op2(px.MaxOp, "s32", "s32", em.op2(px.SubOp, "s32", "s32", em.op2(px.SubOp, "s32", "s32", er, ey), 26),
                   0)
        t = self.mul(ay, self._pow2(k))
        qt = em.cvt("rzi.f64.f64", "f64", self.div(r, t))
        nr = self.fma(self.neg(qt), t, r)
        nr = self.sel(self.add(nr, t), nr, self.setp("lt", nr, F(0.0)))
        em.mov("f64", r, nr)
        em.bra(head)
        em.place_label(done)
        res = em.op2(px.CopysignOp, "f64", "f64", x, r)
        bad = em.op2(px.OrOp, "pred", "pred", self.setp("equ", ax, F(float("inf"))),
                     self.setp("equ", ay, F(0.0)))
        bad = em.op2(px.OrOp, "pred", "pred", bad, self.isnan(y))
        return self.sel(F(float("nan")), res, bad)

    def _exp_of(self, a: R) -> R:
        em = self.em
        bits = em.reg("s64")
        em.mov("b64", bits, a)
        e = em.cvt("u32.s64", "s32", em.op2(px.ShrOp, "s64", "s64", bits, 52))
        return e
