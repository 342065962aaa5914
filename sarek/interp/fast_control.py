"""The fast executor, running: helper calls, blocks, masks of loops and returns, one `@runs` method per op, match."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from xdsl.dialects.builtin import FloatAttr, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.dialect.optable import OpTable
from sarek.interp import arith as A
from sarek.interp import common as C
from sarek.interp.common import kind
from sarek.interp.fast_compute import ExecCompute
from sarek.interp.fast_coop import CoopExec
from sarek.interp.fast_values import (
    DT,
    Arr,
    Cell,
    ElemPlace,
    FieldPlace,
    Frame,
    Loop,
    Unvectorizable,
    VRec,
    VVar,
    and_mask,
    any_lane,
    isarr,
    merge,
)
from sarek.interp.tables import table_values

#: sarek op type -> the `Exec` method running it over the lanes, `(self, op, env, m, fr)`: one entry per op,
#: stated by `@runs(Op)` on the method; `block` dispatches on the op's exact type
runs = OpTable[Callable[..., None]]("fast executor")
_RUN = runs.entries


class Exec(ExecCompute, CoopExec):
    """Runs ops over all lanes of a launch under a mask."""

    def call(self, f: Operation, args: list[Any], m: Any) -> Frame:
        assert isinstance(f, S.KernelOp | S.HelperOp)
        env: dict[SSAValue, Any] = dict(zip(f.body.block.args, args))
        fr = Frame()
        self.block(f.body.block, env, m, fr)
        return fr

    def block(self, b: Block, env: dict[SSAValue, Any], m: Any, fr: Frame) -> Any:
        """Run a block's ops, each through its `@runs` entry (an op without one is not vectorisable); returns the
        value of its sarek.yield (if any)."""
        for op in b.ops:
            if m is False:
                return None
            if isinstance(op, S.YieldOp):
                return env[op.value]
            run = _RUN.get(type(op))
            if run is None:
                raise Unvectorizable(op.name)
            run(self, op, env, m, fr)
            if fr.cut:
                m = self.strip(m, fr)
                if not any_lane(m):
                    m = False
        return None

    def strip(self, m: Any, fr: Frame) -> Any:
        """m without the lanes that returned, broke out of the innermost loop or continued it."""
        if fr.returns and fr.done is not None:
            m = (~fr.done) if m is None else (m & ~fr.done)
        if fr.loops:
            top = fr.loops[-1]
            for gone in (top.brk, top.cont):
                if gone is not None:
                    m = (~gone) if m is None else (m & ~gone)
        return m

    def next_iteration(self, act: Any, fr: Frame) -> Any:
        """The lanes that run the loop's next iteration: those of this one that neither returned nor broke
        (lanes that continued come back)."""
        top = fr.loops[-1]
        top.cont = None
        if fr.returns and fr.done is not None:
            act = (~fr.done) if act is None else (act & ~fr.done)
        if top.brk is not None:
            act = (~top.brk) if act is None else (act & ~top.brk)
        fr.recut()
        return act

    def leave(self, fr: Frame, m: Any, brk: bool) -> None:
        """`break` / `continue` on the lanes of m."""
        top = fr.loops[-1]
        live = np.ones(self.n, bool) if m is None else m
        old = top.brk if brk else top.cont
        new = live.copy() if old is None else (old | live)
        if brk:
            top.brk = new
        else:
            top.cont = new
        fr.cut = True

    def loop(self, fr: Frame) -> Loop:
        lp = Loop()
        fr.loops.append(lp)
        fr.recut()
        return lp

    def end_loop(self, fr: Frame) -> None:
        fr.loops.pop()
        fr.recut()

    @runs(S.ConstantOp)
    def run_constant(self, op: S.ConstantOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        k = kind(op.result.type)
        v = op.value
        if k == "unit" or isinstance(v, UnitAttr):
            env[op.result] = None
        elif k == "i1":
            env[op.result] = np.bool_(C.int_value(v))
        elif k in C.INTS:
            env[op.result] = DT[k](C.wrap_kind(C.int_value(v), k))
        else:
            assert isinstance(v, FloatAttr)
            env[op.result] = {"f32": np.float32, "f16": A.f16, "f64": np.float64}[k](v.value.data)

    @runs(S.BinOp)
    def run_bin(self, op: S.BinOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = self.binop(op, env[op.lhs], env[op.rhs], m)

    @runs(S.UnOp)
    def run_un(self, op: S.UnOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        a = env[op.operand]
        kd = op.op.value
        if kd == "neg":
            env[op.result] = -a
        elif kd == "not":
            env[op.result] = ~a if isarr(a) else np.bool_(not a)
        else:
            env[op.result] = ~a

    @runs(S.CastOp)
    def run_cast(self, op: S.CastOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = self.cast(op, env[op.operand])

    @runs(S.BitcastOp)
    def run_bitcast(self, op: S.BitcastOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = A.bitcast(env[op.operand], kind(op.result.type))

    @runs(S.IntrinsicOp)
    def run_intrinsic(self, op: S.IntrinsicOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = self.intrinsic(op, [env[a] for a in op.args], m)

    @runs(S.ArrayReadOp)
    def run_array_read(self, op: S.ArrayReadOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        arr = env[op.array]
        env[op.result] = self.read(arr, self.flat_index(op, arr, env, m))

    @runs(S.ArrayLenOp)
    def run_array_len(self, op: S.ArrayLenOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = np.int32(env[op.array].n)

    @runs(S.ArrayDimOp)
    def run_array_dim(self, op: S.ArrayDimOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = np.int32(env[op.array].shape[op.dim.data])

    @runs(S.AllocArrayOp)
    def run_alloc_array(self, op: S.AllocArrayOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        shape = tuple(op.shape or ()) if op.array_type.ndim > 1 else None  # N-D: constant extents
        size = math.prod(shape) if shape is not None else env[op.size]
        if isarr(size):
            raise Unvectorizable("per-thread array size")
        size = int(size)
        if size < 0:
            raise self.fault(op, f"array size {size} is negative")
        et = op.array_type.element_type
        k = kind(et)
        if op.array_type.memspace == S.MemSpace.SHARED:
            d = self.shared.get(op)
            if d is None:
                d = self.shared[op] = self.tree(et, (self.nb, size))
            env[op.result] = Arr(d, self.blk, k, et, size, shape)
        elif op.values is not None:  # a constant table: one row, read by every lane (never written)
            d = self.tree(et, (1, size))
            d[0] = table_values(op.values, k)
            env[op.result] = Arr(d, np.zeros(self.n, np.int64), k, et, size, shape)
        else:
            env[op.result] = Arr(self.tree(et, (self.n, size)), self.lanes, k, et, size, shape)

    @runs(S.CallOp)
    def run_call(self, op: S.CallOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        f = self.funcs.get(op.callee_name)
        if f is None:
            raise self.fault(op, f"@{op.callee_name} is not a helper of this module")
        sub = self.call(f, [env[a] for a in op.args], m)
        if op.res:
            if sub.done is None or (m is None and not bool(np.all(sub.done))) or (
                    m is not None and bool((m & ~sub.done).any())):
                raise self.fault(op, f"helper @{op.callee_name} ended without returning a value")
            env[op.res[0]] = sub.ret

    @runs(S.LetOp)
    def run_let(self, op: S.LetOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = env[op.value]

    @runs(S.LetMutOp)
    def run_let_mut(self, op: S.LetMutOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        v = env[op.init]
        if kind(op.init.type) == "f16":
            v = self.f16(v)
        env[op.result] = Cell(v)

    @runs(S.LoadOp)
    def run_load(self, op: S.LoadOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = self.load(env[op.ref])

    @runs(S.StoreOp)
    def run_store(self, op: S.StoreOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        v = env[op.value]
        if kind(op.value.type) == "f16":
            v = self.f16(v)
        self.store(env[op.place], v, m)

    @runs(S.FieldRefOp)
    def run_field_ref(self, op: S.FieldRefOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        base = env[op.base]
        idx = self.types.rec(cast(S.RefType, op.base.type).element_type).fields.index(op.field.data)
        if type(base) is FieldPlace:
            env[op.result] = FieldPlace(base.root, [*base.path, idx], [])
        else:
            env[op.result] = FieldPlace(base, [idx], [])

    @runs(S.MakeRecordOp)
    def run_make_record(self, op: S.MakeRecordOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        env[op.result] = VRec(self.types.rec(op.result.type), [env[f] for f in op.fields])

    @runs(S.MakeVariantOp)
    def run_make_variant(self, op: S.MakeVariantOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        vi = self.types.var(op.result.type)
        c = vi.ctors.index(op.ctor.data)
        p = [[env[x] for x in op.payload] if j == c else [self.default(pt) for pt in ps]
             for j, ps in enumerate(vi.payloads)]
        env[op.result] = VVar(vi, np.int32(c), p)

    @runs(S.FieldOp)
    def run_field(self, op: S.FieldOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        idx = self.types.rec(op.record.type).fields.index(op.field.data)
        env[op.result] = env[op.record].f[idx]

    @runs(S.PayloadOp)
    def run_payload(self, op: S.PayloadOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        v = env[op.variant]
        c = v.t.ctors.index(op.ctor.data)
        bad = v.tag != c
        if isarr(bad):
            bad = bad if m is None else (bad & m)
            bad = bool(bad.any())
        elif bad:
            bad = any_lane(m)
        if bad:
            raise self.fault(op, f"payload of constructor {op.ctor.data} read from another constructor's value")
        env[op.result] = v.p[c][op.index.value.data]

    @runs(S.MatchOp, S.MatchExprOp)
    def run_match_(self, op: S.MatchOp | S.MatchExprOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.match(op, env, m, fr)

    @runs(S.ElemRefOp)
    def run_elem_ref(self, op: S.ElemRefOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        arr = env[op.array]
        env[op.result] = ElemPlace(arr, self.flat_index(op, arr, env, m))

    @runs(S.IfOp)
    def run_if(self, op: S.IfOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        c = env[op.cond]
        if not isarr(c):
            if c:
                self.block(op.then_region.block, env, m, fr)
            elif op.else_region.blocks:
                self.block(op.else_region.block, env, m, fr)
        else:
            mt = and_mask(m, c)
            if any_lane(mt):
                self.block(op.then_region.block, env, mt, fr)
            if op.else_region.blocks:
                me = and_mask(self.strip(m, fr), ~c)
                if any_lane(me):
                    self.block(op.else_region.block, env, me, fr)

    @runs(S.IfExprOp)
    def run_if_expr(self, op: S.IfExprOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        c = env[op.cond]
        if not isarr(c):
            env[op.result] = self.block((op.then_region if c else op.else_region).block, env, m, fr)
        else:
            mt, me = and_mask(m, c), and_mask(m, ~c)
            a = self.block(op.then_region.block, env, mt, fr) if any_lane(mt) else None
            b = self.block(op.else_region.block, env, me, fr) if any_lane(me) else None
            if a is None:
                env[op.result] = b
            elif b is None:
                env[op.result] = a
            else:
                env[op.result] = merge(c, a, b)

    @runs(S.WhileOp)
    def run_while(self, op: S.WhileOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        act = m
        self.loop(fr)
        while True:
            c = self.block(op.cond_region.block, env, act, fr)
            act = and_mask(act, c)
            if not any_lane(act):
                break
            self.block(op.body.block, env, act, fr)
            act = self.next_iteration(act, fr)
            if not any_lane(act):
                break
        self.end_loop(fr)

    @runs(S.ForOp)
    def run_for(self, op: S.ForOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        lo, hi = env[op.lo], env[op.hi]
        step = op.step_value
        if step is None:
            step = env[op.step_operand]
        dt = DT[kind(op.lo.type)]
        self.loop(fr)
        if not isarr(lo) and not isarr(hi) and not isarr(step):
            act = m
            for i in (range(int(lo), int(hi), int(step)) if step else ()):
                env[op.index] = dt(i)
                self.block(op.body.block, env, act, fr)
                act = self.next_iteration(act, fr)
                if not any_lane(act):
                    break
        else:
            i = self.full(lo).astype(dt)
            st = dt(step) if not isarr(step) else step
            act = m
            while True:
                act = and_mask(act, ((st > 0) & (i < hi)) | ((st < 0) & (i > hi)))
                if not any_lane(act):
                    break
                env[op.index] = i
                self.block(op.body.block, env, act, fr)
                act = self.next_iteration(act, fr)
                i = (i + st).astype(dt)
        self.end_loop(fr)

    @runs(S.BreakOp, S.ContinueOp)
    def run_jump(self, op: S.BreakOp | S.ContinueOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.leave(fr, m, isinstance(op, S.BreakOp))

    @runs(S.AssertOp)
    def run_assert(self, op: S.AssertOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        """Nothing: release semantics (the debug pipeline turns asserts into checks)."""

    @runs(S.ReturnOp)
    def run_return(self, op: S.ReturnOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        fr.returns = True
        if op.value:
            v = env[op.value[0]]
            if m is None:
                fr.ret = v
            else:
                fr.ret = v if fr.ret is None else merge(m, v, fr.ret)
        live = np.ones(self.n, bool) if m is None else m
        fr.done = live.copy() if fr.done is None else (fr.done | live)
        fr.cut = True

    @runs(S.PragmaOp, S.BlockOp)
    def run_scope_block(self, op: S.PragmaOp | S.BlockOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.block(op.body.block, env, m, fr)

    @runs(S.BarrierOp)
    def run_barrier(self, op: S.BarrierOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.check_block_uniform(op, m, "barrier")

    @runs(S.GridBarrierOp)
    def run_grid_barrier(self, op: S.GridBarrierOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        """Every thread of the launch runs in lock-step: only the check."""
        self.check_grid_uniform(op, m)

    @runs(S.WarpBarrierOp)
    def run_warp_barrier(self, op: S.WarpBarrierOp, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.check_warp_uniform(op, m)

    @runs(S.MemFenceOp, S.CoopmatWaitOp)
    def run_mem_fence(self, op: Operation, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        """Nothing: the executor makes every write visible at once (and its mmas are synchronous)."""

    @runs(*S.COOPMAT_OPS)
    def run_coopmat(self, op: Operation, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        self.coop(op, env, m)

    def match(self, op: Any, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        s = env[op.scrutinee]
        vi = s.t
        tag = s.tag
        expr = isinstance(op, S.MatchExprOp)
        result: Any = None
        listed: list[int] = []
        covered: Any = None
        for c, _, r in op.case_list():
            if c == S.WILDCARD:
                if isarr(tag):
                    hit = ~np.isin(tag, listed) if listed else np.ones(self.n, bool)
                else:
                    hit = np.bool_(int(tag) not in listed)
                binds = [s] * len(r.block.args)
            else:
                ci = vi.ctors.index(c)
                listed.append(ci)
                hit = tag == ci
                binds = s.p[ci]
            cm = and_mask(self.strip(m, fr), hit)
            if isarr(hit):
                covered = hit if covered is None else (covered | hit)
            elif hit:
                covered = True if covered is None or not isarr(covered) else covered
            if not any_lane(cm):
                continue
            for a, b in zip(r.block.args, binds):
                env[a] = b
            y = self.block(r.block, env, cm, fr)
            if expr:
                result = y if result is None else merge(cm if cm is not None else hit, y, result)
        # a statement match whose cases do not cover the scrutinee does nothing (Python's match; every
        # compiled backend falls through); only a value match has no value to give
        if expr and S.WILDCARD not in [c for c, _, _ in op.case_list()]:
            miss = None
            if isarr(tag):
                miss = ~np.isin(tag, listed)
                miss = miss if m is None else (miss & m)
                miss = bool(miss.any())
            else:
                miss = int(tag) not in listed and any_lane(m)
            if miss:
                raise self.fault(op, "no case matches the scrutinee's constructor")
        if expr:
            env[op.result] = result
