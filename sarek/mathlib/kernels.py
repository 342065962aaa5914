"""Elementwise kernels over one math intrinsic: what the accuracy benchmark and the bit-for-bit tests run."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Attribute

from sarek.dialect import sarek as s
from sarek.dialect.builder import ModuleBuilder
from sarek.dialect.intrinsics import INTRINSICS
from sarek.mathlib.helpers import INT_SECOND


def elementwise(name: str, t: Attribute, kernel: str = "apply") -> ModuleOp:
    """`kernel @apply(x: vec<T>[, y: vec<T>], out: vec<T>)`: out[i] = name(x[i][, y[i]]) for i < len(out) (ldexp's
    y: vec<i32>)."""
    n = INTRINSICS[name].arity
    mb = ModuleBuilder()
    params = [(p, s.VecType(i32 if j and name in INT_SECOND else t)) for j, p in enumerate(("x", "y", "z")[:n])]
    params.append(("out", s.VecType(t)))
    with mb.kernel(kernel, params) as b:
        *ins, out = b.params
        i = b.let("i", b.intrinsic("global_thread_id"))
        with b.if_(b.binop("lt", i, b.length(out))):
            b.store(b.elem_ref(out, i), b.intrinsic(name, *[b.read(v, i) for v in ins]))
    mb.module.verify()
    return mb.module
