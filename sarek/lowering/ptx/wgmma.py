"""PTX lowering, warpgroup fragments (`coop.fragment(..., scope="warpgroup")`): Hopper's asynchronous warpgroup
MMA, `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}`, which ptxas assembles for `.target sm_90a` only
(refused at the op on any other arch).

- an `a` / `b` fragment is one 64-bit shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"):
  bits 0-13 the start address >> 4, 16-29 the leading byte offset >> 4, 32-45 the stride byte offset >> 4,
  62-63 the swizzle (0: none). A load builds it from the element's shared address; it moves no data (the mma
  reads the array when it runs: sarek.analysis.wgmma keeps writes away). The arrays are in the no-swizzle
  core-matrix layout (sarek.analysis.core_layout, C columns): `a` K-major (imm-trans-a 0), `b` MN-major (its rows
  are k, imm-trans-b 1); the byte offsets are `desc_offsets`' (the reading the H200 confirmed:
  benchmarks/probe_wgmma.py).
- an accumulator is the mma.sync m16n8 accumulator layout of its warp's 16 rows: N / 2 f32 registers per
  thread, piece j (columns 8 j..) in registers 4 j..4 j + 3; fills and stores are the warp fragments' code with
  rows offset by 16 x (the warp's index in its group).
- an mma is `wgmma.mma_async` then `wgmma.commit_group`; one marked `sarek.fence` by sarek-wgmma-waits opens a
  sequence: `wgmma.fence` first; `sarek.coopmat_wait` is `wgmma.wait_group 0`. A barrier (after it) or an mma
  (before it) marked `sarek.proxy_fence` takes `fence.proxy.async.shared::cta`: the threads' generic shared
  stores made visible to the async proxy wgmma reads through (cp.async data needs none, as in CUTLASS's
  cp.async wgmma mainloops, and the row is right without it on the H200; the fence compiles to MEMBAR.ALL.CTA,
  which waits for the copies in flight).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from sarek.analysis.core_layout import CORE_BYTES, CORE_ROWS
from sarek.dialect import sarek as sk
from sarek.lowering.ptx.control import ControlLowering
from sarek.lowering.ptx.state import FnState, lowers
from sarek.lowering.ptx.values import Buf, Sc, ptx_error
from sarek.passes.wgmma_waits import FENCE, PROXY
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import RegAttr

#: bytes of one core matrix (8 rows of 16 bytes)
CORE_MATRIX = CORE_ROWS * CORE_BYTES


def desc_offsets(use: str, row_bytes: int) -> tuple[int, int]:
    """(leading byte offset, stride byte offset) of a descriptor of fragment `use` on a core-layout array of
    `row_bytes` bytes per row: the leading offset steps along K, the stride offset along M/N. K-major `a`: the
    next core matrix along K is the next one in the row (128 bytes on), the next 8 rows are 8 rows on; MN-major
    `b` (rows are k): the next 8 rows of k, and the next core matrix along N 128 bytes on."""
    group = CORE_ROWS * row_bytes  # 8 rows of the array
    return (CORE_MATRIX, group) if use == "a" else (group, CORE_MATRIX)


class WgmmaLowering(ControlLowering):
    """Warpgroup fragments: descriptors, wgmma, its fences and waits (the module docstring)."""

    #: the target admits wgmma (`.target sm_90a`); set by sarek.lowering.ptx.lower_module
    wgmma: bool = False

    def _wg_check(self, op: Operation) -> None:
        if not self.wgmma:
            raise ptx_error("warpgroup fragments lower to wgmma, which ptxas assembles for `.target sm_90a` only "
                            "(compute capability 9.0): compile with `sarek emit --arch sm_90a` / sarek-opt -t 'ptx{arch=sm_90a}' "
                            "(a PTX device of compute capability 9.0 does)", op)

    def _descs(self, st: FnState) -> dict[str, RegAttr]:
        return st.__dict__.setdefault("wg_descs", {})

    def wg_decl(self, st: FnState, op: sk.CoopmatDeclOp) -> Any:
        self._wg_check(op)
        if op.use.data != "acc":
            self._descs(st)[op.frag.data] = st.em.reg("u64")
            return None
        frags: dict[str, dict[tuple[int, int], list[RegAttr]]] = st.__dict__.setdefault("coop_frags", {})
        frags[op.frag.data] = {(0, j): [st.em.reg("f32") for _ in range(4)] for j in range(op.cols.value.data // 8)}
        return None

    def wg_warp(self, st: FnState) -> RegAttr:
        """The thread's warp in its warpgroup: (linear thread index >> 5) & 3."""
        em = st.em
        tid = {d: em.op1(px.MovOp, "u32", "s32", f"%tid.{d}") for d in "xyz"}
        ntid = {d: em.op1(px.MovOp, "u32", "s32", f"%ntid.{d}") for d in "xy"}
        lin = em.op3(px.MadOp, "lo.s32", "s32", tid["z"], ntid["y"], tid["y"])
        lin = em.op3(px.MadOp, "lo.s32", "s32", lin, ntid["x"], tid["x"])
        return em.op2(px.AndOp, "b32", "s32", em.op2(px.ShrOp, "u32", "s32", lin, 5), 3)

    def wg_load(self, st: FnState, op: sk.CoopmatLoadOp) -> Any:
        """The fragment's descriptor: the shared address of its first element and the array's byte offsets."""
        self._wg_check(op)
        em = st.em
        buf, idx = self.val(st, op.array), self.val(st, op.index)
        assert isinstance(buf, Buf) and isinstance(idx, Sc)
        stride = op.stride.owner
        cols = stride.value if isinstance(stride, sk.ConstantOp) else None
        if not isinstance(cols, IntegerAttr):
            raise ptx_error("a warpgroup fragment's array has a constant row length", op)
        size, _ = self.size_align(buf.elt, op)
        use = sk.fragment_decl(op, op.frag.data).use.data
        lbo, sbo = desc_offsets(use, cols.value.data * size)
        addr = self._elem_addr(st, buf, idx, size)
        start = em.op2(px.AndOp, "b64", "u64", em.op2(px.ShrOp, "u64", "u64", em.cvt("u64.u32", "u64", addr), 4),
                       0x3FFF)
        em.emit(px.OrOp, "b64", self._descs(st)[op.frag.data], start, (lbo >> 4) << 16 | (sbo >> 4) << 32)
        return None

    def wg_mma(self, st: FnState, op: sk.CoopmatMulAddOp) -> Any:
        """`wgmma.mma_async` (fenced first when it opens a sequence), then `wgmma.commit_group`."""
        self._wg_check(op)
        em = st.em
        frags: dict[str, dict[tuple[int, int], list[RegAttr]]] = st.__dict__["coop_frags"]
        acc = frags[op.d.data]
        regs = [r for j in range(len(acc)) for r in acc[(0, j)]]
        da, db = self._descs(st)[op.a.data], self._descs(st)[op.b.data]
        elt = "bf16" if str(sk.fragment_decl(op, op.a.data).element_type) == "bf16" else "f16"
        if PROXY in op.attributes:
            em.emit(px.FenceOp, "proxy.async.shared::cta")
        if FENCE in op.attributes:
            em.emit(px.WgmmaOp, "fence.sync.aligned")
        scale_d = em.setp("eq", "u64", da, da)  # accumulate into d (scale-d true)
        em.emit(px.WgmmaOp, f"mma_async.sync.aligned.m64n{len(regs) * 2}k16.f32.{elt}.{elt}", regs, da, db, scale_d,
                1, 1, 0, 1)
        em.emit(px.WgmmaOp, "commit_group.sync.aligned")
        return None

    @lowers(sk.CoopmatWaitOp)
    def op_CoopmatWaitOp(self, st: FnState, op: sk.CoopmatWaitOp) -> Any:
        st.em.emit(px.WgmmaOp, "wait_group.sync.aligned", 0)
        return None
