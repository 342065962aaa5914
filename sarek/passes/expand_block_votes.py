"""sarek-expand-block-votes: block votes as a shared counter and barriers where a target has no native one.

`sarek.intrinsic "barrier_count"(%c)` (and `barrier_and` / `barrier_or`) becomes a one-element shared i32
counter, a barrier, thread 0 zeroing it, a barrier, every thread's `atomic_add` of `c`, a barrier and a read of
the count (`barrier_or`: count > 0, `barrier_and`: count == the block's size), located at the vote
(sarek.dialect.blockvote; the interpreters run the same expansion). CUDA and HIP (`__syncthreads_count` /
`_and` / `_or`) and PTX (`bar.red.popc.u32` / `bar.red.and.pred` / `bar.red.or.pred`) keep the intrinsic.
It runs before sarek-verify-barriers, which checks the vote (or its barriers) like any block barrier.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.dialect.blockvote import expand_block_votes

#: the targets whose lowering spells a block vote natively
NATIVE = frozenset({"cuda", "hip", "ptx"})


@dataclass(frozen=True)
class ExpandBlockVotesPass(ModulePass):
    """Block votes (`barrier_count` / `barrier_and` / `barrier_or`) as a shared counter and three barriers,
    except on CUDA, HIP and PTX, whose lowerings spell them natively.

    Option: `target` (the pipeline's; `interp` or any other name expands)."""

    name = "sarek-expand-block-votes"

    target: str = "interp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in NATIVE:
            expand_block_votes(op)
