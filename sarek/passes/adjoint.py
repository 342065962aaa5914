"""sarek-adjoint: replace each kernel `@k` by its reverse-mode adjoint `@k_adjoint`.

The adjoint takes k's parameters followed by one adjoint array per f32/f64 vector parameter (in parameter
order, named `<name>_adj`); a launch with the same grid accumulates (`+=`) the adjoints of the inputs from the
adjoints of the outputs. Per thread it recomputes the forward values and then runs the reverse sweep:

- a read `x[i]` of a differentiable vector becomes `atomic_add(x_adj, i, dx)`; a write `y[i] = e` becomes a
  read `de += y_adj[i]` (the output adjoint is read, never cleared); writes to the kernel's vectors are not
  repeated by the adjoint, so a launch leaves the primal arrays unchanged;
- straight-line code is reversed op by op (`sarek.binop`, `sarek.unop`, float casts, every math intrinsic
  with a derivative, `min`/`max`/`abs`, records built, read and stored field by field);
- a statement `if` reverses each branch under the forward condition; a compound statement first restores the
  locals it changes from a snapshot taken before it ran;
- a `for` loop whose bounds do not depend on float data runs backwards; each reverse iteration restores the
  loop-carried locals it reads from a tape (a local array: constant trip counts up to 1024, run-time ones up to
  `dynamic_tape`) or by replaying the loop from its entry (longer loops), recomputes the body and reverses it;
  locals that only accumulate with `+`/`-` need neither; an `if` or loop whose changes nothing after it reads
  is not run by the forward copy (its reverse recomputes it);
- helpers are inlined first; a shared array gets a zeroed shared adjoint array (reads add atomically into it,
  barriers stay where they were);
- a read whose index is the same on every thread of a block (constants, scalar parameters, block indices,
  indices of enclosing constant-trip loops: the stencil's weights `w[k]`) does not add atomically at each
  use: each thread accumulates privately (one slot per iteration of the loops the index depends on, up to
  `max_slots`), and the kernel's end sums each slot over the warp, then the block (shared memory, a
  barrier), and adds it once per block (sarek.passes.adjoint_aggregate).

Refused, located at the user's line with the reason: an element of an array overwritten after being read,
atomics other than `atomic_add` on a differentiable array, `while` loops and `break`/`continue`/`return` in
differentiated code, loop bounds computed from float values, warp shuffles and `match` on differentiated values,
a shared array written with atomics.
"""

from __future__ import annotations

from typing import Any, cast

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.dialect.declarations import record_decl
from sarek.dialect.types import MemSpace, is_float
from sarek.diagnostics import SarekError
from sarek.passes import adjoint_aggregate as agg
from sarek.passes.adjoint_prepare import (active, constant_trip, differentiable_param, plan, prepare,
                                          root_of, stored_refs, walk_op)
from sarek.passes.adjoint_rules import rev_simple

#: constant trip counts up to this many iterations keep their loop-carried locals on a tape (a local array)
TAPE_LIMIT = 1024
#: run-time trip counts up to this many iterations do too (a tape of this size); longer loops replay
DYNAMIC_TAPE = 256


_Pairs = list[tuple[SSAValue, SSAValue]]


def _is_diff(t: Attribute) -> bool:
    """Values that carry an adjoint: floats and records."""
    return is_float(t) or isinstance(t, s.RecordType)


@dataclass
class _Adjoint:
    """Builds the adjoint of one prepared kernel: `fwd` copies primal code, `rev` emits its reverse sweep."""

    kernel: s.KernelOp
    b: BodyBuilder
    vmap: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    adj: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])  # value or ref -> adjoint ref
    arr_adj: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])  # array -> adjoint array
    # (local, saved copy) per compound op, and (local, tape array) per taped loop, of the latest forward copy
    snaps: dict[Operation, _Pairs] = field(default_factory=dict[Operation, _Pairs])
    tapes: dict[Operation, _Pairs] = field(default_factory=dict[Operation, _Pairs])
    params: set[SSAValue] = field(default_factory=set[SSAValue])  # the kernel's parameters
    # decided by adjoint_prepare.plan: loops that tape / restore which locals; arrays with adjoint arrays
    tapes_wanted: dict[Operation, list[SSAValue]] = field(default_factory=dict[Operation, list[SSAValue]])
    restore_wanted: dict[Operation, list[SSAValue]] = field(default_factory=dict[Operation, list[SSAValue]])
    arr_wanted: set[SSAValue] = field(default_factory=set[SSAValue])
    dynamic_tape: int = DYNAMIC_TAPE
    # reads whose adjoint goes into a private accumulator, added once per block at the end (adjoint_aggregate)
    sites: dict[Operation, agg.Site] = field(default_factory=dict[Operation, agg.Site])

    # ------------------------------------------------------------------ small builders

    def v(self, x: SSAValue) -> SSAValue:
        return self.vmap[x]

    def const(self, value: float, t: Attribute) -> SSAValue:
        return self.b.const(value, t)

    def zero(self, t: Attribute) -> SSAValue:
        if isinstance(t, s.RecordType):
            decl = record_decl(self.kernel, t)
            return self.b.make_record(t.decl_name, *(self.zero(ft) for _, ft in decl.fields))
        return self.b.const(0, t)

    def select(self, c: SSAValue, a: SSAValue, e: SSAValue) -> SSAValue:
        return self.b.choose(c, a, e)

    def add_into(self, place: SSAValue, delta: SSAValue) -> None:
        """`place += delta` for a float or (field by field) a record place."""
        t = delta.type
        if isinstance(t, s.RecordType):
            for name, ft in record_decl(self.kernel, t).fields:
                if _is_diff(ft):
                    self.add_into(self.b.field_ref(place, name, ft), self.b.field(delta, name, ft))
        elif is_float(t):
            self.b.store(place, self.b.binop("add", self.b.load(place), delta))

    def acc(self, x: SSAValue, delta: SSAValue) -> None:
        """Accumulate `delta` into the adjoint of primal value `x` (nothing when x carries none)."""
        ref = self.adj.get(x)
        if ref is not None:
            self.add_into(ref, delta)

    def bar(self, x: SSAValue) -> SSAValue:
        return self.b.load(self.adj[x])

    def aggregate(self, read: Operation, delta: SSAValue) -> bool:
        """Add `delta` into the private accumulator of `read` when it is an aggregated site."""
        site = self.sites.get(read)
        if site is None:
            return False
        agg.accumulate(self, site, delta)
        return True

    # ------------------------------------------------------------------ forward copy

    def fwd(self, block: Block, body_only: bool = False) -> None:
        """Copy `block`'s ops (without its `sarek.yield` when `body_only`: the copy goes into a statement)."""
        for op in block.ops:
            if body_only and isinstance(op, s.YieldOp):
                continue
            self.b.loc = op.location if hasattr(op.location, "line") else self.b.loc  # type: ignore[assignment]
            self.fwd_op(op)

    def _writes_param(self, op: Operation) -> bool:
        if isinstance(op, s.StoreOp):
            return root_of(op.place) in self.params
        return (isinstance(op, s.IntrinsicOp) and op.callee.data.startswith("atomic_")
                and root_of(op.operands[0]) in self.params)

    def fwd_op(self, op: Operation) -> None:
        if self._writes_param(op) or isinstance(op, s.PrintOp):
            return  # the adjoint changes none of the kernel's arrays and prints nothing
        if active(op) and op.regions and not isinstance(op, s.IfExprOp):
            self._snapshot(op)
            if isinstance(op, s.ForOp | s.IfOp) and op not in self.tapes_wanted and not _needed_later(op):
                return  # its reverse recomputes it; nothing after it in this block reads what it changes
        if isinstance(op, s.ForOp) and op in self.tapes_wanted:
            self._fwd_taped_for(op)
            return
        loc = self.b.loc
        new = op.clone_without_regions(self.vmap)
        for r, nr in zip(op.regions, new.regions):
            for blk in r.blocks:
                nb = Block(arg_types=[a.type for a in blk.args])
                nr.add_block(nb)
                for a, na in zip(blk.args, nb.args):
                    self.vmap[a] = na
                with self.b.into(nb):
                    self.fwd(blk)
        self.b.loc = loc
        self.b.insert(new)
        for r, nr in zip(op.results, new.results):
            self.vmap[r] = nr
        if isinstance(op, s.AllocArrayOp) and op.result in self.arr_wanted:
            self._alloc_adjoint(op)

    def _snapshot(self, op: Operation) -> None:
        refs = stored_refs(op, loads=True)
        self.snaps[op] = [(r, self.b.let_mut(_name(r) + "_snap", self.b.load(self.v(r)))) for r in refs]

    def _restore(self, pairs: list[tuple[SSAValue, SSAValue]]) -> None:
        for r, snap in pairs:
            self.b.store(self.v(r), self.b.load(snap))

    # ------------------------------------------------------------------ reverse sweep

    def rev(self, block: Block) -> None:
        """The reverse sweep of `block`, after its forward copy (whose values it uses)."""
        self.declare(block)
        self.sweep(block)

    def declare(self, block: Block) -> None:
        """Zeroed adjoints of the values, locals and local arrays `block` defines."""
        for op in block.ops:
            for r in op.results:
                if _is_diff(r.type):
                    self.adj[r] = self.b.let_mut(_name(r) + "_adj", self.zero(r.type))
                elif isinstance(op, s.LetMutOp) and _is_diff(elt := cast(Any, r.type).element_type):
                    self.adj[r] = self.b.let_mut(_name(r) + "_adj", self.zero(elt))
            if (isinstance(op, s.AllocArrayOp) and op.result in self.arr_wanted
                    and op.result.type.memspace != MemSpace.SHARED):
                self._alloc_adjoint(op)

    def sweep(self, block: Block) -> None:
        for op in reversed(list(block.ops)):
            self.b.loc = op.location if hasattr(op.location, "line") else self.b.loc  # type: ignore[assignment]
            self.rev_op(op)

    def rev_op(self, op: Operation) -> None:
        if isinstance(op, s.IfOp):
            self._rev_if(op)
        elif isinstance(op, s.ForOp):
            self._rev_for(op)
        elif isinstance(op, s.IfExprOp):
            self._rev_if_expr(op)
        elif isinstance(op, s.BarrierOp):
            self.b.barrier()
        else:
            rev_simple(self, op)

    def fwdrev(self, block: Block) -> None:
        self.fwd(block)
        self.rev(block)

    def _rev_if(self, op: s.IfOp) -> None:
        if not active(op):
            return
        self._restore(self.snaps.get(op, []))
        new = s.IfOp(self.v(op.cond), Region(Block()), Region(Block()) if op.else_region.blocks else Region())
        self.b.insert(new)
        with self.b.into(new.then_region.block):
            self.fwdrev(op.then_region.block)
        if op.else_region.blocks:
            with self.b.into(new.else_region.block):
                self.fwdrev(op.else_region.block)

    def _rev_if_expr(self, op: s.IfExprOp) -> None:
        if not active(op):
            return
        new = s.IfOp(self.v(op.cond), Region(Block()), Region(Block()))
        self.b.insert(new)
        for region, nr in ((op.then_region, new.then_region), (op.else_region, new.else_region)):
            blk = region.block
            with self.b.into(nr.block):
                self.fwd(blk, body_only=True)
                y = blk.last_op
                assert isinstance(y, s.YieldOp)
                self.declare(blk)
                if _is_diff(op.result.type):
                    self.acc(y.value, self.bar(op.result))
                self.sweep(blk)

    # loops

    def _trip(self, op: s.ForOp) -> tuple[SSAValue, int | None]:
        """The trip count of `op` (an i32/i64 value) and its constant when lo and hi are constants."""
        step = op.step_value
        assert step is not None
        lo, hi = self.v(op.lo), self.v(op.hi)
        t = lo.type
        n = constant_trip(op)
        if n is not None:
            return self.b.const(n, t), n
        span = self.b.binop("sub", hi, lo) if step > 0 else self.b.binop("sub", lo, hi)
        a = abs(step)
        num = self.b.binop("add", span, self.b.const(a - 1, t))
        n = self.b.binop("div", num, self.b.const(a, t))
        return self.b.intrinsic("max", n, self.b.const(0, t)), None

    def _index_at(self, op: s.ForOp, it: SSAValue) -> SSAValue:
        step = op.step_value
        assert step is not None
        return self.b.binop("add", self.v(op.lo), self.b.binop("mul", it, self.b.const(step, it.type)))

    def _fwd_taped_for(self, op: s.ForOp) -> None:
        """The forward loop, storing the loop-carried locals it reads at the start of each iteration."""
        refs = self.tapes_wanted[op]
        n = constant_trip(op)
        size = max(self.dynamic_tape, 1) if n is None else max(n, 1)
        tapes: list[tuple[SSAValue, SSAValue]] = []
        for r in refs:
            elt = cast(Attribute, cast(Any, r.type).element_type)
            tapes.append((r, self.b.alloc(_name(r) + "_tape", self.b.const(size, i32), elt, "local")))
        self.tapes[op] = tapes
        new = s.ForOp(op.sym.data, self.v(op.lo), self.v(op.hi), op.step_value or 1)
        self.b.insert(new)
        self.vmap[op.index] = new.index
        with self.b.into(new.body.block):
            it = self._iteration(op, new.index)
            guard = None
            if n is None:  # a run-time trip count: iterations past the tape are replayed in the reverse
                guard = s.IfOp(self.b.binop("lt", it, self.b.const(size, i32)))
                self.b.insert(guard)
            with self.b.into(guard.then_region.block if guard is not None else self.b.block):
                for r, tape in tapes:
                    self.b.store(self.b.elem_ref(tape, it), self.b.load(self.v(r)))
            self.fwd(op.body.block)

    def _iteration(self, op: s.ForOp, k: SSAValue) -> SSAValue:
        step = op.step_value or 1
        it = self.b.binop("sub", k, self.v(op.lo))
        if step != 1:
            it = self.b.binop("div", it, self.b.const(step, k.type))
        return self.b.cast(it, i32) if it.type != i32 else it

    def _rev_for(self, op: s.ForOp) -> None:
        if not active(op):
            return
        n, _ = self._trip(op)
        t = n.type
        tapes = self.tapes.get(op)
        carried = self.restore_wanted.get(op, [])
        self._restore(self.snaps.get(op, []))
        loop = s.ForOp("r_" + op.sym.data, self.b.const(0, t), n, 1)
        self.b.insert(loop)
        with self.b.into(loop.body.block):
            last = self.b.binop("sub", self.b.binop("sub", n, self.b.const(1, t)), loop.index)
            k = self._index_at(op, last)
            if tapes is not None and constant_trip(op) is None:  # the tape when the loop fitted, else replay
                fits = s.IfOp(self.b.binop("le", n, self.b.const(self.dynamic_tape, t)), Region(Block()),
                              Region(Block()))
                self.b.insert(fits)
                with self.b.into(fits.then_region.block):
                    self._untape(tapes, last)
                with self.b.into(fits.else_region.block):
                    self._replay(op, carried, last)
            elif tapes is not None:
                self._untape(tapes, last)
            elif carried:
                self._replay(op, carried, last)
            self.vmap[op.index] = k
            self.fwdrev(op.body.block)

    def _untape(self, tapes: _Pairs, last: SSAValue) -> None:
        it = self.b.cast(last, i32) if last.type != i32 else last
        for r, tape in tapes:
            self.b.store(self.v(r), self.b.read(tape, it))

    def _replay(self, op: s.ForOp, carried: list[SSAValue], last: SSAValue) -> None:
        """Restore the carried locals from the loop's entry and rerun iterations 0 .. last-1."""
        self._restore([(r, snap) for r, snap in self.snaps.get(op, []) if r in carried])
        replay = s.ForOp("j_" + op.sym.data, self.b.const(0, last.type), last, 1)
        self.b.insert(replay)
        with self.b.into(replay.body.block):
            self.vmap[op.index] = self._index_at(op, replay.index)
            self.fwd(op.body.block)

    # ------------------------------------------------------------------ arrays

    def _alloc_adjoint(self, op: s.AllocArrayOp) -> None:
        """A zeroed adjoint array beside a float shared or local array (shared: zeroed by the block, then a
        barrier)."""
        t = op.result.type
        sizes = [self.v(x) for x in op.operands]
        new = s.AllocArrayOp(op.sym.data + "_adj", sizes if len(sizes) > 1 else sizes[0], t)
        self.b.insert(new)
        self.arr_adj[op.result] = new.result
        total = sizes[0]
        for x in sizes[1:]:
            total = self.b.binop("mul", total, x)
        flat = new.result
        if t.memspace == MemSpace.SHARED:
            b = self.b
            tx, ty, tz = (b.intrinsic(f"thread_idx_{d}") for d in "xyz")
            bx, by, bz = (b.intrinsic(f"block_dim_{d}") for d in "xyz")
            lin = b.binop("add", tx, b.binop("mul", bx, b.binop("add", ty, b.binop("mul", by, tz))))
            nthreads = b.binop("mul", bx, b.binop("mul", by, bz))
            loop = s.ForOp("z", lin, total, nthreads)
            b.insert(loop)
            with b.into(loop.body.block):
                self._zero_elem(flat, loop.index, t, len(sizes))
            b.barrier()
        else:
            with self.b.for_("z", self.b.const(0, i32), total) as j:
                self._zero_elem(flat, j, t, len(sizes))

    def _zero_elem(self, arr: SSAValue, j: SSAValue, t: s.ArrayType, rank: int) -> None:
        if rank != 1:
            raise SarekError("the adjoint of a multi-dimensional shared or local array is not supported yet: "
                             "use a 1-D array and compute the index",
                             arr.owner if isinstance(arr.owner, Operation) else None)
        self.b.store(self.b.elem_ref(arr, j), self.zero(t.element_type))

    # places

    def place_adj(self, place: SSAValue) -> SSAValue | None:
        """The adjoint place of a local place (a let_mut ref, a field of one, an element of a local or shared
        array); None for elements of the kernel's vectors and for places without adjoints."""
        o = place.owner
        if isinstance(o, s.LetMutOp):
            return self.adj.get(place)
        if isinstance(o, s.FieldRefOp):
            base = self.place_adj(o.operands[0])
            elt = cast(Attribute, cast(Any, place.type).element_type)
            return None if base is None else self.b.field_ref(base, o.field.data, elt)
        if isinstance(o, s.ElemRefOp):
            arr = self.arr_adj.get(o.operands[0])
            idx = [self.v(x) for x in o.operands[1:]]
            one = idx[0] if len(idx) == 1 else idx
            return None if arr is None else self.b.elem_ref(arr, one)  # type: ignore[arg-type]
        return None



def _needed_later(op: Operation) -> bool:
    """Whether the forward copy must run `op`: it has a barrier or writes a local or shared array, or an op after
    it in its block reads a local it stores."""
    for o in walk_op(op):
        if isinstance(o, s.BarrierOp | s.GridBarrierOp | s.WarpBarrierOp | s.MemFenceOp):
            return True
        if isinstance(o, s.StoreOp) and not isinstance(root_of(o.place).owner, s.LetMutOp) and not isinstance(
                root_of(o.place), BlockArgument):
            return True
        if isinstance(o, s.IntrinsicOp) and o.callee.data.startswith("atomic_"):
            return True
    refs = set(stored_refs(op))
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, s.KernelOp):
        if isinstance(cur, s.ForOp | s.WhileOp) and cur is not op:
            return True  # the next iteration may read it
        nxt = cur.next_op
        while nxt is not None:
            for o in [nxt, *walk_op(nxt)]:
                if isinstance(o, s.LoadOp) and root_of(o.operands[0]) in refs:
                    return True
            nxt = nxt.next_op
        cur = cur.parent_op()
    return False


def _name(v: SSAValue) -> str:
    o = v.owner
    if isinstance(o, s.LetMutOp | s.LetOp):
        return o.sym.data  # type: ignore[attr-defined]
    if isinstance(o, s.AllocArrayOp):
        return o.sym.data
    return v.name_hint or "v"




def adjoint_kernel(module: ModuleOp, kernel: s.KernelOp, dynamic_tape: int = DYNAMIC_TAPE,
                   max_slots: int = agg.MAX_SLOTS) -> s.KernelOp:
    """The adjoint of `kernel` (which stays as it is) as a new kernel op named `<name>_adjoint`; reads at an
    index the same on every thread of a block are aggregated when they need at most `max_slots` accumulators
    (0: never)."""
    k = prepare(module, kernel)
    params = [(n, a.type) for n, a in k.params]
    taken = {n for n, _ in params}
    extra: list[tuple[str, Attribute]] = []
    for n, a in k.params:
        if differentiable_param(a):
            name = n + "_adj"
            while name in taken:
                name += "_"
            taken.add(name)
            extra.append((name, a.type))
    new = s.KernelOp(k.sym_name.data + "_adjoint", params + extra)
    new.location = kernel.location
    module.body.block.insert_op_after(new, kernel)
    b = BodyBuilder(new.body.block)
    ad = _Adjoint(k, b, dynamic_tape=dynamic_tape)
    new_args = list(new.body.block.args)
    ad.vmap.update(zip(k.body.block.args, new_args))
    ad.params = set(k.body.block.args)
    j = len(params)
    for a in k.body.block.args:
        if differentiable_param(a):
            ad.arr_adj[a] = new_args[j]
            j += 1
    ad.tapes_wanted, ad.restore_wanted, ad.arr_wanted = plan(k, TAPE_LIMIT)
    if dynamic_tape <= 0:
        ad.tapes_wanted = {op: r for op, r in ad.tapes_wanted.items()
                           if isinstance(op, s.ForOp) and constant_trip(op) is not None}
    for a in k.body.block.args:
        if _is_diff(a.type):
            ad.adj[a] = b.let_mut(_name(a) + "_adj", ad.zero(a.type))
    ad.sites = agg.find_sites(k, max_slots) if max_slots > 0 else {}
    agg.declare(b, ad.sites, {a: n for n, a in k.params})
    ad.fwdrev(k.body.block)
    agg.flush(ad, ad.sites)
    k.detach()
    k.erase()
    return new


def adjoint_module(module: ModuleOp, name: str, dynamic_tape: int = DYNAMIC_TAPE,
                   max_slots: int = agg.MAX_SLOTS) -> ModuleOp:
    """A new module holding the declarations of `module` and the adjoint `@<name>_adjoint` of its kernel `name`."""
    m = module.clone()
    AdjointPass(kernel=name, dynamic_tape=dynamic_tape, max_slots=max_slots).apply(Context(), m)
    return m


@dataclass(frozen=True)
class AdjointPass(ModulePass):
    """Replace each kernel @k by its reverse-mode adjoint @k_adjoint: k's parameters plus one adjoint array per
    f32/f64 vector parameter; reads become atomic adds into the adjoint array, writes become reads of it, forward
    values are recomputed per thread; a read at an index the same on every thread of a block (constants, scalar
    parameters, block indices, constant-trip loop indices) accumulates privately and is added once per block at
    the kernel's end (a shuffle-xor warp sum into shared memory, a barrier, one atomic_add by thread 0). Refuses,
    located, what it cannot differentiate (an element overwritten after being read, atomics other than add,
    while loops, loop bounds from float data)."""

    name = "sarek-adjoint"

    kernel: str | None = None
    """the kernel to differentiate (default: every kernel); the other kernels are removed"""

    dynamic_tape: int = DYNAMIC_TAPE
    """the tape size of loops with a run-time trip count (longer loops replay from their entry; 0: always)"""

    max_slots: int = agg.MAX_SLOTS
    """the most private accumulators an aggregated read gets (the trip counts of the loops its index depends on,
    multiplied); reads needing more keep their atomics (0: aggregate none)"""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = [k for k in op.body.block.ops if isinstance(k, s.KernelOp)]
        for k in kernels:
            if self.kernel is not None and k.sym_name.data != self.kernel:
                k.detach()
                k.erase()
        kernels = [k for k in kernels if self.kernel is None or k.sym_name.data == self.kernel]
        for k in kernels:
            adjoint_kernel(op, k, self.dynamic_tape, self.max_slots)
            k.detach()
            k.erase()
        for h in [h for h in op.body.block.ops if isinstance(h, s.HelperOp)]:
            h.detach()
            h.erase()


