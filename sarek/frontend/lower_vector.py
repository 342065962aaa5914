"""Front end, short vectors (`sarek.vectors`: f32x2 .. f16x2, boolx2..4): operators, comparisons, element-wise
math, broadcast constructors, `dot/cross/length/normalize` and `all/any`, each expanded component by
component into the record ops the vectors are (`sarek.field` per lane, scalar ops, `sarek.make_record`).

The mixin overrides the scalar lowerings and falls through to them for anything that is not a vector, so
the rest of the front end sees only records and scalars. Rules:
- `v op w` needs the same vector type; `v op s` / `s op v` a scalar of the element type (a literal takes
  it; integers of other widths are converted as C does and the lanes wrap back to the element type);
- lanes of small integers (u8) and f16 compute as the scalar rules say and are converted back;
- comparisons give a bool vector (`boolxN`), which `if` refuses and `all(c)` / `any(c)` reduce;
- element-wise math (`sqrt(v)`, `abs`, `min(v, w)`, `max(v, 0.0)`, ...) applies per lane.
"""

from __future__ import annotations

import ast
from typing import Any, cast

from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_float
from sarek.frontend.lower_base import tname
from sarek.frontend.lower_view import ViewLowerer
from sarek.math import VectorFunction
from sarek.vectors import BOOL_VECTORS, FIELDS, vector_info


class VectorLowerer(ViewLowerer):
    """Vector operators and functions over the record lowering."""

    # ------------------------------------------------------------------------------------------ helpers

    def vec(self, t: Attribute) -> tuple[Attribute, int] | None:
        """(element IR type, lanes) of a vector record type, else None."""
        if not isinstance(t, s.RecordType):
            return None
        info = self.decl_infos.get(t.decl_name)
        vi = vector_info(info.cls) if info is not None else None
        return None if vi is None else (vi[0].ir, vi[1])

    def lanes(self, v: SSAValue, node: ast.AST) -> list[SSAValue]:
        elem, n = cast(tuple[Attribute, int], self.vec(v.type))
        return [self.v(s.FieldOp(v, f, elem), node) for f in FIELDS[:n]]

    def build(self, like: Attribute | type, lanes: list[SSAValue], node: ast.AST) -> SSAValue:
        """A vector of type `like` (IR type or vector class) from its lanes."""
        t = like if isinstance(like, Attribute) else self.ty(like, node)
        return self.v(s.MakeRecordOp(cast(s.RecordType, t).decl_name, lanes), node)

    def back(self, x: SSAValue, elem: Attribute, node: ast.AST) -> SSAValue:
        """A lane result converted back to the element type (u8 lanes computed in i32, bf16/f16 widened)."""
        return x if x.type == elem else self.v(s.CastOp(x, elem), node)

    def bools(self, n: int, lanes: list[SSAValue], node: ast.AST) -> SSAValue:
        return self.build(BOOL_VECTORS[n], lanes, node)

    def pair(self, sym: str, lv: SSAValue, rv: SSAValue, node: ast.AST) -> tuple[list[SSAValue], list[SSAValue], Attribute, int, Attribute]:
        """Both operands as lanes: (left lanes, right lanes, element type, lanes, vector type), a scalar
        side repeated; a mismatch is reported."""
        lvec, rvec = self.vec(lv.type), self.vec(rv.type)
        vt = lv.type if lvec else rv.type
        elem, n = cast(tuple[Attribute, int], lvec or rvec)
        if lvec and rvec:
            if lv.type != rv.type:
                raise self.err(node, f"type mismatch in '{sym}': {tname(lv.type)} and {tname(rv.type)} (vector "
                                     "operands must have the same vector type)")
            return self.lanes(lv, node), self.lanes(rv, node), elem, n, vt
        scalar = rv if lvec else lv
        ok = scalar.type == elem or sc.promote(elem) == scalar.type or (
            sc.is_integer(elem) and sc.is_integer(scalar.type) and elem != i1 and scalar.type != i1)
        if not ok:
            raise self.err(node, f"type mismatch in '{sym}': {tname(lv.type)} and {tname(rv.type)} (a {tname(vt)} "
                                 f"combines with {tname(vt)} or {tname(elem)} values; convert the scalar, e.g. "
                                 f"{tname(elem)}(x))")
        vl = self.lanes(lv if lvec else rv, node)
        rep = [scalar] * n
        return (vl, rep, elem, n, vt) if lvec else (rep, vl, elem, n, vt)

    # ------------------------------------------------------------------------------------------ overrides

    def literal(self, value: Any, hint: Attribute | None, node: ast.AST) -> SSAValue:
        """A literal next to a vector takes the vector's element type."""
        if hint is not None and (vi := self.vec(hint)) is not None:
            hint = vi[0]
        return super().literal(value, hint, node)

    def arith(self, op: ast.operator, lv: SSAValue, rv: SSAValue, node: ast.AST) -> SSAValue:
        if self.vec(lv.type) is None and self.vec(rv.type) is None:
            return super().arith(op, lv, rv, node)
        sym = self.OPS[type(op)][1]
        ls, rs, elem, _, vt = self.pair(sym, lv, rv, node)
        if elem == i1 and sym not in ("&", "|", "^"):
            raise self.err(node, f"operator '{sym}' does not apply to {tname(vt)} (a bool vector takes &, | and ^)")
        return self.build(vt, [self.back(super(VectorLowerer, self).arith(op, a, b, node), elem, node)
                               for a, b in zip(ls, rs)], node)

    def vector_unary(self, op: ast.unaryop, x: SSAValue, node: ast.UnaryOp) -> SSAValue | None:
        vi = self.vec(x.type)
        if vi is None:
            return None
        elem, _ = vi
        if isinstance(op, ast.UAdd):
            return x
        if isinstance(op, ast.USub) and elem != i1 and not sc.is_unsigned(elem):
            kind = "neg"
        elif isinstance(op, ast.Invert) and sc.is_arith_int(elem):
            kind = "bitnot"
        else:
            sym = "-" if isinstance(op, ast.USub) else "~"
            raise self.err(node, f"unary '{sym}' does not apply to {tname(x.type)}")
        return self.build(x.type, [self.back(self.v(s.UnOp(kind, self.promoted(a, node)), node), elem, node)
                                   for a in self.lanes(x, node)], node)

    def compare(self, op: ast.cmpop, lv: SSAValue, rv: SSAValue, node: ast.AST) -> SSAValue:
        if self.vec(lv.type) is None and self.vec(rv.type) is None:
            return super().compare(op, lv, rv, node)
        syms: dict[type[ast.cmpop], str] = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                                            ast.GtE: ">="}
        sym = syms.get(type(op), "?")
        ls, rs, _, n, _ = self.pair(sym, lv, rv, node)
        return self.bools(n, [super(VectorLowerer, self).compare(op, a, b, node) for a, b in zip(ls, rs)], node)

    def condition_advice(self, t: Attribute) -> str:
        vi = self.vec(t)
        if vi is not None and vi[0] == i1:
            return "a vector comparison holds one bool per lane: reduce it with all(...) or any(...)"
        return super().condition_advice(t)

    def intrinsic_values(self, name: str, vals: list[SSAValue], node: ast.AST, fname: str) -> SSAValue:
        vecs = [v for v in vals if self.vec(v.type) is not None]
        if not vecs:
            return super().intrinsic_values(name, vals, node, fname)
        vt = vecs[0].type
        if any(v.type != vt for v in vecs):
            got = ", ".join(tname(v.type) for v in vals)
            raise self.err(node, f"type mismatch: {fname}() on vectors needs one vector type, got ({got})")
        elem, n = cast(tuple[Attribute, int], self.vec(vt))
        split = [self.lanes(v, node) if v.type == vt else [v] * n for v in vals]
        out = [super(VectorLowerer, self).intrinsic_values(name, [lanes[k] for lanes in split], node, fname)
               for k in range(n)]
        if out[0].type == i1:   # isnan & co. of a vector: a bool vector
            return self.bools(n, out, node)
        return self.build(vt, [self.back(x, elem, node) for x in out], node)

    def call(self, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        ok, fn = self.static(node.func)
        if ok and isinstance(fn, VectorFunction):
            self.no_kw(node, repr(fn))
            return self.vector_function(fn, node)
        if ok and (fn is all or fn is any) and len(node.args) == 1 and not node.keywords:
            b = self.expr(node.args[0])
            vi = self.vec(b.type)
            if vi is None or vi[0] != i1:
                raise self.err(node.args[0], f"{fn.__name__}() in a kernel takes a bool vector (a vector "
                                             f"comparison such as v < w), got {tname(b.type)}")
            acc, *rest = self.lanes(b, node)
            for x in rest:
                acc = self.v(s.BinOp("and" if fn is all else "or", acc, x), node)
            return acc
        if ok and (vi := vector_info(fn)) is not None and len(node.args) == 1 and not node.keywords and vi[1] > 1:
            x = self.expr(node.args[0], vi[0].ir)   # broadcast: f32x3(s)
            t = self.ty(fn, node)
            if x.type == t:
                return x
            x = self.convert(x, vi[0].ir, node.args[0])
            if x.type != vi[0].ir:
                raise self.err(node.args[0], f"type mismatch: {fn.__name__}(s) repeats a {vi[0].name}, given "
                                             f"{tname(x.type)}")
            return self.build(t, [x] * vi[1], node)
        return super().call(node, hint, statement)

    def vector_function(self, fn: VectorFunction, node: ast.Call) -> SSAValue:
        name = fn.name
        if len(node.args) != fn.arity:
            raise self.err(node, f"{fn!r}() takes {fn.arity} argument(s), {len(node.args)} given")
        vals = [self.expr(a) for a in node.args]
        for a, v in zip(node.args, vals):
            vi = self.vec(v.type)
            if vi is None or vi[0] == i1:
                raise self.err(a, f"{fn!r}() takes vectors (f32x3, ...), got {tname(v.type)}")
        if len(vals) == 2 and vals[0].type != vals[1].type:
            raise self.err(node, f"type mismatch in {fn!r}(): {tname(vals[0].type)} and {tname(vals[1].type)}")
        vt = vals[0].type
        elem, n = cast(tuple[Attribute, int], self.vec(vt))
        if name == "cross" and n != 3:
            raise self.err(node, f"{fn!r}() takes 3-vectors, got {tname(vt)}")
        if name in ("length", "normalize") and not is_float(elem):
            raise self.err(node, f"{fn!r}() takes a float vector, got {tname(vt)}")
        mul = ast.Mult()
        if name == "cross":
            (ax, ay, az), (bx, by, bz) = self.lanes(vals[0], node), self.lanes(vals[1], node)

            def det(p: SSAValue, q: SSAValue, r: SSAValue, t: SSAValue) -> SSAValue:
                return self.back(self.arith(ast.Sub(), self.arith(mul, p, q, node), self.arith(mul, r, t, node),
                                            node), elem, node)
            return self.build(vt, [det(ay, bz, az, by), det(az, bx, ax, bz), det(ax, by, ay, bx)], node)
        a = self.lanes(vals[0], node)
        b = self.lanes(vals[-1], node)
        acc = self.arith(mul, a[0], b[0], node)
        for x, y in zip(a[1:], b[1:]):
            acc = self.arith(ast.Add(), acc, self.arith(mul, x, y, node), node)
        if name == "dot":
            return acc
        length = self.v(s.IntrinsicOp("sqrt", [acc], acc.type), node)
        if name == "length":
            return self.back(length, elem, node)
        return self.build(vt, [self.back(self.arith(ast.Div(), self.promoted(x, node), length, node), elem, node)
                               for x in a], node)
