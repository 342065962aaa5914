"""The fast executor's base: the launch (grid, block, warps, lazily built thread indices), faults and
uniformity checks, indexing, reads and writes of arrays and structure-of-arrays trees, places."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.interp.common import InterpError, kind
from sarek.interp.fast_check import module_types
from sarek.interp.fast_values import (
    DT,
    Arr,
    Cell,
    ElemPlace,
    TRec,
    TVar,
    VRec,
    VVar,
    any_lane,
    default_value,
    isarr,
    merge,
    replace_at,
)


class ExecBase:
    """The state of one launch and its memory."""

    def __init__(self, module: ModuleOp, grid: tuple[int, int, int], block: tuple[int, int, int], ws: int):
        self.module = module
        self.types = module_types(module)
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
        elif name == "warp_id":
            v = (self.lazy("ltid") // self.ws).astype(i32)
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

    def fault(self, op: Operation, msg: str) -> InterpError:
        return InterpError(msg, op)

    def full(self, v: Any) -> np.ndarray:
        return v if isarr(v) else np.full(self.n, v)

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

    def check_grid_uniform(self, op: Operation, m: Any) -> None:
        if m is None or m is False or bool(np.all(m)):
            return
        blocks = np.bincount(self.blk[m], minlength=self.nb)
        raise self.fault(op, f"grid barrier reached by only {int(np.count_nonzero(m))} of {self.n} threads "
                             f"({int(np.count_nonzero(blocks))} of {self.nb} blocks; a grid barrier needs every "
                             "thread of every block)")

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
        if isarr(i):
            ii = i if m is None else np.where(m, i, 0)
            bad = (ii.view(np.uint32) >= arr.n) if ii.dtype == np.int32 else ((ii < 0) | (ii >= arr.n))
            if bad.any():
                k = int(np.argmax(bad))
                raise self.fault(op, f"index {int(ii[k])} out of bounds for an array of length {arr.n}")
            return ii
        if not 0 <= int(i) < arr.n:
            if any_lane(m):
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
            ii = np.where(m, i, 0) if isarr(i) and m is not None else i
            ii = ii.astype(np.int64) if isarr(ii) else int(ii)  # the offset in 64 bits: extents are i32, their product not
            bad = (ii < 0) | (ii >= n)
            if isarr(bad) and bad.any() or not isarr(bad) and bad and any_lane(m):
                lane = int(np.argmax(bad)) if isarr(bad) else 0
                at = [int(x[lane]) if isarr(x) else int(x) for x in idx]
                raise self.fault(op, f"index {at} out of bounds for an array of shape {list(arr.shape)} "
                                     f"(dimension {d}: {at[d]} not in 0..{n - 1})")
            flat = flat * n + (np.where(bad, 0, ii) if isarr(bad) else 0 if bad else ii)
        return flat

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
            v = v.astype(np.float32) if isarr(v) else np.float32(v)
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
                if isarr(i) or not isarr(v):
                    d[i] = v
                else:  # every lane writes one slot: the last lane wins, as in the reference order
                    d[i] = v[-1]
            else:
                ii = i[m] if isarr(i) else i
                vv = v[m] if isarr(v) else v
                if not isarr(ii) and isarr(vv):
                    vv = vv[-1]
                d[ii] = vv
        else:
            rows = row if m is None else row[m]
            ii = i if not isarr(i) else (i if m is None else i[m])
            vv = v if not isarr(v) else (v if m is None else v[m])
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
        return np.zeros(shape, np.float16 if k == "f16" else DT[k])

    def default(self, t: Any) -> Any:
        return default_value(self.types, t)

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
            p.root.v = merge(m, replace_at(p.root.v, p.path, v), p.root.v)
        else:
            d = p.root.arr.data
            for j in p.path:
                d = d.f[j]
            self.twrite(d, p.root.arr.row, p.root.idx, v, m)
