"""A shader kernel's scalar parameter block (GLSL push constants, WGSL `var<uniform> params`), laid out once.

The block holds each vector's length (or extents), 4 bytes each, then the scalar parameters in order, each at
its alignment: a scalar at its size, a by-value record or variant at its device layout (sarek.analysis.layout)
aligned to its largest leaf, or (WGSL, a uniform buffer) to 16 with its size rounded to 16. The block's size
is rounded to `ParamsRule.align` (else its largest alignment). The shader lowering reads the offsets
(`param_block`); the capability gate (sarek.analysis.features) refuses what a language cannot hold:
`interface_refusal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import ModuleOp

from sarek.analysis.layout import ScalarLayout, StorageLayout, round_up, scalar_layout, storage_layout
from sarek.analysis.payload import TARGET_PAYLOAD_LAYOUT
from sarek.dialect import sarek as S


@dataclass(frozen=True)
class ParamsRule:
    """How a shading language holds the parameter block."""

    record_align: int | None  # by-value records/variants: a uniform buffer's alignment, i32/f32 fields only
    align: int | None  # the block's size is rounded to this (None: its largest alignment)
    limit: int | None  # the most bytes the block may have (push constants)
    bool_in_buffer_record: bool  # a record with a bool field may be a buffer element (host-shareable)


PARAMS = {"glsl": ParamsRule(record_align=None, align=None, limit=128, bool_in_buffer_record=True),
          "wgsl": ParamsRule(record_align=16, align=16, limit=None, bool_in_buffer_record=False)}


@dataclass(frozen=True)
class Slot:
    """A scalar parameter in the block: its offset and size, and a by-value record's or variant's layout."""

    offset: int
    size: int
    layout: StorageLayout | None


@dataclass(frozen=True)
class ParamBlock:
    dims: dict[int, list[int]]  # vector parameter index -> the offsets of its length or extents
    scalars: dict[int, Slot]  # scalar parameter index -> its slot
    size: int  # the block's size, rounded


def _by_value_ok(module: ModuleOp, t: S.RecordType | S.VariantType, lay: StorageLayout, rule: ParamsRule) -> bool:
    """Whether the language holds `t` by value (a uniform buffer: only non-nested 4-byte non-bool fields)."""
    if rule.record_align is None:
        return True
    decls = {d.sym_name.data: d for d in module.ops if isinstance(d, S.RecordOp | S.VariantOp)}
    d = decls[t.decl_name]
    fields = [ft for _, ft in d.fields] if isinstance(d, S.RecordOp) else [p for _, ps in d.ctors for p in ps]
    leaves = [*lay.leaves, *(x for c in lay.ctors or () for x in c)]
    return all(S.is_scalar_type(ft) for ft in fields) and all(x.size == 4 and x.kind != "b4" for x in leaves)


def param_block(module: ModuleOp, k: S.KernelOp, target: str) -> ParamBlock:
    """The layout of `k`'s parameter block on `target` (glsl, wgsl); a LayoutError for a type without one."""
    rule = PARAMS[target]
    off, maxa = 0, 4
    dims: dict[int, list[int]] = {}
    for _, a in k.params:
        if isinstance(a.type, S.VecType):
            dims[a.index] = [off + 4 * d for d in range(a.type.ndim)]
            off += 4 * a.type.ndim
    scalars: dict[int, Slot] = {}
    for _, a in k.params:
        t = a.type
        if isinstance(t, S.VecType):
            continue
        lay = None
        if isinstance(t, S.RecordType | S.VariantType):
            lay = storage_layout(module, t, TARGET_PAYLOAD_LAYOUT[target])
            al = max([4] + [x.size for x in [*lay.leaves, *(x for c in lay.ctors or () for x in c)]])
            s = lay.dev_size
            if rule.record_align is not None:
                al = rule.record_align
                s = round_up(lay.dev_size, al)
        else:
            s = al = cast(ScalarLayout, scalar_layout(t)).size
        off = round_up(off, al)
        maxa = max(maxa, al)
        scalars[a.index] = Slot(off, s, lay)
        off += s
    return ParamBlock(dims, scalars, round_up(off, rule.align or maxa))


def interface_refusal(module: ModuleOp, k: S.KernelOp, target: str, portable: bool = True) -> str | None:
    """Why `target` cannot hold `k`'s interface, or None: a by-value record or variant WGSL's uniform buffer
    cannot hold, a record with a bool field as a WGSL buffer element, a parameter block over the language's
    portable limit (GLSL push constants; not checked unless `portable`: a device checks its own). `module` is as
    the lowering will see it (after sarek-pack-narrow)."""
    rule = PARAMS[target]
    for n, a in k.params:
        t = a.type
        if isinstance(t, S.RecordType | S.VariantType):
            if not _by_value_ok(module, t, storage_layout(module, t, TARGET_PAYLOAD_LAYOUT[target]), rule):
                return (f"parameter '{n}': a record/variant passed by value on {target} must hold only i32/f32 "
                        "fields (uniform buffer layout); pass it in a Vector of one element instead")
        elif isinstance(t, S.VecType) and isinstance(et := t.element_type, S.RecordType) \
                and not rule.bool_in_buffer_record:
            if any(x.kind == "b4" for x in storage_layout(module, et, TARGET_PAYLOAD_LAYOUT[target]).leaves):
                return (f"vector '{n}': a bool field in a record is not host-shareable in WGSL; store it as an "
                        "i32 field (0 or 1)")
    size = param_block(module, k, target).size
    if portable and rule.limit is not None and size > rule.limit:
        return (f"push constants need {size} bytes; Vulkan guarantees {rule.limit} (the vector lengths, 4 bytes "
                "each, and the scalar parameters); pass large records or many scalars in a Vector")
    return None

