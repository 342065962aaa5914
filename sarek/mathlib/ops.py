"""`Ops`: the arithmetic the math routines are written in, building sarek IR through a BodyBuilder.

Floats are f64, integers i64, conditions i1. A product that reaches an addition or subtraction becomes one
`fma` (never a `mul` then an `add`): shader and OpenCL compilers may contract a separate pair into an fma,
or not, so only an explicit fma gives the same bits everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import f64, i1, i64
from xdsl.ir import SSAValue

from sarek.dialect.builder import BodyBuilder

V = SSAValue
Num = SSAValue | float


@dataclass
class Ops:
    b: BodyBuilder
    # products not yet consumed: result -> (lhs, rhs), so that add/sub fold them into an fma
    _prod: dict[SSAValue, tuple[SSAValue, SSAValue]] = field(default_factory=dict[SSAValue, tuple[SSAValue, SSAValue]])

    def c(self, v: Num) -> V:
        if isinstance(v, SSAValue):
            return v
        return self.b.const(float(v), f64)

    def ci(self, v: int) -> V:
        return self.b.const(v, i64)

    # -- float arithmetic
    def _bin(self, kind: str, x: Num, y: Num) -> V:
        return self.b.binop(kind, self.c(x), self.c(y))

    def mul(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        r = self.b.binop("mul", a, b)
        self._prod[r] = (a, b)
        return r

    def fma(self, x: Num, y: Num, z: Num) -> V:
        return self.b.intrinsic("fma", self.c(x), self.c(y), self.c(z))

    def add(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        if a in self._prod:
            return self.fma(*self._prod[a], b)
        if b in self._prod:
            return self.fma(*self._prod[b], a)
        return self.b.binop("add", a, b)

    def sub(self, x: Num, y: Num) -> V:
        a, b = self.c(x), self.c(y)
        if b in self._prod:
            p, q = self._prod[b]
            return self.fma(self.neg(p), q, a)
        if a in self._prod:
            return self.fma(*self._prod[a], self.neg(b))
        return self.b.binop("sub", a, b)

    def div(self, x: Num, y: Num) -> V:
        return self._bin("div", x, y)

    def neg(self, x: Num) -> V:
        return self.b.unop("neg", self.c(x))

    def sqrt(self, x: Num) -> V:
        return self.b.intrinsic("sqrt", self.c(x))

    def abs(self, x: Num) -> V:
        return self.b.intrinsic("fabs", self.c(x))

    def floor(self, x: Num) -> V:
        return self.b.intrinsic("floor", self.c(x))

    def fmin(self, x: Num, y: Num) -> V:
        return self.b.intrinsic("fmin", self.c(x), self.c(y))

    def fmax(self, x: Num, y: Num) -> V:
        return self.b.intrinsic("fmax", self.c(x), self.c(y))

    def poly(self, z: V, coeffs: Sequence[float]) -> V:
        """Horner with fma: coeffs[0] + z*(coeffs[1] + z*(...))."""
        acc = self.c(coeffs[-1])
        for cf in reversed(coeffs[:-1]):
            acc = self.fma(acc, z, cf)
        return acc

    def two_sum(self, a: V, b: V) -> tuple[V, V]:
        """s + e == a + b exactly (neither may be an unconsumed product: it would fuse)."""
        assert a not in self._prod and b not in self._prod, "two_sum of a product"
        s = self.add(a, b)
        bb = self.sub(s, a)
        return s, self.add(self.sub(a, self.sub(s, bb)), self.sub(b, bb))

    def fast_two_sum(self, a: V, b: V, exact: bool = False) -> tuple[V, V]:
        """s + e == a + b exactly when |a| >= |b| (or a == 0); `exact`: a may be a product that is exact
        (folding it into an fma then gives the same sum)."""
        assert (exact or a not in self._prod) and b not in self._prod, "fast_two_sum of a product"
        s = self.add(a, b)
        return s, self.sub(b, self.sub(s, a))

    # -- comparisons and selection
    def cmp(self, kind: str, x: Num, y: Num) -> V:
        return self._bin(kind, x, y)

    def isnan(self, x: V) -> V:
        return self.b.binop("ne", x, x)

    def and_(self, p: V, q: V) -> V:
        return self.b.binop("and", p, q)

    def or_(self, p: V, q: V) -> V:
        return self.b.binop("or", p, q)

    def sel(self, p: V, x: Num, y: Num) -> V:
        """p ? x : y (both already computed)."""
        a, b = self.c(x), self.c(y)
        e = self.b.if_expr(p, a.type)
        with e.then_():
            e.yield_(a)
        with e.else_():
            e.yield_(b)
        return e.result

    # -- bits (i64)
    def bits(self, x: V) -> V:
        return self.b.bitcast(x, i64)

    def from_bits(self, n: V) -> V:
        return self.b.bitcast(n, f64)

    def ibin(self, kind: str, x: V | int, y: V | int) -> V:
        a = x if isinstance(x, SSAValue) else self.ci(x)
        b = y if isinstance(y, SSAValue) else self.ci(y)
        return self.b.binop(kind, a, b)

    def to_int(self, x: V) -> V:
        return self.b.cast(x, i64)

    def to_float(self, n: V) -> V:
        return self.b.cast(n, f64)

    def signbit(self, x: V) -> V:
        return self.ibin("lt", self.bits(x), 0)

    def copysign(self, mag: V, sign: V) -> V:
        m = self.ibin("bitand", self.bits(mag), 0x7FFFFFFFFFFFFFFF)
        s = self.ibin("bitand", self.bits(sign), -0x8000000000000000)
        return self.from_bits(self.ibin("bitor", m, s))

    def pow2(self, k: V) -> V:
        """2^k for an i64 k in [-1022, 1023]."""
        return self.from_bits(self.ibin("shl", self.ibin("add", k, 1023), 52))

    def true(self) -> V:
        return self.b.const(True, i1)
