"""The fast executor's cooperative matrices: one fragment per warp, every warp of the launch at once.

A fragment is a (warps, rows, cols) array (sarek.interp.coopmat's element model) and a per-warp `written` mask.
An op takes its operands from the first lane of each warp (they must be equal on every lane of the warp, and
the op reached by every lane of the warp or none: a located error otherwise), works on the active warps, and a
store writes each element once per warp. What the ops compute is sarek.interp.coopmat's (the reference executor
computes the same per invocation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.interp import coopmat as CM
from sarek.interp.common import kind
from sarek.interp.fast_exec import ExecBase
from sarek.interp.fast_values import Arr, isarr


@dataclass
class Frag:
    value: np.ndarray    # (warps, rows, cols)
    written: np.ndarray  # (warps,) bool


class CoopExec(ExecBase):
    """`coop(op, env, m)` runs one `sarek.coopmat_*` op; fragments live in the function's env under their name."""

    def warps(self) -> tuple[np.ndarray, np.ndarray, int]:
        """Per lane its warp, the first lane of every warp, and the number of warps."""
        wpb = (self.bs + self.ws - 1) // self.ws
        wid = self.blk * wpb + self.ltid // self.ws
        first = np.nonzero(self.ltid % self.ws == 0)[0]
        return wid, first, self.nb * wpb

    def per_warp(self, op: Operation, v: Any, what: str) -> np.ndarray:
        wid, first, nw = self.warps()
        if not isarr(v):
            return np.full(nw, v)
        w = v[first]
        if (v != w[wid]).any():
            raise self.fault(op, f"the {what} of {op.name} differs between the lanes of a warp (every lane of a warp "
                                 "executes a cooperative-matrix op with the same operands)")
        frag = getattr(op, "frag", None)
        if frag is not None and S.is_warpgroup(op, frag.data) and len(w) % 4 == 0 and \
                (w.reshape(-1, 4) != w.reshape(-1, 4)[:, :1]).any():
            raise self.fault(op, f"the {what} of {op.name} differs between the warps of a warpgroup (the 128 "
                                 "threads of a warpgroup fragment's group execute each op with the same operands: "
                                 "use warp_id // 4, block indices, parameters)")
        return w

    def active(self, op: Operation, m: Any) -> np.ndarray:
        wid, _, nw = self.warps()
        self.check_warp_uniform(op, m)
        if m is None:
            return np.ones(nw, bool)
        if m is False:
            return np.zeros(nw, bool)
        return np.bincount(wid[m], minlength=nw) > 0

    def frag(self, env: dict[Any, Any], op: Operation, name: str, act: np.ndarray) -> Frag:
        f: Frag | None = env.get(("frag", name))
        if f is None or not f.written[act].all():
            raise self.fault(op, f"fragment '{name}' is read before anything wrote it (a coop fill, load or mma first)")
        return f

    def put(self, env: dict[Any, Any], op: Operation, name: str, act: np.ndarray, value: np.ndarray) -> None:
        d = S.fragment_decl(op, name)
        _, _, nw = self.warps()
        f: Frag | None = env.get(("frag", name))
        if f is None:
            k = kind(d.element_type)
            f = Frag(np.zeros((nw, d.rows.value.data, d.cols.value.data), np.int64 if k in CM.INTS else np.float32),
                     np.zeros(nw, bool))
            env[("frag", name)] = f
        f.value[act] = value
        f.written[act] = True

    def positions(self, op: S.CoopmatLoadOp | S.CoopmatStoreOp, env: dict[SSAValue, Any], act: np.ndarray,
                  arr: Arr, rows: int, cols: int) -> tuple[Any, np.ndarray]:
        """The (row selector, flat positions) of the active warps' elements, bounds-checked."""
        idx = self.per_warp(op, env[op.index], "index")[act].astype(np.int64)
        st = self.per_warp(op, env[op.stride], "stride")[act].astype(np.int64)
        if (w := CM.core_of(op)) and len(idx):
            try:
                pos = np.stack([CM.core_positions(int(i), int(s), rows, cols, w, arr.n) for i, s in zip(idx, st)])
            except CM.CoopError as e:
                raise self.fault(op, str(e)) from None
            if arr.row is None:
                return None, pos
            _, first, _ = self.warps()
            return arr.row[first][act][:, None, None], pos
        r, c = np.arange(rows)[None, :, None], np.arange(cols)[None, None, :]
        a, b = (c, r) if op.col_major is not None else (r, c)
        pos = idx[:, None, None] + a * st[:, None, None] + b
        bad = (pos < 0) | (pos >= arr.n)
        if bad.any():
            w = int(np.nonzero(bad.any(axis=(1, 2)))[0][0])
            raise self.fault(op, f"element {int(pos[bad][0])} is outside the buffer of {arr.n} elements (index "
                                 f"{int(idx[w])}, stride {int(st[w])})")
        if arr.row is None:
            return None, pos
        _, first, _ = self.warps()
        return arr.row[first][act][:, None, None], pos

    def coop(self, op: Operation, env: dict[Any, Any], m: Any) -> None:
        if isinstance(op, S.CoopmatDeclOp):
            env.pop(("frag", op.frag.data), None)
            return
        act = self.active(op, m)
        if not act.any():
            return
        if isinstance(op, S.CoopmatMulAddOp):
            a, b, c = (self.frag(env, op, x.data, act).value[act] for x in (op.a, op.b, op.c))
            k = kind(S.fragment_decl(op, op.c.data).element_type)
            self.put(env, op, op.d.data, act, CM.mma_batched(a, b, c, k))
            return
        assert isinstance(op, S.CoopmatFillOp | S.CoopmatLoadOp | S.CoopmatStoreOp)
        d = S.fragment_decl(op, op.frag.data)
        rows, cols, k = d.rows.value.data, d.cols.value.data, kind(d.element_type)
        dt = np.int64 if k in CM.INTS else np.float32
        if isinstance(op, S.CoopmatFillOp):
            x = self.per_warp(op, env[op.value], "value")[act].astype(dt)
            self.put(env, op, op.frag.data, act, np.broadcast_to(x[:, None, None], (len(x), rows, cols)))
            return
        arr: Arr = env[op.array]
        row, pos = self.positions(op, env, act, arr, rows, cols)
        if isinstance(op, S.CoopmatLoadOp):
            v = arr.data[pos] if row is None else arr.data[row, pos]
            self.put(env, op, op.frag.data, act, v.astype(dt))
            return
        v = self.frag(env, op, op.frag.data, act).value[act]
        if row is None:
            arr.data[pos] = v.astype(arr.data.dtype)
        else:
            arr.data[row, pos] = v.astype(arr.data.dtype)
