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


def _needs_done(op: Operation) -> bool:
    """`op` needs every issued warpgroup mma completed: a barrier (others may then write an operand array), a
    write into a shared array, a call (its helper may do either), a return, or a coop op other than a
    warpgroup operand load and a warpgroup mma (a fill or store of the accumulator reads its registers)."""
    if isinstance(op, (*BARRIERS, s.CallOp, s.ReturnOp)):
        return True
    arr = written_array(op)
    if arr is not None and isinstance(arr.type, s.ArrayType) and arr.type.memspace == s.MemSpace.SHARED:
        return True
    return isinstance(op, s.COOPMAT_OPS) and not isinstance(op, s.CoopmatDeclOp) and not is_wg_mma(op) \
        and not is_wg_operand_load(op)


def _has_mma(op: Operation) -> bool:
    return any(is_wg_mma(o) for o in op.walk())


def wait_points(body: Block) -> tuple[list[Operation], list[Block], list[Operation]]:
    """Where sarek-wgmma-waits puts waits in a function body, lazily: (ops to wait before, blocks to wait at the
    end of, mmas that open a sequence and need a wgmma.fence first). An mma is pending from its issue until a
    wait; at a loop's head it may be pending from the previous iteration, after a region from any of its paths
    (a conservative state: an extra wait is free when nothing is pending). A scope (`sarek.block`,
    `sarek.pragma`) is straight-line code."""
    before: list[Operation] = []
    ends: list[Block] = []
    fences: list[Operation] = []

    def block(b: Block, pending: bool, fenced: bool) -> tuple[bool, bool]:
        for op in b.ops:
            if _needs_done(op) and pending:
                before.append(op)
                pending = False
            if _needs_done(op):
                fenced = False
            if is_wg_mma(op):
                if not fenced:
                    fences.append(op)
                pending = fenced = True
                continue
            if isinstance(op, s.BlockOp | s.PragmaOp):  # a scope, run once: straight-line code
                pending, fenced = block(op.body.block, pending, fenced)
                continue
            if op.regions:
                inner = _has_mma(op)
                loop = isinstance(op, s.ForOp | s.WhileOp)
                entry = pending or (loop and inner)
                out = pending
                for r in op.regions:
                    for rb in r.blocks:
                        p, _ = block(rb, entry, False)
                        out = out or p
                pending, fenced = out or (loop and inner), False
        return pending, fenced

    if block(body, False, False)[0]:
        ends.append(body)
    return before, ends, fences
