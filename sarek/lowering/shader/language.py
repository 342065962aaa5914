"""The two shader languages (GLSL 450 compute, WGSL): reserved words, name escaping, the `Lang` table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.ir import Operation

from sarek.analysis.payload import PayloadLayout
from sarek.diagnostics import SarekError


# ------------------------------------------------------------------------------------------------ languages

GLSL_KEYWORDS = set("""
attribute const uniform varying buffer shared coherent volatile restrict readonly writeonly atomic_uint layout
centroid flat smooth noperspective patch sample break continue do for while switch case default if else
subroutine in out inout float double int void bool true false invariant precise discard return mat2 mat3 mat4
dmat2 dmat3 dmat4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 vec2 vec3 vec4 ivec2 ivec3
ivec4 bvec2 bvec3 bvec4 dvec2 dvec3 dvec4 uint uvec2 uvec3 uvec4 lowp mediump highp precision sampler1D
sampler2D sampler3D samplerCube image1D image2D image3D struct common partition active asm class union enum
typedef template this resource goto inline noinline public static extern external interface long short half
fixed unsigned superp input output hvec2 hvec3 hvec4 fvec2 fvec3 fvec4 sampler3DRect filter sizeof cast
namespace using int64_t uint64_t float16_t main texture sampler
radians degrees sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh pow exp log exp2 log2 sqrt
inversesqrt abs sign floor trunc round roundEven ceil fract mod modf min max clamp mix step smoothstep isnan
isinf floatBitsToInt floatBitsToUint intBitsToFloat uintBitsToFloat fma frexp ldexp length distance dot cross
normalize reflect refract bitCount findMSB findLSB bitfieldExtract bitfieldInsert bitfieldReverse uaddCarry
usubBorrow umulExtended imulExtended barrier memoryBarrier memoryBarrierShared memoryBarrierBuffer
groupMemoryBarrier atomicAdd atomicMin atomicMax atomicAnd atomicOr atomicXor atomicExchange atomicCompSwap
any all not equal lessThan greaterThan packHalf2x16 unpackHalf2x16 pc PushConstants
""".split())

WGSL_KEYWORDS = set("""
alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if
let loop override requires return struct switch true var while
NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become binding_array
cast catch class co_await co_return co_yield coherent column_major common compile compile_fragment concept
const_cast consteval constexpr constinit crate debugger decltype delete demote demote_to_helper do dynamic_cast
enum explicit export extends extern external fallthrough filter final finally friend from fxgroup get goto
groupshared highp impl implements import inline instanceof interface layout lowp macro macro_rules match
mediump meta mod module move mut mutable namespace new nil noexcept noinline nointerpolation noperspective null
nullptr of operator package packoffset partition pass patch pixelfragment precise precision premerge priv
protected pub public readonly ref regardless register reinterpret_cast require resource restrict self set
shared sizeof smooth snorm static static_assert static_cast std subroutine super target template this
thread_local throw trait try type typedef typeid typename typeof union unless unorm unsafe unsized use using
varying virtual volatile wgsl where with writeonly yield
bool f16 f32 f64 i32 i64 u32 u64 vec2 vec3 vec4 mat2x2 mat3x3 mat4x4 array atomic ptr sampler texture_2d
abs acos acosh asin asinh atan atanh atan2 ceil clamp cos cosh countLeadingZeros countOneBits
countTrailingZeros cross degrees determinant distance dot exp exp2 extractBits faceForward firstLeadingBit
firstTrailingBit floor fma fract frexp insertBits inverseSqrt ldexp length log log2 max min mix modf normalize
pow quantizeToF16 radians reflect refract reverseBits round saturate select sign sin sinh smoothstep sqrt step
tan tanh transpose trunc all any arrayLength bitcast workgroupBarrier storageBarrier atomicLoad atomicStore
atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak
subgroupShuffle subgroupBarrier main params Params read write read_write storage uniform workgroup private
function
""".split())

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name) or "v"
    if s[0].isdigit():
        s = "v" + s
    return s


def minted_name(s: str) -> bool:
    """Names sarek's passes mint on purpose (they keep their `sarek_` prefix)."""
    return s.startswith("sarek_scalar_shadow_") or s.startswith("sarek_pc_shadow_")


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
    f64_from_bits: str  # {} : the u64 bits as a decimal literal
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

    @property
    def glsl(self) -> bool:
        return self.name == "glsl"

    def escape(self, name: str) -> str:
        s = sanitize(name)
        if self.glsl:
            if s.startswith("gl_"):  # a suffix would leave the reserved `gl_` prefix
                s = "v" + s
            elif s in GLSL_KEYWORDS:
                s = s + "v"
            s = re.sub(r"__+", "_", s)  # GLSL reserves names with two consecutive underscores
            # `sarek_` names belong to the lowering (polyfills `sarek_irem`, temporaries `sarek_t`)
            return "sarek_" + s if s.startswith("sarek_") and not minted_name(s) else s
        if s == "_" or s.startswith("__") or (s.startswith("sarek_") and not minted_name(s)) or s in WGSL_KEYWORDS:
            s = "sarek_" + s
        return s


GLSL = Lang(
    name="glsl", scalar={"i1": "bool", "i32": "int", "i64": "int64_t", "f32": "float", "f64": "double"},
    i32_suffix="", i64_suffix="L", f32_suffix="", f64_suffix="lf",
    f32_from_bits="uintBitsToFloat({})", f64_from_bits="(uint64BitsToDouble({}UL))",
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
    payload=PayloadLayout.GLSL, macros=True)
WGSL = Lang(
    name="wgsl", scalar={"i1": "bool", "i32": "i32", "i64": None, "f32": "f32", "f64": None},
    i32_suffix="i", i64_suffix="L", f32_suffix="f", f64_suffix="",
    f32_from_bits="bitcast<f32>({})", f64_from_bits="0.0",
    f32_to_bits="bitcast<u32>({})", atomic_load="atomicLoad(&{})", atomic_store="atomicStore(&{p}, {v})",
    field="{n} : {t}", let="let {n} : {t} = {v}", var="var {n} : {t} = {v}", var_uninit="var {n} : {t}", locals_zeroed=True,
    func="fn {n}({p}) -> {r}", proc="fn {n}({p})",
    select="select({b}, {a}, {c})", shift_rhs="u32({})", rsqrt="inverseSqrt", atan2="atan2",
    log10_factor="0.30102999566398120f", clz="i32(countLeadingZeros(u32({a})))", popcount="i32(countOneBits(u32({a})))",
    barrier="workgroupBarrier()", lane_id="i32(sarek_sg_lane)", warp_size="i32(sarek_sg_size)",
    index={"thread_idx": "i32(sarek_lid.{d})", "block_idx": "i32(sarek_wid.{d})", "block_dim": "{bx}i",
           "grid_dim": "i32(sarek_nwg.{d})", "global_idx": "i32(sarek_gid.{d})",
           "global_size": "i32(sarek_nwg.{d} * {bx}u)"},
    payload=PayloadLayout.WGSL, macros=False)


def err(msg: str, op: Operation | None, lang: Lang) -> SarekError:
    return SarekError(msg, op, lang.name)


def is_swizzle(name: str) -> bool:
    """Whether `name` reads as a GLSL vector swizzle (`.x`, `.xy`, `.rgba`, `.st` ...)."""
    return 1 <= len(name) <= 4 and any(set(name) <= set(cs) for cs in ("xyzw", "rgba", "stpq"))
