"""Warpgroup fragments (`coop.fragment(..., scope="warpgroup")`, Hopper's wgmma): the load -> mma hazard every
target refuses, and where the asynchronous multiply-accumulates must be waited for (sarek-wgmma-waits).

On PTX a warpgroup `a`/`b` load moves no data: it builds a matrix descriptor, and the wgmma reads the shared
array when it runs, asynchronously, until a `wgmma.wait_group`. The executors' semantics (sarek.interp.coopmat:
a load copies the elements) hold only if nothing writes the array between the load and the mma that reads the
fragment, and until that mma completes: `operand_hazard` refuses a barrier (other threads may write the array
after it), a store, an atomic or a `copy_async` into the array between the two (they must be in one block,
load first); `wait_points` finds where an mma may still be running when something needs it done.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect import sarek as s

#: the barriers after which other threads may have written any shared array
BARRIERS = (s.BarrierOp, s.GridBarrierOp)


def is_wg_mma(op: Operation) -> bool:
    return isinstance(op, s.CoopmatMulAddOp) and s.is_warpgroup(op, op.d.data)


def is_wg_operand_load(op: Operation) -> bool:
    return isinstance(op, s.CoopmatLoadOp) and op.core is not None and s.is_warpgroup(op, op.frag.data)


def written_array(op: Operation) -> SSAValue | None:
    """The array `op` writes an element of (a store through an element place, a copy_async's destination, an
    atomic's array), or None."""
    if isinstance(op, s.CopyAsyncOp):
        return op.dst
    if isinstance(op, s.StoreOp):
        place = op.place.owner
        while isinstance(place, s.FieldRefOp):
            place = place.operands[0].owner
        return place.array if isinstance(place, s.ElemRefOp) else None
    if isinstance(op, s.IntrinsicOp) and op.operands and isinstance(op.operands[0].type, s.ArrayType):
        return op.operands[0]
    return None


def _later(op: Operation) -> Iterator[Operation]:
    """The ops after `op` in its block, each followed by the ops nested in it."""
    nxt = op.next_op
    while nxt is not None:
        yield from nxt.walk()
        nxt = nxt.next_op


def operand_hazard(module: Operation) -> tuple[Operation, str] | None:
    """The first warpgroup operand load whose array may change before its mma reads it: (op, reason)."""
    for load in module.walk():
        if not is_wg_operand_load(load):
            continue
        assert isinstance(load, s.CoopmatLoadOp)
        frag = load.frag.data
        for op in _later(load):
            if isinstance(op, s.CoopmatMulAddOp) and frag in (op.a.data, op.b.data) and op.parent_block() is \
                    load.parent_block():
                break
            what = ("a barrier" if isinstance(op, BARRIERS) else
                    "a write into the array" if written_array(op) is load.array else
                    "another load into the fragment" if isinstance(op, s.CoopmatLoadOp) and op.frag.data == frag
                    else None)
            if what is not None:
                return op, (f"{what} between the warpgroup load of fragment '{frag}' and the coop.mma that reads "
                            "it: wgmma reads the shared array when the mma runs, not at the load (other threads may "
                            "write the array after a barrier); load the fragment after it, right before the mma")
        else:
            return load, (f"the warpgroup fragment '{frag}' is loaded but no coop.mma after it in the same block "
                          "reads it: wgmma reads the shared array when the mma runs, so the load and its mma are "
                          "one straight-line sequence")
    return None


Pending = frozenset[SSAValue]  # the operand arrays of the mmas that may still run (empty: none)


def _operand_arrays(mma: s.CoopmatMulAddOp) -> Pending:
    """The arrays `mma` may read: those of every warpgroup load into its `a` or `b` fragment in the function."""
    f = s.enclosing_function(mma)
    names = (mma.a.data, mma.b.data)
    return frozenset(o.array for o in (f.walk() if f is not None else ()) if is_wg_operand_load(o)
                     and isinstance(o, s.CoopmatLoadOp) and o.frag.data in names)


def _writes_shared(op: Operation) -> SSAValue | None:
    arr = written_array(op)
    ok = arr is not None and isinstance(arr.type, s.ArrayType) and arr.type.memspace == s.MemSpace.SHARED
    return arr if ok else None


def _needs_done(op: Operation, pending: Pending) -> bool:
    """`op` needs the pending warpgroup mmas completed: a barrier (others may then write an operand array), a
    write into one of their operand arrays, a call (its helper may do either), a return, or a coop op other
    than a warpgroup operand load and a warpgroup mma (a fill or store of the accumulator reads its registers)."""
    if not pending:
        return False
    if isinstance(op, (*BARRIERS, s.CallOp, s.ReturnOp)):
        return True
    if (arr := _writes_shared(op)) is not None:
        return arr in pending
    return isinstance(op, s.COOPMAT_OPS) and not isinstance(op, s.CoopmatDeclOp) and not is_wg_mma(op) \
        and not is_wg_operand_load(op)


def _opens_sequence(op: Operation) -> bool:
    """After `op` the next mma fences first: a barrier, a call, a shared-memory write (wgmma's async proxy must
    see it) or a coop op other than a warpgroup operand load or mma."""
    return isinstance(op, (*BARRIERS, s.CallOp, s.ReturnOp)) or _writes_shared(op) is not None or (
        isinstance(op, s.COOPMAT_OPS) and not isinstance(op, s.CoopmatDeclOp) and not is_wg_mma(op)
        and not is_wg_operand_load(op))


def _mma_arrays(op: Operation) -> Pending:
    out: Pending = frozenset()
    for o in op.walk():
        if isinstance(o, s.CoopmatMulAddOp) and is_wg_mma(o):
            out |= _operand_arrays(o)
    return out


@dataclass
class WaitPoints:
    """What sarek-wgmma-waits changes in one function body: ops to wait before, blocks to wait at the end of,
    mmas that open a sequence (wgmma.fence first), and barriers or mmas after / before which the threads'
    generic shared-memory stores must be made visible to wgmma's async proxy (fence.proxy.async)."""

    before: list[Operation] = field(default_factory=list[Operation])
    ends: list[Block] = field(default_factory=list[Block])
    fences: list[Operation] = field(default_factory=list[Operation])
    proxies: list[Operation] = field(default_factory=list[Operation])


def _stores_shared(op: Operation) -> bool:
    """`op` (or an op in it) stores into a shared array through the generic proxy (not a copy_async, which
    wgmma reads without a proxy fence, as CUTLASS's cp.async mainloops do)."""
    return any(isinstance(o, s.StoreOp | s.IntrinsicOp) and _writes_shared(o) is not None for o in op.walk())


def wait_points(body: Block) -> WaitPoints:
    """Where sarek-wgmma-waits puts waits and fences in a function body, lazily. An mma is pending, with the
    arrays it reads, from its issue until a wait; at a loop's head it may be pending from the previous
    iteration, after a region from any of its paths (a conservative state: an extra wait is free when nothing is
    pending). A write into another shared array needs no wait: a K step's mmas overlap copies into other
    stages' arrays. Generic stores into shared memory are made visible to the async proxy once, after the next
    barrier (or before the next mma when no barrier comes first), never inside a K loop that only copies
    (fence.proxy.async waits for every copy in flight). A scope (`sarek.block`, `sarek.pragma`) is straight-line
    code."""
    out = WaitPoints()

    def block(b: Block, pending: Pending, fenced: bool, dirty: bool) -> tuple[Pending, bool, bool]:
        for op in b.ops:
            if _needs_done(op, pending):
                out.before.append(op)
                pending = frozenset()
            if _opens_sequence(op):
                fenced = False
            if isinstance(op, BARRIERS) and dirty:
                out.proxies.append(op)
                dirty = False
            if isinstance(op, s.CoopmatMulAddOp) and is_wg_mma(op):
                if not fenced:
                    out.fences.append(op)
                if dirty:
                    out.proxies.append(op)
                    dirty = False
                pending, fenced = pending | _operand_arrays(op), True
                continue
            if isinstance(op, s.BlockOp | s.PragmaOp):  # a scope, run once: straight-line code
                pending, fenced, dirty = block(op.body.block, pending, fenced, dirty)
                continue
            if op.regions:
                loop = isinstance(op, s.ForOp | s.WhileOp)
                inner: Pending = _mma_arrays(op) if loop else frozenset()
                stores = _stores_shared(op)
                after: Pending = pending | inner
                for r in op.regions:
                    for rb in r.blocks:
                        p, _, _ = block(rb, pending | inner, False, dirty or (loop and stores))
                        after |= p
                pending, fenced, dirty = after, False, dirty or stores
                continue
            if _writes_shared(op) is not None and not isinstance(op, s.CopyAsyncOp):
                dirty = True
        return pending, fenced, dirty

    if block(body, frozenset(), False, False)[0]:
        out.ends.append(body)
    return out
