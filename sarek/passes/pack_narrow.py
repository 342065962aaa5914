"""sarek-pack-narrow{target=T}: 8/16-bit integer and bf16 storage as 32-bit words, for GLSL and WGSL.

WGSL has no 8- or 16-bit storage and core GLSL 450 none either, so on those targets (`target` glsl or wgsl;
any other target is left unchanged, it stores the widths natively) the shader lowering must never see a
narrow type. This pass removes them:

- A vector (kernel or helper parameter) of u8/i8/u16/i16/bf16, or of records holding such fields, becomes a
  `!sarek.vec<i32, N>` of the same rank holding the host's bytes as little-endian words (records at the
  aligned layout's byte offsets, sarek.analysis.layout). Its length/extents stay in elements (the host passes
  the element shape). An element read is a word read (`sarek.array_read %w[0, .., 0, %word]` marked
  `{sarek.flat}`: the last index is the word offset) + shift + mask (+ sign extension for i8/i16; bf16: the
  16 bits << 16, bitcast to f32). An element store is an atomic read-modify-write of its word
  (`atomic_and` clears its bits, `atomic_or` sets them; neighbouring lanes share the word); a 32-bit leaf of
  a packed record is an `atomic_exch`. The kernel records the original element types in `sarek.packed`
  (parameter name -> type; a record: its element size in bytes; a by-value record of narrow fields: its type),
  which the runtimes and the interpreter read to marshal the bytes.
- Shared and local arrays of narrow types hold one element per 32-bit slot (their layout is never seen by
  the host).
- Narrow scalars (locals, parameters, constants, record fields, helper parameters and results) compute in
  i32 (8/16-bit integers: C promotes them before arithmetic anyway) or f32 (bf16). A conversion to a narrow
  type truncates explicitly: `& 0xFF` / `& 0xFFFF` for u8/u16, `(x << 24) >> 24` / `(x << 16) >> 16` for
  i8/i16 (from a float: converted to i32, then clamped to the type's range, as the interpreters do); to bf16 the f32 bits are rounded to nearest even in integer arithmetic (every NaN becomes the quiet NaN 0x7fc0):
  the value a bf16 store keeps on every device (sarek.dialect.scalars.bf16_round).

Unsigned negation `-x` becomes `0 - x` (WGSL has no unary minus on u32; wgpu's SPIR-V reader refuses GLSL's)
and an unsigned `a % b` becomes `a - b * (a / b)` (the shaders' remainder helper is for signed operands).

A record holding narrow fields passed by value arrives with those fields widened (the Vulkan runtime converts
it). Refused with the reason: variants with narrow payloads and 64-bit fields in packed records. Last, on
glsl and wgsl, it refuses at the kernel an interface the shading language cannot hold
(sarek.analysis.features.check_shader_interface: judged here, where the interface is final).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.features import LIMIT_SOURCES, check_shader_interface
from sarek.analysis.layout import RecordLayout, layout_of
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect import scalars
from sarek.passes.insert_before import InsertBefore
from sarek.registry import target_info

#: the targets whose storage has no 8/16-bit widths
PACKING_TARGETS = ("glsl", "wgsl")
#: a word read whose indices are all zero but the last, the word offset (a packed vector)
FLAT = "sarek.flat"
#: a kernel's dictionary of packed parameters: a vector's name -> its original element type (a record: its
#: element size in bytes); a by-value record holding narrow fields -> its type (its fields arrive widened)
PACKED = "sarek.packed"


def narrow_records(module: ModuleOp) -> set[str]:
    """The records holding an 8/16-bit or bf16 field (directly or in a nested record)."""
    decls = {d.sym_name.data: d for d in module.ops if isinstance(d, s.RecordOp)}
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for n, d in decls.items():
            if n not in out and any(scalars.is_narrow(t) or isinstance(t, s.RecordType) and t.decl_name in out
                                    for _, t in d.fields):
                out.add(n)
                changed = True
    return out


def is_packed_element(t: Attribute, records: set[str]) -> bool:
    """Whether a vector of `t` is stored as packed words: a narrow scalar or a record of `records`."""
    return scalars.is_narrow(t) or isinstance(t, s.RecordType) and t.decl_name in records


@dataclass
class _Loc:
    """A place inside a packed vector: element `elem` (i32) of `vec`, `offset` bytes into it, of type `t`."""

    vec: SSAValue
    elem: SSAValue
    offset: int
    t: Attribute


class _Packer(InsertBefore):
    def __init__(self, module: ModuleOp, target: str):
        super().__init__(target)
        self.m = module
        self.records = narrow_records(module)
        self.orig: dict[SSAValue, Attribute] = {}
        self.layouts: dict[str, RecordLayout] = {}
        for r in self.records:
            lay = layout_of(module, s.RecordType(r))
            assert isinstance(lay, RecordLayout)
            self.layouts[r] = lay
        self.orig_fields = {r: dict(cast(s.RecordOp, self.decl(r)).fields) for r in self.records}

    # -------------------------------------------------------------------------------- types

    def widen(self, t: Attribute) -> Attribute:
        if scalars.is_narrow(t):
            return scalars.promote(t)
        if isinstance(t, s.VecType):
            return s.VecType(i32, t.ndim) if is_packed_element(t.element_type, self.records) else t
        if isinstance(t, s.ArrayType):
            return s.ArrayType(self.widen(t.element_type), t.memspace, t.ndim)
        if isinstance(t, s.RefType):
            return s.RefType(self.widen(t.element_type))
        return t

    def type_of(self, v: SSAValue) -> Attribute:
        """The type `v` had before the pass."""
        return self.orig.get(v, v.type)

    def retype(self, v: SSAValue) -> None:
        w = self.widen(v.type)
        if w != v.type:
            old = v.type
            nv = self.rw.replace_value_with_new_type(v, w)
            self.orig[nv] = old

    def retype_all(self) -> None:
        """Every value, declaration and constant of a narrow type gets its 32-bit type."""
        for op in list(self.m.walk()):
            if isinstance(op, s.VariantOp):
                for c, ps in op.ctors:
                    if any(scalars.is_narrow(p) or isinstance(p, s.RecordType) and p.decl_name in self.records
                           for p in ps):
                        raise self.err(f"variant '{op.sym_name.data}': constructor '{c}' has an 8/16-bit or bf16 "
                                       f"payload, which {self.display} cannot store (no narrow storage); widen "
                                       "the payload to i32 or f32", op)
            elif isinstance(op, s.RecordOp):
                if op.sym_name.data in self.records:
                    op.properties["field_types"] = ArrayAttr([self.widen(t) for _, t in op.fields])
                continue
            elif isinstance(op, s.KernelOp):
                self.kernel_params(op)
            elif isinstance(op, s.HelperOp):
                op.properties["return_type"] = self.widen(op.return_type)
            elif isinstance(op, s.ConstantOp):
                self.constant(op)
            for r in op.regions:
                for b in r.blocks:
                    for a in b.args:
                        self.retype(a)
            for res in op.results:
                self.retype(res)

    def kernel_params(self, k: s.KernelOp) -> None:
        packed: dict[str, Attribute] = {}
        for (n, a) in k.params:
            t = a.type
            if isinstance(t, s.VecType) and is_packed_element(t.element_type, self.records):
                et = t.element_type
                packed[n] = IntegerAttr(self.layouts[et.decl_name].size, i32) if isinstance(et, s.RecordType) else et
            elif isinstance(t, s.RecordType) and t.decl_name in self.records:  # by value: its fields widened
                packed[n] = t
        if packed:
            k.attributes[PACKED] = DictionaryAttr(packed)

    def constant(self, op: s.ConstantOp) -> None:
        t, v = op.result.type, op.value
        if scalars.is_small_int(t) and isinstance(v, IntegerAttr):
            op.properties["value"] = IntegerAttr(cast(IntegerAttr, v).value.data, i32)
        elif scalars.is_bf16(t) and isinstance(v, FloatAttr):
            op.properties["value"] = FloatAttr(float(cast(FloatAttr, v).value.data), scalars.F32)

    # -------------------------------------------------------------------------------- building

    def cast(self, op: Operation, v: SSAValue, t: Attribute) -> SSAValue:
        return v if v.type == t else self.before(op, s.CastOp(v, t))

    def wrap(self, op: Operation, v: SSAValue, t: Attribute) -> SSAValue:
        """An i32 converted to the 8/16-bit integer type t (modulo 2^width, in t's range), kept in an i32."""
        w = scalars.int_width(t)
        if scalars.is_unsigned(t):
            return self.bin(op, "bitand", v, (1 << w) - 1)
        return self.bin(op, "shr", self.bin(op, "shl", v, 32 - w), 32 - w)

    def saturate(self, op: Operation, x: SSAValue, t: Attribute) -> SSAValue:
        """A float converted to the 8/16-bit integer type t as the interpreters do: converted to i32 (truncated
        toward zero, saturated, NaN to 0: every target's one float -> integer conversion), then clamped to t's
        range (kept in an i32)."""
        lo, hi = scalars.int_range(t)
        v = self.before(op, s.IntrinsicOp("max", [self.cast(op, x, i32), self.c(op, lo)]))
        return self.before(op, s.IntrinsicOp("min", [v, self.c(op, hi)]))

    def round_bf16(self, op: Operation, f: SSAValue) -> SSAValue:
        """An f32 rounded to the nearest even bf16, as an f32; every NaN becomes the quiet NaN 0x7fc0 (the bits
        scalars.bf16_round gives on every device)."""
        b = self.before(op, s.BitcastOp(f, i32))
        odd = self.bin(op, "bitand", self.bin(op, "shr", b, 16), 1)
        rounded = self.bin(op, "bitand", self.bin(op, "add", self.bin(op, "add", b, 0x7FFF), odd), -65536)
        quiet = self.c(op, 0x7FC00000)
        nan = self.bin(op, "gt", self.bin(op, "bitand", b, 0x7FFFFFFF), 0x7F800000)
        mask = self.bin(op, "sub", self.c(op, 0), self.cast(op, nan, i32))
        bits = self.bin(op, "bitxor", rounded, self.bin(op, "bitand", self.bin(op, "bitxor", rounded, quiet), mask))
        return self.before(op, s.BitcastOp(bits, scalars.F32))

    # -------------------------------------------------------------------------------- conversions

    def conversion(self, op: s.CastOp) -> None:
        src, dst = self.type_of(op.operand), self.type_of(op.result)
        if not (scalars.is_narrow(src) or scalars.is_narrow(dst)):
            return
        x = op.operand
        if scalars.is_small_int(dst) and isinstance(x.type, Float32Type | Float64Type):
            r = self.saturate(op, x, dst)
        elif scalars.is_small_int(dst):
            r = self.wrap(op, self.cast(op, x, i32), dst)
        elif scalars.is_bf16(dst):
            r = self.round_bf16(op, self.cast(op, x, scalars.F32))
        else:
            r = self.cast(op, x, dst)
        if r is not x:  # a later conversion from this value sees its narrow type
            self.orig.setdefault(r, dst)
        self.rw.replace_op(op, [], [r])

    # -------------------------------------------------------------------------------- packed accesses

    def element_index(self, op: Operation, vec: SSAValue, idx: Sequence[SSAValue]) -> SSAValue:
        """The row-major element offset of `idx` in `vec` (the extents passed with it)."""
        e = self.cast(op, idx[0], i32)
        for d, x in enumerate(idx[1:], 1):
            n = self.before(op, s.ArrayDimOp(vec, d))
            e = self.bin(op, "add", self.bin(op, "mul", e, n), self.cast(op, x, i32))
        return e

    def elem_size(self, t: Attribute) -> int:
        return self.layouts[t.decl_name].size if isinstance(t, s.RecordType) else layout_of(self.m, t).size

    def byte_and_word(self, op: Operation, loc: _Loc) -> tuple[SSAValue, SSAValue]:
        vt = cast(s.VecType, self.type_of(loc.vec))
        size = self.elem_size(vt.element_type)
        b = self.bin(op, "mul", loc.elem, size) if size != 1 else loc.elem
        if loc.offset:
            b = self.bin(op, "add", b, loc.offset)
        return b, self.bin(op, "shr", b, 2)

    def word_read(self, op: Operation, vec: SSAValue, word: SSAValue) -> SSAValue:
        ndim = cast(s.VecType, vec.type).ndim
        idx = [self.c(op, 0) for _ in range(ndim - 1)] + [word]
        rd = s.ArrayReadOp(vec, idx)
        if ndim > 1:
            rd.attributes[FLAT] = UnitAttr()
        return self.before(op, rd)

    def leaf_size(self, t: Attribute, op: Operation) -> int:
        size = layout_of(self.m, t).size
        if size not in (1, 2, 4):
            raise self.err(f"a {size * 8}-bit field in a record holding 8/16-bit fields is not supported on "
                           f"{self.display} (packed 32-bit words); keep such records to fields of at most 32 bits",
                           op)
        return size

    def read(self, op: Operation, loc: _Loc) -> SSAValue:
        """The value at `loc`, in its 32-bit type."""
        t = loc.t
        if isinstance(t, s.RecordType):
            lay = self.layouts[t.decl_name]
            vals = [self.read(op, _Loc(loc.vec, loc.elem, loc.offset + off, self.orig_field(t.decl_name, f)))
                    for f, off in lay.fields]
            return self.before(op, s.MakeRecordOp(t.decl_name, vals))
        size = self.leaf_size(t, op)
        b, w = self.byte_and_word(op, loc)
        word = self.word_read(op, loc.vec, w)
        if size == 4:
            if t == i1:
                return self.bin(op, "ne", word, 0)
            if scalars.is_unsigned(t):
                return self.cast(op, word, t)
            return word if t == i32 else self.before(op, s.BitcastOp(word, t))
        sh = self.bin(op, "shl", self.bin(op, "bitand", b, 3 if size == 1 else 2), 3)
        bits = 8 * size
        if scalars.is_bf16(t):
            half = self.bin(op, "bitand", self.bin(op, "shr", word, sh), 0xFFFF)
            return self.before(op, s.BitcastOp(self.bin(op, "shl", half, 16), scalars.F32))
        if scalars.is_unsigned(t):
            return self.bin(op, "bitand", self.bin(op, "shr", word, sh), (1 << bits) - 1)
        up = self.bin(op, "sub", self.c(op, 32 - bits), sh)
        return self.bin(op, "shr", self.bin(op, "shl", word, up), 32 - bits)

    def write(self, op: Operation, loc: _Loc, v: SSAValue) -> None:
        """Store `v` (in its 32-bit type) at `loc`: atomic read-modify-writes of the words it shares."""
        t = loc.t
        if isinstance(t, s.RecordType):
            for f, off in self.layouts[t.decl_name].fields:
                ft = self.orig_field(t.decl_name, f)
                fv = self.before(op, s.FieldOp(v, f, self.widen(ft)))
                self.write(op, _Loc(loc.vec, loc.elem, loc.offset + off, ft), fv)
            return
        size = self.leaf_size(t, op)
        b, w = self.byte_and_word(op, loc)
        if scalars.is_bf16(t):  # the bits of a rounded value directly (no float round trip of a NaN)
            src = v.owner
            bits = src.operand if isinstance(src, s.BitcastOp) and src.operand.type == i32 \
                else self.before(op, s.BitcastOp(v, i32))
            v = self.bin(op, "shr", bits, 16)
        elif t == i1 or scalars.is_unsigned(t):
            v = self.cast(op, v, i32)
        elif t != i32:
            v = self.before(op, s.BitcastOp(v, i32)) if size == 4 else v
        if size == 4:
            self.before(op, s.IntrinsicOp("atomic_exch", [loc.vec, w, v], i32))
            return
        sh = self.bin(op, "shl", self.bin(op, "bitand", b, 3 if size == 1 else 2), 3)
        mask = (1 << (8 * size)) - 1
        clear = self.bin(op, "bitxor", self.bin(op, "shl", self.c(op, mask), sh), -1)
        self.before(op, s.IntrinsicOp("atomic_and", [loc.vec, w, clear], i32))
        put = self.bin(op, "shl", self.bin(op, "bitand", v, mask), sh)
        self.before(op, s.IntrinsicOp("atomic_or", [loc.vec, w, put], i32))

    def decl(self, name: str) -> Operation:
        for d in self.m.ops:
            if isinstance(d, s.RecordOp) and d.sym_name.data == name:
                return d
        raise KeyError(name)

    def orig_field(self, rec: str, f: str) -> Attribute:
        return self.orig_fields[rec][f]

    def packed_vec(self, v: SSAValue) -> bool:
        t = self.type_of(v)
        return isinstance(t, s.VecType) and is_packed_element(t.element_type, self.records)

    def accesses(self) -> None:
        """Rewrite every read, place and store of a packed vector's elements (the dialect has no atomics on
        narrow elements)."""
        refs: dict[SSAValue, _Loc] = {}
        dead: list[Operation] = []
        for op in list(self.m.walk()):
            if isinstance(op, s.ArrayReadOp) and self.packed_vec(op.array):
                et = cast(s.VecType, self.type_of(op.array)).element_type
                loc = _Loc(op.array, self.element_index(op, op.array, list(op.indices)), 0, et)
                uses = [u.operation for u in op.result.uses]
                if isinstance(et, s.RecordType) and uses and all(isinstance(u, s.FieldOp) for u in uses):
                    for u in uses:  # `a[i].x`: only the fields read
                        f = cast(s.FieldOp, u).field.data
                        off = dict(self.layouts[et.decl_name].fields)[f]
                        self.rw.replace_op(u, [], [self.read(u, _Loc(loc.vec, loc.elem, off, self.orig_field(et.decl_name, f)))])
                    self.rw.erase_op(op)
                else:
                    self.rw.replace_op(op, [], [self.read(op, loc)])
            elif isinstance(op, s.ElemRefOp) and self.packed_vec(op.array):
                et = cast(s.VecType, self.type_of(op.array)).element_type
                refs[op.result] = _Loc(op.array, self.element_index(op, op.array, list(op.indices)), 0, et)
                dead.append(op)
            elif isinstance(op, s.FieldRefOp) and op.base in refs:
                base = refs[op.base]
                assert isinstance(base.t, s.RecordType)
                off = dict(self.layouts[base.t.decl_name].fields)[op.field.data]
                refs[op.result] = _Loc(base.vec, base.elem, base.offset + off,
                                       self.orig_field(base.t.decl_name, op.field.data))
                dead.append(op)
            elif isinstance(op, s.LoadOp) and op.ref in refs:
                self.rw.replace_op(op, [], [self.read(op, refs[op.ref])])
            elif isinstance(op, s.StoreOp) and op.place in refs:
                self.write(op, refs[op.place], op.value)
                self.rw.erase_op(op)
        for op in reversed(dead):
            if any(r.uses for r in op.results):
                raise self.err(f"a place in a packed vector (8/16-bit or bf16 elements) can only be read and "
                               f"stored on {self.display}", op)
            self.rw.erase_op(op)

    def unsigned_ops(self) -> None:
        """WGSL has no unary minus on u32, and wgpu's SPIR-V reader (naga) refuses GLSL's (OpSNegate on a
        uint): `-x` is `0 - x` (the same modulo 2^width). An unsigned `a % b` is `a - b * (a / b)` here, so
        the shader's signed remainder helper is never declared for u32 too (WGSL has no overloading)."""
        for op in list(self.m.walk()):
            if isinstance(op, s.UnOp) and op.kind.data.value == "neg" and scalars.is_unsigned(op.operand.type):
                zero = self.before(op, s.ConstantOp.from_value(0, op.operand.type))
                self.rw.replace_op(op, [], [self.before(op, s.BinOp("sub", zero, op.operand))])
            elif isinstance(op, s.BinOp) and op.kind.data.value == "rem" and scalars.is_unsigned(op.lhs.type):
                q = self.before(op, s.BinOp("div", op.lhs, op.rhs))
                r = self.before(op, s.BinOp("sub", op.lhs, self.before(op, s.BinOp("mul", op.rhs, q))))
                self.rw.replace_op(op, [], [r])

    def coop_words(self) -> None:
        """A cooperative-matrix load or store of a packed vector keeps its word vector (the GLSL lowering
        reads it through an alias of its binding in the narrow type), a fill of a narrow fragment takes the
        widened value: both marked WORDS. (GLSL refuses narrow fragments of shared arrays, which hold one
        element per word; WGSL refuses cooperative matrices.)"""
        for op in self.m.walk():
            if isinstance(op, s.CoopmatLoadOp | s.CoopmatStoreOp) and self.type_of(op.array) != op.array.type \
                    or isinstance(op, s.CoopmatFillOp) and self.type_of(op.value) != op.value.type:
                op.attributes[s.WORDS] = UnitAttr()

    def run(self) -> None:
        self.unsigned_ops()
        self.retype_all()
        self.coop_words()
        for op in list(self.m.walk()):
            if isinstance(op, s.CastOp):
                self.conversion(op)
        self.accesses()


@dataclass(frozen=True)
class PackNarrowPass(ModulePass):
    """Store 8/16-bit integers and bf16 as 32-bit words for targets without narrow storage (GLSL, WGSL).

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx): on glsl and wgsl, vectors of narrow
    elements (and of records holding narrow fields) become i32 word vectors read with shift and mask and
    written with atomic read-modify-writes, narrow scalars compute in i32/f32 with explicit truncation at each
    conversion, and bf16 stores round to nearest even; other targets store those widths natively and the
    module is unchanged. Then, on glsl and wgsl, a kernel whose interface the shading language cannot hold
    (a by-value record of other than i32/f32 fields on WGSL, a bool field in a buffer record, GLSL push
    constants over 128 bytes, unless `limits=device`: sarek-reject-features' option) is refused at the kernel:
    judged here, where the interface is final.
    """

    name = "sarek-pack-narrow"

    target: str = "wgsl"
    # portable: GLSL's parameter block against the 128 bytes of push constants Vulkan guarantees; device: left
    # to the device compiling for itself (vulkan-glsl checks its maxPushConstantsSize at launch)
    limits: str = "portable"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target_info(self.target, self.name)
        if self.limits not in LIMIT_SOURCES:
            raise SarekError(f"sarek-pack-narrow: limits must be {' or '.join(LIMIT_SOURCES)}, not '{self.limits}'")
        if self.target in PACKING_TARGETS:
            _Packer(op, self.target).run()
        check_shader_interface(op, self.target, self.limits)


__all__ = ["PackNarrowPass", "is_packed_element", "narrow_records", "FLAT", "PACKED"]
