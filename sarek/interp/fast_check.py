"""The fast executor, static check: why a kernel cannot be vectorized (native ops, cooperative matrices,
recursion, records nested too deep), cached per module."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp

from sarek.dialect import sarek as S
from sarek.interp import common as C


def unsupported_reason(module: ModuleOp, kernel: str) -> str | None:
    """Why the fast executor cannot run `kernel` (None when it can)."""
    cache = C.cached(module, "fast-reasons", dict[str, str | None])
    if kernel not in cache:
        cache[kernel] = _reason(module, kernel)
    return cache[kernel]


def _reason(module: ModuleOp, kernel: str) -> str | None:
    funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, S.KernelOp | S.HelperOp)}
    if kernel not in funcs:
        return None  # the reference executor reports the missing kernel
    seen: set[str] = set()
    stack = [kernel]
    path: list[str] = []
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        f = funcs.get(n)
        if f is None:
            return None
        for op in f.walk():
            if isinstance(op, S.NativeOp):
                return "sarek.native"
            for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]:
                if _has_aggregate(v.type) and _depth(module, v.type) > C.DETACH_MAX_DEPTH:
                    return (f"records nested deeper than {C.DETACH_MAX_DEPTH} levels (the reference executor "
                            "refuses to copy them)")
            if isinstance(op, S.CallOp):
                stack.append(op.callee_name)
        path.append(n)
    # recursion: a helper reachable from itself
    calls = {n: {o.callee_name for o in funcs[n].walk() if isinstance(o, S.CallOp)} for n in seen if n in funcs}
    state: dict[str, int] = {}

    def cyclic(n: str) -> bool:
        state[n] = 1
        for c in calls.get(n, ()):
            if state.get(c) == 1 or (state.get(c) is None and cyclic(c)):
                return True
        state[n] = 2
        return False

    if cyclic(kernel):
        return "recursive helpers"
    return None


def _depth(module: ModuleOp, t: Any) -> int:
    """Levels of values in a value of type t (a scalar is 0 deep, a record of scalars 1)."""
    while isinstance(t, S.VecType | S.ArrayType | S.RefType):
        t = t.element_type
    ts = module_types(module)
    if isinstance(t, S.RecordType):
        return 1 + max((_depth(module, f) for f in ts.rec(t).types), default=0)
    if isinstance(t, S.VariantType):
        return 1 + max((_depth(module, x) for ps in ts.var(t).payloads for x in ps), default=0)
    return 0


def module_types(module: ModuleOp) -> C.Types:
    return C.cached(module, "types", lambda: C.Types.of(module))


def _has_aggregate(t: Any) -> bool:
    while isinstance(t, S.VecType | S.ArrayType | S.RefType):
        t = t.element_type
    return isinstance(t, S.RecordType | S.VariantType)
