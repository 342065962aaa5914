"""Front end, math calls spelled with sarek's own operations on every target: `isnan`, `isinf`, `isfinite`
(tests on the bits, so no compiler's fast-math may fold them away: WGSL lets an implementation assume there
are no NaNs), `clamp(x, lo, hi)` (numpy's `clip`: a NaN `x` stays NaN, integers compare by signedness) and
`frexp(x)` (the exponent field of the bits: exact everywhere, a `tuple[F, i32]`).

Each expands into sarek IR the interpreters and every backend already run, so `sarek ir` shows the decision.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, cast

from xdsl.dialects.builtin import Float16Type, Float64Type, i1, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_float
from sarek.frontend.lower_base import tname

if TYPE_CHECKING:
    from sarek.frontend.lower_call import CallLowerer

#: math names the front end expands (not `sarek.intrinsic`s): name -> arity
EXPANDED: dict[str, int] = {"isnan": 1, "isinf": 1, "isfinite": 1, "clamp": 3, "frexp": 1}

# (bits type, magnitude mask, the bits of +inf) per float width
_BITS = {32: (i32, 0x7FFFFFFF, 0x7F800000), 64: (i64, 0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000)}
_CLASS = {"isnan": "gt", "isinf": "eq", "isfinite": "lt"}  # |bits| against the bits of +inf


def expand_math(lw: CallLowerer, name: str, node: ast.Call, hint: Attribute | None, fname: str) -> SSAValue:
    """Lower `sarek.math.<name>(...)` (or Python's `math.<name>`) for a name of EXPANDED."""
    if len(node.args) != EXPANDED[name] or node.keywords:
        raise lw.err(node, f"{fname}() takes {EXPANDED[name]} argument(s), {len(node.args) + len(node.keywords)} "
                           "given")
    if name == "clamp":
        return _clamp(lw, node, hint, fname)
    x = lw.promoted(lw.expr(node.args[0]), node)
    if not is_float(x.type):
        raise lw.err(node.args[0], f"{fname}() needs a float (f16, bf16, f32 or f64), got {tname(x.type)}")
    if name == "frexp":
        return _frexp(lw, x, node)
    if isinstance(x.type, Float16Type):  # f16 -> f32 is exact
        x = lw.v(s.CastOp(x, sc.F32), node)
    bt, mask, inf = _BITS[64 if isinstance(x.type, Float64Type) else 32]
    bits = lw.v(s.BitcastOp(x, bt), node)
    mag = lw.v(s.BinOp("bitand", bits, lw.const(mask, bt, node)), node)
    return lw.v(s.BinOp(_CLASS[name], mag, lw.const(inf, bt, node)), node)


#: (bits type, significand bits, exponent field mask, bias) per float width
_FIELDS = {32: (i32, 23, 0xFF, 127), 64: (i64, 52, 0x7FF, 1023)}


def _frexp(lw: CallLowerer, x: SSAValue, node: ast.Call) -> SSAValue:
    """`frexp(x)` = (m, e) with x = m 2^e, |m| in [1/2, 1) (C's and numpy's): the exponent field of x's bits
    (a subnormal x scaled by 2^64 first, exactly), m the same bits with the field of 2^-1; 0, inf and NaN give
    (x, 0). An f16 goes through f32 (exact) and gives an f32 mantissa (C promotes it; a tuple's f16 field could
    not be stored on OpenCL and the shaders)."""
    from sarek import types as T

    ft = x.type
    w = x if not isinstance(ft, Float16Type) else lw.v(s.CastOp(x, sc.F32), node)
    width = 64 if isinstance(ft, Float64Type) else 32
    bt, mant, field, bias = _FIELDS[width]
    wt = w.type

    def c(v: int | float, t: Attribute) -> SSAValue:
        return lw.const(v, t, node)

    def op(kind: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return lw.v(s.BinOp(kind, a, b), node)

    mag = op("bitand", lw.v(s.BitcastOp(w, bt), node), c((1 << (width - 1)) - 1, bt))
    sub = op("lt", mag, c(1 << mant, bt))  # zero or subnormal
    ws = select(lw, sub, op("mul", w, c(2.0 ** 64, wt)), w, node)
    bits = lw.v(s.BitcastOp(ws, bt), node)
    e = op("bitand", op("shr", bits, c(mant, bt)), c(field, bt))
    e = op("sub", e, select(lw, sub, c(bias - 1 + 64, bt), c(bias - 1, bt), node))
    m = lw.v(s.BitcastOp(op("bitor", op("bitand", bits, c(~(field << mant), bt)), c((bias - 1) << mant, bt)), wt),
             node)
    keep = op("or", op("eq", w, c(0.0, wt)), op("ge", mag, c(field << mant, bt)))  # 0, inf, NaN: (x, 0)
    m = select(lw, keep, w, m, node)
    e = lw.v(s.CastOp(select(lw, keep, c(0, bt), e, node), i32), node) if width == 64 else \
        select(lw, keep, c(0, bt), e, node)
    rt = lw.ty(tuple[T.f64 if width == 64 else T.f32, T.i32], node)
    return lw.v(s.MakeRecordOp(cast(s.RecordType, rt).decl_name, [m, e]), node)


def _clamp(lw: CallLowerer, node: ast.Call, hint: Attribute | None, fname: str) -> SSAValue:
    """x < lo ? lo : (x > hi ? hi : x) in the operands' common type (numpy's clip for lo <= hi)."""
    vals = [lw.promoted(v, node) for v in lw.same_typed(list(node.args), hint)]
    t = vals[0].type
    if sc.is_integer(t) and all(sc.is_integer(v.type) for v in vals):
        for v in vals[1:]:
            t = sc.usual_int_conversion(t, v.type)
        vals = [v if v.type == t else lw.v(s.CastOp(v, t), node) for v in vals]
    if any(v.type != t for v in vals) or not (is_float(t) or sc.is_integer(t)) or t == i1:
        got = ", ".join(tname(v.type) for v in vals)
        raise lw.err(node, f"type mismatch: {fname}() needs numbers of one type (integers or floats), got ({got})")
    x, lo, hi = vals
    upper = select(lw, lw.v(s.BinOp("gt", x, hi), node), hi, x, node)
    return select(lw, lw.v(s.BinOp("lt", x, lo), node), lo, upper, node)


def select(lw: Any, c: SSAValue, a: SSAValue, b: SSAValue, node: ast.AST) -> SSAValue:
    """`c ? a : b` as a lazy conditional expression (sarek.if_expr)."""
    then_b, else_b = Block(), Block()
    lw.in_block(then_b, lambda: lw.emit(s.YieldOp(a), node))
    lw.in_block(else_b, lambda: lw.emit(s.YieldOp(b), node))
    return lw.v(s.IfExprOp(c, a.type, Region(then_b), Region(else_b)), node)


def block_vote(lw: CallLowerer, name: str, node: ast.Call) -> SSAValue:
    """`barrier_count(c)`: how many threads of the block have `c` true, after a barrier every thread of the
    block reaches (`barrier_and`: all of them, `barrier_or`: any). One `sarek.intrinsic`, a block barrier
    (sarek-verify-barriers checks it): CUDA, HIP and PTX lower it natively, the other targets and the
    interpreters expand it to a shared counter and three barriers (sarek.dialect.blockvote)."""
    if len(node.args) != 1 or node.keywords:
        raise lw.err(node, f"{name}() takes 1 argument (a bool), {len(node.args) + len(node.keywords)} given")
    return lw.v(s.IntrinsicOp(name, [lw.cond(node.args[0])]), node)


_WHAT = {"warp_shuffle": "lane", "warp_shuffle_up": "offset", "warp_shuffle_down": "offset", "warp_shuffle_xor": "mask"}


def warp_width_check(lw: CallLowerer, name: str, v: SSAValue, node: ast.Call) -> None:
    """A `sarek.assert` (checked with debug=True, free otherwise) that a shuffle's lane / offset / mask lies in
    0 .. warp_size - 1: beyond the device's warp a shuffle returns the thread's own value, so a kernel written
    for 32 lanes silently computes something else on a device with 8 (lavapipe) or 1 (pocl)."""
    ws = lw.v(s.IntrinsicOp("warp_size", []), node)
    ok = lw.v(s.BinOp("and", lw.v(s.BinOp("ge", v, lw.const(0, i32, node)), node), lw.v(s.BinOp("lt", v, ws), node)),
              node)
    what = _WHAT[name]
    lw.emit(s.AssertOp(ok, f"{name}: the {what} reaches beyond this device's warp (it must be in 0 .. warp_size - 1; "
                           f"warp_size is 32 on NVIDIA, 64 on AMD, 8 on lavapipe, 1 on pocl): write the loop over "
                           "warp_size (docs/KERNELS.md)"), node)
