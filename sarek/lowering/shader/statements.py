"""Statements and control flow: lets, stores, arrays, if/while/for/match, calls and helper specialisation."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

from xdsl.dialects.builtin import Float32Type, IntegerAttr, i1
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue

from sarek.analysis import shader_names
from sarek.analysis.layout import layout_of
from sarek.analysis.effects import MAX_INLINE_DEPTH, is_pure_intrinsic
from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.optable import OpTable
from sarek.dialect.scalars import is_unsigned
from sarek.lowering.shader.coopmat import Coopmat
from sarek.lowering.shader.language import IDENT, err
from sarek.lowering.shader.state import MAX_NESTING, PURE_INLINE, READ_OPS, Scope, Storage, int_width, nuses


#: the f32 atomics a native float add does (sub adds the negation, inc/dec add one)
_ADDS = frozenset({"atomic_add", "atomic_sub", "atomic_inc", "atomic_dec"})

#: sarek op type -> the `Statements` method lowering it, `(self, op, out, scope)`: one entry per op, stated by
#: `@lowers(Op)` on the method; `lower_op` dispatches on the op's exact type
lowers = OpTable[Callable[..., None]]("shader lowering")
_LOWER = lowers.entries


class Statements(Coopmat):
    """One sarek op lowered to statements of the target dialect."""

    def lower_block(self, block: Block, out: Block, scope: Scope) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise err(f"statements nested more than {MAX_NESTING} deep (if/elif chains, conditional expressions, "
                      f"loops, match) are refused: Vulkan through wgpu 0.32 runs if/else "
                      "branches nested deeper than 79 wrong (lavapipe and the H200) and WGSL allows 127 nested "
                      "braces; use a lookup table or a loop", block.parent_op(), self.lang)
        for op in block.ops:
            self.lower_op(op, out, scope)
        self.nesting -= 1

    def sub(self, region: Region, scope: Scope, out_op: Operation, idx: int) -> Scope:
        s = Scope(scope)
        self.lower_block(region.block, out_op.regions[idx].block, s)
        return s

    def lower_op(self, op: Operation, out: Block, scope: Scope) -> None:
        """Lowers `op` through its entry in the table of `@lowers` methods; an op without one is refused."""
        f = _LOWER.get(type(op))
        if f is None:
            assert not isinstance(op, S.NativeOp), "%native: refused by the feature gate (NATIVE)"
            raise err(f"{op.name} is not supported on {self.lang.name}", op, self.lang)
        f(self, op, out, scope)

    @lowers(*PURE_INLINE, *READ_OPS)
    def value(self, op: Operation, out: Block, scope: Scope) -> None:
        """A value: printed where it is used, or first named by a temporary where its text needs one (several
        uses, too deep); references, vectors and arrays are places, never values of their own."""
        if op.results and isinstance(op.results[0].type, S.RefType | S.VecType | S.ArrayType):
            return
        if self.needs_temp(op) or self.inline_depth(op) > MAX_INLINE_DEPTH:
            self.materialize(op, out, scope, self.render(op))

    @lowers(S.MakeVariantOp)
    def make_variant(self, op: S.MakeVariantOp, out: Block, scope: Scope) -> None:
        if nuses(op.result) > 1:
            self.materialize(op, out, scope, self.render(op))

    @lowers(S.LetOp)
    def let(self, op: S.LetOp, out: Block, scope: Scope) -> None:
        if isinstance(op.value.type, S.VecType | S.ArrayType):
            self.storage[op.result] = self.storage_of(op.value, op)
            return
        n = self.local(op.sym.data, scope)
        self.declare(out, scope, n, op.result.type, self.expr(op.value), op, mutable=False)
        self.vals[op.result] = n

    @lowers(S.LetMutOp)
    def let_mut(self, op: S.LetMutOp, out: Block, scope: Scope) -> None:
        n = self.local(op.sym.data, scope)
        self.declare(out, scope, n, op.init.type, self.expr(op.init), op, mutable=True)
        self.vals[op.result] = n

    @lowers(S.StoreOp)
    def store(self, op: S.StoreOp, out: Block, scope: Scope) -> None:
        p, st = self.place(op.place)
        self.stmt(out, self.write_place(p, st, self.expr(op.value)))

    @lowers(S.IfOp)
    def if_(self, op: S.IfOp, out: Block, scope: Scope) -> None:
        o = self.O["if"](self.expr(op.cond))
        self.sub(op.then_region, scope, o, 0)
        if op.else_region.blocks:
            self.sub(op.else_region, scope, o, 1)
        out.add_op(o)

    @lowers(S.BreakOp, S.ContinueOp)
    def jump(self, op: S.BreakOp | S.ContinueOp, out: Block, scope: Scope) -> None:
        self.stmt(out, "break" if isinstance(op, S.BreakOp) else "continue")

    @lowers(S.ReturnOp)
    def return_(self, op: S.ReturnOp, out: Block, scope: Scope) -> None:
        self.stmt(out, f"return {self.expr(op.value[0])}" if op.value else "return")

    @lowers(S.BarrierOp)
    def barrier(self, op: S.BarrierOp, out: Block, scope: Scope) -> None:
        self.stmt(out, self.lang.barrier)

    @lowers(S.WarpBarrierOp)
    def warp_barrier(self, op: S.WarpBarrierOp, out: Block, scope: Scope) -> None:
        self.use_subgroups(op, shuffle=False)
        self.features.update(self.lang.warp_barrier_features)
        self.stmt(out, "subgroupBarrier()")

    @lowers(S.MemFenceOp)
    def mem_fence(self, op: S.MemFenceOp, out: Block, scope: Scope) -> None:
        assert self.lang.mem_fence is not None, "mem_fence: refused by the feature gate (MEM_FENCE)"
        self.stmt(out, self.lang.mem_fence)

    @lowers(S.CoopmatWaitOp)
    def coopmat_wait(self, op: S.CoopmatWaitOp, out: Block, scope: Scope) -> None:
        """Nothing to wait for: cooperative-matrix multiplies complete before the next statement."""

    @lowers(S.PragmaOp, S.BlockOp)
    def scope_block(self, op: S.PragmaOp | S.BlockOp, out: Block, scope: Scope) -> None:
        """A block of its own scope; a pragma's hints become a comment before it."""
        if isinstance(op, S.PragmaOp):
            out.add_op(self.O["comment"]("pragma " + " ".join(h.data for h in op.hints)))
        b = self.O["block"]()
        self.lower_block(op.body.block, b.regions[0].block, Scope(scope))
        out.add_op(b)

    @lowers(S.IntrinsicOp)
    def intrinsic_stmt(self, op: S.IntrinsicOp, out: Block, scope: Scope) -> None:
        """A pure builtin is a value; an atomic, a warp shuffle or vote a statement naming its result."""
        if is_pure_intrinsic(op):
            self.value(op, out, scope)
        elif INTRINSICS[op.callee.data].category == Category.ATOMIC:
            self.atomic(op, out, scope)
        elif op.callee.data.startswith("warp_shuffle"):
            self.materialize(op, out, scope, self.warp_shuffle(op, *(self.expr(a) for a in op.args)))
        elif op.callee.data in self.lang.vote:
            self.materialize(op, out, scope, self.warp_vote(op, self.expr(op.args[0])))
        else:
            raise err(f"{op.name} is not supported on {self.lang.name}", op, self.lang)

    @lowers(S.YieldOp)
    def yield_(self, op: S.YieldOp, out: Block, scope: Scope) -> None:
        """Nothing: the op that owns the region reads what it yields."""

    @lowers(*S.COOPMAT_OPS)
    def coopmat_stmt(self, op: Operation, out: Block, scope: Scope) -> None:
        self.coopmat(op, out)

    def const_int(self, v: SSAValue) -> int | None:
        if isinstance(v, OpResult):
            op = v.op
            c = op.value if isinstance(op, S.ConstantOp) else None
            if isinstance(c, IntegerAttr):
                return c.value.data
            if isinstance(op, S.IntrinsicOp) and op.callee.data.startswith("block_dim_"):
                return dict(zip("xyz", self.block))[op.callee.data[-1]]
            if isinstance(op, S.LetOp):
                return self.const_int(op.value)
            if isinstance(op, S.BinOp) and op.kind.data.value in ("add", "sub", "mul", "div", "shl", "shr"):
                a, b = self.const_int(op.lhs), self.const_int(op.rhs)
                if a is None or b is None:
                    return None
                k = op.kind.data.value
                if k == "div":
                    return int(a / b) if b else None
                return {"add": a + b, "sub": a - b, "mul": a * b, "shl": a << b, "shr": a >> b}[k]
        return None

    @lowers(S.AllocArrayOp)
    def alloc_array(self, op: S.AllocArrayOp, out: Block, scope: Scope) -> None:
        L = self.lang
        at = op.result.type
        assert isinstance(at, S.ArrayType)
        shape = op.shape if at.ndim > 1 else None  # N-D: constant extents (the verifier's rule)
        n = math.prod(shape) if shape is not None else self.const_int(op.size)
        dims = tuple(str(x) for x in shape or ())
        if n is None or n <= 0:
            raise err("array size must be a positive compile-time constant on this backend", op, self.lang)
        et = at.element_type
        if at.memspace == S.MemSpace.SHARED:
            name = self.shared_names[op]
            if op in self.shared_declared:
                self.storage[op.result] = self.shared_declared[op]
                return
            rep = self.narrow_shared_repr(op)
            key = f"alloc:{id(op)}"
            if key in self.atomic_storage:
                rep = self.atomic_repr(et, op)
            ST = self.storage_type(et, rep, op)
            size = L.reprs[rep].bytes if rep != "plain" else 4 if et == i1 else layout_of(self.module, et).size
            self.shared_bytes += n * size  # (a bool: one 32-bit word)
            self.shared_decls.append(self.O["global"](L.shared_array.format(t=ST, n=name, k=n)))
            self.storage[op.result] = Storage(name, et, rep, "shared", dims=dims)
            self.shared_declared[op] = self.storage[op.result]
            return
        if f"alloc:{id(op)}" in self.atomic_storage:
            raise err("atomics on a local (per-thread) array are not supported on this backend", op, self.lang)
        name = self.local(op.sym.data, scope)
        T = self.ty(et, op)
        self.stmt(out, L.local_array.format(t=T, n=name, k=n))
        if not L.locals_zeroed:
            i = self.temp(scope, "sarek_i")
            f = self.O["for"](f"{L.var.format(t=L.scalar['i32'], n=i, v='0' + L.i32_suffix)}; {i} < {n}; {i}++")
            self.stmt(f.regions[0].block, f"{name}[{i}] = {self.zero(et, op)}")
            out.add_op(f)
        self.storage[op.result] = Storage(name, et, "plain", "local", dims=dims)

    def atomic_repr(self, et: Attribute, op: Operation, key: str = "") -> str:
        """The Storage.repr of an atomic target: f32 as its bits (CAS loops), or as float where the language
        adds floats natively (a buffer that only atomic_add/sub/inc/dec touch: `Lang.f32_atomic_add`)."""
        if isinstance(et, Float32Type):
            native = self.lang.f32_atomic_add
            if native is not None and key.startswith("param:") and self.atomic_names.get(key, set()) <= _ADDS:
                self.features.add(native.feature)
                return "plain"
            return "f32bits"
        assert int_width(et) == 32, f"atomics on {et}: refused by the feature gate (ATOMIC_GAPS, INT64, SMALL_INT)"
        rep = self.lang.int_atomic_repr
        return rep + "_u32" if is_unsigned(et) and rep + "_u32" in self.lang.reprs else rep

    def storage_type(self, et: Attribute, rep: str, op: Operation) -> str:
        if rep == "plain":
            return self.ty(et, op)
        return self.lang.reprs[rep].type

    @lowers(S.IfExprOp)
    def if_expr(self, op: S.IfExprOp, out: Block, scope: Scope) -> None:
        L = self.lang
        t = op.result.type
        # try a pure conditional expression (only when both sides are expression ops: nothing to hoist)
        tb, eb = Block(), Block()
        saved_exprs = dict(self.exprs)
        s1, s2 = Scope(scope), Scope(scope)

        def simple(r: Region) -> bool:
            return all(isinstance(o, PURE_INLINE + READ_OPS + (S.YieldOp,)) or is_pure_intrinsic(o) for o in r.block.ops)

        if simple(op.then_region) and simple(op.else_region):
            self.lower_block(op.then_region.block, tb, s1)
            self.lower_block(op.else_region.block, eb, s2)
        else:
            tb.add_op(self.O["stmt"]("/* not an expression */"))
        ty_ = cast(S.YieldOp, op.then_region.block.last_op)
        ey = cast(S.YieldOp, op.else_region.block.last_op)
        has_reads = any(isinstance(o, READ_OPS) for r in (op.then_region, op.else_region) for o in r.walk())
        scalar = S.is_scalar_type(t)
        # GLSL `c ? buf[i] : T(...)` on a record: glslang selects between the buffer's explicitly laid out
        # struct type and the function-local one and emits an OpStore spirv-val rejects; such a value is
        # computed through an `if` instead (a record read from memory is copied member-wise by a store)
        if not tb.ops and not eb.ops and (scalar or (L.select_any_type and not has_reads)) and (
                L.select_lazy or not has_reads):
            a, b = self.expr(ty_.value), self.expr(ey.value)
            c = self.expr(op.cond)
            self.exprs[op.result] = self.lang.select.format(c=c, a=a, b=b)
            if nuses(op.result) > 1:
                self.materialize(op, out, scope, self.exprs.pop(op.result))
            return
        self.exprs = saved_exprs
        n = self.temp(scope)
        self.declare(out, scope, n, t, None, op, mutable=True)
        o = self.O["if"](self.expr(op.cond))
        for i, (reg, _) in enumerate(((op.then_region, tb), (op.else_region, eb))):
            # re-lower into the real region (values of the trial lowering are discarded)
            s = Scope(scope)
            dst = o.regions[i].block
            self.lower_block(reg.block, dst, s)
            y = cast(S.YieldOp, reg.block.last_op)
            self.stmt(dst, f"{n} = {self.expr(y.value)}")
        out.add_op(o)
        self.vals[op.result] = n

    @lowers(S.WhileOp)
    def while_(self, op: S.WhileOp, out: Block, scope: Scope) -> None:
        cb = Block()
        s = Scope(scope)
        self.lower_block(op.cond_region.block, cb, s)
        y = cast(S.YieldOp, op.cond_region.block.last_op)
        c = self.expr(y.value)
        if not cb.ops:
            w = self.O["while"](c)
            self.sub(op.body, scope, w, 0)
            out.add_op(w)
            return
        loop = self.O["loop"]()
        body = loop.regions[0].block
        for o in list(cb.ops):
            o.detach()
            body.add_op(o)
        brk = self.O["if"](f"!({c})")
        self.stmt(brk.regions[0].block, "break")
        body.add_op(brk)
        s2 = Scope(s)
        self.lower_block(op.body.block, body, s2)
        out.add_op(loop)

    @lowers(S.ForOp)
    def for_(self, op: S.ForOp, out: Block, scope: Scope) -> None:
        lo, hi = self.expr(op.lo), self.expr(op.hi)
        if op.hi not in self.vals and self.const_int(op.hi) is None:  # evaluated once (Python range)
            h = self.temp(scope, "sarek_hi")
            self.declare(out, scope, h, op.hi.type, hi, op, mutable=False)
            hi = h
        s = Scope(scope)
        i = self.local(op.sym.data, s)
        idx = op.body.block.args[0]
        self.vals[idx] = i
        step = op.step_value
        T = self.ty(op.lo.type, op)
        one = self.lang.i32_suffix if int_width(op.lo.type) == 32 else ""
        if step is None:  # a run-time step: Python's range, its sign decides, zero runs no iteration
            st = self.expr(op.step_operand)
            if op.step_operand not in self.vals and self.const_int(op.step_operand) is None:  # evaluated once
                h = self.temp(scope, "sarek_step")
                self.declare(out, scope, h, op.lo.type, st, op, mutable=False)
                st = h
            test = f"({st} > 0{one} && {i} < {hi}) || ({st} < 0{one} && {i} > {hi})"
            inc = f"{i} += {st}"
        else:
            test = f"{i} {'<' if step > 0 else '>'} {hi}"
            inc = f"{i} += {step}{one}" if step > 0 else f"{i} -= {-step}{one}"
        head = f"{self.lang.var.format(t=T, n=i, v=lo)}; {test}; {inc}"
        f = self.O["for"](head)
        self.lower_block(op.body.block, f.regions[0].block, Scope(s))
        out.add_op(f)

    @lowers(S.MatchOp, S.MatchExprOp)
    def match(self, op: S.MatchOp | S.MatchExprOp, out: Block, scope: Scope) -> None:
        L = self.lang
        vt = op.scrutinee.type
        assert isinstance(vt, S.VariantType)
        vd = self.variants[vt.decl_name]
        scrut = self.expr(op.scrutinee)
        if not IDENT.fullmatch(scrut):
            n = self.temp(scope)
            self.declare(out, scope, n, vt, scrut, op, mutable=False)
            scrut = n
        res = None
        if isinstance(op, S.MatchExprOp):
            res = self.temp(scope)
            self.declare(out, scope, res, op.result.type, None, op, mutable=True)
        cases = op.case_list()
        sw = self.O["switch"](f"{scrut}.tag")
        covered: set[str] = set()
        for k, (c, bs, reg) in enumerate(cases):
            last = k == len(cases) - 1
            all_covered = last and (covered | {c}) >= {n for n, _ in vd.ctors}
            if c == S.WILDCARD or (all_covered and L.switch_requires_default):
                label = "default"
            else:
                label = self.tag_const(vt.decl_name, c)
            covered.add(c)
            case = self.O["case"](label)
            s = Scope(scope)
            blk = case.regions[0].block
            ps = vd.payload(c) or [] if c != S.WILDCARD else []
            for j, (b, arg) in enumerate(zip(bs, reg.block.args)):
                n = self.local(b, s)
                if c == S.WILDCARD:
                    val = scrut
                else:
                    val = f"{scrut}.{self.payload_path(vt.decl_name, c, len(ps), j)}"
                self.declare(blk, s, n, arg.type, val, op, mutable=False)
                self.vals[arg] = n
            self.lower_block(reg.block, blk, s)
            if res is not None:
                y = cast(S.YieldOp, reg.block.last_op)
                self.stmt(blk, f"{res} = {self.expr(y.value)}")
            if L.case_falls_through:
                self.stmt(blk, "break")
            sw.regions[0].block.add_op(case)
        if L.switch_requires_default and not any(cast(Any, c).text.data == "default" for c in sw.regions[0].block.ops):
            sw.regions[0].block.add_op(self.O["case"]("default"))
        out.add_op(sw)
        if res is not None:
            self.vals[cast(S.MatchExprOp, op).result] = res

    @lowers(S.CallOp)
    def call(self, op: S.CallOp, out: Block, scope: Scope) -> None:
        h = self.helpers[op.callee_name]
        fname = self.specialize(h, op)
        args = [self.expr(a) for a in op.args if not isinstance(a.type, S.VecType | S.ArrayType)]
        text = f"{fname}({', '.join(args)})"
        if op.res:
            self.materialize(op, out, scope, text)
        else:
            self.stmt(out, text)

    # -------------------------------------------------------------------------------- helpers

    def specialize(self, h: S.HelperOp, call: S.CallOp) -> str:
        hn = h.sym_name.data
        assert hn not in self.spec_stack, f"recursive helper @{hn}: refused by the feature gate (RECURSION)"
        bufs: list[Storage] = []
        for a in call.args:
            if isinstance(a.type, S.VecType | S.ArrayType):
                st = self.storage_of(a, call)
                if st.space == "local":
                    raise err(f"passing a local array to helper @{hn} is not supported on {self.lang.name}",
                              call, self.lang)
                bufs.append(st)
        key = (hn, tuple(b.name for b in bufs))
        if key in self.specs:
            return self.specs[key]
        fname = self.global_name(shader_names.spec_key(hn, [b.name for b in bufs]))
        self.specs[key] = fname
        # save per-function state
        saved = (self.vals, self.exprs, self.cur_func_ret)
        saved_nesting, self.nesting = self.nesting, 0
        self.vals, self.exprs = {}, {}
        scope = Scope()
        params: list[str] = []
        bi = iter(bufs)
        for (pn, arg) in h.params:
            if isinstance(arg.type, S.VecType | S.ArrayType):
                self.storage[arg] = next(bi)
                continue
            n = self.local(pn, scope)
            self.vals[arg] = n
            params.append(self.lang.field.format(t=self.ty(arg.type, h), n=n))
        rt = h.return_type
        unit = isinstance(rt, S.UnitType)
        sig = (self.lang.proc if unit else self.lang.func).format(r="" if unit else self.ty(rt, h), n=fname,
                                                                    p=", ".join(params))
        f = self.O["func"](sig)
        self.spec_stack.append(hn)
        self.lower_block(h.body.block, f.regions[0].block, scope)
        self.spec_stack.pop()
        last = h.body.block.last_op
        if not unit and not isinstance(last, S.ReturnOp):
            self.stmt(f.regions[0].block, f"return {self.zero(rt, h)}")
        self.vals, self.exprs, self.cur_func_ret = saved
        self.nesting = saved_nesting
        self.spec_ops.append(f)
        return fname
