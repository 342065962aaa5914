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

Not vectorized (the whole kernel then runs on the reference executor, with a FallbackWarning): `sarek.native`,
cooperative matrices, recursive helpers, records nested deeper than 64 levels (the reference refuses them with
its located error), and (found at run time; vectors are restored before falling back) a non-uniform array size.
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import FloatAttr, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.interp import common as C
from sarek.interp.common import InterpError, kind

_DT = {"i1": np.bool_, "i32": np.int32, "i64": np.int64, "f16": np.float32, "f32": np.float32,
                       "f64": np.float64, "i8": np.int8, "i16": np.int16, "u8": np.uint8, "u16": np.uint16,
                       "u32": np.uint32, "u64": np.uint64, "bf16": np.float32}


class Unvectorizable(Exception):
    pass


# ------------------------------------------------------------------------------------------------ static check


def unsupported_reason(module: ModuleOp, kernel: str) -> str | None:
    """Why the fast executor cannot run `kernel` (None when it can)."""
    cache = C.cached(module, "fast-reasons", dict[str, str | None])
    if kernel not in cache:
        cache[kernel] = _reason(module, kernel)
    return cache[kernel]


def _reason(module: ModuleOp, kernel: str) -> str | None:
    funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, S.KernelOp | S.HelperOp)}
    if kernel not in funcs:
        return None  # the reference executor reports the missing kernel
    seen: set[str] = set()
    stack = [kernel]
    path: list[str] = []
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        f = funcs.get(n)
        if f is None:
            return None
        for op in f.walk():
            if isinstance(op, S.NativeOp):
                return "sarek.native"
            if op.name.startswith("sarek.coopmat"):
                return "cooperative matrices"
            for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]:
                if _has_aggregate(v.type) and _depth(module, v.type) > C.DETACH_MAX_DEPTH:
                    return (f"records nested deeper than {C.DETACH_MAX_DEPTH} levels (the reference executor "
                            "refuses to copy them)")
            if isinstance(op, S.CallOp):
                stack.append(op.callee_name)
        path.append(n)
    # recursion: a helper reachable from itself
    calls = {n: {o.callee_name for o in funcs[n].walk() if isinstance(o, S.CallOp)} for n in seen if n in funcs}
    state: dict[str, int] = {}

    def cyclic(n: str) -> bool:
        state[n] = 1
        for c in calls.get(n, ()):
            if state.get(c) == 1 or (state.get(c) is None and cyclic(c)):
                return True
        state[n] = 2
        return False

    if cyclic(kernel):
        return "recursive helpers"
    return None


def _depth(module: ModuleOp, t: Any) -> int:
    """Levels of values in a value of type t (a scalar is 0 deep, a record of scalars 1)."""
    while isinstance(t, S.VecType | S.ArrayType | S.RefType):
        t = t.element_type
    ts = _types(module)
    if isinstance(t, S.RecordType):
        return 1 + max((_depth(module, f) for f in ts.rec(t).types), default=0)
    if isinstance(t, S.VariantType):
        return 1 + max((_depth(module, x) for ps in ts.var(t).payloads for x in ps), default=0)
    return 0


def _types(module: ModuleOp) -> C.Types:
    return C.cached(module, "types", lambda: C.Types.of(module))


def _has_aggregate(t: Any) -> bool:
    while isinstance(t, S.VecType | S.ArrayType | S.RefType):
        t = t.element_type
    return isinstance(t, S.RecordType | S.VariantType)


# ------------------------------------------------------------------------------------------------ runtime values


class VRec:
    """A record value: fields, each a numpy scalar (uniform), a per-lane array or an aggregate."""

    __slots__ = ("t", "f")

    def __init__(self, t: C.RecInfo, f: list[Any]):
        self.t = t
        self.f = f


class VVar:
    """A variant value: `tag` (declaration index, scalar or per lane) and the payload of *every* constructor
    (`p[c]`), meaningful on the lanes whose tag is c."""

    __slots__ = ("t", "tag", "p")

    def __init__(self, t: C.VarInfo, tag: Any, p: list[list[Any]]):
        self.t = t
        self.tag = tag
        self.p = p


class TRec:
    """Storage of an array of records: one storage per field (structure of arrays)."""

    __slots__ = ("f",)

    def __init__(self, f: list[Any]):
        self.f = f


class TVar:
    """Storage of an array of variants: a tag array and one storage per constructor payload."""

    __slots__ = ("tag", "p")

    def __init__(self, tag: np.ndarray, p: list[list[Any]]):
        self.tag = tag
        self.p = p


class Arr:
    """An array value: `data` is 1-D (a vector) or 2-D with `row` selecting each lane's row; for records and
    variants `data` is a TRec/TVar tree of such arrays."""

    __slots__ = ("data", "row", "elt", "n", "t", "shape")

    def __init__(self, data: Any, row: np.ndarray | None, elt: str, t: Any, n: int,
                 shape: tuple[int, ...] | None = None):
        self.data = data
        self.row = row
        self.elt = elt
        self.n = n  # the number of elements; `shape` their N-dimensional extents (row-major)
        self.t = t
        self.shape = (n,) if shape is None else shape


class Cell:
    __slots__ = ("v",)

    def __init__(self, v: Any):
        self.v = v


class ElemPlace:
    __slots__ = ("arr", "idx")

    def __init__(self, arr: Arr, idx: Any):
        self.arr = arr
        self.idx = idx


class FieldPlace:
    __slots__ = ("root", "path", "types")

    def __init__(self, root: Any, path: list[int], types: list[Any]):
        self.root = root
        self.path = path
        self.types = types


def merge(m: Any, new: Any, old: Any) -> Any:
    """new on the lanes of m, old elsewhere (m None: new), through records and variants."""
    if m is None:
        return new
    c = type(cast(object, new))
    if c is VRec:
        return VRec(new.t, [merge(m, a, b) for a, b in zip(new.f, old.f)])
    if c is VVar:
        return VVar(new.t, np.where(m, new.tag, old.tag),
                    [[merge(m, a, b) for a, b in zip(pn, po)] for pn, po in zip(new.p, old.p)])
    return cast("npt.NDArray[Any]", np.where(m, new, old))


def _replace(v: Any, path: list[int], x: Any) -> Any:
    if not path:
        return x
    return VRec(v.t, [_replace(f, path[1:], x) if j == path[0] else f for j, f in enumerate(v.f)])


class Loop:
    """The lanes that left the innermost running loop by `break` (`brk`) or its current iteration by
    `continue` (`cont`); None when none did."""

    __slots__ = ("brk", "cont")

    def __init__(self) -> None:
        self.brk: Any = None
        self.cont: Any = None


class Frame:
    """One function's run: the lanes that returned (`done`, with the value `ret`) and its running loops; `cut`
    says whether any lane left by a return, break or continue (then each later op strips them)."""

    __slots__ = ("ret", "done", "returns", "loops", "cut")

    def __init__(self) -> None:
        self.ret: Any = None
        self.done: Any = None
        self.returns = False
        self.loops: list[Loop] = []
        self.cut = False

    def recut(self) -> None:
        top = self.loops[-1] if self.loops else None
        self.cut = self.returns or (top is not None and (top.brk is not None or top.cont is not None))


def _isarr(x: object) -> TypeGuard[npt.NDArray[Any]]:
    """Whether a value is per-lane (a numpy array) rather than uniform."""
    return isinstance(x, np.ndarray)


def _and(m: Any, c: Any) -> Any:
    """mask AND condition; c is a bool array or a numpy bool scalar."""
    if not _isarr(c):
        return m if c else False
    return c if m is None else (m & c)


def _any(m: Any) -> bool:
    if m is None:
        return True
    if m is False:
        return False
    return bool(m.any())


# ------------------------------------------------------------------------------------------------ the executor


class _Exec:

    def __init__(self, module: ModuleOp, grid: tuple[int, int, int], block: tuple[int, int, int], ws: int):
        self.module = module
        self.types = _types(module)
        self.funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, S.KernelOp | S.HelperOp)}
        bdx, bdy, bdz = block
        gdx, gdy, gdz = grid
        bs = bdx * bdy * bdz
        nb = gdx * gdy * gdz
        self.block_dims, self.grid_dims = block, grid
        self.bs, self.nb, self.n, self.ws = bs, nb, bs * nb, ws
        i32 = np.int32
        self._idx: dict[str, Any] = {
            "block_dim_x": i32(bdx), "block_dim_y": i32(bdy), "block_dim_z": i32(bdz),
            "grid_dim_x": i32(gdx), "grid_dim_y": i32(gdy), "grid_dim_z": i32(gdz),
            "global_size_x": i32(bdx * gdx), "global_size_y": i32(bdy * gdy), "global_size_z": i32(bdz * gdz),
            "warp_size": i32(ws),
        }
        self._idx["global_size"] = self._idx["global_size_x"]
        self._lazy: dict[str, np.ndarray] = {}
        self.shared: dict[Operation, np.ndarray] = {}

    def lazy(self, name: str) -> np.ndarray:
        """Per-lane index arrays, computed on first use (int64 lane/blk/ltid, int32 intrinsics)."""
        v = self._lazy.get(name)
        if v is not None:
            return v
        bdx, bdy, bdz = self.block_dims
        gdx, gdy, gdz = self.grid_dims
        i32 = np.int32
        if name == "lanes":
            v = np.arange(self.n, dtype=np.int64)
        elif name == "blk":
            v = self.lazy("lanes") // self.bs if self.nb > 1 else np.zeros(self.n, np.int64)
        elif name == "ltid":
            v = self.lazy("lanes") % self.bs if self.nb > 1 else self.lazy("lanes")
        elif name == "lane_id":
            v = (self.lazy("ltid") % self.ws).astype(i32)
        elif name == "thread_idx_x":
            v = (self.lazy("ltid") % bdx if bdy * bdz > 1 else self.lazy("ltid")).astype(i32)
        elif name == "thread_idx_y":
            v = (self.lazy("ltid") // bdx % bdy).astype(i32)
        elif name == "thread_idx_z":
            v = (self.lazy("ltid") // (bdx * bdy)).astype(i32)
        elif name == "block_idx_x":
            v = (self.lazy("blk") % gdx).astype(i32)
        elif name == "block_idx_y":
            v = (self.lazy("blk") // gdx % gdy).astype(i32)
        elif name == "block_idx_z":
            v = (self.lazy("blk") // (gdx * gdy)).astype(i32)
        elif name == "global_idx_x" and bdy * bdz * gdy * gdz == 1:
            v = np.arange(self.n, dtype=i32)
        elif name.startswith("global_idx_"):
            d = name[-1]
            v = (self.lazy(f"thread_idx_{d}") + self.lazy(f"block_idx_{d}") * self._idx[f"block_dim_{d}"]).astype(i32)
        elif name == "global_thread_id":
            v = self.lazy("global_idx_x")
        else:
            raise KeyError(name)
        self._lazy[name] = v
        return v

    @property
    def blk(self) -> np.ndarray:
        return self.lazy("blk")

    @property
    def ltid(self) -> np.ndarray:
        return self.lazy("ltid")

    @property
    def lanes(self) -> np.ndarray:
        return self.lazy("lanes")

    # ------------------------------------------------------------------------------------------ helpers

    def fault(self, op: Operation, msg: str) -> InterpError:
        return InterpError(msg, op)

    def full(self, v: Any) -> np.ndarray:
        return v if _isarr(v) else np.full(self.n, v)

    def check_block_uniform(self, op: Operation, m: Any, what: str) -> None:
        if m is None:
            return
        if m is False:
            return
        cnt = np.bincount(self.blk[m], minlength=self.nb)
        bad = np.nonzero((cnt != 0) & (cnt != self.bs))[0]
        if len(bad):
            b = int(bad[0])
            raise self.fault(op, f"{what} reached by only {int(cnt[b])} of {self.bs} threads of block {b}")

    def check_warp_uniform(self, op: Operation, m: Any) -> None:
        if m is None or m is False:
            return
        wid = self.blk * ((self.bs + self.ws - 1) // self.ws) + self.ltid // self.ws
        nw = int(wid[-1]) + 1
        cnt = np.bincount(wid[m], minlength=nw)
        size = np.bincount(wid, minlength=nw)
        bad = np.nonzero((cnt != 0) & (cnt != size))[0]
        if len(bad):
            raise self.fault(op, f"warp operation reached by only some lanes of a warp ({int(cnt[bad[0]])} of "
                                 f"{int(size[bad[0]])}; warp operations need every lane of the warp)")

    def index(self, op: Operation, arr: Arr, i: Any, m: Any) -> Any:
        """Bounds-check `i` on the active lanes; return an index safe on every lane."""
        if _isarr(i):
            ii = i if m is None else np.where(m, i, 0)
            bad = (ii.view(np.uint32) >= arr.n) if ii.dtype == np.int32 else ((ii < 0) | (ii >= arr.n))
            if bad.any():
                k = int(np.argmax(bad))
                raise self.fault(op, f"index {int(ii[k])} out of bounds for an array of length {arr.n}")
            return ii
        if not 0 <= int(i) < arr.n:
            if _any(m):
                raise self.fault(op, f"index {int(i)} out of bounds for an array of length {arr.n}")
            return 0
        return i

    def flat_index(self, op: S.ArrayReadOp | S.ElemRefOp, arr: Arr, env: dict[SSAValue, Any], m: Any) -> Any:
        """The element index of an access, bounds-checked on the active lanes: its index on rank 1; on rank N
        each index checked against its extent, then their row-major offset."""
        if len(op.indices) == 1:
            return self.index(op, arr, env[op.index], m)
        idx = [env[x] for x in op.indices]
        flat: Any = 0
        for d, (i, n) in enumerate(zip(idx, arr.shape)):
            ii = np.where(m, i, 0) if _isarr(i) and m is not None else i
            bad = (ii < 0) | (ii >= n)
            if _isarr(bad) and bad.any() or not _isarr(bad) and bad and _any(m):
                lane = int(np.argmax(bad)) if _isarr(bad) else 0
                at = [int(x[lane]) if _isarr(x) else int(x) for x in idx]
                raise self.fault(op, f"index {at} out of bounds for an array of shape {list(arr.shape)} "
                                     f"(dimension {d}: {at[d]} not in 0..{n - 1})")
            flat = flat * n + (np.where(bad, 0, ii) if _isarr(bad) else 0 if bad else ii)
        return flat.astype(np.int32) if _isarr(flat) else np.int32(flat)

    def read(self, arr: Arr, i: Any) -> Any:
        return self.tread(arr.data, arr.t, arr.row, i)

    def tread(self, d: Any, t: Any, row: Any, i: Any) -> Any:
        c = type(cast(object, d))
        if c is TRec:
            ri = self.types.rec(t)
            return VRec(ri, [self.tread(x, ft, row, i) for x, ft in zip(d.f, ri.types)])
        if c is TVar:
            vi = self.types.var(t)
            return VVar(vi, self.tread(d.tag, None, row, i),
                        [[self.tread(x, pt, row, i) for x, pt in zip(xs, ps)] for xs, ps in zip(d.p, vi.payloads)])
        v = d[i] if row is None else d[row, i]
        if d.dtype == np.float16:
            v = v.astype(np.float32) if _isarr(v) else np.float32(v)
        return v

    def write(self, arr: Arr, i: Any, v: Any, m: Any) -> None:
        self.twrite(arr.data, arr.row, i, v, m)

    def twrite(self, d: Any, row: Any, i: Any, v: Any, m: Any) -> None:
        c = type(cast(object, d))
        if c is TRec:
            for x, fv in zip(d.f, v.f):
                self.twrite(x, row, i, fv, m)
            return
        if c is TVar:
            self.twrite(d.tag, row, i, v.tag, m)
            for xs, vs in zip(d.p, v.p):
                for x, pv in zip(xs, vs):
                    self.twrite(x, row, i, pv, m)
            return
        if row is None:
            if m is None:
                if _isarr(i) or not _isarr(v):
                    d[i] = v
                else:  # every lane writes one slot: the last lane wins, as in the reference order
                    d[i] = v[-1]
            else:
                ii = i[m] if _isarr(i) else i
                vv = v[m] if _isarr(v) else v
                if not _isarr(ii) and _isarr(vv):
                    vv = vv[-1]
                d[ii] = vv
        else:
            rows = row if m is None else row[m]
            ii = i if not _isarr(i) else (i if m is None else i[m])
            vv = v if not _isarr(v) else (v if m is None else v[m])
            d[rows, ii] = vv

    def tree(self, t: Any, shape: tuple[int, ...]) -> Any:
        """Fresh storage holding default values (records zeroed, variants the first nullary constructor)."""
        k = kind(t)
        if k == "rec":
            return TRec([self.tree(ft, shape) for ft in self.types.rec(t).types])
        if k == "var":
            vi = self.types.var(t)
            return TVar(np.full(shape, vi.default_tag, np.int32),
                        [[self.tree(pt, shape) for pt in ps] for ps in vi.payloads])
        return np.zeros(shape, np.float16 if k == "f16" else _DT[k])

    def default(self, t: Any) -> Any:
        return _default(self.types, t)

    def load(self, p: Any) -> Any:
        if type(p) is Cell:
            return p.v
        if type(p) is ElemPlace:
            return self.read(p.arr, p.idx)
        v = self.load(p.root)
        for j in p.path:
            v = v.f[j]
        return v

    def store(self, p: Any, v: Any, m: Any) -> None:
        if type(p) is Cell:
            p.v = merge(m, v, p.v)
        elif type(p) is ElemPlace:
            self.write(p.arr, p.idx, v, m)
        elif type(p.root) is Cell:
            p.root.v = merge(m, _replace(p.root.v, p.path, v), p.root.v)
        else:
            d = p.root.arr.data
            for j in p.path:
                d = d.f[j]
            self.twrite(d, p.root.arr.row, p.root.idx, v, m)

    # ------------------------------------------------------------------------------------------ running

    def call(self, f: Operation, args: list[Any], m: Any) -> Frame:
        assert isinstance(f, S.KernelOp | S.HelperOp)
        env: dict[SSAValue, Any] = dict(zip(f.body.block.args, args))
        fr = Frame()
        self.block(f.body.block, env, m, fr)
        return fr

    def block(self, b: Block, env: dict[SSAValue, Any], m: Any, fr: Frame) -> Any:
        """Run a block's ops; returns the value of its sarek.yield (if any)."""
        for op in b.ops:
            if m is False:
                return None
            if isinstance(op, S.YieldOp):
                return env[op.value]
            self.op(op, env, m, fr)
            if fr.cut:
                m = self.strip(m, fr)
                if not _any(m):
                    m = False
        return None

    def strip(self, m: Any, fr: Frame) -> Any:
        """m without the lanes that returned, broke out of the innermost loop or continued it."""
        if fr.returns and fr.done is not None:
            m = (~fr.done) if m is None else (m & ~fr.done)
        if fr.loops:
            top = fr.loops[-1]
            for gone in (top.brk, top.cont):
                if gone is not None:
                    m = (~gone) if m is None else (m & ~gone)
        return m

    def next_iteration(self, act: Any, fr: Frame) -> Any:
        """The lanes that run the loop's next iteration: those of this one that neither returned nor broke
        (lanes that continued come back)."""
        top = fr.loops[-1]
        top.cont = None
        if fr.returns and fr.done is not None:
            act = (~fr.done) if act is None else (act & ~fr.done)
        if top.brk is not None:
            act = (~top.brk) if act is None else (act & ~top.brk)
        fr.recut()
        return act

    def leave(self, fr: Frame, m: Any, brk: bool) -> None:
        """`break` / `continue` on the lanes of m."""
        top = fr.loops[-1]
        live = np.ones(self.n, bool) if m is None else m
        old = top.brk if brk else top.cont
        new = live.copy() if old is None else (old | live)
        if brk:
            top.brk = new
        else:
            top.cont = new
        fr.cut = True

    def loop(self, fr: Frame) -> Loop:
        lp = Loop()
        fr.loops.append(lp)
        fr.recut()
        return lp

    def end_loop(self, fr: Frame) -> None:
        fr.loops.pop()
        fr.recut()

    def op(self, op: Operation, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:  # noqa: C901
        if isinstance(op, S.ConstantOp):
            k = kind(op.result.type)
            v = op.value
            if k == "unit" or isinstance(v, UnitAttr):
                env[op.result] = None
            elif k == "i1":
                env[op.result] = np.bool_(C.int_value(v))
            elif k in C.INTS:
                env[op.result] = _DT[k](C.wrap_kind(C.int_value(v), k))
            else:
                assert isinstance(v, FloatAttr)
                env[op.result] = {"f32": np.float32, "f16": C.f16, "f64": np.float64}[k](v.value.data)
        elif isinstance(op, S.BinOp):
            env[op.result] = self.binop(op, env[op.lhs], env[op.rhs], m)
        elif isinstance(op, S.UnOp):
            a = env[op.operand]
            kd = op.op.value
            if kd == "neg":
                env[op.result] = -a
            elif kd == "not":
                env[op.result] = ~a if _isarr(a) else np.bool_(not a)
            else:
                env[op.result] = ~a
        elif isinstance(op, S.CastOp):
            env[op.result] = self.cast(op, env[op.operand])
        elif isinstance(op, S.BitcastOp):
            env[op.result] = C.bitcast(env[op.operand], kind(op.result.type))
        elif isinstance(op, S.IntrinsicOp):
            env[op.result] = self.intrinsic(op, [env[a] for a in op.args], m)
        elif isinstance(op, S.ArrayReadOp):
            arr = env[op.array]
            env[op.result] = self.read(arr, self.flat_index(op, arr, env, m))
        elif isinstance(op, S.ArrayLenOp):
            env[op.result] = np.int32(env[op.array].n)
        elif isinstance(op, S.ArrayDimOp):
            env[op.result] = np.int32(env[op.array].shape[op.dim.data])
        elif isinstance(op, S.AllocArrayOp):
            shape = tuple(op.shape or ()) if op.array_type.ndim > 1 else None  # N-D: constant extents
            size = math.prod(shape) if shape is not None else env[op.size]
            if _isarr(size):
                raise Unvectorizable("per-thread array size")
            size = int(size)
            if size < 0:
                raise self.fault(op, f"array size {size} is negative")
            et = op.array_type.element_type
            k = kind(et)
            if op.array_type.memspace == S.MemSpace.SHARED:
                d = self.shared.get(op)
                if d is None:
                    d = self.shared[op] = self.tree(et, (self.nb, size))
                env[op.result] = Arr(d, self.blk, k, et, size, shape)
            else:
                env[op.result] = Arr(self.tree(et, (self.n, size)), self.lanes, k, et, size, shape)
        elif isinstance(op, S.CallOp):
            f = self.funcs.get(op.callee_name)
            if f is None:
                raise self.fault(op, f"@{op.callee_name} is not a helper of this module")
            sub = self.call(f, [env[a] for a in op.args], m)
            if op.res:
                if sub.done is None or (m is None and not bool(np.all(sub.done))) or (
                        m is not None and bool((m & ~sub.done).any())):
                    raise self.fault(op, f"helper @{op.callee_name} ended without returning a value")
                env[op.res[0]] = sub.ret
        elif isinstance(op, S.LetOp):
            env[op.result] = env[op.value]
        elif isinstance(op, S.LetMutOp):
            v = env[op.init]
            if kind(op.init.type) == "f16":
                v = self.f16(v)
            env[op.result] = Cell(v)
        elif isinstance(op, S.LoadOp):
            env[op.result] = self.load(env[op.ref])
        elif isinstance(op, S.StoreOp):
            v = env[op.value]
            if kind(op.value.type) == "f16":
                v = self.f16(v)
            self.store(env[op.place], v, m)
        elif isinstance(op, S.FieldRefOp):
            base = env[op.base]
            idx = self.types.rec(cast(S.RefType, op.base.type).element_type).fields.index(op.field.data)
            if type(base) is FieldPlace:
                env[op.result] = FieldPlace(base.root, [*base.path, idx], [])
            else:
                env[op.result] = FieldPlace(base, [idx], [])
        elif isinstance(op, S.MakeRecordOp):
            env[op.result] = VRec(self.types.rec(op.result.type), [env[f] for f in op.fields])
        elif isinstance(op, S.MakeVariantOp):
            vi = self.types.var(op.result.type)
            c = vi.ctors.index(op.ctor.data)
            p = [[env[x] for x in op.payload] if j == c else [self.default(pt) for pt in ps]
                 for j, ps in enumerate(vi.payloads)]
            env[op.result] = VVar(vi, np.int32(c), p)
        elif isinstance(op, S.FieldOp):
            idx = self.types.rec(op.record.type).fields.index(op.field.data)
            env[op.result] = env[op.record].f[idx]
        elif isinstance(op, S.PayloadOp):
            v = env[op.variant]
            c = v.t.ctors.index(op.ctor.data)
            bad = v.tag != c
            if _isarr(bad):
                bad = bad if m is None else (bad & m)
                bad = bool(bad.any())
            elif bad:
                bad = _any(m)
            if bad:
                raise self.fault(op, f"payload of constructor {op.ctor.data} read from another constructor's value")
            env[op.result] = v.p[c][op.index.value.data]
        elif isinstance(op, S.MatchOp | S.MatchExprOp):
            self.match(op, env, m, fr)
        elif isinstance(op, S.ElemRefOp):
            arr = env[op.array]
            env[op.result] = ElemPlace(arr, self.flat_index(op, arr, env, m))
        elif isinstance(op, S.IfOp):
            c = env[op.cond]
            if not _isarr(c):
                if c:
                    self.block(op.then_region.block, env, m, fr)
                elif op.else_region.blocks:
                    self.block(op.else_region.block, env, m, fr)
            else:
                mt = _and(m, c)
                if _any(mt):
                    self.block(op.then_region.block, env, mt, fr)
                if op.else_region.blocks:
                    me = _and(self.strip(m, fr), ~c)
                    if _any(me):
                        self.block(op.else_region.block, env, me, fr)
        elif isinstance(op, S.IfExprOp):
            c = env[op.cond]
            if not _isarr(c):
                env[op.result] = self.block((op.then_region if c else op.else_region).block, env, m, fr)
            else:
                mt, me = _and(m, c), _and(m, ~c)
                a = self.block(op.then_region.block, env, mt, fr) if _any(mt) else None
                b = self.block(op.else_region.block, env, me, fr) if _any(me) else None
                if a is None:
                    env[op.result] = b
                elif b is None:
                    env[op.result] = a
                else:
                    env[op.result] = merge(c, a, b)
        elif isinstance(op, S.WhileOp):
            act = m
            self.loop(fr)
            while True:
                c = self.block(op.cond_region.block, env, act, fr)
                act = _and(act, c)
                if not _any(act):
                    break
                self.block(op.body.block, env, act, fr)
                act = self.next_iteration(act, fr)
                if not _any(act):
                    break
            self.end_loop(fr)
        elif isinstance(op, S.ForOp):
            lo, hi = env[op.lo], env[op.hi]
            step = op.step_value
            if step is None:
                step = env[op.step_operand]
            dt = _DT[kind(op.lo.type)]
            self.loop(fr)
            if not _isarr(lo) and not _isarr(hi) and not _isarr(step):
                act = m
                for i in (range(int(lo), int(hi), int(step)) if step else ()):
                    env[op.index] = dt(i)
                    self.block(op.body.block, env, act, fr)
                    act = self.next_iteration(act, fr)
                    if not _any(act):
                        break
            else:
                i = self.full(lo).astype(dt)
                st = dt(step) if not _isarr(step) else step
                act = m
                while True:
                    act = _and(act, ((st > 0) & (i < hi)) | ((st < 0) & (i > hi)))
                    if not _any(act):
                        break
                    env[op.index] = i
                    self.block(op.body.block, env, act, fr)
                    act = self.next_iteration(act, fr)
                    i = (i + st).astype(dt)
            self.end_loop(fr)
        elif isinstance(op, S.BreakOp | S.ContinueOp):
            self.leave(fr, m, isinstance(op, S.BreakOp))
        elif isinstance(op, S.AssertOp):
            pass  # release semantics: the debug pipeline turns asserts into checks
        elif isinstance(op, S.ReturnOp):
            fr.returns = True
            if op.value:
                v = env[op.value[0]]
                if m is None:
                    fr.ret = v
                else:
                    fr.ret = v if fr.ret is None else merge(m, v, fr.ret)
            live = np.ones(self.n, bool) if m is None else m
            fr.done = live.copy() if fr.done is None else (fr.done | live)
            fr.cut = True
        elif isinstance(op, S.PragmaOp | S.BlockOp):
            self.block(op.body.block, env, m, fr)
        elif isinstance(op, S.BarrierOp):
            self.check_block_uniform(op, m, "barrier")
        elif isinstance(op, S.WarpBarrierOp):
            self.check_warp_uniform(op, m)
        elif isinstance(op, S.MemFenceOp):
            pass
        else:
            raise Unvectorizable(op.name)

    def match(self, op: Any, env: dict[SSAValue, Any], m: Any, fr: Frame) -> None:
        s = env[op.scrutinee]
        vi = s.t
        tag = s.tag
        expr = isinstance(op, S.MatchExprOp)
        result: Any = None
        listed: list[int] = []
        covered: Any = None
        for c, _, r in op.case_list():
            if c == S.WILDCARD:
                if _isarr(tag):
                    hit = ~np.isin(tag, listed) if listed else np.ones(self.n, bool)
                else:
                    hit = np.bool_(int(tag) not in listed)
                binds = [s] * len(r.block.args)
            else:
                ci = vi.ctors.index(c)
                listed.append(ci)
                hit = tag == ci
                binds = s.p[ci]
            cm = _and(self.strip(m, fr), hit)
            if _isarr(hit):
                covered = hit if covered is None else (covered | hit)
            elif hit:
                covered = True if covered is None or not _isarr(covered) else covered
            if not _any(cm):
                continue
            for a, b in zip(r.block.args, binds):
                env[a] = b
            y = self.block(r.block, env, cm, fr)
            if expr:
                result = y if result is None else merge(cm if cm is not None else hit, y, result)
        # a statement match whose cases do not cover the scrutinee does nothing (Python's match; every
        # compiled backend falls through); only a value match has no value to give
        if expr and S.WILDCARD not in [c for c, _, _ in op.case_list()]:
            miss = None
            if _isarr(tag):
                miss = ~np.isin(tag, listed)
                miss = miss if m is None else (miss & m)
                miss = bool(miss.any())
            else:
                miss = int(tag) not in listed and _any(m)
            if miss:
                raise self.fault(op, "no case matches the scrutinee's constructor")
        if expr:
            env[op.result] = result

    def f16(self, v: Any) -> Any:
        return v.astype(np.float16).astype(np.float32) if _isarr(v) else C.f16(v)

    def binop(self, op: S.BinOp, a: Any, b: Any, m: Any) -> Any:
        kd = op.op.value
        k = kind(op.lhs.type)
        if kd == "add":
            return a + b
        if kd == "sub":
            return a - b
        if kd == "mul":
            return a * b
        if kd == "lt":
            return a < b
        if kd == "le":
            return a <= b
        if kd == "gt":
            return a > b
        if kd == "ge":
            return a >= b
        if kd == "eq":
            return a == b
        if kd == "ne":
            return a != b
        if kd == "and":
            return a & b
        if kd == "or":
            return a | b
        if kd == "bitand":
            return a & b
        if kd == "bitor":
            return a | b
        if kd == "bitxor":
            return a ^ b
        dt = _DT[k]
        if kd == "div" and k in ("f16", "f32", "f64"):
            return a / b
        bits = C.int_bits(k)[0]
        if kd == "shl":
            return np.left_shift(a, b & dt(bits - 1)).astype(dt)
        if kd == "shr":
            return np.right_shift(a, b & dt(bits - 1)).astype(dt)
        # integer div / rem: C semantics, checked on active lanes
        z = b == 0
        if _isarr(z):
            zz = z if m is None else (z & m)
            if zz.any():
                raise self.fault(op, f"integer {'division' if kd == 'div' else 'remainder'} by zero")
            b = np.where(z, dt(1), b)
        elif z:
            if _any(m):
                raise self.fault(op, f"integer {'division' if kd == 'div' else 'remainder'} by zero")
            b = dt(1)
        r = np.fmod(a, b)
        if kd == "rem":
            return r.astype(dt) if _isarr(r) else dt(r)
        q = (a - r) // b
        return q.astype(dt) if _isarr(q) else dt(q)

    def cast(self, op: S.CastOp, a: Any) -> Any:
        src, dst = kind(op.operand.type), kind(op.result.type)
        arr = _isarr(a)
        if src == dst:
            return a
        if dst in C.INTS:
            dt = _DT[dst]
            if src in ("f16", "bf16", "f32", "f64"):
                bits, unsigned = C.int_bits(dst)
                lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
                x = np.asarray(a, np.float64)
                big, small, nan = x >= hi, x <= lo, np.isnan(x)
                safe = np.where(big | small | nan, 0.0, x)
                r = np.where(big, dt(hi), np.where(small, dt(lo), np.trunc(safe).astype(dt)))
                r = r.astype(dt)
                return r if arr else r[()]
            if src == "i1":
                return a.astype(dt) if arr else dt(bool(a))
            return np.asarray(a).astype(dt) if arr else np.asarray(a).astype(dt)[()]  # wraps modulo 2^width
        if dst == "i1":
            return a != 0
        if dst == "f16":
            return self.f16(np.asarray(a, np.float32) if arr else np.float32(a))
        if dst == "bf16":  # through f32, rounded to nearest even
            r = C.bf16_to_f32(C.bf16_from_f32(np.asarray(a, np.float32)))
            return r if arr else np.float32(r[()])
        dt = _DT[dst]
        return a.astype(dt) if arr else dt(a)

    def intrinsic(self, op: S.IntrinsicOp, args: list[Any], m: Any) -> Any:
        name = op.callee.data
        info = INTRINSICS[name]
        if info.category == Category.INDEX or name in ("lane_id", "warp_size"):
            v = self._idx.get(name)
            return v if v is not None else self.lazy(name)
        if info.category == Category.WARP:
            return self.shuffle(op, name, args[0], args[1], m)
        k = kind(op.result.type)
        if info.category == Category.MATH:
            if name in ("clz", "popcount"):
                return self.bitcount(name, args[0], kind(op.args[0].type))
            if k in C.INTS:
                if name == "abs":
                    return np.abs(args[0])
                return (np.minimum if name == "min" else np.maximum)(args[0], args[1])
            fn = {"abs": "fabs", "min": "fmin", "max": "fmax"}.get(name, name)
            return C.MATH[fn](*args)
        return self.atomic(op, name, args, m, k)

    def bitcount(self, name: str, x: Any, k: str) -> Any:
        arr = np.atleast_1d(np.asarray(x))
        u = arr.view(np.uint32 if k == "i32" else np.uint64)
        if name == "popcount":
            r = np.bitwise_count(u).astype(np.int32)
        else:
            bits = 32 if k == "i32" else 64
            if bits == 32:
                r = (32 - np.frexp(u.astype(np.float64))[1]).astype(np.int32)
            else:
                hi = (u >> np.uint64(32)).astype(np.float64)
                lo = (u & np.uint64(0xFFFFFFFF)).astype(np.float64)
                r = np.where(hi > 0, 32 - np.frexp(hi)[1], 64 - np.frexp(lo)[1]).astype(np.int32)
        return r if _isarr(x) else np.int32(r[0])

    def shuffle(self, op: S.IntrinsicOp, name: str, v: Any, x: Any, m: Any) -> Any:
        self.check_warp_uniform(op, m)
        if not _isarr(v):
            return v
        ws = self.ws
        lane = (self.ltid % ws)
        base = self.ltid - lane
        xx = np.asarray(x, np.int64)
        if name == "warp_shuffle":
            ok = (xx >= 0) & (xx < ws)
            src = np.where(ok, xx, lane)
        elif name == "warp_shuffle_down":
            ok = (xx >= 0) & (lane + xx < ws)
            src = np.where(ok, lane + xx, lane)
        elif name == "warp_shuffle_up":
            ok = (xx >= 0) & (xx <= lane)
            src = np.where(ok, lane - xx, lane)
        else:
            s = lane ^ xx
            src = np.where((s >= 0) & (s < ws), s, lane)
        src_t = base + src
        src_t = np.where(src_t < self.bs, src_t, self.ltid)
        return v[self.blk * self.bs + src_t]

    def atomic(self, op: S.IntrinsicOp, name: str, args: list[Any], m: Any, k: str) -> Any:
        arr: Arr = args[0]
        i = self.index(op, arr, args[1], m)
        lanes = np.arange(self.n) if m is None else np.nonzero(m)[0]
        if not len(lanes):
            return _DT[k](0)
        ii = self.full(i)[lanes]
        flat = arr.data.reshape(-1)
        addr = ii.astype(np.int64) if arr.row is None else arr.row[lanes].astype(np.int64) * arr.n + ii
        vals: list[Any] = [self.full(a)[lanes] if a is not None else None for a in args[2:]]
        old = np.zeros(self.n, flat.dtype)
        if k in C.INTS and name in ("atomic_add", "atomic_sub", "atomic_inc", "atomic_dec"):
            dt = _DT[k]
            if name in ("atomic_inc", "atomic_dec"):
                d = np.full(len(lanes), 1 if name == "atomic_inc" else -1, np.int64)
            else:
                d = vals[0].astype(np.int64) * (1 if name == "atomic_add" else -1)
            order = np.argsort(addr, kind="stable")
            sa, sd = addr[order], d[order]
            cs = np.cumsum(sd)
            start = np.ones(len(sa), bool)
            start[1:] = sa[1:] != sa[:-1]
            grp = np.cumsum(start) - 1
            first_cs = (cs - sd)[start]
            excl = cs - sd - first_cs[grp]
            base = flat[sa].astype(np.int64)
            o = (base + excl).astype(dt)
            res = np.empty(len(lanes), dt)
            res[order] = o
            old[lanes] = res
            last = np.ones(len(sa), bool)
            last[:-1] = sa[1:] != sa[:-1]
            flat[sa[last]] = (base[last] + (cs - first_cs[grp])[last]).astype(dt)
        else:
            out = C.NP_SCALAR[k]
            for j in range(len(lanes)):
                a = int(addr[j])
                o = flat[a]
                old[lanes[j]] = o
                if name == "atomic_cas":  # on the bits: a float -0.0 does not match 0.0, a NaN matches itself
                    if o.tobytes() == flat.dtype.type(vals[0][j]).tobytes():
                        flat[a] = vals[1][j]
                    continue
                x = vals[0][j] if vals else None
                if name == "atomic_add":
                    nv = o + x
                elif name == "atomic_sub":
                    nv = o - x
                elif name == "atomic_inc":
                    nv = o + out(1)
                elif name == "atomic_dec":
                    nv = o - out(1)
                elif name == "atomic_exch":
                    nv = x
                elif name == "atomic_min":
                    nv = min(o, x)
                elif name == "atomic_max":
                    nv = max(o, x)
                elif name == "atomic_and":
                    nv = o & x
                elif name == "atomic_or":
                    nv = o | x
                else:
                    nv = o ^ x
                flat[a] = nv
        return old if arr.elt != "f16" else old.astype(np.float32)


def _default(types: C.Types, t: Any) -> Any:
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        return VRec(ri, [_default(types, ft) for ft in ri.types])
    if k == "var":
        vi = types.var(t)
        return VVar(vi, np.int32(vi.default_tag), [[_default(types, pt) for pt in ps] for ps in vi.payloads])
    return _DT[k](0)


def _from_value(types: C.Types, v: Any, t: Any) -> Any:
    """A reference-executor value (Rec/Var/scalar) as a fast-executor value."""
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        return VRec(ri, [_from_value(types, x, ft) for x, ft in zip(v.f, ri.types)])
    if k == "var":
        vi = types.var(t)
        return VVar(vi, np.int32(v.tag), [[_from_value(types, x, pt) for x, pt in zip(v.p, ps)] if j == v.tag
                                          else [_default(types, pt) for pt in ps] for j, ps in enumerate(vi.payloads)])
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
        return TVar(tag, [[_to_tree(types, xv[c][f"_{j}"], pt) for j, pt in enumerate(ps)]
                          for c, ps in zip(vi.ctors, vi.payloads)])
    if k == "i1":
        return np.array(xv != 0)
    if k == "bf16":
        return C.bf16_to_f32(xv)
    return np.array(xv, np.float16 if k == "f16" else _DT[k])


def _from_tree(types: C.Types, d: Any, t: Any, out: np.ndarray, sel: Any) -> None:
    k = kind(t)
    if k == "rec":
        ri = types.rec(t)
        for x, f, ft in zip(d.f, ri.fields, ri.types):
            _from_tree(types, x, ft, out[f], sel)
    elif k == "var":
        vi = types.var(t)
        _from_tree(types, d.tag, S.i32, out["tag"], sel)
        for c, (name, ps) in enumerate(zip(vi.ctors, vi.payloads)):
            csel = d.tag == c if sel is None else (sel & (d.tag == c))
            for j, (x, pt) in enumerate(zip(d.p[c], ps)):
                _from_tree(types, x, pt, out[name][f"_{j}"], csel)
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
        return _DT[k](C.wrap_kind(int(x), k))
    if k == "bf16":
        return C.bf16_arg(x)
    if k == "f16":
        return C.f16(x)
    if k == "i1":
        return np.bool_(bool(x))
    return _DT[k](x)


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
    ex = _Exec(module, grid, block, warp_size)
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
    try:
        with np.errstate(all="ignore"):
            ex.call(k, vals, None)
    except Unvectorizable:
        for x, c in saved:
            if x.flags.writeable:  # a read-only input cannot have been written
                x[...] = c
        raise
    except (InterpError, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001 - never a Python traceback for the user
        raise InterpError(f"internal interpreter error: {type(exc).__name__}: {exc}", k) from exc
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
