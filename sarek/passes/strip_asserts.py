"""sarek-strip-asserts: remove `sarek.assert` (release builds: an assert costs nothing).

An assert's check happens only in debug mode, whose pipeline turns each `sarek.assert` into a check instead
of running this pass. Every release pipeline runs it right after the feature gate, so no lowering sees an assert. The values only
the assert used (its condition's comparison, constants, loads, reads) are removed with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.effects import is_pure_intrinsic
from sarek.dialect import sarek as s

#: value ops with no effect: dead once the assert that used them is gone
_PURE = (s.ConstantOp, s.BinOp, s.UnOp, s.CastOp, s.BitcastOp, s.LoadOp, s.ArrayReadOp, s.ArrayLenOp, s.FieldOp,
         s.PayloadOp)


def strip_asserts(module: ModuleOp) -> None:
    """Erase every assert and the pure values that only it used."""
    asserts = [op for op in module.walk() if isinstance(op, s.AssertOp)]
    for a in asserts:
        dead: list[SSAValue] = list(a.operands)
        a.detach()
        a.erase()
        while dead:
            v = dead.pop()
            op = v.owner
            if not isinstance(op, Operation) or op.parent is None or any(True for _ in op.results[0].uses):
                continue
            if isinstance(op, _PURE) or is_pure_intrinsic(op):
                dead.extend(op.operands)
                op.detach()
                op.erase()


@dataclass(frozen=True)
class StripAssertsPass(ModulePass):
    """Remove sarek.assert and the values only it used (release builds; debug mode checks asserts instead)."""

    name = "sarek-strip-asserts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        strip_asserts(op)
