"""Block votes (`sarek.intrinsic "barrier_count" / "barrier_and" / "barrier_or"`, CUDA's
`__syncthreads_count / _and / _or`) as a one-element shared counter and three barriers.

The front end emits the intrinsic; CUDA, HIP and PTX lower it natively (`__syncthreads_count`,
`bar.red.popc.u32`), every other target expands it here (sarek-expand-block-votes), and so do the interpreters
(`sarek.interp.plain_copies`): this expansion is the intrinsic's semantics.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue

from sarek.dialect.control import IfOp
from sarek.dialect.expressions import BinOp, CastOp, ConstantOp
from sarek.dialect.calls import IntrinsicOp
from sarek.dialect.places import AllocArrayOp, ArrayReadOp, ElemRefOp, StoreOp
from sarek.dialect.statements import BarrierOp
from sarek.dialect.types import ArrayType, MemSpace

#: the block votes, each a barrier of the whole block (sarek.dialect.intrinsics, Category.BLOCK)
BLOCK_VOTES = ("barrier_count", "barrier_and", "barrier_or")
#: the shared counter's name
COUNTER = "sarek_barrier_votes"


def is_block_vote(op: Operation) -> bool:
    """`op` is a block-vote intrinsic."""
    return isinstance(op, IntrinsicOp) and op.callee.data in BLOCK_VOTES


def expand_block_vote(op: IntrinsicOp) -> None:
    """Replace the vote `op` by: a shared i32 counter, a barrier (the previous vote's readers are done), thread
    0 zeroes it, a barrier, every thread atomically adds its condition, a barrier, every thread reads it
    (`barrier_or`: count > 0, `barrier_and`: count == block size). The new ops carry the vote's location."""
    new: list[Operation] = []

    def v(o: Operation) -> SSAValue:
        new.append(o)
        return o.results[0]

    zero = v(ConstantOp(IntegerAttr(0, i32), i32))
    one = v(ConstantOp(IntegerAttr(1, i32), i32))
    cnt = v(AllocArrayOp(COUNTER, [one], ArrayType(i32, MemSpace.SHARED, 1)))
    new.append(BarrierOp())
    idx = {d: v(IntrinsicOp(f"thread_idx_{d}", [])) for d in "xyz"}
    dim = {d: v(IntrinsicOp(f"block_dim_{d}", [])) for d in "xyz"}
    linear = v(BinOp("add", idx["x"], v(BinOp("mul", dim["x"], v(BinOp(
        "add", idx["y"], v(BinOp("mul", dim["y"], idx["z"]))))))))
    first = v(BinOp("eq", linear, zero))
    ref = ElemRefOp(cnt, zero)
    then_b = Block([ref, StoreOp(ref.results[0], zero)])
    new.append(IfOp(first, Region(then_b)))
    new.append(BarrierOp())
    v(IntrinsicOp("atomic_add", [cnt, zero, v(CastOp(op.args[0], i32))]))
    new.append(BarrierOp())
    r = v(ArrayReadOp(cnt, zero))
    name = op.callee.data
    if name == "barrier_or":
        r = v(BinOp("gt", r, zero))
    elif name == "barrier_and":
        size = v(BinOp("mul", dim["x"], v(BinOp("mul", dim["y"], dim["z"]))))
        r = v(BinOp("eq", r, size))
    assert r.type == (i32 if name == "barrier_count" else i1)
    for o in new:
        for inner in o.walk():
            inner.location = op.location  # a barrier error names the vote's line
    parent = op.parent_block()
    assert parent is not None
    parent.insert_ops_before(new, op)
    op.results[0].replace_all_uses_with(r)
    op.detach()
    op.erase()


def expand_block_votes(module: ModuleOp) -> bool:
    """Expand every block vote of `module` in place; whether there was one."""
    votes = [o for o in module.walk() if is_block_vote(o)]
    for o in votes:
        assert isinstance(o, IntrinsicOp)
        expand_block_vote(o)
    return bool(votes)
