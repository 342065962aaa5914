"""sarek-cse: common subexpression elimination over the sarek dialect's structured regions.

An op that `sarek.analysis.motion.mergeable` allows (pure expressions and intrinsics: arithmetic, casts,
constants, thread and block ids, math) is replaced by an earlier op with the same name, operands, properties,
attributes and result type when that one dominates it: it stands earlier in the same block or in an enclosing
region (scopes nest like the regions: a value computed inside an `if` is not reused after it). Kernels and
helpers are separate scopes. Memory and variable reads are never merged (a store may lie between them).
"""

from __future__ import annotations

from collections import ChainMap
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from sarek.analysis.motion import mergeable
from sarek.dialect import sarek as s

Key = tuple[str, tuple[SSAValue, ...], tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...],
            tuple[Attribute, ...]]


def key(op: Operation) -> Key:
    """What makes two mergeable ops compute the same value."""
    return (op.name, tuple(op.operands), tuple(sorted(op.properties.items())), tuple(sorted(op.attributes.items())),
            tuple(r.type for r in op.results))


def cse_block(block: Block, seen: ChainMap[Key, Operation]) -> int:
    """Merge in `block` and its nested regions; returns how many ops were erased."""
    erased = 0
    for op in list(block.ops):
        for r in op.regions:
            for b in r.blocks:
                erased += cse_block(b, seen.new_child())
        if not mergeable(op):
            continue
        k = key(op)
        prev = seen.get(k)
        if prev is None:
            seen[k] = op
            continue
        for old, new in zip(op.results, prev.results):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(op)
        erased += 1
    return erased


def cse(module: ModuleOp) -> int:
    """CSE every kernel and helper; returns how many ops were erased."""
    return sum(cse_block(f.body.block, ChainMap()) for f in module.ops if isinstance(f, s.KernelOp | s.HelperOp))


@dataclass(frozen=True)
class CsePass(ModulePass):
    """Merge identical pure expressions (ids, arithmetic, constants, math) where an earlier one dominates.

    No options. Scopes follow the structured regions (sarek.analysis.motion.mergeable says which ops); memory
    and variable reads are not merged.
    """

    name = "sarek-cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        cse(op)
