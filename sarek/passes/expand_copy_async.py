"""sarek-expand-copy-async: asynchronous copies as plain element copies where a target has no hardware copy.

`sarek.copy_async %dst[%i, %j], %src[%k, %l] count n` becomes n element copies (`dst[i, j + e] = src[k, l + e]`,
in order) and every `sarek.copy_async_commit` / `sarek.copy_async_wait` is erased: a copy that completes when
it is issued satisfies every wait, and the barrier a kernel needs before other threads read the data is its own
(so the result is the same on every target). On a target whose descriptor has `async_copy` (CUDA and PTX:
`cp.async`, sm_80+) the ops stay for the lowering, except a copy whose size is not one hardware copy (4, 8 or
16 bytes), which is expanded there too. The interpreters make the same element copies
(`sarek.dialect.asynccopy.plain_copies`): the ops' semantics are these plain copies.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.layout import scalar_layout
from sarek.dialect import sarek as s
from sarek.dialect.asynccopy import COPY_BYTES, expand_copy
from sarek.registry import TARGETS


def hardware_copy(op: s.CopyAsyncOp) -> bool:
    """The copy is one hardware copy: its size is 4, 8 or 16 bytes."""
    lay = scalar_layout(op.element_type)
    return lay is not None and lay.size * op.n in COPY_BYTES


def expand_copy_async(module: ModuleOp, target: str) -> None:
    """Expand the module's asynchronous copies for `target` (see the module docstring)."""
    native = target in TARGETS and TARGETS[target].async_copy
    for op in [o for o in module.walk() if isinstance(o, s.CopyAsyncOp | s.CopyAsyncCommitOp | s.CopyAsyncWaitOp)]:
        if isinstance(op, s.CopyAsyncOp):
            if not (native and hardware_copy(op)):
                expand_copy(op)
        elif not native:
            op.detach()
            op.erase()


@dataclass(frozen=True)
class ExpandCopyAsyncPass(ModulePass):
    """Asynchronous copies (`sarek.copy_async`, `_commit`, `_wait`) as plain element copies on targets without
    hardware copies, and on CUDA/PTX for a copy that is not 4, 8 or 16 bytes.

    Option: `target` (the pipeline's; any name without `async_copy` in its descriptor, e.g. `interp`, expands
    everything)."""

    name = "sarek-expand-copy-async"

    target: str = "interp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        expand_copy_async(op, self.target)
