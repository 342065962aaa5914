"""PTX lowering, control flow: if (predicated or branched), if_expr (speculated or branched), while, for,
match, blocks, barriers and fences, native text, inlined helper calls, break/continue/return."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation, Region

from sarek.analysis import namer
from sarek.dialect import sarek as sk
from sarek.lowering.ptx.intrinsics import IntrinsicLowering
from sarek.lowering.ptx.state import FnState, LoopLabels, lowers
from sarek.lowering.ptx.values import Frame, Sc, ptx_error, scalar_reg_type
from sarek.passes.wgmma_waits import PROXY
from sarek.targets.ptx import dialect as px


SPECULATE_MAX_OPS = 12  # operations (both arms together) an if_expr may compute unconditionally


def _speculatable(r: Region) -> bool:
    """A value region that only computes in registers: constants, arithmetic (integer division by zero does
    not trap in PTX), casts, record fields and reads of mutable locals — nothing that touches memory, calls,
    synchronises or nests control flow."""
    for o in r.block.ops:
        if isinstance(o, sk.LoadOp):
            if not isinstance(o.ref.owner, sk.LetMutOp):
                return False
        elif not isinstance(o, sk.ConstantOp | sk.BinOp | sk.UnOp | sk.CastOp | sk.BitcastOp | sk.FieldOp | sk.YieldOp):
            return False
    return True


PREDICATE_MAX = 6  # instructions an arm of a statement `if` may hold to be guarded instead of branched around


_UNPREDICABLE = (px.LabelOp, px.BraOp, px.BarOp, px.AtomOp, px.ShflOp, px.VoteOp, px.MembarOp, px.RetOp, px.RawOp)


def _predicable(arm: list[Operation]) -> bool:
    return len(arm) <= PREDICATE_MAX and all(
        isinstance(o, px.Instr) and not isinstance(o, _UNPREDICABLE) and o.guard is None for o in arm)


class ControlLowering(IntrinsicLowering):
    """Statements with regions, calls and jumps."""

    @lowers(sk.IfOp)
    def op_IfOp(self, st: FnState, op: sk.IfOp) -> Any:
        em = st.em
        c = self.val(st, op.operands[0])
        regions = list(op.regions)
        has_else = bool(len(regions) > 1 and regions[1].blocks and any(True for _ in regions[1].block.ops))
        arms = [self.lowered(st, regions[0].block)] + ([self.lowered(st, regions[1].block)] if has_else else [])
        if all(_predicable(a) for a in arms):
            # a small statement `if`: every instruction of the then (else) arm guarded by @p (@!p) instead of
            # branches around them, as NVCC if-converts (no label, branch, barrier or atomic in the arms)
            for neg, arm in zip((False, True), arms):
                for o in arm:
                    o.properties["guard"] = c.r
                    if neg:
                        o.properties["guard_neg"] = UnitAttr()
                    em.ops.append(o)
            return None
        els = em.label("else")
        end = em.label("endif")
        em.bra(els if has_else else end, guard=c.r, neg=True)
        em.ops += arms[0]
        if has_else:
            em.bra(end)
            em.place_label(els)
            em.ops += arms[1]
        em.place_label(end)
        return None

    @lowers(sk.IfExprOp)
    def op_IfExprOp(self, st: FnState, op: sk.IfExprOp) -> Any:
        em = st.em
        c = self.val(st, op.operands[0])
        rt = scalar_reg_type(op.results[0].type)
        if rt is not None and rt != "pred" and all(_speculatable(r) for r in op.regions) \
                and sum(len(r.block.ops) - 1 for r in op.regions) <= SPECULATE_MAX_OPS:
            # both arms are a few register-only operations: compute both and select, as CUDA C's `c ? a : b`
            # becomes, instead of a (possibly divergent) branch; the arms cannot fault or write anything
            a = self.region_value(st, op.regions[0])
            b = self.region_value(st, op.regions[1])
            return Sc(op.results[0].type, em.selp("b16" if rt == "f16" else rt, em.imm(a.r), em.imm(b.r), c.r))
        res = self.fresh(st, op.results[0].type, op)
        els, end = em.label("else"), em.label("endif")
        em.bra(els, guard=c.r, neg=True)
        self.copy(st, res, self.region_value(st, op.regions[0]))
        em.bra(end)
        em.place_label(els)
        self.copy(st, res, self.region_value(st, op.regions[1]))
        em.place_label(end)
        return res

    @lowers(sk.WhileOp)
    def op_WhileOp(self, st: FnState, op: sk.WhileOp) -> Any:
        em = st.em
        head, end = em.label("while"), em.label("endwhile")
        em.place_label(head)
        c = self.region_value(st, op.regions[0])
        em.bra(end, guard=c.r, neg=True)
        st.loops.append(LoopLabels(end, head))
        self.block(st, op.regions[1].block)
        st.loops.pop()
        em.bra(head)
        em.place_label(end)
        return None

    @lowers(sk.ForOp)
    def op_ForOp(self, st: FnState, op: sk.ForOp) -> Any:
        em = st.em
        lo, hi = self.val(st, op.lo), self.val(st, op.hi)
        rt = lo.r.ty.data
        step = op.step_value
        i = em.reg(rt)
        em.mov(rt, i, em.imm(lo.r))
        head, end = em.label("for"), em.label("endfor")
        em.place_label(head)
        s: Any = step
        if step is None:  # run-time step s: go on while (s > 0 && i < hi) || (s < 0 && i > hi)
            s = em.imm(self.val(st, op.step_operand).r)
            up = em.op2(px.AndOp, "pred", "pred", em.setp("gt", rt, s, 0), em.setp("lt", rt, i, em.imm(hi.r)))
            down = em.op2(px.AndOp, "pred", "pred", em.setp("lt", rt, s, 0), em.setp("gt", rt, i, em.imm(hi.r)))
            em.bra(end, guard=em.op2(px.OrOp, "pred", "pred", up, down), neg=True)
        else:
            done = em.setp("ge" if step > 0 else "le", rt, i, em.imm(hi.r))
            em.bra(end, guard=done)
        st.env[op.index] = Sc(op.lo.type, i)
        loop = LoopLabels(end, em=em)
        st.loops.append(loop)
        self.block(st, op.body.block)
        st.loops.pop()
        if loop.cont is not None:
            em.place_label(loop.cont)
        em.emit(px.AddOp, rt, i, i, s)
        em.bra(head)
        em.place_label(end)
        return None

    def _match(self, st: FnState, op: Any, result: Any) -> None:
        em = st.em
        v = self.val(st, op.scrutinee)
        d = self.variant_decl(v.ty)
        end = em.label("endmatch")
        for c, _binders, r in op.case_list():
            nxt = em.label("case")
            if c != sk.WILDCARD:
                p = em.setp("ne", "s32", v.tag, d.ctor_index(c))
                em.bra(nxt, guard=p)
                for j, a in enumerate(r.block.args):
                    st.env[a] = self.payload(st, v, c, j, op)
            else:
                for a in r.block.args:
                    st.env[a] = v
            if result is None:
                self.block(st, r.block)
            else:
                self.copy(st, result, self.region_value(st, r))
            em.bra(end)
            em.place_label(nxt)
        em.place_label(end)

    @lowers(sk.MatchOp)
    def op_MatchOp(self, st: FnState, op: sk.MatchOp) -> Any:
        self._match(st, op, None)
        return None

    @lowers(sk.MatchExprOp)
    def op_MatchExprOp(self, st: FnState, op: sk.MatchExprOp) -> Any:
        res = self.fresh(st, op.results[0].type, op)
        self._match(st, op, res)
        return res

    @lowers(sk.PragmaOp)
    def op_PragmaOp(self, st: FnState, op: sk.PragmaOp) -> Any:
        self.block(st, op.body.block)
        return None

    @lowers(sk.BlockOp)
    def op_BlockOp(self, st: FnState, op: sk.BlockOp) -> Any:
        self.block(st, op.body.block)
        return None

    @lowers(sk.BarrierOp)
    def op_BarrierOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.BarOp, "sync", 0)
        if PROXY in op.attributes:  # the generic stores before it made visible to wgmma's async proxy
            st.em.emit(px.FenceOp, "proxy.async.shared::cta")
        return None

    @lowers(sk.GridBarrierOp)
    def op_GridBarrierOp(self, st: FnState, op: Operation) -> Any:
        """sarek's own grid barrier (no driver workspace): a generation-counting barrier on the launch's hidden
        u32 counter (the entry's last parameter, GRID_COUNTER, zeroed by the runtime before each cooperative
        launch). Between two block barriers, thread 0 of each block fences, adds 1 with release semantics and
        spins on acquire loads until the counter reaches the end of its generation: the k-th barrier's arrivals
        take the counter from (k-1)*blocks to k*blocks, so `old - old % blocks + blocks` is where it waits, with
        no state kept between barriers (any number per launch, in loops too)."""
        em = st.em
        ctr = st.grid_counter
        if ctr is None:
            raise ptx_error("grid_barrier() in a kernel without its counter parameter (internal)", op)
        after, spin = em.label("grid_after"), em.label("grid_spin")
        em.emit(px.BarOp, "sync", 0)
        tid = [em.op1(px.MovOp, "u32", "u32", f"%tid.{d}") for d in "xyz"]
        t = em.op2(px.OrOp, "b32", "u32", em.op2(px.OrOp, "b32", "u32", tid[0], tid[1]), tid[2])
        em.bra(after, guard=em.setp("ne", "u32", t, 0))
        nct = [em.op1(px.MovOp, "u32", "u32", f"%nctaid.{d}") for d in "xyz"]
        nb = em.op2(px.MulOp, "lo.u32", "u32", em.op2(px.MulOp, "lo.u32", "u32", nct[0], nct[1]), nct[2])
        em.emit(px.MembarOp, "gl")
        old = em.reg("u32")
        em.emit(px.AtomOp, "release.gpu.global.add.u32", old, px.AddrAttr(ctr, 0), 1)
        goal = em.op2(px.AddOp, "u32", "u32", em.op2(px.SubOp, "u32", "u32", old,
                                                     em.op2(px.RemOp, "u32", "u32", old, nb)), nb)
        em.place_label(spin)
        cur = em.reg("u32")
        em.emit(px.LdOp, "acquire.gpu.global.u32", cur, px.AddrAttr(ctr, 0))
        em.bra(spin, guard=em.setp("lt", "u32", cur, goal))
        em.emit(px.MembarOp, "gl")
        em.place_label(after)
        em.emit(px.BarOp, "sync", 0)
        return None

    @lowers(sk.WarpBarrierOp)
    def op_WarpBarrierOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.BarOp, "warp.sync", -1)
        return None

    @lowers(sk.MemFenceOp)
    def op_MemFenceOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.MembarOp, "gl")
        return None

    @lowers(sk.NativeOp)
    def op_NativeOp(self, st: FnState, op: sk.NativeOp) -> Any:
        text = op.text_for("ptx")
        assert text is not None, "a %native without PTX text: refused by the feature gate"
        st.em.ops.append(px.RawOp(text))
        return None

    @lowers(sk.CallOp)
    def op_CallOp(self, st: FnState, op: sk.CallOp) -> Any:
        em = st.em
        name = op.callee_name
        h = self.helpers.get(name)
        if h is None:
            raise ptx_error(f"call of unknown helper @{name}", op)
        assert all(f.helper != name for f in st.frames), f"recursive helper @{name}: refused by the feature gate"
        res = None if h.returns_unit else self.fresh(st, h.return_type, op)
        frame = Frame(name, res, em.label(f"ret_{namer.symbol_part(name)}"))
        saved = st.env
        st.env = dict(saved)
        for a, v in zip(h.body.block.args, op.operands):
            st.env[a] = saved[v]
        st.frames.append(frame)
        try:
            self.block(st, h.body.block)
        finally:
            st.frames.pop()
            st.env = saved
        em.place_label(frame.label)
        return res

    @lowers(sk.BreakOp)
    def op_BreakOp(self, st: FnState, op: Operation) -> Any:
        st.em.bra(st.loops[-1].end)
        return None

    @lowers(sk.ContinueOp)
    def op_ContinueOp(self, st: FnState, op: Operation) -> Any:
        st.em.bra(st.loops[-1].continue_label())
        return None

    @lowers(sk.ReturnOp)
    def op_ReturnOp(self, st: FnState, op: sk.ReturnOp) -> Any:
        if not st.frames:  # a kernel's return
            st.em.emit(px.RetOp, "")
            return None
        f = st.frames[-1]
        if op.value and f.result is not None:
            self.copy(st, f.result, self.val(st, op.value[0]))
        st.em.bra(f.label)
        return None
