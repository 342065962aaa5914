"""Front end, statements: assignments and places, local arrays, return, assert and break/continue; the
control-flow statements (if/while/for/match/with) are sarek.frontend.lower_control's."""

from __future__ import annotations

import ast
from typing import Any, cast


from xdsl.dialects.builtin import Float64Type, i32
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.frontend.decls import type_name
from sarek.frontend.errors import CompileError
from sarek.frontend.lower_control import CONTROL
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
        if type(st) in CONTROL:
            return CONTROL[type(st)](self, st)
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
        layout = self.alloc_layout(call, fn)
        if len(call.args) != 2:
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
        if layout == "core":
            self.core_alloc(n, call, et, [self.const_eval(d) for d in dims])
            return
        a = self.v(s.AllocArrayOp(n, sizes, s.ArrayType(et, space, len(sizes))), call)
        self.vars[n] = Binding("arr", a, a.type)
        self.assigned.add(n)
