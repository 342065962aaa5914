"""sarek-wgmma-waits: where the asynchronous warpgroup multiply-accumulates (wgmma) are fenced and waited for."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from sarek.analysis.wgmma import wait_points
from sarek.dialect import sarek as s

#: on a warpgroup `sarek.coopmat_muladd` that opens a sequence: the lowering fences first (wgmma.fence)
FENCE = "sarek.fence"
#: on a barrier (after it) or a warpgroup mma (before it): fence.proxy.async.shared::cta, the threads' generic
#: shared-memory stores made visible to wgmma's async proxy
PROXY = "sarek.proxy_fence"


def place_waits(module: ModuleOp) -> None:
    """Insert `sarek.coopmat_wait` and mark FENCE in every function of `module` (sarek.analysis.wgmma)."""
    for f in module.ops:
        if not isinstance(f, s.KernelOp | s.HelperOp) or not any(isinstance(o, s.CoopmatMulAddOp) for o in f.walk()):
            continue
        points = wait_points(f.body.block)
        for op in points.before:
            op.parent_block().insert_op_before(s.CoopmatWaitOp(), op)  # pyright: ignore[reportOptionalMemberAccess]
        for b in points.ends:
            last = b.last_op
            if isinstance(last, s.ReturnOp | s.YieldOp):
                b.insert_op_before(s.CoopmatWaitOp(), last)
            else:
                b.add_op(s.CoopmatWaitOp())
        for op in points.fences:
            op.attributes[FENCE] = UnitAttr()
        for op in points.proxies:
            op.attributes[PROXY] = UnitAttr()


@dataclass(frozen=True)
class WgmmaWaitsPass(ModulePass):
    """Place the waits and fences of warpgroup multiply-accumulates (`scope="warpgroup"` fragments, PTX wgmma).

    No options. A warpgroup mma runs asynchronously: it reads its operands' shared arrays and writes its
    accumulator's registers after it is issued. A `sarek.coopmat_wait` (wgmma.wait_group 0) goes right before the
    first op after an mma that needs it done: a barrier (other threads may then overwrite an operand array), a
    store, atomic or copy_async into an array a pending mma reads (a write into another shared array runs while
    the mma does), a call, a return, the end of the kernel, or a coop op other than a warpgroup operand load or
    mma (a fill or store of the accumulator). Generic stores into shared memory (not copy_async's) are made
    visible to wgmma's async proxy by marking the next barrier (or mma) `sarek.proxy_fence`, once: a K loop that
    only copies has none (the fence waits for every copy in flight). The state is conservative across
    control flow (an mma in a loop may be pending at the loop's head; after an if, if any arm issued one), so a
    K loop whose step is `copy_async_wait; barrier; copy_async(next stage); mma...` waits at the barrier: the
    step's mmas overlap the next stage's copies. The first mma of a sequence (after a wait, a barrier, a fill or
    store, or a region boundary) is marked `sarek.fence` (wgmma.fence before it). Modules without warpgroup mmas
    are unchanged."""

    name = "sarek-wgmma-waits"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        place_waits(op)
