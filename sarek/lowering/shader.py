"""Lowering of the sarek dialect to the shader target dialects (`sarek_glsl`, `sarek_wgsl`).

Shared engine of `sarek-lower-glsl` and `sarek-lower-wgsl` (sarek/lowering/glsl.py, wgsl.py); the two
languages differ only by the `Lang` spelling tables below. One `shader` op is produced per kernel.

Decisions made here (the printer decides nothing):
- Expressions: pure ops are rendered inline at their use (fully parenthesised); memory reads (`load`,
  `array_read`) are inlined only when their single use chain reaches a statement of the same block with no
  write in between, else they get a temporary. Calls, atomics, warp shuffles, if/match expressions always get
  a temporary, so every inlined text only names immutable values (re-evaluating it anywhere is exact).
- Buffers: one storage buffer per vector parameter, binding = ordinal among vectors. Scalars and vector lengths
  by name: GLSL a push-constant block (lengths first, then scalars, std430) with `#define x pc.x` macros, WGSL a
  `var<uniform> params : Params` (lengths `sarek_<v>_length`, then scalars, 4 bytes each, size rounded to 16)
  bound after the vectors.
- Workgroup size: a compile-time specialization. The `block` option (X,Y,Z; default 256,1,1) is printed into
  the source (`local_size_*` / `@workgroup_size`) and is part of the compiled kernel's key: the Vulkan device
  compiles one shader per (module, kernel, block shape). `block_dim_*` reads that specialization.
- Helpers taking vectors/shared arrays are specialised per actual buffer (`h__a_b`): the body names the
  caller's buffer, whatever the formal's name (the snapshot's same-name defect cannot happen).
- Variants: a struct with `tag` and one field per constructor payload: GLSL `C_v` (one payload) or a hoisted
  `<T>_<C>_payload` struct (several); WGSL flattened `C_v_<i>`. Constructor functions `make_<T>_<C>`. Device
  layouts differ from the host's aligned union layout; `abi` describes both so the runtime repacks.
- Names: escaped (GLSL `v` suffix, WGSL `sarek_` prefix), then made unique against the globals, macros and
  enclosing scopes (`<name>_<k>`; GLSL locals colliding with a push-constant macro `sarek_pc_shadow_<n>_<k>`).
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, Category

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

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _sanitize(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name) or "v"
    if s[0].isdigit():
        s = "v" + s
    return s


@dataclass
class Lang:
    name: str

    @property
    def glsl(self) -> bool:
        return self.name == "glsl"

    def escape(self, name: str) -> str:
        s = _sanitize(name)
        if self.glsl:
            if s.startswith("gl_"):  # a suffix would leave the reserved `gl_` prefix
                s = "v" + s
            elif s in GLSL_KEYWORDS:
                s = s + "v"
            s = re.sub(r"__+", "_", s)  # GLSL reserves names with two consecutive underscores
            return s
        minted = s.startswith("sarek_scalar_shadow_") or s.startswith("sarek_pc_shadow_")
        if s == "_" or s.startswith("__") or (s.startswith("sarek_") and not minted) or s in WGSL_KEYWORDS:
            s = "sarek_" + s
        return s


GLSL = Lang("glsl")
WGSL = Lang("wgsl")


def err(msg: str, op: Operation | None, lang: Lang) -> SarekError:
    return SarekError(msg, op, lang.name)


# ------------------------------------------------------------------------------------------------ layouts


@dataclass
class Leaf:
    host: int
    dev: int
    size: int
    kind: str  # numpy kind code: i4 i8 f4 f8 b4


@dataclass
class ElemLayout:
    """Host (aligned C, §4.9) and device layout of a vector element type."""

    host_size: int
    dev_size: int
    leaves: list[Leaf] = field(default_factory=list[Leaf])
    # variants: per constructor, its payload leaves (tag is leaves[0])
    ctors: list[list[Leaf]] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"host_size": self.host_size, "dev_size": self.dev_size,
                             "leaves": [[x.host, x.dev, x.size, x.kind] for x in self.leaves]}
        if self.ctors is not None:
            d["ctors"] = [[[x.host, x.dev, x.size, x.kind] for x in c] for c in self.ctors]
        return d


def scalar_kind(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        w = t.bitwidth
        return {1: "b4", 32: "i4", 64: "i8"}.get(w, "u1")
    if isinstance(t, Float32Type):
        return "f4"
    if isinstance(t, Float64Type):
        return "f8"
    if isinstance(t, Float16Type):
        return "f2"
    raise ValueError(t)


def int_width(t: Attribute) -> int:
    """The bit width of an integer type; 0 for any other type."""
    return t.bitwidth if isinstance(t, IntegerType) else 0


def scalar_size(t: Attribute) -> int:
    k = scalar_kind(t)
    return int(k[1:])


def _is_swizzle(name: str) -> bool:
    """Whether `name` reads as a GLSL vector swizzle (`.x`, `.xy`, `.rgba`, `.st` ...)."""
    return 1 <= len(name) <= 4 and any(set(name) <= set(cs) for cs in ("xyzw", "rgba", "stpq"))


def _round(x: int, a: int) -> int:
    return (x + a - 1) // a * a


# ------------------------------------------------------------------------------------------------ the engine


def _nuses(v: SSAValue) -> int:
    return sum(1 for _ in v.uses)


READ_OPS = (S.LoadOp, S.ArrayReadOp)
# deepest expression printed inline (rendering recurses per level; compilers limit nesting): deeper trees are
# split with temporaries
MAX_INLINE_DEPTH = 64
PURE_INLINE = (S.ConstantOp, S.BinOp, S.UnOp, S.CastOp, S.FieldOp, S.PayloadOp, S.MakeRecordOp, S.ArrayLenOp,
               S.ElemRefOp, S.FieldRefOp)


def _is_pure_intrinsic(op: Operation) -> bool:
    if not isinstance(op, S.IntrinsicOp):
        return False
    cat = INTRINSICS[op.callee.data].category
    if cat in (Category.INDEX, Category.MATH):
        return True
    return op.callee.data in ("lane_id", "warp_size")


def _is_writer(op: Operation) -> bool:
    """Ops that may change memory or move a convergent op (reads may not be moved across them)."""
    if isinstance(op, S.IntrinsicOp):
        return not _is_pure_intrinsic(op)
    if op.regions:
        return True
    return isinstance(op, S.StoreOp | S.CallOp | S.BarrierOp | S.WarpBarrierOp | S.MemFenceOp | S.NativeOp
                      | S.ReturnOp | S.CoopmatLoadOp | S.CoopmatStoreOp | S.CoopmatMulAddOp)


class Scope:
    def __init__(self, parent: Scope | None = None):
        self.parent = parent
        self.names: set[str] = set()

    def taken(self, n: str) -> bool:
        s: Scope | None = self
        while s is not None:
            if n in s.names:
                return True
            s = s.parent
        return False


@dataclass
class Storage:
    """How a buffer/array holds its elements: 'plain', 'f32bits' (float as u32 bits, for float atomics),
    'atomic' (WGSL atomic<i32>), 'boolbits' (WGSL bool as u32)."""

    name: str
    elem: Attribute
    repr: str = "plain"
    space: str = "global"  # global | shared | local
    length: str | None = None  # expression of the length (vectors)


class ShaderLowering:
    def __init__(self, module: ModuleOp, kernel: S.KernelOp, lang: Lang, block: tuple[int, int, int], ops: Mapping[str, Callable[..., Operation]]):
        self.module = module
        self.kernel = kernel
        self.lang = lang
        self.block = block
        self.O = ops
        self.records: dict[str, S.RecordOp] = {}
        self.variants: dict[str, S.VariantOp] = {}
        self.helpers: dict[str, S.HelperOp] = {}
        for op in module.body.block.ops:
            if isinstance(op, S.RecordOp):
                self.records[op.sym_name.data] = op
            elif isinstance(op, S.VariantOp):
                self.variants[op.sym_name.data] = op
            elif isinstance(op, S.HelperOp):
                self.helpers[op.sym_name.data] = op
        self.globals: set[str] = set()
        self.macros: set[str] = set()
        self.all_source_names: set[str] = set()
        self.features: set[str] = set()
        self.extensions: list[str] = []
        self.polyfills: dict[str, list[Operation]] = {}
        self.warp_helpers: dict[str, Operation] = {}
        self.shared_decls: list[Operation] = []
        self.storage: dict[SSAValue, Storage] = {}  # vec/array values -> storage
        self.vals: dict[SSAValue, str] = {}
        self.exprs: dict[SSAValue, str] = {}
        self.temp_cache: dict[Operation, bool] = {}
        self.depth_cache: dict[Operation, int] = {}
        self.type_names: dict[str, str] = {}
        self.field_names: dict[tuple[str, str], str] = {}
        self.ctor_funcs: list[Operation] = []
        self.struct_ops: list[Operation] = []
        self.uses_index_in_helpers = False
        self.uses_subgroup = False
        self.specs: dict[tuple[str, tuple[str, ...]], str] = {}
        self.spec_ops: list[Operation] = []
        self.spec_stack: list[str] = []
        self.atomic_storage: set[str] = set()
        self.cur_func_ret: Attribute | None = None
        self.shared_names: dict[Operation, str] = {}
        self.shared_declared: dict[Operation, Storage] = {}

    # -------------------------------------------------------------------------------- names

    def reserve_global(self, name: str) -> str:
        base = self.lang.escape(name)
        n = base
        k = 0
        while n in self.globals or n in self.macros:
            k += 1
            n = f"{base}_{k}"
        self.globals.add(n)
        return n

    def local(self, name: str, scope: Scope) -> str:
        base = self.lang.escape(name)
        if self.lang.glsl and base in self.macros:
            k = 1
            while True:
                n = f"sarek_pc_shadow_{base}_{k}"
                if not (scope.taken(n) or n in self.globals or n in self.macros):
                    break
                k += 1
            scope.names.add(n)
            return n
        n = base
        k = 0
        while scope.taken(n) or n in self.globals or n in self.macros or (k and n in self.all_source_names):
            k += 1
            n = f"{base}_{k}"
        scope.names.add(n)
        return n

    def temp(self, scope: Scope, base: str = "sarek_t") -> str:
        n = base
        k = 0
        while scope.taken(n) or n in self.globals or n in self.macros:
            k += 1
            n = f"{base}{k}"
        scope.names.add(n)
        return n

    # -------------------------------------------------------------------------------- types

    def type_name(self, decl: str) -> str:
        if decl not in self.type_names:
            self.type_names[decl] = self.reserve_global(decl.replace(".", "_"))
        return self.type_names[decl]

    def field_name(self, rec: str, f: str) -> str:
        key = (rec, f)
        if key not in self.field_names:
            n = self.lang.escape(f)
            while n in self.macros:
                n = n + "_f"
            self.field_names[key] = n
        return self.field_names[key]

    def ty(self, t: Attribute, op: Operation | None = None) -> str:
        g = self.lang.glsl
        if isinstance(t, IntegerType):
            w = t.bitwidth
            if w == 1:
                return "bool"
            if w == 32:
                return "int" if g else "i32"
            if w == 64:
                if g:
                    return "int64_t"
                raise err("i64 is not supported on wgsl (WGSL has no 64-bit integers)", op, self.lang)
            raise err("ui8 is only a cooperative-matrix operand type; not supported on this backend", op, self.lang)
        if isinstance(t, Float32Type):
            return "float" if g else "f32"
        if isinstance(t, Float64Type):
            if g:
                return "double"
            raise err("f64 is not supported on wgsl (WGSL has no 64-bit floats)", op, self.lang)
        if isinstance(t, Float16Type):
            raise err(self.f16_message(), op, self.lang)
        if isinstance(t, S.RecordType | S.VariantType):
            return self.type_name(t.decl_name)
        if isinstance(t, S.UnitType):
            return "void"
        raise err(f"type {t} has no {self.lang.name} spelling", op, self.lang)

    def f16_message(self) -> str:
        if self.lang.glsl:
            return "f16 not yet supported (#57 slice 2 — GLSL refuses f16 by measurement: narrowing is not RNE-exact on the drivers measured)"
        return "f16 not yet supported (#57 slice 2 — needs `enable f16;` and the shader-f16 feature)"

    # -------------------------------------------------------------------------------- literals

    def lit(self, op: S.ConstantOp) -> str:
        t, v = op.result.type, op.value
        g = self.lang.glsl
        if isinstance(t, S.UnitType) or isinstance(v, UnitAttr):
            return "/* unit */"
        if isinstance(t, IntegerType) and isinstance(v, IntegerAttr):
            x = v.value.data
            w = t.bitwidth
            if w == 1:
                return "true" if x else "false"
            self.ty(op.result.type, op)
            suf = ("" if g else "i") if w == 32 else "L"
            lo = -(1 << (w - 1))
            if x == lo:
                return f"({x + 1}{suf} - 1{suf})"
            return f"{x}{suf}" if x >= 0 else f"(-{-x}{suf})"
        if isinstance(v, FloatAttr):
            x = float(v.value.data)
            self.ty(op.result.type, op)
            dbl = isinstance(t, Float64Type)
            if math.isnan(x) or math.isinf(x):
                if dbl:
                    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
                    return f"(uint64BitsToDouble({bits}UL))" if g else "0.0"
                bits = struct.unpack("<I", struct.pack("<f", x))[0]
                return f"uintBitsToFloat({bits}u)" if g else f"bitcast<f32>({bits}u)"
            s = ("%.17g" % x) if dbl else ("%.9g" % x)
            if "." not in s and "e" not in s and "n" not in s:
                s += ".0"
            if "e" in s and "." not in s.split("e")[0]:
                m, e = s.split("e")
                s = m + ".0e" + e
            s += ("lf" if dbl else "") if g else "f"
            return s if x >= 0 and not s.startswith("-") else f"({s})"
        raise err(f"constant {v} has no {self.lang.name} spelling", op, self.lang)

    def zero(self, t: Attribute, op: Operation | None = None) -> str:
        g = self.lang.glsl
        if isinstance(t, IntegerType):
            if t.bitwidth == 1:
                return "false"
            return ("0" if g else "0i") if t.bitwidth == 32 else "0L"
        if isinstance(t, Float32Type):
            return "0.0" if g else "0.0f"
        if isinstance(t, Float64Type):
            return "0.0lf"
        if isinstance(t, S.RecordType):
            r = self.records[t.decl_name]
            return f"{self.ty(t)}({', '.join(self.zero(ft) for _, ft in r.fields)})"
        if isinstance(t, S.VariantType):
            v = self.variants[t.decl_name]
            parts = ["0" if g else "0i"]
            for c, ps in v.ctors:
                if g:
                    if len(ps) == 1:
                        parts.append(self.zero(ps[0]))
                    elif len(ps) > 1:
                        parts.append(f"{self.payload_struct(t.decl_name, c)}({', '.join(self.zero(p) for p in ps)})")
                else:
                    parts.extend(self.zero(p) for p in ps)
            return f"{self.ty(t)}({', '.join(parts)})"
        raise err(f"no zero value for {t}", op, self.lang)

    # -------------------------------------------------------------------------------- declarations

    def payload_struct(self, vname: str, ctor: str) -> str:
        key = f"{vname}\0{ctor}"
        if key not in self.type_names:
            self.type_names[key] = self.reserve_global(f"{vname.replace('.', '_')}_{ctor}_payload")
        return self.type_names[key]

    def payload_path(self, vname: str, ctor: str, arity: int, i: int) -> str:
        c = _sanitize(ctor)
        if arity <= 1:
            return f"{c}_v"
        return f"{c}_v._{i}" if self.lang.glsl else f"{c}_v_{i}"

    def tag_const(self, vname: str, ctor: str) -> str:
        v = self.variants[vname]
        return f"{v.ctor_index(ctor)}" + ("" if self.lang.glsl else "i")

    def decl_types(self) -> None:
        """Records and variants in dependency order (records first on ties), with constructor functions."""
        order: list[S.RecordOp | S.VariantOp] = [*self.records.values(), *self.variants.values()]
        names = {(o.sym_name.data) for o in order}

        def deps(o: S.RecordOp | S.VariantOp) -> set[str]:
            ts: list[Attribute] = []
            if isinstance(o, S.RecordOp):
                ts = [t for _, t in o.fields]
            else:
                ts = [t for _, ps in o.ctors for t in ps]
            out: set[str] = set()
            for t in ts:
                out |= set(S.referenced_decls(t))
            return (out & names) - {o.sym_name.data}

        placed: list[S.RecordOp | S.VariantOp] = []
        done: set[str] = set()
        rest = list(order)
        while rest:
            for o in rest:
                if deps(o) <= done:
                    placed.append(o)
                    done.add(o.sym_name.data)
                    rest.remove(o)
                    break
            else:
                raise err("record/variant declarations form a cycle: " + ", ".join(
                    ("record " if isinstance(o, S.RecordOp) else "variant ") + o.sym_name.data for o in rest), None, self.lang)
        for o in placed:
            if isinstance(o, S.RecordOp):
                self.decl_record(o)
            else:
                self.decl_variant(o)

    def fdecl(self, name: str, t: Attribute, op: Operation | None) -> str:
        if not self.lang.glsl and t == IntegerType(1):
            pass
        return f"{self.ty(t, op)} {name}" if self.lang.glsl else f"{name} : {self.ty(t, op)}"

    def decl_record(self, r: S.RecordOp) -> None:
        nm = self.type_name(r.sym_name.data)
        fields = [self.fdecl(self.field_name(r.sym_name.data, f), t, r) for f, t in r.fields]
        self.struct_ops.append(self.O["struct"](nm, fields))

    def decl_variant(self, v: S.VariantOp) -> None:
        vn = v.sym_name.data
        nm = self.type_name(vn)
        g = self.lang.glsl
        fields = [self.fdecl("tag", IntegerType(32), v)]
        for c, ps in v.ctors:
            if len(ps) == 1:
                fields.append(self.fdecl(self.payload_path(vn, c, 1, 0), ps[0], v))
            elif len(ps) > 1:
                if g:
                    pn = self.payload_struct(vn, c)
                    self.struct_ops.append(self.O["struct"](pn, [self.fdecl(f"_{i}", p, v) for i, p in enumerate(ps)]))
                    fields.append(f"{pn} {_sanitize(c)}_v")
                else:
                    fields.extend(self.fdecl(self.payload_path(vn, c, len(ps), i), p, v) for i, p in enumerate(ps))
        self.struct_ops.append(self.O["struct"](nm, fields))
        vt = S.VariantType(vn)
        for c, ps in v.ctors:
            fn = self.reserve_global(f"make_{vn.replace('.', '_')}_{c}")
            self.type_names[f"make\0{vn}\0{c}"] = fn
            params = [self.fdecl(f"v{i}", p, v) for i, p in enumerate(ps)]
            if g:
                sig = f"{nm} {fn}({', '.join(params)})"
                body = [f"{nm} r = {self.zero(vt)}", f"r.tag = {self.tag_const(vn, c)}"]
            else:
                sig = f"fn {fn}({', '.join(params)}) -> {nm}"
                body = [f"var r : {nm}", f"r.tag = {self.tag_const(vn, c)}"]
            for i in range(len(ps)):
                body.append(f"r.{self.payload_path(vn, c, len(ps), i)} = v{i}")
            body.append("return r")
            f = self.O["func"](sig)
            for s in body:
                f.regions[0].block.add_op(self.O["stmt"](s))
            self.ctor_funcs.append(f)

    # ---- element layouts (host aligned C vs device)

    def host_layout(self, t: Attribute, op: Operation | None) -> tuple[int, int, list[tuple[int, Attribute]]]:
        """(size, align, [(offset, scalar type)]) per §4.9."""
        if S.is_scalar_type(t):
            s = scalar_size(t)
            return s, s, [(0, t)]
        if isinstance(t, S.RecordType):
            return self._host_fields([ft for _, ft in self.records[t.decl_name].fields], op)
        raise err(f"no host layout for {t}", op, self.lang)

    def _host_fields(self, ts: Sequence[Attribute], op: Operation | None) -> tuple[int, int, list[tuple[int, Attribute]]]:
        off, maxa = 0, 1
        leaves: list[tuple[int, Attribute]] = []
        for ft in ts:
            if isinstance(ft, S.VariantType):
                raise err("a variant nested in a record or payload has no layout (Nested_variant)", op, self.lang)
            s, a, ls = self.host_layout(ft, op)
            off = _round(off, a)
            leaves += [(off + o, lt) for o, lt in ls]
            off += s
            maxa = max(maxa, a)
        return _round(off, maxa), maxa, leaves

    def _host_offsets(self, ts: Sequence[Attribute], op: Operation | None) -> list[int]:
        off = 0
        out: list[int] = []
        for ft in ts:
            sz, a, _ = self.host_layout(ft, op)
            off = _round(off, a)
            out.append(off)
            off += sz
        return out

    def dev_layout(self, t: Attribute, op: Operation | None) -> tuple[int, int, list[tuple[int, Attribute]]]:
        """Device layout of the struct as declared here (std430 / WGSL storage): for scalars and records it
        equals the host layout."""
        return self.host_layout(t, op)

    def elem_layout(self, t: Attribute, op: Operation | None) -> ElemLayout:
        if isinstance(t, S.VariantType):
            v = self.variants[t.decl_name]
            # host: tag@0, payload at P = max(4, max align), each ctor's payload a record of its payloads
            maxa = 4
            pl: list[tuple[int, int, list[tuple[int, Attribute]]]] = []
            for _, ps in v.ctors:
                empty: tuple[int, int, list[tuple[int, Attribute]]] = (0, 1, [])
                lay = self._host_fields(ps, op) if ps else empty
                pl.append(lay)
                maxa = max(maxa, lay[1])
            P = maxa
            host_size = _round(P + max((x[0] for x in pl), default=0), maxa)
            # device: tag, then per ctor (GLSL: scalar or nested struct; WGSL: flat fields), sequentially
            off = 4
            dmax = 4
            ctors: list[list[Leaf]] = []
            for (_, ps), lay in zip(v.ctors, pl):
                cl: list[Leaf] = []
                if ps:
                    if self.lang.glsl and len(ps) > 1:
                        a = lay[1]
                        off = _round(off, a)
                        for (ho, lt) in lay[2]:
                            cl.append(Leaf(P + ho, off + ho, scalar_size(lt), scalar_kind(lt)))
                        off += lay[0]
                        dmax = max(dmax, a)
                    else:
                        # flat (WGSL, or a single payload): each payload at its own alignment
                        hoffs = self._host_offsets(ps, op)
                        for j, p in enumerate(ps):
                            s, a, ls = self.host_layout(p, op)
                            off = _round(off, a)
                            for (lo, lt) in ls:
                                cl.append(Leaf(P + hoffs[j] + lo, off + lo, scalar_size(lt), scalar_kind(lt)))
                            off += s
                            dmax = max(dmax, a)
                ctors.append(cl)
            dev_size = _round(off, dmax)
            return ElemLayout(host_size, dev_size, [Leaf(0, 0, 4, "i4")], ctors)
        s, _, ls = self.host_layout(t, op)
        return ElemLayout(s, s, [Leaf(o, o, scalar_size(x), scalar_kind(x)) for o, x in ls])

    # -------------------------------------------------------------------------------- analysis

    def check_features(self) -> None:
        """Whole-kernel type gate (kernel, reachable helpers, declarations)."""
        types: list[tuple[Attribute, Operation]] = []
        for d in [*self.records.values(), *self.variants.values()]:
            if isinstance(d, S.RecordOp):
                types += [(t, d) for _, t in d.fields]
            else:
                types += [(t, d) for _, ps in d.ctors for t in ps]
        funcs: list[Operation] = [self.kernel, *self.reachable_helpers()]
        for f in funcs:
            if isinstance(f, S.HelperOp):
                types.append((f.return_type, f))
            for op in f.walk():
                for r in op.results:
                    types.append((r.type, op))
                for reg in op.regions:
                    for b in reg.blocks:
                        types += [(a.type, op) for a in b.args]
                if isinstance(op, S.NativeOp):
                    raise err("%native is refused: its source text is for a named framework and this "
                              "generator is given none", op, self.lang)
                if isinstance(op, S.CoopmatDeclOp | S.CoopmatLoadOp | S.CoopmatStoreOp | S.CoopmatMulAddOp):
                    raise err("cooperative matrices are not supported on this backend", op, self.lang)
        for t, op in types:
            while isinstance(t, S.VecType | S.ArrayType | S.RefType):
                t = t.element_type
            if isinstance(t, Float16Type):
                raise err(self.f16_message(), op, self.lang)
            if isinstance(t, Float64Type):
                if not self.lang.glsl:
                    raise err("f64 not supported (WGSL has no 64-bit floats)", op, self.lang)
                self.features.add("shader-f64")
            if int_width(t) == 64:
                if not self.lang.glsl:
                    raise err("i64 not supported (WGSL has no 64-bit integers)", op, self.lang)
                self.features.add("shader-int64")
            if int_width(t) == 8:
                raise err("ui8 is only a cooperative-matrix operand type; not supported on this backend", op, self.lang)

    def reachable_helpers(self) -> list[S.HelperOp]:
        seen: dict[str, S.HelperOp] = {}
        stack: list[Operation] = [self.kernel]
        while stack:
            f = stack.pop()
            for op in f.walk():
                if isinstance(op, S.CallOp):
                    h = self.helpers.get(op.callee_name)
                    if h is None:
                        raise err(f"call of an undeclared helper @{op.callee_name}", op, self.lang)
                    if h.sym_name.data not in seen:
                        seen[h.sym_name.data] = h
                        stack.append(h)
        return list(seen.values())

    def collect_source_names(self) -> None:
        for f in [self.kernel, *self.helpers.values()]:
            self.all_source_names.update(n.data for n in f.param_names)
            for op in f.walk():
                n: object = getattr(op.properties.get("name"), "data", None)
                if isinstance(n, str):
                    self.all_source_names.add(n)
                if isinstance(op, S.MatchOp | S.MatchExprOp):
                    for _, bs, _ in op.case_list():
                        self.all_source_names.update(bs)

    def collect_atomics(self) -> None:
        """Names of buffers/shared arrays used as an atomic target, resolved through helper calls."""

        def walk(f: Operation, env: dict[SSAValue, str]) -> None:
            for op in f.walk():
                if isinstance(op, S.IntrinsicOp) and INTRINSICS[op.callee.data].category == Category.ATOMIC:
                    base = op.args[0]
                    if base in env:
                        self.atomic_storage.add(env[base])
                elif isinstance(op, S.AllocArrayOp):
                    env[op.result] = f"alloc:{id(op)}"
                elif isinstance(op, S.CallOp):
                    h = self.helpers[op.callee_name]
                    if h.sym_name.data in stack:
                        continue
                    sub: dict[SSAValue, str] = {a: env[x] for a, x in zip(h.body.block.args, op.args) if x in env}
                    stack.append(h.sym_name.data)
                    walk(h, sub)
                    stack.pop()

        stack: list[str] = []
        walk(self.kernel, {a: f"param:{a.index}" for a in self.kernel.body.block.args if isinstance(a.type, S.VecType)})

    # -------------------------------------------------------------------------------- value rendering

    def needs_temp(self, op: Operation) -> bool:
        if op in self.temp_cache:
            return self.temp_cache[op]
        r = self._needs_temp(op)
        self.temp_cache[op] = r
        return r

    def _needs_temp(self, op: Operation) -> bool:
        if isinstance(op, READ_OPS):
            return not self._read_inlinable(op)
        if isinstance(op, PURE_INLINE) or _is_pure_intrinsic(op):
            if isinstance(op, S.ElemRefOp | S.FieldRefOp | S.ConstantOp | S.ArrayLenOp):
                return False
            if isinstance(op, S.IntrinsicOp) and INTRINSICS[op.callee.data].category == Category.INDEX:
                return False
            if op.results and _nuses(op.results[0]) > 1:
                return True
            return False
        return True

    def inline_depth(self, op: Operation) -> int:
        """Nesting of `op`'s text with its not-yet-named operands printed inline; called as lower_op visits ops
        in program order, so every operand has been visited (a named one, in `vals`, counts 0)."""
        d = 0
        for x in op.operands:
            if x not in self.vals and isinstance(o := x.owner, Operation):
                d = max(d, self.depth_cache.get(o, 0))
        self.depth_cache[op] = d + 1
        return d + 1

    def _read_inlinable(self, op: Operation) -> bool:
        blk = op.parent_block()
        cur = op
        while True:
            res = cur.results[0]
            uses = list(res.uses)
            if len(uses) != 1:
                return False
            u = uses[0].operation
            if u.parent_block() is not blk:
                return False
            if (isinstance(u, PURE_INLINE) or _is_pure_intrinsic(u) or isinstance(u, READ_OPS)) and not (
                    not isinstance(u, READ_OPS) and self.needs_temp(u)):
                if isinstance(u, READ_OPS) and self.needs_temp(u):
                    break
                cur = u
                continue
            break
        # u is the consumer statement; no writer strictly between op and u
        assert blk is not None
        o = op.next_op
        while o is not None and o is not u:
            if _is_writer(o):
                return False
            o = o.next_op
        return True

    def expr(self, v: SSAValue) -> str:
        if v in self.vals:
            return self.vals[v]
        if v in self.exprs:
            return self.exprs[v]
        if isinstance(v, BlockArgument):
            raise err("internal: unbound block argument", None, self.lang)
        op = cast(OpResult, v).op
        text = self.render(op)
        self.exprs[v] = text
        return text

    def place(self, v: SSAValue) -> tuple[str, Storage | None]:
        """Text of a place (a `!sarek.ref` value) and the storage it lives in (None for locals)."""
        if v in self.vals:
            return self.vals[v], None
        op = cast(OpResult, v).op
        if isinstance(op, S.ElemRefOp):
            st = self.storage_of(op.array, op)
            return f"{st.name}[{self.index(op.index)}]", st
        if isinstance(op, S.FieldRefOp):
            base, st = self.place(op.base)
            rt = cast(S.RefType, op.base.type).element_type
            assert isinstance(rt, S.RecordType)
            return f"{base}.{self.field_name(rt.decl_name, op.field.data)}", st
        raise err(f"internal: {op.name} is not a place", op, self.lang)

    def index(self, v: SSAValue) -> str:
        t = self.expr(v)
        if int_width(v.type) == 64:
            return f"int({t})"
        return t

    def storage_of(self, v: SSAValue, op: Operation | None) -> Storage:
        if v in self.storage:
            return self.storage[v]
        raise err("internal: unknown array", op, self.lang)

    def read_place(self, text: str, st: Storage | None) -> str:
        if st is None or st.repr == "plain":
            return text
        g = self.lang.glsl
        if st.repr == "f32bits":
            return f"uintBitsToFloat({text})" if g else f"bitcast<f32>(atomicLoad(&{text}))"
        if st.repr == "atomic":
            return f"atomicLoad(&{text})"
        if st.repr == "boolbits":
            return f"({text} != 0u)"
        return text

    def write_place(self, text: str, st: Storage | None, value: str) -> str:
        if st is None or st.repr == "plain":
            return f"{text} = {value}"
        g = self.lang.glsl
        if st.repr == "f32bits":
            return f"{text} = floatBitsToUint({value})" if g else f"atomicStore(&{text}, bitcast<u32>({value}))"
        if st.repr == "atomic":
            return f"atomicStore(&{text}, {value})"
        if st.repr == "boolbits":
            return f"{text} = select(0u, 1u, {value})"
        return f"{text} = {value}"

    def render(self, op: Operation) -> str:
        if isinstance(op, S.ConstantOp):
            return self.lit(op)
        if isinstance(op, S.BinOp):
            return self.binop(op)
        if isinstance(op, S.UnOp):
            a = self.expr(op.operand)
            sym = {"neg": "-", "not": "!", "bitnot": "~"}[op.kind.data.value]
            return f"({sym}{a})"
        if isinstance(op, S.CastOp):
            src, dst = op.operand.type, op.result.type
            a = self.expr(op.operand)
            if src == dst:
                return a
            if isinstance(dst, Float16Type) or isinstance(src, Float16Type):
                raise err(self.f16_message(), op, self.lang)
            return f"{self.ty(dst, op)}({a})"
        if isinstance(op, S.FieldOp):
            rt = op.record.type
            assert isinstance(rt, S.RecordType)
            return f"{self.expr(op.record)}.{self.field_name(rt.decl_name, op.field.data)}"
        if isinstance(op, S.PayloadOp):
            vt = op.variant.type
            assert isinstance(vt, S.VariantType)
            ps = self.variants[vt.decl_name].payload(op.ctor.data) or []
            return f"{self.expr(op.variant)}.{self.payload_path(vt.decl_name, op.ctor.data, len(ps), op.index.value.data)}"
        if isinstance(op, S.MakeRecordOp):
            return f"{self.ty(op.result.type, op)}({', '.join(self.expr(a) for a in op.fields)})"
        if isinstance(op, S.MakeVariantOp):
            vt = op.result.type
            assert isinstance(vt, S.VariantType)
            fn = self.type_names[f"make\0{vt.decl_name}\0{op.ctor.data}"]
            return f"{fn}({', '.join(self.expr(a) for a in op.payload)})"
        if isinstance(op, S.ArrayLenOp):
            st = self.storage_of(op.array, op)
            assert st.length is not None
            return st.length
        if isinstance(op, S.LoadOp):
            t, st = self.place(op.ref)
            return self.read_place(t, st)
        if isinstance(op, S.ArrayReadOp):
            st = self.storage_of(op.array, op)
            return self.read_place(f"{st.name}[{self.index(op.index)}]", st)
        if isinstance(op, S.IntrinsicOp):
            return self.intrinsic(op)
        raise err(f"internal: {op.name} has no expression form", op, self.lang)

    def binop(self, op: S.BinOp) -> str:
        g = self.lang.glsl
        k = op.kind.data.value
        a, b = self.expr(op.lhs), self.expr(op.rhs)
        t = op.lhs.type
        if k == "rem":
            # GLSL % is undefined for negatives; WGSL % on i32 came out unsigned on NVIDIA (H200, naga -> SPIR-V)
            self.need_poly("irem", t)
            return f"sarek_irem({a}, {b})"
        if k in ("shl", "shr") and not g:
            return f"({a} {'<<' if k == 'shl' else '>>'} u32({b}))"
        sym = {"add": "+", "sub": "-", "mul": "*", "div": "/", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
               "gt": ">", "ge": ">=", "and": "&&", "or": "||", "shl": "<<", "shr": ">>", "bitand": "&",
               "bitor": "|", "bitxor": "^"}[k]
        return f"({a} {sym} {b})"

    # -------------------------------------------------------------------------------- intrinsics

    def intrinsic(self, op: S.IntrinsicOp) -> str:
        name = op.callee.data
        cat = INTRINSICS[name].category
        if cat == Category.INDEX:
            return self.index_intrinsic(name, op)
        if name in ("lane_id", "warp_size"):
            self.use_subgroups(op, shuffle=False)
            if self.lang.glsl:
                return "int(gl_SubgroupInvocationID)" if name == "lane_id" else "int(gl_SubgroupSize)"
            return "i32(sarek_sg_lane)" if name == "lane_id" else "i32(sarek_sg_size)"
        if cat == Category.MATH:
            return self.math(op)
        raise err(f"internal: intrinsic {name} is a statement", op, self.lang)

    def index_intrinsic(self, name: str, op: Operation) -> str:
        g = self.lang.glsl
        if name == "global_thread_id":
            name = "global_idx_x"
        if name == "global_size":
            name = "global_size_x"
        base, d = name.rsplit("_", 1)
        bx = dict(zip("xyz", self.block))[d]
        if g:
            m = {"thread_idx": f"int(gl_LocalInvocationID.{d})", "block_idx": f"int(gl_WorkGroupID.{d})",
                 "block_dim": f"int(gl_WorkGroupSize.{d})", "grid_dim": f"int(gl_NumWorkGroups.{d})",
                 "global_idx": f"int(gl_GlobalInvocationID.{d})",
                 "global_size": f"int(gl_WorkGroupSize.{d} * gl_NumWorkGroups.{d})"}
        else:
            m = {"thread_idx": f"i32(sarek_lid.{d})", "block_idx": f"i32(sarek_wid.{d})",
                 "block_dim": f"{bx}i", "grid_dim": f"i32(sarek_nwg.{d})",
                 "global_idx": f"i32(sarek_gid.{d})", "global_size": f"i32(sarek_nwg.{d} * {bx}u)"}
        if base not in m:
            raise err(f"unknown index intrinsic '{name}'", op, self.lang)
        return m[base]

    def need_poly(self, name: str, t: Attribute) -> str:
        """Declare a polyfill helper for type t; returns its name."""
        g = self.lang.glsl
        T = self.ty(t)
        key = f"{name}:{T}"
        fname = f"sarek_{name}"
        if key in self.polyfills:
            return fname
        one = "1.0" if g else "1.0f"
        if isinstance(t, Float64Type):
            one = "1.0lf"
        half = {"float": "0.5", "double": "0.5lf", "f32": "0.5f"}.get(T, "0.5")
        zero = {"float": "0.0", "double": "0.0lf", "f32": "0.0f"}.get(T, "0.0")
        # hypot scales by the larger magnitude (x * x overflows from 1.9e19 in f32); expm1 and log1p use series
        # near 0 (exp(x) - 1 and log(1 + x) lose every digit there); pow takes C's sign for a negative base and an
        # integer exponent, and 1 for y == 0 or x == 1 (GLSL/WGSL pow is undefined for x <= 0)
        hyp = [f"{T} ax = abs(x)", f"{T} ay = abs(y)", f"{T} m = max(ax, ay)", f"{T} r = min(ax, ay) / m"] if g else \
            ["let ax = abs(x)", "let ay = abs(y)", "let m = max(ax, ay)", "let r = min(ax, ay) / m"]
        sfx = "" if g else "f"  # expm1/log1p/pow are f32 only (f64 transcendental functions are refused)

        def horner(v: str, coeffs: list[float]) -> str:
            out = f"{coeffs[-1]!r}{sfx}"
            for c in reversed(coeffs[:-1]):
                out = f"({c!r}{sfx} + {v} * {out})"
            return out

        # near 0: Taylor series (the drivers' exp and log are only absolutely accurate around 1, so Kahan's
        # corrections do not help); log1p through 2 atanh(x / (2 + x))
        em1_poly = f"x * {horner('x', [1.0 / math.factorial(k) for k in range(1, 11)])}"
        l1p_poly = f"2.0{sfx} * s * {horner('s2', [1.0 / (2 * k + 1) for k in range(9)])}"
        if g:
            bodies = {
                "irem": (f"{T} sarek_irem({T} a, {T} b)", [f"return a - b * (a / b)"]),
                "fmod": (f"{T} sarek_fmod({T} x, {T} y)", ["return x - y * trunc(x / y)"]),
                "hypot": (f"{T} sarek_hypot({T} x, {T} y)",
                          [*hyp, f"return (m == {zero} || isinf(m)) ? m : m * sqrt({one} + r * r)"]),
                "expm1": (f"{T} sarek_expm1({T} x)", [f"return (abs(x) > {half}) ? exp(x) - {one} : {em1_poly}"]),
                "log1p": (f"{T} sarek_log1p({T} x)",
                          [f"{T} s = x / (2.0 + x)", f"{T} s2 = s * s",
                           f"return (abs(x) > {half}) ? log({one} + x) : {l1p_poly}"]),
                "pow": (f"{T} sarek_pow({T} x, {T} y)",
                        [f"{T} ax = abs(x)", "bool yint = trunc(y) == y",
                         f"bool yodd = yint && fract(y * {half}) != {zero}",
                         f"{T} r = (ax == {zero}) ? ((y < {zero}) ? uintBitsToFloat(0x7f800000u) : {zero}) : pow(ax, y)",
                         f"r = (x < {zero} && yodd) ? -r : r",
                         f"r = (x < {zero} && !yint) ? uintBitsToFloat(0x7fc00000u) : r",
                         f"return (y == {zero} || x == {one}) ? {one} : r"]),
                "cbrt": (f"{T} sarek_cbrt({T} x)", [f"return sign(x) * pow(abs(x), {one} / 3.0)"]),
                "round": (f"{T} sarek_round({T} x)", ["%s t = trunc(x)" % T,
                                                       f"return (abs(x - t) >= {half}) ? t + sign(x) : t"]),
                "copysign": (f"{T} sarek_copysign({T} x, {T} y)",
                             ["return uintBitsToFloat((floatBitsToUint(x) & 0x7fffffffu) | (floatBitsToUint(y) & 0x80000000u))"]
                             if T == "float" else ["return (sign(y) < 0.0lf || (y == 0.0lf && 1.0lf / y < 0.0lf)) ? -abs(x) : abs(x)"]),
            }
        else:
            bodies = {
                "irem": (f"fn sarek_irem(a : {T}, b : {T}) -> {T}", ["return a - b * (a / b)"]),
                "fmod": (f"fn sarek_fmod(x : {T}, y : {T}) -> {T}", ["return x - y * trunc(x / y)"]),
                "hypot": (f"fn sarek_hypot(x : {T}, y : {T}) -> {T}",
                          [*hyp, f"return select(m * sqrt({one} + r * r), m, m == {zero})"]),
                "expm1": (f"fn sarek_expm1(x : {T}) -> {T}",
                          [f"if (abs(x) > {half}) {{ return exp(x) - {one}; }}", f"return {em1_poly}"]),
                "log1p": (f"fn sarek_log1p(x : {T}) -> {T}",
                          [f"if (abs(x) > {half}) {{ return log({one} + x); }}", f"let s = x / (2.0f + x)",
                           "let s2 = s * s", f"return {l1p_poly}"]),
                "pow": (f"fn sarek_pow(x : {T}, y : {T}) -> {T}",
                        ["let ax = abs(x)", "let yint = trunc(y) == y",
                         f"let yodd = yint && fract(y * {half}) != {zero}",
                         f"if (y == {zero} || x == {one}) {{ return {one}; }}",
                         f"if (ax == {zero}) {{ return select({zero}, {one} / ax, y < {zero}); }}",
                         "let r = pow(ax, y)",
                         f"if (x < {zero} && !yint) {{ return pow(x, y); }}",
                         f"return select(r, -r, x < {zero} && yodd)"]),
                "cbrt": (f"fn sarek_cbrt(x : {T}) -> {T}", [f"return sign(x) * pow(abs(x), {one} / 3.0f)"]),
                "round": (f"fn sarek_round(x : {T}) -> {T}", [f"let t : {T} = trunc(x)",
                                                                 f"return select(t, t + sign(x), abs(x - t) >= {half})"]),
                "copysign": (f"fn sarek_copysign(x : {T}, y : {T}) -> {T}",
                             ["return bitcast<f32>((bitcast<u32>(x) & 0x7fffffffu) | (bitcast<u32>(y) & 0x80000000u))"]),
            }
        sig, body = bodies[name]
        f = self.O["func"](sig)
        for s in body:
            f.regions[0].block.add_op(self.O["stmt"](s))
        self.polyfills[key] = [f]
        return fname

    def math(self, op: S.IntrinsicOp) -> str:
        g = self.lang.glsl
        name = op.callee.data
        args = [self.expr(a) for a in op.args]
        t = op.args[0].type
        dbl = isinstance(t, Float64Type)
        if dbl and name not in ("sqrt", "rsqrt", "floor", "ceil", "trunc", "round", "fabs", "fmin", "fmax", "fma",
                                "abs", "min", "max", "fmod", "hypot", "copysign"):
            raise err(f"'{name}' on f64 has no GLSL spelling (GLSL transcendental functions are float-only)",
                      op, self.lang)
        if int_width(t) == 64 and name in ("clz", "popcount"):
            raise err(f"'{name}' on i64 is not supported on glsl", op, self.lang)
        simple = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2",
                  "sqrt", "floor", "ceil", "trunc", "fma", "abs", "min", "max"}
        if name in simple:
            return f"{name}({', '.join(args)})"
        a = args[0]
        if name == "fabs":
            return f"abs({a})"
        if name == "rsqrt":
            return f"inversesqrt({a})" if g else f"inverseSqrt({a})"
        if name == "atan2":
            return f"atan({args[0]}, {args[1]})" if g else f"atan2({args[0]}, {args[1]})"
        if name == "fmin":
            return f"min({args[0]}, {args[1]})"
        if name == "fmax":
            return f"max({args[0]}, {args[1]})"
        if name == "log10":
            return f"(log2({a}) * {'0.30102999566398120' if g else '0.30102999566398120f'})"
        if name in ("fmod", "hypot", "cbrt", "round", "copysign", "expm1", "log1p", "pow"):
            return f"{self.need_poly(name, t)}({', '.join(args)})"
        if name == "clz":
            return f"(({a} < 0) ? 0 : (31 - findMSB({a})))" if g else f"i32(countLeadingZeros(u32({a})))"
        if name == "popcount":
            return f"bitCount({a})" if g else f"i32(countOneBits(u32({a})))"
        raise err(f"math intrinsic '{name}' has no {self.lang.name} spelling", op, self.lang)

    def use_subgroups(self, op: Operation, shuffle: bool) -> None:
        self.uses_subgroup = True
        self.features.add("subgroup")
        if self.lang.glsl:
            if "#extension GL_KHR_shader_subgroup_basic : require" not in self.extensions:
                self.extensions.append("#extension GL_KHR_shader_subgroup_basic : require")
            if shuffle and "#extension GL_KHR_shader_subgroup_shuffle : require" not in self.extensions:
                self.extensions.append("#extension GL_KHR_shader_subgroup_shuffle : require")

    def warp_helper(self, op: S.IntrinsicOp) -> str:
        g = self.lang.glsl
        name = op.callee.data
        t = op.result.type
        if not (isinstance(t, Float32Type) or (int_width(t) == 32)
                or (g and isinstance(t, Float64Type))):
            raise err(f"'{name}' on {t} is not supported on {self.lang.name}", op, self.lang)
        self.use_subgroups(op, shuffle=True)
        if g:
            self.features.add("subgroup")
        T = self.ty(t, op)
        kind = name.removeprefix("warp_shuffle").lstrip("_") or "idx"
        fname = f"sarek_{name}_{T}"
        if fname in self.warp_helpers:
            return fname
        # (condition for a valid source lane, the source lane)
        ux, ok = ("uint(x)", "x >= 0") if g else ("u32(x)", "x >= 0i")
        c, s = {
            "idx": (f"{ok} && {ux} < w", ux),
            "down": (f"{ok} && lane + {ux} < w", f"lane + {ux}"),
            "up": (f"{ok} && {ux} <= lane", f"lane - {ux}"),
            "xor": (f"{ok} && (lane ^ {ux}) < w", f"lane ^ {ux}"),
        }[kind]
        if g:
            f = self.O["func"](f"{T} {fname}({T} v, int x)")
            body = ["uint lane = gl_SubgroupInvocationID", "uint w = gl_SubgroupSize",
                    f"uint src = ({c}) ? ({s}) : lane", "return subgroupShuffle(v, src)"]
        else:
            f = self.O["func"](f"fn {fname}(v : {T}, x : i32) -> {T}")
            body = ["let lane : u32 = sarek_sg_lane", "let w : u32 = sarek_sg_size",
                    f"let src : u32 = select(lane, {s}, {c})", "return subgroupShuffle(v, src)"]
        for st in body:
            f.regions[0].block.add_op(self.O["stmt"](st))
        self.warp_helpers[fname] = f
        return fname

    # -------------------------------------------------------------------------------- statements

    def stmt(self, out: Block, text: str) -> None:
        out.add_op(self.O["stmt"](text))

    def declare(self, out: Block, scope: Scope, name: str, t: Attribute, value: str | None, op: Operation,
                mutable: bool) -> str:
        T = self.ty(t, op)
        if self.lang.glsl:
            self.stmt(out, f"{T} {name} = {value}" if value is not None else f"{T} {name}")
        else:
            kw = "var" if mutable or value is None else "let"
            self.stmt(out, f"{kw} {name} : {T} = {value}" if value is not None else f"var {name} : {T}")
        return name

    def materialize(self, op: Operation, out: Block, scope: Scope, text: str) -> None:
        r = op.results[0]
        n = self.temp(scope)
        self.declare(out, scope, n, r.type, text, op, mutable=False)
        self.vals[r] = n

    def lower_block(self, block: Block, out: Block, scope: Scope) -> None:
        for op in block.ops:
            self.lower_op(op, out, scope)

    def sub(self, region: Region, scope: Scope, out_op: Operation, idx: int) -> Scope:
        s = Scope(scope)
        self.lower_block(region.block, out_op.regions[idx].block, s)
        return s

    def lower_op(self, op: Operation, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        O = self.O
        if isinstance(op, PURE_INLINE + READ_OPS) or _is_pure_intrinsic(op):
            if op.results and isinstance(op.results[0].type, S.RefType | S.VecType | S.ArrayType):
                return
            if self.needs_temp(op) or self.inline_depth(op) > MAX_INLINE_DEPTH:
                self.materialize(op, out, scope, self.render(op))
            return
        if isinstance(op, S.MakeVariantOp):
            if _nuses(op.result) > 1:
                self.materialize(op, out, scope, self.render(op))
            return
        if isinstance(op, S.LetOp):
            if isinstance(op.value.type, S.VecType | S.ArrayType):
                self.storage[op.result] = self.storage_of(op.value, op)
                return
            n = self.local(op.sym.data, scope)
            self.declare(out, scope, n, op.result.type, self.expr(op.value), op, mutable=False)
            self.vals[op.result] = n
            return
        if isinstance(op, S.LetMutOp):
            n = self.local(op.sym.data, scope)
            self.declare(out, scope, n, op.init.type, self.expr(op.init), op, mutable=True)
            self.vals[op.result] = n
            return
        if isinstance(op, S.StoreOp):
            p, st = self.place(op.place)
            self.stmt(out, self.write_place(p, st, self.expr(op.value)))
            return
        if isinstance(op, S.AllocArrayOp):
            self.alloc_array(op, out, scope)
            return
        if isinstance(op, S.IfOp):
            o = O["if"](self.expr(op.cond))
            self.sub(op.then_region, scope, o, 0)
            if op.else_region.blocks:
                self.sub(op.else_region, scope, o, 1)
            out.add_op(o)
            return
        if isinstance(op, S.IfExprOp):
            self.if_expr(op, out, scope)
            return
        if isinstance(op, S.WhileOp):
            self.while_(op, out, scope)
            return
        if isinstance(op, S.ForOp):
            self.for_(op, out, scope)
            return
        if isinstance(op, S.MatchOp | S.MatchExprOp):
            self.match(op, out, scope)
            return
        if isinstance(op, S.CallOp):
            self.call(op, out, scope)
            return
        if isinstance(op, S.ReturnOp):
            if op.value:
                self.stmt(out, f"return {self.expr(op.value[0])}")
            else:
                self.stmt(out, "return")
            return
        if isinstance(op, S.BarrierOp):
            self.stmt(out, "barrier()" if g else "workgroupBarrier()")
            return
        if isinstance(op, S.WarpBarrierOp):
            self.use_subgroups(op, shuffle=False)
            if not g:
                self.features.add("subgroup-barrier")
            self.stmt(out, "subgroupBarrier()")
            return
        if isinstance(op, S.MemFenceOp):
            if g:
                self.stmt(out, "memoryBarrier()")
                return
            raise err("mem_fence has no WGSL spelling (WGSL has no memory-only fence; storageBarrier is a "
                      "workgroup barrier)", op, self.lang)
        if isinstance(op, S.PragmaOp):
            out.add_op(O["comment"]("pragma " + " ".join(h.data for h in op.hints)))
            b = O["block"]()
            self.lower_block(op.body.block, b.regions[0].block, Scope(scope))
            out.add_op(b)
            return
        if isinstance(op, S.BlockOp):
            b = O["block"]()
            self.lower_block(op.body.block, b.regions[0].block, Scope(scope))
            out.add_op(b)
            return
        if isinstance(op, S.IntrinsicOp):
            cat = INTRINSICS[op.callee.data].category
            if cat == Category.ATOMIC:
                self.atomic(op, out, scope)
                return
            if op.callee.data.startswith("warp_shuffle"):
                fn = self.warp_helper(op)
                self.materialize(op, out, scope, f"{fn}({', '.join(self.expr(a) for a in op.args)})")
                return
        if isinstance(op, S.YieldOp):
            return
        if isinstance(op, S.NativeOp):
            raise err("%native is refused: its source text is for a named framework and this generator is "
                      "given none", op, self.lang)
        raise err(f"{op.name} is not supported on {self.lang.name}", op, self.lang)

    def const_int(self, v: SSAValue) -> int | None:
        if isinstance(v, OpResult):
            op = v.op
            c = op.value if isinstance(op, S.ConstantOp) else None
            if isinstance(c, IntegerAttr):
                return c.value.data
            if isinstance(op, S.IntrinsicOp) and op.callee.data.startswith("block_dim_"):
                return dict(zip("xyz", self.block))[op.callee.data[-1]]
            if isinstance(op, S.LetOp):
                return self.const_int(op.value)
            if isinstance(op, S.BinOp) and op.kind.data.value in ("add", "sub", "mul", "div", "shl", "shr"):
                a, b = self.const_int(op.lhs), self.const_int(op.rhs)
                if a is None or b is None:
                    return None
                k = op.kind.data.value
                if k == "div":
                    return int(a / b) if b else None
                return {"add": a + b, "sub": a - b, "mul": a * b, "shl": a << b, "shr": a >> b}[k]
        return None

    def alloc_array(self, op: S.AllocArrayOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        at = op.result.type
        assert isinstance(at, S.ArrayType)
        n = self.const_int(op.size)
        if n is None or n <= 0:
            raise err("array size must be a positive compile-time constant on this backend", op, self.lang)
        et = at.element_type
        if at.memspace == S.MemSpace.SHARED:
            name = self.shared_names.get(op) or self.reserve_global(op.sym.data)
            if op in self.shared_declared:
                self.storage[op.result] = self.shared_declared[op]
                return
            rep = "plain"
            key = f"alloc:{id(op)}"
            if key in self.atomic_storage:
                rep = self.atomic_repr(et, op)
            ST = self.storage_type(et, rep, op)
            if g:
                self.shared_decls.append(self.O["global"](f"shared {ST} {name}[{n}];"))
            else:
                self.shared_decls.append(self.O["global"](f"var<workgroup> {name} : array<{ST}, {n}>;"))
            self.storage[op.result] = Storage(name, et, rep, "shared")
            self.shared_declared[op] = self.storage[op.result]
            return
        if f"alloc:{id(op)}" in self.atomic_storage:
            raise err("atomics on a local (per-thread) array are not supported on this backend", op, self.lang)
        name = self.local(op.sym.data, scope)
        T = self.ty(et, op)
        if g:
            self.stmt(out, f"{T} {name}[{n}]")
            i = self.temp(scope, "sarek_i")
            f = self.O["for"](f"int {i} = 0; {i} < {n}; {i}++")
            self.stmt(f.regions[0].block, f"{name}[{i}] = {self.zero(et, op)}")
            out.add_op(f)
        else:
            self.stmt(out, f"var {name} : array<{T}, {n}>")
        self.storage[op.result] = Storage(name, et, "plain", "local")

    def atomic_repr(self, et: Attribute, op: Operation) -> str:
        if isinstance(et, Float32Type):
            return "f32bits"
        if int_width(et) == 32:
            return "plain" if self.lang.glsl else "atomic"
        raise err(f"atomics on {et} elements are not supported on {self.lang.name}", op, self.lang)

    def storage_type(self, et: Attribute, rep: str, op: Operation) -> str:
        g = self.lang.glsl
        if rep == "f32bits":
            return "uint" if g else "atomic<u32>"
        if rep == "atomic":
            return "atomic<i32>"
        if rep == "boolbits":
            return "u32"
        return self.ty(et, op)

    def if_expr(self, op: S.IfExprOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        t = op.result.type
        # try a pure conditional expression (only when both sides are expression ops: nothing to hoist)
        tb, eb = Block(), Block()
        saved_exprs = dict(self.exprs)
        s1, s2 = Scope(scope), Scope(scope)

        def simple(r: Region) -> bool:
            return all(isinstance(o, PURE_INLINE + READ_OPS + (S.YieldOp,)) or _is_pure_intrinsic(o) for o in r.block.ops)

        if simple(op.then_region) and simple(op.else_region):
            self.lower_block(op.then_region.block, tb, s1)
            self.lower_block(op.else_region.block, eb, s2)
        else:
            tb.add_op(self.O["stmt"]("/* not an expression */"))
        ty_ = cast(S.YieldOp, op.then_region.block.last_op)
        ey = cast(S.YieldOp, op.else_region.block.last_op)
        has_reads = any(isinstance(o, READ_OPS) for r in (op.then_region, op.else_region) for o in r.walk())
        scalar = S.is_scalar_type(t)  # WGSL select takes scalars (and vectors) only
        # GLSL `c ? buf[i] : T(...)` on a record: glslang selects between the buffer's explicitly laid out
        # struct type and the function-local one and emits an OpStore spirv-val rejects; such a value is
        # computed through an `if` instead (a record read from memory is copied member-wise by a store)
        if not tb.ops and not eb.ops and ((g and (scalar or not has_reads)) or (not has_reads and scalar)):
            a, b = self.expr(ty_.value), self.expr(ey.value)
            c = self.expr(op.cond)
            self.exprs[op.result] = f"({c} ? {a} : {b})" if g else f"select({b}, {a}, {c})"
            if _nuses(op.result) > 1:
                self.materialize(op, out, scope, self.exprs.pop(op.result))
            return
        self.exprs = saved_exprs
        n = self.temp(scope)
        self.declare(out, scope, n, t, None, op, mutable=True)
        o = self.O["if"](self.expr(op.cond))
        for i, (reg, _) in enumerate(((op.then_region, tb), (op.else_region, eb))):
            # re-lower into the real region (values of the trial lowering are discarded)
            s = Scope(scope)
            dst = o.regions[i].block
            self.lower_block(reg.block, dst, s)
            y = cast(S.YieldOp, reg.block.last_op)
            self.stmt(dst, f"{n} = {self.expr(y.value)}")
        out.add_op(o)
        self.vals[op.result] = n

    def while_(self, op: S.WhileOp, out: Block, scope: Scope) -> None:
        cb = Block()
        s = Scope(scope)
        self.lower_block(op.cond_region.block, cb, s)
        y = cast(S.YieldOp, op.cond_region.block.last_op)
        c = self.expr(y.value)
        if not cb.ops:
            w = self.O["while"](c)
            self.sub(op.body, scope, w, 0)
            out.add_op(w)
            return
        loop = self.O["loop"]()
        body = loop.regions[0].block
        for o in list(cb.ops):
            o.detach()
            body.add_op(o)
        brk = self.O["if"](f"!({c})")
        self.stmt(brk.regions[0].block, "break")
        body.add_op(brk)
        s2 = Scope(s)
        self.lower_block(op.body.block, body, s2)
        out.add_op(loop)

    def for_(self, op: S.ForOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        lo, hi = self.expr(op.lo), self.expr(op.hi)
        if op.hi not in self.vals and self.const_int(op.hi) is None:  # evaluated once (Python range)
            h = self.temp(scope, "sarek_hi")
            self.declare(out, scope, h, op.hi.type, hi, op, mutable=False)
            hi = h
        s = Scope(scope)
        i = self.local(op.sym.data, s)
        idx = op.body.block.args[0]
        self.vals[idx] = i
        step = op.step_value
        T = self.ty(op.lo.type, op)
        cmp = "<" if step > 0 else ">"
        one = "" if g else ("i" if T == "i32" else "")
        inc = f"{i} += {step}{one}" if step > 0 else f"{i} -= {-step}{one}"
        head = f"{T} {i} = {lo}; {i} {cmp} {hi}; {inc}" if g else f"var {i} : {T} = {lo}; {i} {cmp} {hi}; {inc}"
        f = self.O["for"](head)
        self.lower_block(op.body.block, f.regions[0].block, Scope(s))
        out.add_op(f)

    def match(self, op: S.MatchOp | S.MatchExprOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        vt = op.scrutinee.type
        assert isinstance(vt, S.VariantType)
        vd = self.variants[vt.decl_name]
        scrut = self.expr(op.scrutinee)
        if not _IDENT.fullmatch(scrut):
            n = self.temp(scope)
            self.declare(out, scope, n, vt, scrut, op, mutable=False)
            scrut = n
        res = None
        if isinstance(op, S.MatchExprOp):
            res = self.temp(scope)
            self.declare(out, scope, res, op.result.type, None, op, mutable=True)
        cases = op.case_list()
        sw = self.O["switch"](f"{scrut}.tag")
        covered: set[str] = set()
        for k, (c, bs, reg) in enumerate(cases):
            last = k == len(cases) - 1
            all_covered = last and (covered | {c}) >= {n for n, _ in vd.ctors}
            if c == S.WILDCARD or (all_covered and not g):
                label = "default"
            else:
                label = self.tag_const(vt.decl_name, c)
            covered.add(c)
            case = self.O["case"](label)
            s = Scope(scope)
            blk = case.regions[0].block
            ps = vd.payload(c) or [] if c != S.WILDCARD else []
            for j, (b, arg) in enumerate(zip(bs, reg.block.args)):
                n = self.local(b, s)
                if c == S.WILDCARD:
                    val = scrut
                else:
                    val = f"{scrut}.{self.payload_path(vt.decl_name, c, len(ps), j)}"
                self.declare(blk, s, n, arg.type, val, op, mutable=False)
                self.vals[arg] = n
            self.lower_block(reg.block, blk, s)
            if res is not None:
                y = cast(S.YieldOp, reg.block.last_op)
                self.stmt(blk, f"{res} = {self.expr(y.value)}")
            if g:
                self.stmt(blk, "break")
            sw.regions[0].block.add_op(case)
        if not g and not any(cast(Any, c).text.data == "default" for c in sw.regions[0].block.ops):
            sw.regions[0].block.add_op(self.O["case"]("default"))
        out.add_op(sw)
        if res is not None:
            self.vals[cast(S.MatchExprOp, op).result] = res

    def call(self, op: S.CallOp, out: Block, scope: Scope) -> None:
        h = self.helpers[op.callee_name]
        fname = self.specialize(h, op)
        args = [self.expr(a) for a in op.args if not isinstance(a.type, S.VecType | S.ArrayType)]
        text = f"{fname}({', '.join(args)})"
        if op.res:
            self.materialize(op, out, scope, text)
        else:
            self.stmt(out, text)

    def wgsl_cas_loop(self, out: Block, scope: Scope, r: str, ty: str, p: str, expected: str, new: str,
                      result: str) -> None:
        """WGSL `var r : ty` = compare-and-swap of `p` (expected, new), as a loop on atomicCompareExchangeWeak
        (which may fail spuriously); `result` spells r's value from the old bits (`{}` stands for them)."""
        self.stmt(out, f"var {r} : {ty}")
        lp = self.O["loop"]()
        x = self.temp(scope, "sarek_x")
        self.stmt(lp.regions[0].block, f"let {x} = atomicCompareExchangeWeak(&{p}, {expected}, {new})")
        brk = self.O["if"](f"{x}.exchanged || {x}.old_value != {expected}")
        self.stmt(brk.regions[0].block, f"{r} = {result.format(f'{x}.old_value')}")
        self.stmt(brk.regions[0].block, "break")
        lp.regions[0].block.add_op(brk)
        out.add_op(lp)

    def atomic(self, op: S.IntrinsicOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        name = op.callee.data
        st = self.storage_of(op.args[0], op)
        et = st.elem
        p = f"{st.name}[{self.index(op.args[1])}]"
        vals = [self.expr(a) for a in op.args[2:]]
        used = bool(op.results and _nuses(op.results[0]))
        isf = isinstance(et, Float32Type)
        if isf or (name == "atomic_cas" and not g):  # compare-and-swap loops: operands evaluated once
            for j, (a, v) in enumerate(zip(op.args[2:], vals)):
                if not _IDENT.fullmatch(v) and not re.fullmatch(r"[-0-9.eEfiLlu()]+", v):
                    t = self.temp(scope)
                    self.declare(out, scope, t, a.type, v, op, mutable=False)
                    vals[j] = t
        if not (isf or (int_width(et) == 32)):
            raise err(f"{name} on {et} elements is not supported on {self.lang.name}", op, self.lang)
        if st.space == "local":
            raise err("atomics on a local array are not supported on this backend", op, self.lang)
        self.ty(et, op)
        if not isf:
            one = "1" if g else "1i"
            if g:
                fn = {"atomic_add": "atomicAdd", "atomic_sub": "atomicAdd", "atomic_min": "atomicMin",
                      "atomic_max": "atomicMax", "atomic_exch": "atomicExchange", "atomic_and": "atomicAnd",
                      "atomic_or": "atomicOr", "atomic_xor": "atomicXor", "atomic_inc": "atomicAdd",
                      "atomic_dec": "atomicAdd", "atomic_cas": "atomicCompSwap"}[name]
                if name == "atomic_sub":
                    vals = [f"(-{vals[0]})"]
                elif name == "atomic_inc":
                    vals = [one]
                elif name == "atomic_dec":
                    vals = ["(-1)"]
                text = f"{fn}({p}, {', '.join(vals)})"
            else:
                if name == "atomic_cas":
                    r = self.temp(scope)
                    self.wgsl_cas_loop(out, scope, r, "i32", p, vals[0], vals[1], "{}")
                    if op.results:
                        self.vals[op.results[0]] = r
                    return
                fn = {"atomic_add": "atomicAdd", "atomic_sub": "atomicSub", "atomic_min": "atomicMin",
                      "atomic_max": "atomicMax", "atomic_exch": "atomicExchange", "atomic_and": "atomicAnd",
                      "atomic_or": "atomicOr", "atomic_xor": "atomicXor", "atomic_inc": "atomicAdd",
                      "atomic_dec": "atomicSub"}[name]
                if name in ("atomic_inc", "atomic_dec"):
                    vals = [one]
                text = f"{fn}(&{p}, {', '.join(vals)})"
            if used:
                self.materialize(op, out, scope, text)
            elif g:
                self.stmt(out, text)
            else:
                self.stmt(out, f"_ = {text}" if False else text)
            return
        # float: compare-and-swap loop on the bits
        assert st.repr == "f32bits"
        r = self.temp(scope)
        if name == "atomic_exch":
            text = (f"uintBitsToFloat(atomicExchange({p}, floatBitsToUint({vals[0]})))" if g
                    else f"bitcast<f32>(atomicExchange(&{p}, bitcast<u32>({vals[0]})))")
            self.declare(out, scope, r, et, text, op, mutable=False)
            if op.results:
                self.vals[op.results[0]] = r
            return
        if name == "atomic_cas":
            if g:
                text = f"uintBitsToFloat(atomicCompSwap({p}, floatBitsToUint({vals[0]}), floatBitsToUint({vals[1]})))"
                self.declare(out, scope, r, et, text, op, mutable=False)
            else:
                self.wgsl_cas_loop(out, scope, r, "f32", p, f"bitcast<u32>({vals[0]})", f"bitcast<u32>({vals[1]})",
                                   "bitcast<f32>({})")
            if op.results:
                self.vals[op.results[0]] = r
            return
        o = self.temp(scope, "sarek_old")
        f = "sarek_cur"
        newf = {"atomic_add": f"{f} + {vals[0] if vals else ''}", "atomic_sub": f"{f} - {vals[0] if vals else ''}",
                "atomic_min": f"min({f}, {vals[0] if vals else ''})", "atomic_max": f"max({f}, {vals[0] if vals else ''})",
                "atomic_inc": f"{f} + {'1.0' if g else '1.0f'}", "atomic_dec": f"{f} - {'1.0' if g else '1.0f'}"}
        if name not in newf:
            raise err(f"{name} on f32 is not supported on {self.lang.name}", op, self.lang)
        lp = self.O["loop"]()
        lb = lp.regions[0].block
        ls = Scope(scope)
        cur = self.temp(ls, "sarek_cur")
        x = self.temp(ls, "sarek_x")
        nexpr = newf[name].replace("sarek_cur", cur)
        if g:
            # a flag-controlled while (naga's SPIR-V reader rejects glslang's `for (;;) { ... break; }` here)
            done = self.temp(scope, "sarek_done")
            self.stmt(out, f"uint {o} = {p}")
            self.stmt(out, f"bool {done} = false")
            w = self.O["while"](f"!{done}")
            wb = w.regions[0].block
            self.stmt(wb, f"float {cur} = uintBitsToFloat({o})")
            self.stmt(wb, f"uint {x} = atomicCompSwap({p}, {o}, floatBitsToUint({nexpr}))")
            self.stmt(wb, f"{done} = ({x} == {o})")
            self.stmt(wb, f"{o} = {x}")
            out.add_op(w)
            self.declare(out, scope, r, et, f"uintBitsToFloat({o})", op, mutable=False)
        else:
            self.stmt(out, f"var {o} : u32 = atomicLoad(&{p})")
            self.stmt(lb, f"let {cur} : f32 = bitcast<f32>({o})")
            self.stmt(lb, f"let {x} = atomicCompareExchangeWeak(&{p}, {o}, bitcast<u32>({nexpr}))")
            brk = self.O["if"](f"{x}.exchanged")
            self.stmt(brk.regions[0].block, "break")
            lb.add_op(brk)
            self.stmt(lb, f"{o} = {x}.old_value")
            out.add_op(lp)
            self.declare(out, scope, r, et, f"bitcast<f32>({o})", op, mutable=False)
        if op.results:
            self.vals[op.results[0]] = r

    # -------------------------------------------------------------------------------- helpers

    def specialize(self, h: S.HelperOp, call: S.CallOp) -> str:
        hn = h.sym_name.data
        if hn in self.spec_stack:
            raise err(f"recursive helper @{hn}: recursion is not supported on {self.lang.name}", call, self.lang)
        bufs: list[Storage] = []
        for a in call.args:
            if isinstance(a.type, S.VecType | S.ArrayType):
                st = self.storage_of(a, call)
                if st.space == "local":
                    raise err(f"passing a local array to helper @{hn} is not supported on {self.lang.name}",
                              call, self.lang)
                bufs.append(st)
        key = (hn, tuple(b.name for b in bufs))
        if key in self.specs:
            return self.specs[key]
        fname = self.reserve_global(hn if not bufs else f"{hn}_{'_'.join(b.name for b in bufs)}")
        self.specs[key] = fname
        g = self.lang.glsl
        # save per-function state
        saved = (self.vals, self.exprs, self.cur_func_ret)
        self.vals, self.exprs = {}, {}
        scope = Scope()
        params: list[str] = []
        bi = iter(bufs)
        for (pn, arg) in h.params:
            if isinstance(arg.type, S.VecType | S.ArrayType):
                self.storage[arg] = next(bi)
                continue
            n = self.local(pn, scope)
            self.vals[arg] = n
            params.append(f"{self.ty(arg.type, h)} {n}" if g else f"{n} : {self.ty(arg.type, h)}")
        rt = h.return_type
        unit = isinstance(rt, S.UnitType)
        if g:
            sig = f"{'void' if unit else self.ty(rt, h)} {fname}({', '.join(params)})"
        else:
            sig = f"fn {fname}({', '.join(params)})" + ("" if unit else f" -> {self.ty(rt, h)}")
        f = self.O["func"](sig)
        self.spec_stack.append(hn)
        self.lower_block(h.body.block, f.regions[0].block, scope)
        self.spec_stack.pop()
        last = h.body.block.last_op
        if not unit and not isinstance(last, S.ReturnOp):
            self.stmt(f.regions[0].block, f"return {self.zero(rt, h)}")
        self.vals, self.exprs, self.cur_func_ret = saved
        self.spec_ops.append(f)
        return fname

    # -------------------------------------------------------------------------------- the shader

    def run(self) -> Operation:
        g = self.lang.glsl
        O = self.O
        k = self.kernel
        self.check_features()
        self.collect_source_names()
        self.collect_atomics()
        # names of the interface, in order: buffers, macros/params, struct types
        vecs = [(n, a) for n, a in k.params if isinstance(a.type, S.VecType)]
        scalars = [(n, a) for n, a in k.params if not isinstance(a.type, S.VecType)]
        if g:
            for n, a in vecs:
                pass
        param_fields: list[dict[str, Any]] = []
        abi_params: list[dict[str, Any]] = []
        buf_names: dict[BlockArgument, str] = {}
        for n, a in vecs:
            buf_names[a] = self.reserve_global(n)
        len_names: dict[BlockArgument, str] = {}
        for n, a in vecs:
            ln = f"{buf_names[a]}_len" if g else f"sarek_{buf_names[a]}_length"
            while ln in self.globals or ln in self.macros:
                ln = "sarek_" + ln
            if g:
                self.macros.add(ln)
            len_names[a] = ln
        scalar_names: dict[BlockArgument, str] = {}
        for n, a in scalars:
            e = self.lang.escape(n)
            # a GLSL macro named like a swizzle (`x`, `xy`, `rgb` ...) would rewrite `gl_GlobalInvocationID.x`
            while e in self.globals or e in self.macros or e in len_names.values() or (g and _is_swizzle(e)):
                e = e + "_"
            if g:
                self.macros.add(e)
            else:
                self.globals.add(e)
            scalar_names[a] = e
        # push constants / params layout
        off = 0
        maxa = 4
        for n, a in vecs:
            param_fields.append({"name": len_names[a], "type": "i32", "offset": off, "param": None})
            off += 4
        for n, a in scalars:
            t = a.type
            attr = ""
            lay_json = None
            if isinstance(t, S.RecordType | S.VariantType):
                lay = self.elem_layout(t, k)
                all_leaves = lay.leaves + [x for c in (lay.ctors or []) for x in c]
                al = max([4] + [x.size for x in all_leaves])
                s = lay.dev_size
                if not g:
                    nested = (isinstance(t, S.RecordType) and any(
                        not S.is_scalar_type(ft) for _, ft in self.records[t.decl_name].fields)) or (
                        isinstance(t, S.VariantType) and any(
                            not S.is_scalar_type(pt) for _, ps in self.variants[t.decl_name].ctors for pt in ps))
                    if nested or any(x.size != 4 or x.kind == "b4" for x in all_leaves):
                        raise err(f"parameter '{n}': a record/variant passed by value on wgsl must hold only i32/f32 "
                                  "fields (uniform buffer layout)", k, self.lang)
                    al = 16
                    s = _round(lay.dev_size, 16)
                    attr = f"@align(16) @size({s}) "
                leaves = []
                lay_json = lay.to_json()
            else:
                self.ty(t, k)
                s = al = scalar_size(t)
                leaves = [(0, t)]
            off = _round(off, al)
            maxa = max(maxa, al)
            param_fields.append({"name": scalar_names[a], "type": str(t), "offset": off, "param": a.index,
                                 "leaves": [[o, scalar_kind(x)] for o, x in leaves], "size": s, "attr": attr,
                                 "layout": lay_json})
            off += s
        psize = _round(off, 16 if not g else maxa)
        if g and psize > 128:
            raise err(f"push constants need {psize} bytes; Vulkan guarantees 128", k, self.lang)
        # shared arrays are module-scope names: reserve them before any local or temporary is named
        for f in [k, *self.reachable_helpers()]:
            for o in f.walk():
                if isinstance(o, S.AllocArrayOp) and o.result.type.memspace == S.MemSpace.SHARED:
                    self.shared_names[o] = self.reserve_global(o.sym.data)
        # type declarations
        self.decl_types()
        # storage of vector params
        for i, (n, a) in enumerate(vecs):
            et = cast(S.VecType, a.type).element_type
            rep = "plain"
            if f"param:{a.index}" in self.atomic_storage:
                rep = self.atomic_repr(et, k)
            elif not g and et == IntegerType(1):
                rep = "boolbits"
            if not g and isinstance(et, S.RecordType):
                for _, x in self.host_layout(et, k)[2]:
                    if x == IntegerType(1):
                        raise err(f"vector '{n}': a bool field in a record is not host-shareable in WGSL",
                                  k, self.lang)
            self.storage[a] = Storage(buf_names[a], et, rep, "global", len_names[a] if g else f"params.{len_names[a]}")
            lay = self.elem_layout(et, k)
            abi_params.append({"name": n, "index": a.index, "kind": "vec", "binding": i, "elem": str(et),
                               "scalar": scalar_kind(et) if S.is_scalar_type(et) else None,
                               "layout": lay.to_json(), "len_offset": param_fields[i]["offset"], "repr": rep})
        for n, a in scalars:
            self.vals[a] = scalar_names[a] if g else (
                f"(params.{scalar_names[a]} != 0i)" if a.type == IntegerType(1) else f"params.{scalar_names[a]}")
            pf = next(p for p in param_fields if p["param"] == a.index)
            abi_params.append({"name": n, "index": a.index, "kind": "scalar", "type": str(a.type), "offset": pf["offset"],
                               "leaves": pf["leaves"], "size": pf["size"], "layout": pf["layout"]})
        # body
        mainf = O["func"]("void main()" if g else "")
        self.lower_block(k.body.block, mainf.regions[0].block, Scope())
        # assemble
        sh = O["shader"](k.sym_name.data, "")
        body = sh.regions[0].block
        X, Y, Z = self.block
        if g:
            body.add_op(O["directive"]("#version 450"))
            if "shader-f64" in self.features:
                body.add_op(O["directive"]("#extension GL_ARB_gpu_shader_fp64 : require"))
            if "shader-int64" in self.features:
                body.add_op(O["directive"]("#extension GL_ARB_gpu_shader_int64 : require"))
            for e in self.extensions:
                body.add_op(O["directive"](e))
        body.add_op(O["comment"](f"kernel {k.sym_name.data}; workgroup size {X}x{Y}x{Z} is a compile-time "
                                 f"specialization (option block=X,Y,Z)"))
        if g:
            body.add_op(O["directive"](f"layout(local_size_x = {X}, local_size_y = {Y}, local_size_z = {Z}) in;"))
        for o in self.struct_ops:
            body.add_op(o)
        for o in self.ctor_funcs:
            body.add_op(o)
        for fs in self.polyfills.values():
            for o in fs:
                body.add_op(o)
        if g:  # before the push-constant macros, which would rewrite their parameter names
            for o in self.warp_helpers.values():
                body.add_op(o)
        for n, a in vecs:
            st = self.storage[a]
            T = self.storage_type(st.elem, st.repr, k)
            i = vecs.index((n, a))
            if g:
                blk = self.reserve_global(f"Buffer_{st.name}")  # not a record named Buffer_<v>
                body.add_op(O["global"](f"layout(std430, set = 0, binding = {i}) buffer {blk} {{ {T} {st.name}[]; }};"))
            else:
                body.add_op(O["global"](f"@group(0) @binding({i}) var<storage, read_write> {st.name} : array<{T}>;"))
        if param_fields:
            if g:
                fl: list[str] = []
                for p in param_fields:
                    t = "int" if p["param"] is None else self.ty(k.body.block.args[cast(int, p["param"])].type, k)
                    fl.append(f"{t} {p['name']};")
                body.add_op(O["global"]("layout(push_constant) uniform PushConstants { " + " ".join(fl) + " } pc;"))
                for p in param_fields:
                    body.add_op(O["directive"](f"#define {p['name']} pc.{p['name']}"))
            else:
                fl = []
                for p in param_fields:
                    t = "i32" if p["param"] is None else k.body.block.args[cast(int, p["param"])].type
                    ts = "i32" if t == "i32" or t == IntegerType(1) else self.ty(t, k)
                    fl.append(f"{p.get('attr', '')}{p['name']} : {ts}")
                body.add_op(O["struct"]("Params", fl))
                body.add_op(O["global"](f"@group(0) @binding({len(vecs)}) var<uniform> params : Params;"))
        for o in self.shared_decls:
            body.add_op(o)
        if not g:
            for b in ("gid", "lid", "wid", "nwg"):
                body.add_op(O["global"](f"var<private> sarek_{b} : vec3<u32>;"))
            if self.uses_subgroup:
                body.add_op(O["global"]("var<private> sarek_sg_lane : u32;"))
                body.add_op(O["global"]("var<private> sarek_sg_size : u32;"))
        if not g:
            for o in self.warp_helpers.values():
                body.add_op(o)
        for o in self.spec_ops:
            body.add_op(o)
        if not g:
            ps = ["@builtin(global_invocation_id) sarek_gid_in : vec3<u32>",
                  "@builtin(local_invocation_id) sarek_lid_in : vec3<u32>",
                  "@builtin(workgroup_id) sarek_wid_in : vec3<u32>",
                  "@builtin(num_workgroups) sarek_nwg_in : vec3<u32>"]
            pro = [f"sarek_{b} = sarek_{b}_in" for b in ("gid", "lid", "wid", "nwg")]
            if self.uses_subgroup:
                ps += ["@builtin(subgroup_invocation_id) sarek_sg_lane_in : u32",
                       "@builtin(subgroup_size) sarek_sg_size_in : u32"]
                pro += ["sarek_sg_lane = sarek_sg_lane_in", "sarek_sg_size = sarek_sg_size_in"]
            mainf.properties["text"] = StringAttr(f"@compute @workgroup_size({X}, {Y}, {Z})\nfn main({', '.join(ps)})")
            first = mainf.regions[0].block.first_op
            for s in pro:
                st = O["stmt"](s)
                if first is None:
                    mainf.regions[0].block.add_op(st)
                else:
                    mainf.regions[0].block.insert_op_before(st, first)
        body.add_op(mainf)
        abi = {"kernel": k.sym_name.data, "lang": self.lang.name, "block": list(self.block),
               "params": sorted(abi_params, key=lambda p: p["index"]), "params_size": psize if param_fields else 0,
               "params_binding": len(vecs), "features": sorted(self.features)}
        sh.properties["abi"] = StringAttr(json.dumps(abi, sort_keys=True))
        return sh


def parse_block(text: str | tuple[int, ...] | None) -> tuple[int, int, int]:
    """The `block` option: "X,Y,Z" (or "XxYxZ", trailing dimensions 1), or the tuple an unquoted
    `block=64,4,1` parses to."""
    if not text:
        return (256, 1, 1)
    if isinstance(text, tuple):
        parts = list(text)
    else:
        try:
            parts = [int(x) for x in text.replace("x", ",").split(",") if x.strip()]
        except ValueError:
            raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers") from None
        if not parts:
            raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers")
    while len(parts) < 3:
        parts.append(1)
    if len(parts) != 3 or any(p <= 0 for p in parts):
        raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers")
    return (parts[0], parts[1], parts[2])


def lower_module(module: ModuleOp, lang: Lang, ops: Mapping[str, Callable[..., Operation]], block: tuple[int, int, int],
                 kernel: str | None = None) -> None:
    """Replace the sarek declarations of `module` by one shader op per kernel (or only `kernel`)."""
    kernels = [o for o in module.body.block.ops if isinstance(o, S.KernelOp)]
    if kernel:
        kernels = [o for o in kernels if o.sym_name.data == kernel]
        if not kernels:
            raise SarekError(f"no kernel @{kernel} in the module", None, lang.name)
    shaders = [ShaderLowering(module, k, lang, block, ops).run() for k in kernels]
    for o in list(module.body.block.ops):
        if o.dialect_name() == "sarek":
            o.detach()
            o.erase(safe_erase=False)
    for sh in shaders:
        module.body.block.add_op(sh)


@dataclass(frozen=True)
class ShaderLoweringPass(ModulePass):
    """Shared by `sarek-lower-glsl` and `sarek-lower-wgsl`. Options: `block=X,Y,Z` — the workgroup size the
    shader is specialised for (default 256,1,1; part of the compiled kernel's key); `kernel=NAME` — lower only
    that kernel."""

    block: str | tuple[int, ...] = "256,1,1"  # `block=64,4,1` unquoted parses to a tuple
    kernel: str = ""

    def target(self) -> tuple[Lang, Mapping[str, Callable[..., Operation]]]:
        """The language and the op classes of its target dialect."""
        raise NotImplementedError

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lang, ops = self.target()
        lower_module(op, lang, ops, parse_block(self.block), self.kernel or None)


def shader_abi(module: ModuleOp, kernel: str) -> dict[str, Any]:
    for o in module.body.block.ops:
        if o.name.endswith(".shader") and cast(StringAttr, o.properties["sym_name"]).data == kernel:
            return json.loads(cast(StringAttr, o.properties["abi"]).data)
    raise KeyError(kernel)


def iter_shaders(module: ModuleOp) -> Iterator[Operation]:
    for o in module.body.block.ops:
        if o.name.endswith(".shader"):
            yield o


__all__ = ["GLSL", "WGSL", "Lang", "ShaderLowering", "ShaderLoweringPass", "lower_module", "parse_block", "shader_abi", "iter_shaders"]
_unused: list[Callable[..., Any]] = []
