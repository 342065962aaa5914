"""C-family lowering, statements: blocks, each statement op, pragmas before loops, local and shared
arrays, match as a switch, value-if/match as an if/switch assigning a temporary."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import StringAttr, UnitAttr
from xdsl.ir import Block, Operation

from sarek.analysis.effects import Effect, op_effect
from sarek.analysis.features import constant_size, native_text
from sarek.analysis.shared_window import ALIGN, WINDOW, marker, window_of
from sarek.dialect import sarek as s
from sarek.dialect.optable import OpTable
from sarek.lowering.cfamily.expressions import CExpressions
from sarek.targets.cfamily import dialect as c


_EXPR_OPS = (s.ConstantOp, s.BinOp, s.UnOp, s.CastOp, s.BitcastOp, s.IntrinsicOp, s.MakeRecordOp, s.MakeVariantOp,
             s.FieldOp, s.PayloadOp, s.ArrayReadOp, s.ArrayLenOp, s.ArrayDimOp, s.LoadOp, s.CallOp, s.IfExprOp, s.MatchExprOp)


_LOOPS = (s.WhileOp, s.ForOp)

#: sarek op type -> the `CStatements` method (or a later layer's) lowering it, `(self, op)`: one entry per op,
#: stated by `@lowers(Op)` on the method; `lower_op` dispatches on the op's exact type
lowers = OpTable[Callable[..., None]]("C lowering")
_LOWER = lowers.entries


class CStatements(CExpressions):
    """Lowers statement ops into the current `sarek_c` block."""

    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.lower_op(op)

    def into(self, target: Block, src: Block) -> None:
        saved = self.block
        self.block = target
        self.lower_block(src)
        self.block = saved

    def lower_op(self, op: Operation) -> None:
        """Lowers `op` through its entry in the table of `@lowers` methods; an op without one is refused."""
        f = _LOWER.get(type(op))
        if f is None:
            raise self.err(f"{op.name} is not supported by the {self.backend} backend", op)
        f(self, op)

    @lowers(*_EXPR_OPS)
    def value(self, op: Operation) -> None:
        if isinstance(op, s.CallOp) and not op.results:
            self.emit(c.EvalOp(self.expr(op)))
            return
        self.expr_op(op)

    @lowers(s.LetOp, s.LetMutOp)
    def let(self, op: s.LetOp | s.LetMutOp) -> None:
        init = op.value if isinstance(op, s.LetOp) else op.init
        d = self.emit(c.DeclOp(self.ctype(init.type, op), op.sym.data, self.val(init)))
        self.vals[op.result] = d.results[0]

    @lowers(s.ElemRefOp)
    def elem_ref(self, op: s.ElemRefOp) -> None:
        et = self.elt_ctype(op.array, op)
        self.vals[op.result] = self.emit(c.IndexOp(self.val(op.array), self.flat_index(op), et)).results[0]

    @lowers(s.FieldRefOp)
    def field_ref(self, op: s.FieldRefOp) -> None:
        t = op.result.type.element_type
        bt = cast(s.RefType, op.base.type).element_type
        self.vals[op.result] = self.emit(c.MemberOp(self.val(op.base), self.member(bt, op.field.data),
                                                    self.ctype(t, op))).results[0]

    @lowers(s.StoreOp)
    def store(self, op: s.StoreOp) -> None:
        ref = op.place.owner
        if isinstance(ref, s.ElemRefOp) and (wide := self.wide_helper(op, ref.array, "st")) is not None:
            call = self.emit(c.CallOp(wide, [self.element_address(ref), self.val(op.value)], "void"))
            self.mark(call, Effect.WRITE)
            self.emit(c.EvalOp(call.results[0]))
            return
        self.emit(c.AssignOp(self.val(op.place), self.val(op.value)))

    @lowers(s.IfOp)
    def if_(self, op: s.IfOp) -> None:
        has_else = bool(op.else_region.blocks) and op.else_region.block.first_op is not None
        i = cast(c.IfOp, self.emit(c.IfOp(self.cond_val(op.cond), has_else)))
        self.into(i.then_region.block, op.then_region.block)
        if has_else:
            self.into(i.else_region.block, op.else_region.block)

    @lowers(s.WhileOp)
    def while_(self, op: s.WhileOp) -> None:
        w = cast(c.WhileOp, self.emit(c.WhileOp()))
        saved = self.block
        self.block = w.cond_region.block
        for o in op.cond_region.block.ops:
            if isinstance(o, s.YieldOp):
                self.emit(c.YieldOp(self.val(o.value)))
            else:
                self.lower_op(o)
        self.block = saved
        self.into(w.body.block, op.body.block)

    @lowers(s.ForOp)
    def for_(self, op: s.ForOp) -> None:
        ct = self.ctype(op.lo.type, op)
        step = op.step_value if op.step_value is not None else self.val(op.step_operand)
        f = cast(c.ForOp, self.emit(c.ForOp(ct, op.sym.data, self.val(op.lo), self.val(op.hi), step)))
        self.vals[op.index] = f.body.block.args[0]
        self.into(f.body.block, op.body.block)

    @lowers(s.ReturnOp)
    def return_(self, op: s.ReturnOp) -> None:
        self.emit(c.ReturnOp(self.val(op.value[0]) if op.value else None))

    @lowers(s.BreakOp)
    def break_(self, op: s.BreakOp) -> None:
        self.emit(c.BreakOp())

    @lowers(s.ContinueOp)
    def continue_(self, op: s.ContinueOp) -> None:
        self.emit(c.ContinueOp())

    @lowers(s.BlockOp)
    def block_(self, op: s.BlockOp) -> None:
        b = cast(c.BlockOp, self.emit(c.BlockOp()))
        self.into(b.body.block, op.body.block)

    @lowers(s.BarrierOp)
    def barrier(self, op: s.BarrierOp) -> None:
        self.emit(c.EvalOp(self.tmpl(self.lang.barrier, [], "void", Effect.WRITE)))

    @lowers(s.GridBarrierOp)
    def grid_barrier(self, op: s.GridBarrierOp) -> None:
        assert self.lang.grid_barrier, "a grid barrier on a target without one: refused by the feature gate"
        self.uses_grid = True
        self.emit(c.EvalOp(self.tmpl(self.lang.grid_barrier, [], "void", Effect.WRITE)))

    @lowers(s.WarpBarrierOp)
    def warp_barrier(self, op: s.WarpBarrierOp) -> None:
        self.uses_warp = True
        self.emit(c.EvalOp(self.tmpl(self.lang.warp_barrier, [], "void", Effect.WRITE)))

    @lowers(s.MemFenceOp)
    def mem_fence(self, op: s.MemFenceOp) -> None:
        self.emit(c.EvalOp(self.tmpl(self.lang.mem_fence, [], "void", Effect.WRITE)))

    @lowers(s.CoopmatWaitOp)
    def coopmat_wait(self, op: s.CoopmatWaitOp) -> None:
        """Nothing to wait for: the C targets' fragment mmas (wmma) complete before the next statement."""

    @lowers(s.NativeOp)
    def native(self, op: s.NativeOp) -> None:
        text = native_text(op, self.lang.target)
        assert text is not None, "a %native without text for the target: refused by the feature gate"
        self.emit(c.VerbatimOp(text))

    @lowers(s.YieldOp)
    def yield_(self, op: s.YieldOp) -> None:
        raise self.err("sarek.yield outside a value region", op)

    @lowers(s.PragmaOp)
    def pragma(self, op: s.PragmaOp) -> None:
        text = " ".join(h.data for h in op.hints)
        stmts = [o for o in op.body.block.ops if not (isinstance(o, _EXPR_OPS) and o.results)]
        if len(stmts) == 1 and isinstance(stmts[0], _LOOPS):
            for o in op.body.block.ops:
                if o is stmts[0]:
                    self.emit(c.PragmaOp(text))
                self.lower_op(o)
            return
        b = cast(c.BlockOp, self.emit(c.BlockOp()))
        saved = self.block
        self.block = b.body.block
        for o in op.body.block.ops:
            if isinstance(o, _LOOPS):
                self.emit(c.PragmaOp(text))
            self.lower_op(o)
        self.block = saved

    @lowers(s.AllocArrayOp)
    def alloc_array(self, op: s.AllocArrayOp) -> None:
        self.alloc(op)  # through the layers: CCoopmat.alloc aligns a cooperative kernel's shared arrays

    def alloc(self, op: s.AllocArrayOp) -> None:
        count = constant_size(op)
        assert count is not None, "an array of non-constant size: refused by the feature gate"
        t = op.array_type
        elt = self.ctype(t.element_type, op, storage=True)
        if op.values is not None:  # a constant table: declared once at module scope, in constant memory
            assert self.lang.constant_decl, "a constant table on a target without constant memory"
            vals = ", ".join(self.literal_text(t.element_type, v) for v in op.values.data)
            self.constant_tables.append(f"{self.lang.constant_decl.format(t=elt)} {op.sym.data}[{count}] = {{{vals}}};")
            self.vals[op.result] = self.lit(op.sym.data, self.lang.constant_decl.format(t=elt) + "*")
            return
        if t.memspace == s.MemSpace.SHARED:
            assert self.func_block.parent_op() is not None and cast(c.FuncOp, self.func_block.parent_op()).prefix.data \
                == self.lang.kernel_prefix, "a shared array in a helper: refused by the feature gate"
            saved = self.block
            self.block = Block()
            window = window_of(op) if self.lang.target == "cuda" else None
            if window is None:
                n = self.lit(str(count), "int")
                d: c.ArrayDeclOp | c.DeclOp = c.ArrayDeclOp(self.lang.shared_decl.format(t=elt), op.sym.data, n)
            else:  # past the static limit: a pointer into the dynamic window (sarek.analysis.shared_window)
                if not self.hoisted_window:
                    self.hoisted_window = True
                    k = cast(s.KernelOp, s.enclosing_function(op))
                    self.block.add_op(c.VerbatimOp(f"extern __shared__ __align__({ALIGN}) unsigned char {WINDOW}[];"
                                                   f"  /* {marker(k, window)} */"))
                addr = self.lit(f"({elt}*)({WINDOW} + {window.offsets[op]})", f"{elt}*")
                d = c.DeclOp(f"{elt}*", op.sym.data, addr)
            self.block.add_op(d)
            ops = list(self.block.ops)
            for o in ops:
                o.detach()
            anchor = self.func_block.first_op
            for _ in range(self.hoisted):
                anchor = anchor.next_op if anchor is not None else None
            for o in ops:
                if anchor is None:
                    self.func_block.add_op(o)
                else:
                    self.func_block.insert_op_before(o, anchor)
            self.hoisted += len(ops)
            self.block = saved
        else:
            n = self.lit(str(count), "int")
            d = cast(c.ArrayDeclOp, self.emit(c.ArrayDeclOp(elt, op.sym.data, n, "{0}")))
        self.vals[op.result] = d.result

    @lowers(s.MatchOp)
    def match_stmt(self, op: s.MatchOp) -> None:
        scrut = self.val(op.scrutinee)
        vt = cast(s.VariantType, op.scrutinee.type)
        decl = cast(s.VariantOp, self.decls[vt.decl_name])
        labels = ["" if cn == s.WILDCARD else self.tags[vt.decl_name, cn] for cn, _, _ in op.case_list()]
        sw = cast(c.SwitchOp, self.emit(c.SwitchOp(self.emit(c.MemberOp(scrut, "tag", "int")).results[0], labels)))
        for (cn, binders, region), target in zip(op.case_list(), sw.cases):
            saved = self.block
            self.block = target.block
            for j, (a, bn) in enumerate(zip(region.block.args, binders)):
                if bn == "_" or not list(a.uses):
                    continue
                d = self.emit(c.DeclOp(self.ctype(a.type, op), bn, self.payload(scrut, decl, cn, j)))
                self.vals[a] = d.results[0]
            self.lower_block(region.block)
            self.block = saved

    def expr_op(self, op: Operation) -> None:
        """One value, one temporary (sarek-c-form-expressions folds it later); an unused call or effect is
        evaluated for its effect, any other unused value is not printed."""
        v = op.results[0]
        if isinstance(op, s.IfExprOp | s.MatchExprOp):
            self.value_region_stmt(op)
            return
        cv = self.expr(op)
        if list(v.uses):
            d = self.emit(c.DeclOp(self.ctype(v.type, op), self.fresh(v.name_hint), cv))
            d.attributes[c.TEMP] = StringAttr(v.name_hint or "")
            self.vals[v] = d.results[0]
        elif op_effect(op, self.effects) == Effect.WRITE or isinstance(op, s.CallOp):
            self.emit(c.EvalOp(cv))

    def value_region_stmt(self, op: s.IfExprOp | s.MatchExprOp) -> None:
        """`T tmp; if (c) { ...; tmp = a; } else { ...; tmp = b; }` (a switch for a match), marked
        `sarek_c.value` so that sarek-c-form-expressions can make it `(c ? a : b)`."""
        v = op.result
        tmp_decl = self.emit(c.DeclOp(self.ctype(v.type, op), self.fresh(v.name_hint)))
        tmp_decl.attributes[c.TEMP] = StringAttr(v.name_hint or "")
        tmp = tmp_decl.results[0]
        self.vals[v] = tmp

        def arm(target: Block, region_block: Block) -> None:
            saved = self.block
            self.block = target
            for o in region_block.ops:
                if isinstance(o, s.YieldOp):
                    self.emit(c.AssignOp(tmp, self.val(o.value)))
                else:
                    self.lower_op(o)
            self.block = saved

        if isinstance(op, s.IfExprOp):
            i = cast(c.IfOp, self.emit(c.IfOp(self.val(op.cond), True)))
            i.attributes[c.VALUE] = UnitAttr()
            arm(i.then_region.block, op.then_region.block)
            arm(i.else_region.block, op.else_region.block)
            return
        scrut = self.val(op.scrutinee)
        decl = cast(s.VariantOp, self.decls[cast(s.VariantType, op.scrutinee.type).decl_name])
        cases = op.case_list()
        labels = ["" if (cn == s.WILDCARD or k == len(cases) - 1) else self.tags[decl.sym_name.data, cn]
                  for k, (cn, _, _) in enumerate(cases)]
        sw = cast(c.SwitchOp, self.emit(c.SwitchOp(self.emit(c.MemberOp(scrut, "tag", "int")).results[0], labels)))
        sw.attributes[c.VALUE] = UnitAttr()
        for (cn, binders, region), target in zip(cases, sw.cases):
            saved = self.block
            self.block = target.block
            for j, (a, bn) in enumerate(zip(region.block.args, binders)):
                if bn != "_" and list(a.uses):
                    bd = self.emit(c.DeclOp(self.ctype(a.type, op), bn, self.payload(scrut, decl, cn, j)))
                    bd.attributes[c.BINDER] = UnitAttr()
                    self.vals[a] = bd.results[0]
            self.block = saved
            arm(target.block, region.block)
