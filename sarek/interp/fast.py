"""The fast executor: every thread of a launch at once, on numpy arrays, with masks for divergent control flow.

A value is either uniform (a numpy scalar) or per-lane (a 1-D numpy array over all N threads of the launch, in the
reference executor's order: block-major, x fastest). Control flow carries an active-lane mask (None = all):
- `if`/`if_expr` with a uniform condition run one side; otherwise both sides run under complementary masks (a
  side never faults on lanes that do not take it: indices of inactive lanes are replaced by 0 before an access,
  division by zero and bounds are only checked on active lanes) and `if_expr` selects per lane;
- `for` with uniform bounds is a Python loop; otherwise, like `while`, it runs while any lane is active;
- helpers are interpreted inline with their own scope; `return` retires lanes from the rest of the helper.
Memory: vectors are the caller's numpy arrays (written in place), shared arrays are (blocks, n) arrays indexed by
the lane's block, private arrays (lanes, n). Barriers run in lock-step, so they must be reached by all threads of a
block or by none (checked, with the barrier's location); warp operations likewise per warp. Atomics are applied in
lane order, so one atomic op returns the same old values as on the reference executor; atomics of *different*
ops on one address interleave differently (lock-step here, thread after thread there) — both are valid schedules.

Records and variants are values built from per-lane fields (a variant keeps every constructor's payload, valid
where its tag says so); arrays of them are stored as structure-of-arrays trees and converted from/to the caller's
aligned-layout structured arrays around the launch (the whole vector is re-encoded, padding zeroed, as the
reference executor does). Values are immutable here, so binding needs no copy.

Cooperative matrices run per warp (fast_coop.py: a fragment per warp, stores once per warp).

Not vectorized (the whole kernel then runs on the reference executor, with a FallbackWarning): `sarek.native`,
recursive helpers, records nested deeper than 64 levels (the reference refuses them with
its located error), and (found at run time; vectors are restored before falling back) a non-uniform array size.

Modules:
  fast_check.py    `unsupported_reason`: what is not vectorized, found statically
  fast_values.py   runtime values, storage trees, places, loop/frame masks
  fast_exec.py     `ExecBase`: the launch, indices, checks, memory
  fast_coop.py     `CoopExec`: cooperative matrices, one fragment per warp
  fast_compute.py  `ExecCompute`: operators, casts, intrinsics, atomics
  fast_control.py  `Exec`: calls, blocks, control flow, the op dispatch
  fast.py          `run`: arguments in, the launch, results written back
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xdsl.dialects.builtin import ModuleOp

from sarek.dialect import sarek as S
from sarek.interp import arith as A
from sarek.interp import common as C
from sarek.interp.common import InterpError, kind
from sarek.interp.fast_check import unsupported_reason as unsupported_reason
from sarek.interp.fast_control import Exec
from sarek.interp.fast_values import DT, Arr, TRec, TVar, VRec, VVar, default_value
from sarek.interp.fast_values import Unvectorizable as Unvectorizable


def _from_value(types: C.Types, v: Any, t: Any) -> Any:
    """A reference-executor value (Rec/Var/scalar) as a fast-executor value."""
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        return VRec(ri, [_from_value(types, x, ft) for x, ft in zip(v.f, ri.types)])
    if k == "var":
        vi = types.var(t)
        return VVar(vi, np.int32(v.tag), [[_from_value(types, x, pt) for x, pt in zip(v.p, ps)] if j == v.tag
                                          else [default_value(types, pt) for pt in ps] for j, ps in enumerate(vi.payloads)])
    return _scalar_arg(v, t)


def _to_tree(types: C.Types, xv: np.ndarray, t: Any) -> Any:
    """Structure-of-arrays storage from a structured array viewed with the local aligned dtype."""
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        return TRec([_to_tree(types, xv[f], ft) for f, ft in zip(ri.fields, ri.types)])
    if k == "var":
        vi = types.var(t)
        tag = np.array(xv["tag"], np.int32)
        bad = (tag < 0) | (tag >= len(vi.ctors))
        if bad.any():
            raise InterpError(f"variant @{vi.name} value has tag {int(tag[np.argmax(bad)])}, which names no "
                              f"constructor (tags are declaration indices 0..{len(vi.ctors) - 1})")
        return TVar(tag, [[_to_tree(types, xv[C.ctor_field(c)][f"_{j}"], pt) for j, pt in enumerate(ps)]
                          for c, ps in enumerate(vi.payloads)])
    if k == "i1":
        return np.array(xv != 0)
    if k == "bf16":
        return C.bf16_to_f32(xv)
    return np.array(xv, np.float16 if k == "f16" else DT[k])


def _from_tree(types: C.Types, d: Any, t: Any, out: np.ndarray, sel: Any) -> None:
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        for x, f, ft in zip(d.f, ri.fields, ri.types):
            _from_tree(types, x, ft, out[f], sel)
    elif k == "var":
        vi = types.var(t)
        _from_tree(types, d.tag, S.i32, out["tag"], sel)
        for c, ps in enumerate(vi.payloads):
            csel = d.tag == c if sel is None else (sel & (d.tag == c))
            for j, (x, pt) in enumerate(zip(d.p[c], ps)):
                _from_tree(types, x, pt, out[C.ctor_field(c)][f"_{j}"], csel)
    elif k == "bf16":
        bits = C.bf16_bits(C.bf16_from_f32(d))
        if sel is None:
            out[...] = bits
        else:
            out[sel] = bits[sel]
    elif sel is None:
        out[...] = d
    else:
        out[sel] = d[sel]


def _scalar_arg(x: Any, t: Any) -> Any:
    k = kind(t)
    if k in C.INTS:
        return DT[k](C.wrap_kind(int(x), k))
    if k == "bf16":
        return C.bf16_arg(x)
    if k == "f16":
        return A.f16(x)
    if k == "i1":
        return np.bool_(bool(x))
    return DT[k](x)


class _BoolView:
    """An i1 vector passed as an integer array: computed on a bool copy, written back as 0/1."""

    def __init__(self, orig: np.ndarray):
        self.orig = orig
        self.arr = orig != 0

    def write_back(self) -> None:
        self.orig[...] = self.arr


class _Bf16View(_BoolView):
    """A bf16 vector: computed on an exact f32 copy, written back as bf16 bits (every stored value is already
    a bf16 value, rounded by the cast that produced it)."""

    def __init__(self, orig: np.ndarray):
        self.orig = orig
        self.arr = C.bf16_to_f32(orig)

    def write_back(self) -> None:
        self.orig.view(np.uint16)[...] = C.bf16_bits(C.bf16_from_f32(self.arr))


def _may_bail(module: ModuleOp) -> bool:
    """Whether a run can raise Unvectorizable half-way (then vectors are saved first)."""
    return C.cached(module, "may-bail", lambda: any(isinstance(o, S.AllocArrayOp) for o in module.walk()))


def run(module: ModuleOp, kernel: str, args: list[Any], grid: tuple[int, int, int], block: tuple[int, int, int],
        warp_size: int = 32) -> None:
    """Run on the fast executor; raises Unvectorizable (vectors restored) when it meets what it cannot run."""
    funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, S.KernelOp)}
    k = funcs.get(kernel)
    if k is None:
        raise InterpError(f"no kernel @{kernel} in the module")
    if len(args) != len(k.body.block.args):
        raise InterpError(f"kernel @{kernel} takes {len(k.body.block.args)} argument(s), {len(args)} given", k)
    ex = Exec(module, grid, block, warp_size)
    types = ex.types
    aggs: list[tuple[np.ndarray, Any, Any, np.dtype]] = []
    seen: dict[int, Any] = {}
    bools: list[_BoolView] = []
    vals: list[Any] = []
    saved: list[tuple[np.ndarray, np.ndarray]] = []
    shapes: dict[int, tuple[int, ...]] = {}  # N-dimensional arrays run as their 1-D views, shapes kept here
    flat: dict[int, Any] = {}
    for i, (a, x) in enumerate(zip(k.body.block.args, args)):
        if isinstance(a.type, S.VecType) and a.type.ndim > 1:
            types.check_vector(x, a.type.element_type, k.params[i][0], k, a.type.ndim)
            if id(x) not in flat:
                flat[id(x)] = x.reshape(-1)
                shapes[id(flat[id(x)])] = x.shape
            args = [*args[:i], flat[id(x)], *args[i + 1:]]
    for (pname, a), x in zip(k.params, args):
        if isinstance(a.type, S.VecType):
            et = a.type.element_type
            if a.type.ndim == 1:
                types.check_vector(x, et, pname, k)
            if kind(et) in ("rec", "var"):
                if id(x) in seen:
                    vals.append(seen[id(x)])
                    continue
                local = types.local_dtype(et)
                xv = np.ascontiguousarray(x).view(local)
                tree = _to_tree(types, xv, et)
                vals.append(Arr(tree, None, kind(et), et, len(x), shapes.get(id(x))))
                seen[id(x)] = vals[-1]
                aggs.append((x, tree, et, local))
            else:
                if _may_bail(module):
                    saved.append((x, x.copy()))
                data = x
                if (kind(et) == "i1" and x.dtype != np.bool_) or kind(et) == "bf16":
                    bv = _BoolView(x) if kind(et) == "i1" else _Bf16View(x)
                    bools.append(bv)
                    data = bv.arr
                vals.append(Arr(data, None, kind(et), et, len(x), shapes.get(id(x))))
        elif kind(a.type) in ("rec", "var"):
            vals.append(_from_value(types, types.from_python(x, a.type), a.type))
        else:
            vals.append(_scalar_arg(x, a.type))
    with C.reported(k, passing=(Unvectorizable,)):
        try:
            with np.errstate(all="ignore"):
                ex.call(k, vals, None)
        except Unvectorizable:
            for x, c in saved:
                if x.flags.writeable:  # a read-only input cannot have been written
                    x[...] = c
            raise
    from sarek.analysis.writes import written_params

    written = written_params(module, kernel)
    wrote = {id(x) for i, x in enumerate(args) if i in written}
    for bv in bools:
        if id(bv.orig) in wrote:
            bv.write_back()
    for x, tree, et, local in aggs:  # only vectors the kernel may write (a read-only input stays untouched)
        if id(x) not in wrote:
            continue
        buf = np.zeros(len(x), local)
        _from_tree(types, tree, et, buf, None)
        x.view(np.uint8)[...] = buf.view(np.uint8)
