"""The two shader languages (GLSL 450 compute, WGSL): the `Lang` spelling table; names escape through sarek.analysis.namer."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.ir import Operation

from sarek.analysis import namer
from sarek.analysis.payload import PayloadLayout
from sarek.diagnostics import SarekError
from sarek.registry import display_name


# ------------------------------------------------------------------------------------------------ languages

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Lang:
    """The spellings of one shader language (tinygrad's `CStyleLanguage` in the small): the engine reads these
    fields instead of branching on the language. Templates are `str.format` patterns."""

    name: str
    scalar: Mapping[str, str | None]  # i1/i32/i64/f32/f64 -> type name (None: the language has none)
    i32_suffix: str  # literal suffixes
    i64_suffix: str
    f32_suffix: str
    f64_suffix: str
    f32_from_bits: str  # {} : the u32 bits
    f64_nonfinite: str  # an f64 inf or NaN from {}, the f32 bits of the same value (no 64-bit integer needed)
    f32_to_bits: str
    atomic_load: str  # of an atomic-typed place {}
    atomic_store: str  # {p} place, {v} value
    field: str  # a struct field / parameter: {t} type, {n} name
    let: str  # an immutable local with its value: {t} {n} {v}
    var: str  # a mutable local with its value
    var_uninit: str  # a local without a value
    locals_zeroed: bool  # a local without a value reads as zero (WGSL)
    func: str  # a function signature: {r} return type, {n} name, {p} parameters
    proc: str  # the signature of a function returning nothing
    select: str  # the conditional expression: {c} {a} (true) {b} (false)
    shift_rhs: str  # the right operand of `<<` / `>>`
    rsqrt: str  # builtin names
    atan2: str
    log10_factor: str  # log10(x) = log2(x) * factor
    clz: str  # {a}: the i32 operand
    popcount: str
    barrier: str
    lane_id: str
    warp_size: str
    index: Mapping[str, str]  # sarek index intrinsic base -> text; {d} dimension, {bx} the block size along it
    payload: PayloadLayout  # where variant payloads live (analysis/payload.py)
    macros: bool  # scalars are `#define x pc.x` macros of a push-constant block (else fields of `params`)
    int_helpers: Mapping[str, tuple[str, str]]  # helper -> (signature with {t} the type, its one statement)

    @property
    def glsl(self) -> bool:
        return self.name == "glsl"

    def escape(self, name: str) -> str:
        """The spelling of a name declared unrenamed (the one rule, sarek.analysis.namer.escape)."""
        return namer.escape(self.name, name)


GLSL = Lang(
    name="glsl", scalar={"i1": "bool", "i32": "int", "i64": "int64_t", "f32": "float", "f64": "double"},
    i32_suffix="", i64_suffix="L", f32_suffix="", f64_suffix="lf",
    f32_from_bits="uintBitsToFloat({})", f64_nonfinite="double(uintBitsToFloat({}))",
    f32_to_bits="floatBitsToUint({})", atomic_load="{}", atomic_store="{p} = {v}",
    field="{t} {n}", let="{t} {n} = {v}", var="{t} {n} = {v}", var_uninit="{t} {n}", locals_zeroed=False,
    func="{r} {n}({p})", proc="void {n}({p})",
    select="({c} ? {a} : {b})", shift_rhs="{}", rsqrt="inversesqrt", atan2="atan",
    log10_factor="0.30102999566398120", clz="(({a} < 0) ? 0 : (31 - findMSB({a})))", popcount="bitCount({a})",
    barrier="barrier()", lane_id="int(gl_SubgroupInvocationID)", warp_size="int(gl_SubgroupSize)",
    index={"thread_idx": "int(gl_LocalInvocationID.{d})", "block_idx": "int(gl_WorkGroupID.{d})",
           "block_dim": "int(gl_WorkGroupSize.{d})", "grid_dim": "int(gl_NumWorkGroups.{d})",
           "global_idx": "int(gl_GlobalInvocationID.{d})",
           "global_size": "int(gl_WorkGroupSize.{d} * gl_NumWorkGroups.{d})"},
    payload=PayloadLayout.GLSL, macros=True,
    int_helpers={"irem": ("{t} sarek_irem({t} a, {t} b)", "return a - b * (a / b)"),
                 "iabs": ("{t} sarek_iabs({t} x)", "return (x < 0L) ? -x : x")})
WGSL = Lang(
    name="wgsl", scalar={"i1": "bool", "i32": "i32", "i64": None, "f32": "f32", "f64": None},
    i32_suffix="i", i64_suffix="L", f32_suffix="f", f64_suffix="",
    f32_from_bits="bitcast<f32>({})", f64_nonfinite="0.0",
    f32_to_bits="bitcast<u32>({})", atomic_load="atomicLoad(&{})", atomic_store="atomicStore(&{p}, {v})",
    field="{n} : {t}", let="let {n} : {t} = {v}", var="var {n} : {t} = {v}", var_uninit="var {n} : {t}", locals_zeroed=True,
    func="fn {n}({p}) -> {r}", proc="fn {n}({p})",
    select="select({b}, {a}, {c})", shift_rhs="u32({})", rsqrt="inverseSqrt", atan2="atan2",
    log10_factor="0.30102999566398120f", clz="i32(countLeadingZeros(u32({a})))", popcount="i32(countOneBits(u32({a})))",
    barrier="workgroupBarrier()", lane_id="i32(sarek_sg_lane)", warp_size="i32(sarek_sg_size)",
    index={"thread_idx": "i32(sarek_lid.{d})", "block_idx": "i32(sarek_wid.{d})", "block_dim": "{bx}i",
           "grid_dim": "i32(sarek_nwg.{d})", "global_idx": "i32(sarek_gid.{d})",
           "global_size": "i32(sarek_nwg.{d} * {bx}u)"},
    payload=PayloadLayout.WGSL, macros=False,
    int_helpers={"irem": ("fn sarek_irem(a : {t}, b : {t}) -> {t}", "return a - b * (a / b)")})


def err(msg: str, op: Operation | None, lang: Lang) -> SarekError:
    return SarekError(msg, op, display_name(lang.name))


def is_swizzle(name: str) -> bool:
    """Whether `name` reads as a GLSL vector swizzle (`.x`, `.xy`, `.rgba`, `.st` ...)."""
    return 1 <= len(name) <= 4 and any(set(name) <= set(cs) for cs in ("xyzw", "rgba", "stpq"))
