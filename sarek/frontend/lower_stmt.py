"""Front end, statements: assignments and places, local arrays, if/while/for/match/with, return, assert,
break/continue, and the joins of assigned names after branches and loops."""

from __future__ import annotations

import ast
from typing import Any, cast

import numpy as np

from xdsl.dialects.builtin import Float64Type, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_int
from sarek.frontend.decls import VariantCtor, type_name
from sarek.frontend.errors import CompileError
from sarek.frontend.lower_base import UNSUPPORTED, Binding, WidenLiteral, tname
from sarek.frontend.lower_vector import VectorLowerer
from sarek.gpu import GpuFunction


class StmtLowerer(VectorLowerer):
    """Lowers Python statements into the current block."""

    def stmts(self, body: list[ast.stmt], top: bool = False) -> None:
        for i, st in enumerate(body):
            self.node = st
            for n in self.info.hoist.get(id(st), []):
                self.vars[n] = Binding("pending", None, None, (self.block, self.block.last_op))
            if (top and self.kind == "kernel" and isinstance(st, ast.If) and not st.orelse and len(st.body) == 1
                    and isinstance(st.body[0], ast.Return) and st.body[0].value is None):
                # `if c: return` in a kernel: the rest of the body runs under `not c`
                c = self.cond(st.test)
                nc = self.v(s.UnOp("not", c), st.test)
                op = s.IfOp(nc)
                self.emit(op, st)
                self.in_block(op.then_region.block, lambda: self.stmts(body[i + 1:], top=True))
                return
            self.stmt(st)
            if isinstance(st, ast.Break | ast.Continue | ast.Return):
                return  # what follows in this block is never reached (and would follow a terminator)

    def stmt(self, st: ast.stmt) -> None:
        if type(st) in UNSUPPORTED:
            raise self.err(st, UNSUPPORTED[type(st)])
        m = getattr(self, f"stmt_{type(st).__name__}", None)
        if m is None:
            raise self.err(st, f"'{type(st).__name__}' statements are not supported in kernels")
        m(st)

    def stmt_Pass(self, st: ast.Pass) -> None:
        pass

    def stmt_Break(self, st: ast.Break) -> None:
        self.loop_exit(st, s.BreakOp(), "break")

    def stmt_Continue(self, st: ast.Continue) -> None:
        self.loop_exit(st, s.ContinueOp(), "continue")

    def loop_exit(self, st: ast.stmt, op: Operation, what: str) -> None:
        """`break` / `continue`: the op, and (for the definite-assignment rule) the path ends here; a `break`
        records what it has assigned, which is what a `while True:` loop has assigned after it."""
        if not self.loops:
            raise self.err(st, f"'{what}' outside a loop")
        if what == "break":
            self.loops[-1].append(set(self.assigned))
        self.emit(op, st)
        self.terminated = True

    def stmt_Assert(self, st: ast.Assert) -> None:
        """`assert cond, "message"`: checked in debug mode (the message, else the condition's text, located
        here); release builds drop it."""
        c = self.cond(st.test)
        if st.msg is None:
            msg = f"assert {ast.unparse(st.test)}"
        elif isinstance(st.msg, ast.Constant) and isinstance(st.msg.value, str):
            msg = st.msg.value
        else:
            raise self.err(st.msg, "the message of 'assert' must be a string literal, e.g. assert i < n, \"i out "
                                   "of range\"")
        self.emit(s.AssertOp(c, msg), st)

    def stmt_Expr(self, st: ast.Expr) -> None:
        e = st.value
        if isinstance(e, ast.Constant):
            return  # docstring / `...`
        if isinstance(e, ast.Call):
            self.call(e, None, statement=True)
            return
        if type(e) in UNSUPPORTED:
            raise self.err(e, UNSUPPORTED[type(e)])
        raise self.err(e, "this expression statement has no effect")

    def stmt_Return(self, st: ast.Return) -> None:
        if self.kind == "kernel":
            if st.value is not None and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                raise self.err(st, "a kernel returns nothing: write a bare 'return' to end this thread's work "
                                   "(results go into its vectors)")
            self.emit(s.ReturnOp(), st)
        elif isinstance(self.ret_type, s.UnitType):
            if st.value is not None and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                raise self.err(st, f"device function '{self.name}' returns nothing (annotate its return type to "
                                   "return a value)")
            self.emit(s.ReturnOp(), st)
        else:
            if st.value is None:
                raise self.err(st, f"device function '{self.name}' must return a {tname(self.ret_type)}")
            v = self.tuple_value(st.value, self.ret_type) if isinstance(st.value, ast.Tuple) else \
                self.expr(st.value, self.ret_type)
            if v.type != self.ret_type:
                self.widen_literal(v, self.ret_type)
                raise self.err(st.value, f"type mismatch: device function '{self.name}' returns "
                                         f"{tname(self.ret_type)}, this return gives {tname(v.type)}")
            self.emit(s.ReturnOp(v), st)
        self.terminated = True

    # assignments

    def stmt_Assign(self, st: ast.Assign) -> None:
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call):
            ok, obj = self.static(st.value.func)
            if ok and isinstance(obj, GpuFunction) and obj.kind == "alloc":
                self.alloc(st.targets[0], st.value, obj)
                return
            if (c := self.coop_function(st.value.func)) is not None and c.name == "fragment":
                self.coop_declare(st.targets[0], st.value)
                return
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple | ast.List):
            t = st.targets[0]
            if not isinstance(st.value, ast.Tuple | ast.List):
                self.unpack(t, st.value)
                return
            if len(st.value.elts) != len(t.elts):
                raise self.err(st, f"tuple assignment of {len(t.elts)} names needs {len(t.elts)} values on the "
                                   f"right, got {len(st.value.elts)}")
            hints = [self.target_type(x) for x in t.elts]
            vals = [self.expr(e, h) for e, h in zip(st.value.elts, hints)]
            for x, val, e in zip(t.elts, vals, st.value.elts):
                self.assign(x, val, e, None)
            return
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and self.bind_view(st.targets[0], st.value):
            return
        if len(st.targets) == 1:
            hint = self.target_type(st.targets[0])
            val = self.expr(st.value, hint)
            self.assign(st.targets[0], val, st.value, None)
            return
        val = self.expr(st.value, self.target_type(st.targets[0]))
        for t in st.targets:
            self.assign(t, val, st.value, None)

    def tuple_value(self, node: ast.Tuple, want: Attribute) -> SSAValue:
        """`return a, b` in a helper returning `tuple[A, B]`: the tuple's record built from the values."""
        if not self.is_tuple_type(want):
            raise self.err(node, f"device function '{self.name}' returns {tname(want)}, not a tuple (annotate "
                                 f"it '-> tuple[{', '.join(['f32'] * len(node.elts))}]' to return several values)")
        fields = self.record_fields(cast(s.RecordType, want))
        if len(fields) != len(node.elts):
            raise self.err(node, f"device function '{self.name}' returns {len(fields)} values, this return gives "
                                 f"{len(node.elts)}")
        vals: list[SSAValue] = []
        for i, (e, (_, ft)) in enumerate(zip(node.elts, fields)):
            v = self.convert(self.expr(e, ft), ft, e)
            if v.type != ft:
                self.widen_literal(v, ft)
                raise self.err(e, f"type mismatch: value {i} of the tuple '{self.name}' returns is {tname(ft)}, "
                                  f"this gives {tname(v.type)}")
            vals.append(v)
        return self.v(s.MakeRecordOp(cast(s.RecordType, want).decl_name, vals), node)

    def unpack(self, target: ast.Tuple | ast.List, value: ast.expr) -> None:
        """`p, q = two(x)`: the fields of a tuple value (a helper's `tuple[...]` result), assigned in order."""
        v = self.expr(value)
        if not self.is_tuple_type(v.type):
            raise self.err(value, f"tuple assignment needs a tuple on the right (values 'a, b' or a call of a "
                                  f"helper returning tuple[...]), got {tname(v.type)}")
        fields = self.record_fields(cast(s.RecordType, v.type))
        if len(fields) != len(target.elts):
            raise self.err(value, f"tuple assignment of {len(target.elts)} names, the value has {len(fields)}")
        parts = [self.v(s.FieldOp(v, f, ft), value) for f, ft in fields]
        for x, part in zip(target.elts, parts):
            self.assign(x, part, value, None)

    def stmt_AnnAssign(self, st: ast.AnnAssign) -> None:
        if not isinstance(st.target, ast.Name):
            raise self.err(st.target, "only a local variable can be annotated")
        ok, ann = self.static(st.annotation)
        if not ok:
            raise self.err(st.annotation, "the annotation must name a type")
        t = self.ty(ann, st.annotation)
        if st.value is None:  # `x: bool` declares the type of the later assignments (Python's bare annotation)
            if not s.is_element_type(t):
                raise self.err(st.annotation, f"a local declared without a value is a scalar, record or variant, "
                                              f"got {tname(t)}")
            self.declared[st.target.id] = t
            return
        val = self.expr(st.value, t)
        self.assign(st.target, val, st.value, t)

    def target_type(self, t: ast.expr) -> Attribute | None:
        """The type a store to t expects (a hint for literals), when already known."""
        if isinstance(t, ast.Name):
            b = self.vars.get(t.id)
            if b is not None and b.kind == "ref":
                return b.type
            if t.id in self.declared:
                return self.declared[t.id]
            if t.id in self.f64_literals and (b is None or b.kind == "pending"):
                return Float64Type()   # its first float literal takes f64 (WidenLiteral)
            return None
        try:
            if isinstance(t, ast.Subscript):
                ok, _ = self.static(t.value)
                if ok:
                    return None
                b = self._array_type_of(t.value)
                return b.element_type if b is not None else None
            if isinstance(t, ast.Attribute):
                base = self.target_type(t.value) if not isinstance(t.value, ast.Name) else self._name_type(t.value)
                if isinstance(base, s.RecordType):
                    return dict(self.record_fields(base)).get(t.attr)
        except CompileError:
            return None
        return None

    def _name_type(self, n: ast.Name) -> Attribute | None:
        b = self.vars.get(n.id)
        if b is None or b.kind == "pending":
            return None
        return b.type if b.type is not None else (b.value.type if b.value is not None else None)

    def _array_type_of(self, e: ast.expr) -> Any:
        if isinstance(e, ast.Name):
            t = self._name_type(e)
            return t if isinstance(t, s.VecType | s.ArrayType) else None
        return None

    def assign(self, target: ast.expr, val: SSAValue, vnode: ast.AST, ann: Attribute | None) -> None:
        if isinstance(target, ast.Name):
            self.assign_name(target, val, vnode, ann)
        elif isinstance(target, ast.Subscript) and (v := self.named_view(target.value)) is not None:
            want = v.type.element_type
            val = self.convert(val, want, vnode)
            if val.type != want:
                self.widen_literal(val, want)
                raise self.err(vnode, f"type mismatch: cannot store {tname(val.type)} into an element of type "
                                      f"{tname(want)}")
            self.view_store(v, self.view_indices(v, target), val, target)
        elif isinstance(target, ast.Subscript | ast.Attribute):
            place = self.place(target)
            want = cast(s.RefType, place.type).element_type
            val = self.convert(val, want, vnode)
            if val.type != want:
                self.widen_literal(val, want)
                raise self.err(vnode, f"type mismatch: cannot store {tname(val.type)} into "
                                      f"{self._place_desc(target)} of type {tname(want)}")
            self.emit(s.StoreOp(place, val), target)
        else:
            raise self.err(target, "cannot assign to this expression")

    def _place_desc(self, t: ast.expr) -> str:
        return f"field '{t.attr}'" if isinstance(t, ast.Attribute) else "an element"

    def assign_name(self, target: ast.Name, val: SSAValue, vnode: ast.AST, ann: Attribute | None) -> None:
        n = target.id
        b = self.vars.get(n)
        if b is not None and b.kind in ("param", "vec", "arr") and n not in self.info.locals:
            what = "vector parameter" if b.kind == "vec" else "array" if b.kind == "arr" else "parameter"
            raise self.err(target, f"cannot assign to {what} '{n}' (parameters are read-only; copy it to a new "
                                   "local first)")
        if b is not None and b.kind in ("param", "vec", "arr"):
            raise self.err(target, f"cannot assign to parameter '{n}' (parameters are read-only)")
        if n in self.info.scoped and n not in self.info.locals:
            raise self.err(target, f"cannot assign to loop index or match binder '{n}'")
        if ann is None:
            ann = self.declared.get(n)
        if ann is not None:
            val = self.convert(val, ann, vnode)
        if ann is not None and val.type != ann:
            raise self.err(vnode, f"type mismatch: '{n}' is declared {tname(ann)}, the value is {tname(val.type)}")
        if isinstance(val.type, s.VecType | s.ArrayType):
            if n in self.info.mutable:
                raise self.err(target, f"'{n}' names a vector or array and cannot be reassigned")
            self.vars[n] = Binding("vec" if isinstance(val.type, s.VecType) else "arr", val, val.type)
            self.assigned.add(n)
            return
        if not s.is_element_type(val.type):
            raise self.err(vnode, f"cannot bind a value of type {tname(val.type)}")
        if n in self.info.mutable:
            if b is None:
                op = s.LetMutOp(n, val)
                self.emit(op, target)
                self.vars[n] = Binding("ref", op.result, val.type)
                if ann is None:
                    self.note_float_literal(n, val, vnode)
            else:
                if b.kind == "pending":
                    assert b.anchor is not None
                    ops = self.default(val.type, target)
                    cell = s.LetMutOp(n, ops[-1].results[0])
                    cell.location = ops[-1].location
                    ops.append(cell)
                    blk, after = b.anchor
                    if after is None:
                        if blk.first_op is None:
                            blk.add_ops(ops)
                        else:
                            blk.insert_ops_before(ops, blk.first_op)
                    else:
                        blk.insert_ops_after(ops, after)
                    b = Binding("ref", cell.result, val.type)
                    self.vars[n] = b
                    if ann is None:
                        self.note_float_literal(n, val, vnode)
                val = self.convert(val, cast(Attribute, b.type), vnode)
                if b.type != val.type:
                    if b.type == sc.F32 and val.type == Float64Type() and n in self.float_literal_names \
                            and n not in self.f64_literals:
                        raise WidenLiteral(n)
                    raise self.err(vnode, f"type mismatch: '{n}' has type {tname(cast(Attribute, b.type))} (fixed by its first "
                                          f"assignment), the value is {tname(val.type)}")
                self.emit(s.StoreOp(cast(SSAValue, b.value), val), target)
        else:
            op = s.LetOp(n, val)
            self.emit(op, target)
            self.vars[n] = Binding("val", op.result, val.type)
            if ann is None:
                self.note_float_literal(n, val, vnode)
        self.assigned.add(n)

    def place(self, t: ast.expr) -> SSAValue:
        """The ref of an assignable place: `v[i]`, `p.f` (p a mutable local), `v[i].f`, nested fields."""
        if isinstance(t, ast.Subscript):
            arr = self.expr(t.value)
            if not isinstance(arr.type, s.VecType | s.ArrayType):
                raise self.err(t.value, f"cannot index a value of type {tname(arr.type)}")
            return self.v(s.ElemRefOp(arr, self.indices(arr, t)), t)
        if isinstance(t, ast.Attribute):
            if isinstance(t.value, ast.Name):
                n = t.value.id
                b = self.vars.get(n)
                if b is not None and b.kind == "param":
                    raise self.err(t, f"cannot assign to a field of parameter '{n}' (parameters are read-only; "
                                      "copy it to a local first)")
                self.check_assigned(t.value)
                if b is None or b.kind != "ref":
                    ok, _ = self.static(t.value)
                    if ok:
                        raise self.err(t, f"cannot assign to '{n}.{t.attr}'")
                    raise self.err(t, f"cannot assign to a field of '{n}'")
                base = b.value
            else:
                base = self.place(t.value)
            assert base is not None
            rt = cast(s.RefType, base.type).element_type
            if not isinstance(rt, s.RecordType):
                raise self.err(t, f"a value of type {tname(rt)} has no field '{t.attr}'")
            ft = dict(self.record_fields(rt)).get(t.attr)
            if ft is None:
                raise self.err(t, f"record {rt.decl_name} has no field '{t.attr}'")
            return self.v(s.FieldRefOp(base, t.attr, ft), t)
        raise self.err(t, "cannot assign to this expression")

    def stmt_AugAssign(self, st: ast.AugAssign) -> None:
        t = st.target
        if isinstance(t, ast.Name):
            b = self.vars.get(t.id)
            if b is not None and b.kind in ("param", "vec", "arr"):
                raise self.err(t, f"cannot assign to parameter '{t.id}' (parameters are read-only)")
            if t.id in self.info.scoped and t.id not in self.info.locals:
                raise self.err(t, f"cannot assign to loop index or match binder '{t.id}'")
            cur = self.expr(t)
            b = self.vars[t.id]
            new = self.convert(self.binop_values(st.op, cur, st.value, st), cur.type, st)
            if new.type != cur.type:
                raise self.err(st, f"type mismatch: '{t.id}' has type {tname(cur.type)}, the result is "
                                   f"{tname(new.type)}")
            self.emit(s.StoreOp(cast(SSAValue, b.value), new), st)
            return
        # otherwise t is an ast.Subscript or ast.Attribute (the only other AugAssign targets)
        if isinstance(t, ast.Subscript) and (v := self.named_view(t.value)) is not None:
            idx = self.view_indices(v, t)
            cur = self.view_read(v, idx, t)
            new = self.convert(self.binop_values(st.op, cur, st.value, st), cur.type, st)
            if new.type != cur.type:
                raise self.err(st, f"type mismatch: the element has type {tname(cur.type)}, the result is "
                                   f"{tname(new.type)}")
            self.view_store(v, idx, new, st)
            return
        p = self.place(t)
        cur = self.v(s.LoadOp(p), t)
        new = self.convert(self.binop_values(st.op, cur, st.value, st), cur.type, st)
        if new.type != cur.type:
            raise self.err(st, f"type mismatch: the place has type {tname(cur.type)}, the result is "
                               f"{tname(new.type)}")
        self.emit(s.StoreOp(p, new), st)

    def alloc(self, target: ast.Name, call: ast.Call, fn: GpuFunction) -> None:
        n = target.id
        if n in self.info.mutable:  # located at another assignment of the name, not at this declaration
            others = sorted((x for st in self.src.fdef.body for x in ast.walk(st) if isinstance(x, ast.Name)
                             and x.id == n and isinstance(x.ctx, ast.Store) and x is not target),
                            key=lambda x: (x.lineno, x.col_offset))
            line = self.src.pos(target)[0]
            raise self.err(others[0] if others else target,
                           f"'{n}' names a {fn.name} array (declared at line {line}) and cannot be reassigned; "
                           "give the other value another name")
        if call.keywords or len(call.args) != 2:
            raise self.err(call, f"{fn.name}(T, size) takes 2 arguments, {len(call.args)} given")
        ok, elt = self.static(call.args[0])
        if not ok:
            raise self.err(call.args[0], f"the first argument of {fn.name}() must be an element type")
        et = self.ty(elt, call.args[0])
        if not s.is_element_type(et):
            raise self.err(call.args[0], f"{type_name(elt)} cannot be an array element type")
        shape = call.args[1]
        dims = shape.elts if isinstance(shape, ast.Tuple) else [shape]
        if isinstance(shape, ast.Tuple) and not 1 <= len(dims) <= s.MAX_RANK:
            raise self.err(shape, f"{fn.name}() takes a shape of 1 to {s.MAX_RANK} extents, got {len(dims)}")
        sizes: list[SSAValue] = []
        for d in dims:
            c = self.const_eval(d)
            if isinstance(shape, ast.Tuple) and (not isinstance(c, int) or isinstance(c, bool)):
                raise self.err(d, f"the extents of an N-dimensional {fn.name}() array must be constant integers")
            if isinstance(c, int) and not isinstance(c, bool) and c <= 0:
                raise self.err(d, f"{fn.name}() needs a positive size, got {c}")
            size = self.expr(d, i32)
            if size.type != i32:
                raise self.err(d, f"type mismatch: an array size is i32, got {tname(size.type)}")
            sizes.append(size)
        space = "shared" if fn.name == "shared" else "local"
        a = self.v(s.AllocArrayOp(n, sizes, s.ArrayType(et, space, len(sizes))), call)
        self.vars[n] = Binding("arr", a, a.type)
        self.assigned.add(n)

    # control flow

    def branch(self, block: Block, body: list[ast.stmt]) -> tuple[set[str], bool]:
        saved_a, saved_t = set(self.assigned), self.terminated
        self.terminated = False
        self.in_block(block, lambda: self.stmts(body))
        out = (self.assigned, self.terminated)
        self.assigned, self.terminated = saved_a, saved_t
        return out

    def join(self, outs: list[tuple[set[str], bool]]) -> None:
        live = [a for a, t in outs if not t]
        if not live:
            self.terminated = True
            return
        res = set(live[0])
        for a in live[1:]:
            res &= a
        self.assigned = res

    def stmt_If(self, st: ast.If) -> None:
        c = self.cond(st.test)
        op = s.IfOp(c, Region(Block()), Region(Block()) if st.orelse else Region())
        self.emit(op, st)
        outs = [self.branch(op.then_region.block, st.body)]
        if st.orelse:
            outs.append(self.branch(op.else_region.block, st.orelse))
        else:
            outs.append((set(self.assigned), False))
        self.join(outs)

    def stmt_While(self, st: ast.While) -> None:
        assert not st.orelse, "rewritten by sarek.frontend.loop_else"
        cond_block = Block()
        op = s.WhileOp(Region(cond_block), Region(Block()))

        def mk() -> None:
            c = self.cond(st.test)
            self.emit(s.YieldOp(c), st.test)

        self.in_block(cond_block, mk)
        self.emit(op, st)
        breaks = self.loop_body(op.body.block, st.body)
        if isinstance(st.test, ast.Constant) and st.test.value is True:
            # `while True:` ends only through a break: what every break has assigned is assigned after it
            if not breaks:
                self.terminated = True
            else:
                self.assigned = breaks[0].intersection(*breaks[1:])

    def loop_body(self, block: Block, body: list[ast.stmt]) -> list[set[str]]:
        """Lower a loop body; gives what each `break` of this loop had assigned."""
        self.loops.append([])
        try:
            self.branch(block, body)
        finally:
            breaks = self.loops.pop()
        return breaks

    def stmt_For(self, st: ast.For) -> None:
        assert not st.orelse, "rewritten by sarek.frontend.loop_else"
        if not isinstance(st.target, ast.Name):
            raise self.err(st.target, "the loop variable must be a plain name")
        it = st.iter
        if isinstance(it, ast.Name | ast.Attribute) and (tab := self.static(it))[0] \
                and isinstance(tab[1], tuple | np.ndarray):
            self.for_table(st, tab[1])
            return
        ok, fn = (self.static(it.func) if isinstance(it, ast.Call) else (False, None))
        if not ok or fn is not range:
            raise self.err(it, "only 'for i in range(...)' loops are supported")
        assert isinstance(it, ast.Call)
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.err(it, f"range() takes 1 to 3 arguments, {len(it.args)} given")
        args = it.args
        step: int | SSAValue = 1
        step_v = None
        if len(args) == 3:
            step_v = self.const_eval(args[2])
            if isinstance(step_v, bool) or isinstance(step_v, float):
                raise self.err(args[2], f"the range step must be an integer, got {step_v!r}")
            if step_v == 0:
                raise self.err(args[2], "the range step must not be zero")
            if isinstance(step_v, int):
                step = step_v
        if len(args) == 1:
            hi = self.expr(args[0], i32)
            lo = self.const(0, hi.type if is_int(hi.type) else i32, args[0])
        else:
            lo_n, hi_n = args[0], args[1]
            if len(args) == 3 and step_v is None and self.const_eval(lo_n) is not None and self.const_eval(hi_n) is not None:
                step = self.expr(args[2], i32)  # literal bounds take the run-time step's type
                lo = self.expr(lo_n, step.type)
                hi = self.expr(hi_n, step.type)
            elif self.const_eval(lo_n) is not None and self.const_eval(hi_n) is None:
                hi = self.expr(hi_n, i32)
                lo = self.expr(lo_n, hi.type)
            else:
                lo = self.expr(lo_n, i32)
                hi = self.expr(hi_n, lo.type)
        if sc.is_integer(lo.type) and sc.is_integer(hi.type):
            lo, hi = self.conversions(lo, hi, it)
        for v, n in ((lo, args[0] if len(args) > 1 else it), (hi, args[1] if len(args) > 1 else args[0])):
            if sc.is_unsigned(v.type):
                raise self.err(n, f"range bounds must be i32 or i64, got {tname(v.type)} (convert it, e.g. "
                                  f"range(i32(n)))")
            if not is_int(v.type):
                raise self.err(n, f"range bounds must be integers, got {tname(v.type)}")
        if lo.type != hi.type:
            raise self.err(it, f"type mismatch: range bounds are {tname(lo.type)} and {tname(hi.type)}")
        if len(args) == 3 and step_v is None:
            if not isinstance(step, SSAValue):
                step = self.expr(args[2], lo.type)
            if step.type != lo.type:
                raise self.err(args[2], f"type mismatch: the range bounds are {tname(lo.type)}, the step is "
                                        f"{tname(step.type)}")
            # a zero step is Python's ValueError: checked in debug mode, no iteration otherwise
            nonzero = self.v(s.BinOp("ne", step, self.const(0, step.type, args[2])), args[2])
            self.emit(s.AssertOp(nonzero, "range() step must not be zero"), args[2])
        op = s.ForOp(st.target.id, lo, hi, step)
        self.emit(op, st)
        name = st.target.id
        saved = self.vars.get(name)
        self.vars[name] = Binding("val", op.index, lo.type)
        self.loop_body(op.body.block, st.body)
        if saved is None:
            del self.vars[name]
        else:
            self.vars[name] = saved

    def for_table(self, st: ast.For, obj: Any) -> None:
        """`for w in TAPS:` over a module-level constant table (1-D): a loop over its indices reading each
        element from the table."""
        assert isinstance(st.target, ast.Name)
        arr, t = self.table(obj, st.iter, None)
        name = ast.unparse(st.iter)
        if arr.ndim != 1:
            raise self.err(st.iter, f"'{name}' has {arr.ndim} dimensions: loop over one index, "
                                    f"for i in range({arr.shape[0]}), and read {name}[i, ...]")
        key = (name, str(t))
        if key not in self.tables:
            self.tables[key] = self.local_table(name, arr, t, st.iter)
        op = s.ForOp(f"{st.target.id}_index", self.const(0, i32, st.iter), self.const(arr.shape[0], i32, st.iter), 1)
        self.emit(op, st)
        read = self.in_block(op.body.block, lambda: self.v(s.ArrayReadOp(self.tables[key], [op.index]), st.target))
        name = st.target.id
        saved = self.vars.get(name)
        self.vars[name] = Binding("val", read, t)
        self.loop_body(op.body.block, st.body)
        if saved is None:
            del self.vars[name]
        else:
            self.vars[name] = saved

    def stmt_Match(self, st: ast.Match) -> None:
        subj = self.expr(st.subject)
        if not isinstance(subj.type, s.VariantType):
            raise self.err(st.subject, f"match needs a variant value, got {tname(subj.type)}")
        vt = subj.type
        ctors = dict(self.variant_ctors(vt))
        cases: list[str] = []
        binders: list[list[str]] = []
        regions: list[Region] = []
        bodies: list[tuple[ast.match_case, Block, list[tuple[str, SSAValue]]]] = []
        has_default = False
        for i, c in enumerate(st.cases):
            if c.guard is not None:
                raise self.err(c.guard, "match guards ('case ... if ...') are not supported")
            p = c.pattern
            if isinstance(p, ast.MatchAs) and p.pattern is None:
                if i != len(st.cases) - 1:
                    raise self.err(p, "the catch-all case must be the last")
                has_default = True
                names = [p.name] if p.name else []
                blk = Block(arg_types=[vt] * len(names))
                cases.append(s.WILDCARD)
            elif isinstance(p, ast.MatchClass):
                ok, ctor = self.static(p.cls)
                if not ok or not isinstance(ctor, VariantCtor):
                    raise self.err(p.cls, "a case pattern must name a variant constructor, e.g. "
                                          "'case Shape.Circle(r):'")
                if ctor.variant.__name__ != vt.decl_name:
                    raise self.err(p.cls, f"type mismatch: {ctor!r} is a constructor of {ctor.variant.__name__}, "
                                          f"the value is {tname(vt)}")
                if p.kwd_patterns:
                    raise self.err(p, "keyword patterns are not supported; bind payloads by position")
                ps = ctors[ctor.name]
                if p.patterns and len(p.patterns) != len(ps):
                    raise self.err(p, f"{ctor!r} has {len(ps)} payload value(s), the pattern binds "
                                      f"{len(p.patterns)}")
                names: list[str] = []
                for q in p.patterns:
                    if not (isinstance(q, ast.MatchAs) and q.pattern is None):
                        raise self.err(q, "nested patterns are not supported; bind the payload to a name")
                    names.append(q.name or "_")
                if ctor.name in cases:
                    raise self.err(p, f"constructor {ctor!r} is matched twice")
                blk = Block(arg_types=ps if names else [])
                cases.append(ctor.name)
            else:
                raise self.err(p, "unsupported pattern: use 'case Variant.Ctor(x, ...):' or 'case _:'")
            binders.append(names)
            regions.append(Region(blk))
            bodies.append((c, blk, list(zip(names, blk.args))))
        op = s.MatchOp(subj, cases, binders, regions)
        self.emit(op, st)
        outs: list[tuple[set[str], bool]] = []
        for c, blk, binds in bodies:
            saved = {n: self.vars.get(n) for n, _ in binds}
            for n, a in binds:
                if n != "_":
                    self.vars[n] = Binding("val", a, a.type)
            outs.append(self.branch(blk, c.body))
            for n, b in saved.items():
                if b is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = b
        if not has_default and set(cases) != set(ctors):
            outs.append((set(self.assigned), False))
            self.partial_matches[id(st)] = [f"{vt.decl_name}.{c}" for c in ctors if c not in cases]
        self.join(outs)

    def stmt_With(self, st: ast.With) -> None:
        if len(st.items) != 1 or st.items[0].optional_vars is not None:
            raise self.err(st, "only 'with pragma(...):' and 'with superstep():' are supported")
        e = st.items[0].context_expr
        ok, fn = self.static(e.func) if isinstance(e, ast.Call) else (False, None)
        if not ok or not isinstance(fn, GpuFunction) or fn.kind != "context":
            raise self.err(e, "only 'with pragma(...):' and 'with superstep():' are supported")
        assert isinstance(e, ast.Call)
        if fn.name == "pragma":
            hints: list[str] = []
            for a in e.args:
                if not (isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value):
                    raise self.err(a, "pragma hints are non-empty strings, e.g. pragma(\"unroll\")")
                hints.append(a.value)
            if e.keywords:
                raise self.err(e, "pragma() takes only string hints")
            op: Operation = s.PragmaOp(hints)
            self.emit(op, st)
            out = self.branch(op.regions[0].block, st.body)
            self.join([out])
        else:
            divergent = False
            for k in e.keywords:
                if k.arg != "divergent":
                    raise self.err(k, f"superstep() has no argument '{k.arg}'")
                divergent = self.const_eval(k.value)
                if not isinstance(divergent, bool):
                    raise self.err(k.value, "superstep(divergent=...) takes a constant True or False")
            if e.args:
                raise self.err(e, "superstep() takes no positional argument")
            op = s.BlockOp(superstep="divergent" if divergent else "")
            self.emit(op, st)
            out = self.branch(op.regions[0].block, st.body)
            self.join([out])
            self.emit(s.BarrierOp(), st)
