"""sarek-check-bounds: debug mode's checks, as ordinary sarek ops writing the hidden debug buffer.

Every vector, shaped-array (each dimension), shared-array and local-array access (`sarek.array_read`, `sarek.elem_ref` and the loads and
stores through it, atomics), every integer `//` and `%` by a divisor that is not a non-zero constant, and every
`sarek.assert` gets a check. A failing check calls `sarek_check_failed` (sarek.passes.debug_buffer), which records the first
failure of the launch in the buffer (compare-and-swap on its flag) with the check id, thread and block ids, the
index and the extent; and the faulting access is skipped: a read or a load reads element 0 instead, a store or
an atomic does not happen (an atomic gives 0), a division divides by 1. Each check's source location and what it
checks are rows of the module attribute `sarek.debug_checks`, which the runtime turns into a located
`sarek.LaunchError` after the launch.

An asynchronous copy (`sarek.copy_async`) is made its element copies first, so each element is checked (a
debug launch copies synchronously; commits and waits stay and wait for nothing).

Not checked: arrays a helper receives as a parameter (their extent is not passed; vectors are, and are checked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntegerAttr, IntegerType, ModuleOp, i32, i64
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from sarek.passes.debug_buffer import (CHECKS_ATTR, FAIL_HELPER, add_table_entry, attach_buffers, building_before, debug_param,
                         ensure_fail_helper, function_of, mark_guard)
from sarek.diagnostics import location_text
from sarek.dialect import sarek as s
from sarek.dialect.asynccopy import expand_copy
from sarek.dialect.builder import BodyBuilder
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.scalars import is_arith_int


def _is_site(op: Operation) -> bool:
    if isinstance(op, s.ArrayReadOp | s.ElemRefOp):
        return True
    if isinstance(op, s.IntrinsicOp):
        info = INTRINSICS.get(op.callee.data)
        return info is not None and info.category == Category.ATOMIC
    if isinstance(op, s.BinOp):
        return op.kind.data in (s.BinOpKind.DIV, s.BinOpKind.REM) and is_arith_int(op.result.type) and not _nonzero(op.rhs)
    return op.name == "sarek.assert"


def _nonzero(v: SSAValue) -> bool:
    c = v.owner
    return isinstance(c, s.ConstantOp) and isinstance(c.value, IntegerAttr) and \
        cast("IntegerAttr[IntegerType]", c.value).value.data != 0


def _array_name(a: SSAValue) -> str:
    if isinstance(a.owner, s.AllocArrayOp):
        return a.owner.sym.data
    if isinstance(a, BlockArgument):
        f = a.owner.parent_op()
        if isinstance(f, s.KernelOp | s.HelperOp):
            return f.param_names.data[a.index].data
    return "?"


def _extents(b: BodyBuilder, a: SSAValue) -> list[SSAValue] | None:
    """The extent of each dimension of `a` (i32), or None for an array received by a helper (not known)."""
    t = a.type
    if isinstance(t, s.VecType):
        if t.ndim == 1:
            return [b.length(a)]
        return [b.insert(s.ArrayDimOp(a, d)).results[0] for d in range(t.ndim)]
    if isinstance(a.owner, s.AllocArrayOp):
        return list(a.owner.sizes)
    return None


class _Checker:
    def __init__(self, module: ModuleOp, bufs: dict[str, SSAValue]):
        self.module = module
        self.bufs = bufs

    def entry(self, op: Operation, kind: str, detail: str) -> int:
        return add_table_entry(self.module, CHECKS_ATTR, [location_text(op) or "<unknown>", kind, detail])

    def buf(self, op: Operation) -> SSAValue:
        f = function_of(op)
        assert f is not None
        return self.bufs[f.sym_name.data]

    def fail(self, b: BodyBuilder, op: Operation, cid: int, index: SSAValue | None, extent: SSAValue | None) -> None:
        """The call recording a failure: index split into 32-bit halves, extent as i32."""
        if index is None:
            lo = hi = b.const(0, i32)
        elif index.type == i64:
            lo = b.cast(index, i32)
            hi = b.cast(b.binop("shr", index, b.const(32, i64)), i32)
        else:
            lo = index if index.type == i32 else b.cast(index, i32)
            hi = b.binop("shr", lo, b.const(31, i32))
        ext = extent if extent is not None else b.const(0, i32)
        b.call(FAIL_HELPER, [self.buf(op), b.const(cid, i32), lo, hi, ext], s.UnitType())

    def in_bounds(self, b: BodyBuilder, index: SSAValue, extent: SSAValue) -> SSAValue:
        t = index.type
        ext = extent if t == extent.type else b.cast(extent, t)
        return b.binop("and", b.binop("ge", index, b.const(0, t)), b.binop("lt", index, ext))

    def safe_indices(self, op: s.ArrayReadOp | s.ElemRefOp, what: str) -> SSAValue | None:
        """Check each index of `op` against its dimension's extent, before `op`: an index out of bounds records
        the failure and becomes 0. Returns whether all were in bounds (None: extents unknown, unchecked)."""
        array, indices = op.array, list(op.indices)
        with building_before(op) as b:
            extents = _extents(b, array)
            if extents is None:
                return None
            oks: list[SSAValue] = []
            safe: list[SSAValue] = []
            for d, (index, extent) in enumerate(zip(indices, extents)):
                dim = f" (dimension {d})" if len(indices) > 1 else ""
                cid = self.entry(op, "bounds", f"{what} '{_array_name(array)}'{dim}")
                oks.append(self.in_bounds(b, index, extent))
                e = b.if_expr(oks[-1], index.type)
                with e.then_():
                    e.yield_(index)
                with e.else_():
                    self.fail(b, op, cid, index, extent)
                    e.yield_(b.const(0, index.type))
                safe.append(e.result)
            ok = oks[0]
            for more in oks[1:]:
                ok = b.binop("and", ok, more)
        op.operands = [array, *safe]
        return ok

    def check(self, op: Operation) -> None:
        if isinstance(op, s.ArrayReadOp):
            self.safe_indices(op, "read of")
        elif isinstance(op, s.ElemRefOp):
            self.check_place(op)
        elif isinstance(op, s.IntrinsicOp):
            self.check_atomic(op)
        elif isinstance(op, s.BinOp):
            word = "division" if op.kind.data == s.BinOpKind.DIV else "modulo"
            cid = self.entry(op, "div", f"integer {word} by zero")
            with building_before(op) as b:
                d = op.rhs
                e = b.if_expr(b.binop("ne", d, b.const(0, d.type)), d.type)
                with e.then_():
                    e.yield_(d)
                with e.else_():
                    self.fail(b, op, cid, None, None)
                    e.yield_(b.const(1, d.type))
            op.operands = [op.lhs, e.result]
        else:
            self.check_assert(op)

    def check_place(self, op: s.ElemRefOp) -> None:
        stores: list[s.StoreOp] = []
        loads = False
        todo: list[SSAValue] = [op.result]
        while todo:
            for use in list(todo.pop().uses):
                u = use.operation
                if isinstance(u, s.StoreOp) and use.index == 0:
                    stores.append(u)
                elif isinstance(u, s.FieldRefOp):
                    todo.append(u.result)
                else:
                    loads = True
        what = "update of" if stores and loads else "write to" if stores else "read of"
        ok = self.safe_indices(op, what)
        if ok is None:
            return
        for st in stores:
            guard = mark_guard(s.IfOp(ok))
            guard.location = st.location
            parent = st.parent_block()
            assert parent is not None
            parent.insert_op_before(guard, st)
            st.detach()
            guard.then_region.block.add_op(st)

    def check_atomic(self, op: s.IntrinsicOp) -> None:
        array, index = op.args[0], op.args[1]
        if not isinstance(array.type, s.VecType | s.ArrayType) or array is self.buf(op):
            return
        with building_before(op) as b:
            extents = _extents(b, array)
            if extents is None or len(extents) != 1:
                return
            extent = extents[0]
            ok = self.in_bounds(b, index, extent)
        cid = self.entry(op, "bounds", f"{op.callee.data} on '{_array_name(array)}'")
        t = op.result.type
        guard = s.IfExprOp(ok, t, Region(Block()), Region(Block()))
        guard.location = op.location
        parent = op.parent_block()
        assert parent is not None
        parent.insert_op_before(guard, op)
        op.result.replace_all_uses_with(guard.result)
        op.detach()
        guard.then_region.block.add_op(op)
        guard.then_region.block.add_op(s.YieldOp(op.result))
        b = BodyBuilder(guard.else_region.block, op.location if isinstance(op.location, FileLineColLoc) else None)
        self.fail(b, op, cid, index, extent)
        b.insert(s.YieldOp(b.const(0, t)))

    def check_assert(self, op: Operation) -> None:
        msg = op.properties.get("message")
        text = getattr(msg, "data", "") or "assert"
        cid = self.entry(op, "assert", str(text))
        cond = op.operands[0]
        with building_before(op) as b:
            with b.if_(b.unop("not", cond)) as guard:
                mark_guard(guard)
                self.fail(b, op, cid, None, None)
        op.detach()
        op.erase()


def check_bounds(module: ModuleOp) -> None:
    """Insert the checks into every kernel and helper of `module` (see the module docstring); a module with
    checks already is left as it is."""
    if CHECKS_ATTR in module.attributes:
        return
    for c in [o for o in module.walk() if isinstance(o, s.CopyAsyncOp)]:
        expand_copy(c)  # an asynchronous copy: its element copies, each checked
    sites: list[Operation] = []
    for f in module.ops:
        if isinstance(f, s.KernelOp | s.HelperOp) and f.sym_name.data != FAIL_HELPER:
            dbg = debug_param(f)
            sites += [op for op in f.walk() if _is_site(op) and not _on_buffer(op, dbg)]
    needy = {f.sym_name.data for f in (function_of(op) for op in sites) if isinstance(f, s.HelperOp)}
    bufs = attach_buffers(module, needy)
    ensure_fail_helper(module)
    c = _Checker(module, bufs)
    for op in sites:
        c.check(op)


def _on_buffer(op: Operation, dbg: SSAValue | None) -> bool:
    """Accesses of the debug buffer itself (print records) are not checked."""
    return dbg is not None and isinstance(op, s.ArrayReadOp | s.ElemRefOp | s.IntrinsicOp) and bool(op.operands) \
        and op.operands[0] is dbg


@dataclass(frozen=True)
class CheckBoundsPass(ModulePass):
    """Debug mode: check every array index, integer division and assert; the first failure is reported.

    Adds the hidden `sarek_debug` buffer parameter (sarek.passes.debug_buffer) to every kernel and to the helpers that check,
    and the `sarek.debug_checks` table (location, kind, detail per check id) to the module. A faulting access
    is skipped. Run by `launch(debug=True)` / `SAREK_DEBUG=1` before the target's pipeline.
    """

    name = "sarek-check-bounds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_bounds(op)

