"""The lowering's per-kernel state and its naming, type-spelling, literal and declaration helpers."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    DictionaryAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis import namer, shader_names
from sarek.analysis.payload import PayloadLayout, payload_fields
from sarek.dialect import sarek as S
from sarek.dialect.scalars import int_width, is_unsigned
from sarek.lowering.shader.language import Lang, err


# ------------------------------------------------------------------------------------------------ the engine


def scalar_key(t: Attribute) -> str | None:
    """The key of a scalar type in `Lang.scalar` (i1, i32, i64, u32, u64, f32, f64); None for any other type."""
    u = is_unsigned(t)
    if isinstance(t, IntegerType) and t.bitwidth in (1, 32, 64):
        return f"{'u' if u else 'i'}{t.bitwidth}"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    return None


def int_width(t: Attribute) -> int:
    """The bit width of an integer type; 0 for any other type."""
    return t.bitwidth if isinstance(t, IntegerType) else 0


def nuses(v: SSAValue) -> int:
    return sum(1 for _ in v.uses)


READ_OPS = (S.LoadOp, S.ArrayReadOp)
# deepest statement nesting of a function (if/else chains, conditional expressions, loops, match). Measured on
# lavapipe through wgpu 0.32 (naga): an if/else chain runs its branches nested deeper than 79 wrong, silently
# (the H200's Vulkan too, the same naga SPIR-V); WGSL allows 127 nested braces. Deeper code is refused.
MAX_NESTING = 64
PURE_INLINE = (S.ConstantOp, S.BinOp, S.UnOp, S.CastOp, S.BitcastOp, S.FieldOp, S.PayloadOp, S.MakeRecordOp,
               S.ArrayLenOp, S.ArrayDimOp, S.ElemRefOp, S.FieldRefOp)


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
    dims: tuple[str, ...] = ()  # expressions of the extents of an N-dimensional vector or array


class LoweringState:
    """Per-kernel state of the lowering: declarations, names taken, rendered values, collected module-scope ops."""

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
        # the module-scope names (sarek.analysis.shader_names): locals and temporaries avoid them
        self.globals, self.macros = shader_names.interface_globals(lang.name, kernel)
        self.globals |= {n for d in module.body.block.ops for n in shader_names.decl_globals(d)}
        self.globals |= {cast(StringAttr, v).data for v in cast(DictionaryAttr, kernel.attributes[namer.GLOBAL_NAMES]).data.values()}
        self.all_source_names: set[str] = set()
        self.features: set[str] = set()
        self.extensions: list[str] = []
        self.polyfills: dict[str, list[Operation]] = {}
        self.shared_decls: list[Operation] = []
        #: bytes of the shared arrays as declared (elements one per 32-bit word, or packed: the abi's shared_bytes)
        self.shared_bytes: int = 0
        self.storage: dict[SSAValue, Storage] = {}  # vec/array values -> storage
        self.vals: dict[SSAValue, str] = {}
        self.exprs: dict[SSAValue, str] = {}
        self.temp_cache: dict[Operation, bool] = {}
        self.depth_cache: dict[Operation, int] = {}
        self.ctor_funcs: list[Operation] = []
        self.struct_ops: list[Operation] = []
        self.uses_index_in_helpers = False
        self.uses_subgroup = False
        self.specs: dict[tuple[str, tuple[str, ...]], str] = {}
        self.spec_ops: list[Operation] = []
        self.spec_stack: list[str] = []
        self.atomic_storage: set[str] = set()
        self.atomic_names: dict[str, set[str]] = {}  # storage key -> the atomic intrinsics applied to it
        self.cur_func_ret: Attribute | None = None
        self.nesting = 0  # statement nesting of the function being lowered
        self.shared_names = shader_names.shared_names(kernel, self.helpers)
        self.shared_declared: dict[Operation, Storage] = {}

    # -------------------------------------------------------------------------------- names

    def global_name(self, key: str) -> str:
        """A module-scope name sarek.analysis.shader_names recorded for this kernel (`GLOBAL_NAMES`)."""
        return shader_names.global_name(self.kernel, key)

    def local(self, name: str, scope: Scope) -> str:
        base = self.lang.escape(name)
        if base in self.macros:  # a GLSL push-constant macro (WGSL has none)
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
        """The struct of a record or variant (`NAME`, sarek.analysis.shader_names)."""
        return namer.decl_name(self.records.get(decl) or self.variants[decl], decl)

    def field_name(self, rec: str, f: str) -> str:
        r = self.records[rec]
        names = [n for n, _ in r.fields]
        return namer.names_of(r, namer.FIELD_NAMES, names)[names.index(f)]

    def ty(self, t: Attribute, op: Operation | None = None) -> str:
        key = scalar_key(t)
        if key is not None:
            spelled = self.lang.scalar[key]
            assert spelled is not None, f"{key} on {self.lang.name}: refused by the feature gate (FLOAT64, INT64)"
            return spelled
        # refused by the feature gate: FLOAT16, SMALL_INT, UNSIGNED (analysis/features.py)
        assert not isinstance(t, IntegerType | Float16Type), f"{t} on {self.lang.name}: refused by the feature gate"
        if isinstance(t, S.RecordType | S.VariantType):
            return self.type_name(t.decl_name)
        if isinstance(t, S.UnitType):
            return "void"
        raise err(f"type {t} has no {self.lang.name} spelling", op, self.lang)

    # -------------------------------------------------------------------------------- literals

    def lit(self, op: S.ConstantOp) -> str:
        t, v = op.result.type, op.value
        if isinstance(t, S.UnitType) or isinstance(v, UnitAttr):
            return "/* unit */"
        if isinstance(t, IntegerType) and isinstance(v, IntegerAttr):
            return self.literal(op.result.type, cast("IntegerAttr[IntegerType]", v).value.data, op)
        if isinstance(v, FloatAttr):
            return self.literal(op.result.type, float(cast(FloatAttr, v).value.data), op)
        raise err(f"constant {v} has no {self.lang.name} spelling", op, self.lang)

    def literal(self, t: Attribute, x: int | float, op: Operation | None = None) -> str:
        """The spelling of the number x of scalar type t."""
        L = self.lang
        if isinstance(t, IntegerType):
            it = cast("IntegerType[Any, Any]", t)
            x = int(x)
            w = it.bitwidth
            if w == 1:
                return "true" if x else "false"
            self.ty(it, op)
            suf = self.int_suffix(it)
            lo = -(1 << (w - 1))
            if x == lo:
                return f"({x + 1}{suf} - 1{suf})"
            return f"{x}{suf}" if x >= 0 else f"(-{-x}{suf})"
        x = float(x)
        self.ty(t, op)
        dbl = isinstance(t, Float64Type)
        if math.isnan(x) or math.isinf(x):
            bits = struct.unpack("<I", struct.pack("<f", x))[0]
            return (L.f64_nonfinite if dbl else L.f32_from_bits).format(f"{bits}u")
        s = ("%.17g" % x) if dbl else ("%.9g" % x)
        if "." not in s and "e" not in s and "n" not in s:
            s += ".0"
        if "e" in s and "." not in s.split("e")[0]:
            m, e = s.split("e")
            s = m + ".0e" + e
        s += L.f64_suffix if dbl else L.f32_suffix
        return s if x >= 0 and not s.startswith("-") else f"({s})"

    def int_suffix(self, t: Attribute) -> str:
        """The literal suffix of an i32, i64, u32 or u64."""
        L = self.lang
        w = int_width(t)
        if is_unsigned(t):
            return L.u32_suffix if w == 32 else L.u64_suffix
        return L.i32_suffix if w == 32 else L.i64_suffix

    def zero(self, t: Attribute, op: Operation | None = None) -> str:
        L = self.lang
        suffix = self.int_suffix(t)
        if isinstance(t, IntegerType):
            if t.bitwidth == 1:
                return "false"
            return "0" + suffix
        if isinstance(t, Float32Type):
            return "0.0" + L.f32_suffix
        if isinstance(t, Float64Type):
            return "0.0" + L.f64_suffix
        if isinstance(t, S.RecordType):
            r = self.records[t.decl_name]
            return f"{self.ty(t)}({', '.join(self.zero(ft) for _, ft in r.fields)})"
        if isinstance(t, S.VariantType):
            v = self.variants[t.decl_name]
            parts = ["0" + L.i32_suffix]
            for c, ps in v.ctors:
                if self.nested_payloads:
                    if len(ps) == 1:
                        parts.append(self.zero(ps[0]))
                    elif len(ps) > 1:
                        parts.append(f"{self.payload_struct(t.decl_name, c)}({', '.join(self.zero(p) for p in ps)})")
                else:
                    parts.extend(self.zero(p) for p in ps)
            return f"{self.ty(t)}({', '.join(parts)})"
        raise err(f"no zero value for {t}", op, self.lang)

    # -------------------------------------------------------------------------------- declarations

    def ctor_name(self, key: str, vname: str, ctor: str) -> str:
        """The name recorded under `key` (MAKE_NAMES, PAYLOAD_NAMES, CTOR_IDS) for a constructor of `vname`."""
        v = self.variants[vname]
        ctors = [n for n, _ in v.ctors]
        return namer.names_of(v, key, ctors)[ctors.index(ctor)]

    def payload_struct(self, vname: str, ctor: str) -> str:
        """The hoisted struct of a several-payload constructor (GLSL)."""
        return self.ctor_name(namer.PAYLOAD_NAMES, vname, ctor)

    @property
    def nested_payloads(self) -> bool:
        """Whether a several-payload constructor is one field of a hoisted struct (GLSL) or flat fields."""
        return self.lang.payload == PayloadLayout.GLSL

    def ctor_id(self, vname: str, ctor: str) -> str:
        """The constructor's identifier sarek-legalize-names recorded (`π` -> `v`)."""
        return self.ctor_name(namer.CTOR_IDS, vname, ctor)

    def payload_path(self, vname: str, ctor: str, arity: int, i: int) -> str:
        """The member chain of payload `i` inside the variant struct (analysis/payload.py's layout)."""
        return ".".join(payload_fields(self.lang.payload, self.ctor_id(vname, ctor), arity, i))

    def tag_const(self, vname: str, ctor: str) -> str:
        v = self.variants[vname]
        return f"{v.ctor_index(ctor)}{self.lang.i32_suffix}"
