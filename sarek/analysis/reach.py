"""Whether a kernel, or a helper it calls (transitively), holds an op of given kinds: what the runtime's launch
spec (cooperative matrices, grid barriers) and the PTX lowering (the grid barrier's hidden counter) ask."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation


def reaches(module: ModuleOp, kernel: Operation, kinds: tuple[type[Operation], ...],
            test: Callable[[Operation], bool] | None = None) -> bool:
    """Whether `kernel` or a helper it reaches holds an op of one of `kinds` (for which `test` holds, if given)."""
    from sarek.dialect.sarek import CallOp, HelperOp

    helpers = {h.sym_name.data: h for h in module.ops if isinstance(h, HelperOp)}
    todo, seen = [kernel], set[str]()
    while todo:
        for op in todo.pop().walk():
            if isinstance(op, kinds) and (test is None or test(op)):
                return True
            if isinstance(op, CallOp) and op.callee_name in helpers and op.callee_name not in seen:
                seen.add(op.callee_name)
                todo.append(helpers[op.callee_name])
    return False
