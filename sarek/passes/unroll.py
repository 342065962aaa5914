"""sarek-unroll{max-trip=N max-ops=M}: full unrolling of `sarek.for` loops of a small constant trip count.

A loop is unrolled when sarek.analysis.motion.trip_count knows its trip count n (constant bounds, or
`hi = lo + c`) and n <= max-trip and n * (ops in its body) <= max-ops. Inside `sarek.pragma ["unroll"]` the
loop is unrolled whenever its trip count is known and n * body ops <= max-ops (the hint asks for it; the
pragma stays, the C family prints `#pragma unroll` only before a loop); `pragma ["unroll 1"]` or
`["nounroll"]` keeps it rolled; `["unroll K"]` unrolls when n <= K.

Iteration k becomes a `sarek.block` (its own scope, so the body's names stay legal) that starts with
`let "<index>" = <lo + k*step>` and holds a copy of the body; for `hi = lo + c` the blocks sit in
`sarek.if lo < hi` (no iteration when `lo + c` wrapped, as the loop would do). Loops whose body declares a
shared or local array, or holds a `break`/`continue`, are left alone. Inner loops are unrolled first.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from sarek.analysis.motion import const_value, trip_count
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.passes.canonicalize import constant

#: op names a body must not hold (they would leave the copy, not the loop)
_EXITS = ("break", "continue")


def pragma_limit(loop: s.ForOp) -> int | None:
    """The trip-count limit an enclosing `pragma` sets: None (no pragma), 0 (never), a count, or -1 (any)."""
    p = loop.parent_op()
    if not isinstance(p, s.PragmaOp):
        return None
    for h in p.hints:
        words = h.data.split()
        if words == ["nounroll"] or words == ["unroll", "1"]:
            return 0
        if words == ["unroll"]:
            return -1
        if len(words) == 2 and words[0] == "unroll" and words[1].isdigit():
            return int(words[1])
    return None


def _body_size(loop: s.ForOp) -> int:
    return sum(1 for _ in loop.body.walk())


def unrollable(loop: s.ForOp, max_trip: int, max_ops: int) -> int | None:
    """The trip count when the loop is to be unrolled, else None."""
    tc = trip_count(loop)
    if tc is None:
        return None
    n = tc[0]
    limit = pragma_limit(loop)
    cap = max_trip if limit is None else (n if limit == -1 else limit)
    if n > cap or n * _body_size(loop) > max_ops:
        return None
    for o in loop.body.walk():
        if isinstance(o, s.AllocArrayOp) or any(x in o.name for x in _EXITS):
            return None
    return n


def unroll(loop: s.ForOp, n: int) -> None:
    """Replace the loop by n scoped copies of its body."""
    parent = loop.parent_block()
    assert parent is not None
    t, step, name = loop.lo.type, loop.step_value, loop.sym.data
    assert isinstance(step, int), "trip_count knows no loop of a run-time step"
    guarded = bool(trip_count(loop) == (n, True))
    where: Block = parent
    anchor: Operation | None = loop
    if guarded and n:
        cond = s.BinOp(s.BinOpKind.LT, loop.lo, loop.hi)
        guard = s.IfOp(cond.result, Region(Block()), Region())
        assert cond.result.type == i1
        parent.insert_ops_before([cond, guard], loop)
        where, anchor = guard.then_region.block, None
    for k in range(n):
        scope = s.BlockOp()
        ops: list[Operation] = []
        idx: SSAValue
        lo_c = trip_lo_constant(loop)
        if lo_c is not None:
            c = constant(lo_c + k * step, t)
            ops.append(c)
            idx = c.result
        else:
            off = constant(k * step, t)
            add = s.BinOp(s.BinOpKind.ADD, loop.lo, off.result)
            ops += [off, add]
            idx = add.result
        let = s.LetOp(name, idx)
        ops.append(let)
        mapping: dict[SSAValue, SSAValue] = {loop.index: let.result}
        for o in loop.body.block.ops:
            ops.append(o.clone(mapping))
        scope.body.block.add_ops(ops)
        if anchor is None:
            where.add_op(scope)
        else:
            where.insert_op_before(scope, anchor)
    Rewriter.erase_op(loop)


def trip_lo_constant(loop: s.ForOp) -> int | None:
    v = const_value(loop.lo)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def unroll_module(module: ModuleOp, max_trip: int, max_ops: int) -> int:
    """Unroll every eligible loop, innermost first; returns how many were unrolled."""
    count = 0
    for loop in [o for o in module.walk(region_first=True) if isinstance(o, s.ForOp)]:
        n = unrollable(loop, max_trip, max_ops)
        if n is not None:
            unroll(loop, n)
            count += 1
    return count


@dataclass(frozen=True)
class UnrollPass(ModulePass):
    """Fully unroll for loops with a small known trip count (and those under pragma unroll) into scoped copies.

    Options: `max-trip` (default 8: the most iterations unrolled without a pragma), `max-ops` (default 512: the
    most ops the copies may hold in all, pragma or not). A `pragma ["unroll"]` lifts max-trip, `["unroll K"]`
    sets it to K, `["unroll 1"]`/`["nounroll"]` to 0.
    """

    name = "sarek-unroll"

    max_trip: int = 8
    max_ops: int = 512

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_trip < 0 or self.max_ops < 0:
            raise SarekError(f"sarek-unroll: max-trip and max-ops must be >= 0, got {self.max_trip} and {self.max_ops}")
        unroll_module(op, self.max_trip, self.max_ops)
