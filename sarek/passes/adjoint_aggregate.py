"""Warp-aggregated adjoint atomics for `sarek-adjoint`.

A read `w[k]` of a differentiable vector makes the adjoint add into `w_adj[k]`. When `k` is the same for every
thread of a block (computed only from constants, scalar parameters, vector lengths, block indices and sizes, and
the indices of enclosing constant-trip loops), every thread would add into the same few addresses and the
atomics serialise (the 3-point stencil's weights: 1101x its forward on an H200). Such a read is *aggregated*:

- each thread adds into a private accumulator, zeroed at the kernel's entry: a local scalar, or a local array
  with one slot per iteration of the constant-trip loops the index depends on (at most `max_slots` slots);
  the block has a shared array of as many slots (shared arrays start at zero: sarek-zero-shared);
- at the end of the kernel, which every thread reaches in converged control (the adjoint has no `return`:
  `sarek.passes.adjoint_prepare` turns the leading guard and the returns at the end of `if` branches into
  `if`/`else`, and refuses any other), each slot is summed over the warp with a shuffle-xor butterfly and
  added into the shared slot by lane 0; after a barrier, thread 0 adds each shared slot into the adjoint
  vector (`atomic_add(w_adj, k, sum)`, `k` recomputed from the slot): one global atomic per slot and block.

The butterfly is right only for whole warps of a power-of-two width up to 128: `whole_warps` checks
`warp_size` (1 on pocl, 8 on lavapipe, 32 on NVIDIA, 64 on AMD) and the block's thread count, both uniform
in a warp, and where it fails every thread adds its own slots into the shared ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.passes.adjoint_prepare import constant_int, constant_trip, differentiable_param, walk

#: at most this many private accumulators per aggregated read (the trip counts of its loops multiplied)
MAX_SLOTS = 32
#: the butterfly's largest offset is half of this: wider warps add per thread
MAX_WARP = 128

#: intrinsics whose value is the same on every thread of a block
_UNIFORM = frozenset({f"{b}_{d}" for b in ("block_idx", "block_dim", "grid_dim", "global_size") for d in "xyz"}
                     | {"global_size", "warp_size", "min", "max", "abs"})


class _Sweep(Protocol):
    """What aggregation uses of the sweep (sarek.passes.adjoint._Adjoint)."""

    b: BodyBuilder
    arr_adj: dict[SSAValue, SSAValue]

    def v(self, x: SSAValue) -> SSAValue: ...


@dataclass
class Site:
    """One read of a kernel vector whose adjoint index is the same on every lane of a warp."""

    array: SSAValue  # the primal vector parameter
    index: list[SSAValue]  # the primal index values
    loops: list[s.ForOp]  # the constant-trip loops the index depends on, outermost first
    acc: SSAValue | None = None  # the thread's accumulator in the adjoint (a let_mut ref or a local array)
    block: SSAValue | None = None  # the block's (a shared array)

    @property
    def slots(self) -> int:
        return math.prod(_trip(lp) for lp in self.loops)


def _trip(lp: s.ForOp) -> int:
    n = constant_trip(lp)
    assert n is not None
    return n


def _read_target(op: Operation) -> tuple[SSAValue, list[SSAValue]] | None:
    """(vector, index) of a read of a differentiable kernel vector: `array_read`, or `load` of an `elem_ref`."""
    if isinstance(op, s.ArrayReadOp):
        arr, idx = op.operands[0], list(op.operands[1:])
    elif isinstance(op, s.LoadOp) and isinstance(op.operands[0].owner, s.ElemRefOp):
        ref = op.operands[0].owner
        arr, idx = ref.operands[0], list(ref.operands[1:])
    else:
        return None
    return (arr, idx) if isinstance(arr, BlockArgument) and differentiable_param(arr) else None


def _uniform_loops(v: SSAValue, kernel: s.KernelOp, memo: dict[SSAValue, list[s.ForOp] | None]
                   ) -> list[s.ForOp] | None:
    """The constant-trip loops whose indices `v` is computed from, when everything else it is computed from is
    the same on every lane of a warp; None when it may differ between lanes."""
    if v in memo:
        return memo[v]
    memo[v] = None
    out: list[s.ForOp] | None = None
    if isinstance(v, BlockArgument):
        owner = v.block.parent_op()
        if owner is kernel:
            out = [] if not isinstance(v.type, s.VecType) else None
        elif isinstance(owner, s.ForOp) and v is owner.index and constant_trip(owner) and owner.step_value:
            out = [owner]
    else:
        o = v.owner
        assert isinstance(o, Operation)
        if isinstance(o, s.ConstantOp):
            out = []
        elif isinstance(o, s.ArrayLenOp | s.ArrayDimOp):
            out = [] if isinstance(o.operands[0], BlockArgument) else None
        elif isinstance(o, s.LetOp | s.CastOp | s.BinOp | s.UnOp) or (
                isinstance(o, s.IntrinsicOp) and o.callee.data in _UNIFORM):
            out = _union(o.operands, kernel, memo)
    memo[v] = out
    return out


def _union(vs: Sequence[SSAValue], kernel: s.KernelOp, memo: dict[SSAValue, list[s.ForOp] | None]
           ) -> list[s.ForOp] | None:
    """The loops of `_uniform_loops` for several values (None when one of them may differ between lanes)."""
    out: list[s.ForOp] = []
    for x in vs:
        sub = _uniform_loops(x, kernel, memo)
        if sub is None:
            return None
        out += [lp for lp in sub if lp not in out]
    return out


def find_sites(kernel: s.KernelOp, max_slots: int = MAX_SLOTS) -> dict[Operation, Site]:
    """The reads of `kernel` (prepared: helpers inlined, no returns) whose adjoints are aggregated."""
    memo: dict[SSAValue, list[s.ForOp] | None] = {}
    sites: dict[Operation, Site] = {}
    for op in walk(kernel.body.block):
        target = _read_target(op)
        if target is None:
            continue
        arr, idx = target
        loops = _union(idx, kernel, memo)
        if loops is None:
            continue
        loops.sort(key=_depth)
        site = Site(arr, idx, loops)
        if 0 < site.slots <= max_slots:
            sites[op] = site
    return sites


def _depth(op: Operation) -> int:
    d = 0
    p = op.parent_op()
    while p is not None:
        d += 1
        p = p.parent_op()
    return d


# ---------------------------------------------------------------------------------------------- building


def declare(b: BodyBuilder, sites: dict[Operation, Site], names: dict[SSAValue, str]) -> None:
    """The zeroed accumulators at the adjoint kernel's entry: private ones per thread, and a shared array per
    site for the block."""
    if not sites:
        return
    for site in sites.values():
        elt = _elt(site)
        name = names[site.array] + "_adj_acc"
        if not site.loops:
            site.acc = b.let_mut(name, b.const(0, elt))
            continue
        site.acc = b.alloc(name, b.const(site.slots, i32), elt, "local")
        with b.for_("z", b.const(0, i32), b.const(site.slots, i32)) as z:
            b.store(b.elem_ref(site.acc, z), b.const(0, elt))
    for site in sites.values():  # a kernel's shared arrays start at zero (docs/KERNELS.md, sarek-zero-shared)
        site.block = b.alloc(names[site.array] + "_adj_block", b.const(site.slots, i32), _elt(site), "shared")


def _elt(site: Site) -> Attribute:
    t = site.array.type
    assert isinstance(t, s.VecType)
    return t.element_type


def _linear_tid(b: BodyBuilder) -> SSAValue:
    """The thread's index in its block (x fastest)."""
    tx, ty, tz = (b.intrinsic(f"thread_idx_{d}") for d in "xyz")
    bx, by = b.intrinsic("block_dim_x"), b.intrinsic("block_dim_y")
    return b.binop("add", tx, b.binop("mul", bx, b.binop("add", ty, b.binop("mul", by, tz))))


def accumulate(ad: _Sweep, site: Site, delta: SSAValue) -> None:
    """`acc[slot] += delta`, the slot being the iteration of the site's loops the sweep is in."""
    b = ad.b
    assert site.acc is not None
    if not site.loops:
        place = site.acc
    else:
        slot: SSAValue | None = None
        for lp in site.loops:
            k = ad.v(lp.index)
            lo = constant_int(lp.lo)
            step = lp.step_value
            assert lo is not None and step
            it = b.binop("sub", k, b.const(lo, k.type)) if lo else k
            if step != 1:
                it = b.binop("div", it, b.const(step, k.type))
            if it.type != i32:
                it = b.cast(it, i32)
            slot = it if slot is None else b.binop("add", b.binop("mul", slot, b.const(_trip(lp), i32)), it)
        assert slot is not None
        place = b.elem_ref(site.acc, slot)
    b.store(place, b.binop("add", b.load(place), delta))


def flush(ad: _Sweep, sites: dict[Operation, Site]) -> None:
    """At the end of the adjoint kernel, which every thread of the block reaches: each slot summed over the warp
    and added by lane 0 into the block's shared slot (every thread adds its own where the block is not whole
    power-of-two warps); after a barrier, thread 0 adds each shared slot into the adjoint vector."""
    if not sites:
        return
    b = ad.b
    with b.block_():  # its own scope: its names cannot clash with the kernel's
        _flush(ad, sites)


def _flush(ad: _Sweep, sites: dict[Operation, Site]) -> None:
    b = ad.b
    ws = b.let("ws", b.intrinsic("warp_size"))
    lane = b.let("lane", b.intrinsic("lane_id"))
    threads = b.binop("mul", b.intrinsic("block_dim_x"),
                      b.binop("mul", b.intrinsic("block_dim_y"), b.intrinsic("block_dim_z")))
    zero, one = b.const(0, i32), b.const(1, i32)
    pow2 = b.binop("eq", b.binop("bitand", ws, b.binop("sub", ws, one)), zero)
    fits = b.binop("and", pow2, b.binop("le", ws, b.const(MAX_WARP, i32)))
    whole = b.let("whole_warps", b.binop("and", fits, b.binop("eq", b.binop("rem", threads, ws), zero)))
    adds = b.let("adds", b.binop("or", b.unop("not", whole), b.binop("eq", lane, zero)))
    for site in sites.values():
        assert site.acc is not None and site.block is not None
        if not site.loops:
            _warp_sum(b, site.block, zero, b.load(site.acc), whole, adds, ws)
            continue
        with b.for_("e", b.const(0, i32), b.const(site.slots, i32)) as e:
            _warp_sum(b, site.block, e, b.read(site.acc, e), whole, adds, ws)
    b.barrier()
    with b.if_(b.binop("eq", _linear_tid(b), b.const(0, i32))):
        for site in sites.values():
            assert site.block is not None
            if not site.loops:
                _add_slot(ad, site, b.read(site.block, b.const(0, i32)), {})
                continue
            with b.for_("e", b.const(0, i32), b.const(site.slots, i32)) as e:
                _add_slot(ad, site, b.read(site.block, e), _iterations(b, site, e))


def _warp_sum(b: BodyBuilder, block: SSAValue, slot: SSAValue, value: SSAValue, whole: SSAValue, adds: SSAValue,
              ws: SSAValue) -> None:
    """`block[slot] += value` summed over the warp (a shuffle-xor butterfly, added by lane 0) when the warps
    are whole, else by every thread."""
    total = b.let_mut("warp_sum", value)
    with b.if_(whole):
        with b.for_("bit", b.const(0, i32), b.const(MAX_WARP.bit_length() - 1, i32)) as bit:
            off = b.binop("shl", b.const(1, i32), bit)
            with b.if_(b.binop("lt", off, ws)):
                cur = b.load(total)
                b.store(total, b.binop("add", cur, b.intrinsic("warp_shuffle_xor", cur, off)))
    with b.if_(adds):
        b.intrinsic("atomic_add", block, slot, b.load(total))


def _iterations(b: BodyBuilder, site: Site, e: SSAValue) -> dict[SSAValue, SSAValue]:
    """The index of each of the site's loops at slot `e` (row-major over the loops, outermost first)."""
    iters: dict[SSAValue, SSAValue] = {}
    rest = e
    for pos, lp in reversed(list(enumerate(site.loops))):
        it = rest
        if pos:  # the outermost loop's iteration is what the others leave
            n = b.const(_trip(lp), i32)
            it = b.binop("rem", rest, n)
            rest = b.binop("div", rest, n)
        lo = constant_int(lp.lo)
        step = lp.step_value
        assert lo is not None and step
        k = it if step == 1 else b.binop("mul", it, b.const(step, i32))
        k = b.binop("add", b.const(lo, i32), k) if lo else k
        iters[lp.index] = k if lp.index.type == i32 else b.cast(k, lp.index.type)
    return iters


def _add_slot(ad: _Sweep, site: Site, value: SSAValue, iters: dict[SSAValue, SSAValue]) -> None:
    """`atomic_add(x_adj, index, value)`, the index recomputed for the slot's loop iterations."""
    b = ad.b
    idx = [_recompute(ad, x, iters) for x in site.index]
    adj = ad.arr_adj[site.array]
    flat = idx[0]
    for d, i in enumerate(idx[1:], start=1):  # row-major, like the array's layout (adjoint_rules._rev_read)
        dim = b.insert(s.ArrayDimOp(adj, d)).results[0]
        flat = b.binop("add", b.binop("mul", flat, dim), i)
    b.intrinsic("atomic_add", adj, flat, value)


def _recompute(ad: _Sweep, v: SSAValue, iters: dict[SSAValue, SSAValue]) -> SSAValue:
    """A copy of the (uniform) computation of primal index `v`, with the site's loop indices taken from `iters`
    and the kernel's parameters from the sweep's map; `let`s are skipped (no names declared twice)."""
    if v in iters:
        return iters[v]
    if isinstance(v, BlockArgument):
        return ad.v(v)
    o = v.owner
    assert isinstance(o, Operation)
    if isinstance(o, s.LetOp):
        return _recompute(ad, o.operands[0], iters)
    mapping = {x: _recompute(ad, x, iters) for x in o.operands}
    new = o.clone(value_mapper=mapping)
    ad.b.insert(new)
    return new.results[0]
