"""PTX lowering, values: how a sarek value lives in registers (`Sc` scalar, `Rec` record, `Var` variant,
`Buf` buffer, places, inlining frames), the register type of each scalar type, entry names and errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis import namer
from sarek.diagnostics import SarekError
from sarek.dialect import scalars
from sarek.dialect import sarek as sk
from sarek.dialect.intrinsics import is_integer_type
from sarek.registry import display_name
from sarek.targets.ptx.dialect import RegAttr


BACKEND = display_name("ptx")


def ptx_error(msg: str, op: Operation | None = None) -> SarekError:
    return SarekError(msg, op, BACKEND)


@dataclass
class Sc:
    """A scalar in a register."""

    ty: Attribute
    r: RegAttr


@dataclass
class Rec:
    ty: sk.RecordType
    fields: list[Any]  # Sc | Rec, declaration order


@dataclass
class Var:
    ty: sk.VariantType
    tag: RegAttr  # .s32
    words: list[RegAttr]  # .b32 payload words


@dataclass
class Buf:
    """A vector or a shared/local array: base address (.u64 in its state space) and length (.s32).
    `readonly`: a kernel vector the kernel never writes (loads use the non-coherent cache, `ld.global.nc`,
    as NVCC does for `const __restrict__` pointers)."""

    elt: Attribute
    space: str
    base: RegAttr
    length: RegAttr | int | None
    readonly: bool = False
    dims: tuple[RegAttr | int, ...] = ()  # the extents of an N-dimensional vector or array (row-major)


@dataclass
class RegPlace:
    val: Any  # Sc | Rec | Var


@dataclass
class MemPlace:
    ty: Attribute
    space: str
    addr: RegAttr
    off: int


@dataclass
class Frame:
    """An inlined helper call being lowered: where `sarek.return` puts its value and jumps."""

    helper: str
    result: Any
    label: str


def scalar_reg_type(t: Attribute) -> str | None:
    """The register type of a value: 8/16-bit integers live extended in 32-bit registers (.s32 signed,
    .u32 unsigned), bf16 in an .f32 register holding its exact value."""
    if scalars.is_bf16(t):
        return "f32"
    if is_integer_type(t):
        if scalars.is_small_int(t):
            return "u32" if scalars.is_unsigned(t) else "s32"
        return {1: "pred", 32: "s32", 64: "s64"}.get(t.width.data) if not scalars.is_unsigned(t) \
            else f"u{t.width.data}"
    return scalars.float_name(t)


def is_f(t: Attribute) -> bool:
    return isinstance(t, Float16Type | Float32Type | Float64Type)


def entry_name(kernel: str) -> str:
    """The `.entry` name the PTX of kernel `kernel` declares (what a runtime looks up): sarek.analysis.namer's."""
    return namer.entry_name(kernel, "ptx")


def narrow_mem(t: Attribute) -> str:
    """The ld/st type of an 8/16-bit integer or bf16 (its bits)."""
    if scalars.is_bf16(t):
        return "u16"
    return f"{'u' if scalars.is_unsigned(t) else 's'}{scalars.int_width(t)}"


def const_int(v: SSAValue) -> int | None:
    o = v.owner
    while isinstance(o, sk.LetOp):
        o = o.operands[0].owner
    if isinstance(o, sk.ConstantOp) and isinstance(o.value, IntegerAttr):
        return cast(IntegerAttr, o.value).value.data
    return None
