"""Which vector parameters a kernel may write, decided from the IR (never guessed).

A vector parameter is written when some op reachable from the kernel
- stores to a place rooted at it (`sarek.store` through `sarek.elem_ref` / `sarek.field_ref` chains),
- applies an atomic intrinsic to it,
- stores a cooperative-matrix fragment into it,
- passes it to a helper that writes the corresponding parameter (transitively, recursion included),
- or sits in a function containing `sarek.native` text (opaque code: every vector is assumed written).

The runtime copies back exactly these vectors after a launch.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, SSAValue

from sarek.dialect.sarek import (
    CallOp,
    CoopmatStoreOp,
    ElemRefOp,
    FieldRefOp,
    HelperOp,
    KernelOp,
    NativeOp,
    StoreOp,
    VecType,
    has_atomic,
)


def _root(v: SSAValue) -> SSAValue | None:
    """The vector a place or vector value is rooted at (follows elem_ref/field_ref)."""
    while True:
        owner = v.owner
        if isinstance(owner, FieldRefOp):
            v = owner.base
        elif isinstance(owner, ElemRefOp):
            v = owner.array
        else:
            break
    return v if isinstance(v.type, VecType) else None


def _function_index(f: KernelOp | HelperOp, v: SSAValue | None) -> int | None:
    if isinstance(v, BlockArgument) and v.owner is f.body.block:
        return v.index
    return None


def _direct_and_calls(f: KernelOp | HelperOp) -> tuple[set[int], bool, list[tuple[str, list[int | None]]]]:
    """(params written directly, opaque native code, calls: (helper, arg -> caller param index))."""
    written: set[int] = set()
    native = False
    calls: list[tuple[str, list[int | None]]] = []
    for op in f.walk():
        if op is f:
            continue
        target: SSAValue | None = None
        if isinstance(op, StoreOp):
            target = op.place
        elif has_atomic(op) and op.operands:
            target = op.operands[0]
        elif isinstance(op, CoopmatStoreOp):
            target = op.array
        elif isinstance(op, NativeOp):
            native = True
        elif isinstance(op, CallOp):
            calls.append((op.callee_name, [_function_index(f, _root(a)) if isinstance(a.type, VecType) else None
                                           for a in op.args]))
        if target is not None:
            i = _function_index(f, _root(target))
            if i is not None:
                written.add(i)
    return written, native, calls


def written_params(module: ModuleOp, kernel: str) -> set[int]:
    """Indices of the kernel's parameters (vectors) that the kernel may write."""
    funcs: dict[str, KernelOp | HelperOp] = {}
    for op in module.ops:
        if isinstance(op, HelperOp | KernelOp):
            funcs[op.sym_name.data] = op
    k = funcs.get(kernel)
    if not isinstance(k, KernelOp):
        raise KeyError(kernel)
    info = {name: _direct_and_calls(f) for name, f in funcs.items()}
    writes: dict[str, set[int]] = {}
    for name, f in funcs.items():
        direct, native, _ = info[name]
        if native:
            direct = direct | {i for i, a in enumerate(f.body.block.args) if isinstance(a.type, VecType)}
        writes[name] = set(direct)
    changed = True
    while changed:
        changed = False
        for name, (_, _, calls) in info.items():
            for callee, mapping in calls:
                for j in writes.get(callee, ()):
                    if j < len(mapping) and (m := mapping[j]) is not None and m not in writes[name]:
                        writes[name].add(m)
                        changed = True
    return writes[kernel]


def _thread_id_value(v: SSAValue) -> bool:
    """`v` is the 1-D global thread id (`global_thread_id` / `global_idx_x`, through `sarek.let`s)."""
    from sarek.dialect.sarek import IntrinsicOp, LetOp

    while isinstance(v.owner, LetOp):
        v = v.owner.value
    return isinstance(v.owner, IntrinsicOp) and v.owner.callee.data in ("global_thread_id", "global_idx_x")


def _same(v: SSAValue, w: SSAValue) -> bool:
    from sarek.dialect.sarek import LetOp

    def base(x: SSAValue) -> SSAValue:
        while isinstance(x.owner, LetOp):
            x = x.owner.value
        return x

    return base(v) is base(w)


def guarded_indexing(module: ModuleOp, kernel: str) -> list[tuple[int, int]]:
    """(vector parameter, scalar parameter) pairs where the kernel indexes the vector with the global thread id
    inside `if global_thread_id < n:` (n a scalar parameter): the launch must then have n <= len(vector) or no
    more threads than the vector's length, else the kernel reads or writes past its end (which crashes pocl's
    process). The runtime checks these at launch; other out-of-range indexing is not detected before debug
    mode exists."""
    from sarek.dialect.sarek import ArrayReadOp, BinOp, BinOpKind, IfOp

    k = next((op for op in module.ops if isinstance(op, KernelOp) and op.sym_name.data == kernel), None)
    if k is None:
        return []
    args = list(k.body.block.args)
    found: set[tuple[int, int]] = set()

    def conjuncts(v: SSAValue) -> list[BinOp]:
        o = v.owner
        if isinstance(o, BinOp) and o.kind.data == BinOpKind.AND:
            return conjuncts(o.lhs) + conjuncts(o.rhs)
        return [o] if isinstance(o, BinOp) else []

    for op in k.walk():
        if not isinstance(op, IfOp):
            continue
        for c in conjuncts(op.cond):
            if c.kind.data == BinOpKind.LT:
                tid, bound = c.lhs, c.rhs
            elif c.kind.data == BinOpKind.GT:
                tid, bound = c.rhs, c.lhs
            else:
                continue
            if not (_thread_id_value(tid) and isinstance(bound, BlockArgument) and bound.owner is k.body.block):
                continue
            for inner in op.then_region.walk():
                if isinstance(inner, ArrayReadOp | ElemRefOp) and len(inner.indices) == 1 and _same(inner.index, tid):
                    v = inner.array
                    if isinstance(v, BlockArgument) and v.owner is k.body.block and isinstance(v.type, VecType):
                        found.add((args.index(v), bound.index))
    return sorted(found)
