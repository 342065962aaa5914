"""PTX lowering, memory: loads and stores of any type with the aligned layout, element addresses,
places (let/let_mut/load/store, elements, fields), local and shared arrays, records and variants (payload
words <-> values)."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, cast

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from sarek.analysis import namer
from sarek.analysis.features import constant_size
from sarek.analysis.shared_window import WINDOW, window_of
from sarek.analysis.shapes import row_major
from sarek.dialect import scalars
from sarek.dialect import sarek as sk
from sarek.lowering.ptx.arith import ArithLowering
from sarek.passes.wide_vector_access import WIDE
from sarek.lowering.ptx.emitter import Emitter
from sarek.lowering.ptx.state import FnState, lowers
from sarek.lowering.ptx.values import (
    Buf,
    MemPlace,
    Rec,
    RegPlace,
    Sc,
    Var,
    const_int,
    narrow_mem,
    ptx_error,
    scalar_reg_type,
)
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr


def _on_block_array(op: Operation) -> bool:
    """A whole-element read of, or store into an element of, a shared or local array (`a[i]`, `a[i] = v`)."""
    if isinstance(op, sk.StoreOp) and isinstance(op.place.owner, sk.ElemRefOp):
        arr = op.place.owner.array
    elif isinstance(op, sk.ArrayReadOp):
        arr = op.array
    else:
        return False
    return isinstance(arr.type, sk.ArrayType) and arr.type.memspace.value in ("shared", "local")


class MemoryLowering(ArithLowering):
    """Memory, places, arrays, records and variants."""

    def load_mem(self, st: FnState, t: Attribute, space: str, base: RegAttr | str, off: int,
                 op: Operation | None = None) -> Any:
        em = st.em
        rt = scalar_reg_type(t)
        a = AddrAttr(base, off)
        if scalars.is_narrow(t):  # .s8/.u8/.s16/.u16 loads extend into a 32-bit register
            r = em.reg("u32" if scalars.is_bf16(t) else cast(str, rt))
            em.emit(px.LdOp, f"{space}.{narrow_mem(t)}", r, a)
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
            vt = self._wide_type(t, op)
            if vt is not None:  # one ld.global.v4.f32 (sarek-wide-vector-access marked it)
                regs = [em.reg(vt) for _ in d.fields]
                em.emit(px.LdOp, f"{space}.v{len(regs)}.{vt}", regs, a)
                return Rec(t, [Sc(ft, r) for (_, ft), r in zip(d.fields, regs)])
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
            em.emit(px.StOp, f"{space}.{narrow_mem(t)}", a, r)
        elif rt == "pred":
            em.emit(px.StOp, f"{space}.s32", a, em.selp("s32", 1, 0, v.r))
        elif rt == "f16":
            em.emit(px.StOp, f"{space}.b16", a, v.r)
        elif rt is not None:
            em.emit(px.StOp, f"{space}.{rt}", a, v.r)
        elif isinstance(t, sk.RecordType):
            lay = self.layout(t, op)
            d = self.record_decl(t)
            vt = self._wide_type(t, op)
            if vt is not None:
                em.emit(px.StOp, f"{space}.v{len(d.fields)}.{vt}", a, [fv.r for fv in v.fields])
                return
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

    def _wide_type(self, t: sk.RecordType, op: Operation | None) -> str | None:
        """The register type of a whole-element access whose 2 or 4 lanes are 32-bit scalars of one type (f32x4,
        i32x4, u32x4, f32x2, i32x2: one ld/st .v4/.v2), else None (lane by lane): a vector access
        `sarek-wide-vector-access` marked (aligned as the pass explains), or an element of a shared or local
        array, which this lowering declares aligned to such an element's size (`_lanes_align`)."""
        if op is None or (WIDE not in op.attributes and not _on_block_array(op)):
            return None
        return self._lanes_type(t)

    def _lanes_type(self, t: Attribute) -> str | None:
        """The register type of a record of 2 or 4 32-bit lanes of one scalar type, else None."""
        if not isinstance(t, sk.RecordType):
            return None
        fields = self.record_decl(t).fields
        kinds = {scalar_reg_type(ft) for _, ft in fields}
        n = len(fields)
        vt = kinds.pop() if len(kinds) == 1 and not any(scalars.is_narrow(ft) for _, ft in fields) else None
        return vt if vt in ("f32", "s32", "u32") and n in (2, 4) else None

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

    @lowers(sk.LetOp)
    def op_LetOp(self, st: FnState, op: sk.LetOp) -> Any:
        return self.val(st, op.operands[0])

    @lowers(sk.LetMutOp)
    def op_LetMutOp(self, st: FnState, op: sk.LetMutOp) -> Any:
        init = self.val(st, op.operands[0])
        v = self.fresh(st, cast(sk.RefType, op.results[0].type).element_type, op)
        self.copy(st, v, init)
        return RegPlace(v)

    @lowers(sk.LoadOp)
    def op_LoadOp(self, st: FnState, op: sk.LoadOp) -> Any:
        p = self.val(st, op.operands[0])
        t = op.results[0].type
        if isinstance(p, RegPlace):
            v = self.fresh(st, t, op)
            self.copy(st, v, p.val)
            return v
        return self.load_mem(st, p.ty, p.space, p.addr, p.off, op)

    @lowers(sk.StoreOp)
    def op_StoreOp(self, st: FnState, op: sk.StoreOp) -> Any:
        p = self.val(st, op.operands[0])
        v = self.val(st, op.operands[1])
        if isinstance(p, RegPlace):
            self.copy(st, p.val, v)
        else:
            self.store_mem(st, p.ty, p.space, p.addr, p.off, v, op)
        return None

    @lowers(sk.ElemRefOp)
    def op_ElemRefOp(self, st: FnState, op: sk.ElemRefOp) -> Any:
        buf = self.val(st, op.array)
        return MemPlace(buf.elt, buf.space, *self.access_place(st, buf, op))

    def elem_place(self, st: FnState, buf: Buf, index: SSAValue, op: Operation) -> tuple[RegAttr, int]:
        """(address register, byte offset) of element `index`: a constant index of a shared or local array is
        the array's base with an immediate offset (`[%u1+12]`), anything else an address computed here."""
        size = self.size_align(buf.elt, op)[0]
        c = const_int(index)
        if c is not None and buf.base.ty.data == "u32" and isinstance(buf.length, int) and 0 <= c < buf.length:
            return buf.base, c * size
        # `x + c` / `x - c`: the address of element x and an immediate offset (a[i-1], a[i+1] and a[i] share
        # one address computation, as NVCC's do); the index arithmetic is the same unless x + c overflows,
        # which is outside the array either way
        x = index.owner
        while isinstance(x, sk.LetOp):
            x = x.value.owner
        if isinstance(x, sk.BinOp) and x.op in (sk.BinOpKind.ADD, sk.BinOpKind.SUB):
            k = const_int(x.rhs)
            if k is not None and abs(k) < 1 << 16:
                return self.elem_addr(st, buf, self.val(st, x.lhs), op), (k if x.op == sk.BinOpKind.ADD else -k) * size
        return self.elem_addr(st, buf, self.val(st, index), op), 0

    def access_place(self, st: FnState, buf: Buf, op: sk.ArrayReadOp | sk.ElemRefOp) -> tuple[RegAttr, int]:
        """(address register, byte offset) of the element an access names: `elem_place` of its index, or the
        address of the row-major offset of an N-dimensional one's indices."""
        if len(op.indices) == 1:
            return self.elem_place(st, buf, op.index, op)
        return self.elem_addr(st, buf, self.flat_index(st, buf, op), op), 0

    @lowers(sk.FieldRefOp)
    def op_FieldRefOp(self, st: FnState, op: sk.FieldRefOp) -> Any:
        p = self.val(st, op.base)
        rt = cast(sk.RecordType, cast(sk.RefType, op.base.type).element_type)
        d = self.record_decl(rt)
        i = d.field_index(op.field.data)
        if isinstance(p, RegPlace):
            return RegPlace(p.val.fields[i])
        lay = self.layout(rt, op)
        return MemPlace(d.fields[i][1], p.space, p.addr, p.off + lay.fields[i][1])

    @lowers(sk.ArrayReadOp)
    def op_ArrayReadOp(self, st: FnState, op: sk.ArrayReadOp) -> Any:
        buf = self.val(st, op.array)
        a, off = self.access_place(st, buf, op)
        return self.load_mem(st, buf.elt, "global.nc" if buf.readonly else buf.space, a, off, op)

    def flat_index(self, st: FnState, buf: Buf, op: sk.ArrayReadOp | sk.ElemRefOp) -> Sc:
        """The element index of an access: its index, or the row-major offset of an N-dimensional one's
        indices (`mul`/`add` over the extents). In s64 when an index is i64 or the extents are a vector's (each
        is i32, their product is not): the first product `mul.wide.s32`, the others `mul.lo.s64`."""
        return self.flat_of(st, buf, op.indices)

    def flat_of(self, st: FnState, buf: Buf, indices: Sequence[SSAValue]) -> Sc:
        """`flat_index` of the indices `indices` of `buf`."""
        idx: list[Sc] = [self.val(st, x) for x in indices]
        if len(idx) == 1:
            return idx[0]
        em = st.em
        wide = any(x.r.ty.data == "s64" for x in idx) or any(isinstance(n, RegAttr) for n in buf.dims)
        ty = "s64" if wide else "s32"

        def narrow(r: RegAttr | int) -> bool:
            return isinstance(r, int) or r.ty.data == "s32"

        def widen(r: RegAttr | int) -> RegAttr | int:
            return em.cvt("s64.s32", "s64", r) if wide and isinstance(r, RegAttr) and r.ty.data == "s32" else r

        def mul(a: RegAttr | int, b: RegAttr | int) -> RegAttr:
            if wide and narrow(a) and narrow(b) and isinstance(a, RegAttr):
                return em.op2(px.MulOp, "wide.s32", "s64", a, b)
            return em.op2(px.MulOp, f"lo.{ty}", ty, widen(a), widen(b))

        flat = row_major([x.r for x in idx], list(buf.dims), mul, lambda a, b: em.op2(px.AddOp, ty, ty, widen(a), widen(b)))
        return Sc(i64 if wide else i32, cast(RegAttr, flat))

    @lowers(sk.ArrayDimOp)
    def op_ArrayDimOp(self, st: FnState, op: sk.ArrayDimOp) -> Any:
        return Sc(i32, cast(RegAttr, self.val(st, op.array).dims[op.dim.data]))

    @lowers(sk.ArrayLenOp)
    def op_ArrayLenOp(self, st: FnState, op: sk.ArrayLenOp) -> Any:
        buf = self.val(st, op.operands[0])
        if isinstance(buf.length, RegAttr):
            return Sc(i32, buf.length)
        if isinstance(buf.length, int):
            return Sc(i32, st.em.iconst(buf.length))
        raise ptx_error("this array has no length", op)

    @lowers(sk.AllocArrayOp)
    def op_AllocArrayOp(self, st: FnState, op: sk.AllocArrayOp) -> Any:
        em = st.em
        at = op.array_type
        n = constant_size(op)
        assert n is not None, "an array of non-constant size: refused by the feature gate"
        size, align = self.size_align(at.element_type, op)
        if op.values is not None:  # a constant table: one module-scope .const array, its bytes as initializer
            decl = self.const_tables.get(op)
            if decl is None:
                sym = namer.symbol_part(op.sym.data)
                data = b"".join(_const_bytes(at.element_type, v, size) for v in op.values.data)
                decl = self.const_tables[op] = px.ArrayDeclOp("const", sym, size * n, max(align, 4), data)
            base = em.reg("u64")
            em.mov("u64", base, decl.sym.data)
            return Buf(at.element_type, "const", base, n, dims=tuple(op.shape or ()) if at.ndim > 1 else ())
        space = at.memspace.value
        em.narrays += 1
        sym = f"{em.fname}_{namer.symbol_part(op.sym.data)}_{em.narrays}"
        # a shared array of a kernel using cooperative matrices or asynchronous copies: 16-byte aligned
        # (ldmatrix's rows, cp.async's 16-byte destinations)
        f = sk.enclosing_function(op)
        coop = space == "shared" and f is not None and any(isinstance(o, (*sk.COOPMAT_OPS, sk.CopyAsyncOp))
                                                           for o in f.walk())
        window = window_of(op) if space == "shared" else None
        if window is None:
            # an array of 8/16-byte lane records: aligned to that size, so whole elements move as .v2/.v4 (in
            # the dynamic window every array is ALIGN-byte aligned)
            lanes = size if self._lanes_type(at.element_type) is not None else 4
            em.decls.append(px.ArrayDeclOp(space, sym, size * n, max(align, 16 if coop else 4, lanes)))
        # shared and local memory are addressed with 32 bits (their windows are below 4 GiB), as NVCC does:
        # index arithmetic stays 32-bit and needs no widening
        base = em.reg("u32")
        em.mov("u32", base, sym if window is None else WINDOW)
        if window is not None and window.offsets[op]:  # past the static limit: at its offset in the window
            base = em.op2(px.AddOp, "u32", "u32", base, window.offsets[op])
        if space == "local":  # slots start at zero (each time the declaration runs, as C's `= {0}`)
            self.zero_local(em, sym, base, size * n)
        return Buf(at.element_type, space, base, n, dims=tuple(op.shape or ()) if at.ndim > 1 else ())

    #: local arrays up to this many bytes are zeroed by one store per word at constant offsets (ptxas keeps
    #: such an array in registers when every access has a constant offset); larger ones by a loop
    ZERO_UNROLL_BYTES = 256

    def zero_local(self, em: Emitter, sym: str, base: RegAttr, nbytes: int) -> None:
        """Zero `nbytes` of the local array `sym` (at `base`): b32 words, then a b16/b8 tail."""
        words = nbytes // 4 * 4
        if words <= self.ZERO_UNROLL_BYTES:
            for off in range(0, words, 4):
                em.emit(px.StOp, "local.b32", AddrAttr(sym, off), 0)
        else:
            p, end = em.reg("u32"), em.reg("u32")
            em.mov("u32", p, base)
            em.emit(px.AddOp, "u32", end, base, words)
            top = em.label("zero")
            em.place_label(top)
            em.emit(px.StOp, "local.b32", AddrAttr(p, 0), 0)
            em.emit(px.AddOp, "u32", p, p, 4)
            em.bra(top, em.setp("lt", "u32", p, end))
        if nbytes - words >= 2:
            em.emit(px.StOp, "local.b16", AddrAttr(sym, words), 0)
            words += 2
        if nbytes > words:
            em.emit(px.StOp, "local.b8", AddrAttr(sym, words), 0)

    @lowers(sk.MakeRecordOp)
    def op_MakeRecordOp(self, st: FnState, op: sk.MakeRecordOp) -> Any:
        return Rec(op.record_type, [self.val(st, f) for f in op.fields])

    @lowers(sk.FieldOp)
    def op_FieldOp(self, st: FnState, op: sk.FieldOp) -> Any:
        r = self.val(st, op.operands[0])
        d = self.record_decl(r.ty)
        return r.fields[d.field_index(op.field.data)]

    @lowers(sk.MakeVariantOp)
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

    @lowers(sk.PayloadOp)
    def op_PayloadOp(self, st: FnState, op: sk.PayloadOp) -> Any:
        return self.payload(st, self.val(st, op.variant), op.ctor.data, op.index.value.data, op)


def _const_bytes(t: Attribute, v: Attribute, size: int) -> bytes:
    """The bytes of one constant-table element as memory holds it (a bool as a 32-bit 0/1, little-endian)."""
    if isinstance(v, IntegerAttr):
        n = (1 if v.value.data else 0) if t == sk.i1 else v.value.data
        return (n & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    x = cast(FloatAttr, v).value.data
    return struct.pack("<d" if size == 8 else "<f" if size == 4 else "<e", x)
