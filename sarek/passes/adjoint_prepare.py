"""What `sarek-adjoint` does before its sweeps: a copy of the kernel with helpers inlined and scopes flattened,
the refusals (located at the user's line), and the plan of which loops keep a tape or replay.

Kept apart from the sweeps (`adjoint.py`) because these are pure queries and rewrites of the primal kernel.
"""

from __future__ import annotations

from typing import Any, cast

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.types import MemSpace, is_float
from sarek.diagnostics import SarekError

_WHAT = "sarek-adjoint"


def differentiable_param(a: SSAValue) -> bool:
    """A kernel parameter that gets an adjoint array: a vector of f32 or f64."""
    return isinstance(a.type, s.VecType) and isinstance(a.type.element_type, s.Float32Type | s.Float64Type)


def _diff_array(a: SSAValue) -> bool:
    """An array whose elements carry adjoints: a float vector parameter or a float shared/local array."""
    if isinstance(a, BlockArgument):
        return differentiable_param(a)
    return isinstance(a.type, s.ArrayType) and isinstance(a.type.element_type, s.Float32Type | s.Float64Type)


def root_of(place: SSAValue) -> SSAValue:
    """The variable or array a place (elem_ref / field_ref chain) starts from."""
    while isinstance(place.owner, s.ElemRefOp | s.FieldRefOp):
        place = place.owner.operands[0]
    return place


def walk(block: Block) -> Iterator[Operation]:
    for op in block.ops:
        yield op
        for r in op.regions:
            for blk in r.blocks:
                yield from walk(blk)


def walk_op(op: Operation) -> Iterator[Operation]:
    for r in op.regions:
        for blk in r.blocks:
            yield from walk(blk)


def _inside(v: SSAValue, op: Operation) -> bool:
    o = v.owner
    blk = o if isinstance(o, Block) else o.parent_block()
    while blk is not None:
        p = blk.parent_op()
        if p is op:
            return True
        blk = p.parent_block() if p is not None else None
    return False


def stored_refs(op: Operation, loads: bool = False) -> list[SSAValue]:
    """The mutable locals defined outside `op` that `op` stores to (and with `loads`, reads: what a snapshot
    before it keeps)."""
    out: list[SSAValue] = []
    for o in walk_op(op):
        if isinstance(o, s.StoreOp) or (loads and isinstance(o, s.LoadOp)):
            r = root_of(o.operands[0])
            if isinstance(r.owner, s.LetMutOp) and not _inside(r, op) and r not in out:
                out.append(r)
    return out


def active(op: Operation) -> bool:
    """Whether a compound op carries derivatives: it stores, reads arrays, or yields floats or records."""
    for o in walk_op(op):
        if isinstance(o, s.StoreOp | s.ArrayReadOp | s.LetMutOp) or (
                isinstance(o, s.IntrinsicOp) and o.callee.data.startswith("atomic_")):
            t = o.operands[-1].type if isinstance(o, s.StoreOp | s.LetMutOp) else o.results[0].type
            if is_float(t) or isinstance(t, s.RecordType):
                return True
    return any(is_float(r.type) or isinstance(r.type, s.RecordType) for r in op.results)


# ---------------------------------------------------------------------------------------------- preparing


def prepare(module: ModuleOp, kernel: s.KernelOp) -> s.KernelOp:
    """A copy of `kernel`, inserted after it, with calls inlined, `sarek.block`/`sarek.pragma` flattened and an
    early `if c: return` turned into `if not c: rest`; then checked (raises a located SarekError)."""
    k = kernel.clone()
    module.body.block.insert_op_after(k, kernel)
    helpers = {h.sym_name.data: h for h in module.body.block.ops if isinstance(h, s.HelperOp)}
    changed = True
    while changed:
        changed = False
        for op in list(walk(k.body.block)):
            if isinstance(op, s.CallOp):
                _inline(op, helpers)
                changed = True
                break
            if isinstance(op, s.BlockOp | s.PragmaOp):
                _flatten(op)
                changed = True
                break
    _structure_returns(k.body.block, None, k)
    check(k)
    return k


def _flatten(op: Operation) -> None:
    blk = op.regions[0].block
    parent = op.parent_block()
    assert parent is not None
    for o in list(blk.ops):
        o.detach()
        parent.insert_op_before(o, op)
    op.detach()
    op.erase()


def _inline(call: s.CallOp, helpers: dict[str, s.HelperOp]) -> None:
    """Replace `call` by a copy of its helper's body; a helper that returns from inside `if`s first stores its
    result into a local (the rest of a block moves into the branch that does not return)."""
    name = call.callee.string_value() if hasattr(call.callee, "string_value") else str(call.callee)
    h = helpers.get(name.lstrip("@"))
    if h is None:
        raise SarekError(f"{_WHAT}: helper '{name}' is not in the module", call)
    h = h.clone()
    body = h.body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, call.operands))
    parent = call.parent_block()
    assert parent is not None
    result: SSAValue | None = None
    last = body.last_op
    if isinstance(last, s.ReturnOp) and not any(isinstance(o, s.ReturnOp) and o is not last for o in walk(body)):
        result = last.operands[0] if last.operands else None
        last.detach()
        last.erase()
    elif any(isinstance(o, s.ReturnOp) for o in walk(body)):
        ref = None
        if call.results:
            zero = s.ConstantOp.from_value(0, call.results[0].type)
            let = s.LetMutOp(h.sym_name.data + "_result", zero.results[0])
            body.insert_op_before(let, body.first_op) if body.first_op else body.add_op(let)
            body.insert_op_before(zero, let)
            ref = let.results[0]
        _structure_returns(body, ref, call)
        if ref is not None:
            load = s.LoadOp(ref)
            body.add_op(load)
            result = load.results[0]
    for o in list(body.ops):
        o.detach()
        parent.insert_op_before(o, call)
    for a, v in mapping.items():
        a.replace_all_uses_with(v)
    if call.results:
        if result is None:
            raise SarekError(f"{_WHAT}: helper '{h.sym_name.data}' returns no value", call)
        call.results[0].replace_all_uses_with(result)
    call.detach()
    call.erase()
    h.erase()


def _has_return(op: Operation) -> bool:
    return any(isinstance(o, s.ReturnOp) for o in walk_op(op))


def _always_returns(block: Block) -> bool:
    last = block.last_op
    if isinstance(last, s.ReturnOp):
        return True
    return (isinstance(last, s.IfOp) and bool(last.else_region.blocks)
            and _always_returns(last.then_region.block) and _always_returns(last.else_region.block))


def _structure_returns(block: Block, result: SSAValue | None, site: Operation) -> None:
    """Remove every `sarek.return` of `block` (a helper's or kernel's body): the returned value is stored into
    `result`, and the ops after an `if` with a returning branch move into its other branch."""
    ops = list(block.ops)
    for idx, op in enumerate(ops):
        if isinstance(op, s.ReturnOp):
            if op.operands and result is not None:
                block.insert_op_before(s.StoreOp(result, op.operands[0]), op)
            for o in reversed(ops[idx:]):
                o.detach()
                o.erase()
            return
        if not op.regions or not _has_return(op):
            continue
        if not isinstance(op, s.IfOp):
            raise SarekError(f"{_WHAT}: cannot differentiate a return from inside a loop or match: compute the "
                             "result in a local and return once after the loop", op)
        branches = [op.then_region.block] + ([op.else_region.block] if op.else_region.blocks else [])
        if any(not _always_returns(b) and any(isinstance(o, s.ReturnOp) for o in walk(b)) for b in branches):
            raise SarekError(f"{_WHAT}: a branch that returns on some paths only: end each branch of this `if` "
                             "with a return, or none", op)
        rest = ops[idx + 1:]
        if not op.else_region.blocks:
            op.else_region.add_block(Block())
        for b in (op.then_region.block, op.else_region.block):
            if not _always_returns(b):
                for o in rest:
                    o.detach()
                    b.add_op(o)
                rest = []
        for o in reversed(rest):
            o.detach()
            o.erase()
        _structure_returns(op.then_region.block, result, site)
        _structure_returns(op.else_region.block, result, site)
        return


# ---------------------------------------------------------------------------------------------- refusals


def _from_float(v: SSAValue, seen: set[SSAValue] | None = None) -> bool:
    """Whether an integer value is computed from a float (a cast or a float comparison on its way)."""
    seen = set() if seen is None else seen
    if v in seen or isinstance(v, BlockArgument):
        return False
    seen.add(v)
    o = v.owner
    assert isinstance(o, Operation)
    if isinstance(o, s.CastOp | s.BinOp) and any(is_float(x.type) for x in o.operands):
        return True
    if isinstance(o, s.LoadOp):
        r = root_of(o.operands[0])
        stores = [u.operation for u in r.uses if isinstance(u.operation, s.StoreOp)]
        return any(_from_float(st.operands[1], seen) for st in stores) or (
            isinstance(r.owner, s.LetMutOp) and _from_float(r.owner.operands[0], seen))
    if isinstance(o, s.ArrayReadOp):
        return False
    return any(_from_float(x, seen) for x in o.operands)


def check(k: s.KernelOp) -> None:
    """Raise a located SarekError for what the adjoint cannot differentiate."""
    read: set[SSAValue] = set()
    written: set[SSAValue] = set()
    loops: list[Operation] = []

    def visit(block: Block) -> None:
        for op in block.ops:
            _check_op(op, loops)
            if isinstance(op, s.ArrayReadOp) and _diff_array(op.operands[0]):
                read.add(op.operands[0])
            if isinstance(op, s.LoadOp) and isinstance(op.operands[0].owner, s.ElemRefOp):
                a = root_of(op.operands[0])
                if _diff_array(a):
                    read.add(a)
            if isinstance(op, s.ArrayReadOp | s.LoadOp) and isinstance(root_of(op.operands[0]), BlockArgument) and (
                    root_of(op.operands[0]) in written):
                raise SarekError(f"{_WHAT}: '{_array_name(root_of(op.operands[0]))}' is read after the kernel wrote "
                                 "it, and the adjoint does not repeat writes to the kernel's arrays: keep the value "
                                 "in a local", op)
            if isinstance(op, s.StoreOp):
                a = root_of(op.place)
                if isinstance(a, BlockArgument):
                    written.add(a)
                if not isinstance(a.owner, s.LetMutOp) and _diff_array(a) and a in read:
                    raise SarekError(f"{_WHAT}: an element of '{_array_name(a)}' may be overwritten after being "
                                     "read, and its adjoint needs the value that was read: write the result to "
                                     "another array", op)
            if op.regions:
                is_loop = isinstance(op, s.ForOp | s.WhileOp)
                if is_loop:
                    loops.append(op)
                for r in op.regions:
                    for blk in r.blocks:
                        visit(blk)
                if is_loop:
                    loops.pop()

    visit(k.body.block)


def _array_name(a: SSAValue) -> str:
    if isinstance(a, BlockArgument):
        fn = a.block.parent_op()
        if isinstance(fn, s.KernelOp):
            return fn.param_names.data[a.index].data
    if isinstance(a.owner, s.AllocArrayOp):
        return a.owner.sym.data
    return a.name_hint or "array"


def _check_op(op: Operation, loops: list[Operation]) -> None:
    if isinstance(op, s.WhileOp) and active(op):
        raise SarekError(f"{_WHAT}: cannot differentiate a while loop (its trip count may depend on the data): "
                         "write it as `for i in range(n)` with bounds that do not depend on float values", op)
    if isinstance(op, s.BreakOp | s.ContinueOp) and any(active(lp) for lp in loops):
        raise SarekError(f"{_WHAT}: cannot differentiate a loop left by break or continue: guard the rest of the "
                         "body with an `if` instead", op)
    if isinstance(op, s.ReturnOp):
        raise SarekError(f"{_WHAT}: cannot differentiate a kernel that returns early except by a leading "
                         "`if cond: return` guard: put the rest of the kernel under `if not cond:`", op)
    if isinstance(op, s.ForOp) and active(op):
        if op.step_value is None:
            raise SarekError(f"{_WHAT}: the adjoint of a loop with a run-time step is not supported: use a "
                             "constant step", op)
        if _from_float(op.lo) or _from_float(op.hi):
            raise SarekError(f"{_WHAT}: the bounds of this loop depend on float values, which have no "
                             "derivative: compute the bounds from integers only", op)
    if op.name.startswith("sarek.coopmat") or isinstance(op, s.NativeOp):
        raise SarekError(f"{_WHAT}: {op.name} is not differentiated (cooperative matrices and native code): "
                         "write the computation with sarek operations", op)
    if isinstance(op, s.GridBarrierOp):
        raise SarekError(f"{_WHAT}: cannot differentiate across a grid_barrier() (the reverse sweep would need one "
                         "in the other order): differentiate the two launches it separates", op)
    if isinstance(op, s.MatchOp | s.MatchExprOp) and active(op):
        raise SarekError(f"{_WHAT}: cannot differentiate through a match on a variant yet: use if/else", op)
    if isinstance(op, s.IntrinsicOp):
        name = op.callee.data
        if name.startswith("atomic_") and _diff_array(op.operands[0]):
            arr = op.operands[0]
            if name != "atomic_add":
                raise SarekError(f"{_WHAT}: {name} on '{_array_name(arr)}' has no derivative (only atomic_add "
                                 "is differentiated)", op)
            if not isinstance(arr, BlockArgument):
                raise SarekError(f"{_WHAT}: atomic_add on the shared or local array '{_array_name(arr)}' is not "
                                 "differentiated (its recomputation would add twice): write each element once "
                                 "and read it after a barrier", op)
            if any(True for _ in op.results[0].uses):
                raise SarekError(f"{_WHAT}: the value returned by atomic_add on '{_array_name(arr)}' is used, "
                                 "and it depends on the order threads run in: do not use it", op)
        if name.startswith("warp_shuffle") and is_float(op.results[0].type):
            raise SarekError(f"{_WHAT}: cannot differentiate {name} of a float value yet: exchange values "
                             "through shared memory with a barrier", op)
    if (isinstance(op, s.ArrayReadOp | s.ElemRefOp) and len(op.operands) > 2 and _diff_array(op.operands[0])
            and not isinstance(op.operands[0], BlockArgument)):
        raise SarekError(f"{_WHAT}: the adjoint of a multi-dimensional shared or local array is not supported "
                         "yet: use a 1-D array and compute the flat index", op)


# ---------------------------------------------------------------------------------------------- the plan


def _linear(op: Operation) -> bool:
    """Ops whose reverse rule does not read their operands' values."""
    if isinstance(op, s.BinOp):
        return op.kind.data.value in ("add", "sub") and is_float(op.results[0].type)  # type: ignore[attr-defined]
    if isinstance(op, s.UnOp):
        return is_float(op.results[0].type)
    if isinstance(op, s.CastOp):
        return is_float(op.operands[0].type) and is_float(op.results[0].type)
    return isinstance(op, s.LetOp | s.YieldOp | s.StoreOp | s.LetMutOp)


def needed_refs(k: s.KernelOp) -> set[SSAValue]:
    """The mutable locals whose forward values the reverse sweep reads (the others only accumulate)."""
    needed: set[SSAValue] = set()
    refs: set[SSAValue] = set()
    work: list[SSAValue] = []
    for op in walk(k.body.block):
        root = root_of(op.place) if isinstance(op, s.StoreOp) else None
        if root is not None and not isinstance(root, BlockArgument) and not isinstance(root.owner, s.LetMutOp):
            work.append(op.operands[1])  # a local or shared array element: a recomputation rewrites it
        if not _linear(op):
            work.extend(op.operands)
    while work:
        v = work.pop()
        if v in needed:
            continue
        needed.add(v)
        o = v.owner
        if isinstance(o, Block):
            continue
        if isinstance(o, s.LoadOp):
            r = root_of(o.operands[0])
            if isinstance(r.owner, s.LetMutOp) and r not in refs:
                refs.add(r)
                work.append(r.owner.operands[0])
                work.extend(u.operation.operands[1] for u in list(r.uses) if isinstance(u.operation, s.StoreOp))
                for u in list(r.uses):
                    if isinstance(u.operation, s.FieldRefOp):
                        work.extend(uu.operation.operands[1] for uu in u.operation.results[0].uses
                                    if isinstance(uu.operation, s.StoreOp))
            work.extend(x for x in o.operands if not isinstance(x.owner, s.LetMutOp))
        elif isinstance(o, s.IfExprOp):
            for r in o.regions:
                y = r.block.last_op
                if y is not None:
                    work.extend(y.operands)
            work.append(o.operands[0])
        else:  # recomputing a needed value needs its operands
            work.extend(o.operands)
    return refs


def plan(k: s.KernelOp, tape_limit: int) -> tuple[dict[Operation, list[SSAValue]], dict[Operation, list[SSAValue]],
                                                    set[SSAValue]]:
    """Which loops tape which locals, which loops restore which locals, and which local/shared arrays get
    adjoint arrays."""
    need = needed_refs(k)
    tapes: dict[Operation, list[SSAValue]] = {}
    restore: dict[Operation, list[SSAValue]] = {}
    arrays: set[SSAValue] = set()
    for op in walk(k.body.block):
        if isinstance(op, s.AllocArrayOp) and _diff_array(op.result):
            arrays.add(op.result)
            if op.result.type.memspace == MemSpace.SHARED and op.parent_op() is not k:
                raise SarekError(f"{_WHAT}: a shared array declared inside a branch or loop: declare "
                                 f"'{op.sym.data}' at the top of the kernel", op)
        if isinstance(op, s.ForOp) and active(op):
            carried = [r for r in stored_refs(op) if r in need]
            restore[op] = carried
            n = constant_trip(op)
            if carried and (n is None or n <= tape_limit) and all(
                    not isinstance(_elt(r), s.RecordType) for r in carried):
                tapes[op] = carried
    return tapes, restore, arrays


def constant_int(v: SSAValue) -> int | None:
    """The value of an integer `sarek.constant`, else None."""
    o = v.owner
    if isinstance(o, s.ConstantOp) and hasattr(o.value, "value"):
        val: Any = cast(Any, o.value).value
        data: Any = val.data
        return int(data) if isinstance(data, int) else None
    return None


def constant_trip(op: s.ForOp) -> int | None:
    """The trip count of a loop with constant bounds and step, else None."""
    lo, hi, step = constant_int(op.lo), constant_int(op.hi), op.step_value
    if lo is None or hi is None or not step:
        return None
    return max(0, -(-(hi - lo) // step)) if step > 0 else max(0, -(-(lo - hi) // -step))


def _elt(r: SSAValue) -> Attribute:
    t = r.type
    assert isinstance(t, s.RefType)
    return t.element_type
