"""PTX lowering, arithmetic: constants, binary and unary operators (division by constants as shifts or
multiply-high), casts, bitcasts, narrow and bf16 conversions."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f32, f64, i1
from xdsl.ir import Attribute, Operation

from sarek.dialect import scalars
from sarek.dialect import sarek as sk
from sarek.lowering.divide import signed_magic, unsigned_magic
from sarek.lowering.ptx.emitter import Emitter, imm_attr
from sarek.lowering.ptx.state import FnState, LoweringBase, lowers
from sarek.lowering.ptx.values import Sc, const_int, is_f, ptx_error, scalar_reg_type
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import RegAttr


_COMMUTATIVE = frozenset({"add", "mul", "bitand", "bitor", "bitxor", "eq", "ne", "and", "or"})


class ArithLowering(LoweringBase):
    """Constants, operators and conversions."""

    @lowers(sk.ConstantOp)
    def op_ConstantOp(self, st: FnState, op: sk.ConstantOp) -> Any:
        em = st.em
        t = op.result.type
        v = op.value
        if isinstance(t, sk.UnitType):
            return None
        rt = scalar_reg_type(t)
        r = em.reg(rt or "?")
        if rt == "pred":
            assert isinstance(v, IntegerAttr)
            em.emit(px.SetpOp, "ne.s32", r, em.iconst(int(v.value.data != 0)), 0)
        elif rt in ("s32", "s64", "u32", "u64"):
            assert isinstance(v, IntegerAttr)
            em.mov(rt, r, v.value.data)
            em.imms[r] = imm_attr(v.value.data)
        elif rt in ("f32", "f64"):
            assert isinstance(v, FloatAttr)
            fa = FloatAttr(v.value.data, f32 if rt == "f32" else f64)
            em.mov(rt, r, fa)
            em.imms[r] = fa
        elif rt == "f16":
            import numpy as np

            assert isinstance(v, FloatAttr)
            bits = int(np.array(v.value.data, dtype=np.float16).view(np.uint16))
            em.mov("b16", r, bits)
        else:
            raise ptx_error(f"constant of type {t}", op)
        return Sc(t, r)

    @lowers(sk.BinOp)
    def op_BinOp(self, st: FnState, op: sk.BinOp) -> Any:
        em = st.em
        a, b = self.val(st, op.lhs), self.val(st, op.rhs)
        t = op.lhs.type
        k = op.op.value
        rt = scalar_reg_type(t)
        if rt == "f16":  # storage-only: compute in f32, round back to f16
            x, y = em.cvt("f32.f16", "f32", a.r), em.cvt("f32.f16", "f32", b.r)
            r = self._binop(st, k, f32, "f32", x, y, op)
            if k in ("eq", "ne", "lt", "le", "gt", "ge"):
                return Sc(i1, r)
            return Sc(t, em.cvt("rn.f16.f32", "f16", r))
        x, y = a.r, b.r
        if k in _COMMUTATIVE and x in em.imms and y not in em.imms:
            x, y = y, x
        r = self._binop(st, k, t, rt or "?", x, y, op)
        return Sc(i1 if k in ("eq", "ne", "lt", "le", "gt", "ge") else t, r)

    def _binop(self, st: FnState, k: str, t: Attribute, rt: str, a: RegAttr, b: RegAttr, op: Operation) -> RegAttr:
        """`a k b`; a constant second operand is written as an immediate (ptxas folds it into the instruction;
        through a register it often does not, e.g. a division by a register holding a constant)."""
        em = st.em
        bi = em.imm(b)
        if rt == "pred":
            if k in ("and", "or"):
                return em.op2(px.AndOp if k == "and" else px.OrOp, "pred", "pred", a, b)
            x = em.op2(px.XorOp, "pred", "pred", a, b)
            if k == "ne":
                return x
            if k == "eq":
                return em.op1(px.NotOp, "pred", "pred", x)
            raise ptx_error(f"'{k}' on i1", op)
        cmp = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
        if is_f(t):
            if k in cmp:
                # C: != is true on NaN (unordered), the others are ordered
                return em.setp("neu" if k == "ne" else cmp[k], rt, a, bi)
            # .rn: IEEE add/sub/mul, never contracted into fma by ptxas, so results are bit-identical to
            # the interpreter and numpy; sarek-contract{fma=on} (the default fp policy) drops it afterwards
            if k == "add":
                return em.op2(px.AddOp, f"rn.{rt}", rt, a, bi)
            if k == "sub":
                return em.op2(px.SubOp, f"rn.{rt}", rt, a, bi)
            if k == "mul":
                return em.op2(px.MulOp, f"rn.{rt}", rt, a, bi)
            if k == "div":
                return em.op2(px.DivOp, f"rn.{rt}", rt, a, bi)
            raise ptx_error(f"'{k}' on {t}", op)
        w = rt[1:]
        if k in cmp:
            return em.setp(cmp[k], rt, a, bi)
        if k in ("div", "rem"):
            # C truncating division; rem = a - (a / b) * b (sign of the dividend, as rem.sNN) shares the
            # quotient with a div of the same operands, like NVCC (integer division is a long sequence)
            c = const_int(op.operands[1]) if len(op.operands) == 2 else None
            q = st.quotient(a, b)
            if q is None:
                q = self._quotient(em, rt, int(w), a, b, c)
                st.quotients[-1][(a.ty.data, a.n.data, b.n.data)] = q
            if k == "div":
                return q
            if c is not None and c > 0 and c & (c - 1) == 0:
                return em.op2(px.SubOp, rt, rt, a, em.op2(px.ShlOp, f"b{w}", rt, q, c.bit_length() - 1))
            return em.op2(px.SubOp, rt, rt, a, em.op2(px.MulOp, f"lo.{rt}", rt, q, b if c is None else c))
        simple = {"add": (px.AddOp, rt), "sub": (px.SubOp, rt), "mul": (px.MulOp, f"lo.{rt}"),
                  "bitand": (px.AndOp, f"b{w}"),
                  "bitor": (px.OrOp, f"b{w}"), "bitxor": (px.XorOp, f"b{w}")}
        if k in simple:
            cls, mods = simple[k]
            return em.op2(cls, mods, rt, a, bi)
        if k in ("shl", "shr"):
            amount: Any = bi
            c = const_int(op.operands[1]) if len(op.operands) == 2 else None
            if rt in ("s64", "u64"):
                amount = c & 63 if c is not None else em.cvt(f"u32.{rt}", "u32", b)
            elif c is not None:
                amount = c & 31
            if k == "shl":
                return em.op2(px.ShlOp, f"b{w}", rt, a, amount)
            return em.op2(px.ShrOp, rt, rt, a, amount)  # arithmetic on signed types
        raise ptx_error(f"'{k}' on {t}", op)

    @staticmethod
    def _quotient(em: Emitter, rt: str, w: int, a: RegAttr, b: RegAttr, c: int | None) -> RegAttr:
        """a / b truncated toward zero. A constant divisor is an immediate (ptxas then multiplies by its
        reciprocal; a register holding it is divided by the long sequence), and a positive power of two
        2^k is shifts: (a + (sign(a) >>> (w - k))) >> k, as NVCC emits."""
        if c is None or c == 0:
            return em.op2(px.DivOp, rt, rt, a, b)
        if c == -1 and rt.startswith("s"):  # -a, which wraps: INT_MIN / -1 = INT_MIN (div.sNN leaves it undefined)
            return em.op1(px.NegOp, rt, rt, a)
        d = abs(c) if rt.startswith("s") else c
        if d > 1 and d & (d - 1) and (rt.startswith("s") or c > 0):
            return ArithLowering._magic_quotient(em, rt, w, a, c)
        if c > 0 and c & (c - 1) == 0:
            k = c.bit_length() - 1
            if k == 0:
                return a
            if rt.startswith("u"):
                return em.op2(px.ShrOp, rt, rt, a, k)
            sign = em.op2(px.ShrOp, rt, rt, a, w - 1)
            bias = em.op2(px.ShrOp, f"b{w}", rt, sign, w - k)
            return em.op2(px.ShrOp, rt, rt, em.op2(px.AddOp, rt, rt, a, bias), k)
        return em.op2(px.DivOp, rt, rt, a, c)

    @staticmethod
    def _magic_quotient(em: Emitter, rt: str, w: int, a: RegAttr, c: int) -> RegAttr:
        """a / c for a constant c that is not a power of two: a multiply-high and shifts
        (sarek.lowering.divide), as NVVM emits; ptxas would divide by the immediate with its long
        reciprocal sequence (I2F.U32.RP, MUFU.RCP ..., BENCHMARKS.md `storage`)."""
        if rt.startswith("s"):
            m, sh = signed_magic(abs(c), w)
            t = em.op2(px.AddOp, rt, rt, a, em.op2(px.MulOp, f"hi.{rt}", rt, a, m))
            if sh:
                t = em.op2(px.ShrOp, rt, rt, t, sh)
            q = em.op2(px.SubOp, rt, rt, t, em.op2(px.ShrOp, rt, rt, a, w - 1))
            return em.op1(px.NegOp, rt, rt, q) if c < 0 else q
        m, ell = unsigned_magic(c, w)
        t = em.op2(px.MulOp, f"hi.{rt}", rt, a, m)
        x = em.op2(px.AddOp, rt, rt, em.op2(px.ShrOp, rt, rt, em.op2(px.SubOp, rt, rt, a, t), 1), t)
        return em.op2(px.ShrOp, rt, rt, x, ell - 1) if ell > 1 else x

    @lowers(sk.UnOp)
    def op_UnOp(self, st: FnState, op: sk.UnOp) -> Any:
        em = st.em
        a = self.val(st, op.operand)
        t = op.operand.type
        rt = scalar_reg_type(t) or "?"
        k = op.op.value
        if k == "not":
            return Sc(t, em.op1(px.NotOp, "pred", "pred", a.r))
        if k == "bitnot":
            return Sc(t, em.op1(px.NotOp, f"b{rt[1:]}", rt, a.r))
        if rt in ("u32", "u64"):  # neg has no unsigned form: the same bits as the signed negation
            return Sc(t, em.op1(px.NegOp, f"s{rt[1:]}", rt, a.r))
        if rt == "f16":
            x = em.cvt("f32.f16", "f32", a.r)
            return Sc(t, em.cvt("rn.f16.f32", "f16", em.op1(px.NegOp, "f32", "f32", x)))
        return Sc(t, em.op1(px.NegOp, rt, rt, a.r))

    @lowers(sk.CastOp)
    def op_CastOp(self, st: FnState, op: sk.CastOp) -> Any:
        return Sc(op.result.type, self.cast(st, self.val(st, op.operand), op.result.type))

    @lowers(sk.BitcastOp)
    def op_BitcastOp(self, st: FnState, op: sk.BitcastOp) -> Any:
        """`mov.b32`/`mov.b64` between registers of the two types (the same bits)."""
        a = self.val(st, op.operand)
        d = scalar_reg_type(op.result.type) or "?"
        r = st.em.reg(d)
        st.em.mov("f16" if d == "f16" else f"b{sk.scalar_width(op.result.type)}", r, a.r)
        return Sc(op.result.type, r)

    def cast(self, st: FnState, a: Sc, to: Attribute) -> RegAttr:
        em = st.em
        if scalars.is_narrow(a.ty) or scalars.is_narrow(to):
            return self.narrow_cast(st, a, to)
        s, d = scalar_reg_type(a.ty) or "?", scalar_reg_type(to) or "?"
        if s == d:
            r = em.reg(d)
            em.mov(d, r, a.r)
            return r
        if s == "pred":
            if d in ("s32", "s64", "u32", "u64"):  # an integer immediate for every integer register
                return em.selp(d, 1, 0, a.r)
            if d == "f16":
                return em.cvt("rn.f16.s32", "f16", em.selp("s32", 1, 0, a.r))
            one = FloatAttr(1.0, f32 if d == "f32" else f64)
            zero = FloatAttr(0.0, f32 if d == "f32" else f64)
            return em.selp(d, one, zero, a.r)
        if d == "pred":
            if s == "f16":
                return em.setp("neu", "f32", em.cvt("f32.f16", "f32", a.r), FloatAttr(0.0, f32))
            if s in ("f32", "f64"):
                return em.setp("neu", s, a.r, FloatAttr(0.0, f32 if s == "f32" else f64))
            return em.setp("ne", s, a.r, 0)
        sf, df = s.startswith("f"), d.startswith("f")
        if sf and df:
            widen = {"f16": 16, "f32": 32, "f64": 64}
            rnd = "rn." if widen[d] < widen[s] else ""
            return em.cvt(f"{rnd}{d}.{s}", d, a.r)
        if not sf and df:
            return em.cvt(f"rn.{d}.{s}", d, a.r)
        if sf and not df:
            r = em.cvt(f"rzi.{d}.{s}", d, a.r)  # C: truncation toward zero, saturating
            if d in ("s64", "u64") or s == "f64":  # NaN gives the lowest value / the high bit there (H200): 0
                x = em.cvt("f32.f16", "f32", a.r) if s == "f16" else a.r
                fs = "f32" if s == "f16" else s
                r = em.selp(d, 0, r, em.setp("nan", fs, x, x))
            return r
        return em.cvt(f"{d}.{s}", d, a.r)  # integer widening sign-extends, narrowing wraps

    def narrow_cast(self, st: FnState, a: Sc, to: Attribute) -> RegAttr:
        """Casts from and to the 8/16-bit integers and bf16. Their registers hold the value extended to 32
        bits (bf16: the exact f32), so a source reads as i32/ui32/f32; an integer destination keeps the low
        bits, sign- or zero-extended (C's conversion), a float source saturating first (as the
        interpreter); bf16 rounds an f32 to nearest even with integer code (sarek.dialect.scalars)."""
        em = st.em
        src = a.ty
        if scalars.is_small_int(src) or scalars.is_bf16(src):
            src = scalars.F32 if scalars.is_bf16(src) else scalars.U32 if scalars.is_unsigned(src) else sk.i32
            if src == to or (scalars.is_narrow(to) and src == scalars.promote(to) and not scalars.is_bf16(to)
                             and scalars.int_width(a.ty) <= scalars.int_width(to)
                             and scalars.is_unsigned(a.ty) == scalars.is_unsigned(to)):
                r = em.reg(scalar_reg_type(to) or "?")
                em.mov(scalar_reg_type(to) or "?", r, a.r)
                return r
            a = Sc(src, a.r)
            if not scalars.is_narrow(to):
                return self.cast(st, a, to)
        if scalars.is_bf16(to):
            f = a.r if a.ty == scalars.F32 else self.cast(st, a, scalars.F32)
            return self.bf16_widen(em, self.bf16_round(em, f))
        w = scalars.int_width(to)
        lo, hi = scalars.int_range(to)
        s = scalar_reg_type(a.ty) or "?"
        if s.startswith("f"):
            x = self.cast(st, a, sk.i32)  # saturating at i32, then to the narrow range
            x = em.op2(px.MinOp, "s32", "s32", em.op2(px.MaxOp, "s32", "s32", x, lo), hi)
        elif s == "pred":
            x = em.selp("s32", 1, 0, a.r)
        elif s in ("s64", "u64"):
            x = em.cvt(f"u32.{s}", "u32", a.r)
        else:
            x = a.r
        d = scalar_reg_type(to) or "?"
        if scalars.is_unsigned(to):
            return em.op2(px.AndOp, "b32", d, x, (1 << w) - 1)
        return em.op2(px.ShrOp, "s32", d, em.op2(px.ShlOp, "b32", "s32", x, 32 - w), 32 - w)  # sign-extend

    @staticmethod
    def bits(em: Emitter, f: RegAttr) -> RegAttr:
        r = em.reg("u32")
        em.mov("b32", r, f)
        return r

    def bf16_round(self, em: Emitter, f: RegAttr) -> RegAttr:
        """f32 register -> the bf16 bits (in a .u32), rounded to nearest even, any NaN the quiet NaN 0x7fc0."""
        u = self.bits(em, f)
        hi = em.op2(px.ShrOp, "b32", "u32", u, 16)
        odd = em.op2(px.AndOp, "b32", "u32", hi, 1)
        rounded = em.op2(px.ShrOp, "b32", "u32", em.op2(px.AddOp, "u32", "u32", em.op2(px.AddOp, "u32", "u32", u,
                                                                                        0x7FFF), odd), 16)
        nan = em.setp("gt", "u32", em.op2(px.AndOp, "b32", "u32", u, 0x7FFFFFFF), 0x7F800000)
        return em.selp("u32", 0x7FC0, rounded, nan)

    @staticmethod
    def bf16_widen(em: Emitter, bits: RegAttr) -> RegAttr:
        """bf16 bits (low half of a .u32) -> the exact f32 value."""
        f = em.reg("f32")
        em.mov("b32", f, em.op2(px.ShlOp, "b32", "u32", bits, 16))
        return f
