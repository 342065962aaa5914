"""PTX lowering, cooperative matrices: `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}` and, for 8-bit
inputs, `mma.sync.aligned.m16n8k32.row.col.s32.{u8,s8}` (i32 accumulators, wrapping), with the per-lane
fragment layout owned here.

A fragment is a grid of native pieces: `a` 16x16 (four .b32 registers of two halves each), `b` 16x8 (two), `acc`
16x8 (four .f32). With g = %laneid >> 2 and t = %laneid & 3, a lane holds (PTX ISA, "Matrix fragments for
mma.m16n8k16"): a: register k has rows g + 8 (k & 1), columns 2t + 8 (k >> 1) + {0, 1}; b: register k has rows
2t + 8k + {0, 1}, column g; acc: element e is row g + 8 (e >> 1), column 2t + (e & 1). Loads and stores move
these elements one by one (`ld`/`st` of 16 or 32 bits at `index + row * stride + col`, or `col * stride + row`
when column-major), so any buffer and stride works; an `a`/`b` load from shared memory whose first element and
stride are multiples of 8 takes `ldmatrix` instead (a warp-uniform run-time test picks the path); `d = a @ b + c` is one mma.sync per (i, j, k) piece triple,
k in order. 8-bit pieces are a 16x32, b 32x8 (four bytes per register: a register k holds row g + 8 (k & 1),
columns 4t + 16 (k >> 1) + {0..3}; b register k rows 4t + 16k + {0..3}, column g), accumulators as f32's but
s32. The gate (sarek.analysis.coopmat_support) admits f16/bf16 inputs with f32 accumulators and u8/i8 inputs
with i32 ones.

Warpgroup fragments (`.target sm_90a` only; sarek.lowering.ptx.wgmma): an `a`/`b` fragment is one 64-bit matrix
descriptor, an accumulator the mma.sync accumulator layout of its warp's 16 rows (warp w of the group: rows
16 w.. of the 64).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import i32
from xdsl.ir import Operation

from sarek.dialect import sarek as sk
from sarek.lowering.ptx.wgmma import WgmmaLowering
from sarek.lowering.ptx.state import FnState, lowers
from sarek.lowering.ptx.values import Buf, Sc
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr

#: piece (rows, cols) per use
PIECES = {"a": (16, 16), "b": (16, 8), "acc": (16, 8)}
#: the 8-bit pieces (m16n8k32)
PIECES8 = {"a": (16, 32), "b": (32, 8), "acc": (16, 8)}


def _cells(use: str, eight: bool = False) -> list[list[tuple[int, int]]]:
    """Per register of a piece, its elements as (row offset, column offset) from the lane's base: (g, 2t) for a
    and acc, (2t, g) for b; 8-bit inputs (four per register): (g, 4t) for a, (4t, g) for b."""
    if use == "a" and eight:
        return [[(8 * (k & 1), 16 * (k >> 1) + h) for h in range(4)] for k in range(4)]
    if use == "b" and eight:
        return [[(16 * k + h, 0) for h in range(4)] for k in range(2)]
    if use == "a":
        return [[(8 * (k & 1), 8 * (k >> 1) + h) for h in (0, 1)] for k in range(4)]
    if use == "b":
        return [[(8 * k + h, 0) for h in (0, 1)] for k in range(2)]
    return [[(8 * (e >> 1), e & 1)] for e in range(4)]


class CoopmatLowering(WgmmaLowering):
    """`op_Coopmat*`: fragments as registers, element loads/stores, mma.sync."""

    def _frags(self, st: FnState) -> dict[str, dict[tuple[int, int], list[RegAttr]]]:
        return st.__dict__.setdefault("coop_frags", {})

    def _decl(self, op: Operation, name: str) -> sk.CoopmatDeclOp:
        return sk.fragment_decl(op, name)

    def _eight(self, op: Operation, name: str) -> bool:
        """Whether fragment `name` takes part in 8-bit products (its pieces are m16n8k32's)."""
        d = self._decl(op, name)
        if str(d.element_type) in ("ui8", "i8"):
            return True
        f = sk.enclosing_function(op)
        assert f is not None
        return any(isinstance(o, sk.CoopmatMulAddOp) and name in (o.c.data, o.d.data)
                   and str(self._decl(o, o.a.data).element_type) in ("ui8", "i8") for o in f.walk())

    def _pieces(self, op: Operation, name: str) -> tuple[int, int]:
        return (PIECES8 if self._eight(op, name) else PIECES)[self._decl(op, name).use.data]

    @staticmethod
    def _acc_type(d: sk.CoopmatDeclOp) -> str:
        return "s32" if str(d.element_type) == "i32" else "f32"

    @lowers(sk.CoopmatDeclOp)
    def op_CoopmatDeclOp(self, st: FnState, op: sk.CoopmatDeclOp) -> Any:
        if op.warpgroup is not None:
            return self.wg_decl(st, op)
        use = op.use.data
        pr, pc = self._pieces(op, op.frag.data)
        ty = self._acc_type(op) if use == "acc" else "b32"
        n = 4 if use != "b" else 2
        self._frags(st)[op.frag.data] = {(i, j): [st.em.reg(ty) for _ in range(n)]
                                         for i in range(op.rows.value.data // pr)
                                         for j in range(op.cols.value.data // pc)}
        return None

    @lowers(sk.CoopmatFillOp)
    def op_CoopmatFillOp(self, st: FnState, op: sk.CoopmatFillOp) -> Any:
        v = self.val(st, op.value)
        assert isinstance(v, Sc)
        ty = self._acc_type(self._decl(op, op.frag.data))
        for regs in self._frags(st)[op.frag.data].values():
            for r in regs:
                st.em.mov(ty, r, v.r)
        return None

    @lowers(sk.CoopmatMulAddOp)
    def op_CoopmatMulAddOp(self, st: FnState, op: sk.CoopmatMulAddOp) -> Any:
        if sk.is_warpgroup(op, op.d.data):
            return self.wg_mma(st, op)
        fr = self._frags(st)
        d, a, b, c = fr[op.d.data], fr[op.a.data], fr[op.b.data], fr[op.c.data]
        elt = {"bf16": "bf16", "ui8": "u8", "i8": "s8"}.get(str(self._decl(op, op.a.data).element_type), "f16")
        shape, acc = ("m16n8k32", "s32") if elt in ("u8", "s8") else ("m16n8k16", "f32")
        ks = 1 + max(k for _, k in a)
        for (i, j), dregs in d.items():
            for k in range(ks):
                src = c[(i, j)] if k == 0 else dregs
                st.em.emit(px.MmaOp, f"sync.aligned.{shape}.row.col.{acc}.{elt}.{elt}.{acc}", dregs, a[(i, k)],
                           b[(k, j)], src)
        return None

    def _lane(self, st: FnState, shift: int = 1) -> tuple[RegAttr, RegAttr]:
        """(g, t << shift): the lane's group and its scaled index in the group."""
        em = st.em
        lane = em.op1(px.MovOp, "u32", "s32", "%laneid")
        g = em.op2(px.ShrOp, "s32", "s32", lane, 2)
        t2 = em.op2(px.ShlOp, "b32", "s32", em.op2(px.AndOp, "b32", "s32", lane, 3), shift)
        return g, t2

    def _addr(self, st: FnState, op: sk.CoopmatLoadOp | sk.CoopmatStoreOp, buf: Buf, row: RegAttr, col: RegAttr,
              r0: int, c0: int) -> RegAttr:
        """The address of element (row + r0, col + c0) of the op's matrix."""
        em = st.em
        idx = self.val(st, op.index)
        stride = self.val(st, op.stride)
        assert isinstance(idx, Sc) and isinstance(stride, Sc)
        r = em.op2(px.AddOp, "s32", "s32", row, r0)
        c = em.op2(px.AddOp, "s32", "s32", col, c0)
        if op.col_major is not None:
            r, c = c, r
        lin = em.reg("s32")
        em.emit(px.MadOp, "lo.s32", lin, r, em.imm(stride.r), idx.r)
        lin = em.op2(px.AddOp, "s32", "s32", lin, c)
        size, _ = self.size_align(buf.elt, op)
        return self._elem_addr(st, buf, Sc(i32, lin), size)

    def _walk(self, st: FnState, op: sk.CoopmatLoadOp | sk.CoopmatStoreOp) -> list[tuple[RegAttr, list[RegAttr]]]:
        """(register, addresses of its elements) for every register of the fragment's pieces."""
        d = self._decl(op, op.frag.data)
        use = d.use.data
        pr, pc = self._pieces(op, op.frag.data)
        eight = use != "acc" and self._eight(op, op.frag.data)
        buf = self.val(st, op.array)
        assert isinstance(buf, Buf)
        g, t2 = self._lane(st, 2 if eight else 1)
        if d.warpgroup is not None:  # an accumulator: its warp's 16 rows of the 64
            g = st.em.op3(px.MadOp, "lo.s32", "s32", self.wg_warp(st), 16, g)
        row, col = (t2, g) if use == "b" else (g, t2)
        out: list[tuple[RegAttr, list[RegAttr]]] = []
        for (i, j), regs in self._frags(st)[op.frag.data].items():
            for reg, cells in zip(regs, _cells(use, eight)):
                out.append((reg, [self._addr(st, op, buf, row, col, i * pr + r0, j * pc + c0)
                                  for r0, c0 in cells]))
        return out

    def _ldmatrix(self, st: FnState, op: sk.CoopmatLoadOp, buf: Buf) -> None:
        """An `a` or `b` fragment from shared memory: one `ldmatrix.x4` per `a` piece and per pair of `b` pieces
        side by side (j, j + 1: a b fragment is 16 columns wide or more, so its 16x8 pieces pair up); `.trans`
        for a row-major `b` or a column-major `a`. Lane l gives the address of row l & 7 of 8x8 matrix
        m = l >> 3, whose elements are 8 contiguous halves: matrix m covers rows 8 (m & 1).., columns
        8 (m >> 1).. (for a b pair, piece j's two registers are matrices 0 and 1, piece j + 1's 2 and 3); the
        registers it fills are the mma fragment's (see the module docstring)."""
        em = st.em
        use = self._decl(op, op.frag.data).use.data
        col = op.col_major is not None
        lane = em.op1(px.MovOp, "u32", "s32", "%laneid")
        m = em.op2(px.ShrOp, "s32", "s32", lane, 3)
        i8 = em.op2(px.AndOp, "b32", "s32", lane, 7)
        r0 = em.op2(px.ShlOp, "b32", "s32", em.op2(px.AndOp, "b32", "s32", m, 1), 3)
        c0 = em.op2(px.ShlOp, "b32", "s32", em.op2(px.ShrOp, "s32", "s32", m, 1), 3)
        row, c = (r0, em.op2(px.AddOp, "s32", "s32", c0, i8)) if col else (em.op2(px.AddOp, "s32", "s32", r0, i8), c0)
        pr, pc = self._pieces(op, op.frag.data)
        trans = ".trans" if (use == "b") != col else ""
        frags = self._frags(st)[op.frag.data]
        for (i, j), regs in frags.items():
            if use == "b" and j % 2:
                continue  # loaded with its left neighbour
            if use == "b":
                regs = regs + frags[(i, j + 1)]
            addr = self._addr(st, op, buf, row, c, i * pr, j * pc)
            em.emit(px.LdmatrixOp, f"sync.aligned.m8n8.x{len(regs)}{trans}.shared.b16", regs, AddrAttr(addr, 0))

    @lowers(sk.CoopmatLoadOp)
    def op_CoopmatLoadOp(self, st: FnState, op: sk.CoopmatLoadOp) -> Any:
        if op.core is not None:
            return self.wg_load(st, op)
        em = st.em
        buf = self.val(st, op.array)
        assert isinstance(buf, Buf)
        done = None
        d = self._decl(op, op.frag.data)
        if buf.space == "shared" and d.use.data != "acc" and str(d.element_type) in ("f16", "bf16"):
            # ldmatrix needs 16-byte aligned rows: the first element and the row stride multiples of 8 halves
            # (a coop kernel's shared arrays are 16-byte aligned); else the element path below. The test is
            # warp-uniform (the arguments are).
            idx, stride = self.val(st, op.index), self.val(st, op.stride)
            assert isinstance(idx, Sc) and isinstance(stride, Sc)
            low = em.op2(px.AndOp, "b32", "s32", em.op2(px.OrOp, "b32", "s32", idx.r, em.imm(stride.r)), 7)
            slow, done = em.label("coop_elems"), em.label("coop_loaded")
            em.bra(slow, guard=em.setp("ne", "s32", low, 0))
            self._ldmatrix(st, op, buf)
            em.bra(done)
            em.place_label(slow)
        space = "global.nc" if buf.readonly else buf.space  # a vector the kernel never writes: the read-only cache
        for reg, addrs in self._walk(st, op):
            if len(addrs) == 1:
                em.emit(px.LdOp, f"{space}.{reg.ty.data}", reg, AddrAttr(addrs[0], 0))
                continue
            w = "b16" if len(addrs) == 2 else "b8"  # two halves or four bytes per register
            parts = [em.reg(w) for _ in addrs]
            for h, a in zip(parts, addrs):
                em.emit(px.LdOp, f"{space}.{w}", h, AddrAttr(a, 0))
            em.mov("b32", reg, parts)
        if done is not None:
            em.place_label(done)
        return None

    @lowers(sk.CoopmatStoreOp)
    def op_CoopmatStoreOp(self, st: FnState, op: sk.CoopmatStoreOp) -> Any:
        space = self.val(st, op.array).space
        for reg, addrs in self._walk(st, op):
            st.em.emit(px.StOp, f"{space}.{reg.ty.data}", AddrAttr(addrs[0], 0), reg)
        return None
