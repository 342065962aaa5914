"""example-replace-constant{old=41 new=42}: every integer `sarek.constant old` becomes `new` (same type).

A toy with an effect one can see in the IR, in every target's source and in a launch's results; the shape is
the one of any sarek pass: a frozen dataclass ModulePass with documented options, a RewritePattern on sarek ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (PatternRewriter, PatternRewriteWalker, RewritePattern,
                                   op_type_rewrite_pattern)

from sarek.dialect import sarek as s


@dataclass
class _Replace(RewritePattern):
    old: int
    new: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: s.ConstantOp, rewriter: PatternRewriter) -> None:
        v = op.value
        if isinstance(v, IntegerAttr) and v.value.data == self.old:
            rewriter.replace(op, [s.ConstantOp(IntegerAttr(self.new, v.type), op.result.type)])


@dataclass(frozen=True)
class ReplaceConstantPass(ModulePass):
    """Replace every integer constant `old` by `new` (options `old`, default 41, and `new`, default 42)."""

    name = "example-replace-constant"

    old: int = 41
    new: int = 42

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_Replace(self.old, self.new), apply_recursively=False).rewrite_module(op)
