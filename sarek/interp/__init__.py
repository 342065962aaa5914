"""The sarek interpreter: runs sarek-dialect kernels on the CPU (the oracle for every backend).

    sarek.interp.run(module, kernel, args, grid, block, *, executor="fast" | "reference", warp_size=32)

- `module`: a ModuleOp holding the kernel, its helpers and type declarations (sarek dialect, before lowering).
- `kernel`: the kernel's symbol name.
- `args`, one per kernel parameter in order:
  * vectors (`!sarek.vec<T>`): 1-D numpy arrays, written in place. Scalars use their numpy dtype (i1 as numpy
    bool, f16 as float16). Records and variants use numpy *structured* arrays in the aligned layout
    (SAREK_SPEC §4.9, `sarek.analysis.layout.numpy_dtype`; any dtype whose itemsize equals the layout's size is
    accepted, its bytes are read in the aligned layout). Variant tags are constructor *declaration indices*
    (int32 at offset 0, payload at P = max(4, max payload alignment)).
  * scalars: Python or numpy scalars. A record scalar: a numpy void/structured scalar in the aligned layout, or
    a dict {field: value} (nested records as nested dicts). A variant scalar: a numpy void scalar, or a tuple
    `("Ctor", payload0, ...)`.
- `grid`, `block`: 3-tuples (blocks per grid, threads per block).
- `executor`: "reference" runs each GPU thread as a Python generator compiled once from the IR
  (sarek/interp/reference.py); "fast" runs all threads of a launch at once on numpy arrays with masks
  (sarek/interp/fast.py, records and variants included) and falls back to the reference executor for a kernel
  it cannot vectorize — `sarek.native`, cooperative matrices, recursive helpers, records nested deeper than 64
  levels, a per-thread array size — issuing a `sarek.interp.FallbackWarning` that says why
  (`sarek.interp.fast.unsupported_reason(module, kernel)` gives the static reasons).
  A launch of one thread (grid and block all 1s) runs on the reference executor's compiled code under
  either name: numpy's per-op overhead makes one lane ~75x slower on the fast executor (benchmarks/
  bench_interp.py, "serial loop"), and one thread has no schedule for the two to differ on.
- `warp_size`: lanes per warp for lane_id, warp_size and shuffles (guarded lane semantics, SAREK_SPEC §4.11:
  an out-of-range source lane reads the own lane; a lane past the end of the block also reads the own lane).

Records are values (binding copies; 64 nested levels copy, 65 are refused with an InterpError saying "cannot
copy a record/variant value that nests deeper than 64 levels"); `v[i].f = e` writes storage in place; fresh
shared/private arrays hold the seed's defaults (zeros, zeroed records, the first nullary constructor else the
first constructor with zeroed payloads), every slot independent. Variant tags are declaration indices everywhere
(in values and in storage).

Semantics shared by both executors: C integer division/remainder (truncating; division by zero is an error),
shift counts masked to the width (x << (n & 31)), wrapping i32/i64 overflow, float32 computed in float32, f16
carried as float32 and rounded to half on cast, constant and store; float-to-int conversion truncates, NaN gives 0
and out-of-range values saturate. Atomics return the old value. Array accesses are bounds-checked. Barriers:
threads reaching different barriers, or a barrier reached by only some threads of a block, are errors naming the
barrier. `sarek.native` is refused unless it carries a `python` text, which the reference executor runs with
`exec` in a namespace of the enclosing function's parameters by source name (vectors as Python lists, written
back after the launch) plus `thread_idx`, `block_idx`, `block_dim`, `grid_dim` tuples and `np`. Cooperative-matrix
ops are refused. Asynchronous copies (`sarek.copy_async`) complete when issued: `plain_copies` makes them
element copies in a clone of the module first. Errors raise `InterpError` (a SarekError) located at the op.
"""

from __future__ import annotations

import math
import warnings
import weakref
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from sarek.interp.common import DETACH_MAX_DEPTH, InterpError

__all__ = ["run", "InterpError", "FallbackWarning", "DETACH_MAX_DEPTH"]


#: launches of at most this many threads run on the reference executor even when "fast" is asked for (its
#: per-thread compiled Python beats numpy's per-op overhead on a lone lane)
SERIAL_THREADS = 1
#: ... when no array argument holds more elements than this: the reference executor copies arrays into Python
#: lists (a one-thread launch on a 2.5e9-element memmap took 24 GB and was killed)
SERIAL_MAX_ELEMENTS = 1 << 20


class FallbackWarning(UserWarning):
    """The fast executor could not vectorize a kernel and ran it on the reference executor."""


def _dims(x: Any, what: str) -> tuple[int, int, int]:
    if isinstance(x, int):
        x = (x, 1, 1)
    t = tuple(int(v) for v in x)
    if len(t) != 3 or any(v < 1 for v in t):
        raise InterpError(f"{what} must be a 3-tuple of positive integers, got {x!r}")
    return t


#: module -> the module the executors run: itself, or a copy with its asynchronous copies made plain copies
_PLAIN: weakref.WeakKeyDictionary[ModuleOp, ModuleOp] = weakref.WeakKeyDictionary()


def plain_copies(module: ModuleOp) -> ModuleOp:
    """`module`, or (once per module) a clone where every `sarek.copy_async` is plain element copies
    (`sarek.dialect.asynccopy.plain_copies`) and every block vote a shared counter and barriers
    (`sarek.dialect.blockvote`): the interpreters' semantics of both."""
    out = _PLAIN.get(module)
    if out is None:
        from sarek.dialect.asynccopy import plain_copies as plain
        from sarek.dialect.blockvote import expand_block_votes, is_block_vote

        out = plain(module)
        if any(is_block_vote(o) for o in out.walk()):
            out = out.clone() if out is module else out
            expand_block_votes(out)
        _PLAIN[module] = out
    return out


def run(module: ModuleOp, kernel: str, args: list[Any] | tuple[Any, ...], grid: Any, block: Any, *,
        executor: str = "fast", warp_size: int = 32) -> None:
    """Run `kernel` of `module` over a grid of blocks; vectors in `args` are written in place."""
    g, b = _dims(grid, "grid"), _dims(block, "block")
    if warp_size < 1:
        raise InterpError(f"warp_size must be positive, got {warp_size}")
    module = plain_copies(module)
    if executor == "reference":
        from sarek.interp import reference

        reference.run(module, kernel, list(args), g, b, warp_size)
    elif executor == "fast":
        from sarek.interp import fast, reference

        if math.prod(g) * math.prod(b) <= SERIAL_THREADS and all(
                int(getattr(a, "size", 0)) <= SERIAL_MAX_ELEMENTS for a in args if hasattr(a, "dtype")):
            reference.run(module, kernel, list(args), g, b, warp_size)
            return
        reason = fast.unsupported_reason(module, kernel)
        if reason is None:
            try:
                fast.run(module, kernel, list(args), g, b, warp_size)
                return
            except fast.Unvectorizable as ex:
                reason = str(ex)
        warnings.warn(f"fast executor falls back to the reference executor for @{kernel}: {reason}",
                      FallbackWarning, stacklevel=2)
        reference.run(module, kernel, list(args), g, b, warp_size)
    else:
        raise InterpError(f"unknown executor '{executor}' (use 'fast' or 'reference')")
