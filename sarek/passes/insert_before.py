"""`InsertBefore`: the sarek ops a rewriting pass builds in front of the op it rewrites (constants, binary ops),
and its located errors; shared by sarek-widen-f16 and sarek-pack-narrow (not a pass)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.registry import target_info


class InsertBefore:
    """Builds ops before an op through one `Rewriter`; errors name the target."""

    def __init__(self, target: str):
        self.rw = Rewriter()
        self.display = target_info(target).display

    def err(self, msg: str, op: Operation) -> SarekError:
        return SarekError(msg, op, self.display)

    def before(self, op: Operation, new: Operation) -> SSAValue:
        """`new` inserted before `op`; its result."""
        self.rw.insert_op(new, InsertPoint.before(op))
        return new.results[0]

    def c(self, op: Operation, v: int) -> SSAValue:
        """The i32 constant `v`."""
        return self.before(op, s.ConstantOp(IntegerAttr(v, i32), i32))

    def bin(self, op: Operation, kind: str, a: SSAValue, b: SSAValue | int) -> SSAValue:
        """`a <kind> b` (an int `b` is an i32 constant)."""
        return self.before(op, s.BinOp(kind, a, self.c(op, b) if isinstance(b, int) else b))
