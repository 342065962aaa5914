"""sarek-licm: loop-invariant code motion out of `sarek.for` and `sarek.while`.

Inner loops first, then outer ones, so an invariant rises as far as it can. An op leaves a loop (it is placed
just before the loop) when
- it is `speculatable` (sarek.analysis.motion: pure, no fault whatever its operands, so it may run even when
  the loop body would not: integer `div`/`rem` move only by a non-zero constant), or it is a `load` of a
  variable that the loop never writes (every use of the `let_mut` inside the loop is a `load`); and
- every operand is defined outside the loop. A `sarek.let` inside the loop of an outside value is looked
  through: the moved op reads the value itself (the `let` stays, so names and scopes are unchanged).
Memory reads, atomics, calls, barriers and anything with regions stay (sarek.analysis.effects decides what
writes); binders never move, so no name changes scope.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.motion import speculatable
from sarek.dialect import sarek as s

Loop = s.ForOp | s.WhileOp


def _inside(v: SSAValue, loop: Operation) -> bool:
    """Is v defined in loop's regions?"""
    owner = v.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def _unwritten_var(op: Operation, loop: Operation) -> bool:
    """A load of a let_mut defined outside `loop` that nothing in `loop` stores to or takes a place of."""
    if not isinstance(op, s.LoadOp) or not isinstance(op.ref.owner, s.LetMutOp) or _inside(op.ref, loop):
        return False
    return all(isinstance(u.operation, s.LoadOp) for u in op.ref.uses if _inside_op(u.operation, loop))


def _inside_op(op: Operation, loop: Operation) -> bool:
    p: Operation | None = op
    while p is not None:
        if p is loop:
            return True
        p = p.parent_op()
    return False


def _outside(v: SSAValue, loop: Operation) -> SSAValue | None:
    """v itself when defined outside the loop; the outside value a chain of inside `let`s names; else None."""
    while _inside(v, loop):
        if not isinstance(v.owner, s.LetOp):
            return None
        v = v.owner.value
    return v


def hoist(loop: Loop) -> int:
    """Move the loop's invariant ops before it; returns how many moved."""
    moved = 0
    for op in list(loop.walk()):
        if op is loop or op.parent is None or not (speculatable(op) or _unwritten_var(op, loop)):
            continue
        outs = [_outside(v, loop) for v in op.operands]
        if any(v is None for v in outs):
            continue
        for i, v in enumerate(outs):
            assert v is not None
            if v is not op.operands[i]:
                op.operands[i] = v
        op.detach()
        block = loop.parent_block()
        assert block is not None
        block.insert_op_before(op, loop)
        moved += 1
    return moved


def licm(module: ModuleOp) -> int:
    """Hoist out of every loop of every kernel and helper, innermost first; returns how many ops moved."""
    loops = [o for o in module.walk(region_first=True) if isinstance(o, s.ForOp | s.WhileOp)]
    return sum(hoist(lp) for lp in loops)


@dataclass(frozen=True)
class LicmPass(ModulePass):
    """Hoist loop-invariant pure expressions and reads of unwritten variables out of for/while loops.

    No options. Only ops that cannot fault move (sarek.analysis.motion.speculatable), innermost loops first;
    memory reads, atomics, calls and barriers stay where they are.
    """

    name = "sarek-licm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        licm(op)
