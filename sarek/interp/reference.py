"""The reference executor: every GPU thread is a Python generator, compiled once from the IR to Python source.

`compile_module(module)` turns every kernel and helper into a Python function (a generator when it, or a helper
it calls, contains a barrier, a warp barrier or a warp shuffle: those `yield` an event to the scheduler). The
source is built once per module and cached on it; a launch only re-binds the launch constants (block and grid
dimensions, warp size) by calling the generated factory. The compiler is sarek/interp/reference_compile.py
(statements) and reference_exprs.py (expressions); this module launches and schedules.

Scheduling, per block, threads in linear order (x fastest): each thread runs until it finishes or yields.
- Warp events (shuffle, warp barrier) are resolved per warp once every lane of that warp waits at the *same* warp
  op; a warp with some lanes elsewhere (finished, at a block barrier, at another warp op) is an error naming the op.
- When no warp event is pending and some threads wait at block barriers: if every unfinished thread waits at the
  same barrier and none has finished, all are resumed (any number of barriers in a row works); if some threads
  finished while others wait, or threads wait at different barriers, it is an error naming the barrier(s).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation

from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import WARP_VOTES
from sarek.interp import common as C
from sarek.interp.common import Fault, InterpError, kind
from sarek.interp.reference_compile import Program as Program, compile_module as compile_module
from sarek.interp.reference_exprs import BLOCK_WIDE, EV_GRID_BARRIER, EV_SHUFFLE


# ------------------------------------------------------------------------------------------------ launching


def run(module: ModuleOp, kernel: str, args: list[Any], grid: tuple[int, int, int],
        block: tuple[int, int, int], warp_size: int = 32) -> None:
    prog = compile_module(module)
    k = prog.kernels.get(kernel)
    if k is None:
        raise InterpError(f"no kernel @{kernel} in the module")
    reach: set[str] = set()
    todo = [kernel]
    while todo:
        n = todo.pop()
        if n not in reach:
            reach.add(n)
            todo += prog.calls.get(n, ())
    for n in prog.kernels.keys() | prog.errors.keys():
        if n in reach and n in prog.errors:
            raise prog.errors[n]
    types = prog.types
    ptypes = [a.type for a in k.body.block.args]
    if len(args) != len(ptypes):
        raise InterpError(f"kernel @{kernel} takes {len(ptypes)} argument(s), {len(args)} given", k)
    vals: list[Any] = []
    seen: dict[int, list[Any]] = {}
    back: list[tuple[list[Any], np.ndarray, Any]] = []
    held = k.attributes.get("sarek.packed")  # sarek-pack-narrow's word vectors: name -> original element type
    packed = dict(held.data) if isinstance(held, DictionaryAttr) else {}
    for (pname, a), x in zip(k.params, args):
        if kind(a.type) == "vec":
            vt = cast(S.VecType, a.type)
            et = vt.element_type
            orig = packed.get(pname, et)
            if isinstance(orig, IntegerAttr):  # packed records: the element size of the original layout
                C.PackedWords.check(x, orig.value.data, pname, k, vt.ndim)
            else:
                types.check_vector(x, orig, pname, k, vt.ndim)
            if id(x) in seen:  # one array passed twice: one storage, as on a device
                vals.append(seen[id(x)])
                continue
            flat = x.reshape(-1)
            if pname in packed:  # sarek-pack-narrow's words: the host's bytes, lengths in elements
                lst = C.PackedWords.of(flat, x.shape)
            elif vt.ndim == 1:
                lst = types.vec_to_list(flat, et)
            else:
                lst = C.NDList.of(types.vec_to_list(flat, et), x.shape)
            seen[id(x)] = lst
            vals.append(lst)
            back.append((lst, x, et))
        else:
            arr = C.as_ndarray(x)
            v: object = arr[()] if arr is not None and arr.ndim == 0 else x
            if pname in packed and isinstance(v, np.void):  # its narrow fields widened: given by name
                x = C.void_fields(v)
            vals.append(types.from_python(x, a.type))
    bdx, bdy, bdz = block
    gdx, gdy, gdz = grid
    fns = prog.factory(bdx, bdy, bdz, gdx, gdy, gdz, warp_size)
    fn = fns[kernel]
    gen = prog.gen[kernel]
    threads = [(tx, ty, tz) for tz in range(bdz) for ty in range(bdy) for tx in range(bdx)]

    def steps(bx: int, by: int, bz: int) -> Iterator[int]:
        """Block (bx, by, bz): runs to its end, pausing where every thread waits at a grid barrier."""
        sh: dict[int, Any] = {}
        ts = [(tx, ty, tz, bx, by, bz, i % warp_size) for i, (tx, ty, tz) in enumerate(threads)]
        if gen:
            yield from _schedule([fn(t, sh, *vals) for t in ts], warp_size, prog.ops)
        else:
            for t in ts:
                fn(t, sh, *vals)

    blocks = ((bx, by, bz) for bz in range(gdz) for by in range(gdy) for bx in range(gdx))
    with np.errstate(all="ignore"), C.reported(k):
        try:
            if prog.grid[kernel]:
                _run_grid([steps(*b) for b in blocks], prog.ops)
            else:
                for b in blocks:
                    for _ in steps(*b):
                        pass
        except Fault as f:
            raise InterpError(f.message, prog.ops[f.opid]) from None
        except RecursionError:
            raise InterpError("helper recursion too deep", k) from None
    from sarek.analysis.writes import written_params

    written = written_params(module, kernel)
    wrote = {id(x) for i, x in enumerate(args) if i in written}
    for lst, arr, et in back:  # only vectors the kernel may write (a read-only input stays untouched)
        if id(arr) in wrote:
            if isinstance(lst, C.PackedWords):
                lst.unpack(arr)
            else:
                types.list_to_vec(lst, arr, et)


def _loc(op: Operation) -> str:
    return C.location_of(op)


def _run_grid(blocks: list[Iterator[int]], ops: list[Operation]) -> None:
    """The blocks of a launch that reaches a grid barrier, together: each runs until all its threads wait at a
    grid barrier (or it ends); every block must wait at the same one, then all go on."""
    live = blocks
    while live:
        at = [(b, k) for b in live if (k := next(b, None)) is not None]
        if not at:
            return
        if len(at) != len(live):
            raise InterpError(f"grid barrier reached by only {len(at)} of {len(blocks)} blocks (the others finished "
                              "without reaching it; a grid barrier needs every block)", ops[at[0][1]])
        bars = {k for _, k in at}
        if len(bars) > 1:
            locs = sorted(_loc(ops[k]) for k in bars)
            raise InterpError(f"blocks wait at different grid barriers: {', '.join(locs)}", ops[min(bars)])
        live = [b for b, _ in at]


def _schedule(gens: list[Any], ws: int, ops: list[Operation]) -> Iterator[int]:
    """The threads of one block, switched at barriers and warp operations; yields the op id of a grid barrier
    when every thread waits at it."""
    n = len(gens)
    runnable: list[int] = list(range(n))
    send: list[Any] = [None] * n
    waiting: dict[int, tuple[int, int, *tuple[Any, ...]]] = {}  # (event, op id, *operands)
    done = [False] * n
    while True:
        for i in runnable:
            try:
                waiting[i] = gens[i].send(send[i])
            except StopIteration:
                done[i] = True
        if not waiting:
            return
        runnable = []
        warp_waiters = [i for i, ev in waiting.items() if ev[0] not in BLOCK_WIDE]
        if warp_waiters:
            for w in sorted({i // ws for i in warp_waiters}):
                members = range(w * ws, min(n, (w + 1) * ws))
                evs = [waiting.get(i) for i in members]
                first = next(ev for ev in evs if ev is not None and ev[0] not in BLOCK_WIDE)
                op = ops[first[1]]
                for i, ev in zip(members, evs):
                    if ev is None or ev[1] != first[1]:
                        where = "finished" if done[i] else f"waits at {_loc(ops[ev[1]])}" if ev else "is elsewhere"
                        raise InterpError(f"warp operation reached by only some lanes of warp {w}: lane "
                                          f"{i - w * ws} {where} (warp operations need every lane of the warp)",
                                          op)
                if first[0] == EV_SHUFFLE and cast(S.IntrinsicOp, op).callee.data in WARP_VOTES:
                    r = _vote(cast(S.IntrinsicOp, op).callee.data, [bool(waiting[i][2]) for i in members])
                    for i in members:
                        send[i] = r
                elif first[0] == EV_SHUFFLE:
                    name = cast(S.IntrinsicOp, op).callee.data
                    cnt = len(members)
                    vals = [waiting[i][2] for i in members]
                    for lane, i in enumerate(members):
                        x = waiting[i][3]
                        src = _src_lane(name, lane, x, ws)
                        send[i] = vals[src] if src < cnt else vals[lane]
                else:
                    for i in members:
                        send[i] = None
                for i in members:
                    del waiting[i]
                    runnable.append(i)
            continue
        bar = {ev[1] for ev in waiting.values()}
        if len(bar) > 1:
            locs = sorted(_loc(ops[b]) for b in bar)
            raise InterpError(f"threads of a block wait at different barriers: {', '.join(locs)}",
                              ops[min(bar)])
        b = bar.pop()
        if len(waiting) != n:
            raise InterpError(f"barrier reached by only {len(waiting)} of {n} threads of the block (the others "
                              "finished without reaching it)", ops[b])
        if next(iter(waiting.values()))[0] == EV_GRID_BARRIER:
            yield b
        runnable = list(range(n))
        send = [None] * n
        waiting = {}


def _vote(name: str, conds: list[bool]) -> Any:
    """warp_any / warp_all / warp_ballot over the lanes of one warp (a ballot keeps lanes 0..31, warp_ballot64
    lanes 0..63)."""
    if name == "warp_any":
        return any(conds)
    if name == "warp_all":
        return all(conds)
    if name == "warp_ballot64":
        return sum(1 << k for k, c in enumerate(conds) if c and k < 64)
    return sum(1 << k for k, c in enumerate(conds) if c and k < 32)  # a Python int, as every other integer here


def _src_lane(name: str, lane: int, x: int, w: int) -> int:
    """Guarded source lane (SAREK_SPEC §4.11); out of range gives the own lane."""
    if name == "warp_shuffle":
        return x if 0 <= x < w else lane
    if name == "warp_shuffle_down":
        return lane + x if x >= 0 and lane + x < w else lane
    if name == "warp_shuffle_up":
        return lane - x if 0 <= x <= lane else lane
    s = lane ^ x
    return s if 0 <= s < w else lane
