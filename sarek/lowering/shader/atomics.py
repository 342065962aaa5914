"""Atomic operations: native atomics, float atomics as compare-and-swap loops on the bits, WGSL CAS loops."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Block

from sarek.dialect import sarek as S
from sarek.dialect.scalars import is_unsigned
from sarek.lowering.shader.expressions import Expressions
from sarek.lowering.shader.language import IDENT, err
from sarek.lowering.shader.state import Scope, int_width, nuses


class Atomics(Expressions):
    """Atomic intrinsics on buffers and shared arrays."""

    def atomic(self, op: S.IntrinsicOp, out: Block, scope: Scope) -> None:
        L = self.lang
        name = op.callee.data
        st = self.storage_of(op.args[0], op)
        et = st.elem
        p = f"{st.name}[{self.index(op.args[1])}]"
        vals = [self.expr(a) for a in op.args[2:]]
        used = bool(op.results and nuses(op.results[0]))
        isf = isinstance(et, Float32Type)
        cas_loop = L.cas_loop if name == "atomic_cas" else None
        if isf or cas_loop is not None:  # compare-and-swap loops: operands evaluated once
            for j, (a, v) in enumerate(zip(op.args[2:], vals)):
                if not IDENT.fullmatch(v) and not re.fullmatch(r"[-0-9.eEfiLlu()]+", v):
                    t = self.temp(scope)
                    self.declare(out, scope, t, a.type, v, op, mutable=False)
                    vals[j] = t
        assert isf or int_width(et) == 32, f"{name} on {et}: refused by the feature gate (ATOMIC_GAPS, INT64)"
        if st.space == "local":
            raise err("atomics on a local array are not supported on this backend", op, self.lang)
        self.ty(et, op)
        if not isf:
            if name in ("atomic_inc", "atomic_dec") and is_unsigned(et):  # the templates' one is signed
                name, vals = name.replace("inc", "add").replace("dec", "sub"), ["1" + L.u32_suffix]
            if cas_loop is not None:
                r = self.temp(scope)
                cas_loop(self, out, scope, r, self.ty(et, op), p, vals[0], vals[1], "{}")
                if op.results:
                    self.vals[op.results[0]] = r
                return
            text = L.int_atomics[name].format(*vals, p=p)
            if used:
                self.materialize(op, out, scope, text)
            else:
                self.stmt(out, text)
            return
        if st.repr == "plain":  # a float buffer only added to: the language's native float add (atomic_repr)
            assert L.f32_atomic_add is not None
            one = "1.0" + L.f32_suffix
            v = {"atomic_inc": one, "atomic_dec": f"-{one}"}.get(name) or \
                (f"(-{vals[0]})" if name == "atomic_sub" else vals[0])
            text = L.f32_atomic_add.call.format(v, p=p)
            if used:
                self.materialize(op, out, scope, text)
            else:
                self.stmt(out, text)
            return
        # float: compare-and-swap loop on the bits
        assert st.repr == "f32bits"
        r = self.temp(scope)
        bits = [L.f32_to_bits.format(v) for v in vals]
        if name == "atomic_exch" or (name == "atomic_cas" and cas_loop is None):
            self.declare(out, scope, r, et, L.f32_from_bits.format(L.int_atomics[name].format(*bits, p=p)), op,
                         mutable=False)
            if op.results:
                self.vals[op.results[0]] = r
            return
        if cas_loop is not None:
            cas_loop(self, out, scope, r, self.ty(et, op), p, bits[0], bits[1], L.f32_from_bits)
            if op.results:
                self.vals[op.results[0]] = r
            return
        o = self.temp(scope, "sarek_old")
        f = "sarek_cur"
        v0 = vals[0] if vals else ""
        one = "1.0" + L.f32_suffix
        # min/max replace only where the operand compares strictly less/greater (NaN, -0.0: docs/KERNELS.md);
        # NaN is tested on the bits too, since shader compilers may assume no NaN and fold the select to min/max
        ordered = " && ".join(f"(({L.f32_to_bits.format(x)} & 0x7fffffff{L.u32_suffix}) <= 0x7f800000{L.u32_suffix})"
                              for x in (v0, f))
        newf = {"atomic_add": f"{f} + {v0}", "atomic_sub": f"{f} - {v0}",
                "atomic_min": L.select.format(c=f"{v0} < {f} && {ordered}", a=v0, b=f),
                "atomic_max": L.select.format(c=f"{v0} > {f} && {ordered}", a=v0, b=f), "atomic_inc": f"{f} + {one}",
                "atomic_dec": f"{f} - {one}"}
        assert name in newf, f"{name} on f32: refused by the feature gate (ATOMIC_GAPS)"
        ls = Scope(scope)
        cur = self.temp(ls, "sarek_cur")
        x = self.temp(ls, "sarek_x")
        old = L.float_rmw(self, out, scope, p, o, cur, x, newf[name].replace("sarek_cur", cur))
        self.declare(out, scope, r, et, old, op, mutable=False)
        if op.results:
            self.vals[op.results[0]] = r
