"""The fast executor, computation: binary operators, casts, intrinsics, bit counts, warp shuffles and
atomics, all over lanes."""

from __future__ import annotations

from typing import Any

import numpy as np

from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, WARP_VOTES, Category
from sarek.interp import arith as A
from sarek.interp import common as C
from sarek.interp.common import kind
from sarek.interp.fast_exec import ExecBase
from sarek.interp.fast_values import DT, Arr, any_lane, isarr


class ExecCompute(ExecBase):
    """Operators, casts, intrinsics and atomics."""

    def f16(self, v: Any) -> Any:
        return v.astype(np.float16).astype(np.float32) if isarr(v) else A.f16(v)

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
        dt = DT[k]
        if kd == "div" and k in ("f16", "f32", "f64"):
            return a / b
        bits = C.int_bits(k)[0]
        if kd == "shl":
            return np.left_shift(a, b & dt(bits - 1)).astype(dt)
        if kd == "shr":
            return np.right_shift(a, b & dt(bits - 1)).astype(dt)
        # integer div / rem: C semantics, checked on active lanes
        z = b == 0
        if isarr(z):
            zz = z if m is None else (z & m)
            if zz.any():
                raise self.fault(op, f"integer {'division' if kd == 'div' else 'remainder'} by zero")
            b = np.where(z, dt(1), b)
        elif z:
            if any_lane(m):
                raise self.fault(op, f"integer {'division' if kd == 'div' else 'remainder'} by zero")
            b = dt(1)
        r = np.fmod(a, b)
        if kd == "rem":
            return r.astype(dt) if isarr(r) else dt(r)
        q = (a - r) // b
        return q.astype(dt) if isarr(q) else dt(q)

    def cast(self, op: S.CastOp, a: Any) -> Any:
        src, dst = kind(op.operand.type), kind(op.result.type)
        arr = isarr(a)
        if src == dst:
            return a
        if dst in C.INTS:
            dt = DT[dst]
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
        dt = DT[dst]
        return a.astype(dt) if arr else dt(a)

    def intrinsic(self, op: S.IntrinsicOp, args: list[Any], m: Any) -> Any:
        name = op.callee.data
        info = INTRINSICS[name]
        if info.category == Category.INDEX or name in ("lane_id", "warp_size", "warp_id"):
            v = self._idx.get(name)
            return v if v is not None else self.lazy(name)
        if info.category == Category.WARP and name in WARP_VOTES:
            return self.vote(op, name, args[0], m)
        if info.category == Category.WARP:
            return self.shuffle(op, name, args[0], args[1], m)
        k = kind(op.result.type)
        if info.category == Category.MATH:
            if name in A.INT_INTRINSICS:  # on the operand's bits (sarek.dialect.semantics)
                return A.int_intrinsic(name, args[0], C.int_bits(kind(op.args[0].type))[0], DT[k])
            if k in C.INTS:
                if name == "abs":
                    return np.abs(args[0])
                return (np.minimum if name == "min" else np.maximum)(args[0], args[1])
            fn = {"abs": "fabs", "min": "fmin", "max": "fmax"}.get(name, name)
            return A.MATH[fn](*args)
        return self.atomic(op, name, args, m, k)

    def vote(self, op: S.IntrinsicOp, name: str, c: Any, m: Any) -> Any:
        """warp_any / warp_all / warp_ballot: one value per warp (a ballot keeps lanes 0..31, warp_ballot64 lanes
        0..63), every lane of the warp gets it."""
        self.check_warp_uniform(op, m)
        ws = self.ws
        wid = self.blk * ((self.bs + ws - 1) // ws) + self.ltid // ws
        cc = np.broadcast_to(np.asarray(c, bool), wid.shape)
        if name in ("warp_ballot", "warp_ballot64"):
            lanes = 32 if name == "warp_ballot" else 64
            lane = (self.ltid % ws).astype(np.uint64)
            bits = np.where(cc & (lane < lanes), np.left_shift(np.uint64(1), np.minimum(lane, 63)), np.uint64(0))
            acc = np.zeros(int(wid.max()) + 1, np.uint64)
            np.bitwise_or.at(acc, wid, bits)
            return acc[wid].astype(np.uint32 if lanes == 32 else np.uint64)
        acc = np.zeros(int(wid.max()) + 1, np.int64)
        np.add.at(acc, wid, cc.astype(np.int64))
        if name == "warp_any":
            return acc[wid] > 0
        size = np.bincount(wid, minlength=len(acc))
        return acc[wid] == size[wid]

    def shuffle(self, op: S.IntrinsicOp, name: str, v: Any, x: Any, m: Any) -> Any:
        self.check_warp_uniform(op, m)
        if not isarr(v):
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
            return DT[k](0)
        ii = self.full(i)[lanes]
        flat = arr.data.reshape(-1)
        addr = ii.astype(np.int64) if arr.row is None else arr.row[lanes].astype(np.int64) * arr.n + ii
        vals: list[Any] = [self.full(a)[lanes] if a is not None else None for a in args[2:]]
        old = np.zeros(self.n, flat.dtype)
        if k in C.INTS and name in ("atomic_add", "atomic_sub", "atomic_inc", "atomic_dec"):
            dt = DT[k]
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
