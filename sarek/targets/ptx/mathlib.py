"""The math intrinsics PTX spells itself, as instruction sequences.

Exact operations map to exact instructions (sqrt.rn, div.rn, fma.rn, abs, min/max, cvt.rmi/rpi/rzi, copysign);
f32 fmod (an exact loop) and rsqrt run in double and round once; f32 exp2 at the default fp policy is the
hardware approximation `ex2.approx.f32` (CUDA's exp2f). Every other transcendental, of every width, has
been replaced before the lowering by a call to the sarek math library (`sarek-expand-math`, the native-math
table in sarek/analysis/native_math.py, which also refuses what neither has). f16 promotes to f32 and narrows
with `cvt.rn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, f32, f64
from xdsl.ir import Attribute, Operation

from sarek.analysis.features import BACKEND_NAMES
from sarek.diagnostics import SarekError
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import RegAttr

if TYPE_CHECKING:
    from sarek.lowering.ptx.emitter import Emitter
    from sarek.lowering.ptx.state import FnState, LoweringBase

R = RegAttr

F32_CORE = {"fmod", "rsqrt"}


def F(v: float) -> FloatAttr:
    return FloatAttr(v, f64)


def F32(v: float) -> FloatAttr:
    return FloatAttr(v, f32)


def _unexpanded(name: str, t: object, op: Operation) -> SarekError:
    """A math intrinsic that neither PTX nor the library computes reached the lowering: sarek-expand-math
    (which refuses it with its reason) did not run."""
    return SarekError(f"'{name}' on {t} must be expanded or refused by sarek-expand-math before the PTX lowering",
                      op, BACKEND_NAMES["ptx"])


def math(lw: LoweringBase, st: FnState, name: str, args: list[Any], t: Attribute, op: Operation) -> RegAttr:
    em: Emitter = st.em
    regs = [a.r for a in args]
    if isinstance(t, Float16Type):
        xs = [em.cvt("f32.f16", "f32", r) for r in regs]
        return em.cvt("rn.f16.f32", "f16", _float(em, name, xs, "f32", op))
    if isinstance(t, Float32Type | Float64Type):
        return _float(em, name, regs, "f32" if isinstance(t, Float32Type) else "f64", op)
    # integers
    rt = regs[0].ty.data
    if name == "abs":
        # neg + setp + selp, never `abs.s32`: ptxas (H200, CUDA 12) miscompiles `abs(v) % 2` after a warp
        # shuffle at its default optimisation level (fuzz seeds 202272, 401754; the CUDA C twin is
        # cfamily.Language.int_abs_select)
        p = em.setp("lt", rt, regs[0], 0)
        return em.selp(rt, em.op1(px.NegOp, rt, rt, regs[0]), regs[0], p)
    if name in ("min", "max"):
        return em.op2(px.MinOp if name == "min" else px.MaxOp, rt, rt, regs[0], regs[1])
    if name in ("clz", "popcount"):
        cls = px.ClzOp if name == "clz" else px.PopcOp
        return em.op1(cls, "b32" if rt == "s32" else "b64", "s32", regs[0])
    if name == "bit_reverse":
        return em.op1(px.BrevOp, "b32" if rt == "s32" else "b64", rt, regs[0])
    raise _unexpanded(name, t, op)


def _float(em: Emitter, name: str, x: list[R], ty: str, op: Operation) -> R:
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
    if ty == "f32" and name == "exp2":
        # only at fp=default: sarek-expand-math left it (the native-math table's HARDWARE entry); at fp=exact
        # it is the library's routine. Not .ftz: subnormal results, as CUDA's exp2f
        return em.op1(px.Ex2Op, "approx.f32", "f32", x[0])
    if ty == "f32" and name in F32_CORE:
        xd = [em.cvt("f64.f32", "f64", r) for r in x]
        return em.cvt("rn.f32.f64", "f32", Core(em).call(name, xd))
    raise _unexpanded(name, ty, op)


class Core:
    """f32 fmod and rsqrt in double precision (inputs are f32 values widened to f64); every transcendental
    comes from the sarek math library instead (sarek-expand-math, sarek/mathlib)."""

    def __init__(self, em: Emitter):
        self.em = em

    def add(self, a: Any, b: Any) -> R:
        return self.em.op2(px.AddOp, "rn.f64", "f64", a, b)

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

    def isnan(self, a: R) -> R:
        return self.setp("nan", a, a)

    def call(self, name: str, x: list[R]) -> R:
        return getattr(self, "f_" + name)(*x)

    def _pow2(self, k: R) -> R:
        em = self.em
        e = em.op2(px.AddOp, "s32", "s32", k, 1023)
        e64 = em.cvt("s64.s32", "s64", e)
        bits = em.op2(px.ShlOp, "b64", "s64", e64, 52)
        d = em.reg("f64")
        em.mov("b64", d, bits)
        return d

    def f_rsqrt(self, x: R) -> R:
        return self.em.op1(px.RcpOp, "rn.f64", "f64", self.sqrt(x))

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
