"""sarek-widen-f16{target=T}: f16 as a storage type (computed in f32, stored as correctly rounded bits) on the
targets whose own f16 is missing or not correctly rounded (OpenCL, Metal, GLSL, WGSL).

The interpreters carry an f16 value as an f32 and round it to half precision (to nearest even) at every cast,
constant and store (`let_mut` init, `store`). Native `half` conversions do not give those bits everywhere: OpenCL
and Vulkan drivers were measured to fuse the f32 -> f16 narrowing with the arithmetic before it, and WGSL's f16
needs a device feature. So on `target` opencl, metal, glsl and wgsl (any other target is left unchanged; CUDA,
HIP and PTX keep their own half) this pass removes f16 from the kernel:

- every f16 scalar (locals, helper parameters and results, operators, conditionals) becomes f32;
- a vector or shared/local array of f16 becomes one of u16 holding the half's bits (the host's float16 bytes;
  on GLSL and WGSL sarek-pack-narrow then packs the u16 into 32-bit words): an element read widens the bits to
  f32 exactly in integer arithmetic (normals by moving the exponent, subnormals as `f32(m) * 2^-24`, inf and NaN
  with their payload), an element store rounds the f32 to the nearest even half in integer arithmetic (overflow
  to inf, subnormals, -0.0, a NaN keeps its sign and top payload bits; numpy's float32 -> float16 bits);
- a conversion to f16, an f16 constant, a `let_mut` of f16 and a store into one round the same way (round
  trip through the bits), and an f16 scalar kernel parameter (passed as f32) is rounded on entry.

Refused with the reason (a located error): f16 record fields and variant payloads. (The dialect has no atomics
on f16.) Cooperative-matrix ops on f16 (GLSL) keep their f16 fragments, marked `sarek.words`: their vectors
hold the half's bits, which the GLSL lowering reads through a float16_t declaration of the binding.
"""

from __future__ import annotations

from typing import Any, cast

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, FloatAttr, ModuleOp, UnitAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.dialect import sarek as s
from sarek.dialect import scalars
from sarek.passes.insert_before import InsertBefore
from sarek.registry import TARGETS, target_info

#: the targets whose f16 is stored as bits and computed in f32 (their descriptors' `widen_f16`)
WIDENING_TARGETS = tuple(name for name, d in TARGETS.items() if d.widen_f16)
F16 = Float16Type()


def _has_f16(t: Attribute) -> bool:
    while isinstance(t, s.VecType | s.ArrayType | s.RefType):
        t = t.element_type
    return isinstance(t, Float16Type)


def _mentions(t: Attribute, record: str) -> bool:
    while isinstance(t, s.VecType | s.ArrayType | s.RefType):
        t = t.element_type
    return isinstance(t, s.RecordType) and t.decl_name == record


def _first_use(m: ModuleOp, record: str) -> Operation | None:
    """The first op of a kernel or helper that computes with record type `record` (where the user wrote it; the
    declaration of a built-in vector type is sarek's own source line)."""
    for op in m.walk():
        if not isinstance(op, s.RecordOp) and any(_mentions(v.type, record) for v in (*op.results, *op.operands)):
            return op
    return None


class _Bits(InsertBefore):
    """Integer-arithmetic f32 <-> f16 conversions built before an op."""

    def i32_of(self, op: Operation, cond: SSAValue) -> SSAValue:
        return self.before(op, s.CastOp(cond, i32))

    def select(self, op: Operation, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        """`cond ? x : y` on i32 without a branch: y ^ ((x ^ y) & -cond)."""
        mask = self.bin(op, "sub", self.c(op, 0), self.i32_of(op, cond))
        return self.bin(op, "bitxor", y, self.bin(op, "bitand", self.bin(op, "bitxor", x, y), mask))

    def minimum(self, op: Operation, a: SSAValue, b: int) -> SSAValue:
        return self.before(op, s.IntrinsicOp("min", [a, self.c(op, b)]))

    def narrow(self, op: Operation, f: SSAValue) -> SSAValue:
        """The f16 bits (an i32 in 0..0xFFFF) of the f32 `f` rounded to nearest even."""
        x = self.before(op, s.BitcastOp(f, i32))
        sign = self.bin(op, "bitand", self.bin(op, "shr", x, 16), 0x8000)
        a = self.bin(op, "bitand", x, 0x7FFFFFFF)
        # normal halves: rebias the exponent, round the 13 dropped bits to even (a carry reaches inf)
        odd = self.bin(op, "bitand", self.bin(op, "shr", a, 13), 1)
        hn = self.bin(op, "shr", self.bin(op, "add", self.bin(op, "add", a, 0xFFF - 0x38000000), odd), 13)
        hn = self.minimum(op, hn, 0x7C00)
        # subnormal halves: the significand shifted right by 126 - exponent (25: everything below 2^-25 is 0)
        e = self.bin(op, "shr", a, 23)
        m = self.bin(op, "bitor", self.bin(op, "bitand", a, 0x7FFFFF), 0x800000)
        sh = self.before(op, s.IntrinsicOp("max", [self.minimum(op, self.bin(op, "sub", self.c(op, 126), e), 25),
                                                   self.c(op, 1)]))
        half = self.bin(op, "sub", self.bin(op, "shl", self.c(op, 1), self.bin(op, "sub", sh, 1)), 1)
        sodd = self.bin(op, "bitand", self.bin(op, "shr", m, sh), 1)
        hs = self.bin(op, "shr", self.bin(op, "add", self.bin(op, "add", m, half), sodd), sh)
        # inf and NaN: the top 10 payload bits, a NaN whose top bits are all 0 keeps one (numpy's choice)
        sig = self.bin(op, "bitand", a, 0x7FFFFF)
        lost = self.bin(op, "bitand", self.i32_of(op, self.bin(op, "ne", sig, 0)),
                        self.i32_of(op, self.bin(op, "lt", sig, 0x2000)))
        hi = self.bin(op, "bitor", self.bin(op, "bitor", self.bin(op, "shr", sig, 13), 0x7C00), lost)
        h = self.select(op, self.bin(op, "ge", a, 0x38800000), hn, hs)
        h = self.select(op, self.bin(op, "ge", a, 0x7F800000), hi, h)
        return self.bin(op, "bitor", sign, h)

    def widen(self, op: Operation, h: SSAValue) -> SSAValue:
        """The f32 holding exactly the f16 whose bits are the i32 `h` (0..0xFFFF)."""
        sign = self.bin(op, "shl", self.bin(op, "bitand", h, 0x8000), 16)
        e = self.bin(op, "bitand", self.bin(op, "shr", h, 10), 0x1F)
        m13 = self.bin(op, "shl", self.bin(op, "bitand", h, 0x3FF), 13)
        normal = self.bin(op, "bitor", self.bin(op, "shl", self.bin(op, "add", e, 112), 23), m13)
        special = self.bin(op, "bitor", m13, 0x7F800000)
        m = self.before(op, s.CastOp(self.bin(op, "bitand", h, 0x3FF), scalars.F32))
        scale = self.before(op, s.ConstantOp(FloatAttr(2.0 ** -24, scalars.F32), scalars.F32))
        sub = self.before(op, s.BitcastOp(self.before(op, s.BinOp("mul", m, scale)), i32))
        bits = self.select(op, self.bin(op, "eq", e, 31), special, normal)
        bits = self.select(op, self.bin(op, "eq", e, 0), sub, bits)
        return self.before(op, s.BitcastOp(self.bin(op, "bitor", sign, bits), scalars.F32))

    def round(self, op: Operation, f: SSAValue) -> SSAValue:
        """The f32 `f` rounded to the nearest even f16 (kept as an f32)."""
        return self.widen(op, self.narrow(op, f))


class _Widener(_Bits):
    def __init__(self, module: ModuleOp, target: str):
        super().__init__(target)
        self.m = module
        self.storage: set[SSAValue] = set()  # refs into u16 storage (element refs of f16 vectors/arrays)
        #: an element read's widened f32 -> the u16 bits it was widened from: stored as they are into f16 storage
        #: (narrowing the widened bits gives them back, every one of the 65536 patterns)
        self.read_bits: dict[SSAValue, SSAValue] = {}

    def storage_type(self, t: Attribute) -> Attribute:
        if isinstance(t, s.VecType) and isinstance(t.element_type, Float16Type):
            return s.VecType(scalars.U16, t.ndim)
        if isinstance(t, s.ArrayType) and isinstance(t.element_type, Float16Type):
            return s.ArrayType(scalars.U16, t.memspace, t.ndim)
        return t

    def value_type(self, t: Attribute) -> Attribute:
        if isinstance(t, Float16Type):
            return scalars.F32
        if isinstance(t, s.RefType) and isinstance(t.element_type, Float16Type):
            return s.RefType(scalars.F32)
        return self.storage_type(t)

    def retype(self, v: SSAValue, t: Attribute) -> SSAValue:
        return v if t == v.type else self.rw.replace_value_with_new_type(v, t)

    def refuse(self) -> None:
        for op in self.m.walk():
            if isinstance(op, s.RecordOp) and op.sym_name.data == "f16x2" and any(_has_f16(t) for _, t in op.fields):
                raise self.err(f"f16x2 values not supported on {self.display}, which stores f16 as its 16 bits only "
                               "in vectors and arrays, not in a record's lanes: use f32x2 (f32(h) per lane), or a "
                               "Vec[f16] of pairs", _first_use(self.m, "f16x2") or op)
            if isinstance(op, s.RecordOp) and any(_has_f16(t) for _, t in op.fields):
                raise self.err(f"record '{op.sym_name.data}' has an f16 field, which {self.display} stores as "
                               "its 16 bits only in vectors and arrays; make the field f32, or u16 holding the bits",
                               op)
            if isinstance(op, s.VariantOp) and any(_has_f16(p) for _, ps in op.ctors for p in ps):
                raise self.err(f"variant '{op.sym_name.data}' has an f16 payload, which {self.display} cannot "
                               "store; make the payload f32", op)

    def run(self) -> None:
        self.refuse()
        ops = list(self.m.walk())
        for op in ops:  # storage first: vectors and arrays of f16 hold u16 bits, element refs point at them
            if isinstance(op, s.HelperOp) and isinstance(op.return_type, Float16Type):
                op.properties["return_type"] = scalars.F32
            for r in op.regions:
                for b in r.blocks:
                    for a in b.args:
                        self.retype(a, self.storage_type(a.type))
            if isinstance(op, s.ElemRefOp) and op.result.type == s.RefType(F16):
                self.storage.add(self.retype(op.result, s.RefType(scalars.U16)))
            for res in op.results:
                self.retype(res, self.storage_type(res.type))
        params = [(k, i) for k in ops if isinstance(k, s.KernelOp) for i, (_, a) in enumerate(k.params)
                  if isinstance(a.type, Float16Type)]
        for op in ops:
            self.rewrite(op)
        for op in list(self.m.walk()):  # then every f16 scalar value is an f32
            for r in op.regions:
                for b in r.blocks:
                    for a in b.args:
                        self.retype(a, self.value_type(a.type))
            for res in op.results:
                self.retype(res, self.value_type(res.type))
        for op in list(self.m.walk()):
            if isinstance(op, s.CastOp) and op.operand.type == op.result.type:
                self.rw.replace_op(op, [], [op.operand])
        for k, i in params:  # passed as an f32 (the runtimes give its value): rounded once on entry
            a = k.body.block.args[i]
            uses = list(a.uses)
            first = a.block.first_op
            assert first is not None
            r = self.round(first, a)
            for u in uses:
                u.operation.operands[u.index] = r
        self.coop_words()

    def coop_words(self) -> None:
        """Cooperative matrices (GLSL's; the gate refuses them on the other widening targets) keep f16
        fragments: a load or store of a vector now holding u16 bits, and a fill given the f32 value, are marked
        WORDS (the GLSL lowering reads the bits through a float16_t view of the buffer)."""
        for op in self.m.walk():
            if isinstance(op, s.COOPMAT_OPS) and not isinstance(op, s.CoopmatDeclOp | s.CoopmatMulAddOp) and \
                    isinstance(s.fragment_decl(op, op.frag.data).element_type, Float16Type):
                op.attributes[s.WORDS] = UnitAttr()

    def rewrite(self, op: Operation) -> None:
        if isinstance(op, s.ArrayReadOp) and isinstance(op.result.type, Float16Type) or \
                isinstance(op, s.LoadOp) and op.ref in self.storage:
            bits = self.before(op, s.ArrayReadOp(op.array, list(op.indices)) if isinstance(op, s.ArrayReadOp)
                               else s.LoadOp(op.ref))
            wide = self.widen(op, self.before(op, s.CastOp(bits, i32)))
            self.read_bits[wide] = bits
            self.rw.replace_op(op, [], [wide])
        elif isinstance(op, s.StoreOp) and op.place in self.storage:
            raw = self.read_bits.get(op.value)  # an f16 element copied as it is: its bits, not a round trip
            bits = raw if raw is not None else self.before(op, s.CastOp(self.narrow(op, op.value), scalars.U16))
            self.rw.replace_op(op, [s.StoreOp(op.place, bits)], [])
        elif isinstance(op, s.StoreOp | s.LetMutOp) and isinstance(_stored(op).type, Float16Type):
            v = _stored(op)
            op.operands[list(op.operands).index(v)] = self.round(op, v)
        elif isinstance(op, s.CastOp) and isinstance(op.result.type, Float16Type):
            x = op.operand
            if not isinstance(x.type, Float16Type):
                x = x if x.type == scalars.F32 else self.before(op, s.CastOp(x, scalars.F32))
                x = self.round(op, x)
            self.rw.replace_op(op, [], [x])
        elif isinstance(op, s.BitcastOp) and isinstance(op.result.type, Float16Type):
            self.rw.replace_op(op, [], [op.operand])
        elif isinstance(op, s.ConstantOp) and isinstance(op.result.type, Float16Type):
            assert isinstance(op.value, FloatAttr)
            v = float(np.float16(cast(Any, op.value).value.data))
            self.rw.replace_op(op, [s.ConstantOp(FloatAttr(v, scalars.F32), scalars.F32)])


def _stored(op: s.StoreOp | s.LetMutOp) -> SSAValue:
    return op.value if isinstance(op, s.StoreOp) else op.init


@dataclass(frozen=True)
class WidenF16Pass(ModulePass):
    """f16 as a storage type: computed in f32, stored as its bits rounded to nearest even (OpenCL, Metal,
    GLSL, WGSL).

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx): on opencl, metal, glsl and wgsl, f16
    scalars become f32, vectors and shared/local arrays of f16 hold u16 bits (reads widen exactly, stores
    round to nearest even in integer arithmetic, as the interpreters do), and casts to f16, f16 constants,
    `let_mut` of f16 and stores into one round the same way; other targets keep their half and the module is
    unchanged.
    """

    name = "sarek-widen-f16"

    target: str = "opencl"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if target_info(self.target, self.name).widen_f16:
            _Widener(op, self.target).run()


__all__ = ["WidenF16Pass", "WIDENING_TARGETS"]
