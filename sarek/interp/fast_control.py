"""The fast executor, running: helper calls, blocks, masks of loops and returns, the op dispatch and match."""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np

from xdsl.dialects.builtin import FloatAttr, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect import sarek as S
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


class Exec(ExecCompute, CoopExec):
    """Runs ops over all lanes of a launch under a mask."""

    def call(self, f: Operation, args: list[Any], m: Any) -> Frame:
        assert isinstance(f, S.KernelOp | S.HelperOp)
        env: dict[SSAValue, Any] = dict(zip(f.body.block.args, args))
        fr = Frame()
        self.block(f.body.block, env, m, fr)
        return fr

    def block(self, b: Block, env: dict[SSAValue, Any], m: Any, fr: Frame) -> Any:
        """Run a block's ops; returns the value of its sarek.yield (if any)."""
        for op in b.ops:
            if m is False:
                return None
            if isinstance(op, S.YieldOp):
                return env[op.value]
            self.op(op, env, m, fr)
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

    def op(self, op: Operation, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:  # noqa: C901
        if isinstance(op, S.ConstantOp):
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
        elif isinstance(op, S.BinOp):
            env[op.result] = self.binop(op, env[op.lhs], env[op.rhs], m)
        elif isinstance(op, S.UnOp):
            a = env[op.operand]
            kd = op.op.value
            if kd == "neg":
                env[op.result] = -a
            elif kd == "not":
                env[op.result] = ~a if isarr(a) else np.bool_(not a)
            else:
                env[op.result] = ~a
        elif isinstance(op, S.CastOp):
            env[op.result] = self.cast(op, env[op.operand])
        elif isinstance(op, S.BitcastOp):
            env[op.result] = A.bitcast(env[op.operand], kind(op.result.type))
        elif isinstance(op, S.IntrinsicOp):
            env[op.result] = self.intrinsic(op, [env[a] for a in op.args], m)
        elif isinstance(op, S.ArrayReadOp):
            arr = env[op.array]
            env[op.result] = self.read(arr, self.flat_index(op, arr, env, m))
        elif isinstance(op, S.ArrayLenOp):
            env[op.result] = np.int32(env[op.array].n)
        elif isinstance(op, S.ArrayDimOp):
            env[op.result] = np.int32(env[op.array].shape[op.dim.data])
        elif isinstance(op, S.AllocArrayOp):
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
        elif isinstance(op, S.CallOp):
            f = self.funcs.get(op.callee_name)
            if f is None:
                raise self.fault(op, f"@{op.callee_name} is not a helper of this module")
            sub = self.call(f, [env[a] for a in op.args], m)
            if op.res:
                if sub.done is None or (m is None and not bool(np.all(sub.done))) or (
                        m is not None and bool((m & ~sub.done).any())):
                    raise self.fault(op, f"helper @{op.callee_name} ended without returning a value")
                env[op.res[0]] = sub.ret
        elif isinstance(op, S.LetOp):
            env[op.result] = env[op.value]
        elif isinstance(op, S.LetMutOp):
            v = env[op.init]
            if kind(op.init.type) == "f16":
                v = self.f16(v)
            env[op.result] = Cell(v)
        elif isinstance(op, S.LoadOp):
            env[op.result] = self.load(env[op.ref])
        elif isinstance(op, S.StoreOp):
            v = env[op.value]
            if kind(op.value.type) == "f16":
                v = self.f16(v)
            self.store(env[op.place], v, m)
        elif isinstance(op, S.FieldRefOp):
            base = env[op.base]
            idx = self.types.rec(cast(S.RefType, op.base.type).element_type).fields.index(op.field.data)
            if type(base) is FieldPlace:
                env[op.result] = FieldPlace(base.root, [*base.path, idx], [])
            else:
                env[op.result] = FieldPlace(base, [idx], [])
        elif isinstance(op, S.MakeRecordOp):
            env[op.result] = VRec(self.types.rec(op.result.type), [env[f] for f in op.fields])
        elif isinstance(op, S.MakeVariantOp):
            vi = self.types.var(op.result.type)
            c = vi.ctors.index(op.ctor.data)
            p = [[env[x] for x in op.payload] if j == c else [self.default(pt) for pt in ps]
                 for j, ps in enumerate(vi.payloads)]
            env[op.result] = VVar(vi, np.int32(c), p)
        elif isinstance(op, S.FieldOp):
            idx = self.types.rec(op.record.type).fields.index(op.field.data)
            env[op.result] = env[op.record].f[idx]
        elif isinstance(op, S.PayloadOp):
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
        elif isinstance(op, S.MatchOp | S.MatchExprOp):
            self.match(op, env, m, fr)
        elif isinstance(op, S.ElemRefOp):
            arr = env[op.array]
            env[op.result] = ElemPlace(arr, self.flat_index(op, arr, env, m))
        elif isinstance(op, S.IfOp):
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
        elif isinstance(op, S.IfExprOp):
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
        elif isinstance(op, S.WhileOp):
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
        elif isinstance(op, S.ForOp):
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
        elif isinstance(op, S.BreakOp | S.ContinueOp):
            self.leave(fr, m, isinstance(op, S.BreakOp))
        elif isinstance(op, S.AssertOp):
            pass  # release semantics: the debug pipeline turns asserts into checks
        elif isinstance(op, S.ReturnOp):
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
        elif isinstance(op, S.PragmaOp | S.BlockOp):
            self.block(op.body.block, env, m, fr)
        elif isinstance(op, S.BarrierOp):
            self.check_block_uniform(op, m, "barrier")
        elif isinstance(op, S.GridBarrierOp):  # every thread of the launch runs in lock-step: only the check
            self.check_grid_uniform(op, m)
        elif isinstance(op, S.WarpBarrierOp):
            self.check_warp_uniform(op, m)
        elif isinstance(op, S.MemFenceOp):
            pass
        elif isinstance(op, S.COOPMAT_OPS):
            self.coop(op, env, m)
        else:
            raise Unvectorizable(op.name)

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
