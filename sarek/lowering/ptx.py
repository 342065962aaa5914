"""`sarek-lower-ptx`: sarek dialect -> `sarek_ptx` instructions (one `sarek_ptx.entry` per kernel).

Decisions (all made here; the printer only prints):
- Values live in typed virtual registers: i1 -> .pred, i32 -> .s32, i64 -> .s64, f16 -> .f16, f32 -> .f32,
  f64 -> .f64, addresses -> .u64. A record value is one register group per field; a variant value is its tag
  (.s32) plus the payload area as .b32 words (the C union, so any constructor's payload fits and copies are
  layout-exact). Mutable locals (`sarek.let_mut`) are registers; `sarek.load` copies them.
- Structured control flow becomes labels and (guarded) `bra`; `for` is half-open with its constant step.
- Vectors: each vector parameter is a `.u64` pointer (`cvta.to.global`) followed by an `.s32` length (like the
  C backends); elements are addressed `base + index * size` with sizes and field offsets from the aligned
  layout (sarek.analysis.layout), so records/variants in memory match the host and the C structs byte for byte.
- Integer semantics of C: `div.s32`/`rem.s32` truncate, `shr.s32` is arithmetic, wrapping add/mul. A
  constant divisor is shifts (2^k) or a multiply-high (sarek.lowering.divide), never ptxas's reciprocal
  sequence; a variant's aligned payload word pairs are `.v2.b32` accesses.
  Float: `div.rn`, `sqrt.rn` (correctly rounded, never .approx); transcendentals arrive as calls to the sarek
  math library (`sarek-expand-math`), the exact math ops are sarek.targets.ptx.mathlib's; f16 is storage only (arithmetic in f32, narrowing `cvt.rn.f16.f32`).
- Helpers are inlined at each call (a `sarek.return` branches to the call's end label); recursion is refused.
- Warp shuffles arrive as `sarek-lower-warp`'s helpers (the lane guard); only their in-range absolute
  `warp_shuffle` is lowered here (`shfl.sync.idx.b32`); `lane_id` is `%laneid`, `warp_size` `WARP_SZ`.
- A `sarek.native` op's `ptx` text is emitted verbatim.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis import namer
from sarek.analysis.features import constant_size
from sarek.analysis.shapes import row_major
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as sk
from sarek.dialect import scalars
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.lowering.divide import signed_magic, unsigned_magic
from sarek.passes.lower_warp import IN_RANGE
from sarek.registry import display_name
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr, imm

BACKEND = display_name("ptx")


def ptx_error(msg: str, op: Operation | None = None) -> SarekError:
    return SarekError(msg, op, BACKEND)


# ------------------------------------------------------------------------------------------------ values


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
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    return None


SPECULATE_MAX_OPS = 12  # operations (both arms together) an if_expr may compute unconditionally


def _speculatable(r: Region) -> bool:
    """A value region that only computes in registers: constants, arithmetic (integer division by zero does
    not trap in PTX), casts, record fields and reads of mutable locals — nothing that touches memory, calls,
    synchronises or nests control flow."""
    for o in r.block.ops:
        if isinstance(o, sk.LoadOp):
            if not isinstance(o.ref.owner, sk.LetMutOp):
                return False
        elif not isinstance(o, sk.ConstantOp | sk.BinOp | sk.UnOp | sk.CastOp | sk.BitcastOp | sk.FieldOp | sk.YieldOp):
            return False
    return True


def is_f(t: Attribute) -> bool:
    return isinstance(t, Float16Type | Float32Type | Float64Type)


def entry_name(kernel: str) -> str:
    """The `.entry` name the PTX of kernel `kernel` declares (what a runtime looks up): sarek.analysis.namer's."""
    return namer.entry_name(kernel, "ptx")


# ------------------------------------------------------------------------------------------------ emitter

# Attributes are immutable values, so the registers, immediates and names every function uses again are built
# (and verified) once per process: that saves about a tenth of this lowering's time (bench_compile.py).
_reg_attr = functools.lru_cache(maxsize=4096)(RegAttr)
_imm_attr = functools.lru_cache(maxsize=1024)(imm)
_str_attr = functools.lru_cache(maxsize=1024)(StringAttr)


class Emitter:
    """Registers, labels and the instruction list of one function."""

    def __init__(self, fname: str):
        self.fname = fname
        self.ops: list[Operation] = []
        self.decls: list[Operation] = []
        self.counts: dict[str, int] = {}
        self.nlabels = 0
        self.narrays = 0
        #: registers holding a scalar constant -> the constant as an immediate operand (instructions take it
        #: directly; the constant's own `mov` is dropped when nothing reads the register, `drop_dead_consts`)
        self.imms: dict[RegAttr, Attribute] = {}

    def imm(self, r: RegAttr) -> Attribute:
        """The immediate a constant's register stands for, else the register."""
        return self.imms.get(r, r)

    def drop_dead_consts(self) -> None:
        """Remove the `mov` of every constant whose register no instruction reads (they all took the immediate)."""
        read: set[Attribute] = set()

        def walk(a: Attribute) -> None:
            if isinstance(a, RegAttr):
                read.add(a)
            elif isinstance(a, AddrAttr):
                walk(a.base)
            elif isinstance(a, ArrayAttr):
                for x in cast(ArrayAttr[Attribute], a).data:
                    walk(x)

        defs: dict[int, RegAttr] = {}
        for i, o in enumerate(self.ops):
            if not isinstance(o, px.Instr):
                continue
            args = o.args.data
            if isinstance(o, px.MovOp) and args and isinstance(args[0], RegAttr) and args[0] in self.imms:
                defs[i] = args[0]
                args = args[1:]
            for a in args:
                walk(a)
            if o.guard is not None:
                read.add(o.guard)
        self.ops = [o for i, o in enumerate(self.ops) if i not in defs or defs[i] in read]

    def reg(self, ty: str) -> RegAttr:
        n = self.counts.get(ty, 0) + 1
        self.counts[ty] = n
        return _reg_attr(ty, n)

    def label(self, hint: str) -> str:
        self.nlabels += 1
        return f"$L_{hint}_{self.nlabels}"

    def emit(self, cls: type[px.Instr], mods: list[str] | str, *args: Any, guard: RegAttr | None = None,
             neg: bool = False) -> None:
        ms = mods.split(".") if isinstance(mods, str) else mods
        self.ops.append(cls([m for m in ms if m], [self._opnd(a) for a in args], guard, neg))

    def place_label(self, name: str) -> None:
        self.ops.append(px.LabelOp(name))

    def bra(self, target: str, guard: RegAttr | None = None, neg: bool = False) -> None:
        self.emit(px.BraOp, "", StringAttr(target), guard=guard, neg=neg)

    @staticmethod
    def _opnd(a: Any) -> Attribute:
        if isinstance(a, bool):
            return _imm_attr(int(a))
        if isinstance(a, int):
            return _imm_attr(a)
        if isinstance(a, str):
            return _str_attr(a)
        if isinstance(a, list):
            from xdsl.dialects.builtin import ArrayAttr

            return ArrayAttr([Emitter._opnd(x) for x in cast(list[Any], a)])
        return cast(Attribute, a)

    # -- small helpers used everywhere

    def mov(self, ty: str, d: RegAttr | list[RegAttr], s: Any) -> None:
        # PTX has no mov.f16: a half register moves as its 16 bits (a record copy with an f16 field, an f16 let)
        self.emit(px.MovOp, "b16" if ty == "f16" else ty, d, s)

    def fconst(self, v: float, ty: str = "f32") -> RegAttr:
        r = self.reg(ty)
        self.mov(ty, r, FloatAttr(v, f32 if ty == "f32" else f64))
        return r

    def iconst(self, v: int, ty: str = "s32") -> RegAttr:
        r = self.reg(ty)
        self.mov(ty, r, v)
        return r

    def op2(self, cls: type[px.Instr], mods: str, ty: str, a: Any, b: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a, b)
        return d

    def op1(self, cls: type[px.Instr], mods: str, ty: str, a: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a)
        return d

    def op3(self, cls: type[px.Instr], mods: str, ty: str, a: Any, b: Any, c: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a, b, c)
        return d

    def setp(self, cmp: str, ty: str, a: Any, b: Any) -> RegAttr:
        p = self.reg("pred")
        self.emit(px.SetpOp, f"{cmp}.{ty}", p, a, b)
        return p

    def selp(self, ty: str, a: Any, b: Any, p: RegAttr) -> RegAttr:
        d = self.reg(ty)
        self.emit(px.SelpOp, ty, d, a, b, p)
        return d

    def cvt(self, mods: str, ty: str, a: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(px.CvtOp, mods, d, a)
        return d


# ------------------------------------------------------------------------------------------------ lowering


@dataclass
class LoopLabels:
    """Where `break` (`end`) and `continue` go in a loop; a for's next-iteration label is made on first use."""

    end: str
    cont: str | None = None
    em: Emitter | None = None

    def continue_label(self) -> str:
        if self.cont is None:
            assert self.em is not None
            self.cont = self.em.label("fornext")
        return self.cont


@dataclass
class FnState:
    em: Emitter
    env: dict[SSAValue, Any] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    loops: list[LoopLabels] = field(default_factory=list)  # innermost last
    # integer quotients computed in the enclosing blocks (a block's entries dominate its nested regions)
    quotients: list[dict[tuple[str, int, int], RegAttr]] = field(default_factory=lambda: [{}])

    def quotient(self, a: RegAttr, b: RegAttr) -> RegAttr | None:
        return self.quotient_of((a.ty.data, a.n.data, b.n.data))

    def quotient_of(self, key: tuple[str, int, int]) -> RegAttr | None:
        for scope in reversed(self.quotients):
            if key in scope:
                return scope[key]
        return None


class Lowering:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.helpers = {op.sym_name.data: op for op in module.ops if isinstance(op, sk.HelperOp)}
        self._layouts: dict[Attribute, Any] = {}

    # -- layout

    def layout(self, t: Attribute, op: Operation | None = None) -> Any:
        if t not in self._layouts:
            from sarek.analysis.layout import LayoutError, layout_of

            try:
                self._layouts[t] = layout_of(self.module, t)
            except LayoutError as e:
                raise ptx_error(e.message, op) from None
        return self._layouts[t]

    def size_align(self, t: Attribute, op: Operation | None = None) -> tuple[int, int]:
        lay = self.layout(t, op)
        return lay.size, lay.align

    def record_decl(self, t: sk.RecordType) -> sk.RecordOp:
        for op in self.module.ops:
            if isinstance(op, sk.RecordOp) and op.sym_name.data == t.decl_name:
                return op
        raise ptx_error(f"record @{t.decl_name} is not declared")

    def variant_decl(self, t: sk.VariantType) -> sk.VariantOp:
        for op in self.module.ops:
            if isinstance(op, sk.VariantOp) and op.sym_name.data == t.decl_name:
                return op
        raise ptx_error(f"variant @{t.decl_name} is not declared")

    def nwords(self, t: sk.VariantType, op: Operation | None = None) -> int:
        lay = self.layout(t, op)
        return (lay.size - lay.payload_offset) // 4

    # -- module

    def run(self) -> list[Operation]:
        out: list[Operation] = []
        for op in self.module.ops:
            if isinstance(op, sk.KernelOp):
                out.append(self.kernel(op))
        return out

    def kernel(self, k: sk.KernelOp) -> px.EntryOp:
        name = entry_name(k.sym_name.data)
        em = Emitter(name)
        st = FnState(em)
        params: list[tuple[str, str, int]] = []
        try:
            from sarek.analysis.writes import written_params

            written = written_params(self.module, k.sym_name.data)
        except Exception:  # no effect analysis: treat every vector as written
            written = set(range(len(k.params)))
        for i, (pname, arg) in enumerate(k.params):
            t = arg.type
            base = f"{name}_param_{len(params)}"
            if isinstance(t, sk.VecType):
                ptr = em.reg("u64")
                params.append((base, "u64", 8))
                em.emit(px.LdOp, "param.u64", ptr, AddrAttr(base))
                em.emit(px.CvtaOp, "to.global.u64", ptr, ptr)
                lens: list[RegAttr | int] = []
                for _ in range(t.ndim):  # its length, or the extents of an N-dimensional one
                    ln = em.reg("s32")
                    lname = f"{name}_param_{len(params)}"
                    params.append((lname, "s32", 4))
                    em.emit(px.LdOp, "param.s32", ln, AddrAttr(lname))
                    lens.append(ln)
                self.layout(t.element_type, k)
                st.env[arg] = Buf(t.element_type, "global", ptr, lens[0], readonly=i not in written,
                                  dims=tuple(lens) if t.ndim > 1 else ())
            elif isinstance(t, sk.RecordType | sk.VariantType):
                size, align = self.size_align(t, k)
                params.append((base, f"b8[{size}]", align))
                st.env[arg] = self.load_mem(st, t, "param", base, 0, k)
            else:
                rt = scalar_reg_type(t)
                if rt is None:
                    raise ptx_error(f"kernel parameter '{pname}' has type {t}, which has no PTX parameter form", k)
                if rt == "pred":
                    params.append((base, "s32", 4))
                    tmp = em.reg("s32")
                    em.emit(px.LdOp, "param.s32", tmp, AddrAttr(base))
                    st.env[arg] = Sc(t, em.setp("ne", "s32", tmp, 0))
                elif rt == "f16":
                    params.append((base, "b16", 2))
                    r = em.reg("f16")
                    em.emit(px.LdOp, "param.b16", r, AddrAttr(base))
                    st.env[arg] = Sc(t, r)
                elif scalars.is_narrow(t):
                    mt = _narrow_mem(t)
                    params.append((base, mt, int(mt[1:]) // 8))
                    st.env[arg] = self.load_mem(st, t, "param", base, 0, k)
                else:
                    params.append((base, rt, 8 if rt in ("s64", "f64") else 4))
                    r = em.reg(rt)
                    em.emit(px.LdOp, f"param.{rt}", r, AddrAttr(base))
                    st.env[arg] = Sc(t, r)
        self.block(st, k.body.block)
        em.emit(px.RetOp, "")
        em.drop_dead_consts()
        entry = px.EntryOp(name, params)
        for op in em.decls + em.ops:
            entry.body.block.add_op(op)
        return entry

    # -- registers for values

    def fresh(self, st: FnState, t: Attribute, op: Operation | None = None) -> Any:
        if isinstance(t, sk.UnitType):
            return None
        rt = scalar_reg_type(t)
        if rt is not None:
            return Sc(t, st.em.reg(rt))
        if isinstance(t, sk.RecordType):
            d = self.record_decl(t)
            return Rec(t, [self.fresh(st, ft, op) for _, ft in d.fields])
        if isinstance(t, sk.VariantType):
            return Var(t, st.em.reg("s32"), [st.em.reg("b32") for _ in range(self.nwords(t, op))])
        raise ptx_error(f"a value of type {t} has no PTX register form", op)

    def copy(self, st: FnState, dst: Any, src: Any) -> None:
        em = st.em
        if dst is None:
            return
        if isinstance(dst, Sc):
            em.mov(dst.r.ty.data, dst.r, em.imm(src.r))
        elif isinstance(dst, Rec):
            for d, s in zip(dst.fields, src.fields):
                self.copy(st, d, s)
        elif isinstance(dst, Var):
            em.mov("s32", dst.tag, src.tag)
            for d, s in zip(dst.words, src.words):
                em.mov("b32", d, s)
        else:
            raise ptx_error(f"cannot copy {dst}")

    # -- memory

    def load_mem(self, st: FnState, t: Attribute, space: str, base: RegAttr | str, off: int,
                 op: Operation | None = None) -> Any:
        em = st.em
        rt = scalar_reg_type(t)
        a = AddrAttr(base, off)
        if scalars.is_narrow(t):  # .s8/.u8/.s16/.u16 loads extend into a 32-bit register
            r = em.reg("u32" if scalars.is_bf16(t) else cast(str, rt))
            em.emit(px.LdOp, f"{space}.{_narrow_mem(t)}", r, a)
            return Sc(t, r if not scalars.is_bf16(t) else self.bf16_widen(em, r))
        if rt == "pred":
            tmp = em.reg("s32")
            em.emit(px.LdOp, f"{space}.s32", tmp, a)
            return Sc(t, em.setp("ne", "s32", tmp, 0))
        if rt == "f16":
            r = em.reg("f16")
            em.emit(px.LdOp, f"{space}.b16", r, a)
            return Sc(t, r)
        if rt is not None:
            r = em.reg(rt)
            em.emit(px.LdOp, f"{space}.{rt}", r, a)
            return Sc(t, r)
        if isinstance(t, sk.RecordType):
            lay = self.layout(t, op)
            d = self.record_decl(t)
            return Rec(t, [self.load_mem(st, ft, space, base, off + o, op)
                           for (_, ft), (_, o) in zip(d.fields, lay.fields)])
        if isinstance(t, sk.VariantType):
            lay = self.layout(t, op)
            self._check_variant(t, op)
            tag = em.reg("s32")
            em.emit(px.LdOp, f"{space}.s32", tag, a)
            words = [em.reg("b32") for _ in range(self.nwords(t, op))]
            for o, group in self._word_groups(lay, off, words):
                em.emit(px.LdOp, f"{space}{'.v2' if len(group) == 2 else ''}.b32",
                        group if len(group) == 2 else group[0], AddrAttr(base, o))
            return Var(t, tag, words)
        raise ptx_error(f"cannot load a value of type {t}", op)

    def store_mem(self, st: FnState, t: Attribute, space: str, base: RegAttr | str, off: int, v: Any,
                  op: Operation | None = None) -> None:
        em = st.em
        rt = scalar_reg_type(t)
        a = AddrAttr(base, off)
        if scalars.is_narrow(t):  # the low 8/16 bits of the register (a bf16 value's top 16 bits)
            r = v.r if not scalars.is_bf16(t) else em.op2(px.ShrOp, "b32", "u32", self.bits(em, v.r), 16)
            em.emit(px.StOp, f"{space}.{_narrow_mem(t)}", a, r)
        elif rt == "pred":
            em.emit(px.StOp, f"{space}.s32", a, em.selp("s32", 1, 0, v.r))
        elif rt == "f16":
            em.emit(px.StOp, f"{space}.b16", a, v.r)
        elif rt is not None:
            em.emit(px.StOp, f"{space}.{rt}", a, v.r)
        elif isinstance(t, sk.RecordType):
            lay = self.layout(t, op)
            d = self.record_decl(t)
            for (_, ft), (_, o), fv in zip(d.fields, lay.fields, v.fields):
                self.store_mem(st, ft, space, base, off + o, fv, op)
        elif isinstance(t, sk.VariantType):
            lay = self.layout(t, op)
            em.emit(px.StOp, f"{space}.s32", a, v.tag)
            for o, group in self._word_groups(lay, off, list(v.words)):
                em.emit(px.StOp, f"{space}{'.v2' if len(group) == 2 else ''}.b32", AddrAttr(base, o),
                        group if len(group) == 2 else group[0])
        else:
            raise ptx_error(f"cannot store a value of type {t}", op)

    @staticmethod
    def _word_groups(lay: Any, off: int, words: list[RegAttr]) -> list[tuple[int, list[RegAttr]]]:
        """A variant's payload words as (offset, words) accesses: pairs at 8-byte aligned offsets become one
        .v2.b32 access where the variant is 8-byte aligned (its layout's alignment, which every buffer, shared
        and local array of it has), single words otherwise — half the memory instructions of word-by-word
        copies (NVVM's 8-byte accesses; BENCHMARKS.md `storage`)."""
        out: list[tuple[int, list[RegAttr]]] = []
        i = 0
        while i < len(words):
            o = off + lay.payload_offset + 4 * i
            if lay.align >= 8 and o % 8 == 0 and i + 1 < len(words):
                out.append((o, words[i:i + 2]))
                i += 2
            else:
                out.append((o, [words[i]]))
                i += 1
        return out

    def _check_variant(self, t: sk.VariantType, op: Operation | None) -> None:
        lay = self.layout(t, op)
        for c in lay.ctors:
            for leaf in c.leaves:
                if leaf.size not in (4, 8):
                    raise ptx_error(f"variant @{t.decl_name}: payload {leaf.path} has type {leaf.type}; PTX variants hold "
                               "4- and 8-byte payload scalars only (f16/ui8 payloads are not implemented)", op)

    def elem_addr(self, st: FnState, buf: Buf, idx: Sc, op: Operation) -> RegAttr:
        """base + idx * size, computed once per (array, index register) in a block and the blocks it dominates
        (the quotient cache's scopes: index registers are not reassigned within them)."""
        size, _ = self.size_align(buf.elt, op)
        key = (f"addr.{buf.base.ty.data}.{idx.r.ty.data}.{size}", buf.base.n.data, idx.r.n.data)
        a = st.quotient_of(key)
        if a is None:
            a = st.quotients[-1][key] = self._elem_addr(st, buf, idx, size)
        return a

    def _elem_addr(self, st: FnState, buf: Buf, idx: Sc, size: int) -> RegAttr:
        em = st.em
        if buf.base.ty.data == "u32":  # shared / local: base + index * size in 32 bits
            i32r = idx.r if idx.r.ty.data == "s32" else em.cvt("u32.s64", "u32", idx.r)
            a32 = em.reg("u32")
            em.emit(px.MadOp, "lo.s32", a32, i32r, size, buf.base)
            return a32
        t = em.reg("u64")
        if idx.r.ty.data == "s32":
            em.emit(px.MulOp, "wide.s32", t, idx.r, size)
        else:
            em.emit(px.MulOp, "lo.s64", t, idx.r, size)
        a = em.reg("u64")
        em.emit(px.AddOp, "s64", a, buf.base, t)
        return a

    # -- payload words <-> values

    def pack(self, st: FnState, v: Any, t: Attribute, words: list[RegAttr], off: int, op: Operation) -> None:
        """Write value `v` of type `t` into payload words at byte offset `off` (relative to the payload)."""
        em = st.em
        rt = scalar_reg_type(t)
        if rt is not None:
            if off % 4:
                raise ptx_error(f"payload scalar at offset {off} is not word aligned", op)
            k = off // 4
            if rt == "pred":
                em.emit(px.SelpOp, "b32", words[k], 1, 0, v.r)
            elif rt in ("s32", "f32"):
                em.mov("b32", words[k], v.r)
            elif rt in ("s64", "f64"):
                em.mov("b64", [words[k], words[k + 1]], v.r)
            else:
                raise ptx_error(f"a {t} payload is not implemented on PTX", op)
        elif isinstance(t, sk.RecordType):
            lay = self.layout(t, op)
            d = self.record_decl(t)
            for (_, ft), (_, o), fv in zip(d.fields, lay.fields, v.fields):
                self.pack(st, fv, ft, words, off + o, op)
        else:
            raise ptx_error(f"a {t} payload is not implemented on PTX", op)

    def unpack(self, st: FnState, t: Attribute, words: list[RegAttr], off: int, op: Operation) -> Any:
        em = st.em
        rt = scalar_reg_type(t)
        if rt is not None:
            k = off // 4
            if rt == "pred":
                return Sc(t, em.setp("ne", "b32", words[k], 0))
            if rt in ("s32", "f32"):
                r = em.reg(rt)
                em.mov("b32", r, words[k])
                return Sc(t, r)
            if rt in ("s64", "f64"):
                r = em.reg(rt)
                em.mov("b64", r, [words[k], words[k + 1]])
                return Sc(t, r)
            raise ptx_error(f"a {t} payload is not implemented on PTX", op)
        if isinstance(t, sk.RecordType):
            lay = self.layout(t, op)
            d = self.record_decl(t)
            return Rec(t, [self.unpack(st, ft, words, off + o, op) for (_, ft), (_, o) in zip(d.fields, lay.fields)])
        raise ptx_error(f"a {t} payload is not implemented on PTX", op)

    def payload(self, st: FnState, v: Var, ctor: str, i: int, op: Operation) -> Any:
        d = self.variant_decl(v.ty)
        lay = self.layout(v.ty, op)
        ci = d.ctor_index(ctor)
        ps = d.ctors[ci][1]
        return self.unpack(st, ps[i], v.words, lay.ctors[ci].offsets[i] - lay.payload_offset, op)

    # -- statements

    def block(self, st: FnState, b: Block) -> None:
        st.quotients.append({})
        try:
            for op in b.ops:
                self.op(st, op)
        finally:
            st.quotients.pop()

    def region_value(self, st: FnState, r: Region) -> Any:
        """Lower a region ending in sarek.yield; returns the yielded value."""
        res = None
        st.quotients.append({})
        try:
            for op in r.block.ops:
                if isinstance(op, sk.YieldOp):
                    res = st.env[op.value]
                else:
                    self.op(st, op)
        finally:
            st.quotients.pop()
        return res

    def val(self, st: FnState, v: SSAValue) -> Any:
        return st.env[v]

    def op(self, st: FnState, op: Operation) -> None:
        env = st.env
        try:
            meth = getattr(self, "op_" + type(op).__name__, None)
            if meth is None:
                raise ptx_error(f"{op.name} is not supported by the PTX backend", op)
            r = meth(st, op)
        except SarekError:
            raise
        except (KeyError, IndexError, AttributeError, ValueError, TypeError) as e:
            raise ptx_error(f"internal error lowering {op.name}: {type(e).__name__}: {e}", op) from e
        if r is not None and op.results:
            env[op.results[0]] = r

    # constants, arithmetic

    def op_ConstantOp(self, st: FnState, op: sk.ConstantOp) -> Any:
        em = st.em
        t = op.result.type
        v = op.value
        if isinstance(t, sk.UnitType):
            return None
        rt = scalar_reg_type(t)
        r = em.reg(rt or "?")
        if rt == "pred":
            assert isinstance(v, IntegerAttr)
            em.emit(px.SetpOp, "ne.s32", r, em.iconst(int(v.value.data != 0)), 0)
        elif rt in ("s32", "s64", "u32", "u64"):
            assert isinstance(v, IntegerAttr)
            em.mov(rt, r, v.value.data)
            em.imms[r] = _imm_attr(v.value.data)
        elif rt in ("f32", "f64"):
            assert isinstance(v, FloatAttr)
            fa = FloatAttr(v.value.data, f32 if rt == "f32" else f64)
            em.mov(rt, r, fa)
            em.imms[r] = fa
        elif rt == "f16":
            import numpy as np

            assert isinstance(v, FloatAttr)
            bits = int(np.array(v.value.data, dtype=np.float16).view(np.uint16))
            em.mov("b16", r, bits)
        else:
            raise ptx_error(f"constant of type {t}", op)
        return Sc(t, r)

    def op_BinOp(self, st: FnState, op: sk.BinOp) -> Any:
        em = st.em
        a, b = self.val(st, op.lhs), self.val(st, op.rhs)
        t = op.lhs.type
        k = op.op.value
        rt = scalar_reg_type(t)
        if rt == "f16":  # storage-only: compute in f32, round back to f16
            x, y = em.cvt("f32.f16", "f32", a.r), em.cvt("f32.f16", "f32", b.r)
            r = self._binop(st, k, f32, "f32", x, y, op)
            if k in ("eq", "ne", "lt", "le", "gt", "ge"):
                return Sc(i1, r)
            return Sc(t, em.cvt("rn.f16.f32", "f16", r))
        x, y = a.r, b.r
        if k in _COMMUTATIVE and x in em.imms and y not in em.imms:
            x, y = y, x
        r = self._binop(st, k, t, rt or "?", x, y, op)
        return Sc(i1 if k in ("eq", "ne", "lt", "le", "gt", "ge") else t, r)

    def _binop(self, st: FnState, k: str, t: Attribute, rt: str, a: RegAttr, b: RegAttr, op: Operation) -> RegAttr:
        """`a k b`; a constant second operand is written as an immediate (ptxas folds it into the instruction;
        through a register it often does not, e.g. a division by a register holding a constant)."""
        em = st.em
        bi = em.imm(b)
        if rt == "pred":
            if k in ("and", "or"):
                return em.op2(px.AndOp if k == "and" else px.OrOp, "pred", "pred", a, b)
            x = em.op2(px.XorOp, "pred", "pred", a, b)
            if k == "ne":
                return x
            if k == "eq":
                return em.op1(px.NotOp, "pred", "pred", x)
            raise ptx_error(f"'{k}' on i1", op)
        cmp = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
        if is_f(t):
            if k in cmp:
                # C: != is true on NaN (unordered), the others are ordered
                return em.setp("neu" if k == "ne" else cmp[k], rt, a, bi)
            # .rn: IEEE add/sub/mul, never contracted into fma by ptxas, so results are bit-identical to
            # the interpreter and numpy; sarek-contract{fma=on} (the default fp policy) drops it afterwards
            if k == "add":
                return em.op2(px.AddOp, f"rn.{rt}", rt, a, bi)
            if k == "sub":
                return em.op2(px.SubOp, f"rn.{rt}", rt, a, bi)
            if k == "mul":
                return em.op2(px.MulOp, f"rn.{rt}", rt, a, bi)
            if k == "div":
                return em.op2(px.DivOp, f"rn.{rt}", rt, a, bi)
            raise ptx_error(f"'{k}' on {t}", op)
        w = rt[1:]
        if k in cmp:
            return em.setp(cmp[k], rt, a, bi)
        if k in ("div", "rem"):
            # C truncating division; rem = a - (a / b) * b (sign of the dividend, as rem.sNN) shares the
            # quotient with a div of the same operands, like NVCC (integer division is a long sequence)
            c = _const_int(op.operands[1]) if len(op.operands) == 2 else None
            q = st.quotient(a, b)
            if q is None:
                q = self._quotient(em, rt, int(w), a, b, c)
                st.quotients[-1][(a.ty.data, a.n.data, b.n.data)] = q
            if k == "div":
                return q
            if c is not None and c > 0 and c & (c - 1) == 0:
                return em.op2(px.SubOp, rt, rt, a, em.op2(px.ShlOp, f"b{w}", rt, q, c.bit_length() - 1))
            return em.op2(px.SubOp, rt, rt, a, em.op2(px.MulOp, f"lo.{rt}", rt, q, b if c is None else c))
        simple = {"add": (px.AddOp, rt), "sub": (px.SubOp, rt), "mul": (px.MulOp, f"lo.{rt}"),
                  "bitand": (px.AndOp, f"b{w}"),
                  "bitor": (px.OrOp, f"b{w}"), "bitxor": (px.XorOp, f"b{w}")}
        if k in simple:
            cls, mods = simple[k]
            return em.op2(cls, mods, rt, a, bi)
        if k in ("shl", "shr"):
            amount: Any = bi
            c = _const_int(op.operands[1]) if len(op.operands) == 2 else None
            if rt in ("s64", "u64"):
                amount = c & 63 if c is not None else em.cvt(f"u32.{rt}", "u32", b)
            elif c is not None:
                amount = c & 31
            if k == "shl":
                return em.op2(px.ShlOp, f"b{w}", rt, a, amount)
            return em.op2(px.ShrOp, rt, rt, a, amount)  # arithmetic on signed types
        raise ptx_error(f"'{k}' on {t}", op)

    @staticmethod
    def _quotient(em: Emitter, rt: str, w: int, a: RegAttr, b: RegAttr, c: int | None) -> RegAttr:
        """a / b truncated toward zero. A constant divisor is an immediate (ptxas then multiplies by its
        reciprocal; a register holding it is divided by the long sequence), and a positive power of two
        2^k is shifts: (a + (sign(a) >>> (w - k))) >> k, as NVCC emits."""
        if c is None or c == 0:
            return em.op2(px.DivOp, rt, rt, a, b)
        d = abs(c) if rt.startswith("s") else c
        if d > 1 and d & (d - 1) and (rt.startswith("s") or c > 0):
            return Lowering._magic_quotient(em, rt, w, a, c)
        if c > 0 and c & (c - 1) == 0:
            k = c.bit_length() - 1
            if k == 0:
                return a
            if rt.startswith("u"):
                return em.op2(px.ShrOp, rt, rt, a, k)
            sign = em.op2(px.ShrOp, rt, rt, a, w - 1)
            bias = em.op2(px.ShrOp, f"b{w}", rt, sign, w - k)
            return em.op2(px.ShrOp, rt, rt, em.op2(px.AddOp, rt, rt, a, bias), k)
        return em.op2(px.DivOp, rt, rt, a, c)

    @staticmethod
    def _magic_quotient(em: Emitter, rt: str, w: int, a: RegAttr, c: int) -> RegAttr:
        """a / c for a constant c that is not a power of two: a multiply-high and shifts
        (sarek.lowering.divide), as NVVM emits; ptxas would divide by the immediate with its long
        reciprocal sequence (I2F.U32.RP, MUFU.RCP ..., BENCHMARKS.md `storage`)."""
        if rt.startswith("s"):
            m, sh = signed_magic(abs(c), w)
            t = em.op2(px.AddOp, rt, rt, a, em.op2(px.MulOp, f"hi.{rt}", rt, a, m))
            if sh:
                t = em.op2(px.ShrOp, rt, rt, t, sh)
            q = em.op2(px.SubOp, rt, rt, t, em.op2(px.ShrOp, rt, rt, a, w - 1))
            return em.op1(px.NegOp, rt, rt, q) if c < 0 else q
        m, ell = unsigned_magic(c, w)
        t = em.op2(px.MulOp, f"hi.{rt}", rt, a, m)
        x = em.op2(px.AddOp, rt, rt, em.op2(px.ShrOp, rt, rt, em.op2(px.SubOp, rt, rt, a, t), 1), t)
        return em.op2(px.ShrOp, rt, rt, x, ell - 1) if ell > 1 else x

    def op_UnOp(self, st: FnState, op: sk.UnOp) -> Any:
        em = st.em
        a = self.val(st, op.operand)
        t = op.operand.type
        rt = scalar_reg_type(t) or "?"
        k = op.op.value
        if k == "not":
            return Sc(t, em.op1(px.NotOp, "pred", "pred", a.r))
        if k == "bitnot":
            return Sc(t, em.op1(px.NotOp, f"b{rt[1:]}", rt, a.r))
        if rt in ("u32", "u64"):  # neg has no unsigned form: the same bits as the signed negation
            return Sc(t, em.op1(px.NegOp, f"s{rt[1:]}", rt, a.r))
        if rt == "f16":
            x = em.cvt("f32.f16", "f32", a.r)
            return Sc(t, em.cvt("rn.f16.f32", "f16", em.op1(px.NegOp, "f32", "f32", x)))
        return Sc(t, em.op1(px.NegOp, rt, rt, a.r))

    def op_CastOp(self, st: FnState, op: sk.CastOp) -> Any:
        return Sc(op.result.type, self.cast(st, self.val(st, op.operand), op.result.type))

    def op_BitcastOp(self, st: FnState, op: sk.BitcastOp) -> Any:
        """`mov.b32`/`mov.b64` between registers of the two types (the same bits)."""
        a = self.val(st, op.operand)
        d = scalar_reg_type(op.result.type) or "?"
        r = st.em.reg(d)
        st.em.mov("f16" if d == "f16" else f"b{sk.scalar_width(op.result.type)}", r, a.r)
        return Sc(op.result.type, r)

    def cast(self, st: FnState, a: Sc, to: Attribute) -> RegAttr:
        em = st.em
        if scalars.is_narrow(a.ty) or scalars.is_narrow(to):
            return self.narrow_cast(st, a, to)
        s, d = scalar_reg_type(a.ty) or "?", scalar_reg_type(to) or "?"
        if s == d:
            r = em.reg(d)
            em.mov(d, r, a.r)
            return r
        if s == "pred":
            if d in ("s32", "s64"):
                return em.selp(d, 1, 0, a.r)
            if d == "f16":
                return em.cvt("rn.f16.s32", "f16", em.selp("s32", 1, 0, a.r))
            one = FloatAttr(1.0, f32 if d == "f32" else f64)
            zero = FloatAttr(0.0, f32 if d == "f32" else f64)
            return em.selp(d, one, zero, a.r)
        if d == "pred":
            if s == "f16":
                return em.setp("neu", "f32", em.cvt("f32.f16", "f32", a.r), FloatAttr(0.0, f32))
            if s in ("f32", "f64"):
                return em.setp("neu", s, a.r, FloatAttr(0.0, f32 if s == "f32" else f64))
            return em.setp("ne", s, a.r, 0)
        sf, df = s.startswith("f"), d.startswith("f")
        if sf and df:
            widen = {"f16": 16, "f32": 32, "f64": 64}
            rnd = "rn." if widen[d] < widen[s] else ""
            return em.cvt(f"{rnd}{d}.{s}", d, a.r)
        if not sf and df:
            return em.cvt(f"rn.{d}.{s}", d, a.r)
        if sf and not df:
            return em.cvt(f"rzi.{d}.{s}", d, a.r)  # C: truncation toward zero
        return em.cvt(f"{d}.{s}", d, a.r)  # integer widening sign-extends, narrowing wraps

    def narrow_cast(self, st: FnState, a: Sc, to: Attribute) -> RegAttr:
        """Casts from and to the 8/16-bit integers and bf16. Their registers hold the value extended to 32
        bits (bf16: the exact f32), so a source reads as i32/ui32/f32; an integer destination keeps the low
        bits, sign- or zero-extended (C's conversion), a float source saturating first (as the
        interpreter); bf16 rounds an f32 to nearest even with integer code (sarek.dialect.scalars)."""
        em = st.em
        src = a.ty
        if scalars.is_small_int(src) or scalars.is_bf16(src):
            src = scalars.F32 if scalars.is_bf16(src) else scalars.U32 if scalars.is_unsigned(src) else sk.i32
            if src == to or (scalars.is_narrow(to) and src == scalars.promote(to) and not scalars.is_bf16(to)
                             and scalars.int_width(a.ty) <= scalars.int_width(to)
                             and scalars.is_unsigned(a.ty) == scalars.is_unsigned(to)):
                r = em.reg(scalar_reg_type(to) or "?")
                em.mov(scalar_reg_type(to) or "?", r, a.r)
                return r
            a = Sc(src, a.r)
            if not scalars.is_narrow(to):
                return self.cast(st, a, to)
        if scalars.is_bf16(to):
            f = a.r if a.ty == scalars.F32 else self.cast(st, a, scalars.F32)
            return self.bf16_widen(em, self.bf16_round(em, f))
        w = scalars.int_width(to)
        lo, hi = scalars.int_range(to)
        s = scalar_reg_type(a.ty) or "?"
        if s.startswith("f"):
            x = self.cast(st, a, sk.i32)  # saturating at i32, then to the narrow range
            x = em.op2(px.MinOp, "s32", "s32", em.op2(px.MaxOp, "s32", "s32", x, lo), hi)
        elif s == "pred":
            x = em.selp("s32", 1, 0, a.r)
        elif s in ("s64", "u64"):
            x = em.cvt(f"u32.{s}", "u32", a.r)
        else:
            x = a.r
        d = scalar_reg_type(to) or "?"
        if scalars.is_unsigned(to):
            return em.op2(px.AndOp, "b32", d, x, (1 << w) - 1)
        return em.op2(px.ShrOp, "s32", d, em.op2(px.ShlOp, "b32", "s32", x, 32 - w), 32 - w)  # sign-extend

    @staticmethod
    def bits(em: Emitter, f: RegAttr) -> RegAttr:
        r = em.reg("u32")
        em.mov("b32", r, f)
        return r

    def bf16_round(self, em: Emitter, f: RegAttr) -> RegAttr:
        """f32 register -> the bf16 bits (in a .u32), rounded to nearest even, any NaN the quiet NaN 0x7fc0."""
        u = self.bits(em, f)
        hi = em.op2(px.ShrOp, "b32", "u32", u, 16)
        odd = em.op2(px.AndOp, "b32", "u32", hi, 1)
        rounded = em.op2(px.ShrOp, "b32", "u32", em.op2(px.AddOp, "u32", "u32", em.op2(px.AddOp, "u32", "u32", u,
                                                                                        0x7FFF), odd), 16)
        nan = em.setp("gt", "u32", em.op2(px.AndOp, "b32", "u32", u, 0x7FFFFFFF), 0x7F800000)
        return em.selp("u32", 0x7FC0, rounded, nan)

    @staticmethod
    def bf16_widen(em: Emitter, bits: RegAttr) -> RegAttr:
        """bf16 bits (low half of a .u32) -> the exact f32 value."""
        f = em.reg("f32")
        em.mov("b32", f, em.op2(px.ShlOp, "b32", "u32", bits, 16))
        return f

    # names

    def op_LetOp(self, st: FnState, op: sk.LetOp) -> Any:
        return self.val(st, op.operands[0])

    def op_LetMutOp(self, st: FnState, op: sk.LetMutOp) -> Any:
        init = self.val(st, op.operands[0])
        v = self.fresh(st, cast(sk.RefType, op.results[0].type).element_type, op)
        self.copy(st, v, init)
        return RegPlace(v)

    def op_LoadOp(self, st: FnState, op: sk.LoadOp) -> Any:
        p = self.val(st, op.operands[0])
        t = op.results[0].type
        if isinstance(p, RegPlace):
            v = self.fresh(st, t, op)
            self.copy(st, v, p.val)
            return v
        return self.load_mem(st, p.ty, p.space, p.addr, p.off, op)

    def op_StoreOp(self, st: FnState, op: sk.StoreOp) -> Any:
        p = self.val(st, op.operands[0])
        v = self.val(st, op.operands[1])
        if isinstance(p, RegPlace):
            self.copy(st, p.val, v)
        else:
            self.store_mem(st, p.ty, p.space, p.addr, p.off, v, op)
        return None

    def op_ElemRefOp(self, st: FnState, op: sk.ElemRefOp) -> Any:
        buf = self.val(st, op.array)
        return MemPlace(buf.elt, buf.space, *self.access_place(st, buf, op))

    def elem_place(self, st: FnState, buf: Buf, index: SSAValue, op: Operation) -> tuple[RegAttr, int]:
        """(address register, byte offset) of element `index`: a constant index of a shared or local array is
        the array's base with an immediate offset (`[%u1+12]`), anything else an address computed here."""
        size = self.size_align(buf.elt, op)[0]
        c = _const_int(index)
        if c is not None and buf.base.ty.data == "u32" and isinstance(buf.length, int) and 0 <= c < buf.length:
            return buf.base, c * size
        # `x + c` / `x - c`: the address of element x and an immediate offset (a[i-1], a[i+1] and a[i] share
        # one address computation, as NVCC's do); the index arithmetic is the same unless x + c overflows,
        # which is outside the array either way
        x = index.owner
        while isinstance(x, sk.LetOp):
            x = x.value.owner
        if isinstance(x, sk.BinOp) and x.op in (sk.BinOpKind.ADD, sk.BinOpKind.SUB):
            k = _const_int(x.rhs)
            if k is not None and abs(k) < 1 << 16:
                return self.elem_addr(st, buf, self.val(st, x.lhs), op), (k if x.op == sk.BinOpKind.ADD else -k) * size
        return self.elem_addr(st, buf, self.val(st, index), op), 0

    def access_place(self, st: FnState, buf: Buf, op: sk.ArrayReadOp | sk.ElemRefOp) -> tuple[RegAttr, int]:
        """(address register, byte offset) of the element an access names: `elem_place` of its index, or the
        address of the row-major offset of an N-dimensional one's indices."""
        if len(op.indices) == 1:
            return self.elem_place(st, buf, op.index, op)
        return self.elem_addr(st, buf, self.flat_index(st, buf, op), op), 0

    def op_FieldRefOp(self, st: FnState, op: sk.FieldRefOp) -> Any:
        p = self.val(st, op.base)
        rt = cast(sk.RecordType, cast(sk.RefType, op.base.type).element_type)
        d = self.record_decl(rt)
        i = d.field_index(op.field.data)
        if isinstance(p, RegPlace):
            return RegPlace(p.val.fields[i])
        lay = self.layout(rt, op)
        return MemPlace(d.fields[i][1], p.space, p.addr, p.off + lay.fields[i][1])

    def op_ArrayReadOp(self, st: FnState, op: sk.ArrayReadOp) -> Any:
        buf = self.val(st, op.array)
        a, off = self.access_place(st, buf, op)
        return self.load_mem(st, buf.elt, "global.nc" if buf.readonly else buf.space, a, off, op)

    def flat_index(self, st: FnState, buf: Buf, op: sk.ArrayReadOp | sk.ElemRefOp) -> Sc:
        """The element index of an access: its index, or the row-major offset of an N-dimensional one's
        indices (`mul.lo`/`add` over the extents; in s64 when an index is i64)."""
        idx: list[Sc] = [self.val(st, x) for x in op.indices]
        if len(idx) == 1:
            return idx[0]
        em = st.em
        wide = any(x.r.ty.data == "s64" for x in idx)
        ty = "s64" if wide else "s32"

        def widen(r: RegAttr | int) -> RegAttr | int:
            return em.cvt("s64.s32", "s64", r) if wide and isinstance(r, RegAttr) and r.ty.data == "s32" else r

        flat = row_major([widen(x.r) for x in idx], list(buf.dims), lambda a, b: em.op2(px.MulOp, f"lo.{ty}", ty, a, widen(b)),
                         lambda a, b: em.op2(px.AddOp, ty, ty, a, b))
        return Sc(i64 if wide else i32, cast(RegAttr, flat))

    def op_ArrayDimOp(self, st: FnState, op: sk.ArrayDimOp) -> Any:
        return Sc(i32, cast(RegAttr, self.val(st, op.array).dims[op.dim.data]))

    def op_ArrayLenOp(self, st: FnState, op: sk.ArrayLenOp) -> Any:
        buf = self.val(st, op.operands[0])
        if isinstance(buf.length, RegAttr):
            return Sc(i32, buf.length)
        if isinstance(buf.length, int):
            return Sc(i32, st.em.iconst(buf.length))
        raise ptx_error("this array has no length", op)

    def op_AllocArrayOp(self, st: FnState, op: sk.AllocArrayOp) -> Any:
        em = st.em
        at = op.array_type
        n = constant_size(op)
        assert n is not None, "an array of non-constant size: refused by the feature gate"
        size, align = self.size_align(at.element_type, op)
        space = at.memspace.value
        em.narrays += 1
        sym = f"{em.fname}_{namer.symbol_part(op.sym.data)}_{em.narrays}"
        em.decls.append(px.ArrayDeclOp(space, sym, size * n, max(align, 4)))
        # shared and local memory are addressed with 32 bits (their windows are below 4 GiB), as NVCC does:
        # index arithmetic stays 32-bit and needs no widening
        base = em.reg("u32")
        em.mov("u32", base, sym)
        return Buf(at.element_type, space, base, n, dims=tuple(op.shape or ()) if at.ndim > 1 else ())

    # records and variants

    def op_MakeRecordOp(self, st: FnState, op: sk.MakeRecordOp) -> Any:
        return Rec(op.record_type, [self.val(st, f) for f in op.fields])

    def op_FieldOp(self, st: FnState, op: sk.FieldOp) -> Any:
        r = self.val(st, op.operands[0])
        d = self.record_decl(r.ty)
        return r.fields[d.field_index(op.field.data)]

    def op_MakeVariantOp(self, st: FnState, op: sk.MakeVariantOp) -> Any:
        em = st.em
        t = op.variant_type
        self._check_variant(t, op)
        d = self.variant_decl(t)
        ci = d.ctor_index(op.ctor.data)
        lay = self.layout(t, op)
        v = Var(t, em.iconst(ci), [em.reg("b32") for _ in range(self.nwords(t, op))])
        for w in v.words:
            em.mov("b32", w, 0)
        for i, (pt, pv) in enumerate(zip(d.ctors[ci][1], op.payload)):
            self.pack(st, self.val(st, pv), pt, v.words, lay.ctors[ci].offsets[i] - lay.payload_offset, op)
        return v

    def op_PayloadOp(self, st: FnState, op: sk.PayloadOp) -> Any:
        return self.payload(st, self.val(st, op.variant), op.ctor.data, op.index.value.data, op)

    # control flow

    def op_IfOp(self, st: FnState, op: sk.IfOp) -> Any:
        em = st.em
        c = self.val(st, op.operands[0])
        regions = list(op.regions)
        has_else = bool(len(regions) > 1 and regions[1].blocks and any(True for _ in regions[1].block.ops))
        arms = [self.lowered(st, regions[0].block)] + ([self.lowered(st, regions[1].block)] if has_else else [])
        if all(_predicable(a) for a in arms):
            # a small statement `if`: every instruction of the then (else) arm guarded by @p (@!p) instead of
            # branches around them, as NVCC if-converts (no label, branch, barrier or atomic in the arms)
            for neg, arm in zip((False, True), arms):
                for o in arm:
                    o.properties["guard"] = c.r
                    if neg:
                        o.properties["guard_neg"] = UnitAttr()
                    em.ops.append(o)
            return None
        els = em.label("else")
        end = em.label("endif")
        em.bra(els if has_else else end, guard=c.r, neg=True)
        em.ops += arms[0]
        if has_else:
            em.bra(end)
            em.place_label(els)
            em.ops += arms[1]
        em.place_label(end)
        return None

    def lowered(self, st: FnState, b: Block) -> list[Operation]:
        """The instructions of a statement block, lowered aside (not yet in the function's list)."""
        saved, st.em.ops = st.em.ops, []
        try:
            self.block(st, b)
            return st.em.ops
        finally:
            st.em.ops = saved

    def op_IfExprOp(self, st: FnState, op: sk.IfExprOp) -> Any:
        em = st.em
        c = self.val(st, op.operands[0])
        rt = scalar_reg_type(op.results[0].type)
        if rt is not None and rt != "pred" and all(_speculatable(r) for r in op.regions) \
                and sum(len(r.block.ops) - 1 for r in op.regions) <= SPECULATE_MAX_OPS:
            # both arms are a few register-only operations: compute both and select, as CUDA C's `c ? a : b`
            # becomes, instead of a (possibly divergent) branch; the arms cannot fault or write anything
            a = self.region_value(st, op.regions[0])
            b = self.region_value(st, op.regions[1])
            return Sc(op.results[0].type, em.selp("b16" if rt == "f16" else rt, em.imm(a.r), em.imm(b.r), c.r))
        res = self.fresh(st, op.results[0].type, op)
        els, end = em.label("else"), em.label("endif")
        em.bra(els, guard=c.r, neg=True)
        self.copy(st, res, self.region_value(st, op.regions[0]))
        em.bra(end)
        em.place_label(els)
        self.copy(st, res, self.region_value(st, op.regions[1]))
        em.place_label(end)
        return res

    def op_WhileOp(self, st: FnState, op: sk.WhileOp) -> Any:
        em = st.em
        head, end = em.label("while"), em.label("endwhile")
        em.place_label(head)
        c = self.region_value(st, op.regions[0])
        em.bra(end, guard=c.r, neg=True)
        st.loops.append(LoopLabels(end, head))
        self.block(st, op.regions[1].block)
        st.loops.pop()
        em.bra(head)
        em.place_label(end)
        return None

    def op_ForOp(self, st: FnState, op: sk.ForOp) -> Any:
        em = st.em
        lo, hi = self.val(st, op.lo), self.val(st, op.hi)
        rt = lo.r.ty.data
        step = op.step_value
        i = em.reg(rt)
        em.mov(rt, i, em.imm(lo.r))
        head, end = em.label("for"), em.label("endfor")
        em.place_label(head)
        s: Any = step
        if step is None:  # run-time step s: go on while (s > 0 && i < hi) || (s < 0 && i > hi)
            s = em.imm(self.val(st, op.step_operand).r)
            up = em.op2(px.AndOp, "pred", "pred", em.setp("gt", rt, s, 0), em.setp("lt", rt, i, em.imm(hi.r)))
            down = em.op2(px.AndOp, "pred", "pred", em.setp("lt", rt, s, 0), em.setp("gt", rt, i, em.imm(hi.r)))
            em.bra(end, guard=em.op2(px.OrOp, "pred", "pred", up, down), neg=True)
        else:
            done = em.setp("ge" if step > 0 else "le", rt, i, em.imm(hi.r))
            em.bra(end, guard=done)
        st.env[op.index] = Sc(op.lo.type, i)
        loop = LoopLabels(end, em=em)
        st.loops.append(loop)
        self.block(st, op.body.block)
        st.loops.pop()
        if loop.cont is not None:
            em.place_label(loop.cont)
        em.emit(px.AddOp, rt, i, i, s)
        em.bra(head)
        em.place_label(end)
        return None

    def _match(self, st: FnState, op: Any, result: Any) -> None:
        em = st.em
        v = self.val(st, op.scrutinee)
        d = self.variant_decl(v.ty)
        end = em.label("endmatch")
        for c, _binders, r in op.case_list():
            nxt = em.label("case")
            if c != sk.WILDCARD:
                p = em.setp("ne", "s32", v.tag, d.ctor_index(c))
                em.bra(nxt, guard=p)
                for j, a in enumerate(r.block.args):
                    st.env[a] = self.payload(st, v, c, j, op)
            else:
                for a in r.block.args:
                    st.env[a] = v
            if result is None:
                self.block(st, r.block)
            else:
                self.copy(st, result, self.region_value(st, r))
            em.bra(end)
            em.place_label(nxt)
        em.place_label(end)

    def op_MatchOp(self, st: FnState, op: sk.MatchOp) -> Any:
        self._match(st, op, None)
        return None

    def op_MatchExprOp(self, st: FnState, op: sk.MatchExprOp) -> Any:
        res = self.fresh(st, op.results[0].type, op)
        self._match(st, op, res)
        return res

    def op_PragmaOp(self, st: FnState, op: sk.PragmaOp) -> Any:
        self.block(st, op.body.block)
        return None

    def op_BlockOp(self, st: FnState, op: sk.BlockOp) -> Any:
        self.block(st, op.body.block)
        return None

    def op_BarrierOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.BarOp, "sync", 0)
        return None

    def op_WarpBarrierOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.BarOp, "warp.sync", -1)
        return None

    def op_MemFenceOp(self, st: FnState, op: Operation) -> Any:
        st.em.emit(px.MembarOp, "gl")
        return None

    def op_NativeOp(self, st: FnState, op: sk.NativeOp) -> Any:
        text = op.text_for("ptx")
        assert text is not None, "a %native without PTX text: refused by the feature gate"
        st.em.ops.append(px.RawOp(text))
        return None

    # helpers (inlined)

    def op_CallOp(self, st: FnState, op: sk.CallOp) -> Any:
        em = st.em
        name = op.callee_name
        h = self.helpers.get(name)
        if h is None:
            raise ptx_error(f"call of unknown helper @{name}", op)
        assert all(f.helper != name for f in st.frames), f"recursive helper @{name}: refused by the feature gate"
        res = None if h.returns_unit else self.fresh(st, h.return_type, op)
        frame = Frame(name, res, em.label(f"ret_{namer.symbol_part(name)}"))
        saved = st.env
        st.env = dict(saved)
        for a, v in zip(h.body.block.args, op.operands):
            st.env[a] = saved[v]
        st.frames.append(frame)
        try:
            self.block(st, h.body.block)
        finally:
            st.frames.pop()
            st.env = saved
        em.place_label(frame.label)
        return res

    def op_BreakOp(self, st: FnState, op: Operation) -> Any:
        st.em.bra(st.loops[-1].end)
        return None

    def op_ContinueOp(self, st: FnState, op: Operation) -> Any:
        st.em.bra(st.loops[-1].continue_label())
        return None

    def op_ReturnOp(self, st: FnState, op: sk.ReturnOp) -> Any:
        if not st.frames:  # a kernel's return
            st.em.emit(px.RetOp, "")
            return None
        f = st.frames[-1]
        if op.value and f.result is not None:
            self.copy(st, f.result, self.val(st, op.value[0]))
        st.em.bra(f.label)
        return None

    # intrinsics

    def op_IntrinsicOp(self, st: FnState, op: sk.IntrinsicOp) -> Any:
        from sarek.targets.ptx import mathlib

        name = op.callee.data
        info = INTRINSICS[name]
        args = [self.val(st, a) for a in op.args]
        t = op.result.type
        em = st.em
        if info.category == Category.INDEX:
            return Sc(i32, self.index(st, name))
        if name == "lane_id":
            return Sc(i32, em.op1(px.MovOp, "u32", "s32", "%laneid"))
        if name == "warp_size":
            return Sc(i32, em.op1(px.MovOp, "u32", "s32", "WARP_SZ"))
        if info.category == Category.WARP:
            return Sc(t, self.shuffle(st, op, args[0], args[1]))
        if info.category == Category.ATOMIC:
            return Sc(t, self.atomic(st, name, args, op))
        return Sc(t, mathlib.math(self, st, name, args, t, op))

    def index(self, st: FnState, name: str) -> RegAttr:
        em = st.em
        special = {"thread_idx": "%tid", "block_idx": "%ctaid", "block_dim": "%ntid", "grid_dim": "%nctaid"}
        if name == "global_thread_id":
            name = "global_idx_x"
        if name == "global_size":
            name = "global_size_x"
        base, d = name.rsplit("_", 1)
        if base in special:
            return em.op1(px.MovOp, "u32", "s32", f"{special[base]}.{d}")
        ctaid = em.op1(px.MovOp, "u32", "s32", f"%ctaid.{d}")
        ntid = em.op1(px.MovOp, "u32", "s32", f"%ntid.{d}")
        if base == "global_idx":
            tid = em.op1(px.MovOp, "u32", "s32", f"%tid.{d}")
            return em.op3(px.MadOp, "lo.s32", "s32", ctaid, ntid, tid)
        if base == "global_size":
            nct = em.op1(px.MovOp, "u32", "s32", f"%nctaid.{d}")
            return em.op2(px.MulOp, "lo.s32", "s32", ntid, nct)
        raise ptx_error(f"unknown index intrinsic '{name}'")

    def shuffle(self, st: FnState, op: sk.IntrinsicOp, x: Sc, lane: Sc) -> RegAttr:
        """The in-range absolute shuffle `sarek-lower-warp` leaves in its helpers (the lane guard is its
        business): `shfl.sync.idx.b32`, twice for a 64-bit value."""
        if op.callee.data != "warp_shuffle" or IN_RANGE not in op.attributes:
            raise ptx_error(f"'{op.callee.data}' must be lowered by sarek-lower-warp before the PTX lowering", op)
        em = st.em
        src = lane.r
        rt = x.r.ty.data
        if rt in ("s32", "f32"):
            d = em.reg(rt)
            em.emit(px.ShflOp, "sync.idx.b32", d, x.r, src, 31, -1)
            return d
        lo, hi = em.reg("b32"), em.reg("b32")
        em.mov("b64", [lo, hi], x.r)
        lo2, hi2 = em.reg("b32"), em.reg("b32")
        em.emit(px.ShflOp, "sync.idx.b32", lo2, lo, src, 31, -1)
        em.emit(px.ShflOp, "sync.idx.b32", hi2, hi, src, 31, -1)
        d = em.reg(rt)
        em.mov("b64", d, [lo2, hi2])
        return d

    def atomic(self, st: FnState, name: str, args: list[Any], op: Operation) -> RegAttr:
        em = st.em
        buf: Buf = args[0]
        a = self.elem_addr(st, buf, args[1], op)
        t = buf.elt
        rt = scalar_reg_type(t) or "?"
        isf = rt in ("f32", "f64")
        bits = "b32" if rt in ("s32", "f32") else "b64"
        itype = {"s32": "s32", "s64": "u64", "f32": "f32", "f64": "f64"}[rt]
        kind = name.removeprefix("atomic_")
        d = em.reg(rt)
        sp = buf.space
        addr = AddrAttr(a, 0)
        if kind in ("add", "sub", "inc", "dec"):
            if kind in ("add", "sub"):
                v = args[2].r
            else:
                v = em.fconst(1.0, rt) if isf else em.iconst(1, rt)
            if kind in ("sub", "dec"):
                v = em.op1(px.NegOp, rt, rt, v)
            em.emit(px.AtomOp, f"{sp}.add.{itype}", d, addr, v)
        elif kind in ("min", "max") and isf:
            return self.float_minmax(st, kind, rt, bits, addr, sp, args[2].r)
        elif kind in ("min", "max"):
            em.emit(px.AtomOp, f"{sp}.{kind}.{'s32' if rt == 's32' else 's64'}", d, addr, args[2].r)
        elif kind == "exch":
            em.emit(px.AtomOp, f"{sp}.exch.{bits}", d, addr, args[2].r)
        elif kind in ("and", "or", "xor"):
            assert not isf, f"'{name}' on {t}: refused by the feature gate (ATOMIC_GAPS)"
            em.emit(px.AtomOp, f"{sp}.{kind}.{bits}", d, addr, args[2].r)
        elif kind == "cas":
            em.emit(px.AtomOp, f"{sp}.cas.{bits}", d, addr, args[2].r, args[3].r)
        else:
            raise ptx_error(f"unknown atomic '{name}'", op)
        return d

    def float_minmax(self, st: FnState, kind: str, rt: str, bits: str, addr: AddrAttr, sp: str, v: RegAttr) -> RegAttr:
        """PTX has no float atom.min/max: a compare-and-swap loop on the bits (`atom.cas.b32/b64`), the new value
        `v` only where it compares strictly less/greater (setp + selp: a NaN operand never replaces, a stored NaN
        stays, -0.0 equals 0.0 — the interpreters' rule); returns the old value."""
        em = st.em
        old, seen, new = em.reg(bits), em.reg(bits), em.reg(bits)
        em.emit(px.LdOp, f"{sp}.{bits}", old, addr)
        top = em.label("atomcas")
        em.place_label(top)
        cur = em.reg(rt)
        em.mov(bits, cur, old)
        p = em.setp("lt" if kind == "min" else "gt", rt, v, cur)
        em.mov(bits, new, em.selp(rt, v, cur, p))
        em.emit(px.AtomOp, f"{sp}.cas.{bits}", seen, addr, old, new)
        again = em.setp("ne", bits, seen, old)
        em.mov(bits, old, seen)
        em.bra(top, guard=again)
        d = em.reg(rt)
        em.mov(bits, d, old)
        return d

    # coopmat

    def _coopmat(self, st: FnState, op: Operation) -> Any:
        raise AssertionError(f"{op.name}: cooperative matrices are refused by the feature gate")

    op_CoopmatDeclOp = op_CoopmatLoadOp = op_CoopmatStoreOp = op_CoopmatMulAddOp = _coopmat


def _narrow_mem(t: Attribute) -> str:
    """The ld/st type of an 8/16-bit integer or bf16 (its bits)."""
    if scalars.is_bf16(t):
        return "u16"
    return f"{'u' if scalars.is_unsigned(t) else 's'}{scalars.int_width(t)}"


PREDICATE_MAX = 6  # instructions an arm of a statement `if` may hold to be guarded instead of branched around
_UNPREDICABLE = (px.LabelOp, px.BraOp, px.BarOp, px.AtomOp, px.ShflOp, px.MembarOp, px.RetOp, px.RawOp)


def _predicable(arm: list[Operation]) -> bool:
    return len(arm) <= PREDICATE_MAX and all(
        isinstance(o, px.Instr) and not isinstance(o, _UNPREDICABLE) and o.guard is None for o in arm)


_COMMUTATIVE = frozenset({"add", "mul", "bitand", "bitor", "bitxor", "eq", "ne", "and", "or"})


def _const_int(v: SSAValue) -> int | None:
    o = v.owner
    while isinstance(o, sk.LetOp):
        o = o.operands[0].owner
    if isinstance(o, sk.ConstantOp) and isinstance(o.value, IntegerAttr):
        return cast(IntegerAttr, o.value).value.data
    return None


def lower_module(module: ModuleOp) -> None:
    """Replace the module's sarek ops by one `sarek_ptx.entry` per kernel."""
    entries = Lowering(module).run()
    for op in list(module.ops):
        op.detach()
        op.erase()
    for e in entries:
        module.body.block.add_op(e)


@dataclass(frozen=True)
class LowerPtxPass(ModulePass):
    """Lower the sarek dialect to sarek_ptx instructions (one .entry per kernel, helpers inlined)."""

    name = "sarek-lower-ptx"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_module(op)


__all__ = ["LowerPtxPass", "lower_module", "entry_name"]
