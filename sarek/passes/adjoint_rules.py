"""The reverse rule of each straight-line sarek op for `sarek-adjoint`, and the derivative of each math
intrinsic (one table: a new intrinsic with a derivative is one entry here)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from xdsl.ir import Attribute, Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.dialect.types import is_float
from sarek.diagnostics import SarekError
from sarek.passes.adjoint_prepare import root_of


class _Adjoint(Protocol):
    """What the rules use of the sweep (sarek.passes.adjoint._Adjoint)."""

    kernel: s.KernelOp
    b: BodyBuilder
    adj: dict[SSAValue, SSAValue]
    arr_adj: dict[SSAValue, SSAValue]
    params: set[SSAValue]

    def v(self, x: SSAValue) -> SSAValue: ...
    def const(self, value: float, t: Attribute) -> SSAValue: ...
    def zero(self, t: Attribute) -> SSAValue: ...
    def select(self, c: SSAValue, a: SSAValue, e: SSAValue) -> SSAValue: ...
    def add_into(self, place: SSAValue, delta: SSAValue) -> None: ...
    def acc(self, x: SSAValue, delta: SSAValue) -> None: ...
    def bar(self, x: SSAValue) -> SSAValue: ...
    def place_adj(self, place: SSAValue) -> SSAValue | None: ...
    def aggregate(self, read: Operation, delta: SSAValue) -> bool: ...

#: name -> (adjoint builder, forward args, forward result) -> one partial derivative per argument (None: zero)
Partials = Callable[[_Adjoint, Sequence[SSAValue], SSAValue], Sequence[SSAValue | None]]


def _c(ad: _Adjoint, x: float, like: SSAValue) -> SSAValue:
    return ad.const(x, like.type)


def _op(ad: _Adjoint, kind: str, a: SSAValue, b: SSAValue) -> SSAValue:
    return ad.b.binop(kind, a, b)


def _f(ad: _Adjoint, name: str, *xs: SSAValue) -> SSAValue:
    return ad.b.intrinsic(name, *xs)


def _recip(ad: _Adjoint, x: SSAValue) -> SSAValue:
    return _op(ad, "div", _c(ad, 1.0, x), x)


def _one_minus_sq(ad: _Adjoint, x: SSAValue) -> SSAValue:
    return _op(ad, "sub", _c(ad, 1.0, x), _op(ad, "mul", x, x))


def _sign(ad: _Adjoint, x: SSAValue) -> SSAValue:
    return ad.select(_op(ad, "lt", x, _c(ad, 0.0, x)), _c(ad, -1.0, x), _c(ad, 1.0, x))


def _pick(ad: _Adjoint, a: SSAValue, b: SSAValue, first: str) -> list[SSAValue | None]:
    """min/max: the derivative goes to the operand the result is (the first on ties)."""
    c = _op(ad, first, a, b)
    one, zero = _c(ad, 1.0, a), _c(ad, 0.0, a)
    return [ad.select(c, one, zero), ad.select(c, zero, one)]


def _pow(ad: _Adjoint, xs: Sequence[SSAValue], y: SSAValue) -> list[SSAValue | None]:
    a, e = xs
    da = _op(ad, "mul", e, _f(ad, "pow", a, _op(ad, "sub", e, _c(ad, 1.0, e))))
    pos = _op(ad, "gt", a, _c(ad, 0.0, a))
    de = ad.select(pos, _op(ad, "mul", y, _f(ad, "log", ad.select(pos, a, _c(ad, 1.0, a)))), _c(ad, 0.0, a))
    return [da, de]


def _clamp(ad: _Adjoint, xs: Sequence[SSAValue]) -> list[SSAValue | None]:
    """clamp(x, lo, hi): the derivative goes to the bound the result is at, else to x."""
    x, lo, hi = xs
    one, zero = _c(ad, 1.0, x), _c(ad, 0.0, x)
    below, above = _op(ad, "lt", x, lo), _op(ad, "gt", x, hi)
    inside = ad.select(below, zero, ad.select(above, zero, one))
    return [inside, ad.select(below, one, zero), ad.select(above, one, zero)]


def _atan2(ad: _Adjoint, xs: Sequence[SSAValue], _y: SSAValue) -> list[SSAValue | None]:
    yv, xv = xs
    r2 = _op(ad, "add", _op(ad, "mul", xv, xv), _op(ad, "mul", yv, yv))
    return [_op(ad, "div", xv, r2), ad.b.unop("neg", _op(ad, "div", yv, r2))]


DERIVATIVES: dict[str, Partials] = {
    "sin": lambda ad, x, y: [_f(ad, "cos", x[0])],
    "cos": lambda ad, x, y: [ad.b.unop("neg", _f(ad, "sin", x[0]))],
    "tan": lambda ad, x, y: [_op(ad, "add", _c(ad, 1.0, y), _op(ad, "mul", y, y))],
    "asin": lambda ad, x, y: [_f(ad, "rsqrt", _one_minus_sq(ad, x[0]))],
    "acos": lambda ad, x, y: [ad.b.unop("neg", _f(ad, "rsqrt", _one_minus_sq(ad, x[0])))],
    "atan": lambda ad, x, y: [_recip(ad, _op(ad, "add", _c(ad, 1.0, y), _op(ad, "mul", x[0], x[0])))],
    "sinh": lambda ad, x, y: [_f(ad, "cosh", x[0])],
    "cosh": lambda ad, x, y: [_f(ad, "sinh", x[0])],
    "tanh": lambda ad, x, y: [_one_minus_sq(ad, y)],
    "atanh": lambda ad, x, y: [_recip(ad, _one_minus_sq(ad, x[0]))],
    "exp": lambda ad, x, y: [y],
    "exp2": lambda ad, x, y: [_op(ad, "mul", y, _c(ad, math.log(2.0), y))],
    "expm1": lambda ad, x, y: [_op(ad, "add", y, _c(ad, 1.0, y))],
    "log": lambda ad, x, y: [_recip(ad, x[0])],
    "log2": lambda ad, x, y: [_recip(ad, _op(ad, "mul", x[0], _c(ad, math.log(2.0), y)))],
    "log10": lambda ad, x, y: [_recip(ad, _op(ad, "mul", x[0], _c(ad, math.log(10.0), y)))],
    "log1p": lambda ad, x, y: [_recip(ad, _op(ad, "add", x[0], _c(ad, 1.0, y)))],
    "sqrt": lambda ad, x, y: [_op(ad, "div", _c(ad, 0.5, y), y)],
    "rsqrt": lambda ad, x, y: [_op(ad, "mul", _c(ad, -0.5, y), _op(ad, "mul", y, _op(ad, "mul", y, y)))],
    "cbrt": lambda ad, x, y: [_recip(ad, _op(ad, "mul", _c(ad, 3.0, y), _op(ad, "mul", y, y)))],
    "erf": lambda ad, x, y: [_op(ad, "mul", _c(ad, 2.0 / math.sqrt(math.pi), y),
                                 _f(ad, "exp", ad.b.unop("neg", _op(ad, "mul", x[0], x[0]))))],
    "erfc": lambda ad, x, y: [_op(ad, "mul", _c(ad, -2.0 / math.sqrt(math.pi), y),
                                  _f(ad, "exp", ad.b.unop("neg", _op(ad, "mul", x[0], x[0]))))],
    "fabs": lambda ad, x, y: [_sign(ad, x[0])],
    "abs": lambda ad, x, y: [_sign(ad, x[0])],
    "floor": lambda ad, x, y: [None],
    "ceil": lambda ad, x, y: [None],
    "round": lambda ad, x, y: [None],
    "trunc": lambda ad, x, y: [None],
    "fmin": lambda ad, x, y: _pick(ad, x[0], x[1], "le"),
    "min": lambda ad, x, y: _pick(ad, x[0], x[1], "le"),
    "fmax": lambda ad, x, y: _pick(ad, x[0], x[1], "ge"),
    "max": lambda ad, x, y: _pick(ad, x[0], x[1], "ge"),
    "pow": _pow,
    "atan2": _atan2,
    "hypot": lambda ad, x, y: [_op(ad, "div", x[0], y), _op(ad, "div", x[1], y)],
    "fma": lambda ad, x, y: [x[1], x[0], _c(ad, 1.0, y)],
    "clamp": lambda ad, x, y: _clamp(ad, x),
    "ldexp": lambda ad, x, y: [_f(ad, "ldexp", _c(ad, 1.0, y), x[1]), None],
    "fmod": lambda ad, x, y: [_c(ad, 1.0, y), ad.b.unop("neg", _f(ad, "trunc", _op(ad, "div", x[0], x[1])))],
    "copysign": lambda ad, x, y: [_op(ad, "mul", _sign(ad, x[0]), _f(ad, "copysign", _c(ad, 1.0, y), x[1])), None],
}


def rev_simple(ad: _Adjoint, op: Operation) -> None:
    """The reverse of one op without regions: accumulate its operands' adjoints from its result's."""
    b = ad.b
    res = op.results[0] if op.results else None
    if isinstance(op, s.BinOp) and res is not None and is_float(res.type):
        x, y = op.operands
        r = ad.bar(res)
        kind = op.kind.data.value
        if kind == "add":
            ad.acc(x, r)
            ad.acc(y, r)
        elif kind == "sub":
            ad.acc(x, r)
            ad.acc(y, b.unop("neg", r))
        elif kind == "mul":
            ad.acc(x, b.binop("mul", r, ad.v(y)))
            ad.acc(y, b.binop("mul", r, ad.v(x)))
        elif kind == "div":
            ad.acc(x, b.binop("div", r, ad.v(y)))
            ad.acc(y, b.unop("neg", b.binop("div", b.binop("mul", r, ad.v(res)), ad.v(y))))
    elif isinstance(op, s.UnOp) and res is not None and is_float(res.type):
        ad.acc(op.operands[0], b.unop("neg", ad.bar(res)))
    elif isinstance(op, s.CastOp) and res is not None and is_float(res.type) and is_float(op.operands[0].type):
        ad.acc(op.operands[0], b.cast(ad.bar(res), op.operands[0].type))
    elif isinstance(op, s.LetOp) and res is not None and res in ad.adj:
        ad.acc(op.operands[0], ad.bar(res))
    elif isinstance(op, s.LetMutOp) and res in ad.adj:
        ad.acc(op.operands[0], b.load(ad.adj[res]))  # type: ignore[index]
    elif isinstance(op, s.LoadOp) and res is not None and res in ad.adj:
        r = ad.bar(res)
        if not ad.aggregate(op, r):
            _rev_load(ad, op.operands[0], r)
    elif isinstance(op, s.ArrayReadOp) and res is not None and res in ad.adj:
        r = ad.bar(res)
        if not ad.aggregate(op, r):
            _rev_read(ad, op.operands[0], list(op.operands[1:]), r)
    elif isinstance(op, s.StoreOp):
        _rev_store(ad, op)
    elif isinstance(op, s.FieldOp) and res is not None and res in ad.adj:
        rec = op.operands[0]
        if rec in ad.adj:
            ad.add_into(b.field_ref(ad.adj[rec], op.field.data, res.type), ad.bar(res))
    elif isinstance(op, s.MakeRecordOp) and res is not None and res in ad.adj:
        r = ad.bar(res)
        decl = _record_fields(ad, res)
        for (name, ft), x in zip(decl, op.operands):
            if x in ad.adj:
                ad.acc(x, b.field(r, name, cast(Attribute, ft)))
    elif isinstance(op, s.IntrinsicOp):
        _rev_intrinsic(ad, op)
    elif res is not None and res in ad.adj and not isinstance(op, s.ConstantOp | s.BitcastOp):
        raise SarekError(f"sarek-adjoint: {op.name} has no reverse rule: compute this value from operations that "
                         "have one", op)


def _record_fields(ad: _Adjoint, v: SSAValue) -> list[tuple[str, object]]:
    from sarek.dialect.declarations import record_decl

    return list(record_decl(ad.kernel, v.type).fields)  # type: ignore[arg-type]


def _rev_intrinsic(ad: _Adjoint, op: s.IntrinsicOp) -> None:
    name = op.callee.data
    res = op.results[0]
    if name == "atomic_add":
        arr = op.operands[0]
        adj = ad.arr_adj.get(arr)
        if adj is not None:  # the added value's adjoint is the element's (read)
            ad.acc(op.operands[2], ad.b.read(adj, ad.v(op.operands[1])))
        return
    if res not in ad.adj or not is_float(res.type):
        return
    rule = DERIVATIVES.get(name)
    if rule is None:
        raise SarekError(f"sarek-adjoint: {name} has no derivative here: compute it from operations that have one",
                         op)
    xs = [ad.v(x) for x in op.operands]
    r = ad.bar(res)
    for x, d in zip(op.operands, rule(ad, xs, ad.v(res))):
        if d is not None:
            ad.acc(x, ad.b.binop("mul", r, d))


def _rev_read(ad: _Adjoint, arr: SSAValue, index: list[SSAValue], r: SSAValue) -> None:
    adj = ad.arr_adj.get(arr)
    if adj is None:
        return
    idx = [ad.v(i) for i in index]
    t = arr.type
    if isinstance(t, s.ArrayType) and t.memspace.value == "local":
        ad.add_into(ad.b.elem_ref(adj, cast(Any, idx if len(idx) > 1 else idx[0])), r)
    else:
        flat = idx[0]
        for d, i in enumerate(idx[1:], start=1):  # row-major, like the array's layout
            dim = ad.b.insert(s.ArrayDimOp(adj, d)).results[0]
            flat = ad.b.binop("add", ad.b.binop("mul", flat, dim), i)
        ad.b.intrinsic("atomic_add", adj, flat, r)


def _rev_load(ad: _Adjoint, place: SSAValue, r: SSAValue) -> None:
    o = place.owner
    if isinstance(o, s.ElemRefOp) and root_of(place) is o.operands[0]:
        _rev_read(ad, o.operands[0], list(o.operands[1:]), r)
        return
    target = ad.place_adj(place)
    if target is not None:
        ad.add_into(target, r)


def _rev_store(ad: _Adjoint, op: s.StoreOp) -> None:
    place, value = op.place, op.value
    if value not in ad.adj:
        return
    o = place.owner
    if isinstance(o, s.ElemRefOp) and o.operands[0] in ad.params:
        adj = ad.arr_adj.get(o.operands[0])
        if adj is not None:
            ad.acc(value, ad.b.read(adj, [ad.v(i) for i in o.operands[1:]]))  # type: ignore[arg-type]
        return
    target = ad.place_adj(place)
    if target is None:
        return
    ad.acc(value, ad.b.load(target))
    ad.b.store(target, ad.zero(value.type))
