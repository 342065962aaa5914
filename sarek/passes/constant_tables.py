"""sarek-constant-tables: module-level constant tables into constant memory.

The front end builds a module-level tuple or numpy array indexed in a kernel (`TAPS[k]`) as a per-thread local
array filled by constant stores at the function's entry (every thread copies the table). This pass finds each
such table, a local array whose every use is

- a store of a constant at constant indices, directly in the function's entry block, before any read (every
  slot stored), or
- a read (`sarek.array_read`),

and turns it into a constant array holding its values (`sarek.alloc_array "TAPS"[%c5] = [...] :
!sarek.array<f32, constant>`), its stores removed: one copy per program, in the target's constant memory (CUDA
and HIP `__constant__`, OpenCL `__constant`, Metal `constant`, PTX `.const`). Tables fill the target's constant
memory (`TargetDescriptor.constant_limit`, 64 KiB) in module order (f16 and bf16 tables stay local: C has no
constant initializer for them); one that no longer fits stays a local
table (every thread holds its copy, as before). A table is named `<function>_<table>` (unique in the module:
the C family and PTX declare it at module scope). Other local arrays are unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.passes import ModulePass

from sarek.analysis.layout import scalar_layout
from sarek.dialect import scalars
from sarek.dialect import sarek as s
from sarek.registry import target_info


@dataclass
class _Table:
    alloc: s.AllocArrayOp
    stores: list[s.StoreOp]
    values: list[Attribute]


def _int(v: Operation | None) -> int | None:
    if isinstance(v, s.ConstantOp) and isinstance(v.value, IntegerAttr):
        return cast("IntegerAttr[IntegerType]", v.value).value.data
    return None


def _entry_op(op: Operation, entry: Block) -> Operation | None:
    """The op of `entry` that holds `op` (itself when it is there)."""
    while op.parent_block() is not entry:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _table(alloc: s.AllocArrayOp, entry: Block) -> _Table | None:
    """`alloc` as a constant table, or None when it is not one (written elsewhere, passed on, read first)."""
    shape = alloc.shape
    et = alloc.array_type.element_type
    if alloc.array_type.memspace != s.MemSpace.LOCAL or shape is None or alloc.parent_block() is not entry or \
            isinstance(et, Float16Type) or scalars.is_bf16(et):  # C has no constant initializer of __half
        return None
    stores: list[s.StoreOp] = []
    values: list[Attribute | None] = [None] * math.prod(shape)
    reads: list[Operation] = []
    for use in alloc.result.uses:
        user = use.operation
        if isinstance(user, s.ArrayReadOp) and use.index == 0:
            reads.append(user)
            continue
        if not isinstance(user, s.ElemRefOp):
            return None
        users = [u.operation for u in user.result.uses]
        if len(users) != 1:
            return None
        st = users[0]
        idx = [_int(i.owner if isinstance(i.owner, Operation) else None) for i in user.indices]
        if not isinstance(st, s.StoreOp) or st.place is not user.result or st.parent_block() is not entry or \
                not isinstance(st.value.owner, s.ConstantOp) or any(i is None for i in idx):
            return None
        flat = 0
        for i, n in zip(idx, shape):
            assert i is not None
            if not 0 <= i < n:
                return None
            flat = flat * n + i
        values[flat] = st.value.owner.value
        stores.append(st)
    if any(v is None for v in values):  # a slot left at its default: not a table the front end builds
        return None
    last = max(entry.get_operation_index(st) for st in stores)
    for r in reads:
        top = _entry_op(r, entry)
        if top is None or entry.get_operation_index(top) < last:
            return None
    return _Table(alloc, stores, [v for v in values if v is not None])


def constant_tables(module: ModuleOp, target: str, limit: int = 0) -> None:
    """Turn every local constant table of `module` into a constant array while the target's constant memory
    (or `limit` bytes, when positive) holds it (module order)."""
    own = target_info(target, "sarek-constant-tables").constant_limit
    if own is None:
        return
    limit = limit if limit > 0 else own
    used, names = 0, set[str]()
    for f in module.ops:
        if not isinstance(f, s.KernelOp | s.HelperOp):
            continue
        entry = f.body.block
        for alloc in [o for o in entry.ops if isinstance(o, s.AllocArrayOp)]:
            tab = _table(alloc, entry)
            if tab is None:
                continue
            et = alloc.array_type.element_type
            lay = scalar_layout(et)
            nbytes = (lay.size if lay is not None else 4) * len(tab.values)
            if used + nbytes > limit:
                continue
            used += nbytes
            name = f"{f.sym_name.data}_{alloc.sym.data}"
            while name in names:
                name += "_"
            names.add(name)
            new = s.AllocArrayOp(name, list(alloc.sizes), s.ArrayType(et, s.MemSpace.CONSTANT, alloc.array_type.ndim),
                                 tab.values)
            new.location = alloc.location
            entry.insert_op_before(new, alloc)
            for st in tab.stores:
                ref = st.place.owner
                st.detach()
                st.erase()
                assert isinstance(ref, s.ElemRefOp)
                ref.detach()
                ref.erase()
            alloc.result.replace_all_uses_with(new.result)
            alloc.detach()
            alloc.erase()


@dataclass(frozen=True)
class ConstantTablesPass(ModulePass):
    """Put module-level constant tables (local arrays only filled by constants at entry, then only read) in the
    target's constant memory: one copy per program instead of one per thread.

    Options: `target` (cuda, hip, opencl, metal, ptx; glsl and wgsl keep per-thread tables), whose constant
    memory (64 KiB) is filled in module order, a table past it staying a local table; `limit` (bytes, default 0:
    the target's) to fill less. Docs: docs/KERNELS.md (module-level constants).
    """

    name = "sarek-constant-tables"

    target: str = "cuda"
    limit: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        constant_tables(op, self.target, self.limit)
