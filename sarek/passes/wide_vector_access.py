"""sarek-wide-vector-access: mark whole-element accesses of short-vector arrays for native wide loads/stores.

A `Vec` element whose record is 4, 8 or 16 bytes of equal-width scalars (u8x4 and f16x2; f32x2 and i32x2;
f32x4, i32x4 and u32x4, or any record of that shape) can move in one 32/64/128-bit access: a vector's
storage starts aligned (every runtime allocates at 256 bytes or more, a foreign array's address is checked
at launch) and element k lies at k * size, so each element is aligned to its size. The C family spells the
load as one `uint`/`uint2`/`uint4` read of the element's address reinterpreted as the record (CUDA, HIP:
`ld.global.v4`; OpenCL: a `uint4` load), where the record's own 4-byte alignment would let the compiler
split it into scalar loads. PTX emits `ld.global.v4.f32`/`.v2` (and st) where the lanes are 32-bit scalars.

Marked (`sarek.wide_access = <bits>`), on vectors (`Vec`/`Array` parameters, global memory) only:
- a `sarek.array_read` whose value is used whole (passed, stored, returned) or for two or more fields
  (a read of one field stays a scalar load);
- a `sarek.store` of a whole element through a `sarek.elem_ref` (`v[i] = w`).
Shared and local arrays are left alone (their declarations carry no alignment beyond the element's).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from typing import cast

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.layout import ScalarLayout, scalar_layout
from sarek.dialect import sarek as s

#: the attribute the C-family lowering reads: the access width in bits
WIDE = "sarek.wide_access"
_WIDTHS = {4: 32, 8: 64, 16: 128}


def wide_bits(t: Attribute, records: dict[str, s.RecordOp]) -> int | None:
    """The access width of an element type whose record is 4/8/16 bytes of equal-width scalars, else None."""
    if not isinstance(t, s.RecordType) or (decl := records.get(t.decl_name)) is None:
        return None
    if any(ft == i1 or (lay := scalar_layout(ft)) is None or lay.size != lay.align for _, ft in decl.fields):
        return None   # bool fields (stored as int), nested records: not a packed vector
    sizes = {cast(ScalarLayout, scalar_layout(ft)).size for _, ft in decl.fields}
    return _WIDTHS.get(sizes.pop() * len(decl.fields)) if len(sizes) == 1 else None


def _used_whole(v: SSAValue) -> bool:
    """The value is used other than by field reads of one field."""
    fields: set[str] = set()
    for use in v.uses:
        op = use.operation
        if not isinstance(op, s.FieldOp):
            return True
        fields.add(op.field.data)
    return len(fields) > 1


def mark_wide_accesses(module: ModuleOp) -> int:
    """Mark the qualifying reads and stores; returns how many were marked."""
    records = {op.sym_name.data: op for op in module.walk() if isinstance(op, s.RecordOp)}
    marked = 0

    def mark(op: Operation, arr: SSAValue) -> None:
        nonlocal marked
        if not isinstance(arr.type, s.VecType):
            return
        bits = wide_bits(arr.type.element_type, records)
        if bits is not None:
            op.attributes[WIDE] = IntegerAttr(bits, i32)
            marked += 1

    for op in module.walk():
        if isinstance(op, s.ArrayReadOp) and _used_whole(op.result):
            mark(op, op.array)
        elif isinstance(op, s.StoreOp) and isinstance(op.place.owner, s.ElemRefOp):
            mark(op, op.place.owner.array)
    return marked


@dataclass(frozen=True)
class WideVectorAccessPass(ModulePass):
    """Mark whole-element reads and stores of Vec arrays of 4/8/16-byte short vectors (f32x4, i32x2, u8x4, ...)
    with `sarek.wide_access = bits`, which the C family emits as one 32/64/128-bit access."""

    name = "sarek-wide-vector-access"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mark_wide_accesses(op)
