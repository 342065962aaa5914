"""sarek-canonicalize: constant folding, algebraic identities that are exact, and dead code, in the sarek dialect.

Every rewrite gives the interpreter's result bit for bit (tests/unit/test_opt_passes.py checks random kernels
before and after):
- folding: `binop`/`unop`/`cast` of constants with the dialect's semantics (sarek.dialect.semantics, the
  interpreter's: integers wrap at their width, `div`/`rem` truncate, shifts only by a count below the width,
  f32 in f32 arithmetic); never a division by zero, never a result that is not finite (those stay as written,
  where the target's own rules apply).
- identities (integers): `x+0`, `x-0`, `x*1`, `x/1`, `x|0`, `x^0`, `x&-1`, `x<<0`, `x>>0` are `x`; `x*0`,
  `x&0`, `x%1`, `x-x`, `x^x` are 0. Booleans: `and`/`or` with a constant. Floats only where IEEE makes them
  exact for every x, NaN and -0.0 included: `x*1.0`, `x/1.0`, `x-0.0`, `x+(-0.0)` are `x`; `x*-1.0` is `-x`
  (`x+0.0` is not `x`: -0.0 + 0.0 is +0.0). `neg(neg x)`, `not(not x)`, `bitnot(bitnot x)`, a cast to the
  same type.
- `x % 2^k == 0` (and `!= 0`) is `x & (2^k - 1) == 0`; an unsigned `x % 2^k` is `x & (2^k - 1)`; under the
  guard `x & (2^k - 1) == 0` (an `if`/`if_expr` then-region), `x / 2^k` is `x >> k` (exact).
- short circuits: an i1 `if_expr` that is `c and x` / `c or x` with x a few speculatable ops (or reads of
  local variables) becomes
  `binop and`/`or` (no branch).
- control: an `if`/`if_expr` on a constant condition becomes the taken branch (in a `sarek.block` when the
  branch declares names, so scopes are kept); a `for` that runs zero times, an empty `for`, `if` or plain
  `sarek.block` is erased, a plain `sarek.block` that declares no name is inlined.
- dead code: unused pure expressions, binders (`let`), reads of memory and of variables
  (sarek.analysis.motion.removable).
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from functools import cache
from types import UnionType

from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, FloatAttr, IntegerAttr, ModuleOp, i1
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from sarek.analysis.motion import const_value, removable, speculatable, trip_count
from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import is_float, is_int, is_integer_type
from sarek.dialect.semantics import Value, fold_binop, fold_cast, fold_unop
from sarek.dialect.scalars import is_unsigned

K = s.BinOpKind


def constant(v: Value, t: Attribute) -> s.ConstantOp:
    """A `sarek.constant` of value v and type t (i1, integer or float)."""
    if t == i1:
        return s.ConstantOp(IntegerAttr(1 if v else 0, i1), i1)
    if is_integer_type(t):
        return s.ConstantOp.from_value(int(v), t)
    assert isinstance(t, Float16Type | Float32Type | Float64Type)
    return s.ConstantOp(FloatAttr(float(v), t), t)  # (from_value would turn -0.0 into 0.0)


def _is(v: Value | None, want: float) -> bool:
    """v is the number `want` (0 matches +0.0 only; -0.0 is asked for with copysign)."""
    return v is not None and not isinstance(v, bool) and v == want and math.copysign(1.0, v) == math.copysign(1.0, want)


class FoldBinOp(RewritePattern):
    """Constants fold; exact identities give an operand or a constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.BinOp, rewriter: PatternRewriter) -> None:
        a, b, t, k = const_value(op.lhs), const_value(op.rhs), op.lhs.type, op.op
        if a is not None and b is not None:
            r = fold_binop(k, a, b, t)
            if r is not None:
                rewriter.replace(op, [constant(r, op.result.type)])
            return
        x = self.identity(op, a, b, t, k)
        if isinstance(x, SSAValue):
            rewriter.replace(op, [], [x])
        elif isinstance(x, Operation):
            rewriter.replace(op, [x])

    @staticmethod
    def identity(op: s.BinOp, a: Value | None, b: Value | None, t: Attribute, k: s.BinOpKind) -> SSAValue | Operation | None:
        lhs, rhs = op.lhs, op.rhs
        if t == i1:
            c, x = (a, rhs) if a is not None else (b, lhs)
            if c is None or k not in (K.AND, K.OR):
                return None
            if (k == K.AND) == bool(c):  # x and true, x or false
                return x
            return constant(bool(c), i1)
        if is_int(t):
            if lhs is rhs and k in (K.SUB, K.BITXOR):
                return constant(0, t)
            if b == 0 and k in (K.ADD, K.SUB, K.BITOR, K.BITXOR, K.SHL, K.SHR) or b == 1 and k in (K.MUL, K.DIV):
                return lhs
            if a == 0 and k in (K.ADD, K.BITOR, K.BITXOR) or a == 1 and k == K.MUL:
                return rhs
            if b == -1 and k == K.BITAND:
                return lhs
            if a == -1 and k == K.BITAND:
                return rhs
            if (a == 0 or b == 0) and k in (K.MUL, K.BITAND) or b == 1 and k == K.REM:
                return constant(0, t)
            return None
        if is_float(t) and not isinstance(t, Float16Type):
            if k in (K.MUL, K.DIV) and _is(b, 1.0) or k == K.SUB and _is(b, 0.0) or k == K.ADD and _is(b, -0.0):
                return lhs
            if k == K.MUL and _is(a, 1.0) or k == K.ADD and _is(a, -0.0):
                return rhs
            if k == K.MUL and (_is(b, -1.0) or _is(a, -1.0)):
                return s.UnOp(s.UnOpKind.NEG, lhs if _is(b, -1.0) else rhs)
        return None


class FoldUnOp(RewritePattern):
    """neg/not/bitnot of a constant; an op undone by the same op."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.UnOp, rewriter: PatternRewriter) -> None:
        inner = op.operand.owner
        if isinstance(inner, s.UnOp) and inner.op == op.op:
            rewriter.replace(op, [], [inner.operand])
            return
        v, t = const_value(op.operand), op.operand.type
        if v is None:
            return
        r = fold_unop(op.op, v, t)
        if r is not None:
            rewriter.replace(op, [constant(r, t)])


class FoldCast(RewritePattern):
    """A cast to the operand's type is the operand; a cast of a constant between i1, i32, i64, f32 and f64."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.CastOp, rewriter: PatternRewriter) -> None:
        src, dst = op.operand.type, op.result.type
        if src == dst:
            rewriter.replace(op, [], [op.operand])
            return
        v = const_value(op.operand)
        if v is None:
            return
        r = fold_cast(v, src, dst)
        if r is not None:
            rewriter.replace(op, [constant(r, dst)])


_BINDERS = (s.LetOp, s.LetMutOp, s.AllocArrayOp)


def declares(block: Block) -> bool:
    """Does the block itself (not a nested region) bind a name?"""
    return any(isinstance(o, _BINDERS) for o in block.ops)


def _empty(r: Region) -> bool:
    return not r.blocks or r.block.first_op is None


class FoldIf(RewritePattern):
    """An `if` on a constant is its taken branch (scoped when it declares names); an empty `if` goes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.IfOp, rewriter: PatternRewriter) -> None:
        c = const_value(op.cond)
        if c is None:
            if _empty(op.then_region) and _empty(op.else_region):
                rewriter.erase(op)
            return
        taken = op.then_region if c else op.else_region
        if _empty(taken):
            rewriter.erase(op)
            return
        inline_scoped(rewriter, op, taken.block)
        rewriter.erase(op)


def inline_scoped(rewriter: PatternRewriter, op: Operation, block: Block) -> None:
    """Move `block`'s ops before `op`, inside a new `sarek.block` when they declare names."""
    if declares(block):
        scope = s.BlockOp()
        rewriter.insert(scope, InsertPoint.before(op))
        rewriter.inline_block(block, InsertPoint.at_start(scope.body.block))
    else:
        rewriter.inline_block(block, InsertPoint.before(op))


class FoldIfExpr(RewritePattern):
    """An `if_expr` on a constant is its taken branch's value (when that branch declares no name)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.IfExprOp, rewriter: PatternRewriter) -> None:
        c = const_value(op.cond)
        if c is None:
            return
        block = (op.then_region if c else op.else_region).block
        if declares(block):
            return
        y = block.last_op
        assert isinstance(y, s.YieldOp)
        v = y.value
        rewriter.erase(y)
        rewriter.inline_block(block, InsertPoint.before(op))
        rewriter.replace(op, [], [v])


class EraseDead(RewritePattern):
    """Unused removable ops; `for` loops that never run or do nothing; empty plain `sarek.block`s."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.results and removable(op) and all(not r.uses for r in op.results):
            rewriter.erase(op)
        elif isinstance(op, s.ForOp) and (_empty(op.body) or trip_count(op) == (0, False)):
            rewriter.erase(op)
        elif isinstance(op, s.BlockOp) and not op.is_superstep and _empty(op.body):
            rewriter.erase(op)
        elif isinstance(op, s.BlockOp) and not op.is_superstep and not declares(op.body.block):
            rewriter.inline_block(op.body.block, InsertPoint.before(op))  # a scope that declares nothing
            rewriter.erase(op)


#: ops a short-circuit arm may hold to be evaluated unconditionally
SHORT_CIRCUIT_MAX = 8


def _var_read(op: Operation) -> bool:
    """A read of a local variable (`load` of a `let_mut`): evaluated a little earlier, it reads the same."""
    return isinstance(op, s.LoadOp) and isinstance(op.ref.owner, s.LetMutOp)


class ShortCircuitToBool(RewritePattern):
    """`c and x` / `c or x` spelled as `if_expr` (the front end's short circuit) whose other arm is a few
    speculatable ops or reads of local variables (no memory, no fault: sarek.analysis.motion) become
    `binop and`/`or` on i1: the same value, no branch."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.IfExprOp, rewriter: PatternRewriter) -> None:
        if op.result.type != i1:
            return
        arms = [op.then_region.block, op.else_region.block]
        ys = [b.last_op for b in arms]
        assert isinstance(ys[0], s.YieldOp) and isinstance(ys[1], s.YieldOp)
        k0, k1 = const_value(ys[0].value), const_value(ys[1].value)
        if k1 is False and k0 is None:
            kind, arm, y = K.AND, arms[0], ys[0]
        elif k0 is True and k1 is None:
            kind, arm, y = K.OR, arms[1], ys[1]
        else:
            return
        body = [o for o in arm.ops if o is not y]
        if len(body) > SHORT_CIRCUIT_MAX or not all(speculatable(o) or _var_read(o) for o in body):
            return
        v = y.value
        rewriter.erase(y)
        rewriter.inline_block(arm, InsertPoint.before(op))
        rewriter.replace(op, [s.BinOp(kind, op.cond, v)])


def _pow2(v: Value | None) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 2 and v & (v - 1) == 0


class RemPow2ToMask(RewritePattern):
    """`x % 2^k` is `x & (2^k - 1)` when only its zero-ness is asked (`x % 2^k == 0`, `!= 0`: true for negative
    x too, whose C remainder is negative exactly when the mask is non-zero) and always on unsigned x. The mask
    is one instruction; a signed remainder is four (a truncating quotient, then a multiply-subtract)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.BinOp, rewriter: PatternRewriter) -> None:
        if op.op == K.REM and is_unsigned(op.lhs.type) and _pow2(b := const_value(op.rhs)):
            assert isinstance(b, int)
            mask = constant(b - 1, op.lhs.type)
            rewriter.replace(op, [mask, s.BinOp(K.BITAND, op.lhs, mask.result)])
            return
        if op.op not in (K.EQ, K.NE):
            return
        for rem, zero in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            r = rem.owner
            if const_value(zero) == 0 and isinstance(r, s.BinOp) and r.op == K.REM and is_int(r.lhs.type) \
                    and _pow2(c := const_value(r.rhs)):
                assert isinstance(c, int)
                mask = constant(c - 1, r.lhs.type)
                masked = s.BinOp(K.BITAND, r.lhs, mask.result)
                rewriter.replace(op, [mask, masked, s.BinOp(op.op, masked.result, zero)])
                return


def _mask_is_zero(cond: SSAValue, x: SSAValue, mask: int) -> bool:
    """cond is `x & mask == 0` (either operand order)."""
    c = cond.owner
    if not (isinstance(c, s.BinOp) and c.op == K.EQ):
        return False
    for m, z in ((c.lhs, c.rhs), (c.rhs, c.lhs)):
        a = m.owner
        if const_value(z) == 0 and isinstance(a, s.BinOp) and a.op == K.BITAND and \
                ((a.lhs is x and const_value(a.rhs) == mask) or (a.rhs is x and const_value(a.lhs) == mask)):
            return True
    return False


class ExactDivPow2ToShift(RewritePattern):
    """`x / 2^k` is `x >> k` where `x & (2^k - 1) == 0` guards it (the then-region of an `if`/`if_expr` on that
    condition): the division is exact, and an arithmetic shift of a multiple of 2^k is its exact quotient for
    negative x too. One instruction instead of C's three (the round-toward-zero bias); the even half of a
    Collatz step (BENCHMARKS.md `control`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.BinOp, rewriter: PatternRewriter) -> None:
        if op.op != K.DIV or not is_int(op.lhs.type) or not _pow2(c := const_value(op.rhs)):
            return
        assert isinstance(c, int)
        p: Operation = op
        while (parent := p.parent_op()) is not None:
            if isinstance(parent, s.IfOp | s.IfExprOp) and p.parent_region() is parent.regions[0] \
                    and _mask_is_zero(parent.cond, op.lhs, c - 1):
                k = constant(c.bit_length() - 1, op.lhs.type)
                rewriter.replace(op, [k, s.BinOp(K.SHR, op.lhs, k.result)])
                return
            p = parent


PATTERNS: tuple[type[RewritePattern], ...] = (EraseDead, FoldBinOp, FoldUnOp, FoldCast, FoldIf, FoldIfExpr,
                                              ShortCircuitToBool, RemPow2ToMask, ExactDivPow2ToShift)


@cache
def _matched_type(pattern: type[RewritePattern]) -> type[Operation] | UnionType:
    """The op type(s) `pattern` matches: what xDSL's `op_type_rewrite_pattern` checks (the `expected_type` its
    wrapper closes over), else `Operation` (every op: a pattern without the decorator sees every op)."""
    t = inspect.getclosurevars(pattern.match_and_rewrite).nonlocals.get("expected_type", Operation)
    return t if isinstance(t, type | UnionType) else Operation


@dataclass(eq=False, repr=False)
class TypeDispatchApplier(GreedyRewritePatternApplier):
    """GreedyRewritePatternApplier that tries on an op only the patterns annotated for its type (in PATTERNS'
    order): the same rewrites, without each pattern's type check on every op of every walk (the checks were a
    third of sarek-canonicalize's time, which runs three times per pipeline: benchmarks/bench_warp.py)."""

    by_type: dict[type[Operation], list[RewritePattern]] = field(default_factory=dict[type[Operation],
                                                                                      list[RewritePattern]])

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if is_trivially_dead(op):
            rewriter.erase(op)
            return
        patterns = self.by_type.get(type(op))
        if patterns is None:
            patterns = self.by_type[type(op)] = [p for p in self.rewrite_patterns
                                                 if isinstance(op, _matched_type(type(p)))]
        for pattern in patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


@cache
def _applier() -> TypeDispatchApplier:
    """One applier for every run (the patterns hold no state), so its per-type pattern lists are built once."""
    return TypeDispatchApplier([p() for p in PATTERNS])


def canonicalize(module: ModuleOp) -> bool:
    """Apply every pattern to a fixpoint; True when something changed."""
    walker = PatternRewriteWalker(_applier(), apply_recursively=True, walk_reverse=True)
    return walker.rewrite_module(module)


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Fold constants, apply exact algebraic identities, drop dead code and branches never taken (sarek dialect).

    No options. Results are the interpreter's bit for bit: integer folding wraps like the interpreter, float
    identities are only those exact for every input (`x*1.0`, `x-0.0`, never `x+0.0`), nothing that could
    fault or overflow to inf/NaN is folded. Runs first in every target's pipeline (sarek-pipeline{opt=on}).
    """

    name = "sarek-canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        canonicalize(op)
