"""Binder names: every name a kernel or helper declares, and how to rename one in place."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue

from sarek.dialect.sarek import AllocArrayOp, ForOp, HelperOp, KernelOp, LetMutOp, LetOp, MatchExprOp, MatchOp

NamedBinder = LetOp | LetMutOp | AllocArrayOp | ForOp


def binder_value(op: NamedBinder) -> SSAValue:
    """The SSA value a let / let_mut / alloc_array / for binder names."""
    return op.index if isinstance(op, ForOp) else op.result


def set_hint(v: SSAValue, name: str) -> None:
    """Mirror a binder's name as the SSA name hint where it is a valid one: xDSL keeps a hint without its
    `_<digits>` suffix, so `_0` (nothing left) gets none."""
    v.name_hint = name if name.isidentifier() and SSAValue.extract_valid_name(name) else None


def rename_binder(op: NamedBinder, name: str) -> None:
    op.sym = StringAttr(name)
    set_hint(binder_value(op), name)


def rename_param(f: KernelOp | HelperOp, index: int, name: str) -> None:
    names = [n.data for n in f.param_names]
    names[index] = name
    f.param_names = ArrayAttr(StringAttr(n) for n in names)
    set_hint(f.body.block.args[index], name)


def rename_match_binder(m: MatchOp | MatchExprOp, case: int, index: int, name: str) -> None:
    binders = [[b.data for b in bs] for bs in m.binders]
    binders[case][index] = name
    m.binders = ArrayAttr(ArrayAttr(StringAttr(b) for b in bs) for bs in binders)
    set_hint(m.case_regions[case].block.args[index], name)


def op_binder_names(op: Operation) -> Iterator[str]:
    """Names `op` itself declares (not those of nested ops)."""
    if isinstance(op, LetOp | LetMutOp | AllocArrayOp | ForOp):
        yield op.sym.data
    elif isinstance(op, MatchOp | MatchExprOp):
        for bs in op.binders:
            yield from (b.data for b in bs)
    elif isinstance(op, KernelOp | HelperOp):
        yield op.sym_name.data
        yield from (n.data for n in op.param_names)


def all_binder_names(module: ModuleOp) -> set[str]:
    """Every binder name of the module's kernels and helpers (their own names included)."""
    return {n for op in module.walk() for n in op_binder_names(op)}
