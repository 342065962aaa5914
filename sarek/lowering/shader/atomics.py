"""Atomic operations: native atomics, float atomics as compare-and-swap loops on the bits, WGSL CAS loops."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Block

from sarek.dialect import sarek as S
from sarek.lowering.shader.expressions import Expressions
from sarek.lowering.shader.language import IDENT, err
from sarek.lowering.shader.layout import int_width
from sarek.lowering.shader.state import Scope, nuses


class Atomics(Expressions):
    """Atomic intrinsics on buffers and shared arrays."""

    def wgsl_cas_loop(self, out: Block, scope: Scope, r: str, ty: str, p: str, expected: str, new: str,
                      result: str) -> None:
        """WGSL `var r : ty` = compare-and-swap of `p` (expected, new), as a loop on atomicCompareExchangeWeak
        (which may fail spuriously); `result` spells r's value from the old bits (`{}` stands for them)."""
        self.stmt(out, f"var {r} : {ty}")
        lp = self.O["loop"]()
        x = self.temp(scope, "sarek_x")
        self.stmt(lp.regions[0].block, f"let {x} = atomicCompareExchangeWeak(&{p}, {expected}, {new})")
        brk = self.O["if"](f"{x}.exchanged || {x}.old_value != {expected}")
        self.stmt(brk.regions[0].block, f"{r} = {result.format(f'{x}.old_value')}")
        self.stmt(brk.regions[0].block, "break")
        lp.regions[0].block.add_op(brk)
        out.add_op(lp)

    def atomic(self, op: S.IntrinsicOp, out: Block, scope: Scope) -> None:
        g = self.lang.glsl
        name = op.callee.data
        st = self.storage_of(op.args[0], op)
        et = st.elem
        p = f"{st.name}[{self.index(op.args[1])}]"
        vals = [self.expr(a) for a in op.args[2:]]
        used = bool(op.results and nuses(op.results[0]))
        isf = isinstance(et, Float32Type)
        if isf or (name == "atomic_cas" and not g):  # compare-and-swap loops: operands evaluated once
            for j, (a, v) in enumerate(zip(op.args[2:], vals)):
                if not IDENT.fullmatch(v) and not re.fullmatch(r"[-0-9.eEfiLlu()]+", v):
                    t = self.temp(scope)
                    self.declare(out, scope, t, a.type, v, op, mutable=False)
                    vals[j] = t
        if not (isf or (int_width(et) == 32)):
            raise err(f"{name} on {et} elements is not supported on {self.lang.name}", op, self.lang)
        if st.space == "local":
            raise err("atomics on a local array are not supported on this backend", op, self.lang)
        self.ty(et, op)
        if not isf:
            one = "1" if g else "1i"
            if g:
                fn = {"atomic_add": "atomicAdd", "atomic_sub": "atomicAdd", "atomic_min": "atomicMin",
                      "atomic_max": "atomicMax", "atomic_exch": "atomicExchange", "atomic_and": "atomicAnd",
                      "atomic_or": "atomicOr", "atomic_xor": "atomicXor", "atomic_inc": "atomicAdd",
                      "atomic_dec": "atomicAdd", "atomic_cas": "atomicCompSwap"}[name]
                if name == "atomic_sub":
                    vals = [f"(-{vals[0]})"]
                elif name == "atomic_inc":
                    vals = [one]
                elif name == "atomic_dec":
                    vals = ["(-1)"]
                text = f"{fn}({p}, {', '.join(vals)})"
            else:
                if name == "atomic_cas":
                    r = self.temp(scope)
                    self.wgsl_cas_loop(out, scope, r, "i32", p, vals[0], vals[1], "{}")
                    if op.results:
                        self.vals[op.results[0]] = r
                    return
                fn = {"atomic_add": "atomicAdd", "atomic_sub": "atomicSub", "atomic_min": "atomicMin",
                      "atomic_max": "atomicMax", "atomic_exch": "atomicExchange", "atomic_and": "atomicAnd",
                      "atomic_or": "atomicOr", "atomic_xor": "atomicXor", "atomic_inc": "atomicAdd",
                      "atomic_dec": "atomicSub"}[name]
                if name in ("atomic_inc", "atomic_dec"):
                    vals = [one]
                text = f"{fn}(&{p}, {', '.join(vals)})"
            if used:
                self.materialize(op, out, scope, text)
            elif g:
                self.stmt(out, text)
            else:
                self.stmt(out, f"_ = {text}" if False else text)
            return
        # float: compare-and-swap loop on the bits
        assert st.repr == "f32bits"
        r = self.temp(scope)
        if name == "atomic_exch":
            text = (f"uintBitsToFloat(atomicExchange({p}, floatBitsToUint({vals[0]})))" if g
                    else f"bitcast<f32>(atomicExchange(&{p}, bitcast<u32>({vals[0]})))")
            self.declare(out, scope, r, et, text, op, mutable=False)
            if op.results:
                self.vals[op.results[0]] = r
            return
        if name == "atomic_cas":
            if g:
                text = f"uintBitsToFloat(atomicCompSwap({p}, floatBitsToUint({vals[0]}), floatBitsToUint({vals[1]})))"
                self.declare(out, scope, r, et, text, op, mutable=False)
            else:
                self.wgsl_cas_loop(out, scope, r, "f32", p, f"bitcast<u32>({vals[0]})", f"bitcast<u32>({vals[1]})",
                                   "bitcast<f32>({})")
            if op.results:
                self.vals[op.results[0]] = r
            return
        o = self.temp(scope, "sarek_old")
        f = "sarek_cur"
        newf = {"atomic_add": f"{f} + {vals[0] if vals else ''}", "atomic_sub": f"{f} - {vals[0] if vals else ''}",
                "atomic_min": f"min({f}, {vals[0] if vals else ''})", "atomic_max": f"max({f}, {vals[0] if vals else ''})",
                "atomic_inc": f"{f} + {'1.0' if g else '1.0f'}", "atomic_dec": f"{f} - {'1.0' if g else '1.0f'}"}
        if name not in newf:
            raise err(f"{name} on f32 is not supported on {self.lang.name}", op, self.lang)
        lp = self.O["loop"]()
        lb = lp.regions[0].block
        ls = Scope(scope)
        cur = self.temp(ls, "sarek_cur")
        x = self.temp(ls, "sarek_x")
        nexpr = newf[name].replace("sarek_cur", cur)
        if g:
            # a flag-controlled while (naga's SPIR-V reader rejects glslang's `for (;;) { ... break; }` here)
            done = self.temp(scope, "sarek_done")
            self.stmt(out, f"uint {o} = {p}")
            self.stmt(out, f"bool {done} = false")
            w = self.O["while"](f"!{done}")
            wb = w.regions[0].block
            self.stmt(wb, f"float {cur} = uintBitsToFloat({o})")
            self.stmt(wb, f"uint {x} = atomicCompSwap({p}, {o}, floatBitsToUint({nexpr}))")
            self.stmt(wb, f"{done} = ({x} == {o})")
            self.stmt(wb, f"{o} = {x}")
            out.add_op(w)
            self.declare(out, scope, r, et, f"uintBitsToFloat({o})", op, mutable=False)
        else:
            self.stmt(out, f"var {o} : u32 = atomicLoad(&{p})")
            self.stmt(lb, f"let {cur} : f32 = bitcast<f32>({o})")
            self.stmt(lb, f"let {x} = atomicCompareExchangeWeak(&{p}, {o}, bitcast<u32>({nexpr}))")
            brk = self.O["if"](f"{x}.exchanged")
            self.stmt(brk.regions[0].block, "break")
            lb.add_op(brk)
            self.stmt(lb, f"{o} = {x}.old_value")
            out.add_op(lp)
            self.declare(out, scope, r, et, f"bitcast<f32>({o})", op, mutable=False)
        if op.results:
            self.vals[op.results[0]] = r
