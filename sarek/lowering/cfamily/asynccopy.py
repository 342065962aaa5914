"""C-family lowering, asynchronous copies (CUDA only: the other C-family targets never see them,
sarek-expand-copy-async made them plain copies). `sarek.copy_async` is one `cp.async` in inline PTX (`.cg` for
16 bytes, `.ca` for 4 and 8), the destination a shared-window address (`__cvta_generic_to_shared`), the source
the element's generic address; the commit and the wait are `cp.async.commit_group` / `cp.async.wait_group N`.
Every asm statement is `volatile` with a "memory" clobber, so NVRTC neither drops nor moves shared-memory
accesses across it. Shared arrays of a kernel with copies are aligned as a `coop` kernel's (CCoopmat.alloc)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from sarek.analysis.layout import scalar_layout
from sarek.analysis.effects import Effect
from sarek.dialect import sarek as s
from sarek.lowering.cfamily.coopmat import CCoopmat
from sarek.lowering.cfamily.statements import lowers
from sarek.targets.cfamily import dialect as c

#: the inline PTX of each op (cp.async exists on sm_80+, which every CUDA device sarek compiles for has)
_COPY = ('asm volatile("cp.async.{mode}.shared.global [%0], [%1], {n};" :: '
         '"r"((unsigned)__cvta_generic_to_shared({{0}})), "l"({{1}}) : "memory")')
_COMMIT = 'asm volatile("cp.async.commit_group;" ::: "memory")'
_WAIT = 'asm volatile("cp.async.wait_group {n};" ::: "memory")'


class CAsyncCopy(CCoopmat):
    """cp.async for CUDA."""

    def address(self, array: SSAValue, indices: tuple[SSAValue, ...], op: Operation) -> SSAValue:
        """`&a[flat index]` of an element of `array`."""
        et = self.elt_ctype(array, op)
        place = self.emit(c.IndexOp(self.val(array), self.flat_of(array, indices, op), et)).results[0]
        return self.tmpl("&{0}", [place], self.lang.helper_ptr["global"].format(t=et))

    @lowers(s.CopyAsyncOp, s.CopyAsyncCommitOp, s.CopyAsyncWaitOp)
    def copy_async(self, op: s.CopyAsyncOp | s.CopyAsyncCommitOp | s.CopyAsyncWaitOp) -> None:
        if self.lang.target != "cuda":
            raise self.err(f"{op.name} reached the {self.backend} lowering (sarek-expand-copy-async expands it)", op)
        if isinstance(op, s.CopyAsyncCommitOp):
            text, args = _COMMIT, []
        elif isinstance(op, s.CopyAsyncWaitOp):
            text, args = _WAIT.format(n=op.pending.value.data), []
        else:
            lay = scalar_layout(op.element_type)
            n = (lay.size if lay is not None else 0) * op.n
            text = _COPY.format(mode="cg" if n == 16 else "ca", n=n)
            args = [self.address(op.dst, op.dst_indices, op), self.address(op.src, op.src_indices, op)]
        self.emit(c.EvalOp(self.tmpl(text, args, "void", Effect.WRITE)))
