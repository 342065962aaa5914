"""The two shader languages (GLSL 450 compute, WGSL): the `Lang` table, the only place GLSL and WGSL differ.

The lowering (the other modules of this package) asks its `Lang` how to spell a type, a literal, a builtin, a
declaration, an atomic, a buffer or the entry point, and reads its boolean fields where a language lacks a
construct (WGSL's `select` is not lazy, its `switch` needs a default ...). Where the syntax differs in
structure — the compare-and-swap loops of atomics, the scalar parameter block — a field holds the function
that emits it (`cas_loop`, `float_rmw`, `params_block`), written below beside its language. Templates are
`str.format` patterns; names escape through sarek.analysis.namer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from xdsl.ir import Block, Operation

from sarek.analysis import namer
from sarek.analysis.payload import PayloadLayout
from sarek.diagnostics import SarekError
from sarek.registry import display_name

if TYPE_CHECKING:
    from sarek.lowering.shader.state import Scope


# ------------------------------------------------------------------------------------------------ languages

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Ops = Mapping[str, Callable[..., Operation]]


class Emitter(Protocol):
    """What a language's emitting functions use of the lowering: its ops, statements and fresh names."""

    @property
    def O(self) -> Ops: ...  # the op classes of the target dialect

    def stmt(self, out: Block, text: str) -> None: ...

    def temp(self, scope: Scope, base: str = "sarek_t") -> str: ...


@dataclass(frozen=True)
class NativeF32Add:
    """A native f32 atomic add on a storage buffer: the call ({p} the place, {0} the operand, returning the old
    value) and the device feature it needs (GLSL: GL_EXT_shader_atomic_float, wgpu's shader-float32-atomic)."""

    call: str
    feature: str


@dataclass(frozen=True)
class Repr:
    """How a buffer or shared array holds elements in another form than their type (float atomics on the
    bits, WGSL's atomic<i32>, WGSL bools as u32): the element type, a read ({}: the place), a write ({p}, {v}),
    and the bytes of one element (a shared array's size, the abi's shared_bytes)."""

    type: str
    load: str
    store: str
    bytes: int = 4


#: (sarek type, the operands as text, {p}: the place) of a compare-and-swap loop: Emitter, block, scope,
#: result name, result type, place, expected, new, the result from the old bits ({})
CasLoop = Callable[["Emitter", Block, "Scope", str, str, str, str, str, str], None]
#: a float read-modify-write loop on the bits: Emitter, block, scope, place, the old-bits variable, the current
#: value's and the exchange's names, the new value's text (of the current value); returns the old value's text
FloatRmw = Callable[["Emitter", Block, "Scope", str, str, str, str, str], str]
#: the scalar parameter block: ops, [(attribute, name, type)], the binding after the vectors -> module-scope ops
ParamsBlock = Callable[[Ops, Sequence[tuple[str, str, str]], int], list[Operation]]


@dataclass(frozen=True)
class Lang:
    """The spellings of one shader language (tinygrad's `CStyleLanguage` in the small): the engine reads these
    fields instead of branching on the language. Templates are `str.format` patterns."""

    name: str
    scalar: Mapping[str, str | None]  # i1/i32/i64/f32/f64 -> type name (None: the language has none)
    i32_suffix: str  # literal suffixes
    i64_suffix: str
    u32_suffix: str
    u64_suffix: str
    f32_suffix: str
    f64_suffix: str
    f32_from_bits: str  # {} : the u32 bits
    f64_nonfinite: str  # an f64 inf or NaN from {}, the f32 bits of the same value (no 64-bit integer needed)
    f32_to_bits: str
    field: str  # a struct field / parameter: {t} type, {n} name
    let: str  # an immutable local with its value: {t} {n} {v}
    var: str  # a mutable local with its value
    var_uninit: str  # a local without a value
    locals_zeroed: bool  # a local without a value reads as zero (WGSL); else arrays are zeroed by a loop
    func: str  # a function signature: {r} return type, {n} name, {p} parameters
    proc: str  # the signature of a function returning nothing
    select: str  # the conditional expression: {c} {a} (true) {b} (false)
    select_lazy: bool  # it evaluates one side only (GLSL ?:), so memory reads may sit in it
    select_any_type: bool  # it selects records too (WGSL select takes scalars and vectors)
    casts: Mapping[tuple[str, str], str]  # (source, destination) scalar key -> conversion of {a}; else `T(a)`
    bitcast: Mapping[str, str]  # source scalar key -> reinterpretation of {a} as {t}
    shift_rhs: str  # the right operand of `<<` / `>>`
    # math intrinsic -> its spelling ({a}, {b}: the first and last operands, {args}: all); `name:64` the spelling
    # for 64-bit integer operands where it differs; SHADER_MATH holds the spellings both languages share
    math: Mapping[str, str]
    barrier: str
    warp_barrier_features: tuple[str, ...]  # device features a subgroup barrier needs
    mem_fence: str | None  # a memory-only fence (None: the language has none)
    lane_id: str
    warp_size: str
    shuffle: str  # subgroupShuffle of {v} from lane {l}
    shuffle_types: frozenset[str]  # scalar keys a shuffle moves
    subgroup_directives: tuple[str, ...]  # source lines subgroup operations need
    shuffle_directives: tuple[str, ...]  # and shuffles
    index: Mapping[str, str]  # sarek index intrinsic base -> text; {d} dimension, {bx} the block size along it
    payload: PayloadLayout  # where variant payloads live (analysis/payload.py)
    int_helpers: Mapping[str, tuple[str, ...]]  # helper -> (signature with {t} the type, {n} its name, its statements)
    # ---- memory
    reprs: Mapping[str, Repr]  # Storage.repr other than "plain" -> its spellings
    int_atomic_repr: str  # the Storage.repr of an i32 atomic target (a u32 one: this + "_u32" where reprs has it)
    bool_repr: str  # the Storage.repr of a bool buffer
    int_atomics: Mapping[str, str]  # i32 atomic name -> call: {p} the place, {0} {1} the operands
    cas_loop: CasLoop | None  # compare-and-swap as a loop (None: the native atomic_cas of int_atomics)
    float_rmw: FloatRmw  # an f32 read-modify-write on the bits
    f32_atomic_add: NativeF32Add | None  # add/sub/inc/dec on a buffer of float (else float_rmw on the bits)
    shared_array: str  # a workgroup array: {t} element type, {n} name, {k} length
    local_array: str  # a per-thread array
    # ---- switch
    switch_requires_default: bool  # the last case covering every constructor is `default`, else one is added
    case_falls_through: bool  # a case ends with `break`
    # ---- interface
    macros: bool  # scalars are `#define x pc.x` macros of a push-constant block (else fields of `params`)
    param_ref: str  # a scalar parameter or length {} read in the body
    param_bool: str  # a bool parameter read in the body, from its param_ref {}
    param_scalar: Mapping[str, str]  # scalar key -> its type in the parameter block, where not `scalar`
    record_param_attr: str  # a by-value record field of the block (sarek.analysis.shader_params): {s} its size
    params_block: ParamsBlock
    buffer: str  # a storage buffer: {i} binding, {blk} its block name, {t} element type, {n} name
    buffer_block: str | None  # the block's name from the buffer's {} (None: no block)
    version: tuple[str, ...]  # the first source lines
    feature_directives: tuple[tuple[str, str], ...]  # (device feature, the line it needs), in source order
    workgroup_directive: str | None  # the workgroup size as a declaration: {X} {Y} {Z}
    builtin_inputs: tuple[tuple[str, str, str], ...]  # entry inputs copied to private globals: (builtin, name, type)
    subgroup_inputs: tuple[tuple[str, str, str], ...]  # and those subgroup operations read
    private_global: str  # the copy: {n} {t}
    entry_input: str  # the entry point's parameter: {b} builtin, {n} name, {t} type
    entry_copy: str  # the copy's statement: {n}
    entry: str  # the entry point's signature: {X} {Y} {Z} the workgroup size, {p} its parameters
    # warp_any / warp_all / warp_ballot -> (call with {0} the condition, the source lines it needs)
    vote: Mapping[str, tuple[str, tuple[str, ...]]] = dataclasses.field(
        default_factory=dict[str, tuple[str, tuple[str, ...]]])
    # a value computed exactly as written ({t} {n} {v}; its operations neither contracted nor reassociated),
    # for what sarek-expand-math marks `sarek.precise`; None: no qualifier (WGSL: the math library fences)
    precise: str | None = None

    def escape(self, name: str) -> str:
        """The spelling of a name declared unrenamed (the one rule, sarek.analysis.namer.escape)."""
        return namer.escape(self.name, name)


# ------------------------------------------------------------------------------------------------ GLSL


def _glsl_float_rmw(em: Emitter, out: Block, scope: Scope, p: str, o: str, cur: str, x: str, new: str) -> str:
    """A flag-controlled while (naga's SPIR-V reader rejects glslang's `for (;;) { ... break; }` here)."""
    done = em.temp(scope, "sarek_done")
    em.stmt(out, f"uint {o} = {p}")
    em.stmt(out, f"bool {done} = false")
    w = em.O["while"](f"!{done}")
    wb = w.regions[0].block
    em.stmt(wb, f"float {cur} = uintBitsToFloat({o})")
    em.stmt(wb, f"uint {x} = atomicCompSwap({p}, {o}, floatBitsToUint({new}))")
    em.stmt(wb, f"{done} = ({x} == {o})")
    em.stmt(wb, f"{o} = {x}")
    out.add_op(w)
    return f"uintBitsToFloat({o})"


def _glsl_params(O: Ops, fields: Sequence[tuple[str, str, str]], binding: int) -> list[Operation]:
    """A push-constant block `pc` (std430) and a `#define x pc.x` macro per field."""
    ops = [O["global"]("layout(push_constant) uniform PushConstants { "
                       + " ".join(f"{t} {n};" for _, n, t in fields) + " } pc;")]
    return ops + [O["directive"](f"#define {n} pc.{n}") for _, n, _ in fields]


_GLSL_ATOMICS = {"atomic_add": "atomicAdd({p}, {0})", "atomic_sub": "atomicAdd({p}, (-{0}))",
                 "atomic_min": "atomicMin({p}, {0})", "atomic_max": "atomicMax({p}, {0})",
                 "atomic_exch": "atomicExchange({p}, {0})", "atomic_and": "atomicAnd({p}, {0})",
                 "atomic_or": "atomicOr({p}, {0})", "atomic_xor": "atomicXor({p}, {0})",
                 "atomic_inc": "atomicAdd({p}, 1)", "atomic_dec": "atomicAdd({p}, (-1))",
                 "atomic_cas": "atomicCompSwap({p}, {0}, {1})"}

#: the math intrinsics GLSL and WGSL spell alike (each language's `math` adds its own)
SHADER_MATH: dict[str, str] = {
    **{n: f"{n}({{args}})" for n in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp",
                                     "exp2", "log", "log2", "sqrt", "floor", "ceil", "trunc", "fma", "abs", "min",
                                     "max", "pow", "atanh", "ldexp")},
    "fabs": "abs({a})", "fmin": "min({a}, {b})", "fmax": "max({a}, {b})",
}

GLSL = Lang(
    name="glsl", scalar={"i1": "bool", "i32": "int", "i64": "int64_t", "u32": "uint", "u64": "uint64_t",
                         "f32": "float", "f64": "double"},
    i32_suffix="", i64_suffix="L", u32_suffix="u", u64_suffix="UL", f32_suffix="", f64_suffix="lf",
    f32_from_bits="uintBitsToFloat({})", f64_nonfinite="double(uintBitsToFloat({}))",
    f32_to_bits="floatBitsToUint({})",
    field="{t} {n}", let="{t} {n} = {v}", var="{t} {n} = {v}", var_uninit="{t} {n}", locals_zeroed=False,
    precise="precise {t} {n} = {v}", func="{r} {n}({p})", proc="void {n}({p})",
    select="({c} ? {a} : {b})", select_lazy=True, select_any_type=True,
    # sign extension from zero extensions: lavapipe (Mesa 22.3 llvmpipe) compares `int64_t(i32)` against a
    # constant wrongly (`int64_t(-3) < 0L` is false); glslang's SPIR-V and the H200's Vulkan are right, so the
    # fault is Mesa's
    casts={("i32", "i64"): "(int64_t(uint({a})) - (int64_t(uint({a}) >> 31u) << 32))"},
    bitcast={"f32": "floatBitsToInt({a})", "i32": "intBitsToFloat({a})", "f64": "doubleBitsToInt64({a})",
             "i64": "int64BitsToDouble({a})"},
    shift_rhs="{}",
    math={**SHADER_MATH, "rsqrt": "inversesqrt({a})", "atan2": "atan({a}, {b})",
          "log10": "(log2({a}) * 0.30102999566398120)", "clz": "(({a} < 0) ? 0 : (31 - findMSB({a})))",
          "popcount": "bitCount({a})", "bit_reverse": "bitfieldReverse({a})",
          # bitfieldReverse is 32-bit: an int64_t's halves reversed and swapped (int64_t(uint) zero-extends)
          "bit_reverse:64": "((int64_t(bitfieldReverse(uint({a}))) << 32) | int64_t(bitfieldReverse(uint({a} >> 32))))"},
    barrier="barrier()", warp_barrier_features=(), mem_fence="memoryBarrier()",
    lane_id="int(gl_SubgroupInvocationID)", warp_size="int(gl_SubgroupSize)",
    shuffle="subgroupShuffle({v}, uint({l}))", shuffle_types=frozenset({"i32", "f32", "f64"}),
    subgroup_directives=("#extension GL_KHR_shader_subgroup_basic : require",),
    shuffle_directives=("#extension GL_KHR_shader_subgroup_shuffle : require",),
    vote={"warp_any": ("subgroupAny({0})", ("#extension GL_KHR_shader_subgroup_vote : require",)),
          "warp_all": ("subgroupAll({0})", ("#extension GL_KHR_shader_subgroup_vote : require",)),
          "warp_ballot": ("subgroupBallot({0}).x", ("#extension GL_KHR_shader_subgroup_ballot : require",)),
          "warp_ballot64": ("packUint2x32(subgroupBallot({0}).xy)",  # its u64 brings GL_ARB_gpu_shader_int64
                            ("#extension GL_KHR_shader_subgroup_ballot : require",))},
    index={"thread_idx": "int(gl_LocalInvocationID.{d})", "block_idx": "int(gl_WorkGroupID.{d})",
           "block_dim": "int(gl_WorkGroupSize.{d})", "grid_dim": "int(gl_NumWorkGroups.{d})",
           "global_idx": "int(gl_GlobalInvocationID.{d})",
           "global_size": "int(gl_WorkGroupSize.{d} * gl_NumWorkGroups.{d})"},
    payload=PayloadLayout.GLSL,
    # SPIR-V's OpSDiv and OpSRem are undefined for INT_MIN / -1: divide by 1 instead there (x % -1 = x % 1 = 0,
    # x / -1 = -x, which wraps); WGSL defines both (INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0) and needs no idiv
    int_helpers={"irem": ("{t} {n}({t} a, {t} b)", "{t} d = (b == {t}(-1)) ? {t}(1) : b", "return a - d * (a / d)"),
                 "idiv": ("{t} {n}({t} a, {t} b)", "{t} d = (b == {t}(-1)) ? {t}(1) : b",
                          "return (b == {t}(-1)) ? -a : a / d"),
                 "iabs": ("{t} {n}({t} x)", "return (x < {t}(0)) ? -x : x")},
    reprs={"f32bits": Repr("uint", "uintBitsToFloat({})", "{p} = floatBitsToUint({v})"),
           # a shared array a narrow fragment moves through (sarek.lowering.shader.coopmat.NARROW_SHARED): its
           # elements packed in their own type, read and written as the 32-bit words the IR holds (f16: its bits)
           "f16word": Repr("float16_t", "int(packHalf2x16(vec2(float({}), 0.0)))",
                           "{p} = float16_t(unpackHalf2x16(uint({v})).x)", 2),
           "u8word": Repr("uint8_t", "int({})", "{p} = uint8_t({v})", 1),
           "i8word": Repr("int8_t", "int({})", "{p} = int8_t({v})", 1)},
    int_atomic_repr="plain", bool_repr="plain",
    int_atomics=_GLSL_ATOMICS, cas_loop=None, float_rmw=_glsl_float_rmw,
    # f32 add/sub on a buffer: GL_EXT_shader_atomic_float's atomicAdd; the rest (and workgroup memory): the CAS
    # loop (vulkan-glsl runs glslang's SPIR-V on the driver itself, so OpAtomicCompareExchange's result is kept)
    f32_atomic_add=NativeF32Add("atomicAdd({p}, {0})", "shader-float32-atomic"),
    shared_array="shared {t} {n}[{k}];", local_array="{t} {n}[{k}]",
    switch_requires_default=False, case_falls_through=True,
    macros=namer.SHADER_INTERFACE["glsl"].macros, param_ref="{}", param_bool="{}", param_scalar={},
    record_param_attr="", params_block=_glsl_params,
    buffer="layout(std430, set = 0, binding = {i}) buffer {blk} {{ {t} {n}[]; }};", buffer_block=namer.SHADER_INTERFACE["glsl"].block,
    version=("#version 450",),
    feature_directives=(("shader-f64", "#extension GL_ARB_gpu_shader_fp64 : require"),
                        ("shader-int64", "#extension GL_ARB_gpu_shader_int64 : require"),
                        ("shader-float32-atomic", "#extension GL_EXT_shader_atomic_float : require")),
    workgroup_directive="layout(local_size_x = {X}, local_size_y = {Y}, local_size_z = {Z}) in;",
    builtin_inputs=(), subgroup_inputs=(), private_global="", entry_input="", entry_copy="",
    entry="void main()")


# ------------------------------------------------------------------------------------------------ WGSL


def _wgsl_cas_loop(em: Emitter, out: Block, scope: Scope, r: str, ty: str, p: str, expected: str, new: str,
                   result: str) -> None:
    """`var r : ty` = compare-and-swap of `p` (expected, new), as a loop on atomicCompareExchangeWeak (which
    may fail spuriously); `result` spells r's value from the old bits (`{}` stands for them)."""
    em.stmt(out, f"var {r} : {ty}")
    lp = em.O["loop"]()
    x = em.temp(scope, "sarek_x")
    em.stmt(lp.regions[0].block, f"let {x} = atomicCompareExchangeWeak(&{p}, {expected}, {new})")
    brk = em.O["if"](f"{x}.exchanged || {x}.old_value != {expected}")
    em.stmt(brk.regions[0].block, f"{r} = {result.format(f'{x}.old_value')}")
    em.stmt(brk.regions[0].block, "break")
    lp.regions[0].block.add_op(brk)
    out.add_op(lp)


def _wgsl_float_rmw(em: Emitter, out: Block, scope: Scope, p: str, o: str, cur: str, x: str, new: str) -> str:
    """A loop on atomicCompareExchangeWeak, left when the exchange happened."""
    lp = em.O["loop"]()
    lb = lp.regions[0].block
    em.stmt(out, f"var {o} : u32 = atomicLoad(&{p})")
    em.stmt(lb, f"let {cur} : f32 = bitcast<f32>({o})")
    em.stmt(lb, f"let {x} = atomicCompareExchangeWeak(&{p}, {o}, bitcast<u32>({new}))")
    brk = em.O["if"](f"{x}.exchanged")
    em.stmt(brk.regions[0].block, "break")
    lb.add_op(brk)
    em.stmt(lb, f"{o} = {x}.old_value")
    out.add_op(lp)
    return f"bitcast<f32>({o})"


def _wgsl_params(O: Ops, fields: Sequence[tuple[str, str, str]], binding: int) -> list[Operation]:
    """A uniform buffer `params` of struct `Params`, bound after the vectors."""
    return [O["struct"]("Params", [f"{a}{n} : {t}" for a, n, t in fields]),
            O["global"](f"@group(0) @binding({binding}) var<uniform> params : Params;")]


_WGSL_ATOMICS = {"atomic_add": "atomicAdd(&{p}, {0})", "atomic_sub": "atomicSub(&{p}, {0})",
                 "atomic_min": "atomicMin(&{p}, {0})", "atomic_max": "atomicMax(&{p}, {0})",
                 "atomic_exch": "atomicExchange(&{p}, {0})", "atomic_and": "atomicAnd(&{p}, {0})",
                 "atomic_or": "atomicOr(&{p}, {0})", "atomic_xor": "atomicXor(&{p}, {0})",
                 "atomic_inc": "atomicAdd(&{p}, 1i)", "atomic_dec": "atomicSub(&{p}, 1i)"}

WGSL = Lang(
    name="wgsl", scalar={"i1": "bool", "i32": "i32", "i64": None, "u32": "u32", "u64": None, "f32": "f32",
                         "f64": None},
    i32_suffix="i", i64_suffix="L", u32_suffix="u", u64_suffix="", f32_suffix="f", f64_suffix="",
    f32_from_bits="bitcast<f32>({})", f64_nonfinite="0.0",
    f32_to_bits="bitcast<u32>({})",
    field="{n} : {t}", let="let {n} : {t} = {v}", var="var {n} : {t} = {v}", var_uninit="var {n} : {t}",
    locals_zeroed=True, func="fn {n}({p}) -> {r}", proc="fn {n}({p})",
    select="select({b}, {a}, {c})", select_lazy=False, select_any_type=False,
    casts={}, bitcast={"f32": "bitcast<{t}>({a})", "i32": "bitcast<{t}>({a})"},
    shift_rhs="u32({})",
    math={**SHADER_MATH, "rsqrt": "inverseSqrt({a})", "atan2": "atan2({a}, {b})",
          "log10": "(log2({a}) * 0.30102999566398120f)", "clz": "i32(countLeadingZeros(u32({a})))",
          "popcount": "i32(countOneBits(u32({a})))", "bit_reverse": "reverseBits({a})"},
    barrier="workgroupBarrier()", warp_barrier_features=("subgroup-barrier",), mem_fence=None,
    lane_id="i32(sarek_sg_lane)", warp_size="i32(sarek_sg_size)",
    shuffle="subgroupShuffle({v}, u32({l}))", shuffle_types=frozenset({"i32", "f32"}),
    subgroup_directives=(), shuffle_directives=(),
    vote={"warp_any": ("subgroupAny({0})", ()), "warp_all": ("subgroupAll({0})", ()),
          "warp_ballot": ("subgroupBallot({0}).x", ())},
    index={"thread_idx": "i32(sarek_lid.{d})", "block_idx": "i32(sarek_wid.{d})", "block_dim": "{bx}i",
           "grid_dim": "i32(sarek_nwg.{d})", "global_idx": "i32(sarek_gid.{d})",
           "global_size": "i32(sarek_nwg.{d} * {bx}u)"},
    payload=PayloadLayout.WGSL,
    int_helpers={"irem": ("fn {n}(a : {t}, b : {t}) -> {t}", "return a - b * (a / b)"),
                 "iabs": ("fn {n}(x : {t}) -> {t}", "return select(x, -x, x < {t}(0))")},
    reprs={"f32bits": Repr("atomic<u32>", "bitcast<f32>(atomicLoad(&{}))", "atomicStore(&{p}, bitcast<u32>({v}))"),
           "atomic": Repr("atomic<i32>", "atomicLoad(&{})", "atomicStore(&{p}, {v})"),
           "atomic_u32": Repr("atomic<u32>", "atomicLoad(&{})", "atomicStore(&{p}, {v})"),
           "boolbits": Repr("u32", "({} != 0u)", "{p} = select(0u, 1u, {v})")},
    int_atomic_repr="atomic", bool_repr="boolbits",
    int_atomics=_WGSL_ATOMICS, cas_loop=_wgsl_cas_loop, float_rmw=_wgsl_float_rmw, f32_atomic_add=None,
    shared_array="var<workgroup> {n} : array<{t}, {k}>;", local_array="var {n} : array<{t}, {k}>",
    switch_requires_default=True, case_falls_through=False,
    macros=namer.SHADER_INTERFACE["wgsl"].macros, param_ref="params.{}",
    param_bool="({} != 0i)", param_scalar={"i1": "i32"},
    record_param_attr="@align(16) @size({s}) ",
    params_block=_wgsl_params,
    buffer="@group(0) @binding({i}) var<storage, read_write> {n} : array<{t}>;", buffer_block=namer.SHADER_INTERFACE["wgsl"].block,
    version=(), feature_directives=(), workgroup_directive=None,
    builtin_inputs=(("global_invocation_id", "sarek_gid", "vec3<u32>"), ("local_invocation_id", "sarek_lid", "vec3<u32>"),
                    ("workgroup_id", "sarek_wid", "vec3<u32>"), ("num_workgroups", "sarek_nwg", "vec3<u32>")),
    subgroup_inputs=(("subgroup_invocation_id", "sarek_sg_lane", "u32"), ("subgroup_size", "sarek_sg_size", "u32")),
    private_global="var<private> {n} : {t};", entry_input="@builtin({b}) {n}_in : {t}", entry_copy="{n} = {n}_in",
    entry="@compute @workgroup_size({X}, {Y}, {Z})\nfn main({p})")


def err(msg: str, op: Operation | None, lang: Lang) -> SarekError:
    return SarekError(msg, op, display_name(lang.name))
