"""PTX lowering, asynchronous copies: `sarek.copy_async` is one `cp.async` (`.cg` for 16 bytes, which bypasses
L1 as CUTLASS's copies do; `.ca` for 4 and 8, the sizes `.cg` does not take), `sarek.copy_async_commit` is
`cp.async.commit_group` and `sarek.copy_async_wait N` is `cp.async.wait_group N` (sm_80+). Copies of other
sizes never arrive here (sarek-expand-copy-async made them plain copies)."""

from __future__ import annotations

from typing import Any

from xdsl.ir import SSAValue

from sarek.dialect import sarek as sk
from sarek.lowering.ptx.coopmat import CoopmatLowering
from sarek.lowering.ptx.state import FnState, lowers
from sarek.lowering.ptx.values import Buf, ptx_error
from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr


class AsyncCopyLowering(CoopmatLowering):
    """cp.async and its groups."""

    def _copy_addr(self, st: FnState, buf: Buf, indices: tuple[SSAValue, ...], op: sk.CopyAsyncOp) -> AddrAttr:
        if len(indices) == 1:
            a, off = self.elem_place(st, buf, indices[0], op)
            return AddrAttr(a, off)
        return AddrAttr(self.elem_addr(st, buf, self.flat_of(st, buf, indices), op), 0)

    @lowers(sk.CopyAsyncOp)
    def op_CopyAsyncOp(self, st: FnState, op: sk.CopyAsyncOp) -> Any:
        dst, src = self.val(st, op.dst), self.val(st, op.src)
        assert isinstance(dst, Buf) and isinstance(src, Buf)
        nbytes = self.size_align(dst.elt, op)[0] * op.n
        if nbytes not in sk.COPY_BYTES or dst.space != "shared":
            raise ptx_error(f"copy_async of {nbytes} bytes into {dst.space} memory reached the PTX lowering "
                            "(sarek-expand-copy-async expands it)", op)
        d = self._copy_addr(st, dst, op.dst_indices, op)
        s = self._copy_addr(st, src, op.src_indices, op)
        st.em.emit(px.CpOp, f"async.{'cg' if nbytes == 16 else 'ca'}.shared.global", d, s, nbytes)
        return None

    @lowers(sk.CopyAsyncCommitOp)
    def op_CopyAsyncCommitOp(self, st: FnState, op: sk.CopyAsyncCommitOp) -> Any:
        st.em.emit(px.CpOp, "async.commit_group")
        return None

    @lowers(sk.CopyAsyncWaitOp)
    def op_CopyAsyncWaitOp(self, st: FnState, op: sk.CopyAsyncWaitOp) -> Any:
        st.em.emit(px.CpOp, "async.wait_group", op.pending.value.data)
        return None
