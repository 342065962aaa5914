"""Front end, array views: a local bound to one of several same-typed arrays (`data = a if even else b`) and
offset views (`w = v[k:]`, `w = v[k:m]`, also of shared and local arrays).

A view is no value of the IR: it is a tree the front end keeps for the name, whose leaves are an array and
an offset (and a length) and whose inner nodes select between two views on a condition computed where the
view is bound. Each use lowers to base + offset on every target: `w[i]` reads `v[i + k]`; a select reads
both sides under a `sarek.if_expr` (writes: a `sarek.if` with a store in each branch), so no target needs
pointer selection (the shaders have none). A view passed to a device function calls the helper's instance for
that view's shape (`DeviceFunction.view_instance`), whose parameter is the view flattened (`view_params`: each
leaf's array, then its offset and length where it has them; a select's two sides, then its condition) and
rebuilt as a view inside (`rebuild_view`), so the helper reads base + offset too. A view cannot be rebound or
passed to an atomic (refused at the argument, with the rewrite: pass the array and the offset, or call once per
array), and only 1-D arrays take offsets."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from collections.abc import Iterator
from typing import Any, cast

from xdsl.dialects.builtin import i1, i32
from xdsl.ir import Attribute, Block, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.frontend.api import DeviceFunction
from sarek.frontend.lower_base import Binding, tname
from sarek.frontend.lower_coop import CoopLowerer


@dataclass
class View:
    """A leaf (`base`, with `offset` and `length` for a slice) or a select (`cond`, `then`, `other`)."""

    type: s.VecType | s.ArrayType
    base: SSAValue | None = None
    offset: SSAValue | None = None
    length: SSAValue | None = None
    cond: SSAValue | None = None
    then: View | None = None
    other: View | None = None


#: the shape of a view, what a helper's instance depends on: ("leaf", has offset, has length) or
#: ("sel", then shape, other shape)
Shape = tuple[Any, ...]


def view_shape(v: View) -> Shape:
    if v.cond is not None:
        assert v.then is not None and v.other is not None
        return ("sel", view_shape(v.then), view_shape(v.other))
    return ("leaf", v.offset is not None, v.length is not None)


def shape_code(shape: Shape) -> str:
    """A shape in a helper instance's name: `a` an array, `o` with an offset, `ol` and a length, `s..` a select."""
    if shape[0] == "sel":
        return "s" + shape_code(shape[1]) + shape_code(shape[2])
    return ("o" if shape[1] else "") + ("l" if shape[2] else "") or "a"


def view_params(name: str, t: Attribute, shape: Shape, taken: set[str]) -> list[tuple[str, Attribute]]:
    """A helper's parameters for a view of type `t` and `shape`, named after the source parameter (`name` is the
    first leaf's array; then `name_off`, `name_len`, `name_c` ..., made unique against `taken`)."""
    def fresh(n: str) -> str:
        while n in taken:
            n += "_"
        taken.add(n)
        return n

    def go(sh: Shape, stem: str, first: bool) -> list[tuple[str, Attribute]]:
        if sh[0] == "sel":
            return [*go(sh[1], stem, first), *go(sh[2], stem + "_else", False), (fresh(stem + "_c"), i1)]
        out: list[tuple[str, Attribute]] = [(name if first else fresh(stem), t)]
        if sh[1]:
            out.append((fresh(stem + "_off"), i32))
        if sh[2]:
            out.append((fresh(stem + "_len"), i32))
        return out

    taken.add(name)
    return go(shape, name, True)


def rebuild_view(t: s.VecType | s.ArrayType, shape: Shape, first: SSAValue,
                 rest: Iterator[tuple[tuple[str, Attribute], SSAValue]]) -> View:
    """The view a helper's flattened parameters (`view_params`, the first already taken) stand for."""
    pending = [first]

    def take() -> SSAValue:
        return pending.pop() if pending else next(rest)[1]

    def go(sh: Shape) -> View:
        if sh[0] == "sel":
            then, other = go(sh[1]), go(sh[2])
            return View(t, cond=take(), then=then, other=other)
        base = take()
        off = take() if sh[1] else None
        length = take() if sh[2] else None
        return View(t, base=base, offset=off, length=length)

    return go(shape)


def view_values(v: View) -> list[SSAValue]:
    """The values a caller passes for view `v` (the order of `view_params`)."""
    if v.cond is not None:
        assert v.then is not None and v.other is not None
        return [*view_values(v.then), *view_values(v.other), v.cond]
    assert v.base is not None
    return [v.base, *([v.offset] if v.offset is not None else []), *([v.length] if v.length is not None else [])]


class ViewLowerer(CoopLowerer):
    """Binds, reads, writes and measures array views."""

    def view_of(self, node: ast.expr) -> View | None:
        """The view `node` denotes (an array name, a slice of one, a conditional between two), else None."""
        if isinstance(node, ast.Name):
            b = self.vars.get(node.id)
            if b is None or b.kind not in ("vec", "arr", "view"):
                return None
            if b.kind == "view":
                return cast(View, b.view)
            return View(cast(s.VecType | s.ArrayType, b.type), base=b.value)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.slice_view(node)
        if isinstance(node, ast.IfExp):
            then, other = self.view_of(node.body), self.view_of(node.orelse)
            if then is None or other is None:
                if then is not None or other is not None:
                    raise self.err(node, "a conditional expression between arrays needs an array on both sides")
                return None
            if then.type != other.type:
                raise self.err(node, f"the arrays of a view must have the same type: {tname(then.type)} and "
                                     f"{tname(other.type)}")
            c = self.cond(node.test)
            return View(then.type, cond=c, then=then, other=other)
        return None

    def slice_view(self, node: ast.Subscript) -> View:
        """`v[k:]` / `v[k:m]` of a 1-D array or view."""
        sl = cast(ast.Slice, node.slice)
        inner = self.view_of(node.value)
        if inner is None:
            raise self.err(node.value, "only an array (a Vec parameter, a shared or local array, or a view) can "
                                       "be sliced")
        if inner.type.ndim != 1:
            raise self.err(node, f"only a 1-D array takes an offset view, this one is {tname(inner.type)}: index it "
                                 "with the offset added")
        if sl.step is not None:
            raise self.err(sl.step, "a view takes no step (v[k:] or v[k:m])")
        lo = self.index(sl.lower) if sl.lower is not None else self.const(0, i32, node)
        hi = self.index(sl.upper) if sl.upper is not None else None
        if lo.type != i32 or (hi is not None and hi.type != i32):
            raise self.err(node, "the bounds of a view are i32")
        length = self.v(s.BinOp("sub", hi, lo), node) if hi is not None else None
        return self._shift(inner, lo, length, node)

    def _shift(self, v: View, lo: SSAValue, length: SSAValue | None, node: ast.AST) -> View:
        if v.cond is not None:
            assert v.then is not None and v.other is not None
            return View(v.type, cond=v.cond, then=self._shift(v.then, lo, length, node),
                        other=self._shift(v.other, lo, length, node))
        off = lo if v.offset is None else self.v(s.BinOp("add", v.offset, lo), node)
        if length is None and v.length is not None:
            length = self.v(s.BinOp("sub", v.length, lo), node)
        return View(v.type, base=v.base, offset=off, length=length)

    def bind_view(self, target: ast.Name, value: ast.expr) -> bool:
        """`w = <view>` where the value is a slice or a conditional between arrays: bind the name to the view
        (True), else False (an ordinary assignment)."""
        if not isinstance(value, ast.IfExp | ast.Subscript) or \
                (isinstance(value, ast.Subscript) and not isinstance(value.slice, ast.Slice)):
            return False
        if isinstance(value, ast.IfExp) and self.view_of_quiet(value.body) is None \
                and self.view_of_quiet(value.orelse) is None:
            return False
        n = target.id
        b = self.vars.get(n)
        if b is not None and b.kind in ("vec", "arr", "param"):
            raise self.err(target, f"cannot rebind parameter '{n}' to a view: bind a new name")
        if n in self.info.mutable:   # located at another assignment of the name
            others = sorted((x for x in ast.walk(self.src.fdef) if isinstance(x, ast.Name) and x.id == n
                             and isinstance(x.ctx, ast.Store) and x is not target), key=lambda x: (x.lineno, x.col_offset))
            raise self.err(others[0] if others else target, f"'{n}' names an array view and cannot be reassigned (bind each view to its "
                                   "own name, e.g. src = a if step % 2 == 0 else b inside the loop)")
        v = self.view_of(value)
        assert v is not None
        self.vars[n] = Binding("view", None, v.type, view=v)
        self.assigned.add(n)
        return True

    def view_of_quiet(self, node: ast.expr) -> View | None:
        """`view_of` for a name only (no op emitted): what decides whether an assignment binds a view."""
        if isinstance(node, ast.Name):
            b = self.vars.get(node.id)
            return View(cast(s.VecType, b.type)) if b is not None and b.kind in ("vec", "arr", "view") else None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return View(s.VecType(i32))
        if isinstance(node, ast.IfExp):
            return self.view_of_quiet(node.body) or self.view_of_quiet(node.orelse)
        return None

    def named_view(self, node: ast.expr) -> View | None:
        """The view a name is bound to (None for anything else)."""
        if isinstance(node, ast.Name) and (b := self.vars.get(node.id)) is not None and b.kind == "view":
            return cast(View, b.view)
        return None

    def view_indices(self, v: View, t: ast.Subscript) -> list[SSAValue]:
        elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        if len(elts) != v.type.ndim:
            raise self.err(t.slice, f"'{ast.unparse(t.value)}' is a view of {tname(v.type)}: it takes "
                                    f"{v.type.ndim} ind{'ex' if v.type.ndim == 1 else 'ices'}, got {len(elts)}")
        return [self.index(e) for e in elts]

    def _leaf_indices(self, v: View, idx: list[SSAValue], node: ast.AST) -> list[SSAValue]:
        if v.offset is None:
            return idx
        i = idx[0]
        off = v.offset if v.offset.type == i.type else self.v(s.CastOp(v.offset, i.type), node)
        return [self.v(s.BinOp("add", i, off), node)]

    def view_read(self, v: View, idx: list[SSAValue], node: ast.AST) -> SSAValue:
        """The element at `idx` of the view: base[idx + offset], under an if_expr per select."""
        if v.cond is None:
            assert v.base is not None
            return self.v(s.ArrayReadOp(v.base, self._leaf_indices(v, idx, node)), node)
        assert v.then is not None and v.other is not None
        then_b, else_b = Block(), Block()
        for blk, side in ((then_b, v.then), (else_b, v.other)):
            def arm(side: View = side) -> None:
                self.emit(s.YieldOp(self.view_read(side, idx, node)), node)
            self.in_block(blk, arm)
        return self.v(s.IfExprOp(v.cond, v.type.element_type, Region(then_b), Region(else_b)), node)

    def view_store(self, v: View, idx: list[SSAValue], val: SSAValue, node: ast.AST) -> None:
        """Store `val` at `idx` of the view: into base[idx + offset], under an if per select."""
        if v.cond is None:
            assert v.base is not None
            ref = self.v(s.ElemRefOp(v.base, self._leaf_indices(v, idx, node)), node)
            self.emit(s.StoreOp(ref, val), node)
            return
        assert v.then is not None and v.other is not None
        op = s.IfOp(v.cond, Region(Block()), Region(Block()))
        self.emit(op, node)
        self.in_block(op.then_region.block, lambda: self.view_store(cast(View, v.then), idx, val, node))
        self.in_block(op.else_region.block, lambda: self.view_store(cast(View, v.other), idx, val, node))

    def view_len(self, v: View, k: int, node: ast.AST) -> SSAValue:
        """Extent `k` of the view: a slice's length, else the base's extent less the offset."""
        if v.cond is not None:
            assert v.then is not None and v.other is not None
            then_b, else_b = Block(), Block()
            self.in_block(then_b, lambda: self.emit(s.YieldOp(self.view_len(cast(View, v.then), k, node)), node))
            self.in_block(else_b, lambda: self.emit(s.YieldOp(self.view_len(cast(View, v.other), k, node)), node))
            return self.v(s.IfExprOp(v.cond, i32, Region(then_b), Region(else_b)), node)
        if v.length is not None:
            return v.length
        assert v.base is not None
        n = self.shape_of(v.base, k, node)
        if v.offset is None:
            return n
        off = v.offset if v.offset.type == n.type else self.v(s.CastOp(v.offset, n.type), node)
        return self.v(s.BinOp("sub", n, off), node)

    def expr_Subscript(self, node: ast.Subscript, hint: Attribute | None) -> SSAValue:
        if (v := self.named_view(node.value)) is not None:
            return self.view_read(v, self.view_indices(v, node), node)
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
                and (v := self.named_view(node.value.value)) is not None:
            k = self.const_eval(node.slice)
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < v.type.ndim:
                raise self.err(node.slice, f"a.shape[k] needs a constant k from 0 to {v.type.ndim - 1}")
            return self.view_len(v, k, node)
        if isinstance(node.slice, ast.Slice):
            raise self.err(node, "a slice is an array view: bind it to a name first (w = v[k:]), then index it")
        return super().expr_Subscript(node, hint)

    def call(self, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        if len(node.args) == 1 and (v := self.named_view(node.args[0])) is not None:
            ok, fn = self.static(node.func)
            if ok and fn is len:
                return self.view_len(v, 0, node)
        args = [*node.args, *(k.value for k in node.keywords)]
        if any(self.is_view_argument(a) for a in args):
            ok, fn = self.static(node.func)
            if ok and isinstance(fn, DeviceFunction):
                return self.view_helper_call(fn, node, statement)
        for a in args:
            self.refuse_view_argument(node, a)
        return super().call(node, hint, statement)

    def is_view_argument(self, arg: ast.expr) -> bool:
        """Whether a call's argument is a view: a name bound to one, a slice, a conditional between arrays."""
        return self.named_view(arg) is not None or (isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice)) \
            or (isinstance(arg, ast.IfExp) and self.view_of_quiet(arg) is not None)

    def view_helper_call(self, fn: DeviceFunction, node: ast.Call, statement: bool) -> SSAValue | None:
        """A device function called with views: its instance for these views' shapes, each view passed as its
        arrays, offsets, lengths and conditions (`view_values`)."""
        fname = ast.unparse(node.func)
        names = [p.arg for p, _ in fn.annotations()]
        given = self.helper_args(node, names, fname)
        views = {n: cast(View, self.view_of(given[n])) for n in names if self.is_view_argument(given[n])}
        if fn.type_params:  # a generic helper: the instance for the arguments' types, a view's its arrays'
            fn = fn.instance(self.infer_binding(fn, node, fname, {n: v.type for n, v in views.items()}))
        sig = self.resolve_device(fn.view_instance({n: view_shape(v) for n, v in views.items()}), node, self)
        assert sig is not None
        for t in sig.types:
            self._register(t)
        params = iter(sig.params)
        vals: list[SSAValue] = []
        for n in names:
            pn, t = next(params)
            if n not in views:
                vals.append(self.helper_arg(pn, t, given[n], fname))
                continue
            flat = view_values(views[n])
            if views[n].type != t:
                raise self.err(given[n], f"type mismatch: parameter '{n}' of {fname}() is {tname(t)}, given a view "
                                         f"of {tname(views[n].type)}")
            vals += flat
            for _ in flat[1:]:
                next(params)
        return self.emit_call(sig, vals, node, statement, fname)

    def refuse_view_argument(self, call: ast.Call, arg: ast.expr) -> None:
        """A view (`v[k:]`, `a if c else b`, a name bound to one) passed to an atomic (or any callee but a device
        function, which takes it through `view_helper_call`): a view is no IR value (the shaders cannot select or
        offset a buffer), so it is refused at the argument with the rewrite that passes whole arrays."""
        named = self.named_view(arg)
        select = (named is not None and named.cond is not None) or (
            isinstance(arg, ast.IfExp) and self.view_of(arg.body) is not None)
        if named is None and not select and not (isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice)):
            return
        f, text = ast.unparse(call.func), ast.unparse(arg)
        if select:
            raise self.err(arg, f"'{text}' is an array view choosing between arrays, and {f}() takes whole arrays: "
                                f"call {f}() on each array under an if (or pass both arrays and the condition)")
        raise self.err(arg, f"'{text}' is an array view (an array with an offset), and {f}() takes whole arrays: "
                            f"pass the array and add the offset to the index")
