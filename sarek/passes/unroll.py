"""sarek-unroll{max-trip=16 max-ops=512}: full unrolling of `sarek.for` loops of a small constant trip count.

A loop is unrolled when sarek.analysis.motion.trip_count knows its trip count n (constant bounds, or
`hi = lo + c`) and n <= max-trip and n * (ops in its body) <= max-ops. Inside `sarek.pragma ["unroll"]` the
loop is unrolled whenever its trip count is known and n * body ops <= max-ops (the hint asks for it; the
pragma stays, the C family prints `#pragma unroll` only before a loop); `pragma ["unroll 1"]` or
`["nounroll"]` keeps it rolled; `["unroll K"]` unrolls when n <= K.

A `while` whose condition reads only local variables that start as constants and that its body sets once at
its end from constants and themselves (`s = 128; while s > 0: ...; s = s // 2`, the reduction tree) is
simulated with the interpreter's arithmetic and unrolled the same way when it runs at most max-trip times:
each copy reads the variables' values of its iteration as constants (the updates stay).

Iteration k becomes a `sarek.block` (its own scope, so the body's names stay legal) that starts with
`let "<index>" = <lo + k*step>` and holds a copy of the body; for `hi = lo + c` the blocks sit in
`sarek.if lo < hi` (no iteration when `lo + c` wrapped, as the loop would do). Loops whose body declares a
shared or local array, or holds a `break`/`continue`, are left alone. Inner loops are unrolled first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from sarek.analysis.motion import const_value, speculatable, trip_count
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect.semantics import Value, fold_binop
from sarek.passes.canonicalize import constant

#: op names a body must not hold (they would leave the copy, not the loop)
_EXITS = ("break", "continue")


def pragma_limit(loop: s.ForOp | s.WhileOp) -> int | None:
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


def _body_size(loop: s.ForOp | s.WhileOp) -> int:
    return sum(1 for _ in loop.body.walk())


def _cap(loop: s.ForOp | s.WhileOp, max_trip: int) -> int:
    """The most iterations unrolled: max-trip, or what an enclosing pragma says (-1: no limit)."""
    limit = pragma_limit(loop)
    return max_trip if limit is None else limit


def _exits_or_arrays(loop: s.ForOp | s.WhileOp) -> bool:
    return any(isinstance(o, s.AllocArrayOp) or any(x in o.name for x in _EXITS) for o in loop.body.walk())


def unrollable(loop: s.ForOp, max_trip: int, max_ops: int) -> int | None:
    """The trip count when the loop is to be unrolled, else None."""
    tc = trip_count(loop)
    if tc is None:
        return None
    n = tc[0]
    cap = _cap(loop, max_trip)
    if (cap != -1 and n > cap) or n * _body_size(loop) > max_ops or _exits_or_arrays(loop):
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


def _evaluate(v: SSAValue, env: dict[SSAValue, Value]) -> Value | None:
    """v's value when the variables of `env` (let_mut results) hold those values; None if it depends on more."""
    op = v.owner
    if isinstance(op, s.LoadOp) and op.ref in env:
        return env[op.ref]
    c = const_value(v)
    if c is not None:
        return c
    if isinstance(op, s.LetOp):
        return _evaluate(op.value, env)
    if isinstance(op, s.BinOp):
        a, b = _evaluate(op.lhs, env), _evaluate(op.rhs, env)
        return None if a is None or b is None else fold_binop(op.op, a, b, op.lhs.type)
    if isinstance(op, s.UnOp) and op.op == s.UnOpKind.NOT:
        a = _evaluate(op.operand, env)
        return None if a is None else not a
    return None


def _top(op: Operation, block: Block) -> Operation | None:
    """The op of `block` that holds `op` (itself or an ancestor)."""
    p: Operation | None = op
    while p is not None and p.parent_block() is not block:
        p = p.parent_op()
    return p


def counted_while(loop: s.WhileOp, max_trip: int, max_ops: int) -> list[dict[SSAValue, Value]] | None:
    """The variables' values at the start of each iteration of a `while` whose condition reads only local
    variables that start as constants and that the body sets once, at its end level, from constants and
    themselves (`s = 128; while s > 0: ...; s = s // 2`); None when that is not so or there are too many."""
    body = loop.body.block
    y = loop.cond_region.block.last_op
    if not isinstance(y, s.YieldOp) or _exits_or_arrays(loop):
        return None
    refs: list[SSAValue] = []
    for o in loop.cond_region.block.ops:
        if isinstance(o, s.LoadOp) and isinstance(o.ref.owner, s.LetMutOp):
            refs += [o.ref] if o.ref not in refs else []
        elif not (o is y or speculatable(o)):
            return None
    stores: dict[SSAValue, s.StoreOp] = {}
    env: dict[SSAValue, Value] = {}
    for ref in refs:
        lm = ref.owner
        init = const_value(lm.operands[0]) if isinstance(lm, s.LetMutOp) else None
        if init is None or lm.parent_block() is not loop.parent_block():
            return None
        env[ref] = init
        for use in ref.uses:
            u = use.operation
            if isinstance(u, s.StoreOp) and u.parent_block() is body and ref not in stores and use.index == 0:
                stores[ref] = u
            elif not isinstance(u, s.LoadOp):
                return None  # another store, a place taken of it
        if ref not in stores:
            return None
        at = list(body.ops).index(stores[ref])
        for use in ref.uses:  # every read in the body comes before the update
            top = _top(use.operation, body)
            if top is not None and top is not stores[ref] and list(body.ops).index(top) > at:
                return None
    cap, size = _cap(loop, max_trip), _body_size(loop)
    trips: list[dict[SSAValue, Value]] = []
    while True:
        c = _evaluate(y.value, env)
        if c is None:
            return None
        if not c:
            return trips
        trips.append(env)
        if (cap != -1 and len(trips) > cap) or len(trips) * size > max_ops:
            return None
        new = {ref: _evaluate(st.value, env) for ref, st in stores.items()}
        if any(v is None for v in new.values()):
            return None
        env = cast("dict[SSAValue, Value]", new)


def unroll_while(loop: s.WhileOp, trips: list[dict[SSAValue, Value]]) -> None:
    """One scoped copy of the body per iteration, the variables' reads replaced by their values."""
    parent = loop.parent_block()
    assert parent is not None
    for env in trips:
        scope = s.BlockOp()
        consts = {ref: constant(v, cast(s.RefType, ref.type).element_type) for ref, v in env.items()}
        mapping: dict[SSAValue, SSAValue] = {}
        scope.body.block.add_ops([*consts.values(), *(o.clone(mapping) for o in loop.body.block.ops)])
        for o in list(scope.walk()):
            if isinstance(o, s.LoadOp) and o.ref in consts:  # (the copies read before the update)
                o.results[0].replace_all_uses_with(consts[o.ref].result)
                Rewriter.erase_op(o)
        parent.insert_op_before(scope, loop)
    Rewriter.erase_op(loop)


def hint_unroll(loop: s.ForOp) -> None:
    """Put `loop` under `sarek.pragma ["unroll"]` (the C family prints `#pragma unroll` before it) unless a
    pragma already holds it: the target's compiler unrolls it, the IR stays one copy."""
    if isinstance(loop.parent_op(), s.PragmaOp):
        return
    parent = loop.parent_block()
    assert parent is not None
    pragma = s.PragmaOp(["unroll"])
    parent.insert_op_before(pragma, loop)
    loop.detach()
    pragma.body.block.add_op(loop)


def unroll_module(module: ModuleOp, max_trip: int, max_ops: int, mode: str = "ir") -> int:
    """Unroll every eligible loop, innermost first (`mode=hint`: mark eligible `for` loops `#pragma unroll`
    instead); returns how many were unrolled or marked."""
    count = 0
    for loop in [o for o in module.walk(region_first=True) if isinstance(o, s.ForOp | s.WhileOp)]:
        if isinstance(loop, s.WhileOp):
            trips = counted_while(loop, max_trip, max_ops)
            if trips is not None:
                unroll_while(loop, trips)
                count += 1
            continue
        n = unrollable(loop, max_trip, max_ops)
        if n is not None:
            if mode == "hint":
                hint_unroll(loop)
            else:
                unroll(loop, n)
            count += 1
    return count


@dataclass(frozen=True)
class UnrollPass(ModulePass):
    """Fully unroll for loops with a small known trip count (and those under pragma unroll) into scoped copies.

    Options: `max-trip` (default 16: the most iterations unrolled without a pragma; a 16x16 tile's inner loop), `max-ops` (default 512: the
    most ops the copies may hold in all, pragma or not). A `pragma ["unroll"]` lifts max-trip, `["unroll K"]`
    sets it to K, `["unroll 1"]`/`["nounroll"]` to 0. `mode` (default `ir`): `hint` leaves each eligible `for`
    loop rolled and puts it under `pragma ["unroll"]` (printed `#pragma unroll`), for targets whose own compiler
    unrolls (the C family: NVRTC, clang, the OpenCL and Metal compilers): copying the body sixteenfold made every
    later pass and the lowering run over sixteen copies. Counted `while` loops (reduction trees) are still
    unrolled in the IR in both modes: their copies read the variables as constants, which the C compilers do
    not find on their own.
    """

    name = "sarek-unroll"

    max_trip: int = 16
    max_ops: int = 512
    mode: str = "ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_trip < 0 or self.max_ops < 0:
            raise SarekError(f"sarek-unroll: max-trip and max-ops must be >= 0, got {self.max_trip} and {self.max_ops}")
        if self.mode not in ("ir", "hint"):
            raise SarekError(f"sarek-unroll: mode must be ir or hint, not '{self.mode}'")
        unroll_module(op, self.max_trip, self.max_ops, self.mode)
