"""PTX lowering, intrinsics: thread/block indices, the in-range warp shuffle, atomics (native and float
CAS loops), math (sarek.targets.ptx.mathlib)."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import i32
from xdsl.ir import Operation

from sarek.dialect import sarek as sk
from sarek.dialect.intrinsics import INTRINSICS, WARP_VOTES, Category
from sarek.lowering.ptx.memory import MemoryLowering
from sarek.lowering.ptx.state import FnState, lowers
from sarek.lowering.ptx.values import Buf, Sc, ptx_error, scalar_reg_type
from sarek.analysis.namer import IN_RANGE
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr


class IntrinsicLowering(MemoryLowering):
    """Intrinsics: indices, warp shuffle, atomics, math."""

    @lowers(sk.IntrinsicOp)
    def op_IntrinsicOp(self, st: FnState, op: sk.IntrinsicOp) -> Any:
        from sarek.targets.ptx import mathlib

        name = op.callee.data
        info = INTRINSICS[name]
        args = [self.val(st, a) for a in op.args]
        t = op.result.type
        em = st.em
        if info.category == Category.INDEX:
            return Sc(i32, self.index(st, name))
        if name == "lane_id":
            return Sc(i32, em.op1(px.MovOp, "u32", "s32", "%laneid"))
        if name == "warp_size":
            return Sc(i32, em.op1(px.MovOp, "u32", "s32", "WARP_SZ"))
        if name in WARP_VOTES:  # the whole warp votes (membermask all ones)
            mode = {"warp_any": "any.pred", "warp_all": "all.pred", "warp_ballot": "ballot.b32",
                    "warp_ballot64": "ballot.b32"}[name]
            d = em.reg("pred" if not name.startswith("warp_ballot") else "u32")
            em.emit(px.VoteOp, f"sync.{mode}", d, args[0].r, -1)
            if name == "warp_ballot64":  # NVIDIA warps are 32 lanes: the upper half is zero
                return Sc(t, em.cvt("u64.u32", "u64", d))
            return Sc(t, d)
        if info.category == Category.BLOCK:  # barrier 0 (bar.sync 0's) reducing the condition
            mode = {"barrier_count": "popc.u32", "barrier_and": "and.pred", "barrier_or": "or.pred"}[name]
            d = em.reg("s32" if name == "barrier_count" else "pred")
            em.emit(px.BarOp, f"red.{mode}", d, 0, args[0].r)
            return Sc(t, d)
        if info.category == Category.WARP:
            return Sc(t, self.shuffle(st, op, args[0], args[1]))
        if info.category == Category.ATOMIC:
            return Sc(t, self.atomic(st, name, args, op))
        return Sc(t, mathlib.math(self, st, name, args, t, op))

    def index(self, st: FnState, name: str) -> RegAttr:
        em = st.em
        special = {"thread_idx": "%tid", "block_idx": "%ctaid", "block_dim": "%ntid", "grid_dim": "%nctaid"}
        if name == "global_thread_id":
            name = "global_idx_x"
        if name == "global_size":
            name = "global_size_x"
        base, d = name.rsplit("_", 1)
        if base in special:
            return em.op1(px.MovOp, "u32", "s32", f"{special[base]}.{d}")
        ctaid = em.op1(px.MovOp, "u32", "s32", f"%ctaid.{d}")
        ntid = em.op1(px.MovOp, "u32", "s32", f"%ntid.{d}")
        if base == "global_idx":
            tid = em.op1(px.MovOp, "u32", "s32", f"%tid.{d}")
            return em.op3(px.MadOp, "lo.s32", "s32", ctaid, ntid, tid)
        if base == "global_size":
            nct = em.op1(px.MovOp, "u32", "s32", f"%nctaid.{d}")
            return em.op2(px.MulOp, "lo.s32", "s32", ntid, nct)
        raise ptx_error(f"unknown index intrinsic '{name}'")

    def shuffle(self, st: FnState, op: sk.IntrinsicOp, x: Sc, lane: Sc) -> RegAttr:
        """The in-range absolute shuffle `sarek-lower-warp` leaves in its helpers (the lane guard is its
        business): `shfl.sync.idx.b32`, twice for a 64-bit value."""
        if op.callee.data != "warp_shuffle" or IN_RANGE not in op.attributes:
            raise ptx_error(f"'{op.callee.data}' must be lowered by sarek-lower-warp before the PTX lowering", op)
        em = st.em
        src = lane.r
        rt = x.r.ty.data
        if rt in ("s32", "f32"):
            d = em.reg(rt)
            em.emit(px.ShflOp, "sync.idx.b32", d, x.r, src, 31, -1)
            return d
        lo, hi = em.reg("b32"), em.reg("b32")
        em.mov("b64", [lo, hi], x.r)
        lo2, hi2 = em.reg("b32"), em.reg("b32")
        em.emit(px.ShflOp, "sync.idx.b32", lo2, lo, src, 31, -1)
        em.emit(px.ShflOp, "sync.idx.b32", hi2, hi, src, 31, -1)
        d = em.reg(rt)
        em.mov("b64", d, [lo2, hi2])
        return d

    def atomic(self, st: FnState, name: str, args: list[Any], op: Operation) -> RegAttr:
        em = st.em
        buf: Buf = args[0]
        a = self.elem_addr(st, buf, args[1], op)
        t = buf.elt
        rt = scalar_reg_type(t) or "?"
        isf = rt in ("f32", "f64")
        bits = "b32" if rt in ("s32", "u32", "f32") else "b64"
        itype = {"s32": "s32", "s64": "u64", "u32": "u32", "u64": "u64", "f32": "f32", "f64": "f64"}[rt]
        kind = name.removeprefix("atomic_")
        d = em.reg(rt)
        sp = buf.space
        addr = AddrAttr(a, 0)
        if kind in ("add", "sub", "inc", "dec"):
            if kind in ("add", "sub"):
                v = args[2].r
            else:
                v = em.fconst(1.0, rt) if isf else em.iconst(1, rt)
            if kind in ("sub", "dec"):  # neg has signed types only; u32/u64 registers take them (same width)
                nt = {"u32": "s32", "u64": "s64"}.get(rt, rt)
                v = em.op1(px.NegOp, nt, rt, v)
            em.emit(px.AtomOp, f"{sp}.add.{itype}", d, addr, v)
        elif kind in ("min", "max") and isf:
            return self.float_minmax(st, kind, rt, bits, addr, sp, args[2].r)
        elif kind in ("min", "max"):
            em.emit(px.AtomOp, f"{sp}.{kind}.{rt}", d, addr, args[2].r)  # s32 s64 u32 u64: signed or not
        elif kind == "exch":
            em.emit(px.AtomOp, f"{sp}.exch.{bits}", d, addr, args[2].r)
        elif kind in ("and", "or", "xor"):
            assert not isf, f"'{name}' on {t}: refused by the feature gate (ATOMIC_GAPS)"
            em.emit(px.AtomOp, f"{sp}.{kind}.{bits}", d, addr, args[2].r)
        elif kind == "cas":
            em.emit(px.AtomOp, f"{sp}.cas.{bits}", d, addr, args[2].r, args[3].r)
        else:
            raise ptx_error(f"unknown atomic '{name}'", op)
        return d

    def float_minmax(self, st: FnState, kind: str, rt: str, bits: str, addr: AddrAttr, sp: str, v: RegAttr) -> RegAttr:
        """PTX has no float atom.min/max: a compare-and-swap loop on the bits (`atom.cas.b32/b64`), the new value
        `v` only where it compares strictly less/greater (setp + selp: a NaN operand never replaces, a stored NaN
        stays, -0.0 equals 0.0 — the interpreters' rule); returns the old value."""
        em = st.em
        old, seen, new = em.reg(bits), em.reg(bits), em.reg(bits)
        em.emit(px.LdOp, f"{sp}.{bits}", old, addr)
        top = em.label("atomcas")
        em.place_label(top)
        cur = em.reg(rt)
        em.mov(bits, cur, old)
        p = em.setp("lt" if kind == "min" else "gt", rt, v, cur)
        em.mov(bits, new, em.selp(rt, v, cur, p))
        em.emit(px.AtomOp, f"{sp}.cas.{bits}", seen, addr, old, new)
        again = em.setp("ne", bits, seen, old)
        em.mov(bits, old, seen)
        em.bra(top, guard=again)
        d = em.reg(rt)
        em.mov(bits, d, old)
        return d

    def _coopmat(self, st: FnState, op: Operation) -> Any:
        raise AssertionError(f"{op.name}: cooperative matrices are refused by the feature gate")
