"""Statically visible barrier divergence: a `barrier()` (or warp barrier / warp shuffle, or a call to a helper
containing one) under control flow whose condition depends on the thread index is refused.

Thread variance is a least fixpoint over the IR: thread/global/lane indices and atomics are varying; an
operation with a varying operand is varying; a mutable stored a varying value, or stored under varying
control, is varying; a loop index with varying bounds and a match binder of a varying scrutinee are varying.
Block indices, dimensions, kernel parameters and values read at a uniform index are uniform.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.frontend.errors import CompileError

VARYING = {f"{b}_{d}" for b in ("thread_idx", "global_idx") for d in "xyz"} | {"global_thread_id", "lane_id"}
WARP_OPS = {"warp_shuffle", "warp_shuffle_up", "warp_shuffle_down", "warp_shuffle_xor"}


def _root(v: SSAValue) -> SSAValue:
    while isinstance(v.owner, s.FieldRefOp):
        v = v.owner.base
    return v


def _varying_helpers(module: ModuleOp) -> set[str]:
    """Helpers whose results may depend on the thread index by themselves."""
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for h in module.ops:
            if isinstance(h, s.HelperOp) and h.sym_name.data not in out:
                for op in h.walk():
                    if (isinstance(op, s.IntrinsicOp) and (op.callee.data in VARYING or
                                                           INTRINSICS.get(op.callee.data) is not None and
                                                           INTRINSICS[op.callee.data].category == Category.ATOMIC)) \
                            or (isinstance(op, s.CallOp) and op.callee_name in out):
                        out.add(h.sym_name.data)
                        changed = True
                        break
    return out


def _syncing_helpers(module: ModuleOp) -> set[str]:
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for h in module.ops:
            if isinstance(h, s.HelperOp) and h.sym_name.data not in out:
                for op in h.walk():
                    if _is_sync(op) or (isinstance(op, s.CallOp) and op.callee_name in out):
                        out.add(h.sym_name.data)
                        changed = True
                        break
    return out


def _is_sync(op: Operation) -> bool:
    return isinstance(op, s.BarrierOp | s.WarpBarrierOp) or (isinstance(op, s.IntrinsicOp) and
                                                             op.callee.data in WARP_OPS)


def _cond_of(op: Operation, varying: set[SSAValue]) -> SSAValue | None:
    """The varying condition of a control op, if any."""
    if isinstance(op, s.IfOp | s.IfExprOp) and op.cond in varying:
        return op.cond
    if isinstance(op, s.MatchOp | s.MatchExprOp) and op.scrutinee in varying:
        return op.scrutinee
    if isinstance(op, s.ForOp):
        for v in (op.lo, op.hi):
            if v in varying:
                return v
    if isinstance(op, s.WhileOp):
        y = op.cond_region.block.last_op
        if isinstance(y, s.YieldOp) and y.value in varying:
            return y.value
    return None


def _divergent_cond(op: Operation, fn: Operation, varying: set[SSAValue]) -> SSAValue | None:
    p = op.parent_op()
    while p is not None and p is not fn:
        c = _cond_of(p, varying)
        if c is not None:
            return c
        p = p.parent_op()
    return None


def _analyze(fn: Operation, varying_helpers: set[str]) -> set[SSAValue]:
    varying: set[SSAValue] = set()
    changed = True

    def mark(v: SSAValue) -> None:
        nonlocal changed
        if v not in varying:
            varying.add(v)
            changed = True

    while changed:
        changed = False
        for op in fn.walk():
            if op is fn:
                continue
            if isinstance(op, s.IntrinsicOp):
                info = INTRINSICS.get(op.callee.data)
                if op.callee.data in VARYING or (info is not None and info.category == Category.ATOMIC) or \
                        any(a in varying for a in op.args):
                    for r in op.results:
                        mark(r)
            elif isinstance(op, s.StoreOp):
                if op.value in varying or _divergent_cond(op, fn, varying) is not None:
                    r = _root(op.place)
                    if isinstance(r.owner, s.LetMutOp):
                        mark(r)
            elif isinstance(op, s.LoadOp):
                if _root(op.ref) in varying:
                    mark(op.result)
            elif isinstance(op, s.ArrayReadOp):
                if op.index in varying:
                    mark(op.result)
            elif isinstance(op, s.CallOp):
                if op.callee_name in varying_helpers or any(a in varying for a in op.args):
                    for r in op.results:
                        mark(r)
            elif isinstance(op, s.ForOp):
                if op.lo in varying or op.hi in varying:
                    mark(op.index)
            elif isinstance(op, s.MatchOp | s.MatchExprOp):
                if op.scrutinee in varying:
                    for r in op.case_regions:
                        for a in r.block.args:
                            mark(a)
                if isinstance(op, s.MatchExprOp):
                    for r in op.case_regions:
                        y = r.block.last_op
                        if isinstance(y, s.YieldOp) and y.value in varying:
                            mark(op.result)
                    if op.scrutinee in varying:
                        mark(op.result)
            elif isinstance(op, s.IfExprOp):
                if op.cond in varying:
                    mark(op.result)
                for r in (op.then_region, op.else_region):
                    y = r.block.last_op
                    if isinstance(y, s.YieldOp) and y.value in varying:
                        mark(op.result)
            elif isinstance(op, s.LetMutOp):
                if op.init in varying:
                    mark(op.result)
            else:
                if op.results and any(a in varying for a in op.operands):
                    for r in op.results:
                        mark(r)
    return varying


def _line(v: SSAValue) -> str:
    op = v.owner
    loc = op.location if isinstance(op, Operation) else None
    if isinstance(loc, FileLineColLoc):
        return f" (the condition at line {loc.line.data} depends on the thread index)"
    return " (the condition depends on the thread index)"


def check_divergence(module: ModuleOp) -> None:
    vh = _varying_helpers(module)
    sync_helpers = _syncing_helpers(module)
    for fn in module.ops:
        if not isinstance(fn, s.KernelOp | s.HelperOp):
            continue
        varying = _analyze(fn, vh)
        for op in fn.walk():
            what = None
            if isinstance(op, s.BarrierOp):
                what = "barrier()"
            elif isinstance(op, s.WarpBarrierOp):
                what = "warp_barrier()"
            elif isinstance(op, s.IntrinsicOp) and op.callee.data in WARP_OPS:
                what = f"{op.callee.data}()"
            elif isinstance(op, s.CallOp) and op.callee_name in sync_helpers:
                what = f"a call to '{op.callee_name}' (which synchronises)"
            if what is None:
                continue
            c = _divergent_cond(op, fn, varying)
            if c is not None:
                loc = op.location
                msg = (f"{what} under thread-divergent control flow{_line(c)}: every thread of the block must "
                       "reach it")
                if isinstance(loc, FileLineColLoc):
                    raise CompileError(msg, loc.filename.data, loc.line.data, loc.column.data)
                raise CompileError(msg)
